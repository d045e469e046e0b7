//! Shrinking a counterexample: drop faults and delivery-order choices, shorten pauses, move
//! faults later, for as long as the schedule still ends in a double write. Deterministic: the same
//! input gives the same result.
//!
//! Shortening a pause to the last millisecond that still fails tends to land on a tie: two
//! messages due at one node at the same instant, where the default (sent) order fails and the
//! other order is safe. A real network promises no such order. So pauses are rounded up to 10 ms
//! where that still fails, and a schedule whose double write did not hang on a tie before
//! shrinking gets a margin back if it does after (a pause a little longer, or a fault a little
//! earlier); one that still hangs on a tie gets the tie's order written as an `[[order]]` entry.

use lockstep_core::Scenario;
use lockstep_core::scenario::{Fault, FaultKind, Order};
use lockstep_core::sim::Sim;
use lockstep_core::sort;
use lockstep_core::topology::NodeId;

use crate::outcome::{RunOutcome, double_written, run_to_outcome};

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
    sort::sort_by_key(&mut s.faults, |f| f.at_ms.unwrap_or(0));
    s.order = schedule.orders.clone();
    sort::sort_by_key(&mut s.order, |o| o.at_ms);
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

/// The tie the double write of `schedule` hangs on, if any: from the first fault's instant on,
/// several messages are due at one node at the same instant, no `[[order]]` entry of the
/// schedule decides between them, and handling another one first makes the run safe. Returned as
/// the `[[order]]` entry that states the order the run took (the message sent first goes first).
pub fn hangs_on_a_tie(work: &Scenario, schedule: &Schedule) -> Option<Order> {
    let s = with_schedule(work, schedule);
    lockstep_core::scenario::check(&s).ok()?;
    // Ties before the first fault are the scenario's own (the same in its fault-free run).
    let since = schedule
        .faults
        .iter()
        .map(|f| f.at_ms.unwrap_or(0))
        .min()
        .unwrap_or(0);
    let mut sim = Sim::new(&s);
    let mut events = Vec::new();
    loop {
        if sim.end.is_some() || double_written(&sim) {
            return None;
        }
        if let Some(contest) = sim.contest()
            && contest.at_ms >= since
        {
            let names = &sim.params.names;
            let to = names[usize::from(contest.to)].clone();
            let decided = schedule
                .orders
                .iter()
                .any(|o| o.at_ms == contest.at_ms && o.to == to);
            let entry = |(from, label): &(NodeId, String)| Order {
                at_ms: contest.at_ms,
                to: to.clone(),
                from: Some(names[usize::from(*from)].clone()),
                match_label: Some(label.clone()),
            };
            let first = &contest.messages[0];
            for other in contest.messages[1..].iter().filter(|m| *m != first) {
                if decided {
                    break;
                }
                let mut flipped = sim.clone();
                if flipped.put_first(&entry(other))
                    && run_to_outcome(&mut flipped, &mut events).0 != RunOutcome::DoubleWrite
                {
                    return Some(entry(first));
                }
            }
        }
        events.clear();
        if !sim.advance(&mut events) {
            return None;
        }
    }
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

/// A schedule near `schedule` that breaks whatever the order of its ties: a pause a little
/// longer (a round length first), or else a fault a little earlier. Checking ties costs a run per
/// tie, so shrinking checks them here, once, rather than at every step of its searches.
fn with_margin(work: &Scenario, schedule: &Schedule) -> Option<Schedule> {
    let firm = |s: &Schedule| breaks(work, s) && hangs_on_a_tie(work, s).is_none();
    for i in 0..schedule.faults.len() {
        if schedule.faults[i].kind != FaultKind::Pause {
            continue;
        }
        let d = schedule.faults[i].duration_ms.unwrap_or(0);
        let round = (d / 10 + 1) * 10;
        let longer = std::iter::once(round)
            .chain(d + 1..round)
            .chain((1..=20).map(|k| round + 10 * k));
        for len in longer {
            let mut trial = schedule.clone();
            trial.faults[i].duration_ms = Some(len);
            if firm(&trial) {
                return Some(trial);
            }
        }
    }
    for i in 0..schedule.faults.len() {
        let at = schedule.faults[i].at_ms.unwrap_or(0);
        for earlier in (1..=20).filter_map(|k| at.checked_sub(k)) {
            let mut trial = schedule.clone();
            trial.faults[i].at_ms = Some(earlier);
            if firm(&trial) {
                return Some(trial);
            }
        }
    }
    None
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
    // A schedule that fails whatever the order of its ties keeps failing so once shrunk.
    let robust = hangs_on_a_tie(work, &current).is_none();
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
        // Shorten each pause to the least length that still breaks, then round it up to the
        // next 10 ms if that still breaks: a margin, and a length that reads as chosen.
        for i in 0..faults.len() {
            if faults[i].kind != FaultKind::Pause {
                continue;
            }
            let d = faults[i].duration_ms.unwrap_or(0);
            let fails = |len: u64| {
                let mut trial = faults.clone();
                trial[i].duration_ms = Some(len);
                breaks_with(&trial)
            };
            let least = least(1, d, fails);
            let round = least.div_ceil(10) * 10;
            let best = if round != least && round <= d && fails(round) {
                round
            } else {
                least
            };
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
    if robust && hangs_on_a_tie(work, &current).is_some() {
        current = with_margin(work, &current).unwrap_or(current);
    }
    // Write the ties it hangs on (the order the run took) as `[[order]]` entries.
    for _ in 0..8 {
        let Some(order) = hangs_on_a_tie(work, &current) else {
            break;
        };
        current.orders.push(order);
        current = sorted(&current);
    }
    current
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pausing A for 3068 ms at 2004 ms makes A's stale write and B's read reach db at the same
    /// instant, and only the default order double-writes; 2 ms more and B's read is first.
    #[test]
    fn a_margin_moves_a_schedule_off_its_tie_to_a_round_length() {
        let s = lockstep_core::catalogue::load("naive-happy-path")
            .unwrap()
            .unwrap();
        let work = super::super::workload(&s);
        let mut pause = Fault::new(FaultKind::Pause);
        pause.target = Some("A".into());
        pause.at_ms = Some(2004);
        pause.duration_ms = Some(3068);
        let tied = Schedule::faults(&[pause]);
        assert!(hangs_on_a_tie(&work, &tied).is_some());
        let firm = with_margin(&work, &tied).expect("a margin exists");
        assert_eq!(firm.faults[0].duration_ms, Some(3070));
        assert!(breaks(&work, &firm));
        assert_eq!(hangs_on_a_tie(&work, &firm), None);
    }
}
