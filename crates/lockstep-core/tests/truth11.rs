//! The Raft log per follower and what a node may know (session 29's second review, findings
//! 3–6; session 30's review, findings 1–4): a committed entry a follower's log lacks is sent
//! again until it has it, and until then that follower refuses later entries (log matching),
//! fires no watch for it and gets no vote from a node that holds it; a new leader fires no watch
//! and renews no lease before its own first entry commits, and steps down without a quorum; a
//! held-up commit is overtaken by the next heartbeat; a restarted machine resets the connections
//! that died with it; an etcd client that moves resumes its watch; a ZooKeeper client pings
//! while its delete is on its way. Golden times and labels that only this behaviour produces.

mod common;

use common::{HEAD, explanation, lines, two};

const DROP_DELETE: &str =
    "[[faults]]\nkind = \"drop\"\nmatch = \"append: delete lock:batch-42/1\"\nto = \"node-2\"\n";

/// A's delete never reaches node-2, B's server; node-3's ack commits it at 4011 ms. node-2 gets
/// the leader's commit but cannot apply what its log lacks, so B's watch waits; the heartbeat
/// round at 4039 ms sends the entry again, and node-2 fires as it stores it (the append carries
/// the commit index). node-2 used to send B "locked" at 4012 ms without the delete in its log,
/// and the delete was never sent to it again.
#[test]
fn a_follower_fires_no_watch_for_an_entry_its_log_lacks() {
    for client in ["", "on_suspended = \"continue\"\n"] {
        let r = common::run_text(HEAD, &two(client, DROP_DELETE));
        common::check_in_order(
            &lines(&r),
            &[
                "4009 dropped: append: delete lock:batch-42/1",
                "4011 commit: locked, revision=34",
                "4012 B's watch waits: node-2 lacks the entry",
                "4039 append again: delete lock:batch-42/1",
                "4040 locked, revision=34",
                "4041 B holds the lock (token 34)",
            ],
            &["4012 locked, revision=34"],
        );
        let waits = explanation(&r, 4012, "B's watch waits: node-2 lacks the entry");
        assert!(
            waits.contains("node-2's log lacks the change") && waits.contains("heartbeat"),
            "{waits}"
        );
    }
}

/// node-2 is cut off from node-1 at 4011 ms, as node-3's ack commits A's delete, and node-2
/// wins term 2 at 4316 ms. It does not know the delete committed until its own empty entry of
/// term 2 does (node-3's ack at 4318 ms): only then does it grant B. It used to grant B at
/// 4316 ms, in the instant it was elected.
#[test]
fn a_new_leader_fires_a_watch_once_its_own_first_entry_commits() {
    let faults = "[[faults]]\nat_ms = 4011\nkind = \"partition\"\ngroups = [[\"node-2\"], [\"node-1\"]]\n\
                  [[faults]]\nat_ms = 4100\nkind = \"crash\"\ntarget = \"node-1\"\nhost = true\n";
    let r = common::run_text(HEAD, &two("", faults));
    common::check_in_order(
        &lines(&r),
        &[
            "4316 leader of term 2, revision 35",
            "4316 append: empty entry, term 2",
            "4317 append: empty entry, term 2",
            "4318 ack",
            "4318 locked, revision=34",
            "4319 B holds the lock (token 34)",
        ],
        &["4316 locked, revision=34"],
    );
    let empty = explanation(&r, 4316, "append: empty entry, term 2");
    assert!(
        empty.contains("becomeLeader") && empty.contains("§5.4.2"),
        "{empty}"
    );
}

/// With heartbeats 300 ms apart, A's entry is lost on its way to node-2 and its first resend is
/// held up: B's entry reaches node-2 first, and node-2 refuses it (its log lacks the entry
/// before), so the leader sends both again at once. node-2 used to store B's entry with a gap.
#[test]
fn a_follower_refuses_an_entry_after_a_gap() {
    let body = "seed = 1\n[lock]\nkind = \"consensus\"\nttl_ms = 6000\nfirst_token = 33\nnodes = 3\n\
                election_timeout_ms = 3000\n\
                [[workers]]\nname = \"A\"\nwork_ms = 400\nrenew_every_ms = 1000\n\
                [[workers]]\nname = \"B\"\nstart_ms = 100\nwork_ms = 200\nrenew_every_ms = 1000\n\
                [[faults]]\nkind = \"drop\"\nmatch = \"append: put lock:batch-42/1\"\nto = \"node-2\"\n\
                [[faults]]\nkind = \"delay\"\nmatch = \"append again: put lock:batch-42/1\"\nto = \"node-2\"\nduration_ms = 50\n";
    let r = common::run_text(HEAD, body);
    common::check_in_order(
        &lines(&r),
        &[
            "101 append again: put lock:batch-42/1 (lease 1)",
            "102 append: put lock:batch-42/2 (lease 2)",
            "102 reject: an earlier entry is missing",
            "103 append again: put lock:batch-42/1 (lease 1)",
            "103 append again: put lock:batch-42/2 (lease 2)",
            "104 append again: put lock:batch-42/1 (lease 1)",
            "104 append again: put lock:batch-42/2 (lease 2)",
        ],
        &[],
    );
    let reject = explanation(&r, 102, "reject: an earlier entry is missing");
    assert!(reject.contains("log matching"), "{reject}");
}

/// node-2's log lacks A's committed entry when node-1's machine fails at 10 ms. node-3, which
/// holds it, refuses node-2's pre-vote, and node-3 leads term 2 and sends node-2 the entry
/// again before its own. node-2 used to win the election with node-3's vote.
#[test]
fn a_node_that_lacks_a_committed_entry_is_not_elected() {
    let body = "seed = 1\n[lock]\nkind = \"consensus\"\nttl_ms = 6000\nfirst_token = 33\nnodes = 3\n\
                [[workers]]\nname = \"A\"\nwork_ms = 400\nrenew_every_ms = 1000\n\
                [[faults]]\nkind = \"drop\"\nmatch = \"append: put lock:batch-42/1\"\nto = \"node-2\"\n\
                [[faults]]\nat_ms = 10\nkind = \"crash\"\ntarget = \"node-1\"\nhost = true\n";
    let r = common::run_text(HEAD, body);
    common::check_in_order(
        &lines(&r),
        &[
            "311 pre-vote for term 2",
            "312 pre-vote refused, term 1",
            "409 leader of term 2, revision 33",
            "410 append again: put lock:batch-42/1 (lease 1)",
            "410 append: empty entry, term 2",
        ],
        &[],
    );
    let refused = explanation(&r, 312, "pre-vote refused, term 1");
    assert!(refused.contains("holds an entry"), "{refused}");
    let leader = r
        .trace
        .events
        .iter()
        .find(|e| e.label.starts_with("leader of term 2"))
        .expect("a leader of term 2");
    assert_eq!(r.trace.name(leader.from), "node-3");
}

/// B waits through node-2, whose machine fails at 3500 ms and restarts at 5000 ms; A's delete
/// commits while it is down. The restarted node-2 gets the entry again but has neither B's
/// connection nor its watch: B's next packet to it (a keepalive at 5206 ms, a ZooKeeper ping at
/// 5307 ms) is answered with a reset, and B is granted where it reconnects, by node-3 (the etcd
/// client asks node-3 to resume its watch from revision 34). node-2
/// used to send B "locked" on the connection its dead process had held.
#[test]
fn a_restarted_machine_resets_the_connections_that_died_with_it() {
    let faults = "[[faults]]\nat_ms = 3500\nkind = \"crash\"\ntarget = \"node-2\"\nhost = true\n\
                  [[faults]]\nat_ms = 5000\nkind = \"restart\"\ntarget = \"node-2\"\n";
    let etcd = common::run_text(HEAD, &two("", faults));
    common::check_in_order(
        &lines(&etcd),
        &[
            "4011 B's watch waits for node-2",
            "5029 append again: delete lock:batch-42/1",
            "5207 refused: keepalive lease 2",
            "5208 B's client moves to node-3",
            "5208 watch again from revision 34",
            "5209 locked, revision=34",
            "5210 B holds the lock (token 34)",
        ],
        &[],
    );
    let reset = explanation(&etcd, 5207, "refused: keepalive lease 2");
    assert!(reset.contains("TCP RST"), "{reset}");
    let granted_by = |r: &lockstep_core::Run| {
        let e = r
            .trace
            .events
            .iter()
            .find(|e| e.label == "locked, revision=34")
            .expect("B is granted");
        r.trace.name(e.from).to_string()
    };
    assert_eq!(granted_by(&etcd), "node-3");
    let zk = common::run_text(HEAD, &two("on_suspended = \"continue\"\n", faults));
    common::check_in_order(
        &lines(&zk),
        &[
            "5308 refused: ping session 2",
            "5309 B's session is suspended",
            "6108 B's session reconnected",
            "6109 locked, revision=34",
        ],
        &[],
    );
    assert_eq!(granted_by(&zk), "node-3");
}

/// B (etcd) waits through node-2, which is cut off from the leader at 4011 ms as A's delete
/// commits. At 5207 ms node-2 answers B's keepalive that it knows no leader; B's client moves
/// to node-3 and asks it to resume the watch from revision 34 (clientv3's watcher resume), and
/// node-3 fires from its own store when that request arrives. node-3 used to send B the event
/// in the instant B's client switched, with no request from B.
#[test]
fn an_etcd_client_that_moves_resumes_its_watch_on_the_new_node() {
    let cut = "[[faults]]\nat_ms = 4011\nkind = \"partition\"\ngroups = [[\"B\", \"node-2\"], [\"node-1\"]]\n";
    let r = common::run_text(HEAD, &two("", cut));
    common::check_in_order(
        &lines(&r),
        &[
            "4011 B's watch waits for node-2",
            "5207 etcdserver: no leader",
            "5208 watch again from revision 34",
            "5209 watch again from revision 34",
            "5209 locked, revision=34",
            "5210 B holds the lock (token 34)",
        ],
        &["5208 locked, revision=34"],
    );
    let resume = explanation(&r, 5208, "watch again from revision 34");
    assert!(resume.contains("WithRev"), "{resume}");
}

/// node-1's process dies at 1000 ms; node-2 wins term 2 at 3001 ms, but its link to node-3
/// takes 200 ms each way, so its empty entry commits only at 3401 ms. A's keepalive reaches
/// node-2 at 3005 ms and is answered then, not before: a new leader renews no lease until its
/// own first entry commits (etcd promotes its lessor only then). Meanwhile nothing still on its
/// way to node-3 is sent again (etcd raft pipelines appends). node-2 used to answer at once, and
/// sent node-3 each entry again with every append and heartbeat while the first was in flight.
#[test]
fn a_new_leader_renews_no_lease_before_its_first_entry_commits() {
    let body = "seed = 1\n[lock]\nkind = \"consensus\"\nttl_ms = 6000\nfirst_token = 33\nnodes = 3\n\
                election_timeout_ms = 1000\n\
                [[workers]]\nname = \"A\"\nwork_ms = 3000\nrenew_every_ms = 1000\n\
                [[faults]]\nat_ms = 1000\nkind = \"crash\"\ntarget = \"node-1\"\n\
                [[network.links]]\nbetween = [\"node-2\", \"node-3\"]\nlatency_ms = 200\n";
    let r = common::run_text(HEAD, body);
    common::check_in_order(
        &lines(&r),
        &[
            "3001 leader of term 2, revision 33",
            "3001 append: empty entry, term 2",
            "3005 keepalive lease 1",
            "3201 append: empty entry, term 2",
            "3401 ack",
            "3401 lease refreshed",
            "3409 unlocked",
        ],
        &["3005 lease refreshed"],
    );
    let to_node3 = |e: &&lockstep_core::TraceEvent| {
        r.trace.name(e.from) == "node-2" && r.trace.name(e.to) == "node-3"
    };
    let appends = r.trace.events.iter().filter(to_node3);
    assert!(appends.clone().any(|e| e.label.starts_with("append:")));
    assert!(!appends.clone().any(|e| e.label.starts_with("append again")));
}

/// node-3 wins term 2 at 4411 ms with node-2's vote, and node-2's machine fails in the same
/// millisecond: node-3 never hears from a majority. It steps down one election timeout after
/// its election (etcd's CheckQuorum counts only the leader as active at first), and renews no
/// lease meanwhile. It used to lead, and answer B's keepalives, for 25 s without a quorum.
#[test]
fn a_new_leader_without_a_quorum_steps_down() {
    let body = common::leader_without_quorum("");
    let r = common::run_text(HEAD, &body);
    common::check_in_order(
        &lines(&r),
        &[
            "4411 leader of term 2, revision 35",
            "4711 node-3 steps down: no quorum",
            "5307 etcdserver: no leader",
        ],
        &[],
    );
    assert!(
        !r.trace
            .events
            .iter()
            .any(|e| e.time_ms > 4411 && e.label == "lease refreshed"),
        "a leader without a quorum renewed a lease"
    );
}

/// The leader's `commit:` for B's watch is held 5 s on its way to node-2. Raft repeats the
/// commit index with its next heartbeat (4041 ms), and node-2 fires then; the late message
/// changes nothing, and the run does not wait for it. When the leader's machine fails before
/// that heartbeat (4012 ms), the news comes from the next leader, once its own first entry
/// commits (node-3, 4413 ms). B used to wait for the late message (9012 ms), and a 40 s delay
/// left the run inconclusive.
#[test]
fn a_held_up_commit_is_overtaken_by_the_next_heartbeat() {
    let delay = "[[faults]]\nkind = \"delay\"\nduration_ms = 5000\nmatch = \"commit:\"\n";
    let r = common::run_text(HEAD, &two("", delay));
    common::check_in_order(
        &lines(&r),
        &[
            "4011 commit: locked, revision=34",
            "4041 commit: locked, revision=34",
            "4042 locked, revision=34",
            "4043 B holds the lock (token 34)",
        ],
        &["9012 locked"],
    );
    let held = explanation(&r, 4011, "commit: locked, revision=34");
    assert!(
        held.contains("learns of the commit from the next one"),
        "{held}"
    );
    let long = delay.replace("5000", "40000");
    assert_eq!(
        common::run_text(HEAD, &two("", &long)).verdict.outcome,
        lockstep_core::Outcome::Safe
    );
    let body = "seed = 1\n[lock]\nkind = \"consensus\"\nttl_ms = 6000\nfirst_token = 33\nnodes = 3\n\
         [[workers]]\nname = \"A\"\nwork_ms = 4000\nrenew_every_ms = 1000\n\
         [[workers]]\nname = \"B\"\nstart_ms = 100\nwork_ms = 500\nrenew_every_ms = 1000\n\
         [[faults]]\nat_ms = 50\nkind = \"partition\"\ngroups = [[\"B\"], [\"node-1\", \"node-2\"]]\n\
         [[faults]]\nkind = \"drop\"\nmatch = \"append: delete lock:batch-42/1\"\nto = \"node-2\"\n\
         [[faults]]\nkind = \"delay\"\nduration_ms = 5000\nmatch = \"commit:\"\nto = \"node-3\"\n\
         [[faults]]\nat_ms = 4012\nkind = \"crash\"\ntarget = \"node-1\"\nhost = true\n";
    let r = common::run_text(HEAD, body);
    common::check_in_order(
        &lines(&r),
        &[
            "4011 commit: locked, revision=34",
            "4411 leader of term 2, revision 35",
            "4413 locked, revision=34",
            "4414 B holds the lock (token 34)",
        ],
        &[],
    );
}

/// B (ZooKeeper) is granted at 4012 ms as node-1's machine fails; its delete is lost with the
/// machine. B keeps pinging while the delete is on its way (ClientCnxn pings by the time since
/// it last sent anything), so its first ping after node-1 restarts (4500 ms) is answered with
/// a reset: B is suspended at 5106 ms, reconnects to node-2 and sends its delete again. It used
/// to send nothing until its read timeout suspended it at 8012 ms.
#[test]
fn a_zookeeper_client_pings_while_its_delete_is_on_its_way() {
    let body = common::zk_delete_to_failed_host();
    let r = common::run_text(HEAD, &body);
    common::check_in_order(
        &lines(&r),
        &[
            "4015 lost: unlock lock:batch-42/2",
            "4104 ping session 2",
            "5105 refused: ping session 2",
            "5106 B's session is suspended",
            "5843 B's session reconnected",
            "5843 unlock lock:batch-42/2",
            "5849 B done",
        ],
        &["8012 B's session is suspended"],
    );
    assert_eq!(r.verdict.outcome, lockstep_core::Outcome::Safe);
}

/// A (ZooKeeper) deletes its lock node at 4008 ms; an 80 ms partition loses the answer. Its
/// ping at 5004 ms, sent after the delete, is answered: a server answers a connection's
/// requests in order, so the delete's answer was lost, and A sends the delete again (TCP would
/// have). The repeat finds the node gone and A is done. With pings going while its delete was
/// on its way (and answered), A used to wait for that answer until the end of the run.
#[test]
fn a_zookeeper_client_sends_its_delete_again_when_a_later_ping_is_answered() {
    let body = "seed = 1\n[lock]\nkind = \"consensus\"\nttl_ms = 6000\nfirst_token = 33\nnodes = 3\n\
         [[workers]]\nname = \"A\"\nwork_ms = 4000\nrenew_every_ms = 1000\non_suspended = \"continue\"\n\
         [[faults]]\nkind = \"partition\"\nat_ms = 4009\ngroups = [[\"A\"], [\"node-1\", \"node-2\", \"node-3\"]]\n\
         [[faults]]\nkind = \"heal\"\nat_ms = 4089\n";
    let r = common::run_text(HEAD, body);
    common::check_in_order(
        &lines(&r),
        &[
            "4011 lost: unlocked",
            "5006 ping answered",
            "5006 A's delete goes again",
            "5006 unlock lock:batch-42/1",
            "5010 NONODE: already deleted",
            "5010 A done",
        ],
        &[],
    );
    assert_eq!(r.verdict.outcome, lockstep_core::Outcome::Safe);
}

/// B (etcd) waits through node-3, whose link to the leader takes 200 ms; node-3's process dies
/// at 4050 ms, before the leader's `commit:` for B's watch reaches it. B's client moves to
/// node-1, which has the delete, and resumes its watch there: node-1 fires at once (4052 ms).
/// The `commit:` still on its way to node-3 changes nothing and brings no second event. B used
/// to wait until that message was lost and sent again (4241 ms).
#[test]
fn a_resumed_watch_fires_at_once_where_the_change_is_applied() {
    let body = "seed = 1\n[lock]\nkind = \"consensus\"\nttl_ms = 6000\nfirst_token = 33\nnodes = 3\n\
         [[workers]]\nname = \"A\"\nwork_ms = 4000\nrenew_every_ms = 1000\n\
         [[workers]]\nname = \"B\"\nstart_ms = 100\nwork_ms = 500\nrenew_every_ms = 1000\n\
         [[network.links]]\nbetween = [\"node-1\", \"node-3\"]\nlatency_ms = 200\n\
         [[faults]]\nat_ms = 50\nkind = \"partition\"\ngroups = [[\"B\"], [\"node-1\", \"node-2\"]]\n\
         [[faults]]\nat_ms = 3000\nkind = \"heal\"\n\
         [[faults]]\nat_ms = 4050\nkind = \"crash\"\ntarget = \"node-3\"\n";
    let r = common::run_text(HEAD, body);
    common::check_in_order(
        &lines(&r),
        &[
            "4011 commit: locked, revision=34",
            "4051 watch again from revision 34",
            "4052 locked, revision=34",
            "4053 B holds the lock (token 34)",
        ],
        &["watch: predecessor deleted"],
    );
    assert_eq!(r.verdict.outcome, lockstep_core::Outcome::Safe);
}
