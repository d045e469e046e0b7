//! What session 34's expert review found: etcd's lessor finds expired leases on its 500 ms pass
//! and holds a keepalive for one until the revocation is applied; a ZooKeeper client pings a
//! third of its session timeout after it last sent; a lock request with another worker's session
//! grants no lease; a ZooKeeper-style run says where its etcd-like servers differ from an
//! ensemble. Golden times and labels that only the true behaviour produces.

mod common;

use lockstep_core::{Run, run};

const HEAD: &str = "name = \"t\"\ntitle = \"t\"\nsummary = \"s\"\nexpect = \"safe\"\n";

fn run_body(body: &str) -> Run {
    common::run_text(HEAD, body)
}

fn check(r: &Run, expect: &[&str], absent: &[&str]) {
    common::check_in_order(&common::lines(r), expect, absent);
}

/// The explanation of the first event labelled `label`.
fn explained(r: &Run, label: &str) -> String {
    r.trace
        .events
        .iter()
        .find(|e| e.label == label)
        .map(|e| e.explanation.clone())
        .unwrap_or_else(|| panic!("no {label:?}"))
}

/// A's lease, refreshed at 5 ms, runs out at 5005; paused, A sends no keepalive, and the
/// leader's lessor finds the lease on its pass at 5500 (lessor.go, runLoop), not at 5005.
#[test]
fn the_lessor_finds_an_expired_lease_on_its_500_ms_pass() {
    let r = run_body(
        "[lock]\nkind = \"consensus\"\nttl_ms = 5000\nfirst_token = 33\n[[workers]]\nname = \"A\"\nwork_ms = 8000\n[[faults]]\nat_ms = 10\nkind = \"pause\"\ntarget = \"A\"\nduration_ms = 7000\n",
    );
    check(
        &r,
        &[
            "5500 lease 1 (A) expired",
            "5502 lease of A revoked, revision 34",
        ],
        &["5005 lease 1 (A) expired"],
    );
    let why = explained(&r, "lease 1 (A) expired");
    assert!(why.contains("ran out 495 ms ago"), "{why}");
    assert!(why.contains("every 500 ms (lessor.go, runLoop)"), "{why}");
    // Nobody asked: the revocation tells nobody.
    let revoked = explained(&r, "lease of A revoked, revision 34");
    assert!(revoked.contains("A is not told."), "{revoked}");
}

/// A ZooKeeper-style client left to its own cadence pings once it has sent nothing for a third
/// of its 6 s session timeout (ClientCnxn), every 2000 ms, not on etcd's TTL/3-after-each-answer
/// grid of 500 ms passes (which gave 2504, 5004).
#[test]
fn a_zookeeper_client_pings_a_third_of_its_session_timeout_after_it_last_sent() {
    let r = run_body(
        "[lock]\nkind = \"consensus\"\nttl_ms = 6000\nfirst_token = 33\n[[workers]]\nname = \"A\"\nwork_ms = 7000\non_suspended = \"continue\"\n",
    );
    let pings: Vec<String> = common::lines(&r)
        .into_iter()
        .filter(|l| l.ends_with(" ping session 1"))
        .step_by(2) // each ping is sent, then delivered
        .collect();
    assert_eq!(
        pings,
        [
            "2004 ping session 1",
            "4004 ping session 1",
            "6004 ping session 1"
        ]
    );
}

/// A second job locking with the first one's etcd session is granted no lease: its key goes
/// under the session's, with the same name (etcd issue #22082's setting).
#[test]
fn a_lock_request_with_another_workers_session_grants_no_lease() {
    let s = match lockstep_core::catalogue::load("consensus-retried-stale-unlock") {
        Some(Ok(s)) => s,
        other => panic!("{other:?}"),
    };
    let r = run(&s);
    let a2 = r
        .trace
        .events
        .iter()
        .find(|e| {
            e.label.starts_with("lock lock:batch-42")
                && r.trace.participants[usize::from(e.from)].name == "A2"
        })
        .map(|e| e.explanation.clone())
        .unwrap_or_default();
    assert!(
        a2.starts_with("A2 asks node-1 for the lock with A's session: no new lease is granted"),
        "{a2}"
    );
    assert!(!a2.contains("grant a 5 s lease"), "{a2}");
}

/// A ZooKeeper-style run whose leader crashes says how a real ensemble elects and numbers its
/// zxids, where this model's servers work as etcd's; an etcd run does not.
#[test]
fn a_zookeeper_style_leader_change_says_where_an_ensemble_differs() {
    let body = |suspended: &str| {
        format!(
            "[lock]\nkind = \"consensus\"\nttl_ms = 6000\nfirst_token = 33\n[[workers]]\nname = \"A\"\nwork_ms = 300\n{suspended}[[workers]]\nname = \"B\"\nstart_ms = 2000\nwork_ms = 300\n{suspended}[[faults]]\nat_ms = 1000\nkind = \"crash\"\ntarget = \"node-1\"\n"
        )
    };
    let leader = |r: &Run| {
        r.trace
            .events
            .iter()
            .find(|e| e.label.starts_with("leader of term 2"))
            .map(|e| e.explanation.clone())
            .unwrap_or_else(|| panic!("no new leader"))
    };
    let zk = leader(&run_body(&body("on_suspended = \"continue\"\n")));
    assert!(zk.contains("FastLeaderElection"), "{zk}");
    assert!(zk.contains("(epoch << 32) | 1"), "{zk}");
    let etcd = leader(&run_body(&body("")));
    assert!(!etcd.contains("FastLeaderElection"), "{etcd}");
}

/// A Redlock round that leaves exactly 0 ms of validity (TTL 1000, 988 ms elapsed, drift 12)
/// fails here, as redsync and redlock-py have it, and the note says redlock-rb would take it.
#[test]
fn a_redlock_validity_of_exactly_zero_says_the_clients_disagree() {
    let links: String = (1..=5)
        .map(|i| {
            let latency = if i == 5 { 98 } else { 99 };
            format!("[[network.links]]\nbetween = [\"A\", \"redis-{i}\"]\nlatency_ms = {latency}\n")
        })
        .collect();
    let r = run_body(&format!(
        "[lock]\nkind = \"redlock\"\nttl_ms = 1000\ninstances = 5\ninstance_timeout_ms = 500\n[network]\nlatency_ms = 1\n{links}[[workers]]\nname = \"A\"\nwork_ms = 100\nacquire_timeout_ms = 3000\n"
    ));
    check(&r, &["988 Redlock failed: 5/5, unlock all"], &[]);
    let why = explained(&r, "Redlock failed: 5/5, unlock all");
    assert!(
        why.starts_with("Redlock: validity 0 ms is not positive (elapsed 988 ms) (redsync and redlock-py refuse a validity of exactly 0, as here; redlock-rb would take the lock"),
        "{why}"
    );
}
