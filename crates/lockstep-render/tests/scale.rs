//! To scale, the axis keeps one scale: a tick at every round time wherever the scale holds, a
//! held-up message as long as its time in the network, and zoom brackets that name a real span.

mod common;

use lockstep_render::layout::StretchKind;
use lockstep_render::{Options, TimeMode, layout};

fn to_scale(id: &str) -> lockstep_render::Layout {
    let (scenario, run) = common::load(id);
    let options = Options {
        time_mode: TimeMode::ToScale,
        ..Options::default()
    }
    .for_scenario(&scenario);
    layout(&run.trace, &options)
}

#[test]
fn every_second_has_its_tick() {
    for (id, last_s) in [
        ("naive-network-delay", 10),
        ("naive-gc-pause", 11),
        ("fenced-gc-pause", 11),
    ] {
        let l = to_scale(id);
        for s in 1..=last_s {
            assert!(
                l.ticks.iter().any(|t| t.time_ms == s * 1000),
                "{id}: no {s} s tick: {:?}",
                l.ticks.iter().map(|t| t.time_ms).collect::<Vec<_>>()
            );
        }
    }
}

#[test]
fn a_held_up_message_is_as_long_as_its_time_in_the_network() {
    let l = to_scale("naive-network-delay");
    // The write A sends at 2004 ms arrives at 10005 ms: its arrow spans 8001 ms of the axis,
    // give or take the bursts it crosses (a few rows' pitch).
    let a = l
        .arrows
        .iter()
        .find(|a| {
            a.end_row
                .is_some_and(|r| l.rows[r].time_ms - l.rows[a.send_row].time_ms > 7000)
        })
        .expect("the delayed write");
    let drawn = a.tip.y - a.start.y;
    let scaled = 8001.0 * l.ms_scale;
    assert!(
        drawn < scaled + 300.0,
        "drawn {drawn:.0} px for {scaled:.0} px of time"
    );
    for w in l.ticks.windows(2) {
        let px = w[1].y - w[0].y;
        let want = (w[1].time_ms - w[0].time_ms) as f64 * l.ms_scale;
        // Between two ticks the axis may hold a burst zoomed for reading, never a run of
        // empty lines.
        assert!(
            px < want + 200.0,
            "{} -> {} ms: {px:.0} px",
            w[0].time_ms,
            w[1].time_ms
        );
    }
}

#[test]
fn no_zoom_says_zero_ms() {
    for (id, scenario, run) in common::catalogue() {
        let options = Options {
            time_mode: TimeMode::ToScale,
            ..Options::default()
        }
        .for_scenario(&scenario);
        let l = layout(&run.trace, &options);
        for s in l.stretches.iter().filter(|s| s.kind == StretchKind::Zoom) {
            if let Some(label) = &s.label {
                assert!(label.text != "zoom: 0 ms", "{id}: {:?}", s);
            }
        }
    }
}

#[test]
fn constant_pixels_per_second_between_ticks_outside_breaks_and_zooms() {
    let mut report = Vec::new();
    for (id, scenario, run) in common::catalogue() {
        let options = Options {
            time_mode: TimeMode::ToScale,
            ..Options::default()
        }
        .for_scenario(&scenario);
        let l = layout(&run.trace, &options);
        let marked = |y0: f64, y1: f64| {
            l.stretches
                .iter()
                .any(|s| s.y0 < y1 - 0.5 && s.y1 > y0 + 0.5)
        };
        let mut checked = 0;
        for w in l.ticks.windows(2) {
            let (a, b) = (&w[0], &w[1]);
            if marked(a.y, b.y) {
                continue;
            }
            let want = (b.time_ms - a.time_ms) as f64 * l.ms_scale;
            let px = b.y - a.y;
            assert!(
                (px - want).abs() < 2.0,
                "{id}: {} -> {} ms is {px:.1} px, not {want:.1} px at the picture's scale",
                a.time_ms,
                b.time_ms
            );
            checked += 1;
        }
        report.push(format!(
            "{id}: {checked} tick gaps at one scale, {:.0} px tall",
            l.height
        ));
    }
    println!("{}", report.join("\n"));
}
