//! Making room for an arrow or note: labels and notes in its way slide sideways, each only to a
//! place that clashes with nothing else.

use super::Placer;
use crate::geom::Rect;
use crate::layout::pack::{Board, Item, Shape};
use crate::layout::pieces::Piece;

impl Placer<'_> {
    /// Whether `items` can be drawn, sliding labels and notes in their way sideways if need be
    /// (each only to a place that clashes with nothing else). Slides nothing if it fails.
    pub(super) fn make_way(&mut self, items: &[Item]) -> bool {
        let mut moves: Vec<(usize, Item)> = Vec::new();
        for item in items {
            for id in self.board.clashing(item) {
                if moves.iter().any(|(m, _)| *m == id) {
                    continue;
                }
                let pending: Vec<Item> = moves.iter().map(|(_, m)| *m).collect();
                let Some(moved) = self.slide(id, items, &pending) else {
                    return false;
                };
                moves.push((id, moved));
            }
        }
        for (id, moved) in moves {
            let Some(event) = self.movable.remove(&id) else {
                continue;
            };
            self.board.remove(id);
            let new_id = self.board.add(moved);
            self.movable.insert(new_id, event);
            let Shape::Box(r) = moved.shape else {
                continue;
            };
            let old = self.board_rect_of(event);
            let (dx, dy) = (r.x0 - old.x0, r.y0 - old.y0);
            if let Some(l) = self.out.labels[event].as_mut() {
                *l = l.shifted(dx, dy);
            }
            if let Some((rect, text)) = self.out.notes[event].as_mut() {
                *rect = rect.shifted(dx, dy);
                *text = text.shifted(dx, dy);
            }
        }
        true
    }

    /// The box event `event`'s label or note has now.
    fn board_rect_of(&self, event: usize) -> Rect {
        self.out.labels[event]
            .as_ref()
            .map(|l| l.rect)
            .or(self.out.notes[event].as_ref().map(|n| n.0))
            .unwrap_or_default()
    }

    /// Where the label or note with board id `id` could go instead, clear of `items` and of
    /// everything else: along its own level arrow, or sideways over its lane.
    fn slide(&self, id: usize, items: &[Item], pending: &[Item]) -> Option<Item> {
        let event = *self.movable.get(&id)?;
        let item = self.board.get(id)?;
        let Shape::Box(r) = item.shape else {
            return None;
        };
        let frame = self.input.frame;
        let mut shifts: Vec<(f64, f64)> = Vec::new();
        match &self.input.pieces[event] {
            Piece::Arrow {
                from, to, group, ..
            } if self.level[event] => {
                // A group's label only as far as its nearest member's head (further, it would
                // cover the members' heads).
                let to = match group {
                    Some(_) => self.nearest_member(event, *from),
                    None => *to,
                };
                let (xf, xt) = (frame.x(*from), frame.x(to));
                let (lo, hi) = if xt > xf {
                    (xf + 20.0, xt - 20.0 - r.width())
                } else {
                    (xt + 20.0, xf - 20.0 - r.width())
                };
                if hi >= lo {
                    // Along its arrow, always above it.
                    let along = [hi - r.x0, (lo + hi) / 2.0 - r.x0, lo - r.x0];
                    shifts.extend(along.map(|dx| (dx, 0.0)));
                }
            }
            Piece::Note { lanes, .. } if lanes.0 == lanes.1 => {
                // Sideways while still over its own lane and no other (never beside it, where
                // it would read as the neighbour's).
                if let Some((lo, hi)) = frame.note_range(lanes.0, r.width()) {
                    let (left, right) = (lo - r.x0, hi - r.x0);
                    for f in [0.25, 0.5, 1.0] {
                        for dx in [left * f, right * f] {
                            if dx != 0.0 {
                                shifts.push((dx, 0.0));
                            }
                        }
                    }
                }
            }
            _ => {}
        }
        shifts.into_iter().find_map(|(dx, dy)| {
            let moved = Item {
                shape: Shape::Box(r.shifted(dx, dy)),
                ..item
            };
            let clear = self.board.clashing(&moved).iter().all(|&o| o == id)
                && !items.iter().chain(pending).any(|i| {
                    let mut b = Board::default();
                    b.add(*i);
                    b.clashes(&moved)
                })
                && r.shifted(dx, 0.0).x0 >= frame.area_left;
            clear.then_some(moved)
        })
    }

    /// The receiver nearest its sender among the members of the group led by `lead` (sent from
    /// `from`): a fan-out's label must stay before that head.
    fn nearest_member(&self, lead: usize, from: usize) -> usize {
        let frame = self.input.frame;
        self.input.pieces[lead..]
            .iter()
            .take_while(|p| match p {
                Piece::ArrowEnd => true,
                Piece::Arrow { group, .. } => *group == Some(lead),
                _ => false,
            })
            .filter_map(|p| match p {
                Piece::Arrow { to, .. } => Some(*to),
                _ => None,
            })
            .min_by(|a, b| {
                let d = |l: usize| (frame.x(l) - frame.x(from)).abs();
                d(*a).total_cmp(&d(*b))
            })
            .unwrap_or(from)
    }
}
