//! A run migrating to fencing (some workers send tokens, some do not) tells its migration's
//! state as each worker starts: the database's check, and whether the worker is upgraded.

use super::Sim;
use crate::scenario::FencingMode;
use crate::topology::{NodeId, Role};
use crate::trace::{EventKind, Tag, TraceEvent};

impl Sim {
    /// In a run whose workers are being migrated to fencing (some send tokens, some do not),
    /// the migration's state as each worker starts: the database's check (once, at the first
    /// start) and whether this worker is upgraded. Nothing in any other run.
    pub(super) fn tell_rollout(&mut self, node: NodeId, out: &mut Vec<TraceEvent>) {
        let workers = &self.params.scenario.workers;
        let mixed = workers.iter().any(|w| w.fencing) && workers.iter().any(|w| !w.fencing);
        let Some(w) = workers.get(usize::from(node)).filter(|_| mixed) else {
            return;
        };
        let sends = w.fencing;
        if !std::mem::replace(&mut self.rollout_told, true) {
            let mode = self.params.scenario.resource.fencing;
            let (label, why) = match mode {
                FencingMode::Enforce => (
                    "db enforces fencing tokens",
                    "The migration's first step is done: the database refuses every access without a token or with a stale one, so an old worker fails loudly instead of writing unchecked.",
                ),
                FencingMode::Permissive => (
                    "db still takes accesses without a token",
                    "The database checks the tokens it gets but lets tokenless accesses through (permissive), so old workers keep working during the rollout, and so would a stale one.",
                ),
                FencingMode::Writes => (
                    "db checks tokens on writes only",
                    "The database compares write tokens with its last_token; reads pass unchecked.",
                ),
                FencingMode::Off => (
                    "db does not check tokens yet",
                    "The database ignores fencing tokens: upgraded workers send them, but nothing checks them.",
                ),
            };
            let Some(db) = (0..self.params.names.len() as NodeId)
                .find(|&i| self.params.role(i) == Role::Database)
            else {
                return;
            };
            self.emit_on(
                out,
                db,
                EventKind::State,
                label.to_string(),
                why.to_string(),
                Some(Tag::DbFencing { mode }),
            );
        }
        let name = self.name(node).to_string();
        let (label, why) = if sends {
            (
                format!("{name} upgraded: sends fencing tokens"),
                format!(
                    "{name} runs the new code: it asks for a fencing token with the lock and sends it with every access."
                ),
            )
        } else {
            (
                format!("{name} not upgraded: sends no token"),
                format!(
                    "{name} still runs the old code: it takes the lock but sends no fencing token to the database."
                ),
            )
        };
        self.emit_on(
            out,
            node,
            EventKind::State,
            label,
            why,
            Some(Tag::WorkerFencing {
                sends_tokens: sends,
            }),
        );
    }
}
