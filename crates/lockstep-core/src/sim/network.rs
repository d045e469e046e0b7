//! The network: partitions, per-link latency, and the delay/drop rules of message faults.

use super::watches::WatchRoute;
use super::{Item, Sim, Stimulus};
use crate::actors::Timer;
use crate::message::Payload;
use crate::scenario::{Fault, FaultKind};
use crate::topology::{NodeId, Role};
use crate::trace::{EventKind, Tag, TraceEvent};

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(super) struct MessageRule {
    pub(super) drop: bool,
    pub(super) extra_ms: u64,
    pub(super) prefix: String,
    pub(super) from: Option<NodeId>,
    pub(super) to: Option<NodeId>,
    pub(super) active_from: u64,
    pub(super) used: bool,
    /// The scenario's fault this rule came from (None for a what-if).
    pub(super) fault: Option<usize>,
}

impl Sim {
    pub(super) fn reachable(&self, a: NodeId, b: NodeId) -> bool {
        let (ga, gb) = (
            self.partition[usize::from(a)],
            self.partition[usize::from(b)],
        );
        ga == 0 || gb == 0 || ga == gb
    }

    /// Tells `worker` that consensus node `node`'s host closed its connection (or `refused` a
    /// new one): a timer on the worker, after the reset has crossed the network.
    pub(super) fn connection_closed(&mut self, node: NodeId, worker: NodeId, refused: bool) {
        let Some(instance) = node.checked_sub(self.params.first_service) else {
            return;
        };
        let st = &self.nodes[usize::from(worker)];
        if !st.alive {
            return;
        }
        let (at, epoch) = (self.now + self.latency(node, worker), st.epoch);
        let timer = Timer::ConnectionClosed {
            instance: u32::from(instance),
            refused,
        };
        self.push(
            at,
            Item::Timer {
                node: worker,
                epoch,
                timer,
            },
        );
    }

    /// Whether `me` hears from a working leader (up, not paused, reachable).
    pub(super) fn leader_ok(&self, me: NodeId) -> bool {
        let Some(cluster) = &self.cluster else {
            return false;
        };
        let leader = cluster.leader_node();
        let st = &self.nodes[usize::from(leader)];
        cluster.leading && st.alive && st.paused_until.is_none() && self.reachable(leader, me)
    }

    /// Which consensus nodes would answer `me`'s heartbeat now: up, not paused, and reachable
    /// both ways (by index in the cluster; `me` itself counts as answering).
    pub(super) fn peers_ok(&self, me: NodeId) -> Vec<bool> {
        let Some(cluster) = &self.cluster else {
            return Vec::new();
        };
        (0..cluster.nodes.len())
            .map(|j| {
                let node = cluster.base + j as NodeId;
                let st = &self.nodes[usize::from(node)];
                st.alive
                    && st.paused_until.is_none()
                    && self.reachable(me, node)
                    && self.reachable(node, me)
            })
            .collect()
    }

    pub(super) fn latency(&self, a: NodeId, b: NodeId) -> u64 {
        self.params.latency(a, b)
    }

    pub(super) fn send(
        &mut self,
        from: NodeId,
        to: NodeId,
        payload: Payload,
        tag: Option<Tag>,
        out: &mut Vec<TraceEvent>,
    ) {
        let params = self.params.clone();
        if params.role(from) == Role::Worker && params.role(to) == Role::ConsensusNode {
            self.leave_stale_connections(from, to);
        }
        if payload.is_watch_event() {
            if self.watch_not_sent(from, to, &payload, &tag, out) {
                return;
            }
            match self.watch_route(from, to) {
                WatchRoute::Direct => {}
                WatchRoute::Via(server) => {
                    let relayed = Payload::Relayed {
                        client: to,
                        reply: Box::new(payload),
                    };
                    return self.send(from, server, relayed, tag, out);
                }
                WatchRoute::Stalled(server) => {
                    return self.watch_stalls(from, to, server, (payload, tag), out);
                }
            }
        }
        let label = payload.label(&params.lock.key, &params.batch);
        let label = self.true_label(from, to, &payload, label);
        let explanation = payload.explain(self.name(from), self.name(to), &params.lock.key);
        let mut explanation = self.true_to_run(from, to, &payload, explanation);
        let msg = self.next_msg;
        self.next_msg += 1;
        let now = self.now;
        let send = |explanation: String, tag: Option<Tag>| TraceEvent {
            time_ms: now,
            kind: EventKind::Send,
            from,
            to,
            message: Some(msg),
            label: label.clone(),
            explanation,
            tag,
        };
        let lost = |label: String, explanation: String| TraceEvent {
            time_ms: now,
            kind: EventKind::Lost,
            from,
            to,
            message: Some(msg),
            label,
            explanation,
            tag: None,
        };
        // A watch event on its long-lived stream is held by TCP across a partition, not lost.
        let held_by_tcp = !self.reachable(from, to) && payload.is_watch_event();
        if held_by_tcp {
            explanation.push_str(&format!(
                " A partition separates {} from {}, but a watch is a long-lived stream that a silent partition does not break: TCP holds the event and delivers it when the network heals (an etcd watch misses no event: a broken one resumes from the last revision it saw).",
                self.name(from),
                self.name(to)
            ));
        } else if !self.reachable(from, to) {
            self.emit(out, send(explanation, tag));
            let why = format!(
                "A partition separates {} from {}: the message never arrives.",
                self.name(from),
                self.name(to)
            );
            self.emit(out, lost(format!("lost: {label}"), why));
            self.watch_relay_lost(to, &payload);
            return;
        }
        let rule = self.rules.iter().position(|r| {
            !held_by_tcp
                && !r.used
                && now >= r.active_from
                && label.starts_with(&r.prefix)
                && r.from.is_none_or(|f| f == from)
                && r.to.is_none_or(|t| t == to)
        });
        let mut extra = 0;
        let mut tag = tag;
        if let Some(i) = rule {
            self.rules[i].used = true;
            if let Some(f) = self.rules[i].fault {
                self.fault_applied[f] = true;
            }
            if self.rules[i].drop {
                self.emit(out, send(explanation, tag));
                self.emit(
                    out,
                    lost(
                        format!("dropped: {label}"),
                        "The network drops this message (fault). The sender is not told.".into(),
                    ),
                );
                self.watch_relay_lost(to, &payload);
                return;
            }
            extra = self.rules[i].extra_ms;
            explanation.push_str(&format!(" The network holds this message for an extra {extra} ms (fault): it arrives long after it was sent."));
            if extra > 0 && self.commit_overtaken(msg, to, &payload) {
                explanation.push_str(&format!(" Raft's leader repeats its commit index with every heartbeat and append, so {} learns of the commit from the next one instead, and this message changes nothing when it comes.", self.name(to)));
            }
            tag = tag.or(Some(Tag::Delayed { extra_ms: extra }));
        }
        self.emit(out, send(explanation, tag));
        self.in_flight += 1;
        let delivery = Item::Deliver {
            msg,
            from,
            to,
            payload,
            label,
            sent_at: now,
            announced: false,
        };
        if held_by_tcp {
            self.held.push(delivery);
        } else {
            let at = now + self.latency(from, to) + extra;
            self.push(at, delivery);
        }
    }

    /// Delivers the held watch events whose two ends can reach each other again, one latency
    /// after the partition changed.
    pub(super) fn release_held(&mut self) {
        let held = std::mem::take(&mut self.held);
        for item in held {
            let Item::Deliver { from, to, .. } = &item else {
                continue;
            };
            let (from, to) = (*from, *to);
            if self.reachable(from, to) {
                let at = self.now + self.latency(from, to);
                self.push(at, item);
            } else {
                self.held.push(item);
            }
        }
    }

    pub(super) fn rule(&self, f: &Fault, active_from: u64) -> MessageRule {
        MessageRule {
            drop: f.kind == FaultKind::Drop,
            extra_ms: f.duration_ms.unwrap_or(0),
            prefix: f.match_label.clone().unwrap_or_default(),
            from: f.from.as_deref().and_then(|n| self.params.node(n)),
            to: f.to.as_deref().and_then(|n| self.params.node(n)),
            active_from,
            used: false,
            fault: None,
        }
    }

    /// A message reaches its receiver: lost if the receiver is down, queued if it is paused,
    /// otherwise handled at once.
    pub(super) fn deliver(&mut self, item: Item, out: &mut Vec<TraceEvent>) {
        let Item::Deliver {
            msg,
            from,
            to,
            payload,
            label,
            sent_at,
            announced,
        } = item
        else {
            return;
        };
        let st = &self.nodes[usize::from(to)];
        if !st.alive {
            self.in_flight -= 1;
            // A `commit:` something later overtook is lost for nothing: its event went already.
            let overtaken = self.superseded_relays.remove(&msg);
            // A client's request to a dead process on a live machine (a consensus node's) is
            // refused at once; anything else sent to a down node is lost.
            let client_to_live_host = !st.host_down
                && self.params.role(to) == Role::ConsensusNode
                && self.params.role(from) == Role::Worker;
            // Sent before the process died, it was on a connection the death reset, which the
            // client heard of then (`crash`): the request goes with it, and is not refused too.
            let on_reset_connection = msg < st.down_after_msg;
            let refused = client_to_live_host && !on_reset_connection;
            let (prefix, explanation) = if client_to_live_host && on_reset_connection {
                (
                    "lost",
                    format!(
                        "{to}'s process died while this was on its way, and its machine reset the connection it travelled on: the message is lost with it. {from}'s client learns of it from the reset, not from this message.",
                        to = self.name(to),
                        from = self.name(from)
                    ),
                )
            } else if refused {
                (
                    "refused",
                    format!(
                        "{to}'s process is down but its machine runs, so the machine refuses the connection (a TCP reset) and {from}'s client hears so at once: the request never reached {to}.",
                        to = self.name(to),
                        from = self.name(from)
                    ),
                )
            } else {
                // A ZooKeeper request has no timeout of its own: its client hears of a dead
                // server from its connection (ClientCnxn's read timeout, or a reset).
                let notices = if self.zookeeper_client(from).is_some() {
                    format!(
                        "{}'s client notices only through its connection: its read timeout, or the reset its next ping gets if the machine comes back, since a ZooKeeper request has no timeout of its own",
                        self.name(from)
                    )
                } else {
                    format!(
                        "{} will only notice when its timeout fires",
                        self.name(from)
                    )
                };
                (
                    "lost",
                    format!(
                        "{} is down, so the message is lost; {notices} (as for a dead machine or a cut network: had only the process died on a live host, the host would refuse the connection at once, with the same outcome, only sooner).",
                        self.name(to),
                    ),
                )
            };
            self.emit(
                out,
                TraceEvent {
                    time_ms: self.now,
                    kind: EventKind::Lost,
                    from,
                    to,
                    message: Some(msg),
                    label: format!("{prefix}: {label}"),
                    explanation,
                    tag: None,
                },
            );
            if refused {
                self.connection_closed(to, from, true);
            }
            if !overtaken {
                self.watch_relay_lost(to, &payload);
            }
            return;
        }
        if st.paused_until.is_some() {
            if !announced {
                let explanation = format!(
                    "{to} is paused: the message waits in its socket buffer, and {to} will handle it when it resumes, as if no time had passed.",
                    to = self.name(to)
                );
                self.emit(
                    out,
                    TraceEvent {
                        time_ms: self.now,
                        kind: EventKind::Deliver,
                        from,
                        to,
                        message: Some(msg),
                        label: label.clone(),
                        explanation,
                        tag: None,
                    },
                );
            }
            let item = Item::Deliver {
                msg,
                from,
                to,
                payload,
                label,
                sent_at,
                announced: true,
            };
            self.nodes[usize::from(to)].backlog.push(item);
            return;
        }
        self.in_flight -= 1;
        if self.reset_by_restarted_host((msg, from, to), &label, out)
            || self.late_commit((msg, from, to), &label, sent_at, out)
        {
            return;
        }
        if !announced {
            let explanation = format!(
                "{} receives \"{label}\" from {}, {} ms after it was sent, and acts on it at once.",
                self.name(to),
                self.name(from),
                self.now.saturating_sub(sent_at),
            );
            self.emit(
                out,
                TraceEvent {
                    time_ms: self.now,
                    kind: EventKind::Deliver,
                    from,
                    to,
                    message: Some(msg),
                    label,
                    explanation,
                    tag: None,
                },
            );
        }
        self.watch_relay_arrives(to, &payload, out);
        self.watch_resumed(from, to, &payload);
        // etcd's Mutex, woken by its predecessor's delete, reads its own key before it holds
        // the lock (mutex.go: Get, ErrSessionExpired on nothing): a grant that reaches a client
        // after its lease was revoked (it was paused, or the grant was held up) finds its key
        // gone. That read is one round trip, which this model does not draw.
        let payload = if self.params.role(to) == Role::Worker {
            self.still_true(payload)
        } else {
            payload
        };
        self.react(to, Stimulus::Message { from, payload }, out);
    }
}
