//! A server and its clients' connections (session 28's review, F1–F3): a follower forwards its
//! clients' requests to the leader and answers them on the client's connection (ZooKeeper's
//! FollowerRequestProcessor → Learner.request, etcd raft's MsgProp); a ZooKeeper follower serves until its own timeout notices the
//! leader's silence and then closes every client connection, and a leader that loses its quorum
//! closes its clients' connections as it steps down. Golden times and labels that only this
//! behaviour produces.

mod common;

use common::{explanation, lines};
use lockstep_core::trace::EventKind;

const HEAD: &str = "name = \"t\"\ntitle = \"t\"\nsummary = \"s\"\nexpect = \"safe\"\n";

/// Two Curator clients: A holds the lock for 4 s, B waits and works `b_work_ms`; both ping
/// every second.
fn zk(seed: u64, b_work_ms: u64) -> String {
    format!(
        "seed = {seed}\n[lock]\nkind = \"consensus\"\nttl_ms = 6000\nfirst_token = 33\nnodes = 3\n\
         [[workers]]\nname = \"A\"\nwork_ms = 4000\nrenew_every_ms = 1000\non_suspended = \"stop\"\n\
         [[workers]]\nname = \"B\"\nstart_ms = 100\nwork_ms = {b_work_ms}\nrenew_every_ms = 1000\non_suspended = \"stop\"\n"
    )
}

/// B is cut off from the leader node-1 only. Its connect to node-1 times out; it asks follower
/// node-2, which forwards the request to node-1 and passes the answer back: B queues at 2306 ms
/// and holds the lock at 4013 ms. A ZooKeeper client is never told "not the leader: ask
/// node-1" (that is etcd's hint, which here would send B back into the partition).
#[test]
fn a_follower_forwards_its_clients_request_to_the_leader() {
    let body = format!(
        "{}[[faults]]\nat_ms = 50\nkind = \"partition\"\ngroups = [[\"B\"], [\"node-1\"]]\n",
        zk(1, 500)
    );
    let r = common::run_text(HEAD, &body);
    common::check_in_order(
        &lines(&r),
        &[
            "2100 B's connection to node-1 timed out",
            "2301 lock lock:batch-42 (lease 6 s)",
            "2302 forward: lock lock:batch-42 (lease 6 s)",
            "2305 answer: queued, revision=34",
            "2306 queued, revision=34",
            "4011 commit: locked, revision=34",
            "4012 locked, revision=34",
            "4013 B holds the lock (token 34)",
        ],
        &["not the leader"],
    );
    let forward = explanation(&r, 2302, "forward: lock lock:batch-42 (lease 6 s)");
    assert!(forward.contains("Learner.request"), "{forward}");
}

/// The same cut with etcd clients: B's lock, keepalives and unlock go through node-2, and the
/// grant, a watch event, comes from node-2 too, once the leader's commit reaches it. B holds the
/// lock at 4013 ms; it used to be told "not the leader: ask node-1" and
/// go round into the partition until its acquire timeout.
#[test]
fn an_etcd_follower_forwards_its_clients_requests_and_keepalives() {
    let body = zk(1, 500).replace("on_suspended = \"stop\"\n", "")
        + "[[faults]]\nat_ms = 50\nkind = \"partition\"\ngroups = [[\"B\"], [\"node-1\"]]\n";
    assert!(!body.contains("on_suspended"));
    let r = common::run_text(HEAD, &body);
    let sends: Vec<String> = r
        .trace
        .events
        .iter()
        .filter(|e| e.kind == EventKind::Send && r.trace.name(e.to) == "B")
        .filter(|e| r.trace.name(e.from).starts_with("node-"))
        .map(|e| format!("{} {} {}", e.time_ms, r.trace.name(e.from), e.label))
        .collect();
    assert_eq!(
        sends,
        [
            "1205 node-2 queued, revision=34",
            "2209 node-2 lease refreshed",
            "3209 node-2 lease refreshed",
            "4012 node-2 locked, revision=34",
            "4020 node-2 unlocked",
        ]
    );
    common::check_in_order(
        &lines(&r),
        &[
            // B's first request, to node-1, times out; its client tries node-2.
            "1100 no answer from the lock service",
            "1201 forward: lock lock:batch-42 (lease 6 s)",
            "2207 forward: keepalive lease 2",
            "4011 commit: locked, revision=34",
            "4013 B holds the lock (token 34)",
        ],
        &["not the leader"],
    );
}

/// node-1 dies at 1500 ms and node-2 follows the new leader node-3, whose machine fails at
/// 3500 ms. B's unlock at 3610 ms reaches node-2, which still serves (nothing has told it the
/// leader is gone) and forwards it into the void. Only when its election timeout passes, at
/// 4001 ms, does node-2 stop following and close B's connection; B is suspended at 4002 ms.
#[test]
fn a_follower_serves_until_it_notices_its_leader_is_silent() {
    let body = format!(
        "{}[[faults]]\nat_ms = 1500\nkind = \"crash\"\ntarget = \"node-1\"\n\
         [[faults]]\nat_ms = 3500\nhost = true\nkind = \"crash\"\ntarget = \"node-3\"\n",
        zk(4, 1500)
    );
    let r = common::run_text(HEAD, &body);
    let lines = lines(&r);
    common::check_in_order(
        &lines,
        &[
            "3500 node-3's machine fails",
            "3610 unlock lock:batch-42/2",
            "3611 forward: unlock lock:batch-42/2",
            "3612 lost: forward: unlock lock:batch-42/2",
            "4001 pre-vote for term 3",
            "4001 connection closed: no leader",
            "4002 B's session is suspended",
        ],
        &[],
    );
    // Nothing closes B's connection between the leader's failure and node-2's timeout.
    let after_failure = lines.iter().skip_while(|l| !l.starts_with("3500 "));
    let first_close = after_failure
        .filter(|l| l.ends_with("connection closed: no leader"))
        .map(String::as_str)
        .next();
    assert_eq!(first_close, Some("4001 connection closed: no leader"));
    let close = explanation(&r, 4001, "connection closed: no leader");
    assert!(close.contains("heard nothing from its leader"), "{close}");
}

/// node-3 leads alone after node-1 and node-2 die: it steps down at 2000 ms for want of a
/// quorum and closes A's connection with A's lock request in flight.
#[test]
fn a_leader_that_loses_its_quorum_closes_its_clients_connections() {
    let body = "seed = 4\n[lock]\nkind = \"consensus\"\nttl_ms = 6000\nfirst_token = 33\nnodes = 3\n\
        [[workers]]\nname = \"A\"\nstart_ms = 1000\nwork_ms = 500\nrenew_every_ms = 1000\non_suspended = \"stop\"\n\
        [[faults]]\nat_ms = 10\nkind = \"crash\"\ntarget = \"node-1\"\n\
        [[faults]]\nkind = \"delay\"\nmatch = \"lock\"\nfrom = \"A\"\nto = \"node-2\"\nduration_ms = 300\n\
        [[faults]]\nat_ms = 1700\nkind = \"crash\"\ntarget = \"node-2\"\n";
    let r = common::run_text(HEAD, body);
    common::check_in_order(
        &lines(&r),
        &[
            "1915 lock lock:batch-42 (lease 6 s)",
            "2000 node-3 steps down: no quorum",
            "2000 connection closed: no leader",
            "2001 node-3 closes A's connection",
        ],
        &["A holds the lock"],
    );
    let down = explanation(&r, 2000, "node-3 steps down: no quorum");
    assert!(down.contains("closes its clients' connections"), "{down}");
    let close = explanation(&r, 2000, "connection closed: no leader");
    assert!(close.contains("Leader.shutdown"), "{close}");
}
