//! The bounded search over fault schedules: breadth-first by number of faults, so the first
//! double write found has as few faults as any; states are fingerprinted so that a state reached
//! twice is explored once. Runs in steps (see [`Search::step`]) so that a front end can show
//! progress and cancel.

mod bounds;
mod cex;
mod shrink;

use std::collections::VecDeque;
use std::hash::{DefaultHasher, Hash, Hasher};

use lockstep_core::Scenario;
use lockstep_core::scenario::Fault;
use lockstep_core::sim::Sim;
use lockstep_core::trace::TraceEvent;
use rustc_hash::FxHashSet;

pub use bounds::{Bounds, Choice, Kinds, describe_bounds, describe_fault, menu, workload};
pub use cex::{counterexample_scenario, counterexample_toml, describe_schedule};
pub use shrink::{breaks, shrink, with_faults};

use crate::error::ExploreError;
use crate::outcome::double_written;

/// A fault schedule: (grid index, menu index) per fault, in the order they hit.
type Schedule = Vec<(usize, usize)>;

/// How far a search has come.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Stats {
    /// Distinct simulator states reached (each after one event), by fingerprint.
    pub states: u64,
    /// Simulator steps taken, replays of known prefixes included.
    pub steps: u64,
    /// Fault schedules run so far.
    pub schedules: u64,
    /// The number of faults in the schedules being run now.
    pub faults: usize,
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
    pub stats: Stats,
}

#[derive(Debug, Clone)]
struct Record {
    schedule: Schedule,
    steps: u64,
}

#[derive(Debug, Clone)]
struct Running {
    sim: Sim,
    schedule: Schedule,
    steps: u64,
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
        search.visited.insert(fingerprint(&root, 0, u64::MAX));
        search.current = Some(Running {
            sim: root,
            schedule: Vec::new(),
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
                faults: f.faults.clone(),
                stats: self.stats,
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
            self.replay = Some(Replay {
                sim: self.root.clone(),
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
        let Some(run) = self.current.as_mut() else {
            return;
        };
        self.scratch.clear();
        let advanced = run.sim.end.is_none() && run.sim.advance(&mut self.scratch);
        let mut over = !advanced;
        if advanced {
            run.steps += 1;
            self.stats.steps += 1;
            if double_written(&run.sim) {
                let schedule = run.schedule.clone();
                let faults = self.faults_of(&schedule);
                self.finished = Some(Progress::Found(Found {
                    faults,
                    stats: self.stats,
                }));
                return;
            }
            over = !self
                .visited
                .insert(fingerprint(&run.sim, run.sim.now(), u64::MAX));
        }
        if over
            && let Some(run) = self.current.take()
            && run.schedule.len() < self.bounds.max_faults
        {
            {
                self.next_records.push(Record {
                    schedule: run.schedule,
                    steps: run.steps,
                });
            }
        }
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
                for m in rp.menu_from..self.menu.len() {
                    let mut sim = rp.sim.clone();
                    self.scratch.clear();
                    sim.inject_at(g, &self.menu[m].fault, &mut self.scratch);
                    let key = fingerprint(&sim, g, (m + 1) as u64);
                    if !self.visited.insert(key) {
                        continue;
                    }
                    let mut schedule = rp.record.schedule.clone();
                    schedule.push((rp.grid, m));
                    self.pending.push_back(Running {
                        sim,
                        schedule,
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

    fn faults_of(&self, schedule: &Schedule) -> Vec<Fault> {
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

/// A state's fingerprint: the instant it stands at, its simulator state, and (for a state just
/// after an injected fault) which further faults may still join it at that instant.
fn fingerprint(sim: &Sim, at_ms: u64, branch: u64) -> u64 {
    let mut h = DefaultHasher::new();
    at_ms.hash(&mut h);
    branch.hash(&mut h);
    sim.hash_state(&mut h);
    h.finish()
}
