//! Elections in the consensus service: Raft's pre-vote (etcd's PreVote), campaigns, the new
//! leader's lease refresh, and what happens to entries a leader appended but never committed.

use std::collections::BTreeSet;

use super::{Cluster, ConsensusCtx, Proposal};
use crate::actors::Timer;
use crate::message::{Entry, Payload};
use crate::trace::Tag;

impl Cluster {
    pub(super) fn pre_vote_reply(&mut self, term: u64, granted: bool, cx: &mut ConsensusCtx<'_>) {
        let majority = self.majority();
        let me = &mut self.nodes[cx.me];
        if !granted {
            // Raft: a reply from a later term moves this node to it.
            if term > me.term {
                me.term = term;
                me.pre_campaign = None;
                me.campaign = None;
            }
            return;
        }
        let won = match &mut me.pre_campaign {
            Some((t, votes)) if *t == term => {
                *votes += 1;
                *votes >= majority
            }
            _ => false,
        };
        if won {
            me.pre_campaign = None;
            self.campaign(term, cx);
        }
    }

    /// A majority would vote for this node: it raises its term and asks for real votes.
    pub(super) fn campaign(&mut self, term: u64, cx: &mut ConsensusCtx<'_>) {
        self.nodes[cx.me].term = term;
        self.nodes[cx.me].campaign = Some((term, 1));
        cx.fx.state(
            format!("election for term {term}"),
            format!("A majority would vote for it, so this node raises its term to {term} and asks for votes."),
            None,
        );
        for j in 0..self.nodes.len() {
            if j != cx.me {
                cx.fx.send(self.node(j), Payload::RequestVote { term });
            }
        }
        if self.majority() <= 1 {
            self.become_leader(term, cx);
        }
    }

    pub(super) fn become_leader(&mut self, term: u64, cx: &mut ConsensusCtx<'_>) {
        self.heard_leader(cx.me);
        let old_leader = self.leader;
        self.leader = cx.me;
        self.leading = true;
        self.term = term;
        self.nodes[cx.me].campaign = None;
        self.revoking.clear();
        let refresh = match self.leases.len() {
            0 if !self
                .pending
                .values()
                .any(|p| p.holders.contains(&cx.me) && matches!(p.entry, Entry::Lock { .. } | Entry::Unlock { .. })) =>
            {
                "There is no lease to refresh.".to_string()
            }
            // etcd's lessor Promote runs when the leader applies its term's first entry, after
            // every older one: a lease granted by a carried entry is refreshed all the same.
            0 => "No lease is committed yet; a lease granted by an entry carried over from the old term is refreshed like any other when that entry is applied (etcd's lessor refreshes leases once the new leader applies its term's first entry, after every older one).".to_string(),
            1 => "Once it applies its own first entry of the term it refreshes the one lease to then + election timeout + TTL, as etcd's lessor does (Promote, when the new leader has applied every entry of the last term), so a lease can outlive what its holder expects; until then it neither renews nor expires a lease.".to_string(),
            n => format!("Once it applies its own first entry of the term it refreshes all {n} leases to then + election timeout + TTL, as etcd's lessor does (Promote, when the new leader has applied every entry of the last term), so a lease can outlive what its holder expects; until then it neither renews nor expires a lease."),
        };
        // The model's servers are etcd's even where the clients are ZooKeeper's: say where a
        // real ensemble differs.
        let zookeeper = if self.zookeeper_sessions.is_empty() {
            ""
        } else {
            " This model's servers run etcd's Raft for ZooKeeper's too: a real ensemble elects its leader with FastLeaderElection (no pre-vote, no terms), numbers its zxids afresh from the new epoch ((epoch << 32) | 1, so they still only go up), and gives every session its full session timeout from when the new leader starts, with no election timeout added."
        };
        cx.fx.state(
            format!("leader of term {term}, revision {}", self.revision),
            format!(
                "A majority voted, so this node leads term {term}. Its log holds every committed change (a voter refuses a log that lacks one), so the revision stays at {} and only goes up; which of its entries are committed it learns only once its own first entry of the term commits. {refresh}{zookeeper}",
                self.revision
            ),
            Some(Tag::Leader { term }),
        );
        self.settle_log(term, old_leader, cx);
    }

    /// The leader stops leading (CheckQuorum, a higher term, a crash). Entries it appended but
    /// could not commit stay in its log and in those of the followers that acknowledged them:
    /// those logs are "ahead" of the others until an election decides.
    pub fn step_down(&mut self) {
        self.leading = false;
        self.revoking.clear();
        self.held_renewals.clear();
        self.renewals_awaiting_revoke.clear();
    }

    /// A new leader's log decides the fate of the entries an old leader appended but never
    /// committed: it sends them again in its term if they are in its own log (they commit once a
    /// majority has them, and their clients are answered, however late), and otherwise its log
    /// replaces them on every node.
    fn settle_log(&mut self, term: u64, old_leader: usize, cx: &mut ConsensusCtx<'_>) {
        // An older leader's empty entry that never committed changes nothing either way: the new
        // leader's own stands in for it.
        let (kept, lost): (Vec<_>, Vec<_>) = std::mem::take(&mut self.pending)
            .into_iter()
            .filter(|(_, p)| p.entry != Entry::Empty)
            .partition(|(_, p)| p.holders.contains(&cx.me));
        self.pending = kept.into_iter().collect();
        let n = lost.len();
        if n > 0 {
            let holder = old_leader + 1;
            let (entries, them, clients, gets) = if n == 1 {
                ("entry", "it", "Its client", "gets")
            } else {
                ("entries", "them", "Their clients", "get")
            };
            cx.fx.state(
                format!("node-{holder}'s {n} uncommitted {entries} will be overwritten"),
                format!("node-{holder} had appended {n} {entries} that it never committed and that this node's log lacks. Once this leader's first entry of its term is stored on a majority, {them} can never commit, and node-{holder} will overwrite {them} with this leader's log when it hears from it again. Until then, were this leader to fail, node-{holder}'s longer log could still win an election and commit {them} (consensus-uncommitted-entry-commits). {clients} {gets} no answer either way, and etcd's \"request timed out\" cannot tell one case from the other, so a client must look before it assumes either."),
                None,
            );
        }
        // A pending revocation is not sent again: the lease check will revoke what has expired.
        let pending: Vec<(u64, Proposal)> = std::mem::take(&mut self.pending)
            .into_iter()
            .filter(|(_, p)| !matches!(p.entry, Entry::Revoke { .. }))
            .collect();
        if !pending.is_empty() {
            self.carry_over(term, old_leader, pending, cx);
        }
        // The leader's own first entry: carried entries and every earlier one commit with it.
        self.term_committed = false;
        self.held_renewals.clear();
        self.renewals_awaiting_revoke.clear();
        // etcd's CheckQuorum: a leader that has not heard from a majority within an election
        // timeout of its election steps down (becomeLeader counts only itself as active).
        cx.fx.after(self.election_timeout_ms, Timer::CheckQuorum);
        self.probe_lagging();
        self.append_own(Entry::Empty, None, None, cx.me);
        for j in 0..self.nodes.len() {
            if j != cx.me {
                self.send_missing(j, None, false, cx);
            }
        }
        self.commit_ready(cx);
        self.arm_heartbeat(cx);
    }

    /// The new leader sends again, in its term, the uncommitted entries its log holds.
    fn carry_over(
        &mut self,
        term: u64,
        old_leader: usize,
        pending: Vec<(u64, Proposal)>,
        cx: &mut ConsensusCtx<'_>,
    ) {
        cx.fx.state(
            format!("{} uncommitted entr{} sent again in term {term}", pending.len(), if pending.len() == 1 { "y" } else { "ies" }),
            format!("This node's log still holds entries a leader appended but never committed: it had not heard that a majority stored them. Leading now, it replicates those entries in term {term} (Raft commits them with the new term's entries): a request whose client gave up on it long ago can still take effect now. A lease such an entry grants is refreshed with every other once this term's first entry is applied, to now + election timeout + TTL, as etcd's lessor does on taking over."),
            None,
        );
        for (id, mut p) in pending {
            p.term = term;
            p.carried = true;
            // The node the client asked: the leader that appended the entry, or the one an
            // earlier election already carried it from.
            // A forwarded request's follower closed its clients' connections when it stopped
            // following, so its client is not answered even if that follower leads now.
            p.asked_via = match p.forwarded_by {
                Some(follower) => Some(follower),
                None => {
                    let via = p.asked_via.unwrap_or(old_leader);
                    (via != cx.me).then_some(via)
                }
            };
            // The new leader has heard from no follower in its term; those whose logs hold the
            // entry acknowledge it again at once.
            p.acked = BTreeSet::from([cx.me]);
            p.sent.clear();
            self.pending.insert(id, p);
        }
    }
}
