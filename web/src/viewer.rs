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
use lockstep_render::svg::stepped::{LAYERS, SteppedLive, Stepper};
use lockstep_render::{Caption, Options, RenderError, TimeMode, draw_timeline, layout, lease_svg};

use crate::inspector::{Table, tables};
use crate::share::{Chart, StepTarget, View};
use crate::stack::{Layer, stack};

mod frames;
pub mod page_fit;
mod rows;
mod source;
mod spans;

pub use rows::row_step;
pub use source::Source;

pub use page_fit::{LaneHead, LegendArt, LegendSwatch};

use spans::{gutter_right, row_ends, row_focus, row_spans, row_words};

/// Why a view cannot be opened.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum OpenError {
    #[error("there is no built-in scenario “{0}”; pick one from the list")]
    UnknownScenario(String),
    #[error("{0}")]
    Scenario(#[from] ScenarioError),
    #[error("{0}")]
    WhatIf(#[from] WhatIfError),
    /// The page's TOML module (web/toml) could not be loaded or answered something unexpected.
    #[error("the scenario file cannot be read: {0}")]
    TomlModule(String),
}

/// A clickable row of the timeline, in the layout's pixels (the page draws the layout
/// [`Picture::layout_dy`] further down).
#[derive(Debug, Clone, PartialEq)]
pub struct HitRow {
    pub step: usize,
    /// The row's line from the top (steps that share a line share a row of the picture).
    pub line: usize,
    /// The y of that line: the row's arrows leave and arrive on it.
    pub y: f64,
    pub top: f64,
    pub bottom: f64,
    pub label: String,
    pub explanation: String,
    /// The first event after a what-if change: the branch starts at this row.
    pub branch: bool,
    /// A fault (pause, crash, restart, clock jump, failover): highlighted in a counterexample.
    pub fault: bool,
    /// Horizontal extent of what the row draws (its arrows, their labels, its notes), in the
    /// layout's pixels, so the page can scroll it into view sideways; None when it draws none.
    pub span: Option<(f64, f64)>,
    /// Where in the span to look when it is wider than the window (see `spans::row_focus`).
    pub focus: Option<f64>,
    /// The x of the lanes the row's event joins, smallest and largest (see `spans::row_ends`).
    pub ends: Option<(f64, f64)>,
    /// Horizontal extent of the row's words alone (see `spans::row_words`).
    pub words: Option<(f64, f64)>,
    /// The row's event is an arrival: its arrow's words are drawn at the sender's end.
    pub arrives: bool,
}

/// The timeline of the whole branch, drawn once: lockstep-render's unchanging pieces in groups
/// per layer and step, which a step shows or hides, and the rows a click or hover can hit.
#[derive(Debug)]
pub struct Picture {
    /// The stack of `<svg>` elements (see [`crate::stack`]): one layer per layer of [`LAYERS`]
    /// and one for the marks of branch and fault rows.
    pub svg: String,
    /// Per layer (the branch and fault marks last): the step from which each of its groups shows.
    pub groups: Vec<Vec<usize>>,
    /// Every row of the branch, in the layout's pixels.
    pub rows: Vec<HitRow>,
    /// What the picture was drawn for: the branch and the time mode.
    pub key: (u64, TimeMode),
    /// The lanes, for the page's row of lane names that stays in view.
    pub lanes: Vec<LaneHead>,
    /// How far right the step column reaches, in page pixels: pinned at the left of the window
    /// while the picture scrolls sideways.
    pub gutter: f64,
    /// The layout's size without its legend column (every step's layout is given it).
    size: (f64, f64),
    /// The legend panel's drawings, one per set of entries the steps have shown (a step's legend
    /// lists only what it draws, so "message still in the network" comes and goes).
    legend: RefCell<Vec<(Vec<lockstep_render::layout::LegendEntry>, Rc<LegendArt>)>>,
    /// Every legend entry's swatch drawn so far, shared by those drawings.
    swatches: RefCell<Vec<Rc<page_fit::LegendSwatch>>>,
    stepper: Stepper,
}

/// A row's band, where a click or hover finds it: a little above and below its text.
pub fn band(r: &HitRow) -> (f64, f64) {
    (r.top - 3.0, (r.bottom - r.top + 6.0).max(8.0))
}

impl Picture {
    /// The page's width, in px (the lanes' x are in it).
    pub fn page_width(&self) -> u32 {
        self.stepper.page_size().0
    }

    /// The row under `y` (in the layout's pixels) among steps 1..=`upto`: of rows sharing a
    /// line, the latest one answers.
    pub fn row_at(&self, x: f64, y: f64, upto: usize) -> Option<&HitRow> {
        let shown = &self.rows[..self.rows.partition_point(|r| r.step <= upto)];
        // Of the rows whose band holds the point (neighbouring lines' bands overlap, and the
        // steps of one line share one), the one drawing something at `x`, then the one whose
        // band's middle is nearest, then the latest: the second line of a two-line note, low in
        // its band, selected the next step, and a round's words selected another step of its line.
        let at_x = |r: &HitRow| r.span.is_some_and(|(a, b)| (a..=b).contains(&x));
        let key = |r: &HitRow| {
            let (top, height) = band(r);
            (!at_x(r), (top + height / 2.0 - y).abs())
        };
        shown
            .iter()
            .rev()
            .filter(|r| {
                let (top, height) = band(r);
                (top..=top + height).contains(&y)
            })
            .min_by(|a, b| {
                let (ka, kb) = (key(a), key(b));
                ka.0.cmp(&kb.0).then(ka.1.total_cmp(&kb.1))
            })
    }
}

impl PartialEq for Picture {
    fn eq(&self, other: &Self) -> bool {
        self.key == other.key
    }
}

/// What one step shows on top of the [`Picture`].
#[derive(Debug, Clone, PartialEq)]
pub struct StepFrame {
    /// The current step (0: nothing has happened yet).
    pub step: usize,
    pub live: SteppedLive,
    /// The SVG's title and description (for screen readers).
    pub title: String,
    pub description: String,
    /// The legend lockstep-render drew for this step, which the page shows in a panel (the
    /// picture is drawn without it).
    pub legend: Rc<LegendArt>,
}

impl StepFrame {
    /// How many groups of each layer of `picture` show at this step.
    pub fn shown(&self, picture: &Picture) -> Vec<usize> {
        picture
            .groups
            .iter()
            .map(|g| g.partition_point(|&s| s <= self.step))
            .collect()
    }
}

/// A fresh number for each branch, so a picture drawn for one is never reused for another.
fn next_branch() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

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
        };
        viewer.finish_branch();
        Ok(viewer)
    }

    /// Opens what a link describes (scenario, what-ifs, step), parsing a scenario file the link
    /// carries (natively; the browser parses it first and calls [`Viewer::open_view_from`]).
    #[cfg(not(target_arch = "wasm32"))]
    pub fn open_view(view: &View) -> Result<Viewer, OpenError> {
        let source = match &view.source {
            Some(toml) => Source::own(&format!("{}.toml", view.scenario), toml)?,
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
    fn finish_branch(&mut self) {
        let mut rest = self.session.clone();
        rest.run_to_end();
        self.full = rest.trace();
        self.final_verdict = rest.verdict();
        self.branch = next_branch();
    }

    /// Which branch is shown: a new number after every what-if change or reset.
    pub fn branch(&self) -> u64 {
        self.branch
    }

    pub fn source(&self) -> &Source {
        &self.source
    }

    pub fn scenario(&self) -> &Scenario {
        &self.scenario
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
                    "{} at {at_ms} ms (step {})",
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

    /// The event at the current step.
    pub fn current(&self) -> Option<&TraceEvent> {
        self.session.current()
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
        }
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
        let svg = draw_timeline(&layout, &self.caption())?;
        Ok(with_title(&svg, &self.title_text(), &self.description()))
    }

    /// The whole branch's timeline, drawn once for stepping through it.
    pub fn picture(&self, time_mode: TimeMode) -> Result<Picture, RenderError> {
        let options = Options {
            upto_step: None,
            ..self.options(time_mode)
        };
        let mut full = layout(&self.full, &options);
        let size = page_fit::size_without_legend(&full);
        page_fit::drop_legend(&mut full, size);
        let lanes = page_fit::lane_heads(&full);
        let branch_steps: Vec<usize> = self.whatifs().iter().map(|w| w.at_step + 1).collect();
        let spans = row_spans(&full);
        let focus = row_focus(&full);
        let ends = row_ends(&full);
        let words = row_words(&full);
        let gutter = gutter_right(&full);
        let rows: Vec<HitRow> = full
            .rows
            .iter()
            .zip(spans)
            .zip(focus)
            .zip(ends)
            .zip(words)
            .map(|((((r, span), focus), ends), words)| HitRow {
                span,
                focus,
                ends,
                words,
                step: r.step,
                line: r.line,
                y: r.y,
                top: r.top,
                bottom: r.bottom,
                label: r.label.clone(),
                explanation: r.explanation.clone(),
                branch: branch_steps.contains(&r.step),
                fault: r.kind == EventKind::Fault,
                arrives: r.kind == EventKind::Deliver,
            })
            .collect();
        let stepper = Stepper::new(full, &self.caption());
        let base = stepper.base()?;
        let mut groups: Vec<Vec<usize>> = base
            .layers
            .iter()
            .map(|layer| layer.iter().map(|(s, _)| *s).collect())
            .collect();
        let mut layers: Vec<Layer> = LAYERS
            .iter()
            .zip(&base.layers)
            .map(|(name, layer)| Layer {
                name,
                class: "",
                groups: layer.iter().map(|(_, g)| g.as_str()).collect(),
                live: "",
                // The current step's outline, beneath the arrows and their labels.
                under: if *name == "shafts" {
                    "<rect class=\"current-outline\" x=\"0\" y=\"0\" width=\"0\" height=\"0\"/>"
                } else {
                    ""
                },
                // The step column stays in view while a wide run scrolls sideways.
                pinned: *name == "gutter",
            })
            .collect();
        // On top, the marks of the few rows that branch or are faults (no element per row: the
        // page finds the row under the mouse from its y), then the current step's outline and
        // the hovered row's band, which a step or a mouse move only moves.
        let width = f64::from(stepper.page_size().0);
        let mut marks = Vec::new();
        let mut marked = Vec::new();
        for r in rows.iter().filter(|r| r.branch || r.fault) {
            let (y, height) = band(r);
            let mut g = String::new();
            if r.fault {
                g.push_str(&format!(
                    "<rect class=\"hit fault\" x=\"0\" y=\"{y:.1}\" width=\"{width:.0}\" height=\"{height:.1}\"/>"
                ));
            }
            if r.branch {
                g.push_str(&format!(
                    "<rect class=\"hit branch\" x=\"0\" y=\"{y:.1}\" width=\"{width:.0}\" height=\"{height:.1}\"/>\
                     <g class=\"branch-mark\"><rect x=\"2\" y=\"{y:.1}\" width=\"8\" height=\"{height:.1}\"/></g>"
                ));
            }
            marks.push(g);
            marked.push(r.step);
        }
        layers.push(Layer {
            name: "hits",
            class: "hits",
            groups: marks.iter().map(String::as_str).collect(),
            live: "<rect class=\"hover-band\" x=\"0\" y=\"0\" width=\"0\" height=\"0\"/>",
            under: "",
            pinned: false,
        });
        groups.push(marked);
        let svg = stack(stepper.page_size(), &layers, gutter);
        Ok(Picture {
            svg,
            groups,
            rows,
            key: (self.branch, time_mode),
            lanes,
            gutter,
            size,
            legend: RefCell::new(Vec::new()),
            swatches: RefCell::new(Vec::new()),
            stepper,
        })
    }

    /// What step `n` of this branch shows on top of `picture` (see also `frames.rs`: the
    /// frames kept and computed ahead).
    fn frame_at(&self, picture: &Picture, n: usize) -> Result<StepFrame, RenderError> {
        let mut at_n = layout(&self.full, &self.options_at(picture.key.1, n));
        let drawn_size = (at_n.width, at_n.height);
        let legend = page_fit::drop_legend(&mut at_n, picture.size);
        let kept = picture
            .legend
            .borrow()
            .iter()
            .find(|(entries, _)| *entries == legend)
            .map(|(_, art)| art.clone());
        let legend = match kept {
            Some(art) => art,
            None => {
                // Rarely: a run's steps show a few sets of entries, not one per step.
                let art = page_fit::legend_art(
                    &at_n,
                    drawn_size,
                    legend.clone(),
                    &mut picture.swatches.borrow_mut(),
                )?;
                picture.legend.borrow_mut().push((legend, art.clone()));
                art
            }
        };
        Ok(StepFrame {
            step: n,
            live: picture.stepper.live(&at_n, &self.caption_at(n))?,
            title: self.title_at(n),
            description: self.description_at(n),
            legend,
        })
    }

    /// The lease chart up to the current step.
    pub fn lease_chart(&self, time_mode: TimeMode) -> Result<String, RenderError> {
        let svg = lease_svg(&self.full, &self.caption(), &self.options(time_mode))?;
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
