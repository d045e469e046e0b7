//! The boxes that arrow shafts and heads take on the placement board, so labels keep clear of them.

use lockstep_core::trace::{EventKind, TraceEvent};

use super::frame::{Frame, marker_band_half};
use super::pack::{Item, Kind, Shape};
use super::pieces::{Link, Piece};
use crate::geom::{Point, Rect, inside_length, point_segment};

/// Half the height of a level shaft's box and of an arrow head's box.
pub(super) const SHAFT_HALF: f64 = 3.0;
pub(super) const HEAD_HALF: f64 = 8.0;
pub(super) const HEAD_LEN: f64 = 16.0;

/// The box of an arrow head at `to` on the line at `y`, of send `own` drawn by `owner` (its
/// group's leader, or itself).
pub(super) fn head(
    frame: &Frame,
    from: usize,
    to: usize,
    y: f64,
    (owner, own): (usize, usize),
) -> Item {
    let xt = frame.x(to);
    let back = xt - frame.dir(from, to) * HEAD_LEN;
    Item {
        shape: Shape::Box(Rect::new(xt, y - HEAD_HALF, back, y + HEAD_HALF)),
        kind: Kind::Head(own),
        owner,
    }
}

/// A label this far or nearer from its arrow's shaft reads as that arrow's (a level arrow's
/// label sits 3 px above it; other shafts keep at least 8 px away).
const LABEL_NEAR: f64 = 6.0;

/// Whether a label at `r` is near enough the shaft `a`-`b` to read as its label: a slanted arrow
/// that leaves its label behind would leave the label nearer some other arrow.
pub(super) fn label_near(r: &Rect, a: Point, b: Point) -> bool {
    if inside_length(a, b, &r.inflate(LABEL_NEAR)) > 0.0 {
        return true;
    }
    // Near a corner of the box (the shaft runs past it diagonally).
    [
        Point::new(r.x0, r.y0),
        Point::new(r.x1, r.y0),
        Point::new(r.x0, r.y1),
        Point::new(r.x1, r.y1),
    ]
    .iter()
    .any(|&c| point_segment(c, a, b) <= LABEL_NEAR)
}

/// A marker row's band reaches this far past the last lane (over notes beside it).
const MARKER_OVERHANG: f64 = 400.0;

/// What caused the marker event `i` (a payout paid twice): the owner of the last message
/// delivered to its lane, which may arrive on the marker's line; `i` itself if none.
pub(super) fn cause_of(events: &[TraceEvent], links: &[Link], pieces: &[Piece], i: usize) -> usize {
    let e = &events[i];
    (0..i)
        .rev()
        .find(|&j| events[j].kind == EventKind::Deliver && events[j].to == e.from)
        .and_then(|j| match links[j] {
            Link::End(Some(start)) => Some(match pieces[start] {
                Piece::Arrow { group, .. } => group.unwrap_or(start),
                _ => start,
            }),
            _ => None,
        })
        .unwrap_or(i)
}

/// The band across the whole line at `y` of marker note `rect` (drawn by `owner`), which
/// nothing but `cause` may enter.
pub(super) fn marker_band(
    frame: &Frame,
    rect: Rect,
    y: f64,
    (owner, cause): (usize, usize),
) -> Item {
    let half = marker_band_half();
    let right = frame.xs.last().copied().unwrap_or(rect.x1).max(rect.x1);
    Item {
        shape: Shape::Box(Rect::new(
            frame.gutter_right,
            y - half,
            right + MARKER_OVERHANG,
            y + half,
        )),
        kind: Kind::Band(cause),
        owner,
    }
}

/// For a label on more than one line (`rect`, its box, in `size` px type), the whole width of
/// the lines it reaches up into, owned by `owner`: nothing else may sit there, so the line above
/// its arrow holds no other step (its first line would read as that step's label, and that
/// step's row would run into this one's when clicked or highlighted). None for one line.
pub(super) fn upper_lines(text: &str, rect: Rect, size: f64, owner: usize) -> Option<Item> {
    let lines = crate::text::line_count(text);
    (lines > 1).then(|| {
        let lh = crate::text::line_height(size);
        Item {
            // Ending a pixel above its last line: other labels on its own line may sit beside it.
            shape: Shape::Box(Rect::new(
                -1.0e9,
                rect.y0,
                1.0e9,
                rect.y0 + (lines - 1) as f64 * lh - 1.0,
            )),
            kind: Kind::Band(owner),
            owner,
        }
    })
}
