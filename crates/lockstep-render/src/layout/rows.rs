//! Row placement: each row goes at its natural height (the next slot, or its time on the scale)
//! or lower, just low enough that its label box clears every earlier box.

use crate::geom::Rect;

/// Smallest distance between two rows.
pub(super) const PITCH: f64 = 24.0;
/// Smallest distance between two label boxes.
pub(super) const BOX_MARGIN: f64 = 4.0;

/// The label box a row draws, relative to the row's line: `up` above it, `down` below it (negative
/// when the box ends above the line).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Shape {
    pub x0: f64,
    pub x1: f64,
    pub up: f64,
    pub down: f64,
}

impl Shape {
    /// The box when the row's line is at `y`.
    pub fn at(&self, y: f64) -> Rect {
        Rect::new(self.x0, y - self.up, self.x1, y + self.down)
    }
}

/// Places rows top to bottom.
#[derive(Debug)]
pub(super) struct Placer {
    /// Boxes that may still push a later row down.
    active: Vec<Rect>,
    last: Option<f64>,
    /// The largest `up` of any shape: boxes whose bottom is further than this above the next
    /// possible row can no longer matter.
    max_up: f64,
}

impl Placer {
    /// `obstacles` are fixed boxes above the first row (the lane headers).
    pub fn new(obstacles: Vec<Rect>, max_up: f64) -> Self {
        Placer {
            active: obstacles,
            last: None,
            max_up,
        }
    }

    /// Adds a box later labels must stay clear of (an arrow head, a mark) without placing a row.
    pub fn obstacle(&mut self, b: Rect) {
        self.active.push(b);
    }

    /// Places the next row no higher than `base` and at least [`PITCH`] below the previous one,
    /// with its box (if any) clear of every earlier box. Returns the row's y.
    pub fn place(&mut self, base: f64, shape: Option<Shape>) -> f64 {
        let mut y = match self.last {
            Some(prev) => base.max(prev + PITCH),
            None => base,
        };
        if let Some(s) = shape {
            let probe = s.at(y);
            for b in &self.active {
                if b.overlaps_x(&probe, BOX_MARGIN) {
                    y = y.max(b.y1 + BOX_MARGIN + s.up);
                }
            }
            self.active.push(s.at(y));
        }
        self.last = Some(y);
        let horizon = y + PITCH;
        let max_up = self.max_up;
        self.active.retain(|b| b.y1 + BOX_MARGIN + max_up > horizon);
        y
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_keep_the_pitch_and_clear_labels() {
        let mut p = Placer::new(vec![Rect::new(0.0, 0.0, 100.0, 50.0)], 30.0);
        let label = Shape {
            x0: 10.0,
            x1: 90.0,
            up: 30.0,
            down: -4.0,
        };
        // Pushed below the header.
        let y0 = p.place(40.0, Some(label));
        assert_eq!(y0, 50.0 + BOX_MARGIN + 30.0);
        // A row without a label only keeps the pitch.
        let y1 = p.place(0.0, None);
        assert_eq!(y1, y0 + PITCH);
        // The next label must clear the first one.
        let y2 = p.place(0.0, Some(label));
        assert!(label.at(y2).y0 >= label.at(y0).y1 + BOX_MARGIN - 1e-9);
        // A label elsewhere only keeps the pitch.
        let far = Shape {
            x0: 500.0,
            x1: 600.0,
            ..label
        };
        let y3 = p.place(0.0, Some(far));
        assert_eq!(y3, y2 + PITCH);
        // A base further down wins.
        assert_eq!(p.place(10_000.0, None), 10_000.0);
    }
}
