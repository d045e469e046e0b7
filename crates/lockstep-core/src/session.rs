//! Stepping through a run one trace event at a time, in both directions, and what-if branches.
//!
//! Back-stepping restores the nearest checkpoint (a clone of the whole [`Sim`], kept every
//! [`CHECKPOINT_EVERY`] events) and re-simulates forward; because the simulation is deterministic
//! this lands on exactly the state that stepping forward produced.

use crate::sort;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::actors::db::Database;
use crate::inspect::Inspection;
use crate::scenario::{Fault, FaultKind, FencingMode, Scenario};
use crate::sim::Sim;
use crate::topology::Role;
use crate::trace::{EventKind, Trace, TraceEvent};
use crate::verdict::Verdict;

/// Events between two checkpoints.
pub const CHECKPOINT_EVERY: usize = 256;

/// A change made mid-run (DESIGN §3 "What-if").
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "change", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Change {
    /// Inject a fault now (its `at_ms` is ignored: it happens at the current step).
    Fault(Fault),
    /// Grant future locks with this TTL.
    SetTtl { ttl_ms: u64 },
    /// Switch the database's fencing mode.
    SetFencing { fencing: FencingMode },
    /// Turn idempotency keys on or off, at the database and in every worker's writes.
    SetIdempotency { idempotency: bool },
}

/// A change and the step at which it was made.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WhatIf {
    pub at_step: usize,
    #[serde(flatten)]
    pub change: Change,
}

/// A change that cannot be applied.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("what-if at step {at_step}: {message}")]
pub struct WhatIfError {
    pub at_step: usize,
    pub message: String,
}

#[derive(Debug, Clone)]
struct Checkpoint {
    trace_len: usize,
    next_whatif: usize,
    sim: Sim,
}

/// A run being stepped through.
#[derive(Debug, Clone)]
pub struct Session {
    sim: Sim,
    events: Vec<TraceEvent>,
    pos: usize,
    whatifs: Vec<WhatIf>,
    next_whatif: usize,
    checkpoints: Vec<Checkpoint>,
    /// The database as it was before the simulation's last item, and where that item's events
    /// start: one item can emit a write's arrival and the database's verdict on it, and the
    /// verdict so far must not run ahead of the events shown.
    db_before: Database,
    dispatch_start: usize,
}

impl Session {
    /// A session at step 0 of a validated scenario.
    pub fn new(scenario: &Scenario) -> Session {
        let sim = Sim::new(scenario);
        Session {
            checkpoints: vec![Checkpoint {
                trace_len: 0,
                next_whatif: 0,
                sim: sim.clone(),
            }],
            db_before: sim.db.clone(),
            sim,
            events: Vec::new(),
            pos: 0,
            whatifs: Vec::new(),
            next_whatif: 0,
            dispatch_start: 0,
        }
    }

    /// A session that replays `whatifs` at their steps (as a shared URL does).
    pub fn with_whatifs(scenario: &Scenario, whatifs: &[WhatIf]) -> Result<Session, WhatIfError> {
        let mut session = Session::new(scenario);
        let mut sorted = whatifs.to_vec();
        sort::sort_by_key(&mut sorted, |w| w.at_step);
        for w in &sorted {
            session.seek(w.at_step);
            if session.pos < w.at_step {
                return Err(WhatIfError {
                    at_step: w.at_step,
                    message: format!("the run ends at step {}", session.pos),
                });
            }
            session.apply(w.change.clone())?;
        }
        session.seek(0);
        Ok(session)
    }

    /// The current step: how many events have been shown.
    pub fn pos(&self) -> usize {
        self.pos
    }

    /// The events up to the current step.
    pub fn events(&self) -> &[TraceEvent] {
        &self.events[..self.pos]
    }

    /// The event at the current step (the last one shown).
    pub fn current(&self) -> Option<&TraceEvent> {
        self.pos.checked_sub(1).and_then(|i| self.events.get(i))
    }

    /// The simulation state after the current step.
    pub fn sim(&self) -> &Sim {
        &self.sim
    }

    /// What every actor holds, believes and reads on its clock at the current step.
    pub fn inspect(&self) -> Inspection {
        Inspection::of(&self.sim)
    }

    /// The changes made so far.
    pub fn whatifs(&self) -> &[WhatIf] {
        &self.whatifs
    }

    /// True when no step is left.
    pub fn at_end(&self) -> bool {
        self.pos == self.events.len() && self.sim.end.is_some()
    }

    /// The trace up to the current step.
    pub fn trace(&self) -> Trace {
        Trace {
            participants: self.sim.params.participants.clone(),
            events: self.events().to_vec(),
        }
    }

    /// The verdict on the database as it stands at the current step.
    pub fn verdict(&self) -> Verdict {
        // The end counts only once the last event is shown.
        let end = if self.pos == self.events.len() {
            self.sim.end
        } else {
            None
        };
        Verdict::judge_end(
            self.db_shown(),
            &Trace {
                participants: self.sim.params.participants.clone(),
                events: self.events().to_vec(),
            },
            end,
        )
    }

    /// The database as far as the events shown tell: before the last item's changes while none
    /// of that item's marked events from the database (its DUPLICATE, its verdict on a write)
    /// is shown yet (a write has arrived, and the step that shows what the database made of
    /// it is still to come).
    fn db_shown(&self) -> &Database {
        let mid_item = self.pos < self.events.len() && self.pos >= self.dispatch_start;
        let db_spoke = self.events[self.dispatch_start.min(self.pos)..self.pos]
            .iter()
            .any(|e| e.tag.is_some() && self.sim.params.role(e.from) == Role::Database);
        if mid_item && !db_spoke {
            &self.db_before
        } else {
            &self.sim.db
        }
    }

    /// Processes one item of the simulation, applying any what-if due at this boundary.
    fn advance(&mut self) -> bool {
        self.db_before = self.sim.db.clone();
        self.dispatch_start = self.events.len();
        let progressed = self.sim.advance(&mut self.events);
        self.apply_due_whatifs();
        let last = self.checkpoints.last().map_or(0, |c| c.trace_len);
        if self.events.len() >= last + CHECKPOINT_EVERY {
            self.checkpoints.push(Checkpoint {
                trace_len: self.events.len(),
                next_whatif: self.next_whatif,
                sim: self.sim.clone(),
            });
        }
        progressed
    }

    fn apply_due_whatifs(&mut self) {
        while let Some(w) = self.whatifs.get(self.next_whatif) {
            if w.at_step > self.events.len() {
                break;
            }
            let change = w.change.clone();
            self.next_whatif += 1;
            // Validated when first applied; replaying the same change cannot fail.
            let _ = change_sim(&mut self.sim, &change, &mut self.events);
        }
    }

    /// Shows one more event. Returns it, or None at the end of the run.
    pub fn step(&mut self) -> Option<&TraceEvent> {
        while self.pos >= self.events.len() {
            if !self.advance() {
                return None;
            }
        }
        self.pos += 1;
        self.events.get(self.pos - 1)
    }

    /// Goes back one event. False at step 0.
    pub fn step_back(&mut self) -> bool {
        if self.pos == 0 {
            return false;
        }
        self.seek(self.pos - 1);
        true
    }

    /// Goes to step `n` (or the end of the run, if it has fewer steps).
    pub fn seek(&mut self, n: usize) {
        if n < self.pos {
            let i = self
                .checkpoints
                .iter()
                .rposition(|c| c.trace_len <= n)
                .unwrap_or(0);
            let c = self.checkpoints[i].clone();
            self.sim = c.sim;
            self.events.truncate(c.trace_len);
            self.next_whatif = c.next_whatif;
            self.pos = c.trace_len;
        }
        while self.pos < n && self.step().is_some() {}
    }

    /// Runs to the last event.
    pub fn run_to_end(&mut self) {
        while self.step().is_some() {}
    }

    /// Steps until an event satisfies `pred`; returns its step number (1-based), or None at the end.
    pub fn run_until(&mut self, mut pred: impl FnMut(&TraceEvent) -> bool) -> Option<usize> {
        while let Some(e) = self.step() {
            if pred(e) {
                return Some(self.pos);
            }
        }
        None
    }

    /// The step after which a change made now takes effect: the current one, or, when the
    /// current step is part of a node's reaction that goes on (A takes the lock at step 5 and,
    /// in the same reaction, sends its status read at step 6), the reaction's last step. A node
    /// finishes handling a message before a fault can hit it: the simulator runs each reaction
    /// whole.
    pub fn lands_after(&self) -> usize {
        self.events.len().max(self.pos)
    }

    /// Makes a change at the current step (after the rest of its reaction, see
    /// [`Session::lands_after`], where it is recorded); the run continues from there as a
    /// branch. Changes made later on the old branch are dropped.
    pub fn apply(&mut self, change: Change) -> Result<(), WhatIfError> {
        // A change that cannot be made is reported at the step the user is at.
        check_change(&self.sim, &change).map_err(|message| WhatIfError {
            at_step: self.pos,
            message,
        })?;
        let at_step = self.lands_after();
        // Everything after this boundary belongs to the old branch.
        self.whatifs.truncate(self.next_whatif);
        self.whatifs.retain(|w| w.at_step <= at_step);
        self.checkpoints
            .retain(|c| c.trace_len <= self.events.len());
        self.whatifs.push(WhatIf {
            at_step,
            change: change.clone(),
        });
        self.next_whatif = self.whatifs.len();
        change_sim(&mut self.sim, &change, &mut self.events)
            .map_err(|message| WhatIfError { at_step, message })
    }
}

fn check_change(sim: &Sim, change: &Change) -> Result<(), String> {
    let mut scenario = sim.params.scenario.clone();
    match change {
        Change::Fault(f) => {
            let mut f = f.clone();
            if f.kind == FaultKind::Pause {
                f.after = None;
            }
            f.at_ms = Some(0);
            scenario.faults.push(f);
        }
        Change::SetTtl { ttl_ms } => scenario.lock.ttl_ms = *ttl_ms,
        Change::SetFencing { fencing } => set_fencing(&mut scenario, *fencing),
        Change::SetIdempotency { idempotency } => set_idempotency(&mut scenario, *idempotency),
    }
    crate::scenario::check(&scenario).map_err(|p| p.message)
}

fn change_sim(sim: &mut Sim, change: &Change, out: &mut Vec<TraceEvent>) -> Result<(), String> {
    match change {
        Change::Fault(f) => sim.inject(f, out),
        Change::SetTtl { ttl_ms } => sim.set_ttl(*ttl_ms, out),
        Change::SetFencing { fencing } => sim.set_fencing(*fencing, out),
        Change::SetIdempotency { idempotency } => {
            sim.db.idempotency = *idempotency;
            for w in &mut sim.workers {
                w.cfg.idempotency_keys = *idempotency;
            }
            set_idempotency(&mut Arc::make_mut(&mut sim.params).scenario, *idempotency);
            let db = sim.params.db;
            let (label, explanation) = if *idempotency {
                (
                    "what-if: idempotency keys on",
                    "From now on every payout carries an idempotency key and the database applies each key once: a repeated payout is a no-op.",
                )
            } else {
                (
                    "what-if: idempotency keys off",
                    "From now on payouts carry no idempotency key: the database applies every write it accepts.",
                )
            };
            out.push(TraceEvent {
                time_ms: sim.now(),
                kind: EventKind::Note,
                from: db,
                to: db,
                message: None,
                label: label.into(),
                explanation: explanation.into(),
                tag: None,
            });
        }
    }
    Ok(())
}

/// Fencing needs both ends too: the database's check, and workers that ask the lock for a token
/// and send it. Where the lock issues tokens (Redis with its counter, etcd's revisions), turning
/// the check on also has every worker take and send one; Redlock and no lock issue none.
pub(crate) fn set_fencing(scenario: &mut Scenario, fencing: FencingMode) {
    scenario.resource.fencing = fencing;
    let issues_tokens = matches!(
        scenario.lock.kind,
        crate::scenario::LockKind::Redis | crate::scenario::LockKind::Consensus
    );
    if fencing != FencingMode::Off && issues_tokens {
        for w in &mut scenario.workers {
            w.fencing = true;
        }
    }
}

/// Idempotency keys need both ends: the database's unique keys and workers that send them.
fn set_idempotency(scenario: &mut Scenario, on: bool) {
    scenario.resource.idempotency = on;
    if !on {
        // A retention means nothing without keys (and the scenario check refuses it).
        scenario.resource.idempotency_retention_ms = None;
    }
    for w in &mut scenario.workers {
        w.idempotency_keys = on;
    }
}
