//! The state machines of a run. Each reacts to a timer or a message and says what it wants done
//! as [`Effect`]s; the simulation ([`crate::sim`]) carries them out. No actor knows how messages travel.

pub mod consensus;
pub mod db;
pub mod redis;
pub mod worker;

use crate::message::Payload;
use crate::topology::NodeId;
use crate::trace::{EventKind, Tag};

/// The first pass of a loop started at `epoch` with period `every` at or after `t` (etcd's
/// client keepalive and deadline loops, its lessor's look for expired leases).
pub(crate) fn next_pass(epoch: i64, t: i64, every: i64) -> i64 {
    if t <= epoch {
        return epoch;
    }
    epoch + (t - epoch + every - 1) / every * every
}

/// Where a message goes, as its sender knows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Dest {
    /// The lock service's current address: the Redis master, or the consensus leader.
    LockService,
    /// The i-th Redlock instance (0-based).
    Instance(u32),
    /// A specific node.
    Node(NodeId),
    /// The payouts database.
    Db,
}

/// Timers, each set on its node's own clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Timer {
    /// A worker starts its job.
    Start,
    /// A worker tries to acquire again.
    Retry,
    /// A request has had no answer.
    RequestTimeout(u64),
    /// A worker's acquisition deadline passed while it waited in a queue.
    AcquireDeadline,
    /// A worker finished processing.
    WorkDone,
    /// A worker sends the write it decided on (a separate step, so a pause can fall in between).
    SendWrite,
    /// A worker renews its lease.
    Renew,
    /// A Redis instance checks whether its key's TTL ran out (`generation` of the key).
    Expire(u64),
    /// A Redis master ships buffered writes to its replica.
    Ship,
    /// A consensus follower checks whether it still has a leader (`generation` of the node's
    /// election clock: a timer armed before the clock was set again is stale).
    Election(u64),
    /// A consensus leader checks for expired leases.
    LeaseCheck,
    /// A consensus leader's lock-delay is over: the lock may be granted again.
    LockDelayOver,
    /// A consensus leader checks that it still reaches a majority (etcd's CheckQuorum).
    CheckQuorum,
    /// A consensus leader's heartbeat round: followers that answer and lack an entry get it again.
    Heartbeat,
    /// An etcd client's deadline pass for the keepalive deadline `deadline_local`: unless an
    /// answer moved it, the client gives the lease up.
    KeepAliveDeadline { deadline_local: i64 },
    /// A consensus client that last heard from the cluster at `heard_local` checks whether it
    /// has heard nothing since, for 2/3 of the session timeout (ZooKeeper's read timeout).
    SilenceCheck { heard_local: i64 },
    /// A ZooKeeper-style client suspended at `suspended_local` connects to its next server.
    Reconnect { suspended_local: i64 },
    /// The kernel sends the SYN of connection attempt `attempt` again.
    SynRetry { suspended_local: i64, attempt: u32 },
    /// Connection attempt `attempt`'s connect timeout runs out: the client checks whether its
    /// session has expired (4/3 of the timeout without a word) and else moves on.
    ConnectTimeout { suspended_local: i64, attempt: u32 },
    /// Curator's check: the client suspended at `suspended_local` has been SUSPENDED a whole
    /// session timeout (LOST).
    CuratorExpiry { suspended_local: i64 },
    /// The host of consensus node `instance` (0 = node-1) closed this client's connection, or
    /// refused a new one (`refused`), because the node's process is down: the client hears it at
    /// once (a TCP reset), not on a timeout.
    ConnectionClosed { instance: u32, refused: bool },
    /// An etcd client's watch resume has not reached a node: it asks again (clientv3 keeps
    /// reopening a watch stream that failed, with gRPC's one-second reconnect backoff).
    WatchResume,
}

/// Something an actor wants done.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Effect {
    /// Send a message; `tag` marks the send event (e.g. the release that ends a belief).
    Send {
        to: Dest,
        payload: Payload,
        tag: Option<Tag>,
    },
    /// Set a timer `after_ms` from now on the actor's clock.
    After { after_ms: u64, timer: Timer },
    /// Set a timer for when the actor's clock reads `local_ms`.
    At { local_ms: i64, timer: Timer },
    /// Record an event on the actor's own lane.
    Event {
        kind: EventKind,
        label: String,
        explanation: String,
        tag: Option<Tag>,
    },
}

/// The effects an actor asks for during one reaction.
#[derive(Debug, Default)]
pub struct Effects {
    pub items: Vec<Effect>,
}

impl Effects {
    pub fn send(&mut self, to: Dest, payload: Payload) {
        self.items.push(Effect::Send {
            to,
            payload,
            tag: None,
        });
    }
    pub fn send_tagged(&mut self, to: Dest, payload: Payload, tag: Option<Tag>) {
        self.items.push(Effect::Send { to, payload, tag });
    }
    pub fn after(&mut self, after_ms: u64, timer: Timer) {
        self.items.push(Effect::After { after_ms, timer });
    }
    pub fn at(&mut self, local_ms: i64, timer: Timer) {
        self.items.push(Effect::At { local_ms, timer });
    }
    pub fn state(
        &mut self,
        label: impl Into<String>,
        explanation: impl Into<String>,
        tag: Option<Tag>,
    ) {
        self.items.push(Effect::Event {
            kind: EventKind::State,
            label: label.into(),
            explanation: explanation.into(),
            tag,
        });
    }
    pub fn note(&mut self, label: impl Into<String>, explanation: impl Into<String>) {
        self.tagged_note(label, explanation, None);
    }
    pub fn tagged_note(
        &mut self,
        label: impl Into<String>,
        explanation: impl Into<String>,
        tag: Option<Tag>,
    ) {
        self.items.push(Effect::Event {
            kind: EventKind::Note,
            label: label.into(),
            explanation: explanation.into(),
            tag,
        });
    }
}

/// The payloads among some effects, in order (for the actors' unit tests).
#[cfg(test)]
pub(crate) fn sent_payloads(effects: &[Effect]) -> Vec<Payload> {
    effects
        .iter()
        .filter_map(|e| match e {
            Effect::Send { payload, .. } => Some(payload.clone()),
            _ => None,
        })
        .collect()
}
