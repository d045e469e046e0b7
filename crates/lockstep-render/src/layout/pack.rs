//! Packs events onto lines: each event goes on the highest line its lanes allow (after the
//! previous event on each lane it touches) where what it draws clears everything already drawn.
//! Labels and notes are boxes; an arrow's shaft is a thin box while it is level and a segment when
//! it slants; no shaft may run through a label or a note, and no label or note may cover a shaft.

use crate::geom::{Point, Rect, inside_length};

/// Height of the buckets that index drawn things by y.
const BUCKET_H: f64 = 48.0;
/// Smallest gap between two boxes that must not touch.
pub(super) const CLEAR: f64 = 2.0;
/// A slanted shaft keeps this far from a label or note: nearer, the label would look like the
/// slanted arrow's (a label sits 3 px above its own arrow).
const SLANT_CLEAR: f64 = 6.0;

/// What a drawn thing is, for deciding what may cross what.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    /// A label or a note: nothing may cross it.
    Text,
    /// A level arrow shaft or an arrow head: other arrows may cross it, text may not cover it.
    Shaft,
    /// A mark beside a lifeline.
    Mark,
    /// An arrow head, as a shaft; it names its own send, so that a fan-out's or fan-in's label
    /// (owned by the group) still keeps clear of the other members' heads.
    Head(usize),
    /// The whole width of a line that shows a marker row (a payout paid twice): nothing else may
    /// sit on it or reach into it, but a slanted arrow may pass through, and the write that
    /// caused it (owned by the value given) may arrive on it.
    Band(usize),
}

impl Kind {
    fn is_shaft(self) -> bool {
        matches!(self, Kind::Shaft | Kind::Head(_))
    }
}

/// A drawn thing's outline.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Shape {
    Box(Rect),
    Segment(Point, Point),
}

impl Shape {
    fn y_range(&self) -> (f64, f64) {
        match self {
            Shape::Box(r) => (r.y0, r.y1),
            Shape::Segment(a, b) => (a.y.min(b.y), a.y.max(b.y)),
        }
    }
}

/// One drawn thing: its outline, what it is and who drew it (things of one owner never clash).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Item {
    pub shape: Shape,
    pub kind: Kind,
    pub owner: usize,
}

impl Item {
    fn shape_box(&self) -> Option<Rect> {
        match self.shape {
            Shape::Box(r) => Some(r),
            Shape::Segment(..) => None,
        }
    }
}

/// Whether two things may not be drawn together.
fn clash(a: &Item, b: &Item) -> bool {
    match (a.kind, b.kind) {
        (Kind::Band(cause), _) if b.owner == cause => return false,
        (_, Kind::Band(cause)) if a.owner == cause => return false,
        _ => {}
    }
    if a.owner == b.owner {
        // Only a group member's head against the group's label, and a label against a level
        // shaft of its group passing through it (not the one it sits on: a label on two lines
        // reaches up to the line above, where another of the round's messages may leave).
        return match (a.kind, b.kind) {
            (Kind::Head(m), Kind::Text) | (Kind::Text, Kind::Head(m)) => {
                m != a.owner
                    && a.shape_box()
                        .zip(b.shape_box())
                        .is_some_and(|(x, y)| x.overlaps(&y))
            }
            (Kind::Text, k) | (k, Kind::Text) if k.is_shaft() => {
                let (text, shaft) = if a.kind == Kind::Text { (a, b) } else { (b, a) };
                text.shape_box()
                    .zip(shaft.shape_box())
                    .is_some_and(|(t, s)| t.overlaps(&s) && (s.y0 + s.y1) / 2.0 < t.y1)
            }
            _ => false,
        };
    }
    match (a.shape, b.shape) {
        (Shape::Box(x), Shape::Box(y)) => {
            let both_shafts = a.kind.is_shaft() && b.kind.is_shaft();
            // A band may touch what is next to it (it only must not be entered).
            let band = matches!(a.kind, Kind::Band(_)) || matches!(b.kind, Kind::Band(_));
            // A label may sit right under the heads of the line above: a head's box is a
            // pixel taller than the head drawn (a reply's label under a fan-out's heads left
            // an empty line between the two, redlock-happy-path #48..61 and #54..67).
            let head_over_text = matches!(
                (a.kind, b.kind),
                (Kind::Head(_), Kind::Text) | (Kind::Text, Kind::Head(_))
            );
            let margin = if both_shafts || band || head_over_text {
                0.0
            } else {
                CLEAR
            };
            x.inflate(margin / 2.0).overlaps(&y.inflate(margin / 2.0))
        }
        (Shape::Segment(p, q), Shape::Box(r)) | (Shape::Box(r), Shape::Segment(p, q)) => {
            let boxed = if matches!(a.shape, Shape::Box(_)) {
                a
            } else {
                b
            };
            !boxed.kind.is_shaft()
                && !matches!(boxed.kind, Kind::Band(_))
                && inside_length(p, q, &r.inflate(SLANT_CLEAR)) > 0.5
        }
        (Shape::Segment(..), Shape::Segment(..)) => false,
    }
}

/// Everything drawn so far, indexed by y.
#[derive(Debug, Default)]
pub(super) struct Board {
    items: Vec<Option<Item>>,
    buckets: Vec<Vec<usize>>,
}

fn bucket(y: f64) -> usize {
    (y.max(0.0) / BUCKET_H) as usize
}

impl Board {
    /// Whether `item` clashes with anything drawn.
    pub fn clashes(&self, item: &Item) -> bool {
        let (y0, y1) = item.shape.y_range();
        for b in bucket(y0)..=bucket(y1) {
            let Some(ids) = self.buckets.get(b) else {
                break;
            };
            for &id in ids {
                if let Some(other) = &self.items[id]
                    && clash(item, other)
                {
                    return true;
                }
            }
        }
        false
    }

    /// The ids of the drawn things `item` clashes with.
    pub fn clashing(&self, item: &Item) -> Vec<usize> {
        let (y0, y1) = item.shape.y_range();
        let mut out = Vec::new();
        for b in bucket(y0)..=bucket(y1) {
            let Some(ids) = self.buckets.get(b) else {
                break;
            };
            for &id in ids {
                if let Some(other) = &self.items[id]
                    && clash(item, other)
                    && !out.contains(&id)
                {
                    out.push(id);
                }
            }
        }
        out
    }

    /// A drawn thing.
    pub fn get(&self, id: usize) -> Option<Item> {
        self.items.get(id).copied().flatten()
    }

    /// Whether any of `items` clashes with anything drawn.
    pub fn any_clash(&self, items: &[Item]) -> bool {
        items.iter().any(|i| self.clashes(i))
    }

    /// Draws `item`; returns its id.
    pub fn add(&mut self, item: Item) -> usize {
        let id = self.items.len();
        let (y0, y1) = item.shape.y_range();
        let (b0, b1) = (bucket(y0), bucket(y1));
        if self.buckets.len() <= b1 {
            self.buckets.resize_with(b1 + 1, Vec::new);
        }
        for b in &mut self.buckets[b0..=b1] {
            b.push(id);
        }
        self.items.push(Some(item));
        id
    }

    /// Rubs out a drawn item.
    pub fn remove(&mut self, id: usize) {
        if let Some(slot) = self.items.get_mut(id) {
            *slot = None;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clipping_measures_the_part_inside() {
        let r = Rect::new(0.0, 0.0, 10.0, 10.0);
        let l = inside_length(Point::new(-5.0, 5.0), Point::new(15.0, 5.0), &r);
        assert!((l - 10.0).abs() < 1e-9);
        assert_eq!(
            inside_length(Point::new(-5.0, 20.0), Point::new(15.0, 20.0), &r),
            0.0
        );
        let d = inside_length(Point::new(-10.0, -10.0), Point::new(20.0, 20.0), &r);
        assert!((d - 200f64.sqrt()).abs() < 1e-9);
    }

    #[test]
    fn text_may_not_cover_a_shaft_but_shafts_may_cross() {
        let mut board = Board::default();
        board.add(Item {
            shape: Shape::Segment(Point::new(0.0, 0.0), Point::new(100.0, 100.0)),
            kind: Kind::Shaft,
            owner: 1,
        });
        let label = Item {
            shape: Shape::Box(Rect::new(40.0, 40.0, 60.0, 60.0)),
            kind: Kind::Text,
            owner: 2,
        };
        assert!(board.clashes(&label));
        let level = Item {
            shape: Shape::Box(Rect::new(0.0, 49.0, 100.0, 51.0)),
            kind: Kind::Shaft,
            owner: 3,
        };
        assert!(!board.clashes(&level));
        // Its own owner's things never clash.
        assert!(!board.clashes(&Item { owner: 1, ..label }));
    }
}
