//! Faults: pauses, clock jumps, crashes, restarts, failovers and partitions, and the what-if
//! changes made mid-run.

use rand_core::Rng;

use super::{Item, Sim};
use crate::actors::Timer;
use crate::message::Closing;
use crate::scenario::{Fault, FaultKind, Persistence};
use crate::topology::{NodeId, Role};
use crate::trace::{EventKind, Tag, TraceEvent};

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(super) struct PauseTrigger {
    pub(super) node: NodeId,
    pub(super) after: String,
    pub(super) duration_ms: u64,
    pub(super) used: bool,
    pub(super) fault: usize,
}

impl Sim {
    /// etcd's CheckQuorum: a leader that has not reached a majority for an election timeout
    /// steps down, so that clients stuck with it learn nothing from it rather than wait on it.
    pub(super) fn check_quorum(&mut self, node: NodeId, out: &mut Vec<TraceEvent>) {
        let Some(cluster) = &self.cluster else { return };
        if !cluster.leading || cluster.leader_node() != node {
            return;
        }
        let (base, n, majority) = (cluster.base, cluster.nodes.len(), cluster.majority());
        let reached = (0..n)
            .map(|i| base + i as NodeId)
            .filter(|&peer| {
                let st = &self.nodes[usize::from(peer)];
                peer == node
                    || (st.alive && st.paused_until.is_none() && self.reachable(node, peer))
            })
            .count() as u32;
        if reached >= majority {
            return;
        }
        let timeout = cluster.election_timeout_ms;
        let index = usize::from(node - base);
        if let Some(c) = &mut self.cluster {
            c.step_down();
            c.nodes[index].looking = true;
        }
        let name = self.name(node).to_string();
        let workers = 0..self.params.first_service;
        let zookeeper = workers
            .clone()
            .filter(|&w| self.zookeeper_client(w).is_some())
            .count();
        let (rule, clients) = match (zookeeper, workers.len()) {
            (0, _) => (
                "etcd's CheckQuorum",
                "a client that asks this node is told it knows no leader",
            ),
            (z, all) if z == all => (
                "ZooKeeper's Leader.lead gives up once it has not heard a quorum of followers within syncLimit ticks, as etcd's CheckQuorum does",
                "the server closes its clients' connections",
            ),
            _ => (
                "etcd's CheckQuorum; a ZooKeeper leader's Leader.lead gives up the same way",
                "an etcd client that asks this node is told it knows no leader, a ZooKeeper server closes its clients' connections",
            ),
        };
        self.emit_state(
            out,
            node,
            format!("{name} steps down: no quorum"),
            format!("{name} has reached only {reached} of the {majority} nodes a majority needs for an election timeout ({timeout} ms), so it stops acting as leader ({rule}). etcd raft checks once per election timeout on the leader's own cadence, and counts a follower it heard from at any time since the last check, so a real leader steps down between one and two election timeouts after it loses its majority; this model checks exactly one after. Nothing is committed until a majority elects a leader again; {clients}, and what it had appended but not committed waits in its log for the next election to decide."),
        );
        self.drop_clients(node, Closing::SteppedDown, out);
        self.schedule_elections();
    }

    /// Once the partition heals, Sentinel turns a deposed master into a replica of the new one:
    /// whatever it accepted while cut off is thrown away.
    fn demote_deposed_master(&mut self, out: &mut Vec<TraceEvent>) {
        let Some(old) = self.deposed_master.take() else {
            return;
        };
        let first = self.params.first_service;
        let new = self.redis_master;
        let old_index = usize::from(old - first);
        let new_state = self.redis[usize::from(new - first)].clone();
        let dropped = self.redis[old_index].key.take();
        let r = &mut self.redis[old_index];
        r.is_replica = true;
        r.key = new_state.key;
        r.counter = new_state.counter;
        r.generation += 1;
        let (old_name, new_name) = (self.name(old).to_string(), self.name(new).to_string());
        let tag = dropped
            .filter(|k| new_state.key.is_none_or(|n| n.value != k.value))
            .map(|k| Tag::ServiceFrees {
                holder: self.name(k.owner).to_string(),
                reason: crate::trace::FreeReason::Forgotten,
            });
        self.emit(
            out,
            TraceEvent {
                time_ms: self.now,
                kind: EventKind::State,
                from: old,
                to: old,
                message: None,
                label: format!("{old_name} becomes a replica of {new_name}"),
                explanation: format!("Sentinel reaches {old_name} again and reconfigures it as a replica of {new_name}: it discards its own data, including every lock it granted while cut off, and copies {new_name}'s. The model does it as the partition heals; real Sentinel sends REPLICAOF only after it has seen {old_name} still reporting itself master for 8 s (sentinel.c sentinelRefreshInstanceInfo, four publish periods), and until then clients still connected to {old_name} keep writing there, writes that are thrown away too."),
                tag,
            },
        );
    }

    /// A state change of `node` that a fault caused.
    pub(super) fn emit_state(
        &mut self,
        out: &mut Vec<TraceEvent>,
        node: NodeId,
        label: String,
        explanation: String,
    ) {
        self.emit_on(out, node, EventKind::State, label, explanation, None);
    }

    pub(super) fn fault_event(
        &mut self,
        out: &mut Vec<TraceEvent>,
        node: NodeId,
        label: String,
        explanation: String,
        tag: Option<Tag>,
    ) {
        self.emit_on(out, node, EventKind::Fault, label, explanation, tag);
    }

    pub(super) fn apply_fault(&mut self, index: usize, out: &mut Vec<TraceEvent>) {
        let f = self.params.scenario.faults[index].clone();
        self.fault_applied[index] = true;
        self.apply_fault_now(&f, out);
    }

    pub(super) fn apply_fault_now(&mut self, f: &Fault, out: &mut Vec<TraceEvent>) {
        let target = f.target.as_deref().and_then(|n| self.params.node(n));
        match f.kind {
            FaultKind::Pause => {
                if let Some(node) = target {
                    self.pause(node, f.duration_ms.unwrap_or(0), out);
                }
            }
            FaultKind::ClockJump => {
                let Some(node) = target else { return };
                let by = f.by_ms.unwrap_or(0);
                let st = &mut self.nodes[usize::from(node)];
                st.clock.offset_ms += by;
                st.jumped_ms += by;
                let name = self.name(node).to_string();
                let role = self.params.role(node);
                let effect = match role {
                    Role::Redis | Role::RedisReplica | Role::RedlockInstance => format!(
                        "Redis judges expiry on wall-clock milliseconds, so every TTL {name} keeps is judged on the new time at once (Redis docs, EXPIRE)."
                    ),
                    Role::ConsensusNode => format!(
                        "Only {name}'s wall clock reads differently: etcd's lessor and ZooKeeper's sessions time leases on a monotonic clock (Go's time package, \"Monotonic Clocks\"; ZOOKEEPER-1366), so no lease expires or lasts longer because of the jump. (That holds for etcd since 3.5, PR #12292: etcd 3.4's lessor keeps its expiry heap in wall-clock nanoseconds, so a forward jump only delays the check, and a backward one lets a lease outlive its TTL, etcd #12291.)"
                    ),
                    Role::Worker => format!(
                        "{name} times its own lease on a monotonic clock, so what it believes about its lease does not change."
                    ),
                    Role::Database => "The database dates idempotency keys by its wall clock, so a jump forward can make it forget keys early; its fencing checks use no clock.".into(),
                };
                self.fault_event(
                    out,
                    node,
                    format!("{name}'s clock jumps {by:+} ms"),
                    format!("{name}'s wall clock steps by {by:+} ms (an NTP step or an operator). {effect}"),
                    Some(Tag::ClockJumped { by_ms: by }),
                );
                self.clock_jumped(node, by, out);
            }
            FaultKind::Crash => {
                if let Some(node) = target {
                    self.crash(node, f.host.unwrap_or(false), out);
                }
            }
            FaultKind::Restart => {
                if let Some(node) = target {
                    let persistence = match f.persistent {
                        Some(true) => Persistence::Always,
                        Some(false) => Persistence::None,
                        None => self
                            .params
                            .scenario
                            .lock
                            .persistence
                            .unwrap_or(Persistence::None),
                    };
                    self.restart(node, persistence, out);
                }
            }
            FaultKind::Failover => self.failover(out),
            FaultKind::Partition => {
                let groups = f.groups.clone().unwrap_or_default();
                self.partition = vec![0; self.nodes.len()];
                for (g, members) in groups.iter().enumerate() {
                    for name in members {
                        if let Some(n) = self.params.node(name) {
                            self.partition[usize::from(n)] = g as u16 + 1;
                        }
                    }
                }
                let text: Vec<String> = groups
                    .iter()
                    .map(|g| format!("{{{}}}", g.join(", ")))
                    .collect();
                let db = self.params.db;
                self.fault_event(
                    out,
                    db,
                    format!("partition {}", text.join(" | ")),
                    "The network splits: nodes in different groups cannot reach each other; nodes in no group still reach everyone.".into(),
                    Some(Tag::Partition { groups }),
                );
                self.schedule_elections();
                self.release_held();
            }
            FaultKind::Heal => {
                self.partition = vec![0; self.nodes.len()];
                self.release_held();
                let db = self.params.db;
                self.fault_event(
                    out,
                    db,
                    "partition healed".into(),
                    "Every node can reach every other node again.".into(),
                    Some(Tag::Healed),
                );
                self.demote_deposed_master(out);
            }
            FaultKind::Delay | FaultKind::Drop => {}
        }
    }

    pub(super) fn pause(&mut self, node: NodeId, duration: u64, out: &mut Vec<TraceEvent>) {
        let until = self.now + duration;
        if !self.nodes[usize::from(node)].alive {
            return;
        }
        let name = self.name(node).to_string();
        if self.params.role(node) == Role::Worker
            && self.workers[usize::from(node)].phase.is_terminal()
        {
            // Nothing of a finished worker's is left to stall, so the event carries no pause tag:
            // a picture would otherwise draw a pause band, and the lease chart a stalled holder,
            // for a pause that changes nothing.
            self.fault_event(
                out,
                node,
                format!("{name} paused for {duration} ms after finishing"),
                format!("{name} has already finished its job, so this pause changes nothing."),
                None,
            );
            return;
        }
        let st = &mut self.nodes[usize::from(node)];
        let until = st.paused_until.map_or(until, |u| u.max(until));
        st.paused_until = Some(until);
        self.push(until, Item::Resume(node));
        let what = if self.params.role(node) == Role::Worker {
            format!(
                "{name} stops the world (a long GC or a VM stall) for {duration} ms: it runs no code, and its timers and incoming messages wait. Its clock and everyone else's keep running."
            )
        } else {
            format!(
                "{name} freezes for {duration} ms: requests queue up and are answered when it resumes."
            )
        };
        self.fault_event(
            out,
            node,
            format!("{name} paused for {duration} ms"),
            what,
            Some(Tag::Paused { until_ms: until }),
        );
        if self
            .cluster
            .as_ref()
            .is_some_and(|c| c.leader_node() == node)
        {
            self.schedule_elections();
        }
    }

    pub(super) fn resume(&mut self, node: NodeId, out: &mut Vec<TraceEvent>) {
        let st = &mut self.nodes[usize::from(node)];
        match st.paused_until {
            Some(until) if until <= self.now => {}
            _ => return,
        }
        st.paused_until = None;
        let backlog = std::mem::take(&mut st.backlog);
        let waiting = backlog
            .iter()
            .filter(|i| matches!(i, Item::Deliver { .. }))
            .count();
        for item in backlog {
            self.push(self.now, item);
        }
        let name = self.name(node).to_string();
        let belief = match self.params.role(node) {
            Role::Worker if self.workers[usize::from(node)].believes => {
                " It still believes it holds the lock."
            }
            _ => "",
        };
        self.emit(
            out,
            TraceEvent {
                time_ms: self.now,
                kind: EventKind::State,
                from: node,
                to: node,
                message: None,
                label: format!("{name} resumes"),
                explanation: {
                    let waiting = match waiting {
                        0 => String::new(),
                        1 => "; one message has been waiting for it".to_string(),
                        n => format!("; {n} messages have been waiting for it"),
                    };
                    match self.params.role(node) {
                        // Redis reads mstime() again when it runs: it knows the time moved on.
                        Role::Redis | Role::RedisReplica | Role::RedlockInstance => format!(
                            "{name} runs again and reads its wall clock afresh{waiting}: a key whose expiry time passed during the pause is expired at once, for every waiting command too (Redis judges expiry on mstime(), Redis docs, EXPIRE)."
                        ),
                        _ => format!(
                            "{name} runs again and carries on exactly where it stopped, unaware that time passed{waiting}.{belief}"
                        ),
                    }
                },
                tag: Some(Tag::Resumed),
            },
        );
    }

    pub(super) fn clear_backlog(&mut self, node: NodeId) {
        let st = &mut self.nodes[usize::from(node)];
        let lost: Vec<u64> = st
            .backlog
            .iter()
            .filter_map(|i| match i {
                Item::Deliver { msg, .. } => Some(*msg),
                _ => None,
            })
            .collect();
        st.backlog.clear();
        for msg in &lost {
            self.superseded_relays.remove(msg);
        }
        let lost = lost.len() as u64;
        st.paused_until = None;
        self.in_flight -= lost;
    }

    pub(super) fn crash(&mut self, node: NodeId, host: bool, out: &mut Vec<TraceEvent>) {
        if !self.nodes[usize::from(node)].alive {
            return;
        }
        self.clear_backlog(node);
        let st = &mut self.nodes[usize::from(node)];
        st.alive = false;
        st.host_down = host;
        st.down_after_msg = self.next_msg;
        st.epoch += 1;
        let name = self.name(node).to_string();
        let params = self.params.clone();
        let mut tag_after = None;
        let mut led = false;
        match params.role(node) {
            Role::Worker => tag_after = self.workers[usize::from(node)].crash(),
            Role::Redis | Role::RedisReplica | Role::RedlockInstance => {
                let now_local = self.nodes[usize::from(node)].clock.local(self.now);
                self.redis[usize::from(node - params.first_service)].crash(now_local, host)
            }
            Role::ConsensusNode => {
                if let Some(c) = &mut self.cluster {
                    led = c.leading && c.leader_node() == node;
                    c.crash(usize::from(node - c.base));
                }
            }
            Role::Database => {}
        }
        let redis_like = matches!(
            params.role(node),
            Role::Redis | Role::RedisReplica | Role::RedlockInstance
        );
        let everysec = params.scenario.lock.persistence == Some(Persistence::Everysec);
        let (label, explanation) = if host {
            (
                format!("{name}'s machine fails"),
                if redis_like && everysec {
                    format!(
                        "{name}'s machine goes down (a power loss, a kernel panic or a VM killed), not only the Redis process. Messages sent to it are lost until it restarts, and whatever the kernel had not yet flushed to disk is gone: redis.conf (APPEND ONLY MODE) says everysec \"can lose just one second of writes in a dramatic event like a server power outage\"."
                    )
                } else {
                    format!(
                        "{name}'s machine goes down (a power loss, a kernel panic or a VM killed). Messages sent to it are lost until it restarts, and whatever it had not persisted or replicated is gone."
                    )
                },
            )
        } else if redis_like && everysec {
            (
                format!("{name} crashes"),
                format!(
                    "{name}'s process dies; the machine keeps running. Messages sent to it are lost until it restarts. Under everysec it loses nothing it acknowledged: Redis writes the AOF to the kernel before it replies, and the kernel still flushes it (redis.conf: \"a single write if something wrong with the Redis process itself happens, but the operating system is still running correctly\"). Only a host crash loses the last second."
                ),
            )
        } else {
            (
                format!("{name} crashes"),
                format!(
                    "{name}'s process dies. Messages sent to it are lost until it restarts, and whatever it had not persisted or replicated is gone."
                ),
            )
        };
        self.fault_event(out, node, label, explanation, Some(Tag::Crashed));
        if params.role(node) == Role::ConsensusNode && host {
            self.host_fails(node);
        }
        if params.role(node) == Role::ConsensusNode && !host {
            // The live host closes the dead process's connections: every client hears it at once
            // (the clients decide whether theirs was one of them).
            for worker in 0..params.first_service {
                self.connection_closed(node, worker, false);
            }
            if led {
                self.followers_drop_their_clients(node, out);
            }
        }
        if let Some(tag) = tag_after {
            self.emit(
                out,
                TraceEvent {
                    time_ms: self.now,
                    kind: EventKind::State,
                    from: node,
                    to: node,
                    message: None,
                    label: format!("{name} holds nothing"),
                    explanation: "A dead process holds no lock.".into(),
                    tag: Some(tag),
                },
            );
        }
        self.schedule_elections();
    }

    pub(super) fn restart(
        &mut self,
        node: NodeId,
        persistence: Persistence,
        out: &mut Vec<TraceEvent>,
    ) {
        let persistent = persistence != Persistence::None;
        let st = &mut self.nodes[usize::from(node)];
        st.alive = true;
        st.host_down = false;
        st.epoch += 1;
        let name = self.name(node).to_string();
        let role = self.params.role(node);
        let host_crashed = matches!(
            role,
            Role::Redis | Role::RedisReplica | Role::RedlockInstance
        ) && self.redis[usize::from(node - self.params.first_service)]
            .host_crashed;
        let (label, explanation) = match role {
            Role::Redis | Role::RedisReplica | Role::RedlockInstance
                if persistence == Persistence::Always =>
            {
                (
                    format!("{name} restarts with its data (fsync always)"),
                    format!("{name} comes back with every write it acknowledged."),
                )
            }
            Role::Redis | Role::RedisReplica | Role::RedlockInstance
                if persistence == Persistence::Everysec && !host_crashed =>
            {
                (
                    format!("{name} restarts from its AOF (fsync every second)"),
                    format!(
                        "{name} comes back with every write it acknowledged: only its process had died, and the kernel flushed the append-only file it had already been handed."
                    ),
                )
            }
            Role::Redis | Role::RedisReplica | Role::RedlockInstance
                if persistence == Persistence::Everysec =>
            {
                (
                    format!("{name} restarts from its AOF (fsync every second)"),
                    format!(
                        "{name} comes back with what its append-only file had on disk at the last fsync, at most a second old; writes it acknowledged after that are lost."
                    ),
                )
            }
            Role::Redis | Role::RedisReplica | Role::RedlockInstance => (
                format!("{name} restarts without persistence: empty"),
                format!(
                    "{name} comes back immediately, with no data. The Redis docs recommend delaying a restart for longer than the maximum TTL, so that every lock key it forgot has expired anyway; that protects the keys, not a fencing counter, which does not expire and starts again from nothing however late the instance comes back."
                ),
            ),
            Role::ConsensusNode => (
                format!("{name} restarts"),
                format!(
                    "{name} comes back with its Raft term and log from disk (Raft persists them before answering)."
                ),
            ),
            _ => (
                format!("{name} restarts"),
                format!("{name}'s process starts again."),
            ),
        };
        // A consensus node always comes back with its log: Raft persists before it acknowledges.
        let persistent = persistent || role == Role::ConsensusNode;
        self.fault_event(
            out,
            node,
            label,
            explanation,
            Some(Tag::Restarted { persistent }),
        );
        match self.params.role(node) {
            Role::Redis | Role::RedisReplica | Role::RedlockInstance => {
                self.with_redis(node, out, |redis, cx| redis.restart(persistence, cx));
            }
            Role::ConsensusNode => {
                if let Some(c) = &mut self.cluster {
                    let index = usize::from(node - c.base);
                    let was_leader = c.leader == index;
                    c.restart(index);
                    if was_leader {
                        self.emit_state(
                            out,
                            node,
                            format!("{name} is a follower"),
                            format!("{name} led before it crashed, but a restarted Raft node comes back as a follower with its election timer armed: it leads again only if it wins an election, and only a leader times leases."),
                        );
                    }
                }
                self.schedule_elections();
            }
            _ => {}
        }
    }

    pub(super) fn failover(&mut self, out: &mut Vec<TraceEvent>) {
        let params = self.params.clone();
        let old = self.redis_master;
        if self.redis.len() < 2 {
            return;
        }
        let replica = params.first_service + 1;
        if old == replica {
            self.fault_event(
                out,
                replica,
                "failover: no replica left".into(),
                format!("{} is already the master and has no replica of its own, so there is nothing to promote.", self.name(replica)),
                None,
            );
            return;
        }
        let cut_off = !self.reachable(old, replica);
        if self.nodes[usize::from(old)].alive && cut_off {
            // Sentinel cannot reach the old master and promotes the replica, but the old master
            // keeps running and answering the clients on its side of the partition.
            self.deposed_master = Some(old);
            let old_index = usize::from(old - params.first_service);
            self.redis[old_index].replica = None;
            self.redis[old_index].backlog.clear();
        } else if self.nodes[usize::from(old)].alive {
            self.clear_backlog(old);
            let st = &mut self.nodes[usize::from(old)];
            st.alive = false;
            st.epoch += 1;
        }
        self.redis_master = replica;
        let (old_name, new_name) = (self.name(old).to_string(), self.name(replica).to_string());
        self.fault_event(
            out,
            replica,
            format!("failover: {new_name} replaces {old_name}"),
            if self.deposed_master == Some(old) {
                format!("Sentinel cannot reach {old_name} and promotes {new_name}, which has only what {old_name} had replicated. {old_name} is cut off but still running: until it learns it was demoted, it keeps answering the clients on its side (split brain; min-replicas-to-write narrows this, it does not close it).")
            } else {
                format!("Sentinel promotes {new_name} to master; clients now send their commands to it. It has only what {old_name} had replicated before it went away.")
            },
            Some(Tag::FailedOver),
        );
        let old_index = usize::from(old - params.first_service);
        let new_index = usize::from(replica - params.first_service);
        // A deposed master that still runs still holds its key: nothing is lost on its lane.
        let lost_holder = match (self.redis[old_index].key, self.redis[new_index].key) {
            (Some(k), None) if self.deposed_master != Some(old) => Some(k.owner),
            _ => None,
        };
        if let Some(owner) = lost_holder {
            let holder = self.name(owner).to_string();
            self.emit(out, TraceEvent {
                time_ms: self.now,
                kind: EventKind::State,
                from: old,
                to: old,
                message: None,
                label: format!("{holder}'s lock is lost in the failover"),
                explanation: format!("{old_name} had granted the lock to {holder}, but the key never reached the replica: the service no longer knows {holder} holds it."),
                tag: Some(Tag::ServiceFrees { holder, reason: crate::trace::FreeReason::Forgotten }),
            });
        }
        let tokens_in_use = self.workers.iter().any(|w| w.cfg.fencing);
        self.with_redis(replica, out, |redis, cx| redis.promote(tokens_in_use, cx));
    }

    pub(super) fn clock_jumped(&mut self, node: NodeId, by_ms: i64, out: &mut Vec<TraceEvent>) {
        match self.params.role(node) {
            Role::Redis | Role::RedisReplica | Role::RedlockInstance => {
                self.with_redis(node, out, |redis, cx| redis.clock_jumped(by_ms, cx));
            }
            // Monotonic clocks: nothing to re-judge.
            _ => {}
        }
    }

    /// Followers that cannot see a working leader start an election after a randomised timeout.
    pub(super) fn schedule_elections(&mut self) {
        let Some(cluster) = &self.cluster else { return };
        let cluster = cluster.clone();
        let timeout = cluster.election_timeout_ms;
        let (base, n) = (cluster.base, cluster.nodes.len());
        let leader = cluster.leader_node();
        let leading = cluster.leading;
        if leading && self.nodes[usize::from(leader)].alive {
            let st = &self.nodes[usize::from(leader)];
            let (at, epoch) = (st.clock.after_local(self.now, timeout), st.epoch);
            self.push(
                at,
                Item::Timer {
                    node: leader,
                    epoch,
                    timer: Timer::CheckQuorum,
                },
            );
        }
        for i in 0..n {
            let node = base + i as NodeId;
            if (leading && node == leader)
                || !self.nodes[usize::from(node)].alive
                || self.leader_ok(node)
                || cluster.election_clock_running(i)
            {
                continue;
            }
            // Raft randomises election timeouts in [T, 2T) so that candidates rarely collide.
            let jitter = self.rng.0.next_u64() % timeout.max(1);
            let generation = self.cluster.as_mut().map_or(0, |c| c.arm_election_clock(i));
            let st = &self.nodes[usize::from(node)];
            let (at, epoch) = (st.clock.after_local(self.now, timeout + jitter), st.epoch);
            self.push(
                at,
                Item::Timer {
                    node,
                    epoch,
                    timer: Timer::Election(generation),
                },
            );
        }
    }
}
