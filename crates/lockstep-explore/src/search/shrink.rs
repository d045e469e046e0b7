//! Shrinking a counterexample: drop faults and delivery-order choices, shorten pauses, move
//! faults later, for as long as the schedule still ends in a double write. Deterministic: the same
//! input gives the same result.

use lockstep_core::Scenario;
use lockstep_core::scenario::{Fault, FaultKind, Order};
use lockstep_core::sim::Sim;

use crate::outcome::{RunOutcome, run_to_outcome};

/// What a counterexample adds to the workload: faults, and which message goes first where
/// several are due at one node at once (`[[order]]` entries).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Schedule {
    pub faults: Vec<Fault>,
    pub orders: Vec<Order>,
}

impl Schedule {
    /// Faults only, in the sent order of messages.
    pub fn faults(faults: &[Fault]) -> Schedule {
        Schedule {
            faults: faults.to_vec(),
            orders: Vec::new(),
        }
    }
}

/// The workload with these faults, sorted by time (stable, so same-instant faults keep order).
pub fn with_faults(work: &Scenario, faults: &[Fault]) -> Scenario {
    with_schedule(work, &Schedule::faults(faults))
}

/// The workload with this schedule: faults and order entries each sorted by time (stable, so
/// same-instant entries keep their order).
pub fn with_schedule(work: &Scenario, schedule: &Schedule) -> Scenario {
    let mut s = work.clone();
    s.faults = schedule.faults.clone();
    s.faults.sort_by_key(|f| f.at_ms.unwrap_or(0));
    s.order = schedule.orders.clone();
    s.order.sort_by_key(|o| o.at_ms);
    s
}

/// Whether the workload with this schedule double-writes.
pub fn breaks(work: &Scenario, schedule: &Schedule) -> bool {
    let s = with_schedule(work, schedule);
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

/// Drops the items of `list`, one at a time, that `breaks_with` shows are not needed to break.
fn drop_unneeded<T: Clone>(list: &mut Vec<T>, mut breaks_with: impl FnMut(&[T]) -> bool) {
    let mut i = 0;
    while i < list.len() {
        let mut fewer = list.clone();
        fewer.remove(i);
        if breaks_with(&fewer) {
            *list = fewer;
        } else {
            i += 1;
        }
    }
}

/// Shrinks a failing schedule of `work`. `latest_ms` bounds how late a fault may move.
/// Returns the input (sorted) unchanged if it does not fail.
pub fn shrink(work: &Scenario, schedule: &Schedule, latest_ms: u64) -> Schedule {
    let sorted = |s: &Schedule| {
        let w = with_schedule(work, s);
        Schedule {
            faults: w.faults,
            orders: w.order,
        }
    };
    let mut current = sorted(schedule);
    if !breaks(work, &current) {
        return current;
    }
    for _round in 0..8 {
        let before = current.clone();
        // Drop faults, then order choices, one at a time, while it still breaks.
        let orders = current.orders.clone();
        drop_unneeded(&mut current.faults, |faults| {
            breaks(
                work,
                &Schedule {
                    faults: faults.to_vec(),
                    orders: orders.clone(),
                },
            )
        });
        let faults = current.faults.clone();
        drop_unneeded(&mut current.orders, |orders| {
            breaks(
                work,
                &Schedule {
                    faults: faults.clone(),
                    orders: orders.to_vec(),
                },
            )
        });
        let faults = &mut current.faults;
        let orders = &current.orders;
        let breaks_with = |faults: &[Fault]| {
            breaks(
                work,
                &Schedule {
                    faults: faults.to_vec(),
                    orders: orders.clone(),
                },
            )
        };
        // Shorten each pause to the least length that still breaks.
        for i in 0..faults.len() {
            if faults[i].kind != FaultKind::Pause {
                continue;
            }
            let d = faults[i].duration_ms.unwrap_or(0);
            let best = least(1, d, |len| {
                let mut trial = faults.clone();
                trial[i].duration_ms = Some(len);
                breaks_with(&trial)
            });
            faults[i].duration_ms = Some(best);
        }
        // Move each fault as late as it can go.
        for i in 0..faults.len() {
            let at = faults[i].at_ms.unwrap_or(0);
            if at >= latest_ms {
                continue;
            }
            let fails_at = |t: u64| {
                let mut trial = faults.clone();
                trial[i].at_ms = Some(t);
                breaks_with(&trial)
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
            faults[i].at_ms = Some(best);
        }
        current = sorted(&current);
        if current == before {
            break;
        }
    }
    current
}
