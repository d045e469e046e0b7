//! The etcd/ZooKeeper-like lock service: a leader per term, changes committed by a majority,
//! the revision (log index) as fencing token, leases judged on the leader's clock.
//!
//! The committed state is kept once for the cluster: Raft guarantees that every elected leader
//! has every committed entry, so this is what any leader would see. What is modelled per node is
//! what the timeline must show: appends and acks, votes, terms, crashes and partitions.

use std::collections::{BTreeMap, BTreeSet};

use rand_chacha::ChaCha8Rng;
use rand_core::Rng;

use super::{Dest, Effects, Timer, next_pass};
use crate::message::{Entry, Payload};
use crate::topology::NodeId;

/// One node's view of terms and votes.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct ConsensusNode {
    pub term: u64,
    /// The term this node is campaigning in, and the votes it has.
    pub campaign: Option<(u64, u32)>,
    /// The term this node asks pre-votes for (its own term is unchanged), and the grants it has.
    pub pre_campaign: Option<(u64, u32)>,
    /// The node's one election clock (etcd raft's electionElapsed): the leader's term when its
    /// pending election timer was armed, while one is. Another fault does not start a second
    /// clock beside it; a leader elected since makes it stale.
    pub election_clock: Option<u64>,
    /// Counts the node's election timers: only the latest armed one counts.
    pub election_generation: u64,
    /// The node has noticed it hears from no leader (its election timer fired, or it stepped
    /// down) and has heard from none since: a ZooKeeper server then is LOOKING and serves no
    /// client. Until it notices, it serves its clients as before.
    pub looking: bool,
    /// Its connection to the leader was reset (the leader's process died): a ZooKeeper follower
    /// stops following at once (Learner: the socket read fails), while etcd raft keeps its
    /// leader until its election timeout. Cleared with `looking`.
    pub left_leader: bool,
}

/// A lease: the lock key lives as long as it does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Lease {
    /// Who locked under it last: the holder its key names.
    pub owner: NodeId,
    /// The worker whose session the lease is (etcd's `concurrency.Session`).
    pub session: NodeId,
    /// The owner's lock request that made it (a repeat of that request finds it).
    pub req: u64,
    /// Another worker locks with the same session: an unlock deletes the key, not the lease.
    pub shared: bool,
    pub ttl_ms: u64,
    /// Expiry on the current leader's clock.
    pub expires_local: i64,
}

/// A change the leader has sent out but not yet committed.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Proposal {
    pub entry: Entry,
    pub term: u64,
    /// The nodes whose logs hold this entry: the leader that appended it and every follower
    /// that stored it, whether or not its acknowledgement reached the leader. A voter that holds
    /// it refuses a candidate that does not (Raft's election restriction), and a new leader that
    /// holds it commits it in its own term (leader completeness).
    pub holders: BTreeSet<usize>,
    /// The nodes the leader knows hold it: itself and every follower whose acknowledgement it
    /// received in this term. A majority of these commits the entry; a follower not in it is
    /// sent the entry again.
    pub acked: BTreeSet<usize>,
    /// When (the leader's clock) the leader last sent it to each follower: it sends it again
    /// only once an acknowledgement would have come back by now (consensus_log.rs).
    pub sent: BTreeMap<usize, i64>,
    pub client: Option<(NodeId, u64)>,
    /// The follower (by index) that took a ZooKeeper-style client's request and forwarded it:
    /// the answer goes back through it, on the client's connection.
    pub forwarded_by: Option<usize>,
    /// Appended by an earlier term's leader and sent again in this term. It is applied before
    /// the new leader's own first entry, while etcd's lessor is not yet primary, so a lease it
    /// grants is refreshed by the lessor's Promote with the others: to now + election timeout +
    /// TTL (server.go applies the leader's first entry, lessor.go Promote).
    pub carried: bool,
    /// Carried over from a leader that was another node (by index): the client sent the request
    /// over its connection to that node, and an answer goes back only on the connection a
    /// request came in on, so nobody answers it.
    pub asked_via: Option<usize>,
}

/// A committed entry that some node's log lacks: an append to it was lost, or it was down or
/// cut off while a majority stored the entry.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Lagging {
    pub entry: Entry,
    /// The nodes whose logs lack it. Such a node refuses later entries (log matching), fires no
    /// watch for it, and gets no vote from a node that holds it (the election restriction).
    pub lacking: BTreeSet<usize>,
    /// The nodes the leader has not heard store it: it sends them the entry again.
    pub unacked: BTreeSet<usize>,
    /// When the leader last sent it to each of them (as [`Proposal::sent`]).
    pub sent: BTreeMap<usize, i64>,
}

/// The whole cluster.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Cluster {
    pub nodes: Vec<ConsensusNode>,
    /// NodeId of node-1.
    pub base: NodeId,
    /// Index of the node that leads (or last led) the current term.
    pub leader: usize,
    /// Whether `leader` is acting as leader now. False once it crashed, restarted (a restarted
    /// node is a follower) or stepped down; true again when an election is won.
    pub leading: bool,
    pub term: u64,
    /// The revision of the last committed change; never goes backwards.
    pub revision: u64,
    pub leases: BTreeMap<u64, Lease>,
    /// Lock keys by create revision; the lowest is the owner.
    pub keys: BTreeMap<u64, u64>,
    pub pending: BTreeMap<u64, Proposal>,
    /// Committed entries some node's log lacks, by proposal id (in log order).
    pub lagging: BTreeMap<u64, Lagging>,
    /// The leader has committed an entry of its own term (its empty first entry, or a later
    /// one): only then does it know which entries are committed (Raft §5.4.2).
    pub term_committed: bool,
    /// Keepalives the leader took before its own first entry committed (client, the follower
    /// that forwarded it, the request): answered once it does, dropped if it stops leading.
    pub held_renewals: Vec<(NodeId, Option<usize>, Payload)>,
    /// Keepalives for etcd leases that had expired, held until the lease's revocation is
    /// applied (lease, client, the follower that forwarded it, the answer): etcd's lessor makes
    /// such a renewal wait (lessor.go, Renew: "renew request must wait for the deletion to
    /// complete"). Dropped if the leader stops leading (Renew answers ErrNotPrimary).
    pub renewals_awaiting_revoke: Vec<(u64, NodeId, Option<usize>, Payload)>,
    /// Round trips between nodes by index, in ms (twice the link's latency): how long the
    /// leader waits for an acknowledgement before it counts an append as lost.
    pub round_trip_ms: Vec<Vec<u64>>,
    pub revoking: BTreeSet<u64>,
    pub next_proposal: u64,
    pub next_lease: u64,
    pub election_timeout_ms: u64,
    /// Chubby's lock-delay: after a holder's lease expires, the lock stays untaken this long.
    pub lock_delay_ms: u64,
    /// Until when (leader's clock) the lock-delay holds the lock free, if it does.
    pub lock_delay_until: Option<i64>,
    /// The lease whose owner was last told it holds the lock.
    pub holder_lease: Option<u64>,
    /// The shortest lease TTL granted: a request below it is raised to it (etcd's minLeaseTTL:
    /// 1.5 election timeouts rounded up to whole seconds, 2 s with the default 1 s timeout).
    pub min_ttl_ms: u64,
    /// Waiters by the revision of the key each watches (its predecessor), as etcd's Mutex
    /// waits for the deletion of the last key created before its own.
    pub watchers: BTreeMap<u64, Watcher>,
    /// Whether the leader's heartbeat round is scheduled (it runs while a follower has not
    /// acknowledged an entry).
    pub heartbeat_armed: bool,
    /// Workers whose session another worker also locks with (`session = "..."`).
    pub shared_sessions: BTreeSet<NodeId>,
    /// Workers with ZooKeeper-style clients (`on_suspended`): their lease is a ZooKeeper
    /// session, which expires and closes (closeSession) rather than being revoked.
    pub zookeeper_sessions: BTreeSet<NodeId>,
    /// For an etcd client's chain of lock requests (a first and its repeats, by the first's
    /// id), the request whose entry the leader made: a repeat finds that key, and an older one
    /// arriving late changes nothing.
    pub made: BTreeMap<(NodeId, u64), u64>,
    /// A ZooKeeper-style client's pings and connect requests a follower took and is checking
    /// with the leader, by relay id (consensus_relay.rs).
    pub relays: BTreeMap<u64, relay::Relay>,
    pub next_relay: u64,
    /// Leases their own unlock deleted. The model ends a worker's session with its lock, but a
    /// ZooKeeper session outlives its lock node until the client closes it: a client whose
    /// delete's answer was lost with its connection reconnects to a live session.
    pub released: BTreeSet<u64>,
}

/// A queued client waiting for its predecessor's key to go.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Watcher {
    pub owner: NodeId,
    pub lease: u64,
    /// The create revision of the waiter's own key.
    pub rev: u64,
    /// The revision of the last key before its own, once deleted while the waiter's own lease
    /// was being revoked: it waits on its own key to be told the session is gone.
    pub woken_by: Option<u64>,
}

/// What a consensus node sees while it reacts.
#[derive(Debug)]
pub struct ConsensusCtx<'a> {
    /// Index of the reacting node (0 = node-1).
    pub me: usize,
    pub now_local: i64,
    pub key: &'a str,
    pub names: &'a [String],
    /// Whether this node hears from a working leader (its heartbeats get through).
    pub leader_ok: bool,
    /// Which cluster nodes would answer this node's heartbeat now (by index).
    pub peers_ok: &'a [bool],
    /// The run's random source: election timeouts are drawn afresh each round.
    pub rng: &'a mut ChaCha8Rng,
    pub fx: &'a mut Effects,
    /// Whether the message handled comes from, or is forwarded for or answers, a ZooKeeper-style
    /// client (one that listens to its connection state): a server with no leader closes such a
    /// client's connection rather than answer "no leader".
    pub from_zookeeper_client: bool,
}

impl ConsensusCtx<'_> {
    fn name(&self, node: NodeId) -> String {
        self.names
            .get(usize::from(node))
            .cloned()
            .unwrap_or_default()
    }
}

/// How often etcd's lessor looks for expired leases to revoke (lessor.go, runLoop:
/// revokeExpiredLeases, then a 500 ms wait).
pub const LESSOR_PASS_MS: i64 = 500;

impl Cluster {
    /// When the leader finds the lease `l` expired, on its own clock: an etcd lease on the
    /// lessor's first pass from its expiry (passes counted from the clock's zero, as the loop
    /// runs from the server's start); a ZooKeeper session as it ends (the real SessionTracker
    /// rounds expiry up to its next tick, which this model does not).
    pub(super) fn expiry_found_at(&self, l: &Lease) -> i64 {
        if self.zookeeper_sessions.contains(&l.session) {
            l.expires_local
        } else {
            next_pass(0, l.expires_local, LESSOR_PASS_MS)
        }
    }

    pub fn new(n: usize, base: NodeId, first_token: u64, election_timeout_ms: u64) -> Self {
        let mut nodes = vec![ConsensusNode::default(); n];
        for node in &mut nodes {
            node.term = 1;
        }
        Cluster {
            nodes,
            base,
            leader: 0,
            leading: true,
            term: 1,
            revision: first_token - 1,
            leases: BTreeMap::new(),
            keys: BTreeMap::new(),
            pending: BTreeMap::new(),
            lagging: BTreeMap::new(),
            // Node-1 leads term 1 from the start, with nothing before it to learn.
            term_committed: true,
            held_renewals: Vec::new(),
            renewals_awaiting_revoke: Vec::new(),
            round_trip_ms: Vec::new(),
            revoking: BTreeSet::new(),
            next_proposal: 1,
            next_lease: 1,
            election_timeout_ms,
            lock_delay_ms: 0,
            lock_delay_until: None,
            holder_lease: None,
            min_ttl_ms: 0,
            watchers: BTreeMap::new(),
            heartbeat_armed: false,
            shared_sessions: BTreeSet::new(),
            zookeeper_sessions: BTreeSet::new(),
            made: BTreeMap::new(),
            relays: BTreeMap::new(),
            next_relay: 1,
            released: BTreeSet::new(),
        }
    }

    pub fn majority(&self) -> u32 {
        (self.nodes.len() / 2 + 1) as u32
    }

    /// Whether node `index` is acting as the leader now.
    pub fn leads(&self, index: usize) -> bool {
        self.leading && index == self.leader
    }

    /// The NodeId of the current leader.
    pub fn leader_node(&self) -> NodeId {
        self.base + self.leader as NodeId
    }

    /// This node knows no leader: it refuses an etcd client's request with "etcdserver: no
    /// leader". Real etcd does so at once only for a request marked WithRequireLeader (which
    /// the model's client sets, and clientv3 always sets on its keepalive stream); an unmarked
    /// proposal would wait for a leader until the caller's deadline (explain.rs says so).
    pub(super) fn not_leader(&self, client: NodeId, req: u64, cx: &mut ConsensusCtx<'_>) {
        cx.fx.send(Dest::Node(client), Payload::NotLeader { req });
    }

    fn node(&self, index: usize) -> Dest {
        Dest::Node(self.base + index as NodeId)
    }

    /// The lease and owner of the lock, if anyone owns it.
    pub fn owner(&self) -> Option<(u64, Lease)> {
        let (&rev, lease) = self.keys.iter().next()?;
        self.leases.get(lease).map(|l| (rev, *l))
    }

    /// The leader appends `entry` to its log and replicates it. Each follower is first sent
    /// again any earlier entry it has not acknowledged: a Raft append carries every entry after
    /// the follower's last match (etcd raft's `maybeSendAppend`), so a lost append is repaired
    /// by the next one.
    pub(super) fn propose(
        &mut self,
        entry: Entry,
        client: Option<(NodeId, u64)>,
        forwarded_by: Option<usize>,
        cx: &mut ConsensusCtx<'_>,
    ) {
        let id = self.append_own(entry, client, forwarded_by, cx.me);
        for j in 0..self.nodes.len() {
            if j != cx.me {
                self.send_missing(j, Some(id), false, cx);
            }
        }
        self.commit_ready(cx);
        self.arm_heartbeat(cx);
    }

    /// The leader appends `entry` to its own log in its term: returns the proposal's id.
    pub(super) fn append_own(
        &mut self,
        entry: Entry,
        client: Option<(NodeId, u64)>,
        forwarded_by: Option<usize>,
        me: usize,
    ) -> u64 {
        let id = self.next_proposal;
        self.next_proposal += 1;
        self.pending.insert(
            id,
            Proposal {
                entry,
                term: self.term,
                holders: BTreeSet::from([me]),
                acked: BTreeSet::from([me]),
                sent: BTreeMap::new(),
                client,
                forwarded_by,
                carried: false,
                asked_via: None,
            },
        );
        id
    }

    pub fn on_message(&mut self, from: NodeId, payload: Payload, cx: &mut ConsensusCtx<'_>) {
        if cx.leader_ok {
            self.heard_leader(cx.me);
        }
        let is_leader = self.leads(cx.me);
        match payload {
            Payload::KeepAlive { .. }
            | Payload::SessionTouch { .. }
            | Payload::Revalidate { .. }
            | Payload::RevalidateReply { .. } => self.session_message(from, payload, cx),
            Payload::LockReq { .. }
            | Payload::Unlock { .. }
            | Payload::Forward { .. }
            | Payload::Relayed { .. } => self.client_request(from, payload, cx),
            Payload::PreVote { term } => {
                let mine = self.nodes[cx.me].term;
                // Raft's pre-vote: grant only a later term, only if no leader is heard from, and
                // only to a log at least as up to date as this node's.
                let longer_log = self.longer_log(cx.me, from);
                let granted = term > mine && !cx.leader_ok && !self.leads(cx.me) && !longer_log;
                // A node that grants a pre-vote has given up on its leader: a ZooKeeper server
                // doing so has left it and is LOOKING.
                self.nodes[cx.me].looking |= granted;
                // A refusal carries the voter's own term (etcd raft: `Term: r.Term`), so it moves
                // the asker to a later term only if the voter really is in one.
                let term = if granted { term } else { mine };
                cx.fx.send(
                    Dest::Node(from),
                    Payload::PreVoteReply {
                        term,
                        granted,
                        longer_log,
                    },
                );
            }
            Payload::PreVoteReply { term, granted, .. } => self.pre_vote_reply(term, granted, cx),
            Payload::Append { term, proposal, .. } => self.take_append(from, term, proposal, cx),
            Payload::AppendAck { term, proposal } if is_leader && term == self.term => {
                if let Some(j) = from.checked_sub(self.base).map(usize::from) {
                    self.acknowledged(j, proposal);
                }
                self.commit_ready(cx);
            }
            Payload::AppendReject { term, .. } if is_leader && term == self.term => {
                if let Some(j) = from.checked_sub(self.base).map(usize::from) {
                    self.send_missing(j, None, true, cx);
                }
            }
            Payload::RequestVote { term } => {
                let was_leading = self.leads(cx.me);
                // Raft's election restriction: a node whose log holds entries the candidate's
                // lacks does not vote for it.
                let longer_log = self.longer_log(cx.me, from);
                let me = &mut self.nodes[cx.me];
                let granted = term > me.term && !longer_log;
                me.looking |= granted;
                if term > me.term {
                    me.term = term;
                    me.campaign = None;
                    me.pre_campaign = None;
                }
                if granted && was_leading {
                    // A node that sees a higher term is no longer leader of its own (Raft §5.1).
                    self.step_down();
                    cx.fx.state(
                        format!("steps down: term {term} seen"),
                        format!("A candidate asks for votes in term {term}, later than this leader's term {}: a Raft node that sees a higher term steps down to follower.", self.term),
                        None,
                    );
                }
                cx.fx.send(
                    Dest::Node(from),
                    Payload::Vote {
                        term,
                        granted,
                        longer_log,
                    },
                );
            }
            Payload::Vote {
                term,
                granted: true,
                ..
            } => {
                let majority = self.majority();
                let won = match &mut self.nodes[cx.me].campaign {
                    Some((t, votes)) if *t == term => {
                        *votes += 1;
                        *votes >= majority
                    }
                    _ => false,
                };
                if won {
                    self.become_leader(term, cx);
                }
            }
            _ => {}
        }
    }

    pub fn on_timer(&mut self, timer: Timer, leader_ok: bool, cx: &mut ConsensusCtx<'_>) {
        if leader_ok {
            self.heard_leader(cx.me);
        }
        match timer {
            // A new leader's lessor expires nothing before it is promoted (consensus_commit.rs).
            Timer::LeaseCheck if self.leads(cx.me) && self.term_committed => {
                let expired: Vec<(u64, Lease)> = self
                    .leases
                    .iter()
                    .filter(|(id, l)| {
                        self.expiry_found_at(l) <= cx.now_local && !self.revoking.contains(id)
                    })
                    .map(|(id, l)| (*id, *l))
                    .collect();
                for (lease, l) in expired {
                    self.revoking.insert(lease);
                    let who = cx.name(l.owner);
                    let session = self.zookeeper_sessions.contains(&l.session);
                    if session {
                        cx.fx.state(
                            format!("session {lease} ({who}) expired"),
                            format!("{who}'s ZooKeeper session timed out on the leader's clock: no ping reached it for the whole session timeout (the leader's SessionTracker; ZooKeeper rounds expiry up to its next tick, 2 s in its sample config and 3 s if unset, which this model does not). The leader proposes closeSession, which deletes every ephemeral node of the session, {who}'s lock node with it. This model draws ZooKeeper's session as a lease, its lock node as a key and its zxid as a revision."),
                            None,
                        );
                    } else {
                        let ago = cx.now_local - l.expires_local;
                        let when = if ago > 0 {
                            format!(" {ago} ms ago")
                        } else {
                            String::new()
                        };
                        cx.fx.state(
                            format!("lease {lease} ({who}) expired"),
                            format!("{who}'s lease ran out{when} on the leader's clock with no keepalive. etcd's lessor looks for expired leases every {LESSOR_PASS_MS} ms (lessor.go, runLoop), so it finds one up to {LESSOR_PASS_MS} ms after it ends; it finds this one now. The leader proposes to revoke it, which deletes {who}'s lock key once a majority commits it. A keepalive for the lease now gets no renewal: the lessor holds it until the revocation is applied and then answers that the lease is not found (lessor.go, Renew)."),
                            None,
                        );
                    }
                    self.propose(Entry::Revoke { lease, session }, None, None, cx);
                }
            }
            Timer::Heartbeat => {
                // A follower that answers the heartbeat but lacks an entry is sent it again
                // (etcd raft re-sends on a heartbeat response whose Match is behind).
                self.heartbeat_armed = false;
                if self.leads(cx.me) {
                    for j in 0..self.nodes.len() {
                        if j != cx.me && cx.peers_ok.get(j) == Some(&true) {
                            self.send_missing(j, None, false, cx);
                        }
                    }
                    self.arm_heartbeat(cx);
                }
            }
            Timer::LockDelayOver
                if self.leads(cx.me)
                    && self.lock_delay_until.is_some()
                    && !self.delaying(cx.now_local) =>
            {
                self.lock_delay_until = None;
                self.grant_next(cx);
            }
            Timer::Election(generation) if generation != self.nodes[cx.me].election_generation => {}
            Timer::Election(_) if leader_ok || self.leads(cx.me) => {
                self.nodes[cx.me].election_clock = None;
            }
            Timer::Election(_) => {
                self.nodes[cx.me].looking = true;
                let term = self.nodes[cx.me].term + 1;
                self.nodes[cx.me].pre_campaign = Some((term, 1));
                cx.fx.state(
                    format!("pre-vote for term {term}"),
                    format!("No word from a leader for this node's election timeout (this model's: drawn afresh from {t}..{t2} ms each round; etcd's default is 1000 ms, randomised to 1–2 s), so it asks whether a majority would elect it in term {term}. Its term stays {mine} until they say yes (etcd's PreVote, on by default since etcd 3.5).", t = self.election_timeout_ms, t2 = 2 * self.election_timeout_ms, mine = term - 1),
                    None,
                );
                for j in 0..self.nodes.len() {
                    if j != cx.me {
                        cx.fx.send(self.node(j), Payload::PreVote { term });
                    }
                }
                if self.majority() <= 1 {
                    self.campaign(term, cx);
                }
                let jitter = cx.rng.next_u64() % self.election_timeout_ms.max(1);
                let generation = self.arm_election_clock(cx.me);
                cx.fx.after(
                    self.election_timeout_ms + jitter,
                    Timer::Election(generation),
                );
            }
            _ => {}
        }
    }

    /// Node `index` arms an election timer: returns the timer's generation.
    pub fn arm_election_clock(&mut self, index: usize) -> u64 {
        let term = self.term;
        let node = &mut self.nodes[index];
        node.election_generation += 1;
        node.election_clock = Some(term);
        node.election_generation
    }

    /// Whether node `index` already has an election timer counting since the last leader was
    /// elected: another fault does not start a second one beside it.
    pub fn election_clock_running(&self, index: usize) -> bool {
        self.nodes[index].election_clock == Some(self.term)
    }

    /// A node stops and leads no more. A leader's uncommitted entries stay in its log on disk
    /// (see [`Self::step_down`]).
    pub fn crash(&mut self, index: usize) {
        // A crash drops the node's timers.
        self.nodes[index].election_clock = None;
        self.nodes[index].campaign = None;
        self.nodes[index].pre_campaign = None;
        if index == self.leader && self.leading {
            self.step_down();
        }
        if index == self.leader {
            // A crash drops the node's timers, its heartbeat round with them.
            self.heartbeat_armed = false;
        }
    }

    /// A node comes back. Raft keeps its term and log on disk, but a restarted node starts as a
    /// follower: it leads again only by winning an election, which also re-arms its lease timers.
    pub fn restart(&mut self, index: usize) {
        // A ZooKeeper server starts LOOKING; it serves once it hears from a leader.
        self.nodes[index].looking = true;
        self.nodes[index].campaign = None;
        self.nodes[index].pre_campaign = None;
        if index == self.leader {
            self.leading = false;
        }
    }
}

#[path = "consensus_election.rs"]
mod election;

#[path = "consensus_log.rs"]
mod log;

#[path = "consensus_waiters.rs"]
mod waiters;

#[path = "consensus_relay.rs"]
mod relay;

#[path = "consensus_requests.rs"]
mod requests;

#[cfg(test)]
#[path = "consensus_tests.rs"]
mod tests;

#[path = "consensus_commit.rs"]
mod commit;
