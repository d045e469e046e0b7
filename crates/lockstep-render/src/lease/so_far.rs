//! What the database did up to the last step shown: writes accepted, skipped as repeats and
//! refused, payouts paid twice and the money.

use std::collections::BTreeMap;

use lockstep_core::trace::{Tag, TraceEvent};

/// The database's record up to the last step shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct SoFar {
    /// Writes that applied at least one payout.
    pub writes_accepted: u32,
    /// Writes that applied nothing: every payout a repeat its idempotency key skipped.
    pub writes_skipped: u32,
    pub writes_rejected: u32,
    pub payouts_paid_twice: u32,
    pub cents_paid_twice: u64,
}

impl SoFar {
    /// What the database did by step `shown` of the run `events`, as the core's verdict so far
    /// counts it: a write counts from the step that shows what the database made of it (its
    /// DUPLICATE note or its reply), not from its arrival, so neither runs ahead of the picture
    /// (the presenter's strip said "paid twice" one step before the DUPLICATE row).
    pub fn upto(events: &[TraceEvent], shown: usize) -> SoFar {
        SoFar::of(&events[..shown.min(events.len())])
    }

    /// What the database did in `events`: writes accepted and refused, payouts paid twice.
    /// The database notes a duplicate just before it sends the accepting reply of the same
    /// write, so the write counts as accepted from the duplicate on (its reply then adds
    /// nothing): a prefix that ends between the two never says "paid twice" with one write
    /// accepted.
    pub fn of(events: &[TraceEvent]) -> SoFar {
        let mut so_far = SoFar::default();
        // Per database node: duplicates already counted as accepted whose reply is still due.
        let mut counted_early: BTreeMap<usize, u32> = BTreeMap::new();
        for e in events {
            match e.tag {
                Some(Tag::WriteAccepted {
                    applied: 0,
                    noops: 1..,
                    ..
                }) => so_far.writes_skipped += 1,
                Some(Tag::WriteAccepted { .. }) => {
                    match counted_early.get_mut(&usize::from(e.from)) {
                        Some(n) if *n > 0 => *n -= 1,
                        _ => so_far.writes_accepted += 1,
                    }
                }
                Some(Tag::AccessRejected { write: true, .. }) => so_far.writes_rejected += 1,
                Some(Tag::Duplicate { payouts, cents }) => {
                    so_far.payouts_paid_twice += payouts;
                    so_far.cents_paid_twice += cents;
                    so_far.writes_accepted += 1;
                    *counted_early.entry(usize::from(e.from)).or_default() += 1;
                }
                _ => {}
            }
        }
        so_far
    }
}
