//! What one explored run came to, judged from the database's records as the verdict is.

use lockstep_core::sim::{End, Sim};
use lockstep_core::trace::TraceEvent;

/// The outcome of one run in a sweep or a search.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RunOutcome {
    /// Every payout applied exactly once.
    Safe,
    /// Some payout applied more than once.
    DoubleWrite,
    /// Nothing applied twice, but the batch was not (fully) paid.
    NotProcessed,
    /// Cut off by `max_time_ms` or `max_events`: no verdict of safety.
    Inconclusive,
    /// These parameter values make an invalid scenario (for example a TTL of 0).
    Invalid,
}

impl RunOutcome {
    /// Every outcome, in the order output lists them.
    pub const ALL: [RunOutcome; 5] = [
        RunOutcome::Safe,
        RunOutcome::DoubleWrite,
        RunOutcome::NotProcessed,
        RunOutcome::Inconclusive,
        RunOutcome::Invalid,
    ];

    /// The kebab-case name, as `lockstep run` prints outcomes.
    pub fn as_str(self) -> &'static str {
        match self {
            RunOutcome::Safe => "safe",
            RunOutcome::DoubleWrite => "double-write",
            RunOutcome::NotProcessed => "not-processed",
            RunOutcome::Inconclusive => "inconclusive",
            RunOutcome::Invalid => "invalid",
        }
    }
}

impl std::fmt::Display for RunOutcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Whether some payout has been applied twice: once true, it stays true for the rest of the run.
pub fn double_written(sim: &Sim) -> bool {
    sim.db.applied.iter().any(|&n| n > 1)
}

/// The outcome of a finished (or cut-off) run, from the database's records.
pub fn judge(sim: &Sim) -> RunOutcome {
    let db = &sim.db;
    if double_written(sim) {
        RunOutcome::DoubleWrite
    } else if matches!(sim.end, Some(End::TimeLimit | End::EventLimit)) {
        RunOutcome::Inconclusive
    } else if db.paid && db.applied.iter().all(|&n| n > 0) {
        RunOutcome::Safe
    } else {
        RunOutcome::NotProcessed
    }
}

/// Runs a sim to its end, reusing `events` as scratch, and stops early at a double write (which
/// nothing can undo). Returns the outcome and the number of events processed.
pub fn run_to_outcome(sim: &mut Sim, events: &mut Vec<TraceEvent>) -> (RunOutcome, u64) {
    let mut steps = 0;
    loop {
        events.clear();
        if !sim.advance(events) {
            break;
        }
        steps += 1;
        if double_written(sim) {
            return (RunOutcome::DoubleWrite, steps);
        }
    }
    (judge(sim), steps)
}
