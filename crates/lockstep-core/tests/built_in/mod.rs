//! Helpers for tests of the built-in scenarios: run one by id, and read when an event happened.

use lockstep_core::trace::{EventKind, Trace};
use lockstep_core::{Run, catalogue, run};

/// Runs the built-in scenario `id`.
pub fn run_id(id: &str) -> Run {
    match catalogue::load(id) {
        Some(Ok(s)) => run(&s),
        other => panic!("{id}: {other:?}"),
    }
}

/// When the first event labelled exactly `label` happened, in true time.
pub fn time_of(r: &Run, label: &str) -> u64 {
    r.trace
        .events
        .iter()
        .find(|e| e.label == label)
        .map(|e| e.time_ms)
        .unwrap_or_else(|| panic!("no {label}"))
}

/// `worker`'s sends whose label starts with `prefix`: (time, receiver).
#[allow(dead_code)] // not every test file that uses these helpers needs this one
pub fn sends(trace: &Trace, worker: &str, prefix: &str) -> Vec<(u64, String)> {
    let name = |i: u16| trace.participants[usize::from(i)].name.clone();
    trace
        .events
        .iter()
        .filter(|e| e.kind == EventKind::Send && e.label.starts_with(prefix))
        .filter(|e| name(e.from) == worker)
        .map(|e| (e.time_ms, name(e.to)))
        .collect()
}
