//! The boxes that arrow shafts and heads take on the placement board, so labels keep clear of them.

use super::frame::Frame;
use super::pack::{Item, Kind, Shape};
use crate::geom::Rect;

/// Half the height of a level shaft's box and of an arrow head's box.
pub(super) const SHAFT_HALF: f64 = 3.0;
pub(super) const HEAD_HALF: f64 = 8.0;
pub(super) const HEAD_LEN: f64 = 16.0;

/// The box of an arrow head at `to` on the line at `y`.
pub(super) fn head(frame: &Frame, from: usize, to: usize, y: f64, owner: usize) -> Item {
    let xt = frame.x(to);
    let back = xt - frame.dir(from, to) * HEAD_LEN;
    Item {
        shape: Shape::Box(Rect::new(xt, y - HEAD_HALF, back, y + HEAD_HALF)),
        kind: Kind::Shaft,
        owner,
    }
}
