//! The what-if menu: faults to inject at the current step and toggles of the run's settings,
//! each turned into a [`Change`] for [`lockstep_core::Session::apply`].

use lockstep_core::Change;
use lockstep_core::inspect::Inspection;
use lockstep_core::scenario::{Fault, FaultKind, FencingMode, LockKind};
use lockstep_core::topology::Role;
use lockstep_core::{EventKind, Trace};

/// Shortest and longest duration the menu offers, in seconds.
const MIN_SECONDS: u64 = 1;
const MAX_SECONDS: u64 = 60;
/// The duration the menu starts with: longer than the catalogue's 5 s TTLs.
const DEFAULT_SECONDS: u64 = 10;

/// One thing the menu can do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Choice {
    /// Freeze a node for the menu's duration.
    Pause(String),
    /// Step a node's clock forward by the menu's duration.
    ClockJump(String),
    Crash(String),
    /// Restart a lock-service node without its data.
    Restart(String),
    /// Cut a node off from every other node.
    Isolate(String),
    Heal,
    /// Hold back the next message a node sends (its sender and label) by the menu's duration.
    DelayNext {
        from: String,
        label: String,
    },
    /// Switch the database to the next fencing mode.
    Fencing(FencingMode),
    Idempotency(bool),
    /// Grant future locks with this TTL.
    Ttl(u64),
}

/// The menu's state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FaultMenu {
    pub choices: Vec<Choice>,
    pub selected: usize,
    /// The duration used by pauses, clock jumps and delays.
    pub seconds: u64,
    /// Participant names in lane order, for partitions.
    names: Vec<String>,
}

/// The fencing mode after `mode` in the toggle's cycle.
fn next_fencing(mode: FencingMode) -> FencingMode {
    match mode {
        FencingMode::Off => FencingMode::Writes,
        FencingMode::Writes => FencingMode::Enforce,
        FencingMode::Enforce => FencingMode::Permissive,
        FencingMode::Permissive => FencingMode::Off,
    }
}

impl FaultMenu {
    /// The menu for a run in the state `now`, with the TTL locks are granted with; `future` is
    /// the rest of the run as it stands (its events from the current step on), where each
    /// worker's next message is found.
    pub fn new(now: &Inspection, ttl_ms: u64, future: &Trace) -> FaultMenu {
        let mut choices = Vec::new();
        let nodes = &now.nodes;
        let workers = nodes.iter().filter(|n| n.role == Role::Worker);
        let service = nodes.iter().filter(|n| n.role.is_lock_service());
        // Only choices that can change the run: a worker that has finished or stopped has
        // nothing left to pause, and a node that is down cannot crash again.
        let finished = |name: &str| {
            now.workers
                .iter()
                .any(|w| w.name == name && matches!(w.state, "done" | "refused" | "gave-up"))
        };
        for w in workers.clone().filter(|w| w.alive && !finished(&w.name)) {
            choices.push(Choice::Pause(w.name.clone()));
        }
        for w in workers.clone() {
            let next = future
                .events
                .iter()
                .find(|e| e.kind == EventKind::Send && future.name(e.from) == w.name);
            if let Some(e) = next {
                choices.push(Choice::DelayNext {
                    from: w.name.clone(),
                    label: e.label.clone(),
                });
            }
        }
        for n in workers.clone().chain(service.clone()) {
            choices.push(Choice::ClockJump(n.name.clone()));
        }
        for n in workers.clone().chain(service.clone()).filter(|n| n.alive) {
            choices.push(Choice::Crash(n.name.clone()));
        }
        for n in service.clone() {
            choices.push(Choice::Restart(n.name.clone()));
        }
        for n in workers.chain(service) {
            choices.push(Choice::Isolate(n.name.clone()));
        }
        choices.push(Choice::Heal);
        choices.push(Choice::Fencing(next_fencing(now.db.fencing)));
        choices.push(Choice::Idempotency(!now.db.idempotency));
        if now.lock_kind != LockKind::None {
            choices.push(Choice::Ttl(ttl_ms.saturating_mul(2)));
            if ttl_ms >= 2 {
                choices.push(Choice::Ttl(ttl_ms / 2));
            }
        }
        FaultMenu {
            choices,
            selected: 0,
            seconds: DEFAULT_SECONDS,
            names: nodes.iter().map(|n| n.name.clone()).collect(),
        }
    }

    pub fn move_by(&mut self, delta: isize) {
        let last = self.choices.len().saturating_sub(1);
        self.selected = self.selected.saturating_add_signed(delta).min(last);
    }

    /// Lengthens (`+1`) or shortens (`-1`) the duration, within 1..=60 s.
    pub fn adjust_seconds(&mut self, delta: i64) {
        self.seconds = self
            .seconds
            .saturating_add_signed(delta)
            .clamp(MIN_SECONDS, MAX_SECONDS);
    }

    /// What a choice says in the menu.
    pub fn describe(&self, choice: &Choice) -> String {
        let s = self.seconds;
        match choice {
            Choice::Pause(n) => format!("pause {n} for {s} s (a GC pause, a VM stall)"),
            Choice::DelayNext { from, label } => {
                format!("delay {from}'s next message \"{label}\" by {s} s")
            }
            Choice::ClockJump(n) => format!("{n}'s clock jumps {s} s forward"),
            Choice::Crash(n) => format!("crash {n}"),
            Choice::Restart(n) => format!("restart {n} without persistence (it forgets the key)"),
            Choice::Isolate(n) => format!("partition: cut {n} off from everyone else"),
            Choice::Heal => "heal every partition".into(),
            Choice::Fencing(m) => format!("toggle: database fencing -> {}", m.as_str()),
            Choice::Idempotency(on) => format!(
                "toggle: idempotency keys -> {}",
                if *on { "on" } else { "off" }
            ),
            Choice::Ttl(ms) => format!("toggle: TTL of future locks -> {ms} ms"),
        }
    }

    /// The change a choice makes, with the menu's duration.
    pub fn change(&self, choice: &Choice) -> Change {
        let ms = self.seconds * 1000;
        let fault = Fault::new;
        match choice {
            Choice::Pause(n) => Change::Fault(Fault {
                target: Some(n.clone()),
                duration_ms: Some(ms),
                ..fault(FaultKind::Pause)
            }),
            Choice::DelayNext { from, label } => Change::Fault(Fault {
                duration_ms: Some(ms),
                match_label: Some(label.clone()),
                from: Some(from.clone()),
                ..fault(FaultKind::Delay)
            }),
            Choice::ClockJump(n) => Change::Fault(Fault {
                target: Some(n.clone()),
                by_ms: Some(ms as i64),
                ..fault(FaultKind::ClockJump)
            }),
            Choice::Crash(n) => Change::Fault(Fault {
                target: Some(n.clone()),
                ..fault(FaultKind::Crash)
            }),
            Choice::Restart(n) => Change::Fault(Fault {
                target: Some(n.clone()),
                persistent: Some(false),
                ..fault(FaultKind::Restart)
            }),
            Choice::Isolate(n) => {
                let others = self.names.iter().filter(|o| *o != n).cloned().collect();
                Change::Fault(Fault {
                    groups: Some(vec![vec![n.clone()], others]),
                    ..fault(FaultKind::Partition)
                })
            }
            Choice::Heal => Change::Fault(fault(FaultKind::Heal)),
            Choice::Fencing(m) => Change::SetFencing { fencing: *m },
            Choice::Idempotency(on) => Change::SetIdempotency { idempotency: *on },
            Choice::Ttl(ms) => Change::SetTtl { ttl_ms: *ms },
        }
    }

    /// The change under the cursor.
    pub fn selected_change(&self) -> Option<Change> {
        self.choices.get(self.selected).map(|c| self.change(c))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lockstep_core::{Session, catalogue};

    /// The menu at step `at` of a built-in, with the rest of its run.
    fn menu_at(id: &str, at: usize) -> (Session, FaultMenu) {
        let scenario = catalogue::load(id).unwrap().unwrap();
        let mut to_end = Session::new(&scenario);
        to_end.run_to_end();
        let future = Trace {
            participants: to_end.trace().participants,
            events: to_end.events()[at.min(to_end.pos())..].to_vec(),
        };
        let mut s = Session::new(&scenario);
        s.seek(at);
        let ttl = s.sim().params.lock.ttl_ms;
        let menu = FaultMenu::new(&s.inspect(), ttl, &future);
        (s, menu)
    }

    #[test]
    fn every_choice_of_every_builtin_menu_is_a_valid_change() {
        for id in catalogue::ids() {
            for at in [0, 7] {
                let (s, menu) = menu_at(id, at);
                for c in &menu.choices {
                    let mut branch = s.clone();
                    if let Err(e) = branch.apply(menu.change(c)) {
                        panic!("{id} at step {at}: {}: {e}", menu.describe(c));
                    }
                }
            }
        }
    }

    #[test]
    fn the_menu_offers_what_the_issue_lists() {
        let (_, menu) = menu_at("naive-gc-pause", 3);
        let has = |f: fn(&Choice) -> bool| menu.choices.iter().any(f);
        assert!(has(|c| matches!(c, Choice::Pause(n) if n == "A")));
        assert!(has(|c| matches!(c, Choice::ClockJump(n) if n == "redis")));
        assert!(has(|c| matches!(c, Choice::Crash(_))));
        assert!(has(|c| matches!(c, Choice::Restart(n) if n == "redis")));
        assert!(has(|c| matches!(c, Choice::Isolate(_))));
        assert!(has(
            |c| matches!(c, Choice::DelayNext { from, .. } if from == "A")
        ));
        assert!(has(|c| matches!(c, Choice::Fencing(FencingMode::Writes))));
        assert!(has(|c| matches!(c, Choice::Idempotency(true))));
        assert!(has(|c| matches!(c, Choice::Ttl(10_000))));
        assert!(has(|c| matches!(c, Choice::Ttl(2_500))));
        // The database neither crashes nor has a clock that matters.
        assert!(!has(
            |c| matches!(c, Choice::Crash(n) | Choice::ClockJump(n) if n == "db")
        ));
    }

    #[test]
    fn the_duration_stays_between_1_and_60_seconds_and_reaches_the_change() {
        let (_, mut menu) = menu_at("naive-gc-pause", 0);
        for _ in 0..100 {
            menu.adjust_seconds(1);
        }
        assert_eq!(menu.seconds, 60);
        for _ in 0..100 {
            menu.adjust_seconds(-1);
        }
        assert_eq!(menu.seconds, 1);
        menu.adjust_seconds(4);
        let Change::Fault(f) = menu.change(&Choice::Pause("A".into())) else {
            panic!("a fault")
        };
        assert_eq!(f.duration_ms, Some(5000));
        assert_eq!(f.kind, FaultKind::Pause);
    }
}
