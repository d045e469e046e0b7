//! The run being shown: a scenario, a [`Session`] at the current step, the whole run of the current
//! branch (so the picture keeps its positions while stepping), and the pictures and documents
//! lockstep-render and lockstep-core make of it. Browser-free, so it is tested natively.

use std::cell::RefCell;
use std::rc::Rc;

use lockstep_core::document::TraceDocument;
use lockstep_core::inspect::Inspection;
use lockstep_core::scenario::ScenarioError;
use lockstep_core::session::WhatIfError;
use lockstep_core::{Change, EventKind, Scenario, Session, Trace, TraceEvent, Verdict, WhatIf};
use lockstep_render::{
    Caption, Options, RenderError, Seen, TimeMode, draw_timeline, layout, lease_box_for,
    lease_svg_in,
};

use crate::inspector::{Table, tables};
use crate::share::{Chart, StepTarget, View};

mod frames;
mod notable;
pub mod page_fit;
mod picture;
mod rows;
mod source;
mod spans;

pub use picture::{HitRow, Picture, StepFrame, band};
pub use rows::row_step;
pub use source::Source;
pub use spans::DrawnWords;

pub use page_fit::{LaneHead, LegendArt, LegendSwatch};

/// Why a view cannot be opened.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum OpenError {
    #[error("there is no built-in scenario “{0}”{hint}; pick one from the list", hint = crate::catalogue::did_you_mean(.0))]
    UnknownScenario(String),
    #[error("{0}")]
    Scenario(#[from] ScenarioError),
    #[error("{0}")]
    WhatIf(#[from] WhatIfError),
    /// The page's TOML module (web/toml) could not be loaded or answered something unexpected.
    #[error("the scenario file cannot be read: {0}")]
    TomlModule(String),
}

/// A fresh number for each branch, so a picture drawn for one is never reused for another.
fn next_branch() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// What a lease chart's page for a box depends on (the branch, the time mode and the box's
/// shape, width over height in thousandths), and the page (see `Viewer::lease_box`).
type LeaseBox = ((u64, TimeMode, i64), Option<Seen>);

/// A scenario being stepped through.
#[derive(Debug)]
pub struct Viewer {
    source: Source,
    scenario: Scenario,
    session: Session,
    /// The whole run of the current branch.
    full: Trace,
    final_verdict: Verdict,
    /// The inspection before the last single step forward, to show what that step changed.
    before_step: Option<Inspection>,
    /// Which branch `full` is (see [`Picture::key`]).
    branch: u64,
    /// The last few frames shown or computed ahead by [`Viewer::prefetch`], with the picture
    /// they are for, least recently used first.
    ahead: RefCell<Vec<((u64, TimeMode), StepFrame)>>,
    /// The last step's frame of one picture, computed ahead once by [`Viewer::prefetch_last`]
    /// and kept apart from `ahead`, where stepping would soon push it out.
    last: RefCell<Option<((u64, TimeMode), StepFrame)>>,
    /// The lease chart's page for a box of some shape (see [`Viewer::lease_chart`]), found
    /// once per branch, time mode and shape.
    lease_box: RefCell<Option<LeaseBox>>,
    /// The faults and explanations of the user's own file that never applied in its run as
    /// written, located as `lockstep run` prints them (see [`Viewer::unapplied`]).
    unapplied: Vec<String>,
    /// How the run as written ends, without the what-if changes (see [`Viewer::written_outcome`]).
    written_outcome: lockstep_core::Outcome,
    /// How much of the picture's width the page's window shows, in the picture's px (see
    /// [`Viewer::set_seen_width`]).
    seen_width: std::cell::Cell<Option<f64>>,
    /// For each event of a branch, whether it repeats an earlier retry (see `notable.rs`),
    /// found once per branch when first asked.
    repeated: RefCell<Option<(u64, Rc<[bool]>)>>,
}

impl Viewer {
    /// Opens a source with what-if changes replayed, at step 0.
    pub fn open(source: Source, whatifs: &[WhatIf]) -> Result<Viewer, OpenError> {
        let scenario = match &source {
            Source::Builtin(id) => {
                crate::catalogue::load(id).ok_or_else(|| OpenError::UnknownScenario(id.clone()))?
            }
            Source::Own { scenario, .. } => Scenario::clone(scenario),
        };
        let session = Session::with_whatifs(&scenario, whatifs)?;
        let mut viewer = Viewer {
            source,
            full: Trace {
                participants: Vec::new(),
                events: Vec::new(),
            },
            final_verdict: session.verdict(),
            scenario,
            session,
            before_step: None,
            branch: 0,
            ahead: RefCell::new(Vec::new()),
            last: RefCell::new(None),
            lease_box: RefCell::new(None),
            unapplied: Vec::new(),
            written_outcome: lockstep_core::Outcome::Safe,
            seen_width: std::cell::Cell::new(None),
            repeated: RefCell::new(None),
        };
        let ended = viewer.finish_branch();
        // Of the run as written, not a branch: a what-if's own fault is no part of the file.
        let as_written = if whatifs.is_empty() {
            ended
        } else {
            let mut run = Session::new(&viewer.scenario);
            run.run_to_end();
            run
        };
        viewer.written_outcome = as_written.verdict().outcome;
        if let Source::Own { file, places, .. } = &viewer.source {
            // Located as a scenario error is: file, line, column (a review found "pasted.toml:
            // explain[0].when: …" where every other message names its line).
            viewer.unapplied = as_written
                .sim()
                .unapplied()
                .iter()
                .map(|u| match u.place(places) {
                    Some((line, column)) => format!("{file}:{line}:{column}: {u}"),
                    None => format!("{file}: {u}"),
                })
                .collect();
        }
        Ok(viewer)
    }

    /// Opens what a link describes (scenario, what-ifs, step), parsing a scenario file the link
    /// carries (natively; the browser parses it first and calls [`Viewer::open_view_from`]).
    #[cfg(not(target_arch = "wasm32"))]
    pub fn open_view(view: &View) -> Result<Viewer, OpenError> {
        let source = match &view.source {
            Some(toml) => Source::own(&view.file_name(), toml)?,
            None => Source::Builtin(view.scenario.clone()),
        };
        Viewer::open_view_from(view, source)
    }

    /// Opens a link's view from its scenario, already read (a built-in or the file it carries).
    pub fn open_view_from(view: &View, source: Source) -> Result<Viewer, OpenError> {
        let mut viewer = Viewer::open(source, &view.whatifs)?;
        viewer.go(view.step);
        Ok(viewer)
    }

    /// What the page must say about a link's step that the run cannot show as asked: a step
    /// past the end (the viewer shows the last step instead).
    pub fn step_note(&self, target: StepTarget) -> Option<String> {
        match target {
            StepTarget::At(n) if n > self.total() => Some(format!(
                "step {n} is past the end ({} steps); showing the last step",
                self.total()
            )),
            _ => None,
        }
    }

    /// Runs a copy of the session to the end: the whole branch, for the picture and the verdict.
    /// Returns that run, ended.
    fn finish_branch(&mut self) -> Session {
        let mut rest = self.session.clone();
        rest.run_to_end();
        self.full = rest.trace();
        self.final_verdict = rest.verdict();
        self.branch = next_branch();
        rest
    }

    /// Which branch is shown: a new number after every what-if change or reset.
    pub fn branch(&self) -> u64 {
        self.branch
    }

    pub fn source(&self) -> &Source {
        &self.source
    }

    /// The faults and explanations of the user's own file that never applied in its run as
    /// written ("f.toml: faults[0].after: A never had an event …"): a file written to show a
    /// failure must not seem to pass because its fault never fired. Empty for a built-in.
    pub fn unapplied(&self) -> &[String] {
        &self.unapplied
    }

    pub fn scenario(&self) -> &Scenario {
        &self.scenario
    }

    /// How the run as written ends: what a what-if branch's verdict is compared with.
    pub fn written_outcome(&self) -> lockstep_core::Outcome {
        self.written_outcome
    }

    /// The run's title: the scenario's, or for a what-if branch, each change with when it was
    /// made and then the scenario's title (so a branch that double-writes is never shown or
    /// exported under a title that says the scenario is safe).
    pub fn title(&self) -> String {
        if self.whatifs().is_empty() {
            return self.scenario.title.clone();
        }
        let changes: Vec<String> = self
            .whatifs()
            .iter()
            .map(|w| {
                let at_ms = w
                    .at_step
                    .checked_sub(1)
                    .and_then(|i| self.full.events.get(i))
                    .map_or(0, |e| e.time_ms);
                format!(
                    "{} at {at_ms} ms (after step {})",
                    crate::whatif::describe(&w.change),
                    w.at_step
                )
            })
            .collect();
        format!(
            "What-if: {} — in “{}”",
            changes.join("; "),
            self.scenario.title
        )
    }

    /// The id the link names: a built-in's id or the uploaded scenario's name.
    pub fn id(&self) -> &str {
        match &self.source {
            Source::Builtin(id) => id,
            Source::Own { .. } => &self.scenario.name,
        }
    }

    /// The current step (0: nothing shown yet).
    pub fn pos(&self) -> usize {
        self.session.pos()
    }

    /// Steps in the whole run of this branch.
    pub fn total(&self) -> usize {
        self.full.events.len()
    }

    pub fn at_end(&self) -> bool {
        self.pos() >= self.total()
    }

    /// For each event of this branch, whether it repeats an earlier retry (see `notable.rs`).
    fn repeated(&self) -> Rc<[bool]> {
        let mut cached = self.repeated.borrow_mut();
        match &*cached {
            Some((branch, r)) if *branch == self.branch => r.clone(),
            _ => {
                let r: Rc<[bool]> = notable::repeated_events(&self.full).into();
                *cached = Some((self.branch, r.clone()));
                r
            }
        }
    }

    /// The next step that does not repeat an earlier retry (past a retry loop's polling), or
    /// the last step; None at the last step.
    pub fn next_notable(&self) -> Option<usize> {
        notable::next_notable(&self.repeated(), self.pos())
    }

    /// Whether some step of this branch repeats an earlier retry (the *Skip retries* button
    /// shows then; the whole run's retry folds, found once per branch).
    pub fn has_repeats(&self) -> bool {
        self.repeated().contains(&true)
    }

    /// The event at the current step.
    pub fn current(&self) -> Option<&TraceEvent> {
        self.session.current()
    }

    /// Who acts at the current step: its event's sender and receiver (or its one node), by name.
    pub fn actors(&self) -> Vec<String> {
        let Some(e) = self.current() else {
            return Vec::new();
        };
        let mut names = vec![self.full.name(e.from).to_string()];
        if e.to != e.from {
            names.push(self.full.name(e.to).to_string());
        }
        names
    }

    /// The step of the branch's first fault (a pause, a crash, a clock jump…), if any.
    pub fn first_fault_step(&self) -> Option<usize> {
        self.full_trace()
            .events
            .iter()
            .position(|e| e.kind == EventKind::Fault)
            .map(|i| i + 1)
    }

    /// The whole-run trace of the branch.
    pub fn full_trace(&self) -> &Trace {
        &self.full
    }

    pub fn session(&self) -> &Session {
        &self.session
    }

    pub fn whatifs(&self) -> &[WhatIf] {
        self.session.whatifs()
    }

    /// The verdict on what the database has recorded up to the current step.
    pub fn verdict_so_far(&self) -> Verdict {
        self.session.verdict()
    }

    /// The verdict of the whole branch.
    pub fn final_verdict(&self) -> &Verdict {
        &self.final_verdict
    }

    pub fn forward(&mut self) -> bool {
        let before = self.session.inspect();
        let moved = self.session.step().is_some();
        self.before_step = moved.then_some(before);
        moved
    }

    pub fn back(&mut self) -> bool {
        self.before_step = None;
        self.session.step_back()
    }

    pub fn seek(&mut self, n: usize) {
        if n == self.pos() + 1 {
            self.forward();
            return;
        }
        self.before_step = None;
        self.session.seek(n.min(self.total()));
    }

    /// The inspector's tables at the current step, flagging what the last step forward changed.
    pub fn inspector(&self) -> Vec<Table> {
        tables(&self.session.inspect(), self.before_step.as_ref())
    }

    /// The nodes paused or down at the current step, each with the word for it, so that the
    /// pill naming the lanes out of view can say so: to scale in presenter mode at 1280x720,
    /// fenced-gc-pause shows redis, B and the database from #12 to #29, and A, paused off to the
    /// left, is the point of the run.
    pub fn lane_states(&self) -> Vec<(String, &'static str)> {
        let now = self.session.inspect();
        now.nodes
            .iter()
            .filter_map(|n| {
                let state = if !n.alive {
                    "down"
                } else if n.paused_until_ms.is_some_and(|t| t > now.time_ms) {
                    "paused"
                } else {
                    return None;
                };
                Some((n.name.clone(), state))
            })
            .collect()
    }

    pub fn go(&mut self, target: StepTarget) {
        self.before_step = None;
        match target {
            StepTarget::Start => self.seek(0),
            StepTarget::At(n) => self.seek(n),
            StepTarget::End => self.session.run_to_end(),
        }
    }

    /// Makes a what-if change at the current step; the rest of the run becomes a new branch.
    pub fn apply(&mut self, change: Change) -> Result<(), WhatIfError> {
        self.before_step = None;
        self.session.apply(change)?;
        self.finish_branch();
        Ok(())
    }

    /// Drops every what-if change, back to the scenario as written, at the same step.
    pub fn reset_branch(&mut self) -> Result<(), OpenError> {
        let pos = self.pos();
        let mut fresh = Viewer::open(self.source.clone(), &[])?;
        fresh.seek(pos);
        *self = fresh;
        Ok(())
    }

    /// The link to this view.
    pub fn view(&self, time_mode: TimeMode, chart: Chart) -> View {
        let step = if self.pos() > 0 && self.at_end() {
            StepTarget::End
        } else if self.pos() == 0 {
            StepTarget::Start
        } else {
            StepTarget::At(self.pos())
        };
        View {
            scenario: self.id().to_string(),
            source: match &self.source {
                Source::Own { toml, .. } => Some(toml.clone()),
                Source::Builtin(_) => None,
            },
            file: match &self.source {
                Source::Own { file, .. } if *file != format!("{}.toml", self.id()) => {
                    Some(file.clone())
                }
                _ => None,
            },
            step,
            time_mode,
            chart,
            whatifs: self.whatifs().to_vec(),
            ..View::default()
        }
    }

    fn caption(&self) -> Caption {
        self.caption_at(self.pos())
    }

    /// The caption at step `n` of this branch.
    fn caption_at(&self, n: usize) -> Caption {
        Caption {
            title: self.title(),
            name: self.scenario.name.clone(),
            summary: self.scenario.summary.clone(),
            // The whole run's verdict only once it has been reached: no spoilers mid-run.
            verdict: (n >= self.total()).then(|| self.final_verdict.clone()),
            seen_width: self.seen_width.get(),
        }
    }

    /// How much of the picture's width the page's window shows at once, in the picture's px:
    /// the verdict under the last step wraps to it (a phone's window, a projector's screen),
    /// rather than running off the window's right edge. Returns whether that changes the last
    /// step's frame (the frames kept of it are dropped).
    pub fn set_seen_width(&self, width: Option<f64>) -> bool {
        // Whole px: a scrollbar's coming and going must not draw the last step again.
        let width = width.filter(|w| w.is_finite() && *w > 0.0).map(f64::round);
        if self.seen_width.get() == width {
            return false;
        }
        self.seen_width.set(width);
        let end = self.total();
        if self
            .last
            .borrow()
            .as_ref()
            .is_some_and(|(_, f)| f.step == end)
        {
            *self.last.borrow_mut() = None;
        }
        self.ahead.borrow_mut().retain(|(_, f)| f.step != end);
        true
    }

    /// See [`Viewer::set_seen_width`].
    pub fn seen_width(&self) -> Option<f64> {
        self.seen_width.get()
    }

    fn options(&self, time_mode: TimeMode) -> Options {
        self.options_at(time_mode, self.pos())
    }

    fn options_at(&self, time_mode: TimeMode, n: usize) -> Options {
        Options {
            time_mode,
            upto_step: Some(n),
            // Every event is a step here, so each needs its own row: no folded retries.
            unfold_retries: true,
            ..Options::default()
        }
        .for_scenario(&self.scenario)
    }

    /// The SVG lockstep-render draws for the current step (what the page shows, as one
    /// document: for downloads).
    pub fn step_svg(&self, time_mode: TimeMode) -> Result<String, RenderError> {
        let layout = layout(&self.full, &self.options(time_mode));
        // A document to keep: its verdict wraps to its own width, not to the window's.
        let caption = Caption {
            seen_width: None,
            ..self.caption()
        };
        let svg = draw_timeline(&layout, &caption)?;
        Ok(with_title(&svg, &self.title_text(), &self.description()))
    }

    /// The lease chart up to the current step: for a reader who sees only `window` of its
    /// pixels across (a phone), with its legend and verdict wrapped to that; else whole, laid
    /// out to show largest in a box `aspect` times as wide as it is tall (presenter mode's,
    /// beside the step's explanation), if given.
    pub fn lease_chart(
        &self,
        time_mode: TimeMode,
        window: Option<f64>,
        aspect: Option<f64>,
    ) -> Result<String, RenderError> {
        let options = self.options(time_mode);
        let seen = match (window, aspect) {
            (Some(w), _) => Seen::Window(w),
            (None, Some(a)) => self.lease_box(time_mode, a).unwrap_or(Seen::Whole),
            (None, None) => Seen::Whole,
        };
        let svg = lease_svg_in(&self.full, &self.caption(), &options, seen)?;
        Ok(with_title(
            &svg,
            &format!("Lease chart: {}", self.title()),
            &format!(
                "Who the lock service says holds the lock and who believes it does, over time, up to step {} of {}.",
                self.pos(),
                self.total()
            ),
        ))
    }

    /// The lease chart's page for a box `aspect` times as wide as it is tall (see
    /// `lockstep_render::lease_box_for`), kept for the branch: every step of it has one.
    fn lease_box(&self, time_mode: TimeMode, aspect: f64) -> Option<Seen> {
        let key = (self.branch, time_mode, (aspect * 1000.0).round() as i64);
        if let Some((k, b)) = *self.lease_box.borrow()
            && k == key
        {
            return b;
        }
        let b = lease_box_for(
            &self.full,
            &self.caption_at(self.total()),
            &self.options(time_mode),
            aspect,
        );
        *self.lease_box.borrow_mut() = Some((key, b));
        b
    }

    fn title_text(&self) -> String {
        self.title_at(self.pos())
    }

    fn title_at(&self, n: usize) -> String {
        format!("{} — step {n} of {}", self.title(), self.total())
    }

    /// What the picture shows, for screen readers.
    pub fn description(&self) -> String {
        self.description_at(self.pos())
    }

    fn description_at(&self, n: usize) -> String {
        let mut d = format!("Sequence timeline of the run {}. ", self.scenario.name);
        match n.checked_sub(1).and_then(|i| self.full.events.get(i)) {
            Some(e) => d.push_str(&format!(
                "Step {n} at {} ms: {}. {}",
                e.time_ms, e.label, e.explanation
            )),
            None => d.push_str("No event has happened yet."),
        }
        d
    }

    /// The whole branch as a `lockstep-trace/1` JSON document, as `lockstep run --format json`
    /// writes it.
    pub fn trace_json(&self) -> String {
        let mut doc = TraceDocument::new(&self.scenario, &self.full, &self.final_verdict);
        // Serialising plain data cannot fail.
        if self.whatifs().is_empty() {
            return serde_json::to_string_pretty(&doc).unwrap_or_default();
        }
        // A branch says so: its title names the changes, and the changes travel with it (as a
        // link's `whatif` part holds them), so the file replays the branch.
        doc.scenario.title = self.title();
        // Its summary is not the run's any more ("Nothing goes wrong" over a branch that pays
        // twice): it says so, and what the file as written expects (`scenario.expect` still does).
        doc.scenario.summary = format!(
            "A what-if branch of {} (the changes are under `whatifs`; the events and the verdict are the branch's). As written, the scenario expects {}: {}",
            self.scenario.name,
            self.scenario.expect.as_str(),
            self.scenario.summary
        );
        #[derive(serde::Serialize)]
        struct Branch<'a> {
            #[serde(flatten)]
            doc: &'a TraceDocument,
            whatifs: &'a [WhatIf],
        }
        let branch = Branch {
            doc: &doc,
            whatifs: self.whatifs(),
        };
        serde_json::to_string_pretty(&branch).unwrap_or_default()
    }
}

fn escape_xml(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Puts a `<title>` and `<desc>` first inside the `<svg>` element (for screen readers and for the
/// downloaded file), and marks the element as an image.
pub fn with_title(svg: &str, title: &str, desc: &str) -> String {
    let Some(start) = svg.find("<svg") else {
        return svg.to_string();
    };
    let Some(close) = svg[start..].find('>').map(|i| start + i) else {
        return svg.to_string();
    };
    format!(
        "{} role=\"img\" aria-labelledby=\"ls-title ls-desc\"><title id=\"ls-title\">{}</title><desc id=\"ls-desc\">{}</desc>{}",
        &svg[..close],
        escape_xml(title),
        escape_xml(desc),
        &svg[close + 1..]
    )
}

#[cfg(test)]
mod tests;
