//! Step renders of the timeline tell the run so far, never its ending: the footer counts what
//! the database did up to the step and names only the danger zones that have begun.

mod common;

use lockstep_render::{Options, TimeMode, run_svg};

fn step_svg(id: &str, step: Option<usize>, mode: TimeMode) -> String {
    let (scenario, run) = common::load(id);
    let options = Options {
        time_mode: mode,
        upto_step: step,
        ..Options::default()
    };
    run_svg(&scenario, &run, &options).expect("draws")
}

#[test]
fn an_early_step_does_not_give_away_the_verdict() {
    for mode in [TimeMode::Logical, TimeMode::ToScale] {
        let svg = step_svg("naive-gc-pause", Some(5), mode);
        assert!(
            svg.contains("So far (step 5 of"),
            "{mode:?}: no so-far footer"
        );
        assert!(
            !svg.contains("Verdict"),
            "{mode:?}: step 5 shows the verdict"
        );
        assert!(
            svg.contains("nothing paid twice"),
            "{mode:?}: step 5 shows money lost"
        );
        assert!(
            !svg.contains("both believed they held") && !svg.contains("hold the lock since"),
            "{mode:?}: step 5 names a danger zone that has not begun"
        );
    }
}

#[test]
fn a_later_step_names_the_danger_that_has_begun_and_the_last_step_the_verdict() {
    let (_, run) = common::load("naive-gc-pause");
    let total = run.trace.events.len();
    let o = &run.verdict.overlaps[0];
    // The first step at or after the danger zone opens, before the run ends.
    let start = run
        .trace
        .events
        .iter()
        .position(|e| e.time_ms > o.from_ms)
        .expect("danger begins")
        + 1;
    let svg = step_svg("naive-gc-pause", Some(start), TimeMode::Logical);
    assert!(!svg.contains("Verdict"), "step {start} shows the verdict");
    assert!(
        svg.contains(&format!("since {} ms", o.from_ms))
            || svg.contains(&format!("from {} to", o.from_ms)),
        "step {start}: the danger zone that has begun is not named"
    );
    let last = step_svg("naive-gc-pause", Some(total), TimeMode::Logical);
    assert!(
        last.contains("Verdict: double-write"),
        "last step: no verdict"
    );
}
