//! Watch events and a follower's view of its leader (session 29's review, findings 1–5): a
//! watch fires at the client's own server once the leader's commit reaches it, waits while that
//! server cannot hear the leader, and fires when the client reaches one that can; a ZooKeeper
//! follower that gives up on its leader closes its clients even if another node's timer fired
//! first; an etcd follower keeps its leader until its election timeout. Golden times and labels
//! that only this behaviour produces.

mod common;

use common::{HEAD, explanation, lines, two};

/// B (etcd) waits through follower node-2, whose link to the leader takes 40 ms. A's delete
/// commits at 4011 ms; node-2 fires B's watch only when the commit reaches it, at 4051 ms. It
/// used to send B "locked" at 4011 ms, before it even had the delete in its log.
#[test]
fn a_follower_fires_a_watch_once_the_commit_reaches_it() {
    let r = common::run_text(
        HEAD,
        &two(
            "",
            "[[network.links]]\nbetween = [\"node-1\", \"node-2\"]\nlatency_ms = 40\n",
        ),
    );
    common::check_in_order(
        &lines(&r),
        &[
            "4011 commit: locked, revision=34",
            "4051 commit: locked, revision=34",
            "4051 locked, revision=34",
            "4052 B holds the lock (token 34)",
        ],
        &[],
    );
    let commit = explanation(&r, 4011, "commit: locked, revision=34");
    assert!(commit.contains("watchableStore.notify"), "{commit}");
}

/// B (Curator) waits through node-2, which is cut off from the leader at 4011 ms, the moment
/// A's delete commits: the watch waits. node-2 closes B's connection at its election timeout;
/// B reconnects to node-3, which has the commit and fires the watch at once (SetWatches). B
/// used to wait to the end of the run, and the verdict was inconclusive.
#[test]
fn a_watch_waits_for_a_server_that_has_the_commit() {
    let r = common::run_text(
        HEAD,
        &two(
            "on_suspended = \"continue\"\n",
            "[[faults]]\nat_ms = 4011\nkind = \"partition\"\ngroups = [[\"B\", \"node-2\"], [\"node-1\"]]\n",
        ),
    );
    common::check_in_order(
        &lines(&r),
        &[
            "4011 B's watch waits for node-2",
            "4406 connection closed: no leader",
            "4877 connected: session alive",
            "4877 locked, revision=34",
            "4878 B holds the lock (token 34)",
        ],
        &[],
    );
    assert_eq!(r.verdict.outcome, lockstep_core::Outcome::Safe);
}

/// node-1's machine fails at 5100 ms with A and B on follower node-2. node-3's timer fires
/// first, and node-2 grants its pre-vote at 5467 ms: it has given up on node-1, so it stops
/// following and closes both clients. It used to follow node-3 straight on, and A and B were
/// never suspended.
#[test]
fn a_zookeeper_follower_that_grants_a_pre_vote_closes_its_clients() {
    let body = "seed = 1\n[lock]\nkind = \"consensus\"\nttl_ms = 6000\nfirst_token = 33\nnodes = 3\n\
        [[workers]]\nname = \"A\"\nstart_ms = 10\nwork_ms = 4000\non_suspended = \"continue\"\n\
        [[workers]]\nname = \"B\"\nstart_ms = 100\nwork_ms = 500\non_suspended = \"continue\"\n\
        [[faults]]\nat_ms = 5\nkind = \"partition\"\ngroups = [[\"A\", \"B\"], [\"node-1\"]]\n\
        [[faults]]\nat_ms = 5100\nkind = \"crash\"\ntarget = \"node-1\"\nhost = true\n";
    let r = common::run_text(HEAD, body);
    common::check_in_order(
        &lines(&r),
        &[
            "5100 node-1's machine fails",
            "5467 pre-vote granted, term 2",
            "5467 connection closed: no leader",
            "5468 A's session is suspended",
            "5468 B's session is suspended",
        ],
        &[],
    );
    // Its own timeout has not passed: it says why it stopped following.
    let close = explanation(&r, 5467, "connection closed: no leader");
    assert!(close.contains("granted another node's vote"), "{close}");
}

/// node-1's process dies at 4010 ms. A (etcd) is reset and sends its unlock to node-2, which
/// still knows node-1 as its leader (raft keeps it until the election timeout, 4311 ms here)
/// and forwards the unlock there, where it is lost. It used to answer "etcdserver: no leader" at
/// once, 2 ms after the crash, as if it had noticed.
#[test]
fn an_etcd_follower_keeps_its_leader_until_its_election_timeout() {
    let r = common::run_text(
        HEAD,
        &two(
            "",
            "[[faults]]\nat_ms = 4010\nkind = \"crash\"\ntarget = \"node-1\"\n",
        ),
    );
    let lines = lines(&r);
    common::check_in_order(
        &lines,
        &[
            "4010 node-1 crashes",
            "4011 unlock lock:batch-42/1",
            "4012 forward: unlock lock:batch-42/1",
            "4013 lost: forward: unlock lock:batch-42/1",
            "4311 pre-vote for term 2",
        ],
        &[],
    );
    // No node says it knows no leader before its own election timeout has found none.
    let first_no_leader = r
        .trace
        .events
        .iter()
        .find(|e| e.label == "etcdserver: no leader")
        .map(|e| e.time_ms);
    assert!(
        first_no_leader.is_none_or(|t| t >= 4311),
        "{first_no_leader:?}"
    );
}

/// The leader's `commit:` for B's watch is dropped on its way to node-2: it goes again with the
/// next heartbeat round (30 ms on), as Raft repeats the commit index with every append and
/// heartbeat. B used to wait for good, and then was sent it again in the same millisecond.
#[test]
fn a_lost_commit_for_a_watch_goes_again() {
    let r = common::run_text(
        HEAD,
        &two("", "[[faults]]\nkind = \"drop\"\nmatch = \"commit:\"\n"),
    );
    common::check_in_order(
        &lines(&r),
        &[
            "4011 dropped: commit: locked, revision=34",
            "4041 commit: locked, revision=34",
            "4042 locked, revision=34",
            "4043 B holds the lock (token 34)",
        ],
        &[],
    );
}

/// B (etcd) is cut off with node-2 from 3000 ms to 14000 ms. Its watch fires at 5009 ms but
/// waits for node-3, its new endpoint across the partition; by the heal B's lease has been
/// revoked and C holds the lock. B's client asks node-3 to resume its watch every second; the
/// first request after the heal arrives at 14709 ms, and the event node-3 sends says B's own key
/// is gone (etcd's Mutex: ErrSessionExpired), not "locked": a grant held across the partition
/// used to reach B at the heal, and B wrote beside C (a false double write).
#[test]
fn a_grant_that_waited_finds_the_clients_key_gone() {
    let body = "seed = 1\n[lock]\nkind = \"consensus\"\nttl_ms = 6000\nfirst_token = 33\nnodes = 3\n\
        [[workers]]\nname = \"A\"\nwork_ms = 4000\n\
        [[workers]]\nname = \"B\"\nstart_ms = 100\nwork_ms = 3000\n\
        [[workers]]\nname = \"C\"\nstart_ms = 9000\nwork_ms = 8000\n\
        [[faults]]\nat_ms = 50\nkind = \"partition\"\ngroups = [[\"B\"], [\"node-1\"]]\n\
        [[faults]]\nat_ms = 3000\nkind = \"partition\"\ngroups = [[\"B\", \"node-2\"], [\"node-1\", \"node-3\", \"A\", \"C\"]]\n\
        [[faults]]\nkind = \"drop\"\nmatch = \"write\"\nfrom = \"A\"\n\
        [[faults]]\nat_ms = 14000\nkind = \"heal\"\n";
    let r = common::run_text(HEAD, body);
    common::check_in_order(
        &lines(&r),
        &[
            "5009 B's watch waits for node-3",
            "9003 locked, revision=37",
            "14708 watch again from revision 34 (retry)",
            "14709 watch: predecessor deleted · get: own key gone",
            "14710 B's session expired while waiting",
        ],
        &["double"],
    );
    assert_eq!(r.verdict.outcome, lockstep_core::Outcome::Safe);
}

/// A (etcd) is cut off from node-1; its first lock request is lost and its repeat through
/// node-2 is held 1500 ms on the way to the leader, so its next repeat, through node-3, makes
/// its key first. The held one arrives at 2612 ms and changes nothing: it names the same key
/// (the session's lease). It used to make a second key on a second lease, which A never kept
/// alive and which held B up until that lease ran out (8614 ms).
#[test]
fn an_earlier_lock_request_arriving_after_its_repeat_changes_nothing() {
    let body = "seed = 1\n[lock]\nkind = \"consensus\"\nttl_ms = 6000\nfirst_token = 33\nnodes = 3\n\
        [[workers]]\nname = \"A\"\nstart_ms = 10\nwork_ms = 2000\n\
        [[workers]]\nname = \"B\"\nstart_ms = 3000\nwork_ms = 500\n\
        [[faults]]\nat_ms = 5\nkind = \"partition\"\ngroups = [[\"A\"], [\"node-1\"]]\n\
        [[faults]]\nat_ms = 2500\nkind = \"heal\"\n\
        [[faults]]\nkind = \"delay\"\nmatch = \"forward: lock\"\nfrom = \"node-2\"\nduration_ms = 1500\n";
    let r = common::run_text(HEAD, body);
    common::check_in_order(
        &lines(&r),
        &[
            "2216 A holds the lock (token 33)",
            "2612 A's earlier lock request changes nothing",
            "3001 append: put lock:batch-42/2 (lease 2)",
            "4225 B holds the lock (token 34)",
        ],
        &["lease 3"],
    );
}

/// The leader's `commit:` for B's watch is held 1500 ms on its way to node-2, which is cut off
/// from the leader at 4012 ms, before the next heartbeat could repeat the commit; node-2 stops
/// following and closes B's connection, and B reconnects to node-3, which fires the watch at
/// once (SetWatches). B used to wait for good, and then for the late message (5512 ms).
#[test]
fn a_commit_reaching_a_follower_that_stopped_serving_goes_to_the_clients_new_server() {
    let r = common::run_text(
        HEAD,
        &two(
            "on_suspended = \"continue\"\n",
            "[[faults]]\nkind = \"delay\"\nmatch = \"commit:\"\nduration_ms = 1500\n\
             [[faults]]\nat_ms = 4012\nkind = \"partition\"\ngroups = [[\"B\", \"node-2\"], [\"node-1\"]]\n",
        ),
    );
    common::check_in_order(
        &lines(&r),
        &[
            "4011 commit: locked, revision=34",
            "4407 connection closed: no leader",
            "4878 B's session reconnected",
            "4878 locked, revision=34",
            "4879 B holds the lock (token 34)",
        ],
        &[],
    );
}
