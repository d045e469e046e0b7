//! The trace: what happened, in order, for every front end (DESIGN §3 "Trace and verdict").
//!
//! Events name nodes by index into [`Trace::participants`]; the JSON document (see
//! [`crate::document`]) names them by name, so a trace recorded from a live run looks the same.

use serde::{Deserialize, Serialize};

use crate::topology::{NodeId, Participant};

/// What kind of thing an event is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum EventKind {
    /// A message leaves `from` for `to`.
    Send,
    /// A message reaches `to` (and is handled, unless `to` is paused).
    Deliver,
    /// A message is lost (partition, drop, dead receiver).
    Lost,
    /// A node changes state on its own (`from == to`).
    State,
    /// A fault is injected.
    Fault,
    /// Narration that is not a state change.
    Note,
}

impl EventKind {
    /// The kebab-case name.
    pub fn as_str(self) -> &'static str {
        match self {
            EventKind::Send => "send",
            EventKind::Deliver => "deliver",
            EventKind::Lost => "lost",
            EventKind::State => "state",
            EventKind::Fault => "fault",
            EventKind::Note => "note",
        }
    }
}

/// Why a lock service stopped holding the lock for someone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FreeReason {
    /// The holder released it.
    Released,
    /// The TTL or lease ran out on the service's clock.
    Expired,
    /// The service lost the key (restart without persistence, failover to a replica without it).
    Forgotten,
}

/// Structured meaning of an event, for timelines, charts and the verdict.
///
/// A tag belongs to the lane of its event's `from` node: `ServiceGrants` sits on the lock node's
/// reply, `WriteAccepted`, `ReadRaisedToken` and `AccessRejected` on the database's reply,
/// `Believes` on the worker's own state event. Global tags (`Partition`, `Healed`, `RunEnds`) belong to no lane.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "tag", rename_all = "kebab-case")]
pub enum Tag {
    /// On a lock node's lane: the service now records `holder` as holding the lock.
    ServiceGrants { holder: String, token: Option<u64> },
    /// On a lock node's lane: the service no longer records `holder` as holding the lock.
    ServiceFrees { holder: String, reason: FreeReason },
    /// On a worker's lane: the worker starts to believe it holds the lock.
    Believes { token: Option<u64> },
    /// On a worker's lane: the worker stops believing it holds the lock.
    StopsBelieving,
    /// The node freezes until `until_ms` (true time).
    Paused { until_ms: u64 },
    /// The node runs again.
    Resumed,
    /// The node stops.
    Crashed,
    /// The node comes back.
    Restarted { persistent: bool },
    /// The replica replaces the master.
    FailedOver,
    /// The node's clock stepped.
    ClockJumped { by_ms: i64 },
    /// On a send: the message will arrive `extra_ms` later than usual.
    Delayed { extra_ms: u64 },
    /// A worker's lease was extended.
    Renewed,
    /// On a worker's lane: its client has heard nothing from the cluster for 2/3 of the session
    /// timeout (Curator's SUSPENDED): it cannot be sure it still holds the lock.
    SessionSuspended,
    /// On a worker's lane: 4/3 of the session timeout without a word (2/3 of it after SUSPENDED), its client reports the session
    /// lost (Curator's LOST). A worker that carries on acts on a lock it knows it no longer holds.
    SessionLost,
    /// The network splits into these groups (a note across all lanes).
    Partition { groups: Vec<Vec<String>> },
    /// The partition is gone (a note across all lanes).
    Healed,
    /// The run is over (a note across all lanes).
    RunEnds,
    /// A consensus node became leader.
    Leader { term: u64 },
    /// On the database's lane: a write was applied.
    WriteAccepted {
        token: Option<u64>,
        applied: u32,
        noops: u32,
    },
    /// On the database's lane: a read whose token raised the database's `last_token` to this
    /// value (fencing every access); a later access with a lower token is refused because of it.
    ReadRaisedToken { last_token: u64 },
    /// On the database's lane: an access was refused because of its fencing token.
    AccessRejected {
        write: bool,
        token: Option<u64>,
        last_token: Option<u64>,
    },
    /// On the database's lane: this write paid payouts that had been paid already.
    Duplicate { payouts: u32, cents: u64 },
    /// On the database's lane, in a run whose workers are being migrated to fencing (some send
    /// tokens, some do not): the fencing check the database runs.
    DbFencing { mode: crate::scenario::FencingMode },
    /// On a worker's lane, in such a run, as it starts: whether it runs the upgraded code that
    /// sends its fencing token.
    WorkerFencing { sends_tokens: bool },
}

/// One event of a run.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct TraceEvent {
    /// True (simulated) time in ms.
    pub time_ms: u64,
    pub kind: EventKind,
    pub from: NodeId,
    pub to: NodeId,
    /// Links the send, delivery or loss of one message.
    pub message: Option<u64>,
    /// Short label: `SET lock:batch-42 67094c NX PX 5000`, `rejected — 33 < last_token 34`.
    pub label: String,
    /// One or two sentences for a learner: why it happened, what it means.
    pub explanation: String,
    pub tag: Option<Tag>,
}

/// A run's participants and events.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Trace {
    pub participants: Vec<Participant>,
    pub events: Vec<TraceEvent>,
}

impl Trace {
    /// The name of a participant.
    pub fn name(&self, node: NodeId) -> &str {
        self.participants
            .get(usize::from(node))
            .map_or("?", |p| p.name.as_str())
    }
}

impl TraceEvent {
    /// Events about the whole system rather than one node (partition, heal, end of run).
    pub fn is_global(&self) -> bool {
        matches!(
            self.tag,
            Some(Tag::Partition { .. } | Tag::Healed | Tag::RunEnds)
        )
    }
}
