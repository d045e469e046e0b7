//! A step render's legend lists only what that step's picture draws: the review's click-through
//! slides listed "message still in the network" with nothing in flight (redlock-clock-jump at
//! step 48) and "blue box across the lanes" with no such box drawn (fenced-gc-pause at step 33).

mod common;

use lockstep_render::layout::{ArrowEnd, LegendKind, MarkKind, NoteKind};
use lockstep_render::style;
use lockstep_render::{Options, TimeMode, layout};

const IN_FLIGHT: LegendKind = LegendKind::Mark(MarkKind::InFlight);

fn step(id: &str, n: usize, mode: TimeMode) -> (lockstep_render::Layout, String) {
    let (scenario, run) = common::load(id);
    let options = Options {
        upto_step: Some(n),
        time_mode: mode,
        ..Options::default().for_scenario(&scenario)
    };
    let svg = lockstep_render::run_svg(&scenario, &run, &options).expect("draws");
    (layout(&run.trace, &options), svg)
}

#[test]
fn the_reviews_two_step_slides_list_only_what_they_draw() {
    // Nothing is in the network at redlock-clock-jump's step 48 (B has just got its majority).
    let (l, svg) = step("redlock-clock-jump", 48, TimeMode::Logical);
    assert!(!l.arrows.iter().any(|a| a.end == ArrowEnd::InFlight));
    assert!(!l.legend.iter().any(|e| e.kind == IN_FLIGHT));
    assert!(!svg.contains("message still in the network"));
    // fenced-gc-pause's step 33: a reply is in the network (drawn dashed, ending in a circle),
    // and no box spans the lanes ("run complete" is step 41).
    let (l, svg) = step("fenced-gc-pause", 33, TimeMode::Logical);
    assert!(!l.notes.iter().any(|n| n.kind == NoteKind::Global));
    assert!(!l.legend.iter().any(|e| e.kind == LegendKind::GlobalNote));
    assert!(!svg.contains("blue box across the lanes"));
    assert!(l.arrows.iter().any(|a| a.end == ArrowEnd::InFlight));
    assert!(svg.contains("message still in the network"));
}

/// Over the catalogue's steps, in both time modes, as drawn in the SVG: the "blue box" entry
/// is there exactly when a blue box is, and the "in the network" entry exactly when a message
/// is drawn in flight.
#[test]
fn every_step_lists_the_blue_box_and_the_message_in_flight_only_when_drawn() {
    let global = {
        let c = style::GLOBAL_FILL;
        format!("fill=\"#{:02X}{:02X}{:02X}\"", c.0, c.1, c.2)
    };
    for (id, scenario, run) in common::catalogue() {
        let total = run.trace.events.len();
        for mode in [TimeMode::Logical, TimeMode::ToScale] {
            for n in [1, total / 4, total / 2, 3 * total / 4, total - 1] {
                let options = Options {
                    upto_step: Some(n.max(1)),
                    time_mode: mode,
                    ..Options::default().for_scenario(&scenario)
                };
                let svg = lockstep_render::run_svg(&scenario, &run, &options).expect("draws");
                let l = layout(&run.trace, &options);
                // The legend's own swatch is one blue box: a drawn one makes two.
                let boxes = svg.matches(global.as_str()).count();
                let listed = svg.contains("blue box across the lanes");
                assert_eq!(
                    listed,
                    boxes > usize::from(listed),
                    "{id} {mode:?} step {n}: {boxes} blue fills, listed {listed}"
                );
                let flying = l.arrows.iter().any(|a| a.end == ArrowEnd::InFlight);
                assert_eq!(
                    svg.contains("message still in the network"),
                    flying,
                    "{id} {mode:?} step {n}"
                );
            }
        }
    }
}
