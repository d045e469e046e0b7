//! The database's record up to a step, counted so that its numbers agree with each other.

use lockstep_core::trace::{Tag, TraceEvent};

use crate::lease::SoFar;

/// What the database did in the first `shown` events. The database notes a duplicate (a state
/// event) just before it sends the accepting reply of the same write, so a step render stopping
/// between the two would say "paid twice" with one write accepted: the duplicate's write counts
/// as accepted from the duplicate on.
pub(super) fn so_far(events: &[TraceEvent], shown: usize) -> SoFar {
    let shown = shown.min(events.len());
    let mut so_far = SoFar::of(&events[..shown]);
    // A duplicate shown whose accepting reply is not: its write is accepted already.
    for (i, e) in events[..shown].iter().enumerate() {
        if !matches!(e.tag, Some(Tag::Duplicate { .. })) {
            continue;
        }
        let reply = events[i + 1..]
            .iter()
            .position(|r| r.from == e.from && matches!(r.tag, Some(Tag::WriteAccepted { .. })))
            .map(|p| i + 1 + p);
        if reply.is_some_and(|r| r >= shown) {
            so_far.writes_accepted += 1;
        }
    }
    so_far
}
