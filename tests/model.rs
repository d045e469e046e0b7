//! The simulator's mechanics, one small scenario each: the network, pauses, crashes, clocks and
//! the run's limits. Each case is `check(scenario, expect)`: the events that must appear, in order.

use lockstep_core::sim::End;
use lockstep_core::{Outcome, run};
use lockstep_tests::scenario;

const HEAD: &str = "name = \"m\"\ntitle = \"t\"\nsummary = \"s\"\nexpect = \"safe\"\n";

/// Runs `HEAD + body` and checks that `expect` appears as a subsequence of "time label" lines.
fn check(body: &str, expect: &[&str], outcome: Outcome, end: End) {
    let run = run(&scenario(&format!("{HEAD}{body}")));
    let lines: Vec<String> = run
        .trace
        .events
        .iter()
        .map(|e| format!("{} {}", e.time_ms, e.label))
        .collect();
    let mut at = 0;
    for want in expect {
        match lines[at..].iter().position(|l| l == want) {
            Some(i) => at += i + 1,
            None => panic!("missing {want:?} (in order) in:\n{}", lines.join("\n")),
        }
    }
    assert_eq!(run.verdict.outcome, outcome, "{}", lines.join("\n"));
    assert_eq!(run.end, end);
}

const ONE_WORKER: &str = "[lock]\nkind = \"redis\"\n[[workers]]\nname = \"A\"\nwork_ms = 100\n";

#[test]
fn a_paused_service_answers_when_it_resumes() {
    check(
        &format!(
            "{ONE_WORKER}[[faults]]\nkind = \"pause\"\ntarget = \"redis\"\nat_ms = 0\nduration_ms = 300\n"
        ),
        &[
            "0 redis paused for 300 ms",
            "1 SET lock:batch-42 67094c NX PX 5000",
            "300 redis resumes",
            "300 OK",
            "301 OK",
            "301 A holds the lock",
        ],
        Outcome::Safe,
        End::Finished,
    );
}

#[test]
fn a_partition_loses_requests_until_it_heals() {
    check(
        &format!(
            "{ONE_WORKER}[[faults]]\nkind = \"partition\"\nat_ms = 0\ngroups = [[\"A\"], [\"redis\"]]\n[[faults]]\nkind = \"heal\"\nat_ms = 1050\n"
        ),
        &[
            "0 lost: SET lock:batch-42 67094c NX PX 5000",
            "1000 no answer from the lock service",
            "1050 partition healed",
            "1100 SET lock:batch-42 67094c NX PX 5000",
            "1101 OK",
        ],
        Outcome::Safe,
        End::Finished,
    );
}

#[test]
fn a_dropped_write_leaves_the_batch_unpaid() {
    check(
        &format!("{ONE_WORKER}[[faults]]\nkind = \"drop\"\nmatch = \"write\"\n"),
        &[
            "104 dropped: write 3 payouts",
            "1104 no answer to the write",
            "1104 DELEX lock:batch-42 IFEQ 67094c",
        ],
        Outcome::NotProcessed,
        End::Finished,
    );
}

#[test]
fn a_fast_clock_expires_the_key_early_in_true_time() {
    // redis's clock runs 25% fast: 5000 ms on its clock pass in 4000 true ms (alive at its
    // expiry millisecond, gone one local millisecond later).
    check(
        "[lock]\nkind = \"redis\"\n[[workers]]\nname = \"A\"\nwork_ms = 6000\n[[clocks]]\nnode = \"redis\"\ndrift_ppm = 250000\n",
        &["1 OK", "4002 lock:batch-42 expired (A's TTL ran out)"],
        Outcome::Safe,
        End::Finished,
    );
}

#[test]
fn a_crashed_service_makes_fail_closed_workers_refuse() {
    check(
        "[lock]\nkind = \"redis\"\n[[workers]]\nname = \"A\"\nacquire_timeout_ms = 2500\n[[faults]]\nkind = \"crash\"\ntarget = \"redis\"\nat_ms = 0\n",
        &[
            "0 redis crashes",
            "1 lost: SET lock:batch-42 67094c NX PX 5000",
            "1000 no answer from the lock service",
            "2100 no answer from the lock service",
            "2500 no answer from the lock service",
            "2500 A refuses: no lock, no payouts (fail-closed)",
        ],
        Outcome::NotProcessed,
        End::Finished,
    );
}

#[test]
fn a_crashed_worker_never_writes_and_its_lock_expires() {
    check(
        "[lock]\nkind = \"redis\"\n[[workers]]\nname = \"A\"\n[[workers]]\nname = \"B\"\nstart_ms = 6000\n[[faults]]\nkind = \"crash\"\ntarget = \"A\"\nat_ms = 500\n",
        &[
            "500 A crashes",
            "500 A holds nothing",
            "5002 lock:batch-42 expired (A's TTL ran out)",
            "6001 OK",
            "8005 applied 3",
        ],
        Outcome::Safe,
        End::Finished,
    );
}

#[test]
fn the_time_limit_stops_a_run() {
    check(
        &format!(
            "[limits]\nmax_time_ms = 5000\n{ONE_WORKER}[[faults]]\nkind = \"pause\"\ntarget = \"A\"\nat_ms = 50\nduration_ms = 60000\n"
        ),
        &["50 A paused for 60000 ms", "5000 time limit reached"],
        Outcome::Inconclusive,
        End::TimeLimit,
    );
    let r = run(&scenario(&format!(
        "{HEAD}[limits]\nmax_time_ms = 5000\n{ONE_WORKER}[[faults]]\nkind = \"pause\"\ntarget = \"A\"\nat_ms = 50\nduration_ms = 60000\n"
    )));
    let last = r.trace.events.last().expect("a closing note");
    assert!(
        last.explanation.contains("limits.max_time_ms")
            && last.explanation.contains("inconclusive"),
        "{}",
        last.explanation
    );
}

#[test]
fn the_event_limit_stops_a_run() {
    let body = "[limits]\nmax_events = 40\n[lock]\nkind = \"redis\"\n[[workers]]\nname = \"A\"\nwork_ms = 5000\n[[workers]]\nname = \"B\"\nretry_ms = 1\n";
    let run = run(&scenario(&format!("{HEAD}{body}")));
    assert_eq!(run.end, End::EventLimit);
    assert_eq!(run.verdict.outcome, Outcome::Inconclusive);
    assert_eq!(run.trace.events.len(), 41, "40 events and the closing note");
    let last = run.trace.events.last().expect("a closing note");
    assert!(last.explanation.contains("limits.max_events"));
}

#[test]
fn message_latency_is_per_link() {
    check(
        &format!(
            "[network]\nlatency_ms = 5\n[[network.links]]\nbetween = [\"A\", \"db\"]\nlatency_ms = 40\n{ONE_WORKER}"
        ),
        &[
            "0 SET lock:batch-42 67094c NX PX 5000",
            "5 SET lock:batch-42 67094c NX PX 5000",
            "10 A holds the lock",
            "50 read status batch-42",
            "90 status: unpaid",
        ],
        Outcome::Safe,
        End::Finished,
    );
}
