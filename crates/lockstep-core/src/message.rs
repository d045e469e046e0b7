//! What travels between nodes, and how each message is labelled and explained on the timeline.

use crate::topology::NodeId;

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
    /// A consensus node that neither leads nor hears from a leader fails an etcd client's
    /// request (a follower that hears from one forwards the request to it instead).
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
            Payload::NotLeader { .. } => "not the leader: no leader known".into(),
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
                WriteResult::Applied { applied, noops: 0 } => format!("applied {applied}"),
                // Nothing applied: every payout's key was used, so the keys are the batch's
                // first `noops`.
                WriteResult::Applied { applied: 0, noops } => {
                    format!(
                        "already applied: keys {} used ({noops} no-ops)",
                        key_names(batch, *noops)
                    )
                }
                WriteResult::Applied { applied, noops } => {
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

    pub fn explain(&self, from: &str, to: &str, key: &str) -> String {
        match self {
            Payload::Set { ttl_ms, with_token, .. } => {
                let token = if *with_token {
                    " The function acquire (called with FCALL; older Redis runs the same Lua script with EVAL) that runs this SET and, only if it succeeded, INCR on the fencing counter `fence`, as one atomic step: it returns the new token, or nil."
                } else {
                    ""
                };
                format!(
                    "{from} asks {to} for the lock: SET with NX succeeds only if {key} is absent, and PX makes the key expire {ttl_ms} ms later on {to}'s own clock. The value is {from}'s random value for this acquisition, so that only {from} can release or extend the key.{token}"
                )
            }
            Payload::SetReply { ok: true, token, .. } => match token {
                Some(t) => format!("{key} was free, so {to} now holds it; INCR on the fencing counter returned token {t}. The counter only rises while it survives: an instance restarted empty or a replica promoted before it received the counter hands numbers out again."),
                None => format!("{key} was free, so {to} now holds it until the TTL runs out on {from}'s clock or {to} releases it."),
            },
            Payload::SetReply { ok: false, .. } => format!("{key} exists: someone else holds the lock, so NX refuses {to}."),
            Payload::DelPlain { .. } => format!(
                "{from} releases the lock with a plain DEL: {to} deletes {key} whoever holds it now. If {from}'s TTL ran out and someone else took the lock, this deletes their lock; the Redis docs release only with a compare-and-delete script for this reason."
            ),
            Payload::DelPlainReply { deleted: true, .. } => format!("The key is gone, whoever held it: {to} cannot tell from this answer whose lock it deleted."),
            Payload::DelPlainReply { deleted: false, .. } => "There was no key to delete: the lock was already free or taken and released by someone else.".into(),
            Payload::Del { .. } => format!(
                "{from} releases the lock with compare-and-delete: {to} deletes {key} only if it still holds {from}'s random value, so a late release cannot delete someone else's lock. Redis 8.4 has this as DELEX key IFEQ value; older Redis runs the same check in the Lua script the Redis docs give."
            ),
            Payload::DelReply { deleted: true, .. } => "The key is gone and the lock is free.".into(),
            Payload::DelReply { deleted: false, .. } => format!(
                "The key no longer holds {to}'s value (it expired, and perhaps someone else took it), so nothing is deleted."
            ),
            Payload::Extend { ttl_ms, .. } => format!(
                "{from} renews its lease: if {key} still holds {from}'s value, {to} sets it again with a fresh TTL of {ttl_ms} ms, else it changes nothing. Redis 8.4 does this as one command, SET with IFEQ; older Redis runs GET and PEXPIRE in a Lua script. Renewals help only while {from} runs: a paused process sends none."
            ),
            Payload::ExtendReply { ok: true, .. } => format!("{to}'s lease runs another full TTL from now on {from}'s clock."),
            Payload::ExtendReply { ok: false, .. } => format!("The key is gone or belongs to someone else: {to} has lost the lock."),
            Payload::Replicate { .. } => format!(
                "Replication is asynchronous: {from} acknowledged these writes before shipping them to {to}, so a crash before this arrives loses them. Real Redis streams each write to its replicas at once, so the window is normally what is in flight, milliseconds; this run widens it (replica_lag_ms) to make it visible."
            ),
            Payload::LockReq { ttl_ms, .. } => {
                let secs = lease_seconds(*ttl_ms);
                let asked = if secs * 1000 == *ttl_ms {
                    String::new()
                } else {
                    format!(" ({from} wanted {ttl_ms} ms, but etcd counts lease TTLs in whole seconds)")
                };
                format!(
                    "{from} asks {to} for the lock: grant a {secs} s lease{asked} and create the key {key}/<lease ID> under it (etcd's Mutex names each client's key after its session's lease). The leader appends the change to its log (a follower would forward it there). The key's create revision will be the fencing token."
                )
            }
            Payload::LockReply { rev, owner_now: true, .. } => format!(
                "The key was committed by a majority at revision {rev}, and it is the lowest key under the lock's prefix, so {to} owns the lock; revision {rev} is its fencing token."
            ),
            Payload::LockReply { rev, owner_now: false, .. } => format!(
                "The key was committed at revision {rev}, but an older key holds the lock; {to} waits for its predecessor to be deleted instead of polling."
            ),
            Payload::LockGranted { rev, .. } => format!("The key before {to}'s was deleted, so {to}'s key (revision {rev}) is now the lowest: {to} owns the lock."),
            Payload::KeepAlive { packet: SessionPacket::Connect, .. } => format!("{from}'s client has lost its connection (its read timeout passed, or the server closed it) and sends no pings now: it opens a connection to {to} (the next server in its connect string) and, once it is open, sends a ConnectRequest carrying its session id, which the server checks with the leader (ZooKeeper's ClientCnxn: startConnect, primeConnection; Learner.validateSession on a follower). The session lives on only if this reaches the cluster before the session timeout runs out there. The kernel resends its SYN 1 s and 3 s into the attempt, as far as the connect timeout (the session timeout ÷ the number of servers) allows; when that runs out, the client tries the next server after a random pause of up to a second (a second more when it comes back round to the server it was last connected to: StaticHostProvider.next)."),
            Payload::KeepAlive { packet: SessionPacket::ConnectResent, .. } => format!("The kernel sends the SYN of {from}'s connection attempt to {to} again (Linux: 1 s after the first, then 2 s later). If it gets through, the connection opens and {from}'s client sends its ConnectRequest, drawn here as this one message."),
            Payload::KeepAlive { packet: SessionPacket::Ping, .. } => format!("{from}'s ZooKeeper client pings {to} so that its session stays alive (the real client pings once it has sent nothing for a third of the session timeout, less a second once more than a second has passed: ClientCnxn, readTimeout/2 − idleSend − 1000); the leader counts the session timeout from the last touch."),
            Payload::KeepAlive { .. } => format!("{from} sends a keepalive so that {to} extends its lease (etcd's client sends one at once, then TTL/3 after each answer, on its send loop's 500 ms passes, and on every pass while one goes unanswered). Keepalives keep to the client's one connection to {to}, answered or not: etcd's client replaces it only when it breaks, which a silent partition does not do; ZooKeeper's client moves to another server once its read timeout passes."),
            Payload::KeepAliveReply { ok: true, packet: SessionPacket::Keepalive, .. } => format!("The leader extended {to}'s lease by a full TTL."),
            Payload::KeepAliveReply { ok: false, packet: SessionPacket::Keepalive, .. } => format!("The lease is gone: it expired and was revoked, so {to} no longer holds the lock."),
            Payload::KeepAliveReply { ok: true, packet: SessionPacket::Ping, .. } => format!("The server answered {to}'s ping: its session is alive, and its timeout counts again from this touch."),
            Payload::KeepAliveReply { ok: true, packet: SessionPacket::Connect | SessionPacket::ConnectResent, .. } => format!("The leader still knows {to}'s session: the server answers the ConnectRequest with the session's negotiated timeout, and {to} is connected again."),
            Payload::KeepAliveReply { ok: false, .. } => format!("{to}'s session has expired in the cluster, and its lock node with it: the server answers with a session timeout of 0, so {to}'s client reports Expired (ClientCnxn.onConnected: \"Unable to reconnect to ZooKeeper service, session … has expired\") and Curator LOST."),
            Payload::Revalidate { .. } => format!("{from} does not lead, so it asks the leader {to} whether the reconnecting client's session is still alive; the leader counts the session's timeout again from this touch (ZooKeeper: ZooKeeperServer.reopenSession, Learner.validateSession)."),
            Payload::NotServing { closing: Closing::Request(_), .. } => format!("{from} has no leader (ZooKeeper: it is LOOKING, electing one), so it serves no client: it closes {to}'s connection as soon as it reads the request (NIOServerCnxn: \"ZooKeeperServer not running\"). {to}'s client sees the socket close at once."),
            Payload::NotServing { closing: Closing::LeaderDied, .. } => format!("{from}'s connection to its leader was reset when the leader's process died, so it stops following and closes every client connection (Learner.shutdown → closeAllConnections) until a new leader is elected. {to}'s client sees the socket close at once."),
            Payload::NotServing { closing: Closing::LeaderSilent, .. } => format!("{from} has heard nothing from its leader for its timeout (ZooKeeper's is syncLimit × tickTime on the follower's socket to its leader; this model uses the election timeout), so it stops following and closes every client connection (Learner.shutdown → closeAllConnections) until a new leader is elected. Until now it served its clients as if nothing had happened. {to}'s client sees the socket close at once."),
            Payload::NotServing { closing: Closing::Voted, .. } => format!("{from} hears nothing from its leader and has just granted another node's vote to elect a new one: it has given up its leader, so it stops following and closes every client connection (Learner.shutdown → closeAllConnections; a ZooKeeper follower leaves its leader when its socket read times out and votes as it goes LOOKING). {to}'s client sees the socket close at once."),
            Payload::NotServing { closing: Closing::SteppedDown, .. } => format!("{from} led, but has lost its quorum: it steps down and closes every client connection (Leader.shutdown → closeAllConnections), then looks for a leader like the rest. {to}'s client sees the socket close at once."),
            Payload::Forward { request, .. } if matches!(**request, Payload::KeepAlive { .. }) => format!("{from} does not lead, so it passes its client's keepalive on to the leader {to}, which alone keeps the leases' deadlines (etcd's LeaseRenew on a follower goes to the leader over the peer connection, leasehttp.RenewHTTP). {from} passes the answer back on the client's stream."),
            Payload::Forward { .. } => format!("{from} does not lead, so it passes its client's request on to the leader {to} (ZooKeeper's FollowerRequestProcessor → Learner.request; etcd raft's stepFollower sends the proposal on as a MsgProp). The client keeps its connection to {from}, which answers it once the change is committed: a client never has to know who leads."),
            Payload::Relayed { reply, .. } if reply.is_watch_event() => format!("{from} has committed a change a client of {to}'s watches. {to} learns of the commit from the leader (raft's commit index on its next append or heartbeat; ZooKeeper's COMMIT packet), applies it, and only then fires the watch the client registered with it (etcd: watchableStore.notify after apply; ZooKeeper: the DataTree triggers the watch as it applies the change)."),
            Payload::Relayed { reply, .. } if matches!(**reply, Payload::KeepAliveReply { .. }) => format!("The keepalive came in through {to}, so the answer goes back through it, on the client's stream."),
            Payload::Relayed { .. } => format!("The change is committed. The request came in through {to}, so the answer goes back through it, on the client's connection (a ZooKeeper follower answers its own clients as it applies the leader's commit, CommitProcessor; an etcd member answers the proposals it took when it applies them)."),
            Payload::SessionTouch { .. } => format!("{from} reports its client's ping to the leader {to}, which counts the session's timeout again from it (ZooKeeper: the follower keeps its clients' touches in LearnerSessionTracker and reports them in its reply to the leader's next PING, Learner.ping; the model sends it at once)."),
            Payload::RevalidateReply { ok: true, .. } => format!("The leader still knows the session: {to} answers its client."),
            Payload::RevalidateReply { ok: false, .. } => format!("The session has expired at the leader: {to} tells its client so."),
            Payload::Unlock { .. } => format!("{from} deletes its key, through the log like every change; if its key was the lowest, the next waiter's key becomes the lowest."),
            Payload::UnlockReply { deleted: true, .. } => format!("The deletion is committed; {to} no longer holds the lock."),
            Payload::UnlockReply { deleted: false, lease_alive: true, .. } => format!("{to}'s session is alive, but there is no key under its name any more: another delete of the same name (the same session) removed it. A Delete of a missing key deletes nothing and creates no new revision (etcd mvcc); {to} had not held the lock since that delete, whatever it believed."),
            Payload::UnlockReply { deleted: false, .. } => format!("{to}'s lease had already been revoked, and its key was deleted with it: a Delete of a missing key deletes nothing and creates no new revision (etcd mvcc). {to} had not held the lock since the revocation."),
            Payload::WatchResume { rev, retry: false } => format!(
                "{from}'s client now talks to {to}, so its watch opens there again, from revision {rev}, the one it watched from (clientv3 watch.go: a watcher whose stream broke sends its create request again, with WithRev): {to} sends it any change it missed from its own store, not only new ones. This model gives a client one endpoint for everything, so its watch moves with its keepalives and requests; clientv3 runs the watch on a gRPC stream of its own, which it reopens only when that stream fails."
            ),
            Payload::WatchResume { rev, retry: true } => format!(
                "{from}'s client has had no answer from {to} to its request to resume its watch from revision {rev}, so it asks again. This model spaces the tries a second apart; clientv3 backs off from 1 ms to at most 100 ms between them (watch.go, backoffIfUnavailable)."
            ),
            Payload::NotLeader { .. } => format!(
                "{from} hears from no leader (it is cut off from the majority, or an election is under way), so it can neither serve {to}'s request nor say who leads. etcd fails a lock or unlock there at once with \"raft proposal dropped\" (raft's stepFollower drops a proposal while it knows no leader), and a keepalive with \"etcdserver: no leader\" once its wait for an election (waitLeader) runs out; this model answers both at once. {to} tries its next endpoint; across a partition it cannot learn who leads on the other side."
            ),
            Payload::SessionGone { rev, .. } => format!(
                "{to} was waiting for the key {} to be deleted. It is, but {to}'s own key went earlier, with {to}'s lease, revoked because no keepalive of {to}'s reached the leader within its TTL. etcd's Mutex reads its own key when its predecessor goes, finds nothing and returns ErrSessionExpired (client/v3/concurrency/mutex.go): that is when {to} learns it, not before.",
                rev.map_or("before its own".to_string(), |r| format!("at revision {r}"))
            ),
            Payload::PreVote { term } => format!(
                "{from} has heard from no leader for its election timeout. Before it raises its term it asks whether the others would vote for it in term {term} (Raft's pre-vote, on by default in etcd since 3.5): asking changes nobody's term, so a node cut off from the majority cannot disrupt the cluster with ever higher terms."
            ),
            Payload::PreVoteReply { granted: true, .. } => format!("{from} hears from no leader either, so it would vote for {to}; no term changes yet."),
            Payload::PreVoteReply { granted: false, longer_log: true, .. } => format!("{from}'s log holds an entry that {to}'s lacks, so it would not vote for {to}: Raft's election restriction, which etcd applies to pre-votes too (isUpToDate)."),
            Payload::PreVoteReply { granted: false, .. } => format!("{from} still hears from a leader, or is in a later term, so it would not vote for {to}."),
            Payload::Append { entry: Entry::Empty, again: false, term, .. } => format!(
                "{from} has just been elected, and it appends an empty entry of its term {term} (etcd raft's becomeLeader; a ZooKeeper leader likewise needs a quorum to acknowledge its NEWLEADER before it serves). A Raft leader counts a majority only for entries of its own term (§5.4.2): until this one commits it cannot know which earlier entries are committed, so it fires no watch for them."
            ),
            Payload::Append { again: true, .. } => format!(
                "{to} has not acknowledged this entry, so the leader {from} sends it again: a Raft leader re-sends every entry after a follower's last acknowledged one, with its next append or when the follower answers a heartbeat (etcd raft's maybeSendAppend), and commits entries only in log order."
            ),
            Payload::Append { .. } => format!(
                "The leader {from} replicates the change to {to}; it commits once a majority of nodes has it in their logs."
            ),
            Payload::AppendAck { .. } => format!("{from} has the entry in its log and tells the leader."),
            Payload::AppendReject { .. } => format!("{from}'s log lacks an entry before this one (an append to it did not arrive), so it refuses this one: Raft's log matching lets a follower take an entry only right after the entry the leader says comes before it (etcd raft answers MsgApp with a rejection). {to} sends again from the missing entry."),
            Payload::RequestVote { term } => format!("{from} has not heard from a leader within the election timeout and asks for votes for term {term}."),
            Payload::Vote { granted: true, .. } => format!("{from} votes for {to}."),
            Payload::Vote { granted: false, longer_log: true, .. } => format!("{from}'s log holds an entry that {to}'s lacks, so it refuses: Raft's election restriction lets a node vote only for a log at least as up to date as its own (etcd raft's isUpToDate), so no elected leader can miss an entry a majority may have committed."),
            Payload::Vote { granted: false, .. } => format!("{from} has already moved to this term or later and refuses."),
            Payload::Read { token: Some(t), .. } => format!(
                "{from} checks whether the batch is already paid, sending its token {t} with the read, so a database that checks every access can fence it."
            ),
            Payload::Read { token: None, .. } => format!("{from} checks whether the batch is already paid (the check of check-then-act)."),
            Payload::ReadReply { result, .. } => match result {
                ReadResult::Unpaid => format!("Nobody has paid the batch yet, so {to} will do the work. This answer is only true at this instant."),
                ReadResult::Paid => format!("The batch is already paid; {to} has nothing to do."),
                ReadResult::Rejected(why) => rejected_text(to, why, "read"),
            },
            Payload::Write { token: Some(t), .. } => format!("{from} writes the batch's payouts in one transaction carrying token {t}."),
            Payload::Write { token: None, .. } => format!("{from} writes the batch's payouts in one transaction, with no fencing token."),
            Payload::WriteReply { result, .. } => match result {
                WriteResult::Applied { noops: 0, .. } => "The database applied the payouts and marked the batch paid.".into(),
                WriteResult::Applied { applied: 0, .. } => {
                    "Every payout's idempotency key was already used: the repeated write changed nothing.".into()
                }
                WriteResult::Applied { .. } => "Some payouts were new, the others were recognised by their idempotency keys.".into(),
                WriteResult::Rejected(why) => rejected_text(to, why, "write"),
                WriteResult::NothingToUpdate => format!("The write was UPDATE ... WHERE status = 'unpaid', and the batch is already paid, so no row matched and nothing was paid: the check and the act were one step at the database, which no lock can give {to}."),
                WriteResult::KeyReused => format!("{to}'s write reused idempotency keys with a different amount; like Stripe, the database refuses rather than guess which one was meant."),
            },
        }
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

/// Why the database refused an access, said without claiming more than it knows.
fn rejected_text(to: &str, why: &str, what: &str) -> String {
    if why.starts_with("no fencing token") {
        format!(
            "The database checks a fencing token on every access and {to}'s {what} carried none, so it refuses: only a worker that sends its token can use it."
        )
    } else if why.contains("already used") {
        // `writes` mode: a write must be newer than every write before it, so a second write
        // with the same token is refused whoever sends it; the holder's own retry included.
        format!(
            "The database refused {to}'s {what} ({why}): in this mode a write must carry a token newer than every write before it, so a second write with the same token is refused, whether it comes from a stale holder or is the current holder's own retry. Fencing only orders holders; telling a retry from a new payment is the job of idempotency keys."
        )
    } else {
        format!(
            "The database refused {to}'s {what} ({why}): its fencing token is older than one the database has already seen, so {to}'s lock is stale and it is fenced off."
        )
    }
}
