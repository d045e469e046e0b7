//! Lanes: their order, their headers, and the gaps between them (wide enough for the labels of
//! the arrows that cross them).

use lockstep_core::sort;
use lockstep_core::topology::{NodeId, Participant, Role};

use super::LaneOrder;
use crate::geom::{Point, Rect};
use crate::style;
use crate::text::{self, Align, TextBox};

/// Narrowest gap between two lifelines.
pub(super) const MIN_GAP: f64 = 170.0;
/// An arrow's label starts this far from the sender's lifeline (clear of the span bars).
pub(super) const LABEL_INSET: f64 = 22.0;
/// Longest label width the gaps are widened for; longer labels run past the arrow's head.
const MAX_LABEL_SPAN: f64 = 880.0;
/// Padding around header text.
const HEADER_PAD: f64 = 6.0;

/// Participants (as node ids) from left to right.
pub fn lane_order(participants: &[Participant], order: LaneOrder) -> Vec<NodeId> {
    let ids = (0..participants.len()).filter_map(|i| NodeId::try_from(i).ok());
    match order {
        LaneOrder::AsTraced => ids.collect(),
        LaneOrder::WorkersAroundService => {
            let role = |id: &NodeId| participants[usize::from(*id)].role;
            let workers: Vec<NodeId> = ids.clone().filter(|i| role(i) == Role::Worker).collect();
            let service: Vec<NodeId> = ids.clone().filter(|i| role(i).is_lock_service()).collect();
            let db: Vec<NodeId> = ids.clone().filter(|i| role(i) == Role::Database).collect();
            let left = if service.is_empty() {
                workers.len()
            } else {
                workers.len().div_ceil(2)
            };
            let mut out = Vec::with_capacity(participants.len());
            out.extend_from_slice(&workers[..left]);
            out.extend_from_slice(&service);
            out.extend_from_slice(&workers[left..]);
            out.extend_from_slice(&db);
            let rest: Vec<NodeId> = ids.filter(|i| !out.contains(i)).collect();
            out.extend(rest);
            out
        }
    }
}

/// `order` with the lanes a network partition names grouped by side (each side's lanes next to
/// each other, in the places those lanes had), so a wall between the sides does not stand between
/// two nodes that still talk. The first partition of the run decides; unnamed lanes stay put.
pub(super) fn partition_order(
    order: Vec<NodeId>,
    participants: &[Participant],
    events: &[lockstep_core::trace::TraceEvent],
) -> Vec<NodeId> {
    use lockstep_core::trace::Tag;
    let Some(groups) = events.iter().find_map(|e| match &e.tag {
        Some(Tag::Partition { groups }) => Some(groups),
        _ => None,
    }) else {
        return order;
    };
    let side = |n: NodeId| {
        let name = &participants[usize::from(n)].name;
        groups.iter().position(|g| g.contains(name))
    };
    let places: Vec<usize> = (0..order.len())
        .filter(|&i| side(order[i]).is_some())
        .collect();
    let mut named: Vec<NodeId> = places.iter().map(|&i| order[i]).collect();
    // Stable: within a side, the usual order.
    sort::sort_by_key(&mut named, |&n| side(n));
    let mut out = order;
    for (&i, n) in places.iter().zip(named) {
        out[i] = n;
    }
    out
}

/// A short description of a role for the lane header.
pub(super) fn role_text(role: Role) -> &'static str {
    match role {
        Role::Worker => "worker",
        Role::Redis => "redis lock",
        Role::RedisReplica => "redis replica",
        Role::RedlockInstance => "redlock instance",
        Role::ConsensusNode => "consensus node",
        Role::Database => "database",
    }
}

/// The two lines of a lane header centred at `x`, with its top at `top`, and the box around them.
pub(super) fn header(name: &str, role: &str, x: f64, top: f64) -> ([TextBox; 2], Rect) {
    header_with(name, role, x, top)
}

/// The role line of a database that takes writes without a token.
pub(super) const PERMISSIVE_ROLE: &str = "database (permissive)";

/// A lane's role line: a permissive database says that it takes writes without a token.
pub(super) fn role_line(role: Role, permissive_db: bool) -> &'static str {
    if permissive_db && role == Role::Database {
        PERMISSIVE_ROLE
    } else {
        role_text(role)
    }
}

/// The header's role line of a replica the run promotes: what it starts as and becomes.
pub(super) const PROMOTED_HEADER: &str = "redis replica → master";

/// A lane's header role line over the whole run: a replica that takes over at some step says
/// so from the start ("redis replica → master"), so a reader at the top of a long picture
/// knows; the footer says what it is at the last step shown.
pub(super) fn header_role(
    trace: &lockstep_core::Trace,
    node: NodeId,
    permissive_db: bool,
) -> &'static str {
    let p = &trace.participants[usize::from(node)];
    let promoted = p.role == Role::RedisReplica
        && trace.events.iter().any(|e| {
            e.from == node && matches!(e.tag, Some(lockstep_core::trace::Tag::FailedOver))
        });
    if promoted {
        PROMOTED_HEADER
    } else {
        role_line(p.role, permissive_db)
    }
}

/// A lane header whose second line says `role`.
pub(super) fn header_with(name: &str, role: &str, x: f64, top: f64) -> ([TextBox; 2], Rect) {
    let name_h = text::line_height(style::HEADER_SIZE);
    let role_h = text::line_height(style::ROLE_SIZE);
    let name_box = TextBox::new(
        name,
        style::HEADER_SIZE,
        Align::Center,
        Point::new(x, top + HEADER_PAD + name_h / 2.0),
        0.0,
    )
    .bold();
    let role_box = TextBox::new(
        role,
        style::ROLE_SIZE,
        Align::Center,
        Point::new(x, top + HEADER_PAD + name_h + role_h / 2.0),
        0.0,
    );
    let rect = name_box.rect.union(&role_box.rect).inflate(HEADER_PAD);
    ([name_box, role_box], rect)
}

/// Height of a lane header.
pub(super) fn header_height() -> f64 {
    text::line_height(style::HEADER_SIZE) + text::line_height(style::ROLE_SIZE) + 2.0 * HEADER_PAD
}

/// Half the width of a lane header.
pub(super) fn header_half_width(name: &str, role: &str) -> f64 {
    let w = text::width(name, style::HEADER_SIZE).max(text::width(role, style::ROLE_SIZE));
    w / 2.0 + HEADER_PAD
}

/// The gaps between adjacent lanes. `arrows` are (from lane, to lane, label width); `halves` are
/// each lane's header half-width.
pub(super) fn gaps(lanes: usize, arrows: &[(usize, usize, f64)], halves: &[f64]) -> Vec<f64> {
    let mut gaps = vec![MIN_GAP; lanes.saturating_sub(1)];
    for (i, g) in gaps.iter_mut().enumerate() {
        *g = g.max(halves[i] + halves[i + 1] + 16.0);
    }
    let mut needs: Vec<(usize, usize, f64)> = arrows
        .iter()
        .filter(|(a, b, _)| a != b)
        .map(|&(a, b, w)| {
            (
                a.min(b),
                a.max(b),
                w.min(MAX_LABEL_SPAN) + LABEL_INSET + 24.0,
            )
        })
        .collect();
    // Short arrows first: they can only be helped by their own few gaps.
    sort::sort_by(&mut needs, |x, y| {
        (x.1 - x.0)
            .cmp(&(y.1 - y.0))
            .then(x.0.cmp(&y.0))
            .then(x.1.cmp(&y.1))
    });
    for (lo, hi, need) in needs {
        let have: f64 = gaps[lo..hi].iter().sum();
        if have < need {
            let extra = (need - have) / (hi - lo) as f64;
            for g in &mut gaps[lo..hi] {
                *g += extra;
            }
        }
    }
    // Whole pixels keep the SVG's integer coordinates faithful to the layout.
    gaps.iter().map(|g| g.ceil()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(name: &str, role: Role) -> Participant {
        Participant {
            name: name.into(),
            role,
        }
    }

    #[test]
    fn workers_sit_around_the_service() {
        let ps = [
            p("A", Role::Worker),
            p("B", Role::Worker),
            p("redis", Role::Redis),
            p("db", Role::Database),
        ];
        assert_eq!(
            lane_order(&ps, LaneOrder::WorkersAroundService),
            [0, 2, 1, 3]
        );
        assert_eq!(lane_order(&ps, LaneOrder::AsTraced), [0, 1, 2, 3]);
        let no_lock = [
            p("A", Role::Worker),
            p("B", Role::Worker),
            p("db", Role::Database),
        ];
        assert_eq!(
            lane_order(&no_lock, LaneOrder::WorkersAroundService),
            [0, 1, 2]
        );
        let three = [
            p("A", Role::Worker),
            p("B", Role::Worker),
            p("C", Role::Worker),
            p("n1", Role::ConsensusNode),
            p("n2", Role::ConsensusNode),
            p("db", Role::Database),
        ];
        assert_eq!(
            lane_order(&three, LaneOrder::WorkersAroundService),
            [0, 1, 3, 4, 2, 5]
        );
    }

    #[test]
    fn gaps_grow_to_fit_labels() {
        let g = gaps(3, &[(0, 1, 400.0), (2, 0, 100.0)], &[10.0, 10.0, 10.0]);
        assert!(g[0] >= 400.0 + LABEL_INSET);
        assert_eq!(g[1], MIN_GAP);
        // A long arrow over two gaps is satisfied by their sum.
        let g = gaps(3, &[(0, 2, 500.0)], &[10.0, 10.0, 10.0]);
        assert!(g[0] + g[1] >= 500.0 + LABEL_INSET);
        assert!((g[0] - g[1]).abs() < 1.0);
    }
}
