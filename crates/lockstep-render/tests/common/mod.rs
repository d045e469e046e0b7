//! Helpers shared by the integration tests: the catalogue's runs and message counts.

#![allow(dead_code)]

use std::collections::BTreeSet;

use lockstep_core::{EventKind, Run, Scenario, Trace};
use lockstep_render::{Layout, Options, TimeMode, layout};

/// Every built-in scenario with its run.
pub fn catalogue() -> Vec<(String, Scenario, Run)> {
    lockstep_core::catalogue::ids()
        .map(|id| {
            let scenario = match lockstep_core::catalogue::load(id) {
                Some(Ok(s)) => s,
                other => panic!("built-in {id} does not load: {other:?}"),
            };
            let run = lockstep_core::run(&scenario);
            (id.to_string(), scenario, run)
        })
        .collect()
}

/// One built-in scenario with its run.
pub fn load(id: &str) -> (Scenario, Run) {
    let scenario = match lockstep_core::catalogue::load(id) {
        Some(Ok(s)) => s,
        other => panic!("built-in {id} does not load: {other:?}"),
    };
    let run = lockstep_core::run(&scenario);
    (scenario, run)
}

/// Messages in the first `steps` events: distinct message ids of sends, deliveries and losses,
/// plus sends without an id.
pub fn messages(trace: &Trace, steps: usize) -> usize {
    let events = &trace.events[..steps.min(trace.events.len())];
    let ids: BTreeSet<u64> = events
        .iter()
        .filter(|e| {
            matches!(
                e.kind,
                EventKind::Send | EventKind::Deliver | EventKind::Lost
            )
        })
        .filter_map(|e| e.message)
        .collect();
    let anonymous = events
        .iter()
        .filter(|e| e.kind == EventKind::Send && e.message.is_none())
        .count();
    ids.len() + anonymous
}

/// Messages whose fate in the trace is "lost".
pub fn lost_messages(trace: &Trace) -> usize {
    trace
        .events
        .iter()
        .filter(|e| e.kind == EventKind::Lost)
        .count()
}

/// Lays out every built-in scenario in both time modes, in full and stopped at each fraction
/// `(num, den)` of its steps, and hands each layout to `check` with a name for failure messages
/// ("naive-gc-pause ToScale Some(20)").
pub fn each_layout(fractions: &[(usize, usize)], mut check: impl FnMut(&str, &Layout)) {
    for (id, _, run) in catalogue() {
        let total = run.trace.events.len();
        let stops = std::iter::once(None).chain(fractions.iter().map(|(n, d)| Some(total * n / d)));
        for mode in [TimeMode::Logical, TimeMode::ToScale] {
            for upto in stops.clone() {
                let l = layout(
                    &run.trace,
                    &Options {
                        time_mode: mode,
                        upto_step: upto,
                        ..Options::default()
                    },
                );
                check(&format!("{id} {mode:?} {upto:?}"), &l);
            }
        }
    }
}

/// One run laid out in `mode` (default options otherwise).
pub fn layout_in(run: &Run, mode: TimeMode) -> Layout {
    layout(
        &run.trace,
        &Options {
            time_mode: mode,
            ..Options::default()
        },
    )
}

/// Every built-in scenario's layout to scale (with the scenario's own options).
pub fn each_to_scale() -> Vec<(String, Layout)> {
    catalogue()
        .into_iter()
        .map(|(id, scenario, run)| {
            let options = Options {
                time_mode: TimeMode::ToScale,
                ..Options::default()
            }
            .for_scenario(&scenario);
            (id, layout(&run.trace, &options))
        })
        .collect()
}
