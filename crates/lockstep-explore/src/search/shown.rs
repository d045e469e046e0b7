//! The scenario as a front end shows it: the what-if changes made while stepping turned into the
//! scenario's own faults and settings, so that "find a counterexample" searches the design on
//! screen (a TTL, fencing mode or idempotency switched by a what-if) rather than the file.

use lockstep_core::scenario::Scenario;
use lockstep_core::sort;
use lockstep_core::{Change, TraceEvent, WhatIf};

/// `scenario` with `whatifs` made part of it. `events` is the run they were made on (at least up
/// to the last what-if's step): a what-if fault at step `n` becomes a `[[faults]]` entry at the
/// time of event `n` (a `pause ... after` one too); a changed TTL, fencing mode or idempotency
/// becomes the scenario's setting, from the start of the run. A search sets the faults aside, as
/// it does the scenario's own, and keeps the settings.
pub fn scenario_as_shown(
    scenario: &Scenario,
    whatifs: &[WhatIf],
    events: &[TraceEvent],
) -> Scenario {
    let mut s = scenario.clone();
    let time_at = |step: usize| {
        step.checked_sub(1)
            .and_then(|i| events.get(i))
            .map_or(0, |e| e.time_ms)
    };
    let mut ordered: Vec<&WhatIf> = whatifs.iter().collect();
    sort::sort_by_key(&mut ordered, |w| w.at_step);
    for w in ordered {
        match &w.change {
            Change::Fault(f) => {
                let mut f = f.clone();
                f.at_ms = Some(time_at(w.at_step));
                f.after = None;
                s.faults.push(f);
            }
            Change::SetTtl { ttl_ms } => s.lock.ttl_ms = *ttl_ms,
            Change::SetFencing { fencing } => s.resource.fencing = *fencing,
            Change::SetIdempotency { idempotency } => {
                s.resource.idempotency = *idempotency;
                if !idempotency {
                    s.resource.idempotency_retention_ms = None;
                }
                for worker in &mut s.workers {
                    worker.idempotency_keys = *idempotency;
                }
            }
        }
    }
    s
}
