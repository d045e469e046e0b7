//! A fan-out (Redlock's request to every instance) and its replies are drawn once each, in both
//! time modes: every arrow of a round ends at its own target lane with its head there, every
//! arrow has a label or belongs to a round whose one label names the count and the targets, and
//! the replies' row follows the request's row with no empty line between (redlock-happy-path
//! had an empty row between "#48..61" and "#54..67"; to scale it drew B's DELEX both collapsed
//! and again per instance, "(sent #49)").

mod common;

use lockstep_render::layout::ArrowEnd;
use lockstep_render::{Options, TimeMode, layout};

fn both_modes(id: &str) -> Vec<(TimeMode, lockstep_render::Layout)> {
    let (scenario, run) = common::load(id);
    [TimeMode::Logical, TimeMode::ToScale]
        .into_iter()
        .map(|mode| {
            let options = Options {
                time_mode: mode,
                ..Options::default()
            }
            .for_scenario(&scenario);
            (mode, layout(&run.trace, &options))
        })
        .collect()
}

#[test]
fn redlock_rounds_are_drawn_once_with_a_head_and_a_label_for_each_arrow() {
    for (mode, l) in both_modes("redlock-happy-path") {
        let mut members = 0;
        for a in &l.arrows {
            assert!(
                !a.label.text.contains("(sent #"),
                "{mode:?}: {:?} drawn again where it arrives",
                a.label.text
            );
            if a.end == ArrowEnd::Delivered {
                assert_eq!(
                    a.tip.x, l.lanes[a.to_lane].x,
                    "{mode:?}: a head off its lane"
                );
            }
            match a.group {
                Some(lead) => {
                    members += 1;
                    let label = l
                        .arrows
                        .iter()
                        .filter(|b| b.group == Some(lead))
                        .any(|b| !b.label.text.is_empty());
                    assert!(
                        label,
                        "{mode:?}: the round of step {} has no label",
                        lead + 1
                    );
                }
                None => assert!(
                    !a.label.text.is_empty(),
                    "{mode:?}: the arrow of step {} has no label",
                    a.send_row + 1
                ),
            }
        }
        assert!(members >= 20, "{mode:?}: {members} arrows in rounds");
        assert!(l.flights.is_empty(), "{mode:?}: stubs {:?}", l.flights);
    }
}

#[test]
fn a_rounds_replies_follow_its_requests_with_no_empty_line_between() {
    for (mode, l) in both_modes("redlock-happy-path") {
        // B's DELEX to the five instances (#48) and their replies (#54).
        let (request, reply) = (l.rows[47].line, l.rows[53].line);
        assert_eq!(reply, request + 1, "{mode:?}: lines {request} and {reply}");
        let lines: std::collections::BTreeSet<usize> = l.rows.iter().map(|r| r.line).collect();
        let most = lines.iter().max().copied().unwrap_or(0);
        // Only a line next to one with words on two lines (a round's label before its nearest
        // head on the next lane, which keeps the line above free; a note that reaches a little
        // into the lines either side) may stay empty.
        let tall: std::collections::BTreeSet<usize> = l
            .rows
            .iter()
            // A label on one line reaches 24 px above its arrow, on two 44; a note on one line
            // 12 px below its line, on two 21.
            .filter(|r| r.top < r.y - 30.0 || r.bottom > r.y + 18.0)
            .map(|r| r.line)
            .collect();
        let empty: Vec<usize> = (0..most)
            .filter(|k| {
                !lines.contains(k)
                    && !tall.contains(&(k + 1))
                    && !tall.contains(&k.saturating_sub(1))
            })
            .collect();
        let two_lines_on = &tall;
        assert!(empty.is_empty(), "{mode:?}: empty lines {empty:?}");
        // In logical time only (to scale, a burst's band is sized for one-line labels).
        assert_eq!(
            !two_lines_on.is_empty(),
            mode == TimeMode::Logical,
            "{mode:?}: the DELEX rounds' labels"
        );
    }
}
