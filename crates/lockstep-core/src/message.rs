//! What travels between nodes, and how each message is labelled and explained on the timeline.

use crate::topology::NodeId;

mod explain;

/// What keeps a consensus session alive: etcd's keepalive, or for a ZooKeeper-style client
/// (`on_suspended`), its ping while connected and its connect request after it lost the
/// connection (carrying the session id, checked with the leader).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SessionPacket {
    Keepalive,
    Ping,
    Connect,
    /// The kernel's resend of a connection attempt's SYN: if it gets through, the connection
    /// opens and the client sends its ConnectRequest (drawn as one message).
    ConnectResent,
}

/// Result of a status read at the database.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum ReadResult {
    Unpaid,
    Paid,
    Rejected(String),
}

/// Result of a batch write at the database.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum WriteResult {
    Applied {
        applied: u32,
        noops: u32,
        /// Of the applied payouts, how many an earlier write had already paid: the reply to
        /// a duplicate write says so rather than read like the first payment.
        duplicated: u32,
    },
    Rejected(String),
    /// A conditional write (`UPDATE ... WHERE status = 'unpaid'`) found the batch paid.
    NothingToUpdate,
    /// An idempotency key came back with a different amount (Stripe answers with an error).
    KeyReused,
}

/// One change shipped from a Redis master to its replica.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum ReplOp {
    /// The lock key with its owner's value, owner and absolute expiry (master's clock, as Redis ships PEXPIREAT).
    SetKey {
        value: u64,
        owner: u16,
        expires_local: i64,
    },
    DelKey,
    Counter(u64),
}

/// A consensus log entry.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Entry {
    /// Grant a lease and create the lock key under it, for the owner's request `req`.
    Lock {
        lease: u64,
        owner: u16,
        ttl_ms: u64,
        req: u64,
    },
    /// Delete the key and revoke its lease (the holder unlocks).
    Unlock { lease: u64 },
    /// The leader revokes an expired lease; `session`: it is a ZooKeeper session, which the
    /// leader closes (a closeSession transaction, which deletes its ephemeral nodes).
    Revoke { lease: u64, session: bool },
    /// A new leader's first entry of its term, with no change in it (etcd raft's becomeLeader
    /// appends it; a ZooKeeper leader's NEWLEADER plays its part): until it commits, the leader
    /// cannot know which earlier entries are committed.
    Empty,
}

/// The idempotency keys of a batch's first `n` payouts, one per payout: `batch-42/1–3`.
pub fn key_names(batch: &str, n: u32) -> String {
    match n {
        0 | 1 => format!("{batch}/1"),
        n => format!("{batch}/1–{n}"),
    }
}

/// Why a ZooKeeper server closes a client's connection: it has, or has just lost, no leader.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Closing {
    /// It read the client's request (`req`) while it had no leader.
    Request(u64),
    /// Its connection to its leader was reset: the leader's process died (Learner.shutdown).
    LeaderDied,
    /// It heard nothing from its leader for its timeout and stopped following (Learner.shutdown).
    LeaderSilent,
    /// It hears from no leader and granted another node's (pre-)vote: it has given its leader
    /// up and stopped following (Learner.shutdown).
    Voted,
    /// It led and stepped down, without a quorum (Leader.shutdown).
    SteppedDown,
}

impl Closing {
    /// The request the server read before it closed the connection, if it read one.
    pub fn request(self) -> Option<u64> {
        match self {
            Closing::Request(req) => Some(req),
            _ => None,
        }
    }
}

/// A message's content. `req` ties a reply to its request.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Payload {
    /// `SET key value NX PX ttl`, or with a token wanted the function `acquire`, which also
    /// runs `INCR` of the fencing counter in the same atomic step.
    Set {
        req: u64,
        value: u64,
        ttl_ms: u64,
        with_token: bool,
    },
    SetReply {
        req: u64,
        ok: bool,
        token: Option<u64>,
    },
    /// Plain `DEL key`: deletes the key whoever holds it (an unsafe release).
    DelPlain {
        req: u64,
    },
    /// The answer to a plain `DEL`: how many keys it removed (0 or 1).
    DelPlainReply {
        req: u64,
        deleted: bool,
    },
    /// Compare-and-delete release.
    Del {
        req: u64,
        value: u64,
    },
    DelReply {
        req: u64,
        deleted: bool,
    },
    /// Compare-and-extend renewal.
    Extend {
        req: u64,
        value: u64,
        ttl_ms: u64,
    },
    ExtendReply {
        req: u64,
        ok: bool,
    },
    Replicate {
        ops: Vec<ReplOp>,
    },
    LockReq {
        req: u64,
        ttl_ms: u64,
        /// Lock with this worker's session (its lease, hence its key name), if it has one.
        session: Option<u16>,
        /// The first of this session's lock requests, when it got no answer: etcd's Mutex names
        /// its key after the session's lease, so the repeat finds the key the first one made.
        again: Option<u64>,
    },
    LockReply {
        req: u64,
        lease: u64,
        rev: u64,
        owner_now: bool,
        /// The lease's TTL as granted (raised to the service's minimum if the request was lower).
        ttl_ms: u64,
    },
    LockGranted {
        lease: u64,
        rev: u64,
    },
    KeepAlive {
        req: u64,
        lease: u64,
        packet: SessionPacket,
    },
    KeepAliveReply {
        req: u64,
        ok: bool,
        packet: SessionPacket,
    },
    /// A follower checks a ZooKeeper-style client's session with the leader (`relay` names the
    /// client's request at the follower).
    Revalidate {
        relay: u64,
        lease: u64,
    },
    RevalidateReply {
        relay: u64,
        ok: bool,
    },
    /// A follower passes a ZooKeeper-style client's lock or unlock request on to the leader.
    Forward {
        client: NodeId,
        request: Box<Payload>,
    },
    /// The leader's answer to a forwarded request, for the follower to pass on to its client.
    Relayed {
        client: NodeId,
        reply: Box<Payload>,
    },
    /// A follower reports a client's ping to the leader (no answer).
    SessionTouch {
        lease: u64,
    },
    /// A ZooKeeper server with no leader serves no client: it closes the connection a request
    /// came on, or every client connection as it stops following or leading (`closing` says
    /// which). `instance` is the closing node's index.
    NotServing {
        closing: Closing,
        instance: u32,
    },
    Unlock {
        req: u64,
        lease: u64,
    },
    UnlockReply {
        req: u64,
        /// False when the lease, and its key with it, was already gone.
        deleted: bool,
        /// The lease is still alive (a shared session): the key went some other way.
        lease_alive: bool,
    },
    /// A consensus node that neither leads nor hears from a leader refuses an etcd client's
    /// request with "etcdserver: no leader": the model's client sets WithRequireLeader, the
    /// one case in which etcd answers at once (a follower that hears from a leader forwards
    /// the request to it instead).
    NotLeader {
        req: u64,
    },
    /// An etcd client that moved to another node while it waits opens its watch there again,
    /// from the revision it watched from (clientv3's watcher resume).
    WatchResume {
        rev: u64,
        /// The same endpoint was asked before and has not answered.
        retry: bool,
    },
    /// A waiter's predecessor key (revision `rev`, when known) was deleted, and its own key is
    /// gone too: its lease was revoked while it waited (etcd's Mutex then returns
    /// ErrSessionExpired). The predecessor is not known when a grant that waited for the
    /// client's server to hear the leader finds the client's key gone by then.
    SessionGone {
        lease: u64,
        rev: Option<u64>,
    },
    /// Raft's pre-vote (etcd's PreVote): would you vote for me in `term`? Asking changes no term.
    PreVote {
        term: u64,
    },
    PreVoteReply {
        term: u64,
        granted: bool,
        /// The voter's log holds an entry the candidate's lacks (Raft's election restriction).
        longer_log: bool,
    },
    Append {
        term: u64,
        proposal: u64,
        entry: Entry,
        /// The leader sends the entry again: the follower never acknowledged an earlier send.
        again: bool,
    },
    AppendAck {
        term: u64,
        proposal: u64,
    },
    /// The follower's log lacks an entry before this one: it refuses it (Raft's log matching).
    AppendReject {
        term: u64,
        proposal: u64,
    },
    RequestVote {
        term: u64,
    },
    Vote {
        term: u64,
        granted: bool,
        /// The voter's log holds an entry the candidate's lacks (Raft's election restriction).
        longer_log: bool,
    },
    Read {
        req: u64,
        token: Option<u64>,
    },
    ReadReply {
        req: u64,
        result: ReadResult,
    },
    Write {
        req: u64,
        token: Option<u64>,
        keys: bool,
        payouts: u32,
        /// Per payout, when the worker computed its own amount; None: the batch's amount.
        amount_cents: Option<u64>,
    },
    WriteReply {
        req: u64,
        result: WriteResult,
    },
}

/// How an acquisition's random value is written on an arrow: its first six hex digits, enough
/// to tell one acquisition's value from another's in a run.
fn shown_value(value: u64) -> String {
    format!("{:06x}", value >> 40)
}

/// What an etcd client sends for a lease of `ttl_ms`: a whole number of seconds (clientv3's
/// `Grant` takes an int64 TTL in seconds), rounded up as this model's client does.
pub fn lease_seconds(ttl_ms: u64) -> u64 {
    ttl_ms.div_ceil(1000).max(1)
}

/// The key a consensus client locks with: etcd's `concurrency.Mutex` names it after the lock's
/// prefix and its session's lease ID in hex (`mutex.go`: `fmt.Sprintf("%s%x", pfx, lease)`), so
/// every session's key is its own and a queue forms by create revision.
pub fn lease_key(key: &str, lease: u64) -> String {
    format!("{key}/{lease:x}")
}

fn token_suffix(token: Option<u64>) -> String {
    match token {
        Some(t) => format!(" token={t}"),
        None => String::new(),
    }
}

impl Payload {
    /// The short label drawn on the arrow.
    pub fn label(&self, key: &str, batch: &str) -> String {
        match self {
            Payload::Set {
                value,
                ttl_ms,
                with_token,
                ..
            } => {
                let value = shown_value(*value);
                if *with_token {
                    format!("FCALL acquire 2 {key} fence {value} {ttl_ms}")
                } else {
                    format!("SET {key} {value} NX PX {ttl_ms}")
                }
            }
            Payload::SetReply {
                ok: true, token, ..
            } => match token {
                Some(t) => format!("(integer) {t}: the token"),
                None => "OK".into(),
            },
            Payload::SetReply { ok: false, .. } => "(nil): key exists".into(),
            Payload::Del { value, .. } => format!("DELEX {key} IFEQ {}", shown_value(*value)),
            Payload::DelPlain { .. } => format!("DEL {key}"),
            Payload::DelPlainReply { deleted: true, .. } => "(integer) 1: deleted".into(),
            Payload::DelPlainReply { deleted: false, .. } => "(integer) 0: no such key".into(),
            Payload::DelReply { deleted: true, .. } => "(integer) 1: deleted".into(),
            Payload::DelReply { deleted: false, .. } => "(integer) 0: not the holder".into(),
            Payload::Extend { value, ttl_ms, .. } => {
                let value = shown_value(*value);
                format!("SET {key} {value} IFEQ {value} PX {ttl_ms}")
            }
            Payload::ExtendReply { ok: true, .. } => "OK: extended".into(),
            Payload::ExtendReply { ok: false, .. } => "(nil): lock lost".into(),
            Payload::Replicate { ops } => format!(
                "replicate {} op{}",
                ops.len(),
                if ops.len() == 1 { "" } else { "s" }
            ),
            Payload::LockReq { ttl_ms, .. } => {
                format!("lock {key} (lease {} s)", lease_seconds(*ttl_ms))
            }
            Payload::LockReply {
                rev,
                owner_now: true,
                ..
            } => format!("locked, revision={rev}"),
            Payload::LockReply {
                rev,
                owner_now: false,
                ..
            } => format!("queued, revision={rev}"),
            Payload::LockGranted { rev, .. } => format!("locked, revision={rev}"),
            Payload::KeepAlive { lease, packet, .. } => match packet {
                SessionPacket::Keepalive => format!("keepalive lease {lease}"),
                SessionPacket::Ping => format!("ping session {lease}"),
                SessionPacket::Connect => format!("connect: session {lease}"),
                SessionPacket::ConnectResent => format!("connect: session {lease} (SYN resent)"),
            },
            Payload::KeepAliveReply { ok, packet, .. } => match (packet, ok) {
                (SessionPacket::Keepalive, true) => "lease refreshed".into(),
                (SessionPacket::Keepalive, false) => "TTL=0: lease not found".into(),
                (SessionPacket::Ping, true) => "ping answered".into(),
                (SessionPacket::Connect | SessionPacket::ConnectResent, true) => {
                    "connected: session alive".into()
                }
                (_, false) => "session expired".into(),
            },
            Payload::Revalidate { lease, .. } => format!("revalidate session {lease}"),
            Payload::SessionTouch { lease } => format!("touched: session {lease}"),
            Payload::NotServing { .. } => "connection closed: no leader".into(),
            Payload::Forward { request, .. } => format!("forward: {}", request.label(key, batch)),
            Payload::Relayed { reply, .. } if reply.is_watch_event() => {
                format!("commit: {}", reply.label(key, batch))
            }
            Payload::Relayed { reply, .. } => format!("answer: {}", reply.label(key, batch)),
            Payload::RevalidateReply { ok: true, .. } => "session alive".into(),
            Payload::RevalidateReply { ok: false, .. } => "session expired".into(),
            Payload::Unlock { lease, .. } => format!("unlock {}", lease_key(key, *lease)),
            Payload::UnlockReply { deleted: true, .. } => "unlocked".into(),
            Payload::UnlockReply {
                deleted: false,
                lease_alive: true,
                ..
            } => "nothing to delete: no such key".into(),
            Payload::UnlockReply { deleted: false, .. } => {
                "nothing to delete: the key went with the lease".into()
            }
            Payload::NotLeader { .. } => "etcdserver: no leader".into(),
            Payload::WatchResume { rev, retry: false } => {
                format!("watch again from revision {rev}")
            }
            Payload::WatchResume { rev, retry: true } => {
                format!("watch again from revision {rev} (retry)")
            }
            Payload::SessionGone { rev: Some(rev), .. } => {
                format!("watch: revision {rev} deleted · get: own key gone")
            }
            Payload::SessionGone { rev: None, .. } => {
                "watch: predecessor deleted · get: own key gone".into()
            }
            Payload::PreVote { term } => format!("pre-vote for term {term}?"),
            Payload::PreVoteReply {
                granted: true,
                term,
                ..
            } => format!("pre-vote granted, term {term}"),
            Payload::PreVoteReply {
                granted: false,
                term,
                ..
            } => format!("pre-vote refused, term {term}"),
            Payload::Append {
                entry, again, term, ..
            } => {
                let verb = if *again { "append again" } else { "append" };
                match entry {
                    Entry::Lock { lease, .. } => {
                        format!("{verb}: put {} (lease {lease})", lease_key(key, *lease))
                    }
                    Entry::Unlock { lease } => format!("{verb}: delete {}", lease_key(key, *lease)),
                    Entry::Revoke {
                        lease,
                        session: false,
                    } => format!("{verb}: revoke lease {lease}"),
                    Entry::Revoke {
                        lease,
                        session: true,
                    } => format!("{verb}: close session {lease}"),
                    Entry::Empty => format!("{verb}: empty entry, term {term}"),
                }
            }
            Payload::AppendAck { .. } => "ack".into(),
            Payload::AppendReject { .. } => "reject: an earlier entry is missing".into(),
            Payload::RequestVote { term } => format!("vote for me, term {term}"),
            Payload::Vote {
                granted: true,
                term,
                ..
            } => format!("vote granted, term {term}"),
            Payload::Vote {
                granted: false,
                term,
                ..
            } => format!("vote refused, term {term}"),
            Payload::Read { token, .. } => format!("read status {batch}{}", token_suffix(*token)),
            Payload::ReadReply { result, .. } => match result {
                ReadResult::Unpaid => "status: unpaid".into(),
                ReadResult::Paid => "status: paid".into(),
                ReadResult::Rejected(why) => format!("rejected — {why}"),
            },
            Payload::Write {
                token,
                payouts,
                keys,
                ..
            } => {
                let named = if *keys {
                    format!(", keys {}", key_names(batch, *payouts))
                } else {
                    String::new()
                };
                format!("write {payouts} payouts{}{named}", token_suffix(*token))
            }
            Payload::WriteReply { result, .. } => match result {
                WriteResult::Applied {
                    applied, noops: 0, ..
                } => format!("applied {applied}"),
                // Nothing applied: every payout's key was used, so the keys are the batch's
                // first `noops`.
                WriteResult::Applied {
                    applied: 0, noops, ..
                } => {
                    format!(
                        "already applied: keys {} used ({noops} no-ops)",
                        key_names(batch, *noops)
                    )
                }
                WriteResult::Applied { applied, noops, .. } => {
                    format!("applied {applied}, {noops} no-ops")
                }
                WriteResult::Rejected(why) => format!("rejected — {why}"),
                WriteResult::NothingToUpdate => "0 rows updated: status is paid".into(),
                WriteResult::KeyReused => {
                    "error: idempotency key reused with other parameters".into()
                }
            },
        }
    }

    /// One or two sentences for a learner, said when the message is sent.
    /// A server's push on a client's watch stream (the lock granted to a waiter, or the waiter
    /// told its session is gone): it is not lost in a partition, only held until it heals.
    pub fn is_watch_event(&self) -> bool {
        matches!(
            self,
            Payload::LockGranted { .. } | Payload::SessionGone { .. }
        )
    }

    /// The request id this message answers or asks, if any.
    pub fn req(&self) -> Option<u64> {
        match self {
            Payload::Set { req, .. }
            | Payload::SetReply { req, .. }
            | Payload::Del { req, .. }
            | Payload::DelPlain { req }
            | Payload::DelPlainReply { req, .. }
            | Payload::DelReply { req, .. }
            | Payload::Extend { req, .. }
            | Payload::ExtendReply { req, .. }
            | Payload::LockReq { req, .. }
            | Payload::LockReply { req, .. }
            | Payload::KeepAlive { req, .. }
            | Payload::KeepAliveReply { req, .. }
            | Payload::Unlock { req, .. }
            | Payload::UnlockReply { req, .. }
            | Payload::NotLeader { req, .. }
            | Payload::Read { req, .. }
            | Payload::ReadReply { req, .. }
            | Payload::Write { req, .. }
            | Payload::WriteReply { req, .. } => Some(*req),
            _ => None,
        }
    }
}
