//! `x`: a search for a double write from the run's scenario (lockstep-explore's breadth-first
//! search over fault schedules). The search runs on a background thread in small budgets and
//! reports to the UI thread over a channel; the UI keeps drawing its progress and can cancel it.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender, TryRecvError, channel};
use std::time::Instant;

use lockstep_core::Scenario;
pub use lockstep_explore::search::Bounds;
use lockstep_explore::search::{self, Progress, Search, Stats};

/// Simulator steps per call of `Search::step`: a few milliseconds, so a cancel is seen at once.
const BUDGET: u64 = 10_000;

/// What the search thread tells the UI.
#[derive(Debug, Clone)]
pub enum Report {
    Running(Stats),
    /// A double write, shrunk: the counterexample scenario and one line per fault.
    Found {
        scenario: Box<Scenario>,
        faults: Vec<String>,
        stats: Stats,
    },
    /// No double write within the bounds (`complete` false: the state bound cut it short).
    Exhausted {
        stats: Stats,
        complete: bool,
    },
}

/// What [`Running::try_next`] finds on the channel.
#[derive(Debug, Clone)]
pub enum Next {
    Report(Report),
    /// Nothing new yet.
    Nothing,
    /// The search thread has ended without a last word (it panicked).
    Gone,
}

/// The search as the UI sees it while it runs.
#[derive(Debug, Clone)]
pub struct Running {
    /// The scenario searched from.
    pub from: String,
    /// The bounds in words, one line each.
    pub bounds: Vec<String>,
    pub stats: Stats,
    /// States per second since the start.
    pub rate: u64,
    pub started: Instant,
    cancel: Arc<AtomicBool>,
    reports: Arc<std::sync::Mutex<Receiver<Report>>>,
}

impl Running {
    /// Asks the search thread to stop; it sees the flag before its next step and ends.
    pub fn cancel(&self) {
        self.cancel.store(true, Ordering::Relaxed);
    }

    /// The next report, if one has arrived.
    pub fn try_next(&self) -> Next {
        let Ok(rx) = self.reports.lock() else {
            return Next::Gone;
        };
        match rx.try_recv() {
            Ok(r) => Next::Report(r),
            Err(TryRecvError::Empty) => Next::Nothing,
            Err(TryRecvError::Disconnected) => Next::Gone,
        }
    }

    /// Updates the figures shown from a progress report.
    pub fn progress(&mut self, stats: Stats) {
        self.stats = stats;
        let secs = self.started.elapsed().as_secs_f64();
        if secs > 0.0 {
            self.rate = (stats.states as f64 / secs) as u64;
        }
    }
}

/// The search itself, to run on a background thread (or, in tests, on the caller's).
#[derive(Debug)]
pub struct Worker {
    search: Search,
    original: Scenario,
    cancel: Arc<AtomicBool>,
    reports: Sender<Report>,
}

/// Sets up a search from `scenario` within `bounds`: the UI's half and the thread's half.
pub fn start(scenario: &Scenario, bounds: Bounds) -> Result<(Running, Worker), String> {
    let search = Search::new(scenario, bounds).map_err(|e| format!("cannot search: {e}"))?;
    let bounds = search
        .describe_bounds()
        .lines()
        .map(|l| l.trim().to_string())
        .filter(|l| !l.is_empty())
        .collect();
    let cancel = Arc::new(AtomicBool::new(false));
    let (tx, rx) = channel();
    let running = Running {
        from: scenario.name.clone(),
        bounds,
        stats: Stats::default(),
        rate: 0,
        started: Instant::now(),
        cancel: Arc::clone(&cancel),
        reports: Arc::new(std::sync::Mutex::new(rx)),
    };
    let worker = Worker {
        search,
        original: scenario.clone(),
        cancel,
        reports: tx,
    };
    Ok((running, worker))
}

/// The scenario `x` searches: the run's, with the what-if changes made on screen as its own
/// faults and settings (a search keeps the settings and sets faults aside).
pub fn shown(viewer: &crate::viewer::Viewer) -> Scenario {
    search::scenario_as_shown(
        &viewer.scenario,
        viewer.whatifs(),
        &viewer.active().full.events,
    )
}

/// The bounds `x` searches within: those fitted to the scenario.
pub fn bounds_for(scenario: &Scenario) -> Bounds {
    Bounds::for_scenario(scenario)
}

impl Worker {
    /// One budget of the search; reports what it came to. False once it is over (found,
    /// exhausted, cancelled, or nobody listens any more).
    pub fn step(&mut self) -> bool {
        self.step_with(BUDGET)
    }

    /// [`Worker::step`] with a budget of `budget` simulator steps.
    pub fn step_with(&mut self, budget: u64) -> bool {
        if self.cancel.load(Ordering::Relaxed) {
            return false;
        }
        let report = match self.search.step(budget) {
            Progress::Running(stats) => Report::Running(stats),
            Progress::Found(found) => {
                let work = self.search.workload();
                let small = search::shrink(work, &found.schedule(), self.search.bounds().to_ms);
                let scenario = search::counterexample_scenario(&self.original, work, &small);
                Report::Found {
                    faults: search::describe_schedule(&small),
                    scenario: Box::new(scenario),
                    stats: found.stats,
                }
            }
            Progress::Exhausted { stats, complete } => Report::Exhausted { stats, complete },
        };
        let more = matches!(report, Report::Running(_));
        self.reports.send(report).is_ok() && more
    }

    /// Steps until the search is over or cancelled.
    pub fn run(mut self) {
        while self.step() {}
    }
}

#[cfg(test)]
mod tests {
    use lockstep_core::{EventKind, Outcome, catalogue};

    use crate::action::{Action, Focus};
    use crate::app::{App, Screen};

    fn viewing(id: &str) -> App {
        App::viewing(catalogue::load(id).unwrap().unwrap())
    }

    #[test]
    fn x_searches_shows_progress_then_opens_the_counterexample_with_its_faults() {
        let mut app = viewing("naive-happy-path");
        let mut worker = app.start_search().expect("the search starts");
        assert_eq!(app.focus(), Focus::Search);
        let running = app.search.as_ref().unwrap();
        assert!(
            running.bounds[0].contains("at most 2 fault(s)"),
            "{:?}",
            running.bounds
        );
        assert_eq!(running.stats.states, 0);
        assert!(worker.step_with(50), "50 steps do not finish it");
        assert!(app.poll_search());
        let states = app.search.as_ref().unwrap().stats.states;
        assert!(states > 0, "progress reached the UI");
        // Keys other than Esc leave the search alone.
        app.update(Action::Step(1));
        assert!(app.search.is_some());
        worker.run();
        app.poll_search();
        assert!(app.search.is_none());
        assert_eq!(app.screen, Screen::Viewer);
        let v = app.viewer.as_ref().unwrap();
        assert_eq!(v.scenario.name, "naive-happy-path-counterexample");
        assert_eq!(v.pos(), 0, "opened at the start, to step through");
        assert!(!v.scenario.faults.is_empty());
        let faults = v
            .active()
            .full
            .events
            .iter()
            .filter(|e| e.kind == EventKind::Fault)
            .count();
        assert!(
            faults >= v.scenario.faults.len(),
            "the faults are in the run"
        );
        let line = app.found_line().expect("the verdict bar names the faults");
        assert!(line.contains("pause"), "{line}");
        assert!(line.contains("found from naive-happy-path"), "{line}");
        app.update(Action::End);
        let v = app.viewer.as_ref().unwrap();
        assert_eq!(v.verdict().outcome, Outcome::DoubleWrite);
        assert!(app.found_line().is_some(), "the line stays while stepping");
    }

    #[test]
    fn x_searches_the_design_on_screen_with_its_what_ifs() {
        let mut app = viewing("fenced-gc-pause");
        let v = app.viewer.as_mut().unwrap();
        v.seek(2);
        v.apply(lockstep_core::Change::SetFencing {
            fencing: lockstep_core::scenario::FencingMode::Enforce,
        })
        .unwrap();
        let worker = app.start_search().expect("the search starts");
        let work = worker.search.workload();
        assert_eq!(
            work.resource.fencing,
            lockstep_core::scenario::FencingMode::Enforce,
            "the what-if's fencing mode, not the file's"
        );
        assert!(work.faults.is_empty(), "faults are the search's to choose");
        assert_eq!(
            worker.original.resource.fencing,
            lockstep_core::scenario::FencingMode::Enforce,
            "a counterexample opens with the same settings"
        );
    }

    #[test]
    fn esc_cancels_the_search_and_its_thread_stops() {
        let mut app = viewing("naive-happy-path");
        let mut worker = app.start_search().unwrap();
        app.update(Action::Back);
        assert!(app.search.is_none());
        assert_eq!(app.focus(), Focus::Viewer);
        assert!(!app.quit, "Esc cancelled, it did not quit");
        assert!(app.status.as_deref().unwrap().contains("cancelled"));
        assert!(!worker.step(), "the worker sees the flag and ends");
        assert_eq!(
            app.viewer.as_ref().unwrap().scenario.name,
            "naive-happy-path"
        );
    }

    #[test]
    fn an_exhausted_search_says_so_with_its_bounds() {
        let mut app = viewing("fenced-every-access");
        let scenario = app.viewer.as_ref().unwrap().scenario.clone();
        let mut bounds = super::bounds_for(&scenario);
        bounds.max_faults = 1;
        bounds.kinds = lockstep_explore::search::Kinds {
            pause: true,
            crash: false,
            restart: false,
            clock_jump: false,
            failover: false,
        };
        let worker = app.start_search_within(&scenario, bounds).unwrap();
        worker.run();
        app.poll_search();
        assert!(app.search.is_none());
        let status = app.status.clone().unwrap_or_else(|| {
            panic!("no status; found: {:?}", app.found);
        });
        assert!(
            status.starts_with("no double write within these bounds"),
            "{status}"
        );
        let crate::app::Overlay::NothingFound(lines) = &app.overlay else {
            panic!("the result stays up: {:?}", app.overlay);
        };
        assert!(lines[1].contains("at most 1 fault(s)"), "{lines:?}");
        assert_eq!(app.focus(), Focus::Help, "any key closes it");
        app.update(Action::Step(1));
        assert_eq!(app.overlay, crate::app::Overlay::None);
        assert_eq!(
            app.viewer.as_ref().unwrap().pos(),
            0,
            "the key only closed it"
        );
        assert_eq!(
            app.viewer.as_ref().unwrap().scenario.name,
            "fenced-every-access"
        );
    }

    #[test]
    fn impossible_bounds_are_refused_with_a_reason() {
        let mut app = viewing("naive-happy-path");
        let scenario = app.viewer.as_ref().unwrap().scenario.clone();
        let mut bounds = super::bounds_for(&scenario);
        bounds.step_ms = 0;
        assert!(app.start_search_within(&scenario, bounds).is_none());
        assert!(app.search.is_none());
        assert!(app.status.as_deref().unwrap().starts_with("cannot search"));
    }
}
