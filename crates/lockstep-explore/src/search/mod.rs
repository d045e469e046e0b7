//! The bounded search over fault schedules and delivery orders: breadth-first by number of
//! faults, so the first double write found has as few faults as any; wherever several messages are
//! due at one node at the same instant, each of them may go first (up to `max_reorders` times per
//! path). States are fingerprinted so that a state reached twice is explored once. Runs in steps
//! (see [`Search::step`]) so that a front end can show progress and cancel.

mod bounds;
mod cex;
mod shown;
mod shrink;

use std::collections::VecDeque;
use std::hash::{BuildHasher, Hash, Hasher};

use lockstep_core::Scenario;
use lockstep_core::scenario::{Fault, Order};
use lockstep_core::sim::{Contest, Sim};
use lockstep_core::topology::NodeId;
use lockstep_core::trace::TraceEvent;
use rustc_hash::FxHashSet;

pub use bounds::{
    Bounds, Choice, DEFAULT_MAX_FAULTS, DEFAULT_MAX_STATES, DEFAULT_REORDERS, Kinds,
    describe_bounds, describe_fault, inapplicable, menu, workload,
};
pub use cex::{
    counterexample_scenario, counterexample_text, counterexample_toml, describe_order,
    describe_schedule,
};
pub use shown::scenario_as_shown;
pub use shrink::{Schedule, breaks, hangs_on_a_tie, shrink, with_faults, with_schedule};

use crate::error::ExploreError;
use crate::outcome::double_written;

/// A fault schedule: (grid index, menu index) per fault, in the order they hit.
type FaultPicks = Vec<(usize, usize)>;

/// The delivery-order choices of a path, as `[[order]]` entries, each with whether it moved a
/// message (true) or only states the default order so that a later entry meets its own turn.
type OrderPicks = Vec<(Order, bool)>;

/// How far a search has come.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Stats {
    /// Distinct simulator states reached (each after one event), by fingerprint.
    pub states: u64,
    /// Simulator steps taken, replays of known prefixes included.
    pub steps: u64,
    /// Fault schedules (and delivery orders) run so far.
    pub schedules: u64,
    /// The number of faults in the schedules being run now.
    pub faults: usize,
    /// Runs started by handling another message first where several were due at one node.
    pub reorders: u64,
}

/// What one call of [`Search::step`] leaves behind.
#[derive(Debug, Clone, PartialEq)]
pub enum Progress {
    /// Not finished: call `step` again (or drop the search to cancel it).
    Running(Stats),
    /// A double write, with a schedule of as few faults as any within the bounds.
    Found(Found),
    /// No double write within the bounds. `complete` is false if the state bound cut it short.
    Exhausted { stats: Stats, complete: bool },
}

/// A counterexample as the search found it (before shrinking).
#[derive(Debug, Clone, PartialEq)]
pub struct Found {
    /// The faults, each with its `at_ms`, in the order they hit.
    pub faults: Vec<Fault>,
    /// The delivery-order choices, as the `[[order]]` entries that replay them.
    pub orders: Vec<Order>,
    pub stats: Stats,
}

impl Found {
    /// The faults and orders together, as shrinking and the counterexample file take them.
    pub fn schedule(&self) -> Schedule {
        Schedule {
            faults: self.faults.clone(),
            orders: self.orders.clone(),
        }
    }
}

#[derive(Debug, Clone)]
struct Record {
    schedule: FaultPicks,
    orders: OrderPicks,
    steps: u64,
}

#[derive(Debug, Clone)]
struct Running {
    sim: Sim,
    schedule: FaultPicks,
    orders: OrderPicks,
    /// The choices made at the current instant so far (the default ones too).
    turns: OrderPicks,
    steps: u64,
}

impl Running {
    fn reorders(&self) -> usize {
        moved(&self.orders)
    }
}

fn moved(orders: &OrderPicks) -> usize {
    orders.iter().filter(|(_, moved)| *moved).count()
}

#[derive(Debug, Clone)]
struct Replay {
    sim: Sim,
    record: Record,
    applied: usize,
    steps_done: u64,
    grid: usize,
    menu_from: usize,
    /// True time of the last processed event; grid times at or before it have passed.
    floor: Option<u64>,
}

/// A bounded breadth-first search for a double write. See the crate docs for the stepping API.
#[derive(Debug)]
pub struct Search {
    work: Scenario,
    bounds: Bounds,
    times: Vec<u64>,
    menu: Vec<Choice>,
    root: Sim,
    visited: FxHashSet<u64>,
    level: usize,
    records: VecDeque<Record>,
    next_records: Vec<Record>,
    replay: Option<Replay>,
    pending: VecDeque<Running>,
    current: Option<Running>,
    stats: Stats,
    finished: Option<Progress>,
    scratch: Vec<TraceEvent>,
}

impl Search {
    /// A search of `scenario`'s workload (its own faults set aside, see [`workload`]).
    pub fn new(scenario: &Scenario, bounds: Bounds) -> Result<Search, ExploreError> {
        bounds.check()?;
        let work = workload(scenario);
        lockstep_core::scenario::check(&work)
            .map_err(|p| ExploreError::InvalidScenario(p.message))?;
        let menu = menu(&work, &bounds);
        let root = Sim::new(&work);
        let mut search = Search {
            times: bounds.times(),
            work,
            bounds,
            menu,
            visited: FxHashSet::default(),
            level: 0,
            records: VecDeque::new(),
            next_records: Vec::new(),
            replay: None,
            pending: VecDeque::new(),
            current: None,
            stats: Stats::default(),
            finished: None,
            scratch: Vec::new(),
            root: root.clone(),
        };
        search.visited.insert(fingerprint(&root, 0, u64::MAX, 0));
        search.current = Some(Running {
            sim: root,
            schedule: Vec::new(),
            orders: Vec::new(),
            turns: Vec::new(),
            steps: 0,
        });
        Ok(search)
    }

    /// The workload being searched (the scenario as the counterexample will contain it).
    pub fn workload(&self) -> &Scenario {
        &self.work
    }

    pub fn bounds(&self) -> &Bounds {
        &self.bounds
    }

    /// The bounds as output states them (see [`describe_bounds`]).
    pub fn describe_bounds(&self) -> String {
        describe_bounds(&self.bounds, &self.menu)
    }

    /// The faults the search chooses from.
    pub fn menu(&self) -> &[Choice] {
        &self.menu
    }

    /// Works for about `budget` simulator steps, then says where it stands. Once it returns
    /// `Found` or `Exhausted` it keeps returning that.
    pub fn step(&mut self, budget: u64) -> Progress {
        let stop_at = self.stats.steps + budget.max(1);
        while self.finished.is_none() && self.stats.steps < stop_at {
            self.work_once();
        }
        self.stats.states = self.visited.len() as u64;
        self.stats.faults = self.level;
        match &self.finished {
            Some(Progress::Found(f)) => Progress::Found(Found {
                stats: self.stats,
                ..f.clone()
            }),
            Some(Progress::Exhausted { complete, .. }) => Progress::Exhausted {
                stats: self.stats,
                complete: *complete,
            },
            _ => Progress::Running(self.stats),
        }
    }

    /// Runs to the end (natively; a browser should call [`Search::step`] between frames).
    pub fn run(&mut self) -> Progress {
        loop {
            match self.step(1 << 20) {
                Progress::Running(_) => {}
                done => return done,
            }
        }
    }

    fn work_once(&mut self) {
        if self.visited.len() as u64 >= self.bounds.max_states {
            self.finished = Some(Progress::Exhausted {
                stats: self.stats,
                complete: false,
            });
            return;
        }
        if self.current.is_some() {
            self.step_current();
        } else if let Some(next) = self.pending.pop_front() {
            self.stats.schedules += 1;
            self.current = Some(next);
        } else if self.replay.is_some() {
            self.step_replay();
        } else if let Some(record) = self.records.pop_front() {
            let mut sim = self.root.clone();
            for (order, _) in &record.orders {
                sim.push_order(order);
            }
            self.replay = Some(Replay {
                sim,
                record,
                applied: 0,
                steps_done: 0,
                grid: 0,
                menu_from: 0,
                floor: None,
            });
        } else if self.level < self.bounds.max_faults && !self.next_records.is_empty() {
            self.level += 1;
            self.records = std::mem::take(&mut self.next_records).into();
        } else {
            self.finished = Some(Progress::Exhausted {
                stats: self.stats,
                complete: true,
            });
        }
    }

    fn step_current(&mut self) {
        let Some(mut run) = self.current.take() else {
            return;
        };
        if run.sim.end.is_none()
            && run.reorders() < self.bounds.max_reorders
            && let Some(contest) = run.sim.contest()
        {
            self.fork(&mut run, &contest);
            if self.finished.is_some() {
                return;
            }
        }
        self.scratch.clear();
        let advanced = run.sim.end.is_none() && run.sim.advance(&mut self.scratch);
        let mut over = !advanced;
        if advanced {
            run.steps += 1;
            self.stats.steps += 1;
            if double_written(&run.sim) {
                self.found(&run.schedule, &run.orders);
                return;
            }
            over = !self.visited.insert(fingerprint(
                &run.sim,
                run.sim.now(),
                u64::MAX,
                run.reorders(),
            ));
        }
        if !over {
            self.current = Some(run);
        } else if run.schedule.len() < self.bounds.max_faults {
            self.next_records.push(Record {
                schedule: run.schedule,
                orders: run.orders,
                steps: run.steps,
            });
        }
    }

    /// Several messages are due at one node now: each other one goes first in a run of its own;
    /// `run` goes on with the default (the one sent first).
    fn fork(&mut self, run: &mut Running, contest: &Contest) {
        let names = &run.sim.params.names;
        let entry = |(from, label): &(NodeId, String)| Order {
            at_ms: contest.at_ms,
            to: names[usize::from(contest.to)].clone(),
            from: Some(names[usize::from(*from)].clone()),
            match_label: Some(label.clone()),
        };
        if run
            .turns
            .first()
            .is_some_and(|(o, _)| o.at_ms != contest.at_ms)
        {
            run.turns.clear();
        }
        let here = |o: &Order| o.at_ms == contest.at_ms && o.to == names[usize::from(contest.to)];
        // Earlier choices between messages due at this node now, so that the new entry replays
        // at its own turn.
        let mut orders: OrderPicks = run
            .orders
            .iter()
            .filter(|(o, _)| !here(o))
            .cloned()
            .collect();
        orders.extend(run.turns.iter().filter(|(o, _)| here(o)).cloned());
        let default = &contest.messages[0];
        let mut tried: Vec<&(NodeId, String)> = vec![default];
        for alt in &contest.messages[1..] {
            if tried.contains(&alt) {
                continue;
            }
            tried.push(alt);
            let choice = entry(alt);
            let mut sim = run.sim.clone();
            if !sim.put_first(&choice) {
                continue;
            }
            self.scratch.clear();
            sim.advance(&mut self.scratch);
            self.stats.steps += 1;
            let mut child_orders = orders.clone();
            child_orders.push((choice.clone(), true));
            if double_written(&sim) {
                self.found(&run.schedule, &child_orders);
                return;
            }
            let reorders = moved(&child_orders);
            if !self
                .visited
                .insert(fingerprint(&sim, sim.now(), u64::MAX, reorders))
            {
                continue;
            }
            self.stats.reorders += 1;
            let mut turns = run.turns.clone();
            turns.push((choice, true));
            self.pending.push_back(Running {
                sim,
                schedule: run.schedule.clone(),
                orders: child_orders,
                turns,
                steps: run.steps + 1,
            });
        }
        let default = entry(default);
        run.turns.push((default, false));
    }

    fn found(&mut self, schedule: &FaultPicks, orders: &OrderPicks) {
        self.finished = Some(Progress::Found(Found {
            faults: self.faults_of(schedule),
            orders: orders.iter().map(|(o, _)| o.clone()).collect(),
            stats: self.stats,
        }));
    }

    fn step_replay(&mut self) {
        let Some(rp) = self.replay.as_mut() else {
            return;
        };
        self.stats.steps += 1;
        // Replay the record's own faults first, exactly where they hit the first time.
        if let Some(&(gi, mi)) = rp.record.schedule.get(rp.applied) {
            let g = self.times[gi];
            if rp.sim.end.is_some() {
                // Cannot happen for a record the search made; never spin on one that would.
                self.replay = None;
            } else if rp.sim.next_time().is_some_and(|t| t < g) {
                self.scratch.clear();
                rp.sim.advance(&mut self.scratch);
                rp.floor = Some(rp.sim.now());
            } else {
                self.scratch.clear();
                rp.sim.inject_at(g, &self.menu[mi].fault, &mut self.scratch);
                rp.applied += 1;
                rp.grid = gi;
                rp.menu_from = mi + 1;
            }
            return;
        }
        if rp.steps_done >= rp.record.steps || rp.sim.end.is_some() {
            self.replay = None;
            return;
        }
        // Branch: one more fault at every grid time before the next event.
        if let Some(next) = rp.sim.next_time() {
            while let Some(&g) = self.times.get(rp.grid) {
                if rp.floor.is_some_and(|f| g <= f) {
                    rp.grid += 1;
                    rp.menu_from = 0;
                    continue;
                }
                if g > next {
                    break;
                }
                // The record's order choices from `g` on belonged to the run without this fault.
                let orders: OrderPicks = rp
                    .record
                    .orders
                    .iter()
                    .filter(|(o, _)| o.at_ms < g)
                    .cloned()
                    .collect();
                for m in rp.menu_from..self.menu.len() {
                    let mut sim = rp.sim.clone();
                    sim.forget_orders_from(g);
                    self.scratch.clear();
                    sim.inject_at(g, &self.menu[m].fault, &mut self.scratch);
                    let key = fingerprint(&sim, g, (m + 1) as u64, moved(&orders));
                    if !self.visited.insert(key) {
                        continue;
                    }
                    let mut schedule = rp.record.schedule.clone();
                    schedule.push((rp.grid, m));
                    self.pending.push_back(Running {
                        sim,
                        schedule,
                        orders: orders.clone(),
                        turns: Vec::new(),
                        steps: 0,
                    });
                }
                rp.grid += 1;
                rp.menu_from = 0;
            }
        }
        self.scratch.clear();
        rp.sim.advance(&mut self.scratch);
        rp.steps_done += 1;
        rp.floor = Some(rp.sim.now());
    }

    fn faults_of(&self, schedule: &FaultPicks) -> Vec<Fault> {
        schedule
            .iter()
            .map(|&(gi, mi)| {
                let mut f = self.menu[mi].fault.clone();
                f.at_ms = Some(self.times[gi]);
                f
            })
            .collect()
    }
}

/// The hasher of state fingerprints: foldhash's quality variant, a fixed seed (so a search is the
/// same every run). About twice as fast as the standard SipHash on the many small fields of a
/// simulator state, with 64-bit output of comparable quality: two distinct states sharing a
/// fingerprint (which would prune one of them) stays vanishingly unlikely at millions of states.
const FINGERPRINT: foldhash::quality::FixedState =
    foldhash::quality::FixedState::with_seed(0x6c6f_636b_7374_6570);

/// A state's fingerprint: the instant it stands at, its simulator state, (for a state just after
/// an injected fault) which further faults may still join it at that instant, and how many
/// reorders the path has used (fewer left, fewer runs from here).
fn fingerprint(sim: &Sim, at_ms: u64, branch: u64, reorders: usize) -> u64 {
    let mut h = FINGERPRINT.build_hasher();
    at_ms.hash(&mut h);
    branch.hash(&mut h);
    reorders.hash(&mut h);
    sim.hash_state(&mut h);
    h.finish()
}
