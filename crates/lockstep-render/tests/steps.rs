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

/// At every step of every built-in run, the so-far footer's numbers (the timeline's and the lease
/// chart's: both count with `SoFar::upto`) agree with each other (money paid twice needs at least
/// two accepted writes, counted from the same events) and never exceed the run's final record.
#[test]
fn so_far_numbers_agree_at_every_step() {
    use lockstep_render::layout;
    use lockstep_render::lease::SoFar;
    let mut failures = Vec::new();
    for (id, _, run) in common::catalogue() {
        let v = &run.verdict;
        let events = &run.trace.events;
        let half = events.len() / 2;
        let drawn = layout(
            &run.trace,
            &Options {
                upto_step: Some(half),
                ..Options::default()
            },
        )
        .so_far;
        if drawn != SoFar::upto(events, half) {
            failures.push(format!("{id} step {half}: the timeline counts differently"));
        }
        let mut last = None;
        for step in 1..=events.len() {
            let f = SoFar::upto(events, step);
            if f.cents_paid_twice > 0 && f.writes_accepted < 2 {
                failures.push(format!(
                    "{id} step {step}: {} cents paid twice with {} write(s) accepted",
                    f.cents_paid_twice, f.writes_accepted
                ));
            }
            if (f.cents_paid_twice > 0) != (f.payouts_paid_twice > 0) {
                failures.push(format!(
                    "{id} step {step}: money and payouts paid twice disagree"
                ));
            }
            if f.writes_accepted > v.writes_accepted
                || f.writes_rejected > v.writes_rejected
                || f.payouts_paid_twice > v.payouts_duplicated
                || f.cents_paid_twice > v.money_paid_twice_cents
            {
                failures.push(format!("{id} step {step}: {f:?} exceeds the final {v:?}"));
            }
            last = Some(f);
        }
        if let Some(f) = last
            && (f.writes_accepted, f.writes_rejected, f.cents_paid_twice)
                != (
                    v.writes_accepted,
                    v.writes_rejected,
                    v.money_paid_twice_cents,
                )
        {
            failures.push(format!("{id}: last step {f:?} is not the final {v:?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The review's case: redis-sentinel-split-brain step 44 (the DUPLICATE) paid twice with the
/// write that did it counted as accepted.
#[test]
fn sentinel_step_44_counts_the_duplicate_write() {
    let svg = step_svg("redis-sentinel-split-brain", Some(44), TimeMode::Logical);
    assert!(svg.contains("paid twice"), "step 44 shows no money lost");
    assert!(
        svg.contains("writes accepted: 2"),
        "step 44 counts one write"
    );
}

/// (x, width, the element) of every `<rect>` of `svg` whose attributes contain `needle`.
fn rects_with(svg: &str, needle: &str) -> Vec<(f64, f64, String)> {
    let attr = |r: &str, name: &str| -> f64 {
        let key = format!(" {name}=\"");
        r.find(&key)
            .and_then(|i| r[i + key.len()..].split('"').next())
            .and_then(|v| v.parse().ok())
            .unwrap_or(f64::NAN)
    };
    svg.split('<')
        .filter(|e| e.starts_with("rect ") && e.contains(needle))
        .map(|e| (attr(e, "x"), attr(e, "width"), e.to_string()))
        .collect()
}

#[test]
fn the_current_step_is_outlined_and_never_repaints_the_bands_over_the_lanes() {
    use lockstep_render::style;
    // fenced-gc-pause #33 is the refused row (green); redlock-clock-jump #48 is where the danger
    // band begins.
    for (id, step) in [("fenced-gc-pause", 33), ("redlock-clock-jump", 48)] {
        let (scenario, run) = common::load(id);
        let options = Options {
            upto_step: Some(step),
            ..Options::default().for_scenario(&scenario)
        };
        let l = lockstep_render::layout(&run.trace, &options);
        let svg = run_svg(&scenario, &run, &options).expect("draws");
        let current = format!("fill=\"{}\"", style::CURRENT.hex());
        for (x, w, e) in rects_with(&svg, &current) {
            // The step column's marker, and the legend's swatch right of the lanes.
            let over_lanes = x < l.area.x1 && x + w > l.area.x0;
            assert!(
                !over_lanes,
                "{id} #{step}: a current-step fill over the lanes: {e}"
            );
        }
        // Its outline: bars of the outline colour along the row's top and bottom, wider than
        // the lanes, CURRENT_OUTLINE_WIDTH high.
        let fill = format!("fill=\"{}\"", style::CURRENT_OUTLINE.hex());
        let h = format!("height=\"{}\"", style::CURRENT_OUTLINE_WIDTH);
        let edges = rects_with(&svg, &fill)
            .into_iter()
            .filter(|(x, w, e)| e.contains(&h) && *x < l.area.x0 && x + w > l.area.x1)
            .count();
        assert_eq!(edges, 2, "{id} #{step}: no outline round the current row");
    }
    // The meaning under the current row is drawn as ever: the refused row's green, the start of
    // the danger band.
    let svg = step_svg("fenced-gc-pause", Some(33), TimeMode::Logical);
    assert!(svg.contains(&format!("fill=\"{}\"", style::REFUSED_ROW.hex())));
    let svg = step_svg("redlock-clock-jump", Some(48), TimeMode::Logical);
    assert!(
        svg.contains(&format!(
            "opacity=\"{}\" fill=\"{}\"",
            style::DANGER_BAND_ALPHA,
            style::DANGER.hex()
        )),
        "no danger band at the step where it begins"
    );
}

/// At every step of every built-in run, the so-far numbers the pictures print (the timeline's
/// footer, the lease chart's verdict) are the core's verdict so far, which the app shows beside
/// them: at naive-gc-pause #22, where the database applies B's write, the lease chart said
/// "writes accepted: 0" and the panel "payouts applied: 3 of 3". Both now count the write from
/// #23, the database's reply, and a double write from its DUPLICATE row.
#[test]
fn so_far_numbers_are_the_cores_at_every_step() {
    use lockstep_core::session::Session;
    use lockstep_render::lease::SoFar;
    let mut failures = Vec::new();
    for (id, scenario, run) in common::catalogue() {
        let events = &run.trace.events;
        let mut session = Session::new(&scenario);
        for step in 1..=events.len() {
            session.step();
            let (core, drawn) = (session.verdict(), SoFar::upto(events, step));
            if (drawn.writes_accepted, drawn.writes_rejected)
                != (core.writes_accepted, core.writes_rejected)
            {
                failures.push(format!(
                    "{id} step {step}: drawn {} accepted, {} refused; the core {} and {}",
                    drawn.writes_accepted,
                    drawn.writes_rejected,
                    core.writes_accepted,
                    core.writes_rejected
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
