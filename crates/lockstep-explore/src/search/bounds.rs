//! The finite sets a search draws faults from, and the workload it searches: the scenario with
//! its own faults set aside (and a competing worker added if it has only one).

use lockstep_core::Scenario;
use lockstep_core::scenario::{Fault, FaultKind, WorkerConfig};
use lockstep_core::topology::{Role, participants};

use crate::duration::format_ms;
use crate::error::ExploreError;

/// Which kinds of fault the search may inject.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Kinds {
    /// Pause a worker (a GC pause, a VM stall).
    pub pause: bool,
    /// Crash a lock-service node for good.
    pub crash: bool,
    /// Restart a Redis-like instance without persistence (it forgets every key).
    pub restart: bool,
    /// Step a Redis-like instance's clock forward.
    pub clock_jump: bool,
    /// Fail a Redis master over to its replica (only with `replica_lag_ms`).
    pub failover: bool,
}

impl Kinds {
    /// Every kind.
    pub const ALL: Kinds = Kinds {
        pause: true,
        crash: true,
        restart: true,
        clock_jump: true,
        failover: true,
    };

    /// None; turn on what you want.
    pub const NONE: Kinds = Kinds {
        pause: false,
        crash: false,
        restart: false,
        clock_jump: false,
        failover: false,
    };

    /// Parses `pause,crash,restart,clock-jump,failover`.
    pub fn parse(text: &str) -> Result<Kinds, ExploreError> {
        let mut k = Kinds::NONE;
        for word in text.split(',').map(str::trim) {
            match word {
                "pause" => k.pause = true,
                "crash" => k.crash = true,
                "restart" => k.restart = true,
                "clock-jump" => k.clock_jump = true,
                "failover" => k.failover = true,
                other => {
                    return Err(ExploreError::BadBounds(format!(
                        "unknown fault kind `{other}`; use pause, crash, restart, clock-jump or failover"
                    )));
                }
            }
        }
        Ok(k)
    }
}

/// The bounds of a search. Every fault is injected at a time of the grid
/// `from_ms, from_ms + step_ms, ..., to_ms`; several may hit at the same instant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bounds {
    /// At most this many faults in one schedule.
    pub max_faults: usize,
    pub from_ms: u64,
    pub to_ms: u64,
    pub step_ms: u64,
    /// Pause lengths.
    pub pauses_ms: Vec<u64>,
    /// Clock jumps (forward steps) of Redis-like instances.
    pub jumps_ms: Vec<i64>,
    pub kinds: Kinds,
    /// At most this many times per schedule, where several messages are due at one node at the
    /// same instant, one other than the first sent goes first (0: always the order they were sent).
    pub max_reorders: usize,
    /// Stop after this many distinct states (then the answer is not a proof).
    pub max_states: u64,
}

/// How many times per schedule a default search changes a delivery order.
pub const DEFAULT_REORDERS: usize = 1;

/// How many faults a default search puts in one schedule.
pub const DEFAULT_MAX_FAULTS: usize = 2;

/// How many distinct states a default search visits before it stops without a proof.
pub const DEFAULT_MAX_STATES: u64 = 20_000_000;

/// How many grid times a default search uses.
const DEFAULT_GRID_POINTS: u64 = 32;

impl Bounds {
    /// Bounds fitted to a scenario: the grid spans its fault-free run, pauses of half, one and two
    /// TTLs, a clock jump of one TTL, at most two faults.
    pub fn for_scenario(scenario: &Scenario) -> Bounds {
        let work = workload(scenario);
        let end = lockstep_core::run(&work).sim.now();
        let step = (end.div_ceil(DEFAULT_GRID_POINTS)).div_ceil(50).max(1) * 50;
        let ttl = scenario.lock.ttl_ms.max(2);
        Bounds {
            max_faults: DEFAULT_MAX_FAULTS,
            from_ms: 0,
            to_ms: end.div_ceil(step) * step,
            step_ms: step,
            pauses_ms: vec![ttl / 2, ttl, ttl * 2],
            jumps_ms: vec![ttl as i64],
            kinds: Kinds::ALL,
            max_reorders: DEFAULT_REORDERS,
            max_states: DEFAULT_MAX_STATES,
        }
    }

    /// Checks that the bounds make sense.
    pub fn check(&self) -> Result<(), ExploreError> {
        let bad = |m: &str| Err(ExploreError::BadBounds(m.to_string()));
        if self.step_ms == 0 {
            return bad("the time step must be greater than 0");
        }
        if self.to_ms < self.from_ms {
            return bad("the time range runs backwards");
        }
        if self.times().len() > 10_000 {
            return bad("more than 10,000 fault times; use a larger step");
        }
        if self.max_faults > 8 {
            return bad("at most 8 faults per schedule");
        }
        if self.max_reorders > 8 {
            return bad("at most 8 delivery-order changes per schedule");
        }
        if self.kinds.pause && (self.pauses_ms.is_empty() || self.pauses_ms.contains(&0)) {
            return bad("pauses need at least one length, each longer than 0");
        }
        if self.max_states == 0 {
            return bad("the state limit must be greater than 0");
        }
        if self.kinds.clock_jump && self.jumps_ms.is_empty() {
            return bad("clock jumps need at least one size");
        }
        Ok(())
    }

    /// The times faults may hit.
    pub fn times(&self) -> Vec<u64> {
        (self.from_ms..=self.to_ms)
            .step_by(self.step_ms.max(1) as usize)
            .collect()
    }
}

/// One fault the search may inject (its time comes from the grid).
#[derive(Debug, Clone, PartialEq)]
pub struct Choice {
    pub fault: Fault,
}

impl Choice {
    /// A short description: `pause A 5s`, `restart redis-3 (empty)`.
    pub fn describe(&self) -> String {
        describe_fault(&self.fault)
    }
}

/// A short description of a fault, without its time.
pub fn describe_fault(f: &Fault) -> String {
    let target = f.target.as_deref().unwrap_or("?");
    match f.kind {
        FaultKind::Pause => format!(
            "pause {target} for {}",
            format_ms(f.duration_ms.unwrap_or(0) as i64)
        ),
        FaultKind::ClockJump => format!(
            "{target}'s clock jumps {}{}",
            if f.by_ms.unwrap_or(0) >= 0 { "+" } else { "" },
            format_ms(f.by_ms.unwrap_or(0))
        ),
        FaultKind::Crash => format!("crash {target}"),
        FaultKind::Restart => format!("restart {target} without persistence"),
        FaultKind::Failover => "fail over to the replica".to_string(),
        other => other.as_str().to_string(),
    }
}

fn fault(kind: FaultKind, target: Option<&str>) -> Fault {
    Fault {
        target: target.map(String::from),
        ..Fault::new(kind)
    }
}

/// The fault kinds of `kinds` that cannot hit `work` and are therefore left out of its menu,
/// each with why and how to make it apply: `("failover", "the scenario has no lagging replica; ...")`.
pub fn inapplicable(work: &Scenario, kinds: Kinds) -> Vec<(&'static str, String)> {
    let nodes = participants(work);
    let lock = work.lock.kind.as_str();
    let any = |f: fn(Role) -> bool| nodes.iter().any(|p| f(p.role));
    let redis_like =
        |r: Role| matches!(r, Role::Redis | Role::RedisReplica | Role::RedlockInstance);
    let mut out = Vec::new();
    if kinds.crash && !any(Role::is_lock_service) {
        out.push((
            "crash",
            format!("the scenario has no lock-service node to crash (lock.kind = \"{lock}\")"),
        ));
    }
    if kinds.restart && !any(redis_like) {
        out.push((
            "restart",
            format!(
                "only Redis-like instances restart without persistence; this lock service is \"{lock}\" (use lock.kind = \"redis\" or \"redlock\")"
            ),
        ));
    }
    if kinds.clock_jump && !any(redis_like) {
        out.push((
            "clock-jump",
            format!(
                "clock jumps are modelled on Redis-like instances, whose key expiry follows their clock; this lock service is \"{lock}\" (use lock.kind = \"redis\" or \"redlock\")"
            ),
        ));
    }
    if kinds.failover && work.lock.replica_lag_ms.is_none() {
        out.push((
            "failover",
            if work.lock.kind == lockstep_core::scenario::LockKind::Redis {
                "the scenario has no lagging replica; set lock.replica_lag_ms (e.g. 200) in a copy of it".to_string()
            } else {
                format!(
                    "failover promotes a single Redis master's asynchronous replica; this lock service is \"{lock}\""
                )
            },
        ));
    }
    out
}

/// The menu of faults for a workload, in a fixed order.
pub fn menu(work: &Scenario, bounds: &Bounds) -> Vec<Choice> {
    let nodes = participants(work);
    let k = bounds.kinds;
    let mut out = Vec::new();
    let redis_like =
        |r: Role| matches!(r, Role::Redis | Role::RedisReplica | Role::RedlockInstance);
    if k.pause {
        for p in nodes.iter().filter(|p| p.role == Role::Worker) {
            for &d in &bounds.pauses_ms {
                let mut f = fault(FaultKind::Pause, Some(&p.name));
                f.duration_ms = Some(d);
                out.push(Choice { fault: f });
            }
        }
    }
    if k.crash {
        for p in nodes.iter().filter(|p| p.role.is_lock_service()) {
            out.push(Choice {
                fault: fault(FaultKind::Crash, Some(&p.name)),
            });
        }
    }
    if k.restart {
        for p in nodes.iter().filter(|p| redis_like(p.role)) {
            let mut f = fault(FaultKind::Restart, Some(&p.name));
            f.persistent = Some(false);
            out.push(Choice { fault: f });
        }
    }
    if k.clock_jump {
        for p in nodes.iter().filter(|p| redis_like(p.role)) {
            for &by in &bounds.jumps_ms {
                let mut f = fault(FaultKind::ClockJump, Some(&p.name));
                f.by_ms = Some(by);
                out.push(Choice { fault: f });
            }
        }
    }
    if k.failover && work.lock.replica_lag_ms.is_some() {
        out.push(Choice {
            fault: fault(FaultKind::Failover, None),
        });
    }
    out
}

/// The workload a search explores: the scenario without its own faults, delivery orders and
/// narration; with one worker, a second one (a copy under another name) so that someone competes for the lock.
pub fn workload(scenario: &Scenario) -> Scenario {
    let mut s = scenario.clone();
    s.faults.clear();
    s.order.clear();
    s.explain.clear();
    if let [only] = s.workers.as_slice() {
        let mut other: WorkerConfig = only.clone();
        other.name = ["B", "W2", "worker-2"]
            .into_iter()
            .find(|n| *n != only.name)
            .unwrap_or("W2")
            .to_string();
        s.workers.push(other);
    }
    s
}

/// The bounds as the output states them: the time grid, then each kind of fault in the menu
/// with the nodes it hits and its sizes.
pub fn describe_bounds(bounds: &Bounds, menu: &[Choice]) -> String {
    let mut out = format!(
        "  at most {} fault(s), each at a time in {}..{} every {} ({} times; several may hit at one instant)",
        bounds.max_faults,
        format_ms(bounds.from_ms as i64),
        format_ms(bounds.to_ms as i64),
        format_ms(bounds.step_ms as i64),
        bounds.times().len()
    );
    let targets = |kind: FaultKind| {
        let mut names: Vec<&str> = Vec::new();
        for c in menu.iter().filter(|c| c.fault.kind == kind) {
            if let Some(t) = c.fault.target.as_deref()
                && !names.contains(&t)
            {
                names.push(t);
            }
        }
        names.join(", ")
    };
    let has = |kind: FaultKind| menu.iter().any(|c| c.fault.kind == kind);
    let mut kinds = Vec::new();
    if has(FaultKind::Pause) {
        let lengths: Vec<String> = bounds
            .pauses_ms
            .iter()
            .map(|&d| format_ms(d as i64))
            .collect();
        kinds.push(format!(
            "pause {} for {}",
            targets(FaultKind::Pause),
            lengths.join(" | ")
        ));
    }
    if has(FaultKind::Crash) {
        kinds.push(format!("crash {}", targets(FaultKind::Crash)));
    }
    if has(FaultKind::Restart) {
        kinds.push(format!(
            "restart {} without persistence",
            targets(FaultKind::Restart)
        ));
    }
    if has(FaultKind::ClockJump) {
        let sizes: Vec<String> = bounds
            .jumps_ms
            .iter()
            .map(|&d| format!("{d:+}ms"))
            .collect();
        kinds.push(format!(
            "jump the clock of {} by {}",
            targets(FaultKind::ClockJump),
            sizes.join(" | ")
        ));
    }
    if has(FaultKind::Failover) {
        kinds.push("fail the Redis master over to its replica".into());
    }
    out.push_str(&format!(
        "\n  faults: {}",
        if kinds.is_empty() {
            "none".to_string()
        } else {
            kinds.join("; ")
        }
    ));
    out.push_str(&match bounds.max_reorders {
        0 => "\n  delivery order: messages due at one node at the same instant are handled in the order they were sent".to_string(),
        n => format!(
            "\n  delivery order: up to {n} time(s) per schedule, where several messages are due at one node at the same instant, any of them goes first"
        ),
    });
    out.push_str("\n  not searched: partitions, message delays and drops, pauses of the lock service or database, worker crashes");
    out.push_str(&format!(
        "\n  state limit: {} distinct states; a search stopped there proves nothing",
        bounds.max_states
    ));
    out
}
