//! Lane spacing: how far apart the lifelines stand, from the labels that cross each gap and the
//! notes on each lane.

use std::collections::BTreeMap;

use lockstep_core::Trace;
use lockstep_core::topology::Role;

use super::build::MARGIN;
use super::frame::{Frame, note_width};
use super::gutter::{GUTTER_TITLE, Gutter};
use super::lanes::{self, MIN_GAP};
use super::network;
use super::pieces::{self, Piece};
use crate::style;
use crate::text;

/// The first lane's lifeline is at most this far right of the gutter (for wide notes on it).
const MAX_FIRST_HALF: f64 = 260.0;

/// Lane x positions: gaps wide enough for the labels of the arrows that cross them, and room
/// left of the first lane for its notes. Also the pieces of the one-lane notes longer than
/// [`pieces::WRAP_CHARS`] that widen the picture on one line: those the arrows' gaps (or, on the
/// first lane, its header) leave no place for.
pub(super) fn frame_of(
    trace: &Trace,
    order: &[u16],
    pieces: &[Piece],
    gutter: &Gutter,
    permissive_db: bool,
) -> (Frame, Vec<usize>) {
    let halves: Vec<f64> = order
        .iter()
        .map(|&n| {
            let p = &trace.participants[usize::from(n)];
            lanes::header_half_width(&p.name, lanes::header_role(trace, n, permissive_db))
        })
        .collect();
    // A group's label must fit before the nearest of its arrow heads.
    let mut nearest: BTreeMap<usize, usize> = BTreeMap::new();
    for p in pieces {
        if let Piece::Arrow {
            from,
            to,
            group: Some(g),
            ..
        } = p
        {
            let near = nearest.entry(*g).or_insert(*to);
            if to.abs_diff(*from) < near.abs_diff(*from) {
                *near = *to;
            }
        }
    }
    let arrow_widths: Vec<(usize, usize, f64)> = pieces
        .iter()
        .enumerate()
        .filter_map(|(i, p)| match p {
            Piece::Arrow {
                from, to, label, ..
            } => {
                let to = nearest.get(&i).copied().unwrap_or(*to);
                Some((*from, to, text::width(label, style::LABEL_SIZE)))
            }
            _ => None,
        })
        .collect();
    let gaps = lanes::gaps(order.len(), &arrow_widths, &halves);
    let max_step = trace.events.len().max(1);
    let max_time = trace.events.iter().map(|e| e.time_ms).max().unwrap_or(0);
    let widest = format!("{max_step},{max_step},{max_step}");
    let gutter_w = text::width(
        &gutter.text(&widest, (max_time, max_time)),
        style::GUTTER_SIZE,
    )
    .max(text::width(GUTTER_TITLE, style::GUTTER_SIZE));
    let gutter_right = (MARGIN + gutter_w).ceil();
    let area_left = gutter_right + 14.0;
    let header_room = halves.first().copied().unwrap_or(0.0) + 4.0;
    let first_half = pieces
        .iter()
        .filter_map(|p| match p {
            Piece::Note {
                lanes: (0, 0),
                text,
                icon,
                ..
            } => Some(note_width(text, icon.is_some()) / 2.0),
            _ => None,
        })
        .fold(MIN_GAP / 2.0, f64::max)
        .min(MAX_FIRST_HALF)
        .max(header_room);
    // Room for every one-lane note on its own lane only.
    let notes: Vec<(usize, f64)> = pieces
        .iter()
        .filter_map(|p| match p {
            Piece::Note {
                lanes: (a, b),
                text,
                icon,
                ..
            } if a == b => Some((*a, note_width(text, icon.is_some()))),
            _ => None,
        })
        .collect();
    let x_first = (area_left + first_half).ceil();
    let workers: Vec<bool> = order
        .iter()
        .map(|&n| trace.participants[usize::from(n)].role == Role::Worker)
        .collect();
    let arrow_gaps = gaps.clone();
    let gaps = super::frame::note_gap_needs(gaps, &notes, x_first - area_left, &workers);
    let first_room_needed = (MIN_GAP / 2.0).max(header_room);
    let too_wide = pieces
        .iter()
        .enumerate()
        .filter_map(|(i, p)| match p {
            Piece::Note {
                lanes: (a, b),
                text,
                icon,
                ..
            } if a == b && !text.contains('\n') && text.chars().count() > pieces::WRAP_CHARS => {
                let w = note_width(text, icon.is_some());
                let widens = if *a == 0 {
                    w / 2.0 > first_room_needed
                } else {
                    super::frame::note_gap_needs(
                        arrow_gaps.clone(),
                        &[(*a, w)],
                        first_room_needed,
                        &workers,
                    ) != arrow_gaps
                };
                widens.then_some(i)
            }
            _ => None,
        })
        .collect();
    let mut xs = Vec::with_capacity(order.len());
    let mut x = x_first;
    for i in 0..order.len() {
        xs.push(x);
        x += gaps.get(i).copied().unwrap_or(0.0);
    }
    let frame = Frame {
        xs,
        area_left,
        gutter_right,
        room_below: network::jump_notes(&trace.events, pieces),
        workers,
    };
    (frame, too_wide)
}
