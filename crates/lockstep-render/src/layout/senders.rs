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
    // Sends of one group leaving each point (bit patterns of its coordinates): one pass, not
    // one per arrow (a 10,000-event run has thousands of arrows). Two fan-ins' arrows drawn
    // level from the same instance are not a fan-out of it.
    type Key = (u64, u64, usize);
    let key = |p: Point, g: usize| (p.x.to_bits(), p.y.to_bits(), g);
    let mut at: BTreeMap<Key, (usize, usize)> = BTreeMap::new();
    let mut count = |k: Key, row: usize| {
        let e = at.entry(k).or_insert((0, row));
        e.0 += 1;
        e.1 = e.1.min(row);
    };
    for a in arrows {
        if let Some(g) = group_of(a.send_row) {
            count(key(a.start, g), a.send_row);
        }
    }
    for f in flights {
        if let Some(g) = group_of(f.send_row) {
            count(key(f.start, g), f.send_row);
        }
    }
    let mut out: Vec<super::Mark> = Vec::new();
    let mut marked = std::collections::BTreeSet::new();
    for a in arrows {
        let Some(g) = group_of(a.send_row) else {
            continue;
        };
        let Some(&(n, row)) = at.get(&key(a.start, g)) else {
            continue;
        };
        if n < 2 || !marked.insert(key(a.start, g)) {
            continue;
        }
        out.push(super::Mark {
            row,
            lane: a.from_lane,
            kind: super::MarkKind::Sender,
            at: a.start,
            session: false,
        });
    }
    out
}
