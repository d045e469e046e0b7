//! Log replication in the consensus service: re-sending entries a follower has not
//! acknowledged (with the next append or heartbeat round), log matching at the follower,
//! committing in log order, and the election restriction's view of whose log holds which entry.

use std::collections::BTreeSet;

use super::{Cluster, ConsensusCtx, Dest, Lagging, Proposal};
use crate::actors::Timer;
use crate::message::Payload;
use crate::topology::NodeId;

impl Cluster {
    /// Sends follower `j`, in log order, the entries it has not acknowledged: committed ones its
    /// log lacks, then pending ones. Proposal `new` goes in any case; one sent before goes
    /// again only when `force`d (the follower refused a later one) or when its acknowledgement
    /// would have come back by now: etcd raft pipelines appends and sends again only what a
    /// rejection or a heartbeat response shows missing, never what is still on its way.
    pub(super) fn send_missing(
        &mut self,
        j: usize,
        new: Option<u64>,
        force: bool,
        cx: &mut ConsensusCtx<'_>,
    ) {
        let now = cx.now_local;
        let round_trip = self.round_trip(cx.me, j);
        let due = |id: u64, sent: &std::collections::BTreeMap<usize, i64>| {
            force || new == Some(id) || sent.get(&j).is_none_or(|t| now - t >= round_trip)
        };
        // Committed entries go only to a follower that answers heartbeats: one that does not is
        // only probed (etcd raft's Progress in StateProbe), and its backlog is sent once it
        // answers again.
        let answers = cx.peers_ok.get(j) == Some(&true);
        let mut sends = Vec::new();
        for (&id, l) in &mut self.lagging {
            if answers && l.unacked.contains(&j) && due(id, &l.sent) {
                // A committed entry was sent to every follower before it committed, by this
                // leader or an earlier one: it always goes again.
                l.sent.insert(j, now);
                sends.push((id, l.entry.clone(), true));
            }
        }
        for (&id, p) in &mut self.pending {
            if !p.acked.contains(&j) && due(id, &p.sent) {
                let again = p.sent.insert(j, now).is_some();
                sends.push((id, p.entry.clone(), again));
            }
        }
        for (id, entry, again) in sends {
            cx.fx.send(
                self.node(j),
                Payload::Append {
                    term: self.term,
                    proposal: id,
                    entry,
                    again,
                },
            );
        }
    }

    /// The round trip between nodes `a` and `b` (1 ms each way when unknown).
    fn round_trip(&self, a: usize, b: usize) -> i64 {
        self.round_trip_ms
            .get(a)
            .and_then(|row| row.get(b))
            .map_or(2, |&ms| ms as i64)
    }

    /// A follower receives the leader's append of `proposal`. It stores the entry only right
    /// after the entries before it (Raft's log matching: an append names the entry before it,
    /// and a log without that one refuses); otherwise it refuses, and the leader sends again.
    pub(super) fn take_append(
        &mut self,
        from: NodeId,
        term: u64,
        proposal: u64,
        cx: &mut ConsensusCtx<'_>,
    ) {
        let me = &mut self.nodes[cx.me];
        if term < me.term {
            return;
        }
        me.term = term;
        me.campaign = None;
        me.pre_campaign = None;
        if self.gap_before(cx.me, proposal) {
            cx.fx
                .send(Dest::Node(from), Payload::AppendReject { term, proposal });
            return;
        }
        // The entry is in this node's log from now on, even if the acknowledgement never
        // reaches the leader.
        if let Some(p) = self.pending.get_mut(&proposal) {
            p.holders.insert(cx.me);
        }
        if let Some(l) = self.lagging.get_mut(&proposal) {
            l.lacking.remove(&cx.me);
        }
        cx.fx
            .send(Dest::Node(from), Payload::AppendAck { term, proposal });
    }

    /// Whether node `index`'s log lacks an entry before `proposal`.
    fn gap_before(&self, index: usize, proposal: u64) -> bool {
        self.lagging
            .range(..proposal)
            .any(|(_, l)| l.lacking.contains(&index))
            || self
                .pending
                .range(..proposal)
                .any(|(_, p)| !p.holders.contains(&index))
    }

    /// The leader hears that follower `j` stored `proposal`.
    pub(super) fn acknowledged(&mut self, j: usize, proposal: u64) {
        if let Some(p) = self.pending.get_mut(&proposal) {
            p.holders.insert(j);
            p.acked.insert(j);
        }
        if let Some(l) = self.lagging.get_mut(&proposal) {
            l.lacking.remove(&j);
            l.unacked.remove(&j);
            if l.unacked.is_empty() {
                self.lagging.remove(&proposal);
            }
        }
    }

    /// Proposal `id` commits: the nodes whose logs lack it, or whose storing it the leader has
    /// not heard, are sent it again until they have it.
    pub(super) fn remember_lagging(&mut self, id: u64, p: &Proposal) {
        let all: BTreeSet<usize> = (0..self.nodes.len()).collect();
        let unacked: BTreeSet<usize> = all.difference(&p.acked).copied().collect();
        if !unacked.is_empty() {
            let lacking = all.difference(&p.holders).copied().collect();
            let entry = p.entry.clone();
            self.lagging.insert(
                id,
                Lagging {
                    entry,
                    lacking,
                    unacked,
                    sent: p.sent.clone(),
                },
            );
        }
    }

    /// A new leader has heard from no follower in its term: it sends each committed entry to
    /// the logs that lack it (etcd raft's probe finds where each follower's log ends).
    pub(super) fn probe_lagging(&mut self) {
        for l in self.lagging.values_mut() {
            l.unacked = l.lacking.clone();
            l.sent.clear();
        }
        self.lagging.retain(|_, l| !l.unacked.is_empty());
    }

    /// Whether node `index`'s log lacks a committed entry: it cannot apply what follows, so it
    /// fires no watch until the leader has sent it the entry again.
    pub fn lacks_committed(&self, index: usize) -> bool {
        self.lagging.values().any(|l| l.lacking.contains(&index))
    }

    /// Commits pending entries in log order while the leader knows a majority holds the first: a
    /// Raft commit index covers every earlier entry, so a later entry never commits past an
    /// earlier one, and revisions follow the log.
    pub(super) fn commit_ready(&mut self, cx: &mut ConsensusCtx<'_>) {
        let majority = self.majority() as usize;
        while let Some((&id, p)) = self.pending.iter().next() {
            if p.acked.len() < majority {
                break;
            }
            self.commit(id, cx);
        }
    }

    /// The leader's heartbeat interval: a tenth of the election timeout, as etcd's defaults
    /// (100 ms heartbeats, 1000 ms election timeout).
    pub fn heartbeat_ms(&self) -> u64 {
        (self.election_timeout_ms / 10).max(1)
    }

    /// Schedules the next heartbeat round while some follower has not acknowledged an entry.
    pub(super) fn arm_heartbeat(&mut self, cx: &mut ConsensusCtx<'_>) {
        let n = self.nodes.len();
        let behind = self.pending.values().any(|p| p.acked.len() < n) || !self.lagging.is_empty();
        if !self.heartbeat_armed && behind {
            self.heartbeat_armed = true;
            cx.fx.after(self.heartbeat_ms(), Timer::Heartbeat);
        }
    }

    /// Whether `voter`'s log holds a pending entry that `candidate`'s log lacks: Raft's
    /// election restriction (etcd raft's `isUpToDate`) then forbids voting for it.
    pub(super) fn longer_log(&self, voter: usize, candidate: NodeId) -> bool {
        let Some(c) = candidate.checked_sub(self.base).map(usize::from) else {
            return false;
        };
        self.pending
            .values()
            .any(|p| p.holders.contains(&voter) && !p.holders.contains(&c))
            || self
                .lagging
                .values()
                .any(|l| !l.lacking.contains(&voter) && l.lacking.contains(&c))
    }
}
