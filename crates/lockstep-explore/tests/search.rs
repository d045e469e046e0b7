//! The search: proofs within bounds for the safe designs, shortest counterexamples for the broken
//! ones, shrinking, the counterexample file, and stepping.

use lockstep_core::catalogue;
use lockstep_core::scenario::{FaultKind, Scenario, parse_scenario};
use lockstep_explore::search::{
    Bounds, Kinds, Progress, Schedule, Search, counterexample_toml, hangs_on_a_tie, shrink,
    with_faults,
};

fn scenario(id: &str) -> Scenario {
    catalogue::load(id).unwrap().unwrap()
}

fn only(kinds: &str) -> Kinds {
    Kinds::parse(kinds).unwrap()
}

fn search(s: &Scenario, bounds: Bounds) -> (Search, Progress) {
    let mut search = Search::new(s, bounds).unwrap();
    let progress = search.run();
    (search, progress)
}

/// The counterexample's scenario, as `lockstep run` opens it, really double-writes.
fn assert_replays(original: &Scenario, search: &Search, schedule: &Schedule) {
    let toml = counterexample_toml(original, search.workload(), schedule).unwrap();
    let reopened = parse_scenario("cex.toml", toml.as_bytes()).unwrap();
    assert_eq!(reopened.faults.len(), schedule.faults.len());
    assert_eq!(reopened.order.len(), schedule.orders.len());
    let run = lockstep_core::run(&reopened);
    assert_eq!(run.verdict.outcome.as_str(), "double-write", "{toml}");
    for (i, _) in schedule.faults.iter().enumerate() {
        assert!(toml.contains(&format!("# fault {}:", i + 1)), "{toml}");
    }
    for (i, _) in schedule.orders.iter().enumerate() {
        assert!(toml.contains(&format!("# order {}:", i + 1)), "{toml}");
    }
}

#[test]
fn fenced_every_access_has_no_double_write_under_two_pauses() {
    let s = scenario("fenced-every-access");
    let mut b = Bounds::for_scenario(&s);
    b.kinds = only("pause");
    assert_eq!(b.max_reorders, 1, "the delivery order is searched too");
    let (search, progress) = search(&s, b);
    assert!(
        search
            .describe_bounds()
            .contains("up to 1 time(s) per schedule"),
        "{}",
        search.describe_bounds()
    );
    match progress {
        Progress::Exhausted { stats, complete } => {
            assert!(complete);
            assert!(stats.states > 10_000, "{stats:?}");
            assert!(
                stats.reorders > 0,
                "some messages were due at once: {stats:?}"
            );
            assert_eq!(stats.faults, 2);
        }
        other => panic!("expected no double write, got {other:?}"),
    }
}

#[test]
fn consensus_fenced_failover_has_no_double_write_under_pauses_and_crashes() {
    let s = scenario("consensus-fenced-failover");
    let mut b = Bounds::for_scenario(&s);
    b.kinds = only("pause,crash");
    b.step_ms = 200;
    b.to_ms = 2600;
    assert_eq!(b.max_reorders, 1);
    let (search, progress) = search(&s, b);
    // The menu really contains node crashes (the scenario's own kind of failure).
    assert!(
        search.menu().iter().any(
            |c| c.fault.kind == FaultKind::Crash && c.fault.target.as_deref() == Some("node-1")
        )
    );
    assert!(
        matches!(progress, Progress::Exhausted { complete: true, stats } if stats.reorders > 0),
        "{progress:?}"
    );
}

#[test]
fn fenced_gc_pause_breaks_when_the_stale_write_lands_first() {
    let s = scenario("fenced-gc-pause");
    let (search, progress) = search(&s, Bounds::for_scenario(&s));
    let Progress::Found(found) = progress else {
        panic!("expected a double write, got {progress:?}")
    };
    assert_eq!(found.faults.len(), 1);
    assert_eq!(found.faults[0].kind, FaultKind::Pause);
    assert_replays(&s, &search, &found.schedule());
    // The stale write (token 33) is accepted after B's check and before B's write.
    let run = lockstep_core::run(&with_faults(search.workload(), &found.faults));
    let labels: Vec<&str> = run.trace.events.iter().map(|e| e.label.as_str()).collect();
    let a_write = run
        .trace
        .events
        .iter()
        .position(|e| e.from == 0 && e.label.starts_with("write"))
        .unwrap();
    let b_check = run
        .trace
        .events
        .iter()
        .position(|e| e.from == 1 && e.label.starts_with("read status"))
        .unwrap();
    assert!(b_check < a_write, "{labels:?}");
}

#[test]
fn naive_happy_path_breaks_with_one_pause_and_shrinks_to_one_pause_every_time() {
    let s = scenario("naive-happy-path");
    let shrunk = || {
        let (search, progress) = search(&s, Bounds::for_scenario(&s));
        let Progress::Found(found) = progress else {
            panic!("expected a double write, got {progress:?}")
        };
        assert_eq!(found.faults.len(), 1, "breadth-first: one fault is enough");
        let small = shrink(search.workload(), &found.schedule(), search.bounds().to_ms);
        assert_replays(&s, &search, &small);
        assert!(
            small.orders.is_empty(),
            "no delivery order is needed: {small:?}"
        );
        small.faults
    };
    let first = shrunk();
    assert_eq!(first.len(), 1);
    assert_eq!(first[0].kind, FaultKind::Pause);
    let pause = first[0].duration_ms.unwrap();
    // Shrinking shortened the pause to within a 10 ms margin: 10 ms shorter no longer breaks.
    let (work, _) = search(&s, Bounds::for_scenario(&s));
    let mut shorter = first.clone();
    shorter[0].duration_ms = Some(pause - 10);
    assert!(!lockstep_explore::search::breaks(
        work.workload(),
        &Schedule::faults(&shorter)
    ));
    assert_eq!(shrunk(), first, "shrinking is deterministic");
}

#[test]
fn redlock_happy_path_breaks_with_restarts_or_clock_jumps() {
    let s = scenario("redlock-happy-path");
    let mut b = Bounds::for_scenario(&s);
    b.kinds = only("restart,clock-jump");
    // A holds all five instances from a few ms on; B starts at 1.5 s. Every fault hits at 1 s.
    b.from_ms = 1000;
    b.to_ms = 1000;
    b.max_faults = 3;
    let (search, progress) = search(&s, b.clone());
    let Progress::Found(found) = progress else {
        panic!("expected a double write, got {progress:?}")
    };
    // A majority of three of A's five keys must go.
    assert_eq!(found.faults.len(), 3);
    assert!(
        found
            .faults
            .iter()
            .all(|f| matches!(f.kind, FaultKind::Restart | FaultKind::ClockJump))
    );
    assert_replays(&s, &search, &found.schedule());
    b.max_faults = 2;
    let (_, fewer) = Search::new(&s, b)
        .map(|mut x| {
            let p = x.run();
            (x, p)
        })
        .unwrap();
    assert!(matches!(fewer, Progress::Exhausted { complete: true, .. }));
}

#[test]
fn fenced_redis_breaks_once_a_failover_to_a_lagging_replica_is_allowed() {
    let mut s = scenario("fenced-every-access");
    s.lock.replica_lag_ms = Some(500);
    let mut b = Bounds::for_scenario(&s);
    b.kinds = only("pause,failover");
    b.pauses_ms = vec![10_000];
    b.step_ms = 500;
    let (search, progress) = search(&s, b.clone());
    let Progress::Found(found) = progress else {
        panic!("expected a double write, got {progress:?}")
    };
    assert!(
        found.faults.iter().any(|f| f.kind == FaultKind::Failover),
        "{found:?}"
    );
    assert_eq!(found.faults.len(), 2);
    assert_replays(&s, &search, &found.schedule());
    // Without a replica there is nothing to fail over to, and the bounds say so.
    let plain = scenario("fenced-every-access");
    let without = Search::new(&plain, b.clone()).unwrap();
    assert!(
        !without.describe_bounds().contains("fail"),
        "{}",
        without.describe_bounds()
    );
    // Without the failover the same bounds find nothing.
    b.kinds = only("pause");
    let (_, progress) = self::search(&s, b);
    assert!(matches!(
        progress,
        Progress::Exhausted { complete: true, .. }
    ));
}

#[test]
fn stepping_reports_progress_and_ends_as_run_does() {
    let s = scenario("fenced-gc-pause");
    let mut search = Search::new(&s, Bounds::for_scenario(&s)).unwrap();
    let mut last = 0;
    let mut calls = 0;
    let found = loop {
        calls += 1;
        match search.step(100) {
            Progress::Running(stats) => {
                assert!(stats.steps >= last);
                last = stats.steps;
            }
            Progress::Found(f) => break f,
            other => panic!("{other:?}"),
        }
    };
    assert!(calls > 3, "small budgets return often");
    // Stepping on after the end keeps the answer.
    assert!(matches!(search.step(100), Progress::Found(_)));
    let (_, whole) = self::search(&s, Bounds::for_scenario(&s));
    let Progress::Found(at_once) = whole else {
        panic!()
    };
    assert_eq!(found.faults, at_once.faults);
}

#[test]
fn bad_bounds_are_refused_with_a_reason() {
    let s = scenario("fenced-gc-pause");
    let mut b = Bounds::for_scenario(&s);
    b.step_ms = 0;
    let e = Search::new(&s, b).unwrap_err().to_string();
    assert!(e.contains("step must be greater than 0"), "{e}");
    let mut b = Bounds::for_scenario(&s);
    b.pauses_ms = vec![0];
    let e = Search::new(&s, b).unwrap_err().to_string();
    assert!(e.contains("longer than 0"), "{e}");
    assert!(
        Kinds::parse("pause,nap")
            .unwrap_err()
            .to_string()
            .contains("`nap`")
    );
}

/// Two fenced writes (fencing on writes only) reach the database at the same instant; the one sent
/// first, B's with token 34, lands first, so the file as written is safe.
fn same_instant_writes() -> Scenario {
    parse_scenario(
        "same-instant-writes.toml",
        include_bytes!("scenarios/same-instant-writes.toml"),
    )
    .unwrap()
}

#[test]
fn only_a_delivery_order_breaks_same_instant_writes() {
    let s = same_instant_writes();
    assert_eq!(lockstep_core::run(&s).verdict.outcome.as_str(), "safe");
    // No fault and the sent order: nothing to find.
    let mut b = Bounds::for_scenario(&s);
    b.kinds = Kinds::NONE;
    b.max_reorders = 0;
    let (_, progress) = search(&s, b.clone());
    assert!(
        matches!(progress, Progress::Exhausted { complete: true, .. }),
        "{progress:?}"
    );
    // With the default bounds, no fault is needed: A's write handled first breaks it.
    let shrunk = || {
        let (search, progress) = search(&s, Bounds::for_scenario(&s));
        let Progress::Found(found) = progress else {
            panic!("expected a double write, got {progress:?}")
        };
        assert!(found.faults.is_empty(), "{found:?}");
        assert!(!found.orders.is_empty(), "{found:?}");
        let small = shrink(search.workload(), &found.schedule(), search.bounds().to_ms);
        assert_replays(&s, &search, &small);
        (search, small)
    };
    let (search, small) = shrunk();
    assert!(small.faults.is_empty(), "{small:?}");
    let [order] = small.orders.as_slice() else {
        panic!("one order choice is enough: {small:?}")
    };
    assert_eq!(order.at_ms, 3005);
    assert_eq!(order.to, "db");
    assert_eq!(order.from.as_deref(), Some("A"));
    assert!(
        order.match_label.as_deref().unwrap().starts_with("write"),
        "{order:?}"
    );
    // Minimal: without it the run is safe.
    assert!(!lockstep_explore::search::breaks(
        search.workload(),
        &Schedule::default()
    ));
    assert_eq!(shrunk().1, small, "shrinking is deterministic");
    // The file names the choice and replays it: A's stale write is accepted first.
    let toml = counterexample_toml(&s, search.workload(), &small).unwrap();
    assert!(
        toml.contains("# order 1: where several messages are due at once, at 3005ms, db handles \"write 3 payouts token=33\" from A first"),
        "{toml}"
    );
    let run = lockstep_core::run(&parse_scenario("cex.toml", toml.as_bytes()).unwrap());
    let accepted: Vec<&str> = run
        .trace
        .events
        .iter()
        .filter(|e| e.kind == lockstep_core::EventKind::Send && e.label.starts_with("applied"))
        .map(|e| e.label.as_str())
        .collect();
    assert_eq!(accepted.len(), 2, "{accepted:?}");
    assert!(run.unapplied().is_empty(), "{:?}", run.unapplied());
}

/// A pause shrunk to the last millisecond that fails puts A's stale write and B's read at the
/// database at the same instant, where only the default order fails: the shrunk counterexamples
/// keep a margin instead, and fail whatever the order of their ties.
#[test]
fn shrunk_pauses_do_not_hang_on_a_same_instant_tie() {
    for id in ["naive-happy-path", "fenced-gc-pause", "redlock-happy-path"] {
        let s = scenario(id);
        let (search, progress) = search(&s, Bounds::for_scenario(&s));
        let Progress::Found(found) = progress else {
            panic!("{id}: expected a double write, got {progress:?}")
        };
        let small = shrink(search.workload(), &found.schedule(), search.bounds().to_ms);
        assert_eq!(small.faults.len(), 1, "{id}: {small:?}");
        assert!(small.orders.is_empty(), "{id}: {small:?}");
        assert_eq!(
            hangs_on_a_tie(search.workload(), &small),
            None,
            "{id}: {small:?}"
        );
    }
}

/// A schedule that fails only by the default order of a tie keeps failing when shrunk, and the
/// tie's order is written as an `[[order]]` entry.
#[test]
fn a_counterexample_that_hangs_on_a_tie_states_its_order() {
    let s = scenario("naive-happy-path");
    let (search, _) = search(&s, Bounds::for_scenario(&s));
    let work = search.workload();
    let mut pause = lockstep_core::scenario::Fault::new(FaultKind::Pause);
    pause.target = Some("A".into());
    pause.at_ms = Some(2004);
    pause.duration_ms = Some(3068);
    let tied = Schedule::faults(&[pause]);
    let tie = hangs_on_a_tie(work, &tied).expect("A's write and B's read reach db together");
    assert_eq!(tie.to, "db");
    assert_eq!(tie.from.as_deref(), Some("B"));
    let small = shrink(work, &tied, search.bounds().to_ms);
    assert_eq!(small.faults.len(), 1, "{small:?}");
    assert_eq!(small.orders.len(), 1, "{small:?}");
    assert_eq!(hangs_on_a_tie(work, &small), None, "{small:?}");
    assert_replays(&s, &search, &small);
}
