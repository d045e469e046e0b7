//! A message in flight is drawn in flight, in logical time as well: one arrow slanted from its
//! send row to its arrival row (a message long in flight passes beneath the rows it crosses);
//! only a member of a round (a fan-out or fan-in) with no clear path arrives level, with a dashed
//! stub leaving the sender on its send row; in a step render before it arrives, the arrow stops
//! where the message is, marked as still in the network.

mod common;

use lockstep_render::layout::ArrowEnd;
use lockstep_render::{Layout, Options, TimeMode, layout};

/// Messages drawn level where they arrive with nothing on their send row.
fn unshown_sends(l: &Layout) -> Vec<String> {
    let mut out = Vec::new();
    for a in &l.arrows {
        let Some(end) = a.end_row else { continue };
        let (sent_y, end_y) = (l.rows[a.send_row].y, l.rows[end].y);
        let level_at_arrival = a.start.y == end_y && sent_y != end_y;
        // A fan-out's other arrows leave from the same point on the send row.
        let grouped = a.group.is_some()
            || l.arrows
                .iter()
                .any(|b| b.start.y == sent_y && b.start.x == a.start.x && b.send_row != a.send_row);
        if level_at_arrival && !grouped && !l.flights.iter().any(|f| f.send_row == a.send_row) {
            out.push(format!("{:?} (step {})", a.label.text, a.send_row + 1));
        }
    }
    out
}

#[test]
fn every_message_shows_where_it_was_sent() {
    let mut failures = Vec::new();
    common::each_layout(&[(1, 2), (3, 4)], |name, l| {
        for f in unshown_sends(l) {
            failures.push(format!("{name}: {f}"));
        }
        for f in &l.flights {
            // The stub leaves the sender on the send row, under its label.
            assert_eq!(f.start.y, l.rows[f.send_row].y, "{name}");
            assert_eq!(f.start.x, l.lanes[f.from_lane].x, "{name}");
            assert!(f.label.rect.y1 <= f.start.y, "{name}: label above its stub");
            // No stub runs through a label or a note.
            let boxes = l
                .arrows
                .iter()
                .map(|a| a.label.rect)
                .chain(l.notes.iter().map(|n| n.rect))
                .chain(l.flights.iter().filter(|g| *g != f).map(|g| g.label.rect));
            for r in boxes {
                let inside = lockstep_render::geom::inside_length(f.start, f.tip, &r);
                if inside > 1.0 {
                    failures.push(format!(
                        "{name}: stub of step {} through {r:?}",
                        f.send_row + 1
                    ));
                }
            }
        }
    });
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_delayed_write_is_drawn_in_flight() {
    let (_, run) = common::load("naive-network-delay");
    let l = layout(&run.trace, &Options::default());
    // Sent at step 10, delivered at step 30, 8 s later.
    let write = l
        .arrows
        .iter()
        .find(|a| a.send_row == 9)
        .expect("the write");
    assert_eq!(write.end_row, Some(29));
    // One arrow from its send to its arrival, labelled once at its start.
    assert_eq!(write.start.y, l.rows[9].y);
    assert_eq!(write.tip.y, l.rows[29].y);
    assert_eq!(
        write.label.text,
        "write 3 payouts — in flight 8001 ms, arrives #30"
    );
    assert!(l.flights.is_empty(), "no stub");
    // Step 20: still in the network, drawn from its send row and marked so.
    let at20 = layout(
        &run.trace,
        &Options {
            upto_step: Some(20),
            ..Options::default()
        },
    );
    let a = at20
        .arrows
        .iter()
        .find(|a| a.send_row == 9)
        .expect("in flight");
    assert_eq!(a.end, ArrowEnd::InFlight);
    assert_eq!(a.start.y, at20.rows[9].y);
    assert!(a.tip.x > a.start.x + 40.0, "a stub towards the database");
    assert!(at20.flights.is_empty());
}

#[test]
fn the_send_check_can_fail() {
    let (_, run) = common::load("naive-network-delay");
    let mut l = layout(&run.trace, &Options::default());
    assert!(unshown_sends(&l).is_empty());
    // Draw the delayed write level where it arrives, with nothing on its send row.
    let a = l
        .arrows
        .iter_mut()
        .find(|a| a.send_row == 9)
        .expect("the write");
    a.start.y = a.tip.y;
    assert_eq!(unshown_sends(&l).len(), 1);
}

#[test]
fn a_message_still_in_the_network_is_dashed() {
    let (scenario, run) = common::load("naive-network-delay");
    let gap = "stroke=\"#FFFFFF\" stroke-width=\"5\"";
    let svg = |upto| {
        let options = Options {
            upto_step: upto,
            ..Options::default()
        };
        lockstep_render::run_svg(&scenario, &run, &options).expect("draws")
    };
    // Step 20: the write is in the network; at the end it has arrived and nothing is.
    assert!(svg(Some(20)).contains(gap));
    assert!(!svg(None).contains(gap));
}

/// A stub of a message in flight points at its real receiver: its tip (where a step render
/// puts the "still in the network" ring) sits on no other lane's lifeline, in the full picture
/// and in the step render just after the send (naive-network-delay #10: A's write to db stopped
/// on redis's lifeline).
#[test]
fn stub_tips_sit_on_no_other_lane() {
    let mut failures = Vec::new();
    for (id, _, run) in common::catalogue() {
        for mode in [TimeMode::Logical, TimeMode::ToScale] {
            let options = Options {
                time_mode: mode,
                ..Options::default()
            };
            let full = layout(&run.trace, &options);
            let lanes: Vec<f64> = full.lanes.iter().map(|l| l.x).collect();
            let on_other = |tip_x: f64, to: usize| {
                lanes
                    .iter()
                    .enumerate()
                    .any(|(k, x)| k != to && (tip_x - x).abs() < 30.0)
            };
            for f in &full.flights {
                if on_other(f.tip.x, f.to_lane) {
                    failures.push(format!(
                        "{id} {mode:?}: stub of step {} stops on another lane",
                        f.send_row + 1
                    ));
                }
                let step = layout(
                    &run.trace,
                    &Options {
                        upto_step: Some(f.send_row + 1),
                        ..options
                    },
                );
                for a in step
                    .arrows
                    .iter()
                    .filter(|a| a.send_row == f.send_row && a.end == ArrowEnd::InFlight)
                {
                    if on_other(a.tip.x, a.to_lane) {
                        failures.push(format!(
                            "{id} {mode:?} --step {}: the in-flight ring sits on another lane",
                            f.send_row + 1
                        ));
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Every stub says what it is: a message drawn level where it arrives leaves its sender on its
/// send row under a label (its own, or for a fan-in's member the message's words and the step
/// it arrives at), never as a bare dashed line.
#[test]
fn every_stub_says_what_it_is() {
    let mut failures = Vec::new();
    common::each_layout(&[(1, 2), (3, 4)], |name, l| {
        for f in l.flights.iter().filter(|f| f.label.text.is_empty()) {
            failures.push(format!(
                "{name}: the stub of step {} ({} -> {}) has no label",
                f.send_row + 1,
                l.lanes[f.from_lane].name,
                l.lanes[f.to_lane].name
            ));
        }
    });
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// In logical time a slanted arrow goes down at most three lines: a longer one crosses rows it
/// has nothing to do with (redlock-split-votes had 16 running down 4 to 30 lines).
#[test]
fn logical_slants_are_short() {
    let mut failures = Vec::new();
    common::each_layout(&[(1, 2)], |name, l| {
        if l.mode != TimeMode::Logical {
            return;
        }
        let mut lines: Vec<f64> = l.rows.iter().map(|r| r.y).collect();
        lines.sort_by(f64::total_cmp);
        lines.dedup();
        // A message long in flight is one arrow from its send to its arrival however far
        // (beneath the rows it passes): only the others.
        for a in l
            .arrows
            .iter()
            .filter(|a| a.tip.y > a.start.y && !a.beneath)
        {
            let down = lines
                .iter()
                .filter(|&&y| y > a.start.y && y <= a.tip.y)
                .count();
            if down > 3 {
                failures.push(format!(
                    "{name}: the arrow of step {} goes down {down} lines",
                    a.send_row + 1
                ));
            }
        }
    });
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Whether send `i` is one of a round: another send at its instant from its sender to another
/// node (a fan-out), or to its receiver from another node (a fan-in).
fn in_a_round(trace: &lockstep_core::Trace, i: usize) -> bool {
    use lockstep_core::EventKind;
    let e = &trace.events[i];
    trace.events.iter().enumerate().any(|(j, f)| {
        j != i
            && f.kind == EventKind::Send
            && f.time_ms == e.time_ms
            && ((f.from == e.from && f.to != e.to) || (f.to == e.to && f.from != e.from))
    })
}

/// One message, one arrow: a message not of a round is drawn once, from its send row to its
/// arrival row, in both modes and every step render (redis-sentinel-split-brain's
/// "(integer) 1: extended" was a dashed stub at #47 and again "(sent #47)" at #50). (A member
/// of a round with no clear path still arrives level with a stub: slanted, the round's arrows
/// would cross, see tests/rows.rs.)
#[test]
fn a_single_message_is_one_arrow_from_its_send_to_its_arrival() {
    let mut failures = Vec::new();
    let runs: std::collections::BTreeMap<String, lockstep_core::Trace> = common::catalogue()
        .into_iter()
        .map(|(id, _, run)| (id, run.trace))
        .collect();
    let mut checked = 0;
    common::each_layout(&[(1, 2), (3, 4)], |name, l| {
        let id = name.split(' ').next().unwrap_or_default();
        let trace = &runs[id];
        for a in l
            .arrows
            .iter()
            .filter(|a| a.group.is_none() && !in_a_round(trace, l.rows[a.send_row].event))
        {
            checked += 1;
            let Some(end) = a.end_row else { continue };
            let twice = l.flights.iter().any(|f| f.send_row == a.send_row);
            if a.start.y != l.rows[a.send_row].y || a.tip.y != l.rows[end].y || twice {
                failures.push(format!(
                    "{name}: {:?} (step {} to {}) drawn from y {:.0} to {:.0}{}",
                    a.label.text,
                    a.send_row + 1,
                    end + 1,
                    a.start.y,
                    a.tip.y,
                    if twice { " with a stub" } else { "" }
                ));
            }
        }
    });
    assert!(checked > 1000, "{checked}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A member of a round drawn level where it arrives says what it alone carried: not the round's
/// label, which names every member (redlock-split-votes #37, B's SET to redis-1 alone, read
/// "SET … → 5 (redis-1…redis-5) (sent #6)").
#[test]
fn a_late_member_of_a_round_is_labelled_as_itself() {
    let mut seen = 0;
    common::each_layout(&[], |name, l| {
        for a in l.arrows.iter().filter(|a| a.label.text.contains("(sent #")) {
            seen += 1;
            let t = &a.label.text;
            assert!(
                !t.contains('\n') && !t.contains(" → ") && !t.contains(" · ") && !t.contains(" ×"),
                "{name}: step {}: {t:?}",
                a.send_row + 1
            );
        }
    });
    assert!(seen > 20, "{seen} arrivals labelled with their send");
}
