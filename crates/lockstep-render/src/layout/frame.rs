//! The horizontal frame every row is measured against: lane x positions, and the boxes an arrow
//! label, a note, a gutter label or a mark takes at a given row height.

use super::lanes::LABEL_INSET;
use crate::geom::{Point, Rect};
use crate::style;
use crate::text::{self, Align, TextBox};

/// Arrow labels sit this far above their arrow.
const LABEL_LIFT: f64 = 2.0;
/// Padding inside an arrow label's box.
const LABEL_PAD: f64 = 1.0;
/// Padding inside a note's box.
pub(super) const NOTE_PAD_X: f64 = 8.0;
const NOTE_PAD_Y: f64 = 2.5;
/// Width reserved for an icon inside a note.
pub(super) const ICON_W: f64 = 24.0;
/// Padding of gutter labels.
pub(super) const GUTTER_PAD: f64 = 1.0;
/// Marks beside a lifeline sit this far from it (clear of the span bars).
const MARK_OFFSET: f64 = 24.0;
/// A note that cannot be centred on its lifeline starts (or ends) this far past it.
pub(super) const NOTE_ANCHOR: f64 = 14.0;
/// A note keeps this far from a lifeline that is not its own.
pub(super) const LIFELINE_CLEAR: f64 = 6.0;
/// ... and this far from a worker's: its belief bar stands beside its lifeline, and a note
/// touching that bar reads as the worker's (naive-network-delay's "lock:batch-42 expired",
/// redis's note, lay against A's bar).
pub(super) const WORKER_CLEAR: f64 = 40.0;

/// How far a note keeps from lane `lane`'s lifeline when that lane is not its own.
fn clear_of(workers: &[bool], lane: usize) -> f64 {
    if workers.get(lane).copied().unwrap_or(false) {
        WORKER_CLEAR
    } else {
        LIFELINE_CLEAR
    }
}
/// A global note reaches this far past the outer lanes.
const GLOBAL_OVERHANG: f64 = 50.0;

/// Half the height of the band behind a payout-paid-twice row: what the label of an arrow on
/// the next line (a pitch below, its label above it) leaves free, so no label straddles the
/// band's edges and the band costs no extra line. Its note reaches a little past it.
pub fn marker_band_half() -> f64 {
    let label_h = text::line_height(style::LABEL_SIZE) + 2.0 * LABEL_PAD + LABEL_LIFT;
    super::place::PITCH - label_h - 0.5
}

/// Lane positions and the left edge labels may not cross.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Frame {
    pub xs: Vec<f64>,
    pub area_left: f64,
    pub gutter_right: f64,
    /// Notes (lane, text) that keep [`JUMP_ROOM`](super::network::JUMP_ROOM) free under them
    /// on their lane while rows are placed: a clock jump's, for the break drawn there.
    pub room_below: Vec<(usize, String)>,
    /// Per lane: whether it is a worker's (a note keeps further from it, see [`WORKER_CLEAR`]).
    pub workers: Vec<bool>,
}

/// A note on two lines sets them this close (in em) and pads them this little: it is then no
/// taller than a line of the picture, and its row no taller than its neighbours'.
const NOTE_LEADING: f64 = 1.05;
const NOTE_PAD_Y_LINES: f64 = 0.25;

/// Height of a note's box for `text`.
pub(super) fn note_height(text: &str) -> f64 {
    match text::line_count(text) {
        1 => text::line_height(style::NOTE_SIZE) + 2.0 * NOTE_PAD_Y,
        n => n as f64 * NOTE_LEADING * style::NOTE_SIZE + 2.0 * NOTE_PAD_Y_LINES,
    }
}

/// Width of a note's box for `text` (with room for an icon).
pub(super) fn note_width(text: &str, icon: bool) -> f64 {
    text::width(text, style::NOTE_SIZE) + if icon { ICON_W } else { 0.0 } + 2.0 * NOTE_PAD_X
}

impl Frame {
    pub fn x(&self, lane: usize) -> f64 {
        self.xs[lane]
    }

    /// Direction of an arrow from `from` to `to`: +1 rightwards, -1 leftwards.
    pub fn dir(&self, from: usize, to: usize) -> f64 {
        if self.xs[to] < self.xs[from] {
            -1.0
        } else {
            1.0
        }
    }

    /// Where a mark beside the sender of a message goes: on the far side from the arrow.
    pub fn mark_beside(&self, from: usize, to: usize, y: f64) -> Point {
        Point::new(self.x(from) - self.dir(from, to) * MARK_OFFSET, y)
    }

    /// An arrow label's box for a send on the row at `y`: above the tail, towards the head.
    pub fn arrow_label(&self, from: usize, to: usize, text: &str, y: f64) -> TextBox {
        // A label on two lines grows upwards, its last line where a one-line label sits.
        let block = text::height(text, style::LABEL_SIZE);
        let cy = y - LABEL_LIFT - LABEL_PAD - block / 2.0;
        let x = self.x(from);
        let (align, ax) = if self.dir(from, to) > 0.0 {
            (Align::Left, x + LABEL_INSET)
        } else {
            (Align::Right, x - LABEL_INSET)
        };
        let b = TextBox::new(
            text,
            style::LABEL_SIZE,
            align,
            Point::new(ax, cy),
            LABEL_PAD,
        );
        let push = self.area_left - b.rect.x0;
        if push > 0.0 { b.shifted(push, 0.0) } else { b }
    }

    /// A note's box and text for the row at `y`, centred over its lanes.
    pub fn note(&self, lanes: (usize, usize), text: &str, icon: bool, y: f64) -> (Rect, TextBox) {
        let w = note_width(text, icon);
        let iw = if icon { ICON_W } else { 0.0 };
        let h = note_height(text);
        let (l, r) = (self.x(lanes.0), self.x(lanes.1));
        let (mut x0, mut x1) = if lanes.0 == lanes.1 {
            self.note_span(lanes.0, w)
        } else {
            let c = (l + r) / 2.0;
            let half = (w / 2.0).max((r - l) / 2.0 + GLOBAL_OVERHANG);
            (c - half, c + half)
        };
        if x0 < self.area_left {
            x1 += self.area_left - x0;
            x0 = self.area_left;
        }
        let room = if lanes.0 == lanes.1
            && self
                .room_below
                .iter()
                .any(|(lane, t)| *lane == lanes.0 && t == text)
        {
            super::network::JUMP_ROOM
        } else {
            0.0
        };
        let rect = Rect::new(x0, y - h / 2.0, x1, y + h / 2.0 + room);
        let text_x = (x0 + iw + x1) / 2.0;
        let tb = TextBox::new(
            text,
            style::NOTE_SIZE,
            Align::Center,
            Point::new(text_x, y),
            0.0,
        );
        let tb = if text::line_count(text) > 1 {
            tb.with_leading(NOTE_LEADING)
        } else {
            tb
        };
        (rect, tb)
    }

    /// Where a note `w` wide on `lane` goes, left to right: centred on its lifeline, or as near
    /// that as it can be while it covers its own lifeline and no other (a note about redis must
    /// not read as A's). The lanes are spaced to leave every note such a place
    /// ([`note_gap_needs`]); failing that, centred.
    pub fn note_span(&self, lane: usize, w: f64) -> (f64, f64) {
        let x = self.x(lane);
        let centred = x - w / 2.0;
        match self.note_range(lane, w) {
            Some((lo, hi)) => {
                let x0 = centred.clamp(lo, hi);
                (x0, x0 + w)
            }
            None => (centred, centred + w),
        }
    }

    /// The lefts a note `w` wide may have on `lane`: covering its own lifeline by at least
    /// [`NOTE_ANCHOR`], clear of its neighbours' and right of the gutter. None if it fits
    /// nowhere.
    pub fn note_range(&self, lane: usize, w: f64) -> Option<(f64, f64)> {
        let x = self.x(lane);
        let mut lo = (x + NOTE_ANCHOR - w).max(self.area_left);
        let mut hi = x - NOTE_ANCHOR;
        if let Some(k) = lane.checked_sub(1)
            && let Some(&prev) = self.xs.get(k)
        {
            lo = lo.max(prev + clear_of(&self.workers, k));
        }
        if let Some(&next) = self.xs.get(lane + 1) {
            hi = hi.min(next - clear_of(&self.workers, lane + 1) - w);
        }
        (lo <= hi).then_some((lo, hi))
    }

    /// The step-and-time label of the row at `y`.
    pub fn gutter(&self, text: &str, y: f64) -> TextBox {
        TextBox::new(
            text,
            style::GUTTER_SIZE,
            Align::Right,
            Point::new(self.gutter_right, y),
            GUTTER_PAD,
        )
    }
}

/// How wide each gap between neighbouring lanes must be for every one-lane note to have a
/// place on its own lane only ([`Frame::note_range`]): `notes` are (lane, width), `first_room`
/// the room left of the first lifeline, `workers` which lanes are workers'. A worker's notes get
/// room on both sides: its own arrows' labels start beside its lifeline on either side, on the
/// lines just after its notes, and a note that can step out of their way costs no line. Another
/// note that fits neither centred nor to one side widens the gap that needs the least (a wider
/// picture shrinks less on a slide than a taller one, but both shrink it). Returns the gaps.
pub(super) fn note_gap_needs(
    mut gaps: Vec<f64>,
    notes: &[(usize, f64)],
    first_room: f64,
    workers: &[bool],
) -> Vec<f64> {
    let m = LIFELINE_CLEAR;
    for &(lane, w) in notes {
        let need = (w - NOTE_ANCHOR + m).ceil();
        if workers.get(lane).copied().unwrap_or(false) {
            for k in [lane.checked_sub(1), Some(lane)].into_iter().flatten() {
                if let Some(g) = gaps.get_mut(k) {
                    *g = g.max(need);
                }
            }
            continue;
        }
        let left = match lane.checked_sub(1) {
            Some(k) => gaps.get(k).copied().unwrap_or(0.0),
            None => first_room,
        };
        let Some(right) = gaps.get(lane).copied() else {
            // The last lane: nothing to its right, a note may run on.
            continue;
        };
        // Clear of each neighbour by as much as it needs (a worker's bar, more).
        let clear_left = lane.checked_sub(1).map_or(m, |k| clear_of(workers, k));
        let clear_right = clear_of(workers, lane + 1);
        let (need_left, need_right) = (
            (w - NOTE_ANCHOR + clear_left).ceil(),
            (w - NOTE_ANCHOR + clear_right).ceil(),
        );
        // Right of a worker, room to stand left of its own lifeline clear of the worker's bar,
        // centred or not: the labels of arrows coming in from the right start beside the
        // lifeline on the next lines, and a note that steps left out of their way costs no
        // line (hugging the worker's bar, it would read as the worker's).
        if lane > 0 && clear_left == WORKER_CLEAR {
            if let Some(g) = gaps.get_mut(lane - 1) {
                *g = g.max(need_left);
            }
            continue;
        }
        let centred = w / 2.0 + clear_left <= left && w / 2.0 + clear_right <= right;
        if centred || need_right <= right || need_left <= left {
            continue;
        }
        // The first lane's left is the gutter's side: only its right gap can grow.
        let (k, need) = if lane > 0 && left > right {
            (lane - 1, need_left)
        } else {
            (lane, need_right)
        };
        gaps[k] = need;
    }
    gaps
}
