//! The delivery order of messages due at one node at the same instant. By default they are handled
//! in the order they were sent (the queue's sequence); a scenario's `[[order]]` entries, or the
//! explorer, can make another one go first. A node's messages are the only order that matters:
//! messages due at different nodes at one instant are handled by different processes.

use super::{Item, QueueKey, Sim};
use crate::scenario::Order;
use crate::topology::NodeId;
use crate::trace::{EventKind, TraceEvent};
use crate::unapplied::Unapplied;

/// A rule that picks which message goes first (from a scenario's `[[order]]`, or added by the
/// explorer), resolved to node ids.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(super) struct OrderRule {
    at_ms: u64,
    to: NodeId,
    from: Option<NodeId>,
    prefix: String,
    /// Its turn came (a choice at its instant and node was made).
    used: bool,
    /// It named one of the messages due when its turn came.
    applied: bool,
    /// Its index in the scenario's `[[order]]` (None when the explorer added it).
    index: Option<usize>,
}

/// Several messages due at one node at the next instant, one of which is next to be handled: the
/// choice a `[[order]]` entry makes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Contest {
    pub at_ms: u64,
    pub to: NodeId,
    /// Each due message's sender and label, in the order they would be handled by default.
    pub messages: Vec<(NodeId, String)>,
}

impl Sim {
    /// The rules of a scenario's `[[order]]` entries (names were checked by validation).
    pub(super) fn order_rules(&self, orders: &[Order]) -> Vec<OrderRule> {
        orders
            .iter()
            .enumerate()
            .filter_map(|(i, o)| {
                let mut rule = self.order_rule(o)?;
                rule.index = Some(i);
                Some(rule)
            })
            .collect()
    }

    fn order_rule(&self, o: &Order) -> Option<OrderRule> {
        Some(OrderRule {
            at_ms: o.at_ms,
            to: self.params.node(&o.to)?,
            from: match &o.from {
                Some(name) => Some(self.params.node(name)?),
                None => None,
            },
            prefix: o.match_label.clone().unwrap_or_default(),
            used: false,
            applied: false,
            index: None,
        })
    }

    /// The instant and node of the next item if it is a message and more messages are due at
    /// that node at that instant.
    fn contested_head(&self) -> Option<(u64, NodeId)> {
        let mut items = self.queue.iter();
        let (&(t, _), Item::Deliver { to, .. }) = items.next()? else {
            return None;
        };
        let to = *to;
        items
            .take_while(|((time, _), _)| *time == t)
            .any(|(_, item)| matches!(item, Item::Deliver { to: other, .. } if *other == to))
            .then_some((t, to))
    }

    /// The choice to be made before the next step, if several messages are due at the node the
    /// next message goes to (see [`Contest`]).
    pub fn contest(&self) -> Option<Contest> {
        let (t, to) = self.contested_head()?;
        let messages = self
            .due_at(t, to)
            .map(|key| match &self.queue[&key] {
                Item::Deliver { from, label, .. } => (*from, label.clone()),
                _ => unreachable!("due_at yields only deliveries"),
            })
            .collect();
        Some(Contest {
            at_ms: t,
            to,
            messages,
        })
    }

    /// Keys of the messages due at `to` at instant `t`, in queue order.
    fn due_at(&self, t: u64, to: NodeId) -> impl Iterator<Item = QueueKey> + '_ {
        self.queue
            .range((t, 0)..=(t, u64::MAX))
            .filter(
                move |(_, item)| matches!(item, Item::Deliver { to: other, .. } if *other == to),
            )
            .map(|(&key, _)| key)
    }

    /// Makes the first due message that `order` names the next one its node handles, if the next
    /// step is such a choice at `order`'s instant and node; the others keep their order. False if
    /// it names none of them (or there is no such choice now).
    pub fn put_first(&mut self, order: &Order) -> bool {
        let Some(rule) = self.order_rule(order) else {
            return false;
        };
        self.contested_head() == Some((rule.at_ms, rule.to)) && self.rotate_first(&rule)
    }

    fn rotate_first(&mut self, rule: &OrderRule) -> bool {
        let keys: Vec<QueueKey> = self.due_at(rule.at_ms, rule.to).collect();
        let Some(j) = keys.iter().position(|key| match &self.queue[key] {
            Item::Deliver { from, label, .. } => {
                rule.from.is_none_or(|f| f == *from) && label.starts_with(&rule.prefix)
            }
            _ => false,
        }) else {
            return false;
        };
        // Rotate: the chosen message takes the first place; those before it move back one.
        let mut items: Vec<Item> = keys[..=j]
            .iter()
            .filter_map(|key| self.queue.remove(key))
            .collect();
        items.rotate_right(1);
        for (key, item) in keys.into_iter().zip(items) {
            self.queue.insert(key, item);
        }
        true
    }

    /// Applies the next unused rule for the choice due now, if any (called before every step of a
    /// scenario with `[[order]]` entries), and shows it as a fault-like event on the receiver's
    /// lane, so that a counterexample's order choices are highlighted with its faults.
    pub(super) fn apply_order_rules(&mut self, out: &mut Vec<TraceEvent>) {
        let Some((t, to)) = self.contested_head() else {
            return;
        };
        let Some(i) = self
            .orders
            .iter()
            .position(|r| !r.used && r.at_ms == t && r.to == to)
        else {
            return;
        };
        self.orders[i].used = true;
        let rule = self.orders[i].clone();
        let applied = self.rotate_first(&rule);
        self.orders[i].applied = applied;
        if !applied {
            return;
        }
        let Some((_, Item::Deliver { from, label, .. })) = self.queue.first_key_value() else {
            return;
        };
        let (from, label) = (*from, label.clone());
        let explanation = format!(
            "Several messages reach {to} at {t} ms at once. By default {to} handles them in the order they were sent; the scenario's [[order]] entry makes \"{label}\" from {from} go first. A real network promises no order between them.",
            to = self.name(to),
            from = self.name(from),
        );
        let label = format!("order: \"{label}\" from {} first", self.name(from));
        self.emit(
            out,
            TraceEvent {
                time_ms: t,
                kind: EventKind::Fault,
                from: to,
                to,
                message: None,
                label,
                explanation,
                tag: None,
            },
        );
    }

    /// Adds a rule as if the scenario had this `[[order]]` entry after its own (the explorer
    /// replays its choices this way). False if it names an unknown node.
    pub fn push_order(&mut self, order: &Order) -> bool {
        let Some(rule) = self.order_rule(order) else {
            return false;
        };
        self.orders.push(rule);
        true
    }

    /// Forgets the unused rules for instants from `at_ms` on (the explorer's branch that changes
    /// the run from there).
    pub fn forget_orders_from(&mut self, at_ms: u64) {
        self.orders.retain(|r| r.used || r.at_ms < at_ms);
    }

    /// Hashes the rules still to apply (used ones change nothing from now on).
    pub(super) fn hash_pending_orders<H: std::hash::Hasher>(&self, h: &mut H) {
        use std::hash::Hash;
        for rule in self.orders.iter().filter(|r| !r.used) {
            rule.hash(h);
        }
    }

    /// The scenario's `[[order]]` entries that have not applied so far.
    pub(crate) fn unapplied_orders(&self) -> Vec<Unapplied> {
        let scenario = &self.params.scenario;
        self.orders
            .iter()
            .filter(|r| !r.applied)
            .filter_map(|r| {
                let i = r.index?;
                let o = &scenario.order[i];
                let message = if r.used {
                    let from = o.from.as_deref().map_or(String::new(), |n| format!(" from {n}"));
                    let label = o.match_label.as_deref().unwrap_or_default();
                    format!(
                        "at {} ms several messages were due at {}, but none{from} with a label starting with \"{label}\", so the default order stood",
                        o.at_ms, o.to
                    )
                } else {
                    format!(
                        "at {} ms no two messages were due at {} at once, so there was nothing to order",
                        o.at_ms, o.to
                    )
                };
                Some(Unapplied {
                    path: format!("order[{i}]"),
                    message,
                })
            })
            .collect()
    }
}
