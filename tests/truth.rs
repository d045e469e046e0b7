//! The model agrees with the real systems (issue 9, "Wrong outcomes to fix"): one small scenario
//! per semantic, with the golden times and labels that only the true behaviour produces.

use lockstep_core::scenario::Outcome;
use lockstep_core::sim::End;
use lockstep_core::{Run, run};
use lockstep_tests::scenario;

const HEAD: &str = "name = \"t\"\ntitle = \"t\"\nsummary = \"s\"\nexpect = \"safe\"\n";

fn run_body(body: &str) -> Run {
    run(&scenario(&format!("{HEAD}{body}")))
}

/// "time label" per event.
fn lines(r: &Run) -> Vec<String> {
    r.trace
        .events
        .iter()
        .map(|e| format!("{} {}", e.time_ms, e.label))
        .collect()
}

/// `expect` appears in order among the run's lines; none of `absent` appears anywhere.
fn check(r: &Run, expect: &[&str], absent: &[&str]) {
    let lines = lines(r);
    let mut at = 0;
    for want in expect {
        match lines[at..].iter().position(|l| l == want) {
            Some(i) => at += i + 1,
            None => panic!("missing {want:?} (in order) in:\n{}", lines.join("\n")),
        }
    }
    for not in absent {
        assert!(
            !lines.iter().any(|l| l.contains(not)),
            "unexpected {not:?} in:\n{}",
            lines.join("\n")
        );
    }
}

const CONSENSUS_AB: &str = "[lock]\nkind = \"consensus\"\nttl_ms = 5000\nfirst_token = 33\n[[workers]]\nname = \"A\"\nwork_ms = 3000\n";

/// 1. etcd and ZooKeeper time leases on a monotonic clock: a +10 s wall-clock step on the leader
///    revokes nothing, and B waits until A releases.
#[test]
fn a_clock_jump_on_a_consensus_leader_expires_no_lease() {
    let r = run_body(&format!(
        "{CONSENSUS_AB}[[workers]]\nname = \"B\"\nstart_ms = 100\nwork_ms = 1000\n[[faults]]\nat_ms = 500\nkind = \"clock-jump\"\ntarget = \"node-1\"\nby_ms = 10000\n"
    ));
    check(
        &r,
        &[
            "500 node-1's clock jumps +10000 ms",
            "3006 write 3 payouts",
            "3011 locked, revision=34",
            "3014 B: already paid, nothing to do",
        ],
        &["expired", "revoked"],
    );
    assert_eq!(r.verdict.outcome, Outcome::Safe);
    assert!(r.verdict.overlaps.is_empty());
    let jump = &r
        .trace
        .events
        .iter()
        .find(|e| e.label.contains("jumps"))
        .unwrap();
    assert!(
        jump.explanation.contains("monotonic"),
        "{}",
        jump.explanation
    );
}

/// 2. A waiter counts its lease from when it sent its lock request or its last answered
///    keepalive, not from the grant. B, cut off from the cluster from 200 to 4000 ms, asked at
///    100 with a 5000 ms lease and sent its first keepalive at once (104, answered); granted at
///    4010, it counts its lease as good until 5104 (not 9010). Its keepalives, re-sent every
///    500 ms while unanswered, reach the leader again at 4104, before the lease ran out, so B
///    keeps it and pays.
#[test]
fn a_consensus_waiter_counts_its_lease_from_its_request_not_from_the_grant() {
    let r = run_body(&format!(
        "{CONSENSUS_AB}[[workers]]\nname = \"B\"\nstart_ms = 100\nwork_ms = 1200\ncheck_lease_before_write = true\n[[faults]]\nkind = \"drop\"\nmatch = \"write\"\nfrom = \"A\"\n[[faults]]\nat_ms = 200\nkind = \"partition\"\ngroups = [[\"B\"], [\"node-1\", \"node-2\", \"node-3\"]]\n[[faults]]\nat_ms = 4000\nkind = \"heal\"\n"
    ));
    check(
        &r,
        &[
            "104 keepalive lease 2",
            "106 lease refreshed",
            "2104 lost: keepalive lease 2",
            "2604 lost: keepalive lease 2",
            "4010 B holds the lock (token 34)",
            "4104 keepalive lease 2",
            "4106 lease refreshed",
            "5212 lease check: 3892 ms left, write",
            "5213 applied 3",
        ],
        &["lease 2 (B) expired", "B has lost the lock"],
    );
    let holds = r
        .trace
        .events
        .iter()
        .find(|e| e.label == "B holds the lock (token 34)")
        .unwrap();
    assert!(
        holds.explanation.contains("good until 5104 ms"),
        "{}",
        holds.explanation
    );
    assert_eq!(r.verdict.outcome, Outcome::Safe);
}

/// 2b. A waiter whose own lease ran out while it waited is told (ErrSessionExpired) and asks
///     again with a new session, instead of giving up on a free lock. It learns it when its
///     predecessor's key goes (etcd's Mutex reads its own key then), not on its own clock.
#[test]
fn a_waiter_whose_session_expired_is_told_and_asks_again() {
    let r = run_body(
        "[lock]\nkind = \"consensus\"\nttl_ms = 5000\nfirst_token = 33\n[[workers]]\nname = \"A\"\nwork_ms = 6000\nrenew_every_ms = 1000\n[[workers]]\nname = \"B\"\nstart_ms = 100\nwork_ms = 500\n[[faults]]\nat_ms = 200\nkind = \"partition\"\ngroups = [[\"B\"], [\"node-1\", \"node-2\", \"node-3\"]]\n[[faults]]\nat_ms = 5500\nkind = \"heal\"\n",
    );
    check(
        &r,
        &[
            // Run out at 5105 (refreshed at 105), found on the lessor's 500 ms pass.
            "5500 lease 2 (B) expired",
            "5605 TTL=0: lease not found",
            "6011 watch: revision 33 deleted · get: own key gone",
            "6012 B's session expired while waiting",
            "6112 lock lock:batch-42 (lease 5 s)",
            "6118 B: already paid, nothing to do",
        ],
        &["B's client gives up"],
    );
    assert_eq!(r.verdict.outcome, Outcome::Safe);
    assert_eq!(r.end, End::Finished);
}

/// 3. A pause `after` an event freezes the node right there: the status read that A decided on
///    in the same reaction goes out only when A resumes.
#[test]
fn a_pause_after_an_event_freezes_the_rest_of_that_reaction() {
    let r = run_body(
        "[lock]\nkind = \"redis\"\n[[workers]]\nname = \"A\"\nwork_ms = 100\n[[faults]]\nkind = \"pause\"\ntarget = \"A\"\nafter = \"A holds the lock\"\nduration_ms = 300\n",
    );
    check(
        &r,
        &[
            "2 A holds the lock",
            "2 A paused for 300 ms",
            "302 A resumes",
            "302 read status batch-42",
            "404 write 3 payouts",
        ],
        &[],
    );
    let reads: Vec<u64> = r
        .trace
        .events
        .iter()
        .filter(|e| e.label.starts_with("read status"))
        .map(|e| e.time_ms)
        .collect();
    assert_eq!(reads, [302, 303], "the read leaves only after the pause");
}

/// 4. A Redis restarted without persistence is empty: INCR returns 1. A database that has seen
///    token 33 refuses the next holder: safe, but stuck, and the narration says so.
#[test]
fn a_redis_restart_without_persistence_restarts_the_counter_at_one() {
    let r = run_body(
        "[lock]\nkind = \"redis\"\nfirst_token = 33\n[resource]\nfencing = \"enforce\"\n[[workers]]\nname = \"A\"\nfencing = true\nwork_ms = 100\n[[workers]]\nname = \"B\"\nstart_ms = 50\nfencing = true\nwork_ms = 100\n[[faults]]\nat_ms = 20\nkind = \"crash\"\ntarget = \"redis\"\n[[faults]]\nat_ms = 30\nkind = \"restart\"\ntarget = \"redis\"\npersistent = false\n[[faults]]\nkind = \"drop\"\nmatch = \"write\"\nfrom = \"A\"\n",
    );
    check(
        &r,
        &[
            "1 (integer) 33: the token",
            "30 redis forgot the fencing counter (was 33)",
            "51 (integer) 1: the token",
            "53 rejected — 1 < last_token 33",
        ],
        &[],
    );
    let forgot = r
        .trace
        .events
        .iter()
        .find(|e| e.label.contains("forgot the fencing counter"))
        .unwrap();
    assert!(forgot.explanation.contains("INCR returns 1"));
    assert!(forgot.explanation.contains("a second time"));
    assert_eq!(r.verdict.outcome, Outcome::NotProcessed);
}

/// 5. A consensus leader that crashes and restarts before an election comes back as a follower;
///    an election follows, and the new leader times the leases, so a dead holder's lease expires.
#[test]
fn a_restarted_consensus_leader_is_a_follower_and_leases_still_expire() {
    let r = run_body(
        "[lock]\nkind = \"consensus\"\nttl_ms = 2000\nfirst_token = 33\n[resource]\nfencing = \"enforce\"\n[[workers]]\nname = \"A\"\nwork_ms = 1000\nfencing = true\n[[workers]]\nname = \"B\"\nstart_ms = 100\nwork_ms = 500\nfencing = true\nacquire_timeout_ms = 20000\n[[faults]]\nat_ms = 200\nkind = \"crash\"\ntarget = \"A\"\n[[faults]]\nat_ms = 300\nkind = \"crash\"\ntarget = \"node-1\"\n[[faults]]\nat_ms = 350\nkind = \"restart\"\ntarget = \"node-1\"\n",
    );
    check(
        &r,
        &[
            "350 node-1 restarts",
            "350 node-1 is a follower",
            "605 leader of term 2, revision 34",
            // Promoted as its empty entry commits (607 ms): 607 + 300 + 2000 = 2907, found on
            // the lessor's next 500 ms pass.
            "3000 lease 1 (A) expired",
            "3003 B holds the lock (token 34)",
            "3506 applied 3",
        ],
        &["gives up"],
    );
    assert_eq!(r.verdict.outcome, Outcome::Safe);
}

/// 6. Redis keeps a key alive while now <= expiry: a key set at 1 ms with a 5000 ms TTL is still
///    there at 5001 and gone at 5002.
#[test]
fn a_redis_key_is_alive_at_its_expiry_millisecond() {
    let r = run_body("[lock]\nkind = \"redis\"\n[[workers]]\nname = \"A\"\nwork_ms = 10000\n");
    check(
        &r,
        &["1 OK", "5002 lock:batch-42 expired (A's TTL ran out)"],
        &["5001 lock:batch-42 expired"],
    );
}

/// The duplicate's narration names the two writers as they were, whichever was stale: in
/// redlock-gc-pause stale A writes first and B's write is the repeat.
#[test]
fn the_duplicate_names_who_paid_first_without_calling_the_newest_holder_stale() {
    let mut s = lockstep_tests::builtin("heartbeat-does-not-help");
    s.explain.clear();
    let r = run(&s);
    let dup = r
        .trace
        .events
        .iter()
        .find(|e| e.label.starts_with("DUPLICATE"))
        .unwrap();
    assert_eq!(
        dup.explanation,
        "A's write paid again 3 payouts that B's earlier write had paid: $3,750.00 paid twice. The database checks no fencing token, so it cannot tell whether the writer still holds the lock: it takes whatever arrives."
    );
    let mut s = lockstep_tests::builtin("redlock-gc-pause");
    s.explain.clear();
    let r = run(&s);
    let dup = r
        .trace
        .events
        .iter()
        .find(|e| e.label.starts_with("DUPLICATE"))
        .unwrap();
    assert!(
        dup.explanation
            .starts_with("B's write paid again 3 payouts that A's earlier write had paid"),
        "{}",
        dup.explanation
    );
    assert!(!dup.explanation.contains("stale write"));
}

/// A grant never claims its token is higher than any issued before: after a failover the
/// counter hands a number out again (redis-failover-token-rollback reissues 33).
#[test]
fn a_grant_does_not_claim_its_token_is_new() {
    let mut s = lockstep_tests::builtin("redis-failover-token-rollback");
    s.explain.clear();
    let r = run(&s);
    for e in &r.trace.events {
        assert!(
            !e.explanation.contains("higher than any"),
            "{}: {}",
            e.label,
            e.explanation
        );
    }
    let grants: Vec<&str> = r
        .trace
        .events
        .iter()
        .filter(|e| {
            e.label == "(integer) 33: the token" && e.kind == lockstep_core::EventKind::Send
        })
        .map(|e| e.explanation.as_str())
        .collect();
    assert_eq!(grants.len(), 2, "33 is issued twice");
    assert!(
        grants[1].contains("hands numbers out again"),
        "{}",
        grants[1]
    );
}

/// Chubby's lock-delay holds an expired holder's lock free for the delay; without it the same
/// run pays twice.
#[test]
fn lock_delay_keeps_an_expired_lock_untaken_for_its_delay() {
    let with = lockstep_tests::builtin("consensus-lock-delay");
    let mut without = with.clone();
    without.lock.lock_delay_ms = None;
    let r = run(&with);
    check(
        &r,
        &[
            "5502 lock-delay: free, but not grantable for 10000 ms",
            "6100 write 3 payouts",
            "15502 locked, revision=34",
        ],
        &[],
    );
    assert_eq!(r.verdict.outcome, Outcome::Safe);
    assert_eq!(run(&without).verdict.outcome, Outcome::DoubleWrite);
}

/// etcd's CheckQuorum: a leader that reaches no majority for an election timeout steps down
/// (here both followers crash at 0 and the election timeout is 300 ms).
#[test]
fn a_leader_without_a_quorum_steps_down_after_an_election_timeout() {
    let r = lockstep_tests::run_builtin("consensus-quorum-loss-fail-closed");
    check(&r, &["300 node-1 steps down: no quorum"], &[]);
    assert_eq!(r.verdict.outcome, Outcome::NotProcessed);
}
