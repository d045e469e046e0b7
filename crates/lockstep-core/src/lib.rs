//! lockstep-core: a deterministic simulation of distributed locks, the workers that use them and
//! the fencing-aware database they protect. No I/O, no clock, no OS randomness: the same scenario
//! and seed give the same trace, natively and in wasm.

pub mod actors;
pub mod catalogue;
pub mod clock;
pub mod document;
pub mod inspect;
pub mod message;
pub mod run;
pub mod scenario;
pub mod session;
pub mod sim;
pub mod sort;
pub mod topology;
pub mod trace;
pub mod unapplied;
pub mod verdict;

pub use run::{Run, run};
pub use scenario::{Outcome, Scenario, ScenarioError, parse_scenario};
pub use session::{Change, Session, WhatIf};
pub use trace::{EventKind, Tag, Trace, TraceEvent};
pub use unapplied::Unapplied;
pub use verdict::Verdict;
