//! The JSON trace document: the stable interchange format between the simulator, the front ends,
//! docs, and (later) live runs. Schema `lockstep-trace/1`, described in docs/trace-format.md.

use serde::{Deserialize, Serialize};

use crate::scenario::{Outcome, Scenario};
use crate::topology::Participant;
use crate::trace::{EventKind, Tag, Trace};
use crate::verdict::Verdict;

/// The schema id written in every document.
pub const SCHEMA: &str = "lockstep-trace/1";

/// What the document says about the scenario it records.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScenarioMeta {
    pub name: String,
    pub title: String,
    pub summary: String,
    pub seed: u64,
    pub expect: Outcome,
}

/// One event, naming nodes by name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DocEvent {
    /// 1-based position in the trace.
    pub step: usize,
    pub time_ms: u64,
    pub kind: EventKind,
    pub from: String,
    pub to: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<u64>,
    pub label: String,
    pub explanation: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tag: Option<Tag>,
}

/// A whole recorded run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TraceDocument {
    pub schema: String,
    pub scenario: ScenarioMeta,
    pub participants: Vec<Participant>,
    pub events: Vec<DocEvent>,
    pub verdict: Verdict,
}

impl TraceDocument {
    /// Builds the document of a finished run.
    pub fn new(scenario: &Scenario, trace: &Trace, verdict: &Verdict) -> Self {
        TraceDocument {
            schema: SCHEMA.to_string(),
            scenario: ScenarioMeta {
                name: scenario.name.clone(),
                title: scenario.title.clone(),
                summary: scenario.summary.clone(),
                seed: scenario.seed,
                expect: scenario.expect,
            },
            participants: trace.participants.clone(),
            events: trace
                .events
                .iter()
                .enumerate()
                .map(|(i, e)| DocEvent {
                    step: i + 1,
                    time_ms: e.time_ms,
                    kind: e.kind,
                    from: trace.name(e.from).to_string(),
                    to: trace.name(e.to).to_string(),
                    message: e.message,
                    label: e.label.clone(),
                    explanation: e.explanation.clone(),
                    tag: e.tag.clone(),
                })
                .collect(),
            verdict: verdict.clone(),
        }
    }
}
