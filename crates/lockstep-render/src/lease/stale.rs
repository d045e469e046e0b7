//! Stale beliefs: the stretches of a worker's "believes it holds the lock" bar after the lock
//! service stopped saying it holds the lock. That is where the hazard lives (Kleppmann's paused
//! client): a write the worker makes there is the stale or duplicate one, so the chart hatches
//! these stretches and the write's mark lands inside them.

use super::{LeaseChart, LeaseRowKind};

/// A stretch of a belief row where the worker believes but the service no longer says so.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Stale {
    /// The worker's belief row.
    pub row: usize,
    /// When the service stopped saying the worker holds the lock.
    pub from_ms: u64,
    /// When the belief ended (or the last step shown, if it goes on).
    pub to_ms: u64,
    /// The belief goes on at the last step shown.
    pub open: bool,
}

/// Stretches shorter than this share of the axis are the worker's own release on its way back
/// (the service frees the key a moment before the worker hears so), not a stale belief.
const LEAST_SHARE: f64 = 0.01;

/// Every stale stretch of `chart`'s belief rows: a part of a belief interval that no interval of
/// the worker's "service says" rows covers and that begins where one of them ended.
pub fn stale(chart: &LeaseChart) -> Vec<Stale> {
    let axis = chart.axis_end_ms.saturating_sub(chart.start_ms).max(1) as f64;
    let least = (axis * LEAST_SHARE).ceil() as u64;
    let mut out = Vec::new();
    for (row, r) in chart.rows.iter().enumerate() {
        if r.kind != LeaseRowKind::Believes {
            continue;
        }
        // Where any node of the service says the worker holds it, merged.
        let mut said: Vec<(u64, u64)> = chart
            .rows
            .iter()
            .filter(|s| s.kind == LeaseRowKind::ServiceHolds && s.worker == r.worker)
            .flat_map(|s| s.intervals.iter().map(|iv| (iv.from_ms, iv.to_ms)))
            .collect();
        said.sort_unstable();
        let mut merged: Vec<(u64, u64)> = Vec::new();
        for (a, b) in said {
            match merged.last_mut() {
                Some(last) if a <= last.1 => last.1 = last.1.max(b),
                _ => merged.push((a, b)),
            }
        }
        for iv in &r.intervals {
            // Walk the belief from its start, skipping what the service covers.
            let mut at = iv.from_ms;
            for &(a, b) in &merged {
                if b <= at || a >= iv.to_ms {
                    continue;
                }
                // Uncovered before this grant is a belief the service has not backed yet, not a
                // stale one (nothing ended): only what follows the grant's end counts.
                at = at.max(b);
                // From the end of this service interval to the next one (or the belief's end).
                let next = merged
                    .iter()
                    .map(|&(a2, _)| a2)
                    .find(|&a2| a2 > at)
                    .unwrap_or(u64::MAX)
                    .min(iv.to_ms);
                if next > at && next - at >= least {
                    out.push(Stale {
                        row,
                        from_ms: at,
                        to_ms: next,
                        open: iv.open && next == iv.to_ms,
                    });
                }
            }
        }
    }
    out
}
