//! Shrinking a counterexample: drop faults, shorten pauses, move faults later, for as long as the
//! schedule still ends in a double write. Deterministic: the same input gives the same result.

use lockstep_core::Scenario;
use lockstep_core::scenario::{Fault, FaultKind};
use lockstep_core::sim::Sim;

use crate::outcome::{RunOutcome, run_to_outcome};

/// The workload with these faults, sorted by time (stable, so same-instant faults keep order).
pub fn with_faults(work: &Scenario, faults: &[Fault]) -> Scenario {
    let mut s = work.clone();
    s.faults = faults.to_vec();
    s.faults.sort_by_key(|f| f.at_ms.unwrap_or(0));
    s
}

/// Whether the workload with these faults double-writes.
pub fn breaks(work: &Scenario, faults: &[Fault]) -> bool {
    let s = with_faults(work, faults);
    if lockstep_core::scenario::check(&s).is_err() {
        return false;
    }
    let mut sim = Sim::new(&s);
    run_to_outcome(&mut sim, &mut Vec::new()).0 == RunOutcome::DoubleWrite
}

/// The smallest value in `lo..=hi` for which `fails` holds, given that it holds at `hi`
/// (binary search; if `fails` is not monotone the result still fails).
fn least(mut lo: u64, mut hi: u64, mut fails: impl FnMut(u64) -> bool) -> u64 {
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if fails(mid) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    hi
}

/// The largest value in `lo..=hi` for which `fails` holds, given that it holds at `lo`.
fn greatest(mut lo: u64, mut hi: u64, mut fails: impl FnMut(u64) -> bool) -> u64 {
    while lo < hi {
        let mid = lo + (hi - lo).div_ceil(2);
        if fails(mid) {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    lo
}

/// Shrinks a failing schedule of `work`. `latest_ms` bounds how late a fault may move.
/// Returns the input unchanged if it does not fail.
pub fn shrink(work: &Scenario, faults: &[Fault], latest_ms: u64) -> Vec<Fault> {
    let mut current: Vec<Fault> = with_faults(work, faults).faults;
    if !breaks(work, &current) {
        return current;
    }
    for _round in 0..8 {
        let before = current.clone();
        // Drop faults, one at a time, while it still breaks.
        let mut i = 0;
        while i < current.len() {
            let mut fewer = current.clone();
            fewer.remove(i);
            if breaks(work, &fewer) {
                current = fewer;
            } else {
                i += 1;
            }
        }
        // Shorten each pause to the least length that still breaks.
        for i in 0..current.len() {
            if current[i].kind != FaultKind::Pause {
                continue;
            }
            let d = current[i].duration_ms.unwrap_or(0);
            let best = least(1, d, |len| {
                let mut trial = current.clone();
                trial[i].duration_ms = Some(len);
                breaks(work, &trial)
            });
            current[i].duration_ms = Some(best);
        }
        // Move each fault as late as it can go.
        for i in 0..current.len() {
            let at = current[i].at_ms.unwrap_or(0);
            if at >= latest_ms {
                continue;
            }
            let fails_at = |t: u64| {
                let mut trial = current.clone();
                trial[i].at_ms = Some(t);
                breaks(work, &trial)
            };
            // Scan down from the latest time in 32 strides (failing times need not be one
            // interval), then refine within the stride to the millisecond.
            let stride = ((latest_ms - at) / 32).max(1);
            let mut t = latest_ms;
            while t > at && !fails_at(t) {
                t = t.saturating_sub(stride).max(at);
            }
            let best = if t > at {
                greatest(t, (t + stride - 1).min(latest_ms), fails_at)
            } else {
                at
            };
            current[i].at_ms = Some(best);
        }
        current = with_faults(work, &current).faults;
        if current == before {
            break;
        }
    }
    current
}
