//! Faults and explanations that never took effect in a run, so that a scenario written to show a
//! failure cannot pass because its fault never fired (a typo in `after`, a `match` that hits no
//! message, an `[[explain]]` whose `when` never occurs, a fault timed after the run ended).

use crate::run::Run;
use crate::scenario::{Fault, FaultKind};
use crate::sim::Sim;

/// A part of the scenario that never applied: where it is in the file and what happened instead.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Unapplied {
    /// The field at fault, as in error messages: `faults[2].after`, `explain[0].when`.
    pub path: String,
    /// What never happened and why.
    pub message: String,
}

impl Unapplied {
    /// Its line and column in its file, from the places `scenario::unapplied_places` found there.
    pub fn place(&self, places: &[(String, usize, usize)]) -> Option<(usize, usize)> {
        places
            .iter()
            .find(|(path, ..)| *path == self.path)
            .map(|&(_, line, column)| (line, column))
    }
}

impl std::fmt::Display for Unapplied {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

impl Run {
    /// The scenario's faults and explanations that never applied in this run, in file order.
    pub fn unapplied(&self) -> Vec<Unapplied> {
        self.sim.unapplied()
    }
}

impl Sim {
    /// The scenario's faults and explanations that have not applied so far (all of them that never
    /// will, once the run has ended), faults first, each in file order.
    pub fn unapplied(&self) -> Vec<Unapplied> {
        let scenario = &self.params.scenario;
        let mut out: Vec<Unapplied> = scenario
            .faults
            .iter()
            .enumerate()
            .filter(|&(i, _)| !self.fault_applied(i))
            .map(|(i, f)| unapplied_fault(i, f, self.now()))
            .collect();
        out.extend(self.unapplied_orders());
        for (i, e) in scenario.explain.iter().enumerate() {
            if self.explanation_shown(i) {
                continue;
            }
            let of = e
                .node
                .as_deref()
                .map_or(String::new(), |n| format!(" of {n}'s"));
            out.push(Unapplied {
                path: format!("explain[{i}].when"),
                message: format!(
                    "no event{of} has a label starting with \"{}\", so this explanation was never shown",
                    e.when
                ),
            });
        }
        out
    }
}

fn unapplied_fault(index: usize, f: &Fault, ended_ms: u64) -> Unapplied {
    let kind = f.kind.as_str();
    match f.kind {
        FaultKind::Pause if f.after.is_some() => Unapplied {
            path: format!("faults[{index}].after"),
            message: format!(
                "{} never had an event whose label starts with \"{}\", so this pause never happened",
                f.target.as_deref().unwrap_or("the target"),
                f.after.as_deref().unwrap_or_default()
            ),
        },
        FaultKind::Delay | FaultKind::Drop => {
            let from = f
                .from
                .as_deref()
                .map_or(String::new(), |n| format!(" from {n}"));
            let to =
                f.to.as_deref()
                    .map_or(String::new(), |n| format!(" to {n}"));
            let since = f
                .at_ms
                .map_or(String::new(), |t| format!(" at or after {t} ms"));
            Unapplied {
                path: format!("faults[{index}].match"),
                message: format!(
                    "no message{from}{to} sent{since} has a label starting with \"{}\", so this {kind} never happened",
                    f.match_label.as_deref().unwrap_or_default()
                ),
            }
        }
        _ => Unapplied {
            path: format!("faults[{index}].at_ms"),
            message: format!(
                "the run ended at {ended_ms} ms, before this {kind} at {} ms, so it never happened",
                f.at_ms.unwrap_or(0)
            ),
        },
    }
}
