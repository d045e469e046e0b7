//! The footer's words: the whole run's verdict, or what a step render has seen so far.

use lockstep_core::actors::db::money;
use lockstep_core::{Outcome, Verdict};

use crate::layout::{Layout, MarkKind, SpanKind};
use crate::style::{self, Rgb};

/// The verdict as a headline, its colour and symbol, and detail lines.
pub(crate) fn verdict_text(v: &Verdict) -> (String, Rgb, MarkKind, Vec<String>) {
    let (headline, color, mark) = match v.outcome {
        Outcome::Safe => (
            "Verdict: safe. Every payout was paid exactly once.".to_string(),
            style::OK,
            MarkKind::WriteAccepted,
        ),
        Outcome::DoubleWrite => (
            format!(
                "Verdict: double-write. {} paid twice.",
                money(v.money_paid_twice_cents)
            ),
            style::DANGER,
            MarkKind::Duplicate,
        ),
        Outcome::NotProcessed => (
            "Verdict: not processed. Nothing paid twice, but the batch was not paid.".to_string(),
            style::TIMER,
            MarkKind::AccessRejected,
        ),
        Outcome::Inconclusive => (
            "Verdict: inconclusive. A limit stopped the run before it finished.".to_string(),
            style::TIMER,
            MarkKind::AccessRejected,
        ),
    };
    let mut lines = Vec::new();
    let mut paid = format!("payouts applied: {} of {}", v.payouts_applied, v.payouts);
    if v.payouts_duplicated > 0 {
        paid.push_str(&format!(
            "; applied more than once: {} ({} paid twice)",
            v.payouts_duplicated,
            money(v.money_paid_twice_cents)
        ));
    }
    lines.push(paid);
    let mut writes = format!(
        "writes accepted: {}, refused by fencing: {}",
        v.writes_accepted, v.writes_rejected
    );
    if v.reads_rejected > 0 {
        writes.push_str(&format!("; reads refused by fencing: {}", v.reads_rejected));
    }
    lines.push(writes);
    lines.extend(v.other_refusals());
    if v.idempotent_noops > 0 {
        lines.push(skipped_line(v.writes_skipped, v.idempotent_noops));
    }
    for o in &v.overlaps {
        lines.push(o.sentence());
    }
    (headline, color, mark, lines)
}

/// What the database did so far, in one line: writes accepted, refused, repeats skipped.
pub(crate) fn so_far_counts(f: &crate::lease::SoFar) -> String {
    let mut s = format!(
        "writes accepted: {}, refused by fencing: {}",
        f.writes_accepted, f.writes_rejected
    );
    if f.writes_skipped > 0 {
        s.push_str(&format!(
            "; repeats skipped by idempotency keys: {} (applied nothing)",
            f.writes_skipped
        ));
    }
    s
}

/// The repeats idempotency keys skipped: writes the database took but applied nothing of, and
/// the payouts skipped in all.
pub(crate) fn skipped_line(writes: u32, payouts: u32) -> String {
    let w = if writes == 1 { "write" } else { "writes" };
    format!("repeats skipped by idempotency keys: {payouts} payouts ({writes} {w} applied nothing)")
}

/// What the steps `layout` shows did, as a headline, its colour and symbol, and detail lines:
/// the database's record so far and the danger zones that have begun.
pub(super) fn so_far_text(layout: &Layout) -> (String, Rgb, MarkKind, Vec<String>) {
    let f = layout.so_far;
    let (headline, color, mark) = if f.payouts_paid_twice > 0 {
        (
            format!(
                "So far (step {} of {}): {} paid twice.",
                layout.rows.len(),
                layout.total_steps,
                money(f.cents_paid_twice)
            ),
            style::DANGER,
            MarkKind::Duplicate,
        )
    } else {
        (
            format!(
                "So far (step {} of {}): nothing paid twice.",
                layout.rows.len(),
                layout.total_steps
            ),
            style::TEXT,
            MarkKind::InFlight,
        )
    };
    let mut lines = vec![so_far_counts(&f)];
    for s in &layout.spans {
        if let SpanKind::Overlap { first, second } = &s.kind {
            let from = layout.rows[s.from_row].time_ms;
            lines.push(match s.to_row.and_then(|r| layout.rows.get(r)) {
                Some(to) => format!(
                    "{first} and {second} both believed they held the lock from {from} to {} ms",
                    to.time_ms
                ),
                None => {
                    format!("{first} and {second} both believe they hold the lock since {from} ms")
                }
            });
        }
    }
    (headline, color, mark, lines)
}
