//! Carrying out what an actor asked for: its sends go to the network, its timers into the queue,
//! its events into the trace (held back while the actor is paused).

use super::{Item, Sim};
use crate::actors::{Dest, Effect, Effects, Timer};
use crate::topology::NodeId;
use crate::trace::{EventKind, Tag, TraceEvent};

impl Sim {
    pub(super) fn resolve(&self, sender: NodeId, dest: Dest) -> NodeId {
        match dest {
            // A client cut off from the new master keeps talking to the old one while it still
            // answers (a Sentinel split brain).
            Dest::LockService => match self.deposed_master {
                Some(old)
                    if self.nodes[usize::from(old)].alive
                        && !self.reachable(sender, self.redis_master)
                        && self.reachable(sender, old) =>
                {
                    old
                }
                _ => self.lock_service_node().unwrap_or(self.params.db),
            },
            Dest::Instance(i) => self.params.first_service + i as NodeId,
            Dest::Node(n) => n,
            Dest::Db => self.params.db,
        }
    }

    pub(super) fn apply(&mut self, node: NodeId, fx: Effects, out: &mut Vec<TraceEvent>) {
        let paused_before = self.is_paused(node);
        let mut effects = fx.items.into_iter();
        while let Some(effect) = effects.next() {
            if !paused_before && self.is_paused(node) {
                let st = &mut self.nodes[usize::from(node)];
                let rest = std::iter::once(effect).chain(effects).collect();
                st.backlog.push(Item::Rest {
                    node,
                    epoch: st.epoch,
                    effects: rest,
                });
                return;
            }
            match effect {
                Effect::Send { to, payload, tag } => {
                    let to = self.resolve(node, to);
                    self.send(node, to, payload, tag, out);
                }
                Effect::After { after_ms, timer } => {
                    let st = &self.nodes[usize::from(node)];
                    let (at, epoch) = (st.clock.after_local(self.now, after_ms), st.epoch);
                    let key = self.push(at, Item::Timer { node, epoch, timer });
                    if let Timer::RequestTimeout(_) = timer
                        && let Some(slot) = self.pending_timeout.get_mut(usize::from(node))
                        && let Some(stale) = slot.replace(key)
                    {
                        self.queue.remove(&stale);
                    }
                }
                Effect::At { local_ms, timer } => {
                    let st = &self.nodes[usize::from(node)];
                    let wall = local_ms + self.monotonic_shift(node);
                    let (at, epoch) = (st.clock.true_time_at(wall, self.now), st.epoch);
                    self.push(at, Item::Timer { node, epoch, timer });
                }
                Effect::Event {
                    kind,
                    label,
                    explanation,
                    tag,
                } => self.emit_on(out, node, kind, label, explanation, tag),
            }
        }
    }

    /// Records an event on `node`'s own lane, now (an actor's state change or note, a fault's
    /// effect, a rollout step).
    pub(super) fn emit_on(
        &mut self,
        out: &mut Vec<TraceEvent>,
        node: NodeId,
        kind: EventKind,
        label: String,
        explanation: String,
        tag: Option<Tag>,
    ) {
        self.emit(
            out,
            TraceEvent {
                time_ms: self.now,
                kind,
                from: node,
                to: node,
                message: None,
                label,
                explanation,
                tag,
            },
        );
    }
}
