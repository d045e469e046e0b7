//! Helpers shared by the integration tests: the catalogue's runs and message counts.

#![allow(dead_code)]

use std::collections::BTreeSet;

use lockstep_core::{EventKind, Run, Scenario, Trace};

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
