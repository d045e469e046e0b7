//! Shared helpers for the cross-crate test suites.

use lockstep_core::document::TraceDocument;
use lockstep_core::{Run, Scenario, catalogue, parse_scenario, run};

/// A built-in scenario, parsed; panics with the error if it does not parse (a test failure).
pub fn builtin(id: &str) -> Scenario {
    match catalogue::load(id) {
        Some(Ok(s)) => s,
        Some(Err(e)) => panic!("built-in {id} does not parse: {e}"),
        None => panic!("no built-in scenario {id}"),
    }
}

/// Parses TOML text that the test expects to be valid.
pub fn scenario(text: &str) -> Scenario {
    parse_scenario("test.toml", text.as_bytes()).unwrap_or_else(|e| panic!("{e}\n---\n{text}"))
}

/// Runs a built-in scenario to the end.
pub fn run_builtin(id: &str) -> Run {
    run(&builtin(id))
}

/// The labels of a run's events, in order.
pub fn labels(run: &Run) -> Vec<&str> {
    run.trace.events.iter().map(|e| e.label.as_str()).collect()
}

/// The JSON trace document of every built-in scenario, one per line. Compared byte for byte
/// between a native run and a wasm run (tests/wasm_determinism.rs).
pub fn all_traces_json() -> String {
    let mut out = String::new();
    for id in catalogue::ids() {
        let s = builtin(id);
        let r = run(&s);
        let doc = TraceDocument::new(&s, &r.trace, &r.verdict);
        out.push_str(&serde_json::to_string(&doc).unwrap_or_else(|e| panic!("{id}: {e}")));
        out.push('\n');
    }
    out
}
