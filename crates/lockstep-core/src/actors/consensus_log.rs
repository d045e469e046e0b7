//! Log replication in the consensus service: re-sending entries a follower has not
//! acknowledged (with the next append or heartbeat round), committing in log order, and the
//! election restriction's view of whose log holds which entry.

use super::{Cluster, ConsensusCtx};
use crate::actors::Timer;
use crate::message::Payload;
use crate::topology::NodeId;

impl Cluster {
    /// Sends follower `j`, in log order, every pending entry it has not acknowledged in this
    /// term; those before proposal `first` were sent before and are marked as sent again.
    pub(super) fn send_missing(&self, j: usize, first: u64, cx: &mut ConsensusCtx<'_>) {
        for (&id, p) in &self.pending {
            if !p.acked.contains(&j) {
                cx.fx.send(
                    self.node(j),
                    Payload::Append {
                        term: self.term,
                        proposal: id,
                        entry: p.entry.clone(),
                        again: id < first,
                    },
                );
            }
        }
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
    pub(super) fn heartbeat_ms(&self) -> u64 {
        (self.election_timeout_ms / 10).max(1)
    }

    /// Schedules the next heartbeat round while some follower has not acknowledged an entry.
    pub(super) fn arm_heartbeat(&mut self, cx: &mut ConsensusCtx<'_>) {
        let n = self.nodes.len();
        if !self.heartbeat_armed && self.pending.values().any(|p| p.acked.len() < n) {
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
    }
}
