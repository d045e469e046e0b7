//! One scenario being stepped through: the original run, the what-if branch made from it, the
//! current step, play state and the layout of what is on screen.

use lockstep_core::inspect::Inspection;
use lockstep_core::{Change, Outcome, Scenario, Session, Trace, Verdict};
use lockstep_render::{Layout, Options, TimeMode, layout};

/// Play speeds, in steps per second.
pub const SPEEDS: [u32; 7] = [1, 2, 4, 8, 16, 32, 64];
/// The speed playing starts at (index into [`SPEEDS`]).
const DEFAULT_SPEED: usize = 2;
/// Steps moved by PageUp/PageDown.
pub const PAGE_STEPS: usize = 10;

/// A run: its session at the current step and the whole trace it produces from there on.
#[derive(Debug, Clone)]
pub struct Branch {
    pub session: Session,
    /// Every event of this run to its end, so that the layout's positions never move while
    /// stepping (the layout is asked for the rows up to the current step only).
    pub full: Trace,
}

impl Branch {
    fn new(session: Session) -> Branch {
        let mut to_end = session.clone();
        to_end.run_to_end();
        let full = Trace {
            participants: to_end.trace().participants,
            events: to_end.events().to_vec(),
        };
        Branch { session, full }
    }

    /// Events in the whole run.
    pub fn len(&self) -> usize {
        self.full.events.len()
    }

    pub fn is_empty(&self) -> bool {
        self.full.events.is_empty()
    }
}

/// What the viewer shows about one scenario.
#[derive(Debug, Clone)]
pub struct Viewer {
    pub scenario: Scenario,
    pub original: Branch,
    /// The what-if run, once a change has been made.
    pub branch: Option<Branch>,
    /// The step at which the branch left the original run.
    pub diverged_at: Option<usize>,
    pub time_mode: TimeMode,
    pub playing: bool,
    /// Index into [`SPEEDS`].
    pub speed: usize,
    /// The top timeline line chosen with the mouse wheel; None follows the current step.
    pub scroll: Option<usize>,
    /// The layout of the rows up to the current step.
    pub layout: Layout,
    pub inspection: Inspection,
    /// The state one step earlier, to highlight what changed.
    pub previous: Option<Inspection>,
    /// The verdict so far (judging copies the trace, so it is done once per step, not per frame).
    verdict: Verdict,
}

impl Viewer {
    /// The viewer at step 0 of a validated scenario.
    pub fn new(scenario: Scenario) -> Viewer {
        let original = Branch::new(Session::new(&scenario));
        let inspection = original.session.inspect();
        let verdict = original.session.verdict();
        let mut v = Viewer {
            scenario,
            layout: layout(&original.full, &Options::default()),
            original,
            branch: None,
            diverged_at: None,
            time_mode: TimeMode::Logical,
            playing: false,
            speed: DEFAULT_SPEED,
            scroll: None,
            verdict,
            inspection,
            previous: None,
        };
        v.refresh();
        v
    }

    /// The run on screen: the branch if there is one, else the original.
    pub fn active(&self) -> &Branch {
        self.branch.as_ref().unwrap_or(&self.original)
    }

    fn active_mut(&mut self) -> &mut Branch {
        self.branch.as_mut().unwrap_or(&mut self.original)
    }

    /// The current step (events shown).
    pub fn pos(&self) -> usize {
        self.active().session.pos()
    }

    /// Steps in the run on screen.
    pub fn total(&self) -> usize {
        self.active().len()
    }

    pub fn at_end(&self) -> bool {
        self.pos() >= self.total()
    }

    /// The verdict on the database as it stands at the current step.
    pub fn verdict(&self) -> &Verdict {
        &self.verdict
    }

    /// The scenario's expected outcome.
    pub fn expect(&self) -> Outcome {
        self.scenario.expect
    }

    /// Steps per second while playing.
    pub fn steps_per_second(&self) -> u32 {
        SPEEDS[self.speed]
    }

    /// Recomputes what depends on the current step: the layout and the inspector's two states.
    fn refresh(&mut self) {
        let pos = self.pos();
        let options = Options {
            time_mode: self.time_mode,
            upto_step: Some(pos),
            // Every event is a step here, so each needs its own row: no folded retries.
            unfold_retries: true,
            ..Options::default()
        }
        // The database's header says when it accepts tokenless writes.
        .for_scenario(&self.scenario);
        self.layout = layout(&self.active().full, &options);
        let session = &mut self.active_mut().session;
        let now = session.inspect();
        let previous = if pos > 0 {
            session.seek(pos - 1);
            let before = session.inspect();
            session.seek(pos);
            Some(before)
        } else {
            None
        };
        self.inspection = now;
        self.previous = previous;
        self.verdict = self.active().session.verdict();
    }

    /// Goes to step `n` (clamped to the run) and follows it.
    pub fn seek(&mut self, n: usize) {
        let n = n.min(self.total());
        self.active_mut().session.seek(n);
        self.scroll = None;
        self.refresh();
    }

    /// Moves by `delta` steps.
    pub fn step_by(&mut self, delta: isize) {
        let target = self.pos().saturating_add_signed(delta);
        self.seek(target);
    }

    /// One step forward while playing; stops at the end.
    pub fn tick(&mut self) {
        if self.at_end() {
            self.playing = false;
        } else {
            self.step_by(1);
            if self.at_end() {
                self.playing = false;
            }
        }
    }

    pub fn toggle_play(&mut self) {
        if self.at_end() && !self.playing {
            self.seek(0);
        }
        self.playing = !self.playing;
    }

    pub fn faster(&mut self) {
        self.speed = (self.speed + 1).min(SPEEDS.len() - 1);
    }

    pub fn slower(&mut self) {
        self.speed = self.speed.saturating_sub(1);
    }

    pub fn toggle_time_mode(&mut self) {
        self.time_mode = match self.time_mode {
            TimeMode::Logical => TimeMode::ToScale,
            TimeMode::ToScale => TimeMode::Logical,
        };
        self.scroll = None;
        self.refresh();
    }

    /// Scrolls the timeline by `lines` (negative: up) from `top`, the line now at the top.
    pub fn scroll_by(&mut self, top: usize, lines: isize) {
        self.scroll = Some(top.saturating_add_signed(lines));
    }

    /// Makes a change at the current step: the run on screen branches from here.
    pub fn apply(&mut self, change: Change) -> Result<(), lockstep_core::session::WhatIfError> {
        let mut session = self.active().session.clone();
        // After the rest of the current step's reaction, where the change lands (see
        // `Session::lands_after`): the branch diverges there.
        let pos = session.lands_after().max(self.pos());
        session.apply(change)?;
        if self.branch.is_none() {
            self.diverged_at = Some(pos);
        } else {
            self.diverged_at = Some(self.diverged_at.map_or(pos, |d| d.min(pos)));
        }
        self.branch = Some(Branch::new(session));
        self.playing = false;
        // Show the change itself: the event the what-if recorded.
        self.seek(pos + 1);
        Ok(())
    }

    /// Leaves the what-if branch for the original run, at the same step where possible.
    pub fn back_to_original(&mut self) -> bool {
        if self.branch.take().is_none() {
            return false;
        }
        let pos = self.diverged_at.take().unwrap_or(0);
        self.playing = false;
        self.seek(pos);
        true
    }

    /// The what-if changes made on the run on screen.
    pub fn whatifs(&self) -> &[lockstep_core::WhatIf] {
        self.active().session.whatifs()
    }
}
