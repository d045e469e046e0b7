//! The what-if changes made mid-run: a fault injected now, a new TTL for future locks, and the
//! database's fencing mode (with the workers' tokens where the lock issues them).

use std::sync::Arc;

use super::Sim;
use crate::scenario::{Fault, FaultKind, FencingMode, LockKind};
use crate::trace::{EventKind, TraceEvent};

impl Sim {
    /// Injects a fault at the current time (a what-if). `at_ms` and `after` are ignored.
    pub fn inject(&mut self, f: &Fault, out: &mut Vec<TraceEvent>) {
        match f.kind {
            FaultKind::Delay | FaultKind::Drop => {
                let kind = if f.kind == FaultKind::Drop {
                    "drop"
                } else {
                    "delay"
                };
                self.rules.push(self.rule(f, self.now));
                let db = self.params.db;
                let what = f.match_label.clone().unwrap_or_default();
                self.fault_event(out, db, format!("what-if: {kind} the next \"{what}\""), format!("From now on, the next message whose label starts with \"{what}\" is hit by a {kind} fault."), None);
            }
            _ => self.apply_fault_now(f, out),
        }
    }

    /// Future locks are granted with this TTL (a what-if).
    pub fn set_ttl(&mut self, ttl_ms: u64, out: &mut Vec<TraceEvent>) {
        let params = Arc::make_mut(&mut self.params);
        params.lock.ttl_ms = ttl_ms;
        params.scenario.lock.ttl_ms = ttl_ms;
        let node = self.lock_service_node().unwrap_or(self.params.db);
        self.emit_on(out, node, EventKind::Note, format!("what-if: TTL = {ttl_ms} ms"), format!("From now on, locks are requested with a {ttl_ms} ms TTL. Locks already granted keep theirs."), None);
    }

    /// The database switches fencing mode (a what-if).
    pub fn set_fencing(&mut self, fencing: FencingMode, out: &mut Vec<TraceEvent>) {
        self.db.fencing = fencing;
        let had_tokens = self.params.scenario.workers.iter().all(|w| w.fencing);
        let scenario = &mut Arc::make_mut(&mut self.params).scenario;
        crate::session::set_fencing(scenario, fencing);
        let now_tokens = !had_tokens && scenario.workers.iter().all(|w| w.fencing);
        for (w, cfg) in self.workers.iter_mut().zip(&scenario.workers) {
            w.cfg.fencing = cfg.fencing;
        }
        let lock = scenario.lock.kind;
        let workers = if fencing == FencingMode::Off {
            String::new()
        } else if now_tokens {
            " The workers now ask the lock service for a token with each acquisition and send it with every access. A lock taken before this change came with no token, so its holder is refused until it locks again.".to_string()
        } else if matches!(lock, LockKind::Redlock | LockKind::None) {
            " This lock issues no fencing tokens (Redlock has no counter to give one), so no worker has a token to send: the database refuses every access it checks.".to_string()
        } else {
            String::new()
        };
        let db = self.params.db;
        self.emit_on(
            out,
            db,
            EventKind::Note,
            format!("what-if: fencing = {}", fencing.as_str()),
            format!(
                "The database now checks fencing tokens in mode `{}`.{workers}",
                fencing.as_str()
            ),
            None,
        );
    }
}
