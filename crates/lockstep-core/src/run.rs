//! Running a scenario to the end in one call.

use crate::scenario::Scenario;
use crate::sim::{End, Sim};
use crate::trace::Trace;
use crate::verdict::Verdict;

/// A finished run.
#[derive(Debug, Clone, PartialEq)]
pub struct Run {
    pub trace: Trace,
    pub verdict: Verdict,
    pub end: End,
    /// The final state.
    pub sim: Sim,
}

/// Simulates a validated scenario to its end.
pub fn run(scenario: &Scenario) -> Run {
    let mut sim = Sim::new(scenario);
    let mut events = Vec::new();
    while sim.advance(&mut events) {}
    let trace = Trace {
        participants: sim.params.participants.clone(),
        events,
    };
    let verdict = Verdict::judge_end(&sim.db, &trace, sim.end);
    let end = sim.end.unwrap_or(crate::sim::End::Quiet);
    Run {
        trace,
        verdict,
        end,
        sim,
    }
}
