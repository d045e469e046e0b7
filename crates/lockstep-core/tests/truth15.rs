//! Session 36's reviews: an etcd expert's (a member with no leader answers at once only a
//! request marked WithRequireLeader; clientv3 balances round-robin; fail-open cannot be fenced;
//! a shared session gives no exclusion) and a presenter's (a duplicate write's answer, the
//! step where two workers begin to believe, the key a late release finds gone). Golden labels
//! and the sentences that only the corrected narration says.

mod common;

use common::{HEAD, check_in_order, explanation, lines, run_text};
use lockstep_core::{Run, Session, catalogue, run};

fn builtin(id: &str) -> Run {
    run(&catalogue::load(id)
        .expect("a built-in id")
        .expect("it parses"))
}

/// The step number (1-based, as the front ends count) of the first event labelled `label`.
fn step_of(r: &Run, label: &str) -> usize {
    1 + r
        .trace
        .events
        .iter()
        .position(|e| e.label == label)
        .unwrap_or_else(|| panic!("no event {label:?}"))
}

fn text_of<'r>(r: &'r Run, label: &str) -> &'r str {
    let e = &r.trace.events[step_of(r, label) - 1];
    e.explanation.as_str()
}

/// A leaderless member answers "etcdserver: no leader", the error etcd gives at once only to
/// a request marked WithRequireLeader, and the narration says what an unmarked Mutex request
/// would get instead (no answer until the caller's deadline or the 7 s request timeout). It
/// used to be labelled "not the leader: no leader known" and blamed on "raft proposal dropped".
#[test]
fn a_leaderless_member_refuses_only_what_etcd_refuses_at_once() {
    for id in [
        "consensus-quorum-loss-fail-closed",
        "consensus-quorum-loss-fail-open",
        "consensus-uncommitted-entry-commits",
    ] {
        let r = builtin(id);
        if id == "consensus-quorum-loss-fail-closed" {
            check_in_order(
                &lines(&r),
                &[
                    "1000 no answer from the lock service",
                    "1105 etcdserver: no leader",
                ],
                &[],
            );
        }
        let why = text_of(&r, "etcdserver: no leader");
        for said in [
            "WithRequireLeader",
            "concurrency.Mutex does not",
            "7 s request timeout",
            "context deadline exceeded",
            "clientv3 does not retry",
        ] {
            assert!(why.contains(said), "{id}: {said:?} missing from {why}");
        }
        for wrong in ["raft proposal dropped", "no leader known"] {
            assert!(
                !r.trace
                    .events
                    .iter()
                    .any(|e| e.label.contains(wrong) || e.explanation.contains(wrong)),
                "{id} still says {wrong:?}"
            );
        }
    }
}

/// Moving to the next endpoint is the model's simplification, not clientv3's behaviour.
#[test]
fn the_one_endpoint_client_is_called_a_simplification() {
    let r = builtin("consensus-isolated-leader");
    let all: Vec<&str> = r
        .trace
        .events
        .iter()
        .map(|e| e.explanation.as_str())
        .collect();
    assert!(
        !all.iter().any(
            |t| t.contains("moves to another endpoint only after a failure")
                || t.contains("etcd's client moves to another endpoint after a failure")
        ),
        "a sentence still pins clientv3 to one endpoint"
    );
    assert!(
        all.iter().any(|t| t.contains("round-robin")),
        "nothing says clientv3 balances round-robin"
    );
}

/// A worker that goes ahead without the lock has no token: fencing is not its remedy.
#[test]
fn fail_open_is_not_offered_fencing() {
    let r = builtin("consensus-quorum-loss-fail-open");
    let why = text_of(&r, "A proceeds without the lock (fail-open)");
    assert!(!why.contains("fencing or idempotency"), "{why}");
    assert!(why.contains("no token to show"), "{why}");
}

/// The duplicate write's answer says the payouts went out a second time (step 34 of
/// naive-gc-pause used to repeat step 23's "applied the payouts and marked the batch paid").
#[test]
fn the_answer_to_a_duplicate_write_says_it_paid_again() {
    let r = builtin("naive-gc-pause");
    let first = explanation(&r, 8005, "applied 3");
    assert_eq!(
        first,
        "The database applied the payouts and marked the batch paid."
    );
    let again = explanation(&r, 11001, "applied 3");
    assert!(
        again.starts_with("The database applied the payouts a second time: 3 of them"),
        "{again}"
    );
}

/// B's "holds the lock" says that A still believes too: the step where the picture's overlap
/// band begins. The verdict so far names the overlap at that very step (it used to wait for
/// the next one, two steps later, because the overlap was 0 ms long).
#[test]
fn two_believers_are_named_at_the_step_both_begin() {
    let scenario = catalogue::load("naive-gc-pause").unwrap().unwrap();
    let r = run(&scenario);
    let holds = explanation(&r, 6002, "B holds the lock");
    assert!(
        holds.ends_with("But A has not let go: it still believes it holds the lock too, so two workers now believe they do."),
        "{holds}"
    );
    // A's own "holds the lock" has no one else to name.
    assert!(!explanation(&r, 2, "A holds the lock").contains("has not let go"));

    let step = step_of(&r, "B holds the lock");
    let mut session = Session::new(&scenario);
    session.seek(step - 1);
    assert!(
        session.verdict().overlaps.is_empty(),
        "no overlap before B believes"
    );
    session.seek(step);
    let overlaps = session.verdict().overlaps;
    assert_eq!(overlaps.len(), 1, "{overlaps:?}");
    assert_eq!(
        overlaps[0].sentence(),
        "A and B both believe they hold the lock since 6002 ms"
    );
    // The finished run's overlap is closed and worded in the past, as before.
    let end = r.verdict.overlaps[0].sentence();
    assert!(
        end.starts_with("A and B both believed they held the lock from 6002 to "),
        "{end}"
    );
}

/// A late compare-and-delete finds the key gone, and says who took and released it since
/// (it used to say "perhaps someone else took it" after the picture had shown B do both).
#[test]
fn a_late_release_says_who_took_the_lock_since() {
    let r = builtin("naive-gc-pause");
    let gone = text_of(&r, "(integer) 0: not the holder");
    assert!(
        gone.contains("it expired at 5002 ms, and B has taken the lock and released it since"),
        "{gone}"
    );
}

/// The fenced acquire reads as one sentence about one atomic function call.
#[test]
fn the_fenced_acquire_is_one_function_call() {
    let r = builtin("fenced-gc-pause");
    let ask = explanation(&r, 0, "FCALL acquire 2 lock:batch-42 fence 67094c 5000");
    assert!(
        ask.starts_with("A asks redis for the lock and a fencing token in one atomic step, by calling the function acquire (FCALL;"),
        "{ask}"
    );
    assert!(!ask.contains("that runs this SET"), "{ask}");
}

/// Chubby bounds lock-delay at one minute; a longer one is refused where it is written.
#[test]
fn a_lock_delay_beyond_chubbys_minute_is_refused() {
    let body = "[lock]\nkind = \"consensus\"\nlock_delay_ms = 60001\n[[workers]]\nname = \"A\"\n";
    let text = format!("{HEAD}{body}");
    let err = lockstep_core::parse_scenario("t.toml", text.as_bytes()).unwrap_err();
    // Exactly a minute is Chubby's own bound, and runs.
    let minute = run_text(HEAD, &body.replace("60001", "60000"));
    assert!(!minute.trace.events.is_empty());
    let said = err.to_string();
    assert!(
        said.contains("lock_delay_ms") && said.contains("60000"),
        "{said}"
    );
}

/// The late "locked" drawn to A in consensus-uncommitted-entry-commits is said to be the
/// model's: etcd drops the waiter of a request whose client gave up (a re-review).
#[test]
fn the_late_answer_etcd_never_sends_is_called_the_models() {
    let r = builtin("consensus-uncommitted-entry-commits");
    let late = text_of(&r, "A ignores a late answer");
    assert!(late.contains("Real etcd sends A no such answer"), "{late}");
}
