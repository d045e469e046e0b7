//! Sweeps: the safety map's boundary against the arithmetic, agreement with a plain run, and the
//! errors a user sees.

use lockstep_core::catalogue;
use lockstep_core::scenario::Scenario;
use lockstep_explore::{Axis, ExploreError, RunOutcome, Sweep};
use proptest::prelude::*;

fn scenario(id: &str) -> Scenario {
    catalogue::load(id).unwrap().unwrap()
}

/// naive-gc-pause: A is granted the key at 1 ms (it expires after `ttl` on Redis's clock), checks
/// the batch at 3 ms and pauses at 1 s. B starts at 6 s; its SET reaches Redis at 6001 ms and, while
/// the key lives, again every 102 ms (1 ms there, 1 ms back, 100 ms retry). B's check reaches the
/// database 2 ms after its SET is granted. A's write reaches the database 1 ms after it resumes.
/// The batch is paid twice exactly when the pause outlasts A's remaining lease by enough for B to
/// get the lock and check before A's write lands.
fn predicted(pause: i64, ttl: i64) -> (bool, i64) {
    let expiry = 1 + ttl;
    let mut b_set = 6001;
    while b_set <= expiry {
        b_set += 102;
    }
    let b_check = b_set + 2;
    let a_write = 1000 + pause + 1;
    (a_write > b_check, a_write - b_check)
}

#[test]
fn naive_gc_pause_boundary_is_where_the_pause_outlasts_the_remaining_lease() {
    let s = scenario("naive-gc-pause");
    let axes = vec![
        Axis::parse("pause=500ms..20s/250ms").unwrap(),
        Axis::parse("ttl=1s..12s/500ms").unwrap(),
    ];
    let result = Sweep::new(&s, axes).unwrap().run();
    let (xa, ya) = (&result.axes[0], &result.axes[1]);
    let mut checked = 0;
    for i in 0..xa.len() {
        for j in 0..ya.len() {
            let (pause, ttl) = (xa.value(i), ya.value(j));
            let (double, margin) = predicted(pause, ttl);
            if margin.abs() <= 3 {
                continue; // same instant: the queue's order decides, not the arithmetic
            }
            checked += 1;
            let got = result.outcome_at(&[i, j]);
            let want = if double {
                RunOutcome::DoubleWrite
            } else {
                RunOutcome::Safe
            };
            assert_eq!(got, want, "pause={pause} ttl={ttl}");
        }
    }
    assert!(checked > 1500);
    // Both sides of the boundary are on the map, and the scenario's own point (10 s, 5 s) is in it.
    let counts = result.counts();
    assert!(counts[&RunOutcome::Safe] > 100 && counts[&RunOutcome::DoubleWrite] > 100);
    assert_eq!(result.own_point, vec![Some(10_000), Some(5_000)]);
}

#[test]
fn the_summary_names_the_double_writing_combinations() {
    let s = scenario("naive-gc-pause");
    let axes = vec![
        Axis::parse("ttl=5s..7s/1s").unwrap(),
        Axis::parse("pause=1s..10s/1s").unwrap(),
    ];
    let result = Sweep::new(&s, axes).unwrap().run();
    let lines = result.describe(RunOutcome::DoubleWrite);
    // ttl 5 s and 6 s: B checks at about 6.0 s and 6.1 s, so A must resume after that (6 s pause is
    // 7 s); ttl 7 s: B only gets the key at 7.2 s.
    assert_eq!(
        lines,
        vec![
            "ttl=5s pause=6s..10s",
            "ttl=6s pause=6s..10s",
            "ttl=7s pause=7s..10s"
        ]
    );
}

#[test]
fn sweep_errors_say_what_is_wrong() {
    let happy = scenario("naive-happy-path");
    let e = Sweep::new(&happy, vec![Axis::parse("pause=1s..2s/1s").unwrap()]).unwrap_err();
    assert!(matches!(e, ExploreError::NotInScenario { .. }));
    assert!(e.to_string().contains("has no pause fault"), "{e}");
    let s = scenario("naive-gc-pause");
    let twice = vec![
        Axis::parse("ttl=1s..2s/1s").unwrap(),
        Axis::parse("ttl=3s").unwrap(),
    ];
    assert!(
        Sweep::new(&s, twice)
            .unwrap_err()
            .to_string()
            .contains("twice")
    );
    let huge = vec![
        Axis::parse("ttl=1ms..90s/1ms").unwrap(),
        Axis::parse("pause=1ms..90s/1ms").unwrap(),
    ];
    assert!(matches!(
        Sweep::new(&s, huge),
        Err(ExploreError::TooLarge { .. })
    ));
    let careful = scenario("careful-worker-still-loses");
    if careful.faults.iter().any(|f| f.after.is_some()) {
        let e = Sweep::new(&careful, vec![Axis::parse("pause-at=1s..2s/1s").unwrap()]).unwrap_err();
        assert!(e.to_string().contains("starts after an event"), "{e}");
    }
}

#[test]
fn invalid_combinations_are_counted_not_run() {
    let s = scenario("naive-gc-pause");
    let result = Sweep::new(&s, vec![Axis::parse("pause=0s..1s/1s").unwrap()])
        .unwrap()
        .run();
    assert_eq!(result.outcomes[0], RunOutcome::Invalid);
    let (_, problem) = result.first_invalid.clone().unwrap();
    assert!(problem.contains("duration_ms"), "{problem}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]
    #[test]
    fn every_cell_is_what_a_plain_run_of_that_scenario_gives(index in 0usize..400) {
        let s = scenario("fenced-gc-pause");
        let sweep = Sweep::new(&s, vec![
            Axis::parse("pause-at=0s..9.5s/500ms").unwrap(),
            Axis::parse("pause=500ms..10s/500ms").unwrap(),
        ]).unwrap();
        let (outcome, _) = sweep.run_one(index);
        let run = lockstep_core::run(&sweep.scenario_at(index));
        prop_assert_eq!(outcome.as_str(), run.verdict.outcome.as_str());
    }
}

#[test]
fn a_sweep_run_in_chunks_gives_what_it_gives_at_once() {
    let s = scenario("fenced-gc-pause");
    let sweep = Sweep::new(
        &s,
        vec![
            Axis::parse("pause-at=0s..3s/500ms").unwrap(),
            Axis::parse("pause=1s..9s/1s").unwrap(),
        ],
    )
    .unwrap();
    let mut outcomes = Vec::new();
    let mut start = 0;
    while start < sweep.len() {
        let end = (start + 7).min(sweep.len());
        outcomes.extend(sweep.run_range(start..end).into_iter().map(|(o, _)| o));
        start = end;
    }
    assert_eq!(sweep.result(outcomes, None), sweep.run());
}
