//! What the review of issue 9 left open (review-model.md findings 3, 4, 5 and the list):
//! leader discovery by asking, pre-vote, etcd sessions, uncommitted entries, and the rest. Each
//! test runs a small scenario and checks the golden times and labels that only the true
//! behaviour produces.

use lockstep_core::trace::EventKind;
mod common;

use lockstep_core::{Outcome, Run, run};

const HEAD: &str = "name = \"t\"\ntitle = \"t\"\nsummary = \"s\"\nexpect = \"safe\"\n";

fn run_body(body: &str) -> Run {
    common::run_text(HEAD, body)
}

fn lines(r: &Run) -> Vec<String> {
    r.trace
        .events
        .iter()
        .map(|e| format!("{} {}", e.time_ms, e.label))
        .collect()
}

/// `expect` appears in order among the run's "time label" lines; no line contains any of `absent`.
fn check(r: &Run, expect: &[&str], absent: &[&str]) {
    common::check_in_order(&lines(r), expect, absent);
}

/// The sends of one node, as "time from -> to label".
fn sends_from(r: &Run, names: &[&str], from: &str) -> Vec<String> {
    r.trace
        .events
        .iter()
        .filter(|e| e.kind == EventKind::Send && names[usize::from(e.from)] == from)
        .map(|e| format!("{} {}", e.time_ms, e.label))
        .collect()
}

const CONSENSUS: &str = "[lock]\nkind = \"consensus\"\nttl_ms = 5000\nfirst_token = 33\n";

/// Item 1 (finding 4): after a failover a client does not know the new leader. B still talks to
/// node-1, whose machine is down: its request times out after 1000 ms; it tries node-2, a
/// follower that forwards it to node-3, the leader elected at 1308 ms (etcd raft's MsgProp), and
/// passes the answer back. B never talks to node-3: it used to be told "not the leader: ask
/// node-3" and go there, which across a partition sent it back to a leader it could not reach
/// (review 28 F1).
#[test]
fn a_client_finds_the_new_leader_by_asking_not_at_once() {
    let r = run_body(&format!(
        "seed = 4\n{CONSENSUS}[[workers]]\nname = \"A\"\nwork_ms = 500\n[[workers]]\nname = \"B\"\nstart_ms = 2000\nwork_ms = 500\n[[faults]]\nat_ms = 1000\nkind = \"crash\"\ntarget = \"node-1\"\nhost = true\n"
    ));
    check(
        &r,
        &[
            "1308 leader of term 2, revision 34",
            "2000 lock lock:batch-42 (lease 5 s)",
            "2001 lost: lock lock:batch-42 (lease 5 s)",
            "3000 no answer from the lock service",
            "3100 lock lock:batch-42 (lease 5 s)",
            "3101 forward: lock lock:batch-42 (lease 5 s)",
            "3104 answer: locked, revision=35",
            "3105 locked, revision=35",
            "3106 B holds the lock (token 35)",
            "3107 forward: keepalive lease 2",
            "3108 B: already paid, nothing to do",
        ],
        &[],
    );
    let sent: Vec<(u64, u16)> = r
        .trace
        .events
        .iter()
        .filter(|e| e.kind == EventKind::Send && e.label.starts_with("lock lock:") && e.from == 1)
        .map(|e| (e.time_ms, e.to))
        .collect();
    // Participants: A=0, B=1, node-1=2, node-2=3, node-3=4.
    assert_eq!(sent, [(2000, 2), (3100, 3)]);
    let forward = common::explanation(&r, 3101, "forward: lock lock:batch-42 (lease 5 s)");
    assert!(forward.contains("MsgProp"), "{forward}");
    let keepalive = common::explanation(&r, 3107, "forward: keepalive lease 2");
    assert!(keepalive.contains("LeaseRenew"), "{keepalive}");
    assert_eq!(r.verdict.outcome, Outcome::Safe);
}

/// Session 25's review: when only node-1's process dies, its machine refuses B's connection at
/// once (a TCP reset), so B's client goes to node-2 without waiting out a timeout, which
/// forwards its request to the leader; it is served 1000 ms sooner than when the machine is
/// down (above).
#[test]
fn a_client_refused_by_a_dead_process_moves_on_at_once() {
    let r = run_body(&format!(
        "seed = 4\n{CONSENSUS}[[workers]]\nname = \"A\"\nwork_ms = 500\n[[workers]]\nname = \"B\"\nstart_ms = 2000\nwork_ms = 500\n[[faults]]\nat_ms = 1000\nkind = \"crash\"\ntarget = \"node-1\"\n"
    ));
    check(
        &r,
        &[
            "2000 lock lock:batch-42 (lease 5 s)",
            "2001 refused: lock lock:batch-42 (lease 5 s)",
            "2002 B's client moves to node-2",
            "2002 lock lock:batch-42 (lease 5 s)",
            "2003 forward: lock lock:batch-42 (lease 5 s)",
            "2007 locked, revision=35",
        ],
        &["no answer from the lock service"],
    );
    assert_eq!(r.verdict.outcome, Outcome::Safe);
}

/// A ZooKeeper-style holder (Curator, `on_suspended`) whose server's process dies, on a live
/// machine: zero to two 6 s session timeouts of waiting became none. Its client sees the socket
/// close at once (ClientCnxn), reports Disconnected, Curator SUSPENDED, and A, told to stop,
/// stops at 1501 ms, not at its 4000 ms read timeout; it reconnects to node-2 with its session
/// alive, and its queued unlock lets B in.
const ZK_HOLDER: &str = "seed = 1\n[lock]\nkind = \"consensus\"\nttl_ms = 6000\nfirst_token = 33\nnodes = 3\n[[workers]]\nname = \"A\"\nwork_ms = 4000\nrenew_every_ms = 1000\non_suspended = \"stop\"\n[[workers]]\nname = \"B\"\nstart_ms = 100\nwork_ms = 500\nrenew_every_ms = 1000\n[[faults]]\nat_ms = 1500\nkind = \"crash\"\ntarget = \"node-1\"\n";

#[test]
fn a_zookeeper_client_hears_its_servers_process_die_at_once() {
    let r = run_body(ZK_HOLDER);
    check(
        &r,
        &[
            "1500 node-1 crashes",
            "1501 A's session is suspended",
            "1501 A stops working",
            "1786 connect: session 1",
            // node-2 has no leader yet: it closes the connection at once.
            "1788 node-2 closes A's connection",
            "2258 A's session reconnected",
            "2258 unlock lock:batch-42/1",
            "2263 B holds the lock (token 34)",
        ],
        &["A's session is lost"],
    );
    let suspended = r
        .trace
        .events
        .iter()
        .find(|e| e.label == "A's session is suspended")
        .unwrap();
    assert!(
        suspended
            .explanation
            .contains("sees the socket close at once, not at its read timeout"),
        "{}",
        suspended.explanation
    );
    assert_eq!(r.verdict.outcome, Outcome::Safe);
}

/// The same client reconnecting: node-2's process is down too, so its machine refuses the
/// connect at once; the attempt ends then, and the client tries node-3 after its pause, rather
/// than waiting out its 2000 ms connect timeout (6 s over 3 servers).
#[test]
fn a_zookeeper_client_refused_while_reconnecting_tries_the_next_server() {
    let two =
        format!("{ZK_HOLDER}[[faults]]\nat_ms = 1600\nkind = \"crash\"\ntarget = \"node-2\"\n");
    let r = run_body(&two);
    check(
        &r,
        &[
            "1786 connect: session 1",
            "1787 refused: connect: session 1",
            "1788 node-2 refuses A's connection",
            "2254 connect: session 1",
            "7501 A's session is lost",
        ],
        &[],
    );
    let sent = sends_from(&r, &["A", "B", "node-1", "node-2", "node-3", "db"], "A");
    assert!(
        sent.contains(&"2254 connect: session 1".to_string()),
        "{sent:#?}"
    );
}

/// Two ZooKeeper-style workers (Curator clients).
fn zk_both(faults: &str) -> String {
    let both = ZK_HOLDER.replace(
        "start_ms = 100\nwork_ms = 500\nrenew_every_ms = 1000\n",
        "start_ms = 100\nwork_ms = 500\nrenew_every_ms = 1000\non_suspended = \"stop\"\n",
    );
    assert_ne!(both, ZK_HOLDER);
    format!("{both}{faults}")
}

/// A ZooKeeper-style waiter whose server's process dies is suspended too, reconnects with its
/// session alive after its pause, and waits on. Kept on the dead node, its pings were refused,
/// and once granted it was suspended and stopped, leaving the batch unpaid.
#[test]
fn a_zookeeper_waiter_reconnects_and_waits_on() {
    let r = run_body(&zk_both(""));
    check(
        &r,
        &[
            "1501 B's session is suspended",
            "1967 connect: session 2",
            "1969 B's session reconnected",
            "2530 B holds the lock (token 34)",
            "3034 applied 3",
        ],
        &["B stops working", "refused: ping session 2"],
    );
    let suspended = r
        .trace
        .events
        .iter()
        .find(|e| e.label == "B's session is suspended")
        .unwrap();
    assert!(
        suspended
            .explanation
            .contains("Curator's lock recipe waits on"),
        "{}",
        suspended.explanation
    );
    assert_eq!(r.verdict.outcome, Outcome::Safe);
}

/// The whole machine of node-1 goes down: nothing closes the sockets, so both clients wait out
/// their 4000 ms read timeout (2/3 of 6 s) from the last answer they heard, then reconnect with
/// their sessions alive. A, releasing by then, keeps its unlock for after the reconnect
/// (Curator's guaranteed delete) rather than giving up on it after a request timeout, as an
/// etcd client does. B, granted while it has no connection, hears of it only once reconnected:
/// the server it reaches then fires its watch.
#[test]
fn zookeeper_clients_of_a_dead_machine_wait_out_their_read_timeout() {
    let host = zk_both("").replace(
        "target = \"node-1\"\n",
        "target = \"node-1\"\nhost = true\n",
    );
    let r = run_body(&host);
    check(
        &r,
        &[
            "4008 unlock lock:batch-42/1",
            "5006 A's session is suspended",
            "5106 B's session is suspended",
            "5474 A's session reconnected",
            "5474 unlock lock:batch-42/1",
            // The server sends no event to a client with no connection: it fires the watch
            // again when B's reconnect sets it anew.
            "5477 B's watch fires after its reconnect",
            "5841 B's session reconnected",
            "5841 locked, revision=34",
            "5842 B holds the lock (token 34)",
            "5844 B: already paid, nothing to do",
        ],
        &[
            "no answer to the unlock",
            "Session.Done()",
            "ErrSessionExpired",
        ],
    );
    assert_eq!(r.verdict.outcome, Outcome::Safe);
}

/// A Curator waiter cut off until its session has expired: told so when it reaches a server,
/// it asks again on a new session at once, and later unlocks on that live session. It used to
/// wait on its dead session until its predecessor went (etcd's path), then drop its new lock
/// node's delete as if that session were over too, leaving the node behind.
#[test]
fn a_zookeeper_waiter_whose_session_expired_asks_again_on_a_new_one() {
    let cut = zk_both("").replace(
        "at_ms = 1500\nkind = \"crash\"\ntarget = \"node-1\"\n",
        "at_ms = 1500\nkind = \"partition\"\ngroups = [[\"B\"], [\"node-1\", \"node-2\", \"node-3\"]]\n[[faults]]\nat_ms = 9000\nkind = \"heal\"\n",
    ).replace("work_ms = 4000", "work_ms = 12000");
    let r = run_body(&cut);
    check(
        &r,
        &[
            "9106 B's session has expired",
            "9206 lock lock:batch-42 (lease 6 s)",
            "12013 B holds the lock (token 36)",
            "12015 unlock lock:batch-42/3",
            "12016 forward: unlock lock:batch-42/3",
            "12021 unlocked",
        ],
        &["B's unlock is dropped", "B's session expired while waiting"],
    );
}

/// Item 1: a client on the minority side of a partition cannot learn who leads on the other
/// side. node-1 stepped down (CheckQuorum) and knows no leader; the other endpoints are out of
/// reach. A goes round its endpoints until its acquire timeout and, fail-closed, refuses.
#[test]
fn a_client_cut_off_with_the_minority_never_learns_the_new_leader() {
    let r = run_body(&format!(
        "{CONSENSUS}[[workers]]\nname = \"A\"\nstart_ms = 1000\nwork_ms = 500\nacquire_timeout_ms = 4000\n[[workers]]\nname = \"B\"\nstart_ms = 100\nwork_ms = 500\n[[faults]]\nat_ms = 10\nkind = \"partition\"\ngroups = [[\"A\", \"node-1\"], [\"B\", \"node-2\", \"node-3\", \"db\"]]\n"
    ));
    let names = ["A", "B", "node-1", "node-2", "node-3", "db"];
    assert_eq!(
        sends_from(&r, &names, "A"),
        [
            "1000 lock lock:batch-42 (lease 5 s)",
            "1102 lock lock:batch-42 (lease 5 s)",
            "2202 lock lock:batch-42 (lease 5 s)",
            "3302 lock lock:batch-42 (lease 5 s)",
            "3404 lock lock:batch-42 (lease 5 s)",
            "4504 lock lock:batch-42 (lease 5 s)",
        ]
    );
    check(
        &r,
        &[
            "1001 etcdserver: no leader",
            "1102 lost: lock lock:batch-42 (lease 5 s)",
            "2202 lost: lock lock:batch-42 (lease 5 s)",
            "3303 etcdserver: no leader",
            "5000 A refuses: no lock, no payouts (fail-closed)",
        ],
        &["not the leader: ask"],
    );
    let no_leader = r
        .trace
        .events
        .iter()
        .find(|e| e.label == "etcdserver: no leader")
        .unwrap();
    assert!(
        no_leader.explanation.contains("etcdserver: no leader"),
        "{}",
        no_leader.explanation
    );
    assert_eq!(r.verdict.outcome, Outcome::Safe);
}

/// Item 2 (finding 3): with pre-vote, a node cut off from the majority asks for pre-votes again
/// and again, with a timeout drawn afresh each round, but never raises its term; when the
/// partition heals it disrupts nothing and node-1 still leads term 1.
#[test]
fn an_isolated_node_asks_for_pre_votes_without_raising_its_term() {
    let r = run_body(&format!(
        "{CONSENSUS}[[workers]]\nname = \"A\"\nstart_ms = 3500\nwork_ms = 500\n[[faults]]\nat_ms = 100\nkind = \"partition\"\ngroups = [[\"node-3\"], [\"A\", \"node-1\", \"node-2\", \"db\"]]\n[[faults]]\nat_ms = 3000\nkind = \"heal\"\n"
    ));
    let rounds: Vec<u64> = r
        .trace
        .events
        .iter()
        .filter(|e| e.kind == EventKind::State && e.label.starts_with("pre-vote for term"))
        .map(|e| {
            assert_eq!(e.label, "pre-vote for term 2", "the term never climbs");
            e.time_ms
        })
        .collect();
    assert_eq!(rounds, [401, 796, 1181, 1547, 1980, 2344, 2695]);
    let gaps: Vec<u64> = rounds.windows(2).map(|w| w[1] - w[0]).collect();
    assert!(
        gaps.iter().all(|g| (300..600).contains(g)) && gaps.windows(2).any(|w| w[0] != w[1]),
        "re-randomised in [T, 2T): {gaps:?}"
    );
    check(
        &r,
        &[
            "3000 partition healed",
            "3500 lock lock:batch-42 (lease 5 s)",
            "3503 locked, revision=33",
        ],
        &[
            "election for term",
            "vote for me",
            "leader of term",
            "steps down",
        ],
    );
    assert_eq!(r.verdict.outcome, Outcome::Safe);
}

/// Item 3 (finding 5): an etcd session sends its keepalives every TTL/3 without being told to,
/// and a keepalive for a lease that has expired renews nothing: etcd's lessor holds it until the
/// revocation is applied, then answers ErrLeaseNotFound (lessor.go, Renew). The lessor finds the
/// expired lease on its 500 ms pass (runLoop), not the instant it ends (session 34's review).
#[test]
fn a_session_keeps_its_lease_alive_without_being_told_to() {
    let r = run_body(&format!(
        "{CONSENSUS}[[workers]]\nname = \"A\"\nwork_ms = 6000\n[[faults]]\nat_ms = 10\nkind = \"pause\"\ntarget = \"A\"\nduration_ms = 4995\n"
    ));
    let names = ["A", "node-1", "node-2", "node-3", "db"];
    let keepalives: Vec<String> = sends_from(&r, &names, "A")
        .into_iter()
        .filter(|l| l.contains("keepalive"))
        .collect();
    // clientv3 sends the first keepalive at once. Paused from 10 to 5005: the one due at about
    // 2004 goes at 5005, as the lease (refreshed at 5) runs out; it waits at the leader until
    // the lessor's pass at 5500 has revoked the lease.
    assert_eq!(
        keepalives[..2],
        ["4 keepalive lease 1", "5005 keepalive lease 1"]
    );
    check(
        &r,
        &[
            "5 lease refreshed",
            "5006 A's keepalive waits: lease 1 expired",
            "5500 lease 1 (A) expired",
            "5502 lease of A revoked, revision 34",
            "5502 TTL=0: lease not found",
            "5503 A has lost the lock",
        ],
        &["lease refreshed\n5006"],
    );
    // Not answered before the revocation is applied.
    let answers: Vec<String> = lines(&r)
        .into_iter()
        .filter(|l| l.ends_with("TTL=0: lease not found"))
        .collect();
    assert_eq!(
        answers,
        ["5502 TTL=0: lease not found", "5503 TTL=0: lease not found"]
    );
}

/// Item 4: an entry the leader appended but could not commit stays in its log. When node-2
/// returns, node-1 (whose log is ahead) wins and commits it: A, which gave up at 3142 ms, is
/// the holder at 4326 without knowing it, and B waits until A's unkept lease runs out.
#[test]
fn an_uncommitted_lock_commits_when_the_majority_returns() {
    let s = match lockstep_core::catalogue::load("consensus-uncommitted-entry-commits") {
        Some(Ok(s)) => s,
        other => panic!("{other:?}"),
    };
    let r = run(&s);
    check(
        &r,
        &[
            "201 append: put lock:batch-42/1 (lease 1)",
            "400 node-1 steps down: no quorum",
            "3142 A refuses: no lock, no payouts (fail-closed)",
            "4000 node-2 restarts",
            "4324 leader of term 2, revision 32",
            "4324 1 uncommitted entry sent again in term 2",
            "4326 locked, revision=33",
            "4327 A ignores a late answer",
            "4503 queued, revision=34",
            "10000 lease 1 (A) expired",
            "10003 B holds the lock (token 34)",
            "11006 applied 3",
        ],
        &["discarded", "will be overwritten"],
    );
    // node-1 never votes for node-2, whose log lacks A's entry.
    assert!(
        !lines(&r)
            .iter()
            .any(|l| l.ends_with("leader of term 2, revision 32") && !l.starts_with("4324")),
        "only node-1 can win"
    );
    assert_eq!(r.verdict.outcome, Outcome::Safe);
}

/// Item 4, the other way: when a node without the entry wins (the old leader is cut off), the
/// entry can never commit, and the narration does not tell its client it may assume so.
#[test]
fn an_uncommitted_lock_on_a_cut_off_leader_can_never_commit() {
    let s = match lockstep_core::catalogue::load("consensus-isolated-leader") {
        Some(Ok(s)) => s,
        other => panic!("{other:?}"),
    };
    let r = run(&s);
    check(
        &r,
        &[
            "51 append: put lock:batch-42/1 (lease 1)",
            "310 node-1 steps down: no quorum",
            "315 leader of term 2, revision 32",
            "315 node-1's 1 uncommitted entry will be overwritten",
            "2603 locked, revision=33",
        ],
        &["lease 1 (A)", "revoke lease 1", "A ignores a late answer"],
    );
}

/// Item 6 (finding 14): etcd lease TTLs are whole seconds. A 1500 ms lease can only be asked for
/// as 2 s; the grant says so and the client counts with the 2000 ms granted.
#[test]
fn a_consensus_lease_is_a_whole_number_of_seconds() {
    let r = run_body(
        "[lock]\nkind = \"consensus\"\nttl_ms = 1500\nfirst_token = 33\n[[workers]]\nname = \"A\"\nwork_ms = 100\n",
    );
    check(
        &r,
        &["1 lease TTL 2000 ms for A", "4 A holds the lock (token 33)"],
        &[],
    );
    let find = |label: &str| {
        r.trace
            .events
            .iter()
            .find(|e| e.label == label)
            .map(|e| e.explanation.clone())
            .unwrap_or_default()
    };
    let raised = find("lease TTL 2000 ms for A");
    assert!(raised.contains("whole seconds"), "{raised}");
    assert!(!raised.contains("minimum"), "{raised}");
    let holds = find("A holds the lock (token 33)");
    assert!(holds.contains("good until 2000 ms"), "{holds}");
}

/// Item 6 (finding 8): drift on an etcd leader shortens a lease in real time, and the expiry
/// says why: node-1's clock runs 20 % fast, so A's 5 s lease runs out at 4172 ms.
#[test]
fn a_lease_expiry_on_a_drifting_leader_names_the_drift() {
    let r = run_body(
        "[lock]\nkind = \"consensus\"\nttl_ms = 5000\nfirst_token = 33\n[[workers]]\nname = \"A\"\nwork_ms = 6000\n[[faults]]\nat_ms = 10\nkind = \"pause\"\ntarget = \"A\"\nduration_ms = 6000\n[[clocks]]\nnode = \"node-1\"\ndrift_ppm = 200000\n",
    );
    // Renewed by the keepalive the client sends at once (answered at 5 ms): 5 + 5000 / 1.2 =
    // 4172 ms of real time, and found on the lessor's next pass, at 5500 ms on node-1's clock.
    check(&r, &["4584 lease 1 (A) expired"], &[]);
    let why = &r
        .trace
        .events
        .iter()
        .find(|e| e.label == "lease 1 (A) expired")
        .unwrap()
        .explanation;
    assert!(
        why.ends_with("node-1's clock runs 20 % fast. etcd times leases on a monotonic clock, which a jump does not move but drift does, so a 5000 ms TTL lasts about 4167 ms of real time on it."),
        "{why}"
    );
}

/// Item 7 (finding 2): under everysec a crash of the Redis process loses nothing acknowledged
/// (the kernel has the AOF); only a host crash loses the writes since the last fsync (on a Redis
/// other clients keep writing to, fsynced once a second: see truth14.rs for an idle one).
#[test]
fn everysec_loses_writes_on_a_host_crash_only() {
    let body = |host: &str| {
        format!(
            "[lock]\nkind = \"redis\"\nttl_ms = 5000\nfirst_token = 33\npersistence = \"everysec\"\nbackground_writes = true\n[resource]\nfencing = \"enforce\"\n[[workers]]\nname = \"A\"\nstart_ms = 1500\nwork_ms = 1000\nfencing = true\n[[workers]]\nname = \"B\"\nstart_ms = 2000\nwork_ms = 1000\nfencing = true\n[[faults]]\nat_ms = 1800\nkind = \"crash\"\ntarget = \"redis\"\n{host}[[faults]]\nat_ms = 1900\nkind = \"restart\"\ntarget = \"redis\"\n"
        )
    };
    let process = run_body(&body(""));
    check(
        &process,
        &[
            "1501 (integer) 33: the token",
            "1800 redis crashes",
            "1900 redis restarts from its AOF (fsync every second)",
            "2001 (nil): key exists",
            "2505 applied 3",
            "2511 (integer) 34: the token",
        ],
        &["lost A's key", "fencing counter is back", "machine"],
    );
    assert_eq!(process.verdict.outcome, Outcome::Safe);
    let crash = process
        .trace
        .events
        .iter()
        .find(|e| e.label == "redis crashes")
        .unwrap();
    assert!(
        crash.explanation.contains("loses nothing it acknowledged"),
        "{}",
        crash.explanation
    );

    let host = run_body(&body("host = true\n"));
    check(
        &host,
        &[
            "1501 (integer) 33: the token",
            "1800 redis's machine fails",
            "1900 redis lost A's key (written after the last fsync)",
            "1900 redis's fencing counter is back at 32 (was 33)",
            "2001 (integer) 33: the token",
        ],
        &[],
    );
    assert_eq!(host.verdict.outcome, Outcome::DoubleWrite);
}

/// Item 5 (etcd issue #22082, which REFERENCE.md lists): a retried unlock deletes by key name;
/// with a shared session the name is the same for a newer lock, which it deletes. B is granted
/// the lock at 2510 ms while A2 still believes it holds it, and both pay.
#[test]
fn a_retried_unlock_deletes_a_newer_lock_of_the_same_session() {
    let s = match lockstep_core::catalogue::load("consensus-retried-stale-unlock") {
        Some(Ok(s)) => s,
        other => panic!("{other:?}"),
    };
    let r = run(&s);
    check(
        &r,
        &[
            "1509 dropped: unlocked",
            "1604 A2 holds the lock (token 35)",
            "1703 queued, revision=36",
            "2506 A retries its unlock",
            "2509 unlocked",
            "2510 B holds the lock (token 36)",
            "3513 applied 3",
            "3607 DUPLICATE: 3 payouts paid twice",
            "3611 nothing to delete: no such key",
        ],
        &[],
    );
    // The retried delete frees A2's lock, not A's.
    let freed = r
        .trace
        .events
        .iter()
        .find(|e| e.time_ms == 2509 && e.label == "unlocked")
        .unwrap();
    assert!(
        matches!(&freed.tag, Some(lockstep_core::Tag::ServiceFrees { holder, .. }) if holder == "A2"),
        "{:?}",
        freed.tag
    );
    assert_eq!(r.verdict.outcome, Outcome::DoubleWrite);
}

/// The same schedule without the shared session is harmless: A's retried delete finds no key
/// under its own lease and changes nothing, and B waits for A2.
#[test]
fn a_retried_unlock_of_its_own_session_deletes_nothing_else() {
    let mut s = match lockstep_core::catalogue::load("consensus-retried-stale-unlock") {
        Some(Ok(s)) => s,
        other => panic!("{other:?}"),
    };
    s.workers[1].session = None;
    s.expect = Outcome::Safe;
    let r = run(&s);
    check(
        &r,
        &[
            "2506 A retries its unlock",
            "2509 nothing to delete: already deleted",
        ],
        &["DUPLICATE"],
    );
    let answer = r
        .trace
        .events
        .iter()
        .find(|e| e.label == "nothing to delete: already deleted")
        .unwrap();
    // The key went with A's own delete, not with a revoked lease (review 27 F6).
    assert!(
        answer
            .explanation
            .starts_with("A's own earlier unlock, at 1509 ms, had already deleted"),
        "{}",
        answer.explanation
    );
    assert_eq!(r.verdict.outcome, Outcome::Safe);
}

/// An unlock lost to a crashed leader (review s6-9): the worker's timeout says it got no answer
/// and what follows from it (the key stays until the lease runs out), before it finishes.
#[test]
fn an_unanswered_unlock_says_the_key_stays_until_the_lease_runs_out() {
    let r = run_body(&format!(
        "seed = 1\n{CONSENSUS}[resource]\nfencing = \"enforce\"\n\
         [[workers]]\nname = \"A\"\nstart_ms = 0\nwork_ms = 2000\nfencing = true\n\
         [[workers]]\nname = \"B\"\nstart_ms = 100\nwork_ms = 300\nfencing = true\n\
         [[faults]]\nat_ms = 500\nkind = \"crash\"\ntarget = \"node-1\"\nhost = true\n\
         [[faults]]\nat_ms = 3000\nkind = \"restart\"\ntarget = \"node-1\"\n"
    ));
    check(
        &r,
        &[
            "2009 lost: unlock lock:batch-42/1",
            "3008 no answer to the unlock",
            "3008 A done",
            // The new leader (term 2 at 805 ms) promotes its lessor as its empty entry commits
            // (807 ms): 807 + 300 + 5000 = 6107, found on the lessor's next 500 ms pass.
            "6500 lease 1 (A) expired",
        ],
        &[],
    );
    let note = r
        .trace
        .events
        .iter()
        .find(|e| e.label == "no answer to the unlock")
        .map(|e| e.explanation.clone())
        .unwrap_or_default();
    assert!(
        note.contains("key stays until its lease runs out"),
        "{note}"
    );
}
