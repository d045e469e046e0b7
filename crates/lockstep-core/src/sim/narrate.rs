//! Keeps a message's generic explanation true to this run: sentences that hold only in some runs
//! (a pause, a lost key) are said only where the run's own history makes them true.

use super::{End, Sim};
use crate::message::Payload;
use crate::scenario::{FaultKind, LockKind};
use crate::topology::{NodeId, Role};
use crate::trace::{EventKind, FreeReason, Tag, TraceEvent};

/// Said when a worker's check finds the batch paid; true only after a stale write.
const STALE_CHECK: &str = " This is the check that a stale holder skipped: it had checked earlier.";

/// How a service last let go of a holder's key, as the trace told it.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct FreedKey {
    pub service: NodeId,
    pub holder: String,
    pub reason: FreeReason,
    pub label: String,
    pub time_ms: u64,
}

impl Sim {
    /// Follows the run's history (which keys were freed and how, whether a holder wrote after
    /// losing its key) and drops from `ev` a sentence that this history makes untrue.
    pub(super) fn follow(&mut self, ev: &mut TraceEvent) {
        if let Some(Tag::ServiceFrees {
            reason: FreeReason::Expired,
            ..
        }) = &ev.tag
        {
            let drift = self.drift_sentence(ev.from);
            ev.explanation.push_str(&drift);
        }
        if ev.kind == EventKind::State
            && self.params.role(ev.from) == Role::ConsensusNode
            && ev.label.starts_with("lease ")
            && ev.label.ends_with(" expired")
        {
            let drift = self.lease_drift_sentence(ev.from);
            ev.explanation.push_str(&drift);
        }
        match &ev.tag {
            Some(Tag::ServiceFrees { holder, reason }) => {
                self.freed.push(FreedKey {
                    service: ev.from,
                    holder: holder.clone(),
                    reason: *reason,
                    label: ev.label.clone(),
                    time_ms: ev.time_ms,
                });
            }
            // A new holder's "acts as the only holder" is untrue while another still believes:
            // say so at the step the picture's overlap band begins.
            Some(Tag::Believes { .. }) => {
                if let Some(&other) = self.believers.iter().find(|&&w| w != ev.from) {
                    let other = self.name(other);
                    ev.explanation.push_str(&format!(
                        " But {other} has not let go: it still believes it holds the lock too, so two workers now believe they do."
                    ));
                }
                if !self.believers.contains(&ev.from) {
                    self.believers.push(ev.from);
                }
            }
            Some(Tag::StopsBelieving) => self.believers.retain(|&w| w != ev.from),
            Some(Tag::ServiceGrants { holder, .. }) => {
                let holder = holder.clone();
                self.freed
                    .retain(|f| f.holder != holder || f.reason == FreeReason::Released);
            }
            _ => {}
        }
        let sender = self.name(ev.from).to_string();
        if ev.kind == EventKind::Note
            && ev.label == "no answer to the unlock"
            && self.params.scenario.lock.kind == LockKind::Consensus
            && let Some(gone) = self
                .freed
                .iter()
                .rev()
                .find(|f| f.holder == sender && f.reason != FreeReason::Released)
            && let Some(at) = ev.explanation.find(" If the delete was lost")
        {
            // The service had already let go of the key: nobody waits for a lost delete.
            ev.explanation.truncate(at);
            ev.explanation.push_str(&format!(
                " Whatever became of the delete, nobody waits for it: {sender}'s key had already gone at {} ms ({}).",
                gone.time_ms, gone.label
            ));
        }
        let write_after_loss = ev.kind == EventKind::Send
            && ev.label.starts_with("write ")
            && self
                .freed
                .iter()
                .any(|f| f.holder == sender && f.reason != FreeReason::Released);
        // A second payment means some holder wrote on a check made before the first one (a split
        // brain frees no key, yet its old holder is just as stale).
        if write_after_loss || matches!(ev.tag, Some(Tag::Duplicate { .. })) {
            self.stale_write_seen = true;
        }
        // `replace` allocates even when nothing matches, and this runs on every event of every
        // run the explorer makes: look first.
        if !self.stale_write_seen && ev.explanation.contains(STALE_CHECK) {
            ev.explanation = ev.explanation.replace(STALE_CHECK, "");
        }
    }

    /// Why a drifting Redis clock made a key expire early or late in real time ("" if it does not
    /// drift or stepped since). Redis times TTLs on its own clock, so a fast clock shortens them.
    fn drift_sentence(&self, node: NodeId) -> String {
        let redis_like = matches!(
            self.params.role(node),
            Role::Redis | Role::RedisReplica | Role::RedlockInstance
        );
        let ppm = self.nodes[usize::from(node)].clock.drift_ppm;
        if !redis_like || ppm == 0 || self.nodes[usize::from(node)].jumped_ms != 0 {
            return String::new();
        }
        let ttl = self.params.scenario.lock.ttl_ms;
        let real = (ttl as f64 * 1e6 / (1e6 + ppm as f64)).round();
        let pct = ppm.abs() as f64 / 10_000.0;
        let pace = if ppm > 0 { "fast" } else { "slow" };
        format!(
            " {name}'s clock runs {pct} % {pace}, so the {ttl} ms TTL ran out after about {real} ms of real time.",
            name = self.name(node)
        )
    }

    /// Why a consensus leader's drifting clock made a lease run out early or late in real time
    /// ("" without drift). etcd times leases on a monotonic clock: a jump does not move it, but
    /// a clock that runs fast or slow does.
    fn lease_drift_sentence(&self, node: NodeId) -> String {
        let ppm = self.nodes[usize::from(node)].clock.drift_ppm;
        if ppm == 0 {
            return String::new();
        }
        let lock = &self.params.scenario.lock;
        let ttl = lock
            .ttl_ms
            .div_ceil(1000)
            .saturating_mul(1000)
            .max(lock.min_ttl_ms.unwrap_or(0));
        let real = (ttl as f64 * 1e6 / (1e6 + ppm as f64)).round();
        let pct = ppm.abs() as f64 / 10_000.0;
        let pace = if ppm > 0 { "fast" } else { "slow" };
        format!(
            " {name}'s clock runs {pct} % {pace}. etcd times leases on a monotonic clock, which a jump does not move but drift does, so a {ttl} ms TTL lasts about {real} ms of real time on it.",
            name = self.name(node)
        )
    }

    /// Whether the scenario pauses `node` at some point (timed or after an event).
    fn ever_paused(&self, node: NodeId) -> bool {
        let name = self.name(node);
        self.params
            .scenario
            .faults
            .iter()
            .any(|f| f.kind == FaultKind::Pause && f.target.as_deref() == Some(name))
    }

    /// The last time the service `service` let go of `holder`'s key. A single Redis with a
    /// failover is one lock service however many instances it has, so any instance counts there.
    /// Whether worker `node` has a ZooKeeper-style client (it listens to its connection state).
    fn zookeeper_style(&self, node: NodeId) -> bool {
        self.zookeeper_client(node).is_some()
    }

    fn last_freed(&self, service: NodeId, holder: &str) -> Option<&FreedKey> {
        let one_service = self.params.scenario.lock.kind != LockKind::Redlock;
        self.freed
            .iter()
            .rev()
            .find(|f| f.holder == holder && (one_service || f.service == service))
    }

    /// What became of the lock on `service` after `holder`'s key expired at `expired_ms`, as
    /// far as the trace says: another holder's key freed since means it was taken since.
    fn since_expiry(&self, service: NodeId, holder: &str, expired_ms: u64) -> String {
        let one_service = self.params.scenario.lock.kind != LockKind::Redlock;
        let later = self.freed.iter().rev().find(|g| {
            g.holder != holder && g.time_ms >= expired_ms && (one_service || g.service == service)
        });
        match later {
            Some(g) if g.reason == FreeReason::Released => format!(
                "it expired at {expired_ms} ms, and {} has taken the lock and released it since",
                g.holder
            ),
            Some(g) => format!(
                "it expired at {expired_ms} ms, and {} has taken the lock since and lost it in turn",
                g.holder
            ),
            None => "it expired, and perhaps someone else took it".to_string(),
        }
    }

    /// `label` (the payload's generic one) as this run's client would name it: a repeated delete
    /// of a key its first delete removed finds it already deleted (NONODE for a ZooKeeper-style
    /// client).
    pub(super) fn true_label(
        &self,
        from: NodeId,
        to: NodeId,
        payload: &Payload,
        label: String,
    ) -> String {
        match payload {
            Payload::UnlockReply { deleted: false, .. }
                if self.zookeeper_style(to)
                    && self
                        .last_freed(from, self.name(to))
                        .is_some_and(|f| f.reason == FreeReason::Released) =>
            {
                "NONODE: already deleted".into()
            }
            // An etcd client's repeated delete of a key its own first delete removed: the key
            // did not go with a revoked lease.
            Payload::UnlockReply {
                deleted: false,
                lease_alive: false,
                ..
            } if self
                .last_freed(from, self.name(to))
                .is_some_and(|f| f.reason == FreeReason::Released) =>
            {
                "nothing to delete: already deleted".into()
            }
            _ => label,
        }
    }

    /// `explanation` (the payload's generic text) with what is true of this run only.
    pub(super) fn true_to_run(
        &self,
        from: NodeId,
        to: NodeId,
        payload: &Payload,
        explanation: String,
    ) -> String {
        match payload {
            Payload::Extend { .. } if !self.ever_paused(from) => {
                let paused = format!(
                    " Renewals help only while {} runs: a paused process sends none.",
                    self.name(from)
                );
                explanation.replace(&paused, "")
            }
            // The scenario may set its own keepalive interval: say the one this run uses.
            Payload::KeepAlive { .. } => {
                let name = self.name(from);
                let every = self
                    .params
                    .scenario
                    .workers
                    .iter()
                    .find(|w| w.name == name)
                    .map_or(0, |w| w.renew_every_ms);
                if every > 0 {
                    explanation
                        .replace(
                            "(the real client pings once it has sent nothing for a third of the session timeout, less a second once more than a second has passed: ClientCnxn, readTimeout/2 − idleSend − 1000)",
                            &format!("(every {every} ms in this scenario; the real client pings once it has sent nothing for a third of the session timeout, less a second once more than a second has passed)"),
                        )
                        .replace(
                        "(etcd's client sends one at once, then TTL/3 after each answer, on its send loop's 500 ms passes, and on every pass while one goes unanswered)",
                        &format!("(every {every} ms in this scenario, answered or not; etcd's own client sends one TTL/3 after each answer, and every 500 ms while one goes unanswered)"),
                    )
                } else {
                    explanation
                }
            }
            Payload::LockReq { ttl_ms, again, .. } if self.zookeeper_client(from).is_some() => {
                let who = self.name(from);
                let secs = ttl_ms.div_ceil(1000);
                let to = self.name(to);
                let place = "The node's place in the sequence is its place in the queue, and its creation revision (ZooKeeper's czxid) will be the fencing token. (A real createSession is a transaction of its own and takes a zxid too, so real czxids lie further apart than this model's; their order, which is what fencing needs, is the same.)";
                if again.is_some() {
                    format!(
                        "{who} asks {to} for the lock again: its first request went on a connection that failed. In this model the lock request opens {who}'s ZooKeeper session ({secs} s session timeout), so this one opens it if the first never reached the cluster and finds it if it did. Curator's protected mode looks first for the lock node the first request may have made (CreateBuilderImpl.findProtectedNodeInForeground) and creates one only if there is none; that holds within one session. {place}"
                    )
                } else {
                    format!(
                        "{who} asks {to} for the lock. In this model the request also opens {who}'s ZooKeeper session, with a {secs} s session timeout, which the cluster keeps as a lease: Curator's InterProcessMutex creates an ephemeral sequential lock node under the lock's path, and the node goes with the session. The leader appends the change to its log (a follower forwards it there). {place}"
                    )
                }
            }
            // A lock request with another worker's session grants no lease: the key goes under
            // the session's (concurrency.Session grants its lease once, NewMutex reuses it).
            Payload::LockReq {
                session: Some(owner),
                ..
            } if *owner != from => {
                let (who, owner, to) = (self.name(from), self.name(*owner), self.name(to));
                let key = &self.params.lock.key;
                format!(
                    "{who} asks {to} for the lock with {owner}'s session: no new lease is granted; the key {key}/<lease ID> is created under the lease {owner}'s session already has, so it has the name {owner}'s key has (etcd's Mutex names each client's key after its session's lease, and a second Mutex on one concurrency.Session shares it). The leader appends the change to its log (a follower would forward it there). The key's create revision will be the fencing token."
                )
            }
            Payload::DelReply { deleted: false, .. } => {
                let holder = self.name(to);
                let (cause, never) = match self.last_freed(from, holder) {
                    Some(f) if f.reason == FreeReason::Forgotten => (
                        format!(
                            "it did not expire but was lost at {} ms: {}; perhaps someone else took the lock since",
                            f.time_ms, f.label
                        ),
                        false,
                    ),
                    Some(f) if f.reason == FreeReason::Expired => {
                        (self.since_expiry(from, holder, f.time_ms), false)
                    }
                    // Nothing freed it on this instance: the key was never this holder's here.
                    _ => (
                        format!("{holder} never held it on {}", self.name(from)),
                        true,
                    ),
                };
                // "No longer" would say it once did.
                let explanation = if never {
                    explanation.replace("no longer holds", "does not hold")
                } else {
                    explanation.to_string()
                };
                explanation.replace("it expired, and perhaps someone else took it", &cause)
            }
            // A ZooKeeper-style client's guaranteed delete, sent again after a reconnect, finds
            // its node gone: its first delete was applied, and only the answer was lost.
            Payload::UnlockReply { deleted: false, .. } if self.zookeeper_style(to) => {
                let holder = self.name(to);
                match self.last_freed(from, holder) {
                    Some(f) if f.reason == FreeReason::Released => format!(
                        "NONODE: {holder}'s first delete was applied after all, at {} ms; only its answer was lost with the connection. Curator's guaranteed delete takes NONODE as done (LockInternals.deleteOurPath), and {holder}'s session, alive all along, ends when its client closes.",
                        f.time_ms
                    ),
                    _ => explanation,
                }
            }
            // The key went with the holder's own earlier unlock (its answer lost), not with a
            // revocation.
            Payload::UnlockReply {
                deleted: false,
                lease_alive: false,
                ..
            } => {
                let holder = self.name(to);
                match self.last_freed(from, holder) {
                    Some(f) if f.reason == FreeReason::Released => format!(
                        "{holder}'s own earlier unlock, at {} ms, had already deleted its key; only its answer was lost. (etcd's Mutex.Unlock deletes only the key; this model ends the session's lease with it, as a job that closes its session once it has unlocked does.) A Delete of a missing key deletes nothing and creates no new revision (etcd mvcc).",
                        f.time_ms
                    ),
                    _ => explanation,
                }
            }
            _ => explanation,
        }
    }
}

impl Sim {
    /// The run's last note: how it ended, and what that proves.
    pub(super) fn finish(&mut self, end: End, out: &mut Vec<TraceEvent>) {
        self.end = Some(end);
        let (label, explanation) = match end {
            End::Finished if !self.superseded_relays.is_empty() => ("run complete", "Every worker has finished, and the only message still in flight is a late `commit:` that changes nothing.".to_string()),
            End::Finished => ("run complete", "Every worker has finished and no message is still in flight.".to_string()),
            End::Quiet => ("run stalled", "Nothing more can happen: the remaining workers wait for answers that will never come.".to_string()),
            End::TimeLimit => (
                "time limit reached",
                format!("The run stopped at its time limit of {} ms (limits.max_time_ms) before every worker had finished, so it proves nothing about safety: the outcome is inconclusive. Raise limits.max_time_ms to see how it ends.", self.params.scenario.limits.max_time_ms),
            ),
            End::EventLimit => (
                "event limit reached",
                format!("The run stopped after {} events (limits.max_events) before every worker had finished, so it proves nothing about safety: the outcome is inconclusive. Raise limits.max_events to see how it ends.", self.params.scenario.limits.max_events),
            ),
        };
        let db = self.params.db;
        self.emit_on(
            out,
            db,
            EventKind::Note,
            label.into(),
            explanation,
            Some(Tag::RunEnds),
        );
    }
}
