//! Sender marks: a dot where a fan-out's arrows leave its sender, so a row reaching lanes on
//! both sides of it says who sends.

use std::collections::BTreeMap;

use super::pieces::Piece;
use crate::geom::Point;

/// A dot on the sender's lifeline of every fan-out (a group of sends leaving one point, as
/// arrows or as stubs of arrows drawn where they arrive): a row reaching lanes on both sides of
/// its sender, one of them crashed, would otherwise read as sent by the lane at its far end.
pub(super) fn sender_marks(
    arrows: &[super::Arrow],
    flights: &[super::Flight],
    pieces: &[Piece],
) -> Vec<super::Mark> {
    let group_of = |row: usize| match pieces.get(row) {
        Some(Piece::Arrow { group, .. }) => *group,
        _ => None,
    };
    // Sends leaving each point (bit patterns of its coordinates): one pass, not one per arrow
    // (a 10,000-event run has thousands of arrows).
    let key = |p: Point| (p.x.to_bits(), p.y.to_bits());
    let mut at: BTreeMap<(u64, u64), (usize, usize)> = BTreeMap::new();
    let mut count = |p: Point, row: usize| {
        let e = at.entry(key(p)).or_insert((0, row));
        e.0 += 1;
        e.1 = e.1.min(row);
    };
    for a in arrows.iter().filter(|a| group_of(a.send_row).is_some()) {
        count(a.start, a.send_row);
    }
    for f in flights {
        count(f.start, f.send_row);
    }
    let mut out: Vec<super::Mark> = Vec::new();
    let mut marked = std::collections::BTreeSet::new();
    for a in arrows.iter().filter(|a| group_of(a.send_row).is_some()) {
        let Some(&(n, row)) = at.get(&key(a.start)) else {
            continue;
        };
        if n < 2 || !marked.insert(key(a.start)) {
            continue;
        }
        out.push(super::Mark {
            row,
            lane: a.from_lane,
            kind: super::MarkKind::Sender,
            at: a.start,
        });
    }
    out
}
