//! The lease chart tells each story: tokens, incidents, long flights, a fixed axis while
//! stepping, and a step render's footer with the record so far.

mod common;

use lockstep_core::Tag;
use lockstep_render::lease::svg::LeasePage;
use lockstep_render::lease::{LeaseRowKind, lease_chart};
use lockstep_render::{Caption, Options};

fn upto(step: usize) -> Options {
    Options {
        upto_step: Some(step),
        ..Options::default()
    }
}

#[test]
fn the_axis_stays_fixed_and_marks_stay_inside_it() {
    for (id, scenario, run) in common::catalogue() {
        let caption = Caption::for_run(&scenario, &run);
        let total = run.trace.events.len();
        let full = LeasePage::new(&lease_chart(&run.trace, &Options::default()), &caption);
        for step in [1, total / 3, total / 2, total] {
            let chart = lease_chart(&run.trace, &upto(step));
            let page = LeasePage::new(&chart, &caption);
            assert_eq!(page.plot.x1, full.plot.x1, "{id} step {step}");
            for t in [0, 1000, 5000] {
                assert_eq!(page.x(t), full.x(t), "{id} step {step}: axis moved");
            }
            for m in &chart.marks {
                let x = page.x(m.at_ms);
                assert!(x >= page.plot.x0 && x <= page.plot.x1, "{id}: mark outside");
            }
            let texts: Vec<&str> = page.texts.iter().map(|t| t.text.text.as_str()).collect();
            if step < total {
                assert!(
                    texts
                        .iter()
                        .any(|t| t.starts_with(&format!("So far (step {step} of"))),
                    "{id} step {step}: no record so far"
                );
                assert!(!texts.iter().any(|t| t.starts_with("Verdict")), "{id}");
            }
        }
    }
}

#[test]
fn every_incident_is_on_the_chart() {
    for (id, _, run) in common::catalogue() {
        let chart = lease_chart(&run.trace, &Options::default());
        let incidents = run
            .trace
            .events
            .iter()
            .filter(|e| {
                matches!(
                    e.tag,
                    Some(
                        Tag::Crashed
                            | Tag::Restarted { .. }
                            | Tag::FailedOver
                            | Tag::ClockJumped { .. }
                            | Tag::Leader { .. }
                            | Tag::Partition { .. }
                            | Tag::Healed
                    )
                )
            })
            .count();
        assert_eq!(chart.incidents.len(), incidents, "{id}");
    }
}

#[test]
fn tokens_and_long_flights_are_shown() {
    let (_, run) = common::load("fenced-gc-pause");
    let chart = lease_chart(&run.trace, &Options::default());
    let tokens: Vec<u64> = chart
        .rows
        .iter()
        .filter(|r| r.kind == LeaseRowKind::ServiceHolds)
        .flat_map(|r| r.intervals.iter().filter_map(|i| i.token))
        .collect();
    assert!(tokens.contains(&33) && tokens.contains(&34), "{tokens:?}");
    let (_, run) = common::load("naive-network-delay");
    let chart = lease_chart(&run.trace, &Options::default());
    let write = chart
        .flights
        .iter()
        .find(|f| f.label.starts_with("write"))
        .expect("A's write in flight");
    assert!(write.to_ms.unwrap_or(0) - write.from_ms >= 8000);
}

#[test]
fn every_step_of_a_run_has_one_page_size() {
    for (id, scenario, run) in common::catalogue() {
        let total = run.trace.events.len();
        let sizes: Vec<String> = [1, 5, total / 3, total / 2, total - 1, total]
            .into_iter()
            .map(|step| {
                let svg =
                    lockstep_render::run_lease_svg(&scenario, &run, &upto(step)).expect("draws");
                let head = svg.split('>').next().unwrap_or_default();
                let at = head.find(" width=").expect("width");
                head[at..].split(' ').take(3).collect::<Vec<_>>().join(" ")
            })
            .collect();
        assert!(sizes.windows(2).all(|w| w[0] == w[1]), "{id}: {sizes:?}");
    }
}
