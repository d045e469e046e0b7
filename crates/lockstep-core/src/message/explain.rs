//! What each message means, in a sentence or two for the timeline's explanation: the generic
//! text, which the simulator then keeps true to the run (sim/narrate.rs).

use super::*;

impl Payload {
    pub fn explain(&self, from: &str, to: &str, key: &str) -> String {
        match self {
            Payload::Set { ttl_ms, with_token, .. } => {
                let value = format!("The value is {from}'s random value for this acquisition (shortened here to 6 hex digits; the Redis docs draw 20 random bytes), so that only {from} can release or extend the key.");
                if *with_token {
                    format!(
                        "{from} asks {to} for the lock and a fencing token in one atomic step, by calling the function acquire (FCALL; older Redis runs the same Lua script with EVAL). It runs SET {key} with NX, which succeeds only if the key is absent, and PX, which makes it expire {ttl_ms} ms later on {to}'s own clock; only if that succeeded, it runs INCR on the fencing counter `fence`. It returns the new token, or nil. {value}"
                    )
                } else {
                    format!(
                        "{from} asks {to} for the lock: SET with NX succeeds only if {key} is absent, and PX makes the key expire {ttl_ms} ms later on {to}'s own clock. {value}"
                    )
                }
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
            Payload::KeepAlive { .. } => format!("{from} sends a keepalive so that {to} extends its lease (etcd's client sends one at once, then TTL/3 after each answer, on its send loop's 500 ms passes, and on every pass while one goes unanswered). Keepalives keep to {to}, answered or not: etcd's client sends them on one gRPC stream, which stays on its connection until the connection breaks (a silent partition does not break it) or the member cancels the stream for having no leader (clientv3 opens it with WithRequireLeader; etcd cancels such streams after 3 election timeouts without a leader, and the client reopens it 500 ms later, perhaps on another endpoint); ZooKeeper's client moves to another server once its read timeout passes."),
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
                "{from} hears from no leader (cut off from the majority, or an election is under way), so it refuses {to}'s request at once with \"etcdserver: no leader\": {to}'s client marks its requests with clientv3.WithRequireLeader, as clientv3 marks its keepalive stream. concurrency.Mutex does not: unmarked, a lock or unlock would wait here for a leader until the caller's deadline or etcd's 7 s request timeout (\"context deadline exceeded\"). clientv3 does not retry such a write; {to}'s program tries another endpoint, and cannot learn who leads across a partition."
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
                "{to} has not acknowledged this entry, so the leader {from} sends it again, and it commits entries only in log order. This model re-sends every unacknowledged entry with the leader's next append; etcd raft sends only new entries while replication works, and once a follower rejects an append or is reported unreachable it probes it with one append from its last acknowledged entry, then waits for a heartbeat answer before sending more (Progress StateProbe), so a dead follower gets few re-sends. Either way nothing commits without a majority."
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
                WriteResult::Applied { noops: 0, duplicated: 0, .. } => "The database applied the payouts and marked the batch paid.".into(),
                WriteResult::Applied { duplicated, .. } if *duplicated > 0 => format!(
                    "The database applied the payouts a second time: {duplicated} of them had already been paid by an earlier write, and nothing here told the two writes apart. {to} believes it has done the batch's one payment."
                ),
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
