//! Logical rows say who does what: over every built-in scenario, both time modes and several
//! steps, a fan-out marks its sender on its row (a row reaching lanes on both sides of its sender
//! must not read as sent from its far end), and a highlighted row's tint stays over the lanes
//! (never over the gutter's step and time, nor the legend).

mod common;

use lockstep_render::layout::{HighlightKind, MarkKind};

#[test]
fn every_fan_out_marks_its_sender_on_its_lane() {
    let mut fan_outs = 0;
    common::each_layout(&[(1, 2)], |name, l| {
        for a in &l.arrows {
            let Some(leader) = a.group else { continue };
            let siblings = l
                .arrows
                .iter()
                .filter(|b| b.group == Some(leader) && b.start == a.start)
                .count();
            if siblings < 2 {
                continue;
            }
            fan_outs += 1;
            let x = l.lanes[a.from_lane].x;
            assert!(
                l.marks
                    .iter()
                    .any(|m| m.kind == MarkKind::Sender && m.at.x == x && m.at.y == a.start.y),
                "{name}: the fan-out {:?} from {} (step {}) has no sender mark at x={x}",
                a.label.text,
                l.lanes[a.from_lane].name,
                a.send_row + 1,
            );
        }
    });
    assert!(fan_outs > 0, "the catalogue has fan-outs to check");
}

#[test]
fn row_tints_stay_off_the_gutter_and_the_legend() {
    let mut tints = 0;
    common::each_layout(&[(1, 2)], |name, l| {
        for h in &l.highlights {
            let Some(tint) = l.tint_rect(h) else {
                assert_eq!(h.kind, HighlightKind::Current, "{name}: {h:?} has no tint");
                continue;
            };
            tints += 1;
            for r in &l.rows {
                assert!(
                    !tint.overlaps(&r.gutter.rect),
                    "{name}: the {:?} tint of step {} runs over step {}'s {:?} in the gutter",
                    h.kind,
                    h.row + 1,
                    r.step,
                    r.gutter.text,
                );
            }
            for e in &l.legend {
                assert!(
                    !tint.overlaps(&e.text.rect.union(&e.swatch)),
                    "{name}: the {:?} tint of step {} runs under the legend's {:?}",
                    h.kind,
                    h.row + 1,
                    e.text.text,
                );
            }
        }
    });
    assert!(tints > 0, "the catalogue has refused and duplicate rows");
}
