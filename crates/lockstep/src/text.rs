//! The text timeline of `lockstep run`: one line per event, then the verdict.

use std::fmt::Write;

use lockstep_core::actors::db::money;
use lockstep_core::{EventKind, Run, Scenario};

/// Renders a finished run for a terminal or a golden file.
pub fn timeline(scenario: &Scenario, run: &Run, explain: bool) -> String {
    let mut s = String::new();
    let trace = &run.trace;
    let _ = writeln!(s, "{} — {}", scenario.name, scenario.title);
    let _ = writeln!(s, "{}\n", scenario.summary);
    let width = trace
        .participants
        .iter()
        .map(|p| p.name.len())
        .max()
        .unwrap_or(1);
    for (i, e) in trace.events.iter().enumerate() {
        let (from, to) = (trace.name(e.from), trace.name(e.to));
        let route = match e.kind {
            EventKind::Send | EventKind::Deliver | EventKind::Lost => {
                let arrow = match e.kind {
                    EventKind::Send => "->",
                    EventKind::Deliver => "=>",
                    _ => "-x",
                };
                format!("{from:>width$} {arrow} {to:<width$}")
            }
            _ if e.is_global() => format!("{:>width$} {:<w$}", "*", "", w = width + 3),
            _ => format!("{from:>width$} {:<w$}", "", w = width + 3),
        };
        let _ = writeln!(
            s,
            "{:>4} {:>7} ms  {:<7} {route}  {}",
            i + 1,
            e.time_ms,
            e.kind.as_str(),
            e.label
        );
        if explain && e.kind != EventKind::Deliver && !e.explanation.is_empty() {
            let _ = writeln!(s, "{:>16}  {}", "", e.explanation);
        }
    }
    let v = &run.verdict;
    let mark = if v.outcome == scenario.expect {
        "as expected"
    } else {
        "EXPECTED "
    };
    let expected = if v.outcome == scenario.expect {
        String::new()
    } else {
        scenario.expect.to_string()
    };
    let _ = writeln!(s, "\nverdict: {} ({mark}{expected})", v.outcome);
    let _ = writeln!(
        s,
        "  payouts applied: {} of {}",
        v.payouts_applied, v.payouts
    );
    if v.payouts_duplicated > 0 {
        let _ = writeln!(
            s,
            "  paid more than once: {} payouts, {} paid twice",
            v.payouts_duplicated,
            money(v.money_paid_twice_cents)
        );
    }
    let _ = writeln!(
        s,
        "  writes accepted: {}, rejected by fencing: {}",
        v.writes_accepted, v.writes_rejected
    );
    if v.reads_rejected > 0 {
        let _ = writeln!(s, "  reads rejected by fencing: {}", v.reads_rejected);
    }
    if v.idempotent_noops > 0 {
        let _ = writeln!(
            s,
            "  repeated payouts made harmless by idempotency keys: {}",
            v.idempotent_noops
        );
    }
    for o in &v.overlaps {
        let _ = writeln!(
            s,
            "  {} and {} both believed they held the lock from {} to {} ms",
            o.first, o.second, o.from_ms, o.to_ms
        );
    }
    if !v.processed {
        let _ = writeln!(s, "  the batch was not processed");
    }
    s
}
