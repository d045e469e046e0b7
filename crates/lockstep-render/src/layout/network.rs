//! What the network and the clocks do, drawn on the timeline rather than only written in notes:
//! a partition as a wall between the neighbouring lanes it cuts apart, over the rows it lasts; a
//! clock jump as a break across the node's lifeline with how far the clock stepped.

use lockstep_core::sort;
use std::collections::BTreeMap;

use lockstep_core::trace::{Tag, TraceEvent};

use super::frame::Frame;
use super::{Arrow, ArrowEnd, Jump, Note, Wall};
use crate::geom::{Point, Rect, inside_length};
use crate::style;
use crate::text::{Align, TextBox};

/// Half the width of a partition wall (wide enough to read on a projector).
const WALL_HALF: f64 = 8.0;
/// A delivered arrow passes through a gap this much taller than it, each side.
const WALL_GAP: f64 = 9.0;
/// Room kept free under a clock jump's note on its lane, for the break (22 px tall) with a
/// margin either side.
pub(super) const JUMP_ROOM: f64 = 32.0;
/// The break's centre sits this far below its note (or its row): in the middle of its room.
const JUMP_DROP: f64 = JUMP_ROOM / 2.0;

/// The room kept under a clock jump's note while rows were placed is the break's, not the
/// note's: each such note's box ends under its text again.
pub(super) fn give_back_jump_room(notes: &mut [Option<(Rect, TextBox)>], events: &[TraceEvent]) {
    for (note, e) in notes.iter_mut().zip(events) {
        if let (Some((rect, text)), Some(Tag::ClockJumped { .. })) = (note, &e.tag) {
            rect.y1 = rect.y1.min(rect.y0 + super::frame::note_height(&text.text));
        }
    }
}

/// The notes (lane, text) of clock jumps, which keep [`JUMP_ROOM`] under them.
pub(super) fn jump_notes(
    events: &[TraceEvent],
    pieces: &[super::pieces::Piece],
) -> Vec<(usize, String)> {
    events
        .iter()
        .zip(pieces)
        .filter(|(e, _)| matches!(e.tag, Some(Tag::ClockJumped { .. })))
        .filter_map(|(_, p)| match p {
            super::pieces::Piece::Note { lanes, text, .. } if lanes.0 == lanes.1 => {
                Some((lanes.0, text.clone()))
            }
            _ => None,
        })
        .collect()
}

/// The walls of every partition among the first `shown` events. `lane_of_name` gives a node's
/// lane; lanes of nodes no group names are not cut off from anything, so a delivered arrow
/// between such a lane and a cut one passes through a gap in the wall: no arrow that got through
/// crosses a mark saying the network is cut.
pub(super) fn walls(
    (events, shown): (&[TraceEvent], usize),
    lane_of_name: &BTreeMap<&str, usize>,
    frame: &Frame,
    (ys, open_end): (&[f64], f64),
    arrows: &[Arrow],
) -> Vec<Wall> {
    let mut out = Vec::new();
    // The partition in force: its row and the lane pairs it cuts.
    let mut open: Option<(usize, Vec<(usize, usize)>)> = None;
    let mut close = |open: &mut Option<(usize, Vec<(usize, usize)>)>, to: Option<usize>| {
        if let Some((from, pairs)) = open.take() {
            let y1 = to.map_or(open_end, |r| ys[r]);
            for (a, b) in pairs {
                let x = (frame.x(a) + frame.x(b)) / 2.0;
                let rect = Rect::new(x - WALL_HALF, ys[from], x + WALL_HALF, y1);
                for (piece, gate) in around_arrows(rect, arrows) {
                    out.push(Wall {
                        from_row: from,
                        to_row: to,
                        lanes: (a, b),
                        rect: piece,
                        gate,
                    });
                }
            }
        }
    };
    for (i, e) in events[..shown].iter().enumerate() {
        match &e.tag {
            Some(Tag::Partition { groups }) => {
                close(&mut open, Some(i));
                let mut group_of: BTreeMap<usize, usize> = BTreeMap::new();
                for (g, names) in groups.iter().enumerate() {
                    for n in names {
                        if let Some(&lane) = lane_of_name.get(n.as_str()) {
                            group_of.insert(lane, g);
                        }
                    }
                }
                // Neighbouring named lanes (in lane order) in different groups.
                let named: Vec<(usize, usize)> = group_of.into_iter().collect();
                let pairs = named
                    .windows(2)
                    .filter(|w| w[0].1 != w[1].1)
                    .map(|w| (w[0].0, w[1].0))
                    .collect();
                open = Some((i, pairs));
            }
            Some(Tag::Healed) => close(&mut open, Some(i)),
            _ => {}
        }
    }
    close(&mut open, None);
    out
}

/// Wall `r` cut into pieces of wall and gates (`true`) wherever a delivered arrow crosses it,
/// top to bottom and touching, so that together they are one wall.
fn around_arrows(r: Rect, arrows: &[Arrow]) -> Vec<(Rect, bool)> {
    let mut gaps: Vec<(f64, f64)> = arrows
        .iter()
        .filter(|a| a.end == ArrowEnd::Delivered && inside_length(a.start, a.tip, &r) > 0.0)
        .map(|a| {
            let (lo, hi) = (a.start.y.min(a.tip.y), a.start.y.max(a.tip.y));
            // The arrow's height within the wall's width (all of it, for a level arrow).
            let (dx, dy) = (a.tip.x - a.start.x, a.tip.y - a.start.y);
            let (y0, y1) = if dx.abs() < 1e-9 {
                (lo, hi)
            } else {
                let at = |x: f64| a.start.y + dy * ((x - a.start.x) / dx).clamp(0.0, 1.0);
                (at(r.x0).min(at(r.x1)), at(r.x0).max(at(r.x1)))
            };
            (y0 - WALL_GAP, y1 + WALL_GAP)
        })
        .collect();
    sort::sort_by(&mut gaps, |a, b| a.0.total_cmp(&b.0));
    // Overlapping gaps (and gaps with only a sliver of wall between) make one gate.
    let mut merged: Vec<(f64, f64)> = Vec::new();
    for (g0, g1) in gaps {
        let (g0, g1) = (g0.max(r.y0), g1.min(r.y1));
        if g1 <= g0 {
            continue;
        }
        match merged.last_mut() {
            Some(last) if g0 <= last.1 + 4.0 => last.1 = last.1.max(g1),
            _ => merged.push((g0, g1)),
        }
    }
    let mut out = Vec::new();
    let mut y = r.y0;
    for (g0, g1) in merged {
        if g0 > y + 4.0 {
            out.push((Rect::new(r.x0, y, r.x1, g0), false));
            out.push((Rect::new(r.x0, g0, r.x1, g1), true));
        } else {
            // A sliver of wall above the gate goes into the gate.
            out.push((Rect::new(r.x0, y, r.x1, g1), true));
        }
        y = g1;
    }
    if r.y1 > y + 4.0 {
        out.push((Rect::new(r.x0, y, r.x1, r.y1), false));
    } else if let Some(last) = out.last_mut() {
        // A sliver of wall below the last gate goes into it.
        last.0.y1 = r.y1;
    }
    out
}

/// Whether a label at `r` is clear of every label and note and of every other arrow (shaft and
/// head, with room enough that the label still reads as arrow `own`'s).
pub(super) fn clear_of(r: &Rect, arrows: &[Arrow], notes: &[Note], own: usize) -> bool {
    let near = r.inflate(8.0);
    arrows.iter().enumerate().all(|(k, a)| {
        let head = Rect::new(a.tip.x - 16.0, a.tip.y - 8.0, a.tip.x + 16.0, a.tip.y + 8.0);
        k == own
            || (inside_length(a.start, a.tip, &near) <= 0.0
                && !a.label.rect.overlaps(&near)
                && !head.overlaps(r))
    }) && notes.iter().all(|n| !n.rect.overlaps(&near))
}

/// `+20 s`, `-1.5 s`.
fn jump_text(by_ms: i64) -> String {
    let sign = if by_ms < 0 { "-" } else { "+" };
    let abs = by_ms.unsigned_abs();
    if abs.is_multiple_of(1000) {
        format!("{sign}{} s", abs / 1000)
    } else {
        format!("{sign}{:.1} s", abs as f64 / 1000.0)
    }
}

/// The clock jumps among the first `shown` events: a break just below the jump's note on the
/// node's lifeline, and its size beside it where that crowds no label, note or arrow.
pub(super) fn jumps(
    events: &[TraceEvent],
    shown: usize,
    lane_of: &dyn Fn(&TraceEvent) -> Option<usize>,
    frame: &Frame,
    ys: &[f64],
    drawn: (&[Note], &[Arrow], &[Rect]),
) -> Vec<Jump> {
    let (notes, arrows, taken) = drawn;
    let mut out: Vec<Jump> = Vec::new();
    for (i, e) in events[..shown].iter().enumerate() {
        let (Some(Tag::ClockJumped { by_ms }), Some(lane)) = (&e.tag, lane_of(e)) else {
            continue;
        };
        let note = notes.iter().find(|n| n.row == i).map(|n| n.rect);
        let below = note.map_or(ys[i], |r| r.y1);
        let at = Point::new(frame.x(lane), below + JUMP_DROP);
        let text = jump_text(*by_ms);
        let clear = |b: &TextBox| {
            taken.iter().all(|r| !r.overlaps(&b.rect))
                && notes.iter().all(|n| !n.rect.overlaps(&b.rect))
                && arrows.iter().all(|a| {
                    !a.label.rect.overlaps(&b.rect) && inside_length(a.start, a.tip, &b.rect) <= 0.0
                })
                && out
                    .iter()
                    .filter_map(|j| j.label.as_ref())
                    .all(|l| !l.rect.overlaps(&b.rect))
        };
        let right = TextBox::new(
            &text,
            style::JUMP_SIZE,
            Align::Left,
            Point::new(at.x + 16.0, at.y + 4.0),
            1.0,
        );
        let left = TextBox::new(
            &text,
            style::JUMP_SIZE,
            Align::Right,
            Point::new(at.x - 16.0, at.y + 4.0),
            1.0,
        );
        // Beside the break, or else beside the jump's note on its line.
        let beside_note = note.into_iter().flat_map(|r| {
            let y = (r.y0 + r.y1) / 2.0;
            [
                TextBox::new(
                    &text,
                    style::JUMP_SIZE,
                    Align::Left,
                    Point::new(r.x1 + 8.0, y),
                    1.0,
                ),
                TextBox::new(
                    &text,
                    style::JUMP_SIZE,
                    Align::Right,
                    Point::new(r.x0 - 8.0, y),
                    1.0,
                ),
            ]
        });
        let label = [right, left]
            .into_iter()
            .chain(beside_note)
            .find(|b| clear(b) && b.rect.x0 >= frame.area_left);
        out.push(Jump {
            row: i,
            lane,
            by_ms: *by_ms,
            at,
            label,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::jump_text;

    #[test]
    fn jumps_read_in_seconds_with_their_sign() {
        assert_eq!(jump_text(20_000), "+20 s");
        assert_eq!(jump_text(-1_500), "-1.5 s");
    }
}
