//! The app's state as one [`Reducible`] value and the [`Action`]s that change it (the shape of
//! yew's todomvc example). The run itself lives in a [`Viewer`] shared behind a `RefCell`, because
//! cloning a session (with its checkpoints) on every step would cost more than the step.

use std::cell::RefCell;
use std::rc::Rc;

use lockstep_core::Change;

use crate::catalogue;
use lockstep_render::TimeMode;
use yew::prelude::*;

use crate::share::{Chart, StepTarget, View};
use crate::viewer::{OpenError, Picture, Source, StepFrame, Viewer};

/// A built-in scenario as the picker lists it.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub id: &'static str,
    pub title: String,
    pub summary: String,
    pub expect: &'static str,
}

/// The catalogue in teaching order (parsed when the picker first shows, not at start-up).
pub fn entries() -> Vec<Entry> {
    catalogue::ids()
        .filter_map(|id| {
            let s = catalogue::load(id)?;
            Some(Entry {
                id,
                title: s.title,
                summary: s.summary,
                expect: s.expect.as_str(),
            })
        })
        .collect()
}

pub use crate::share::SPEEDS;

/// How presenter mode and the embed scale the timeline: to the window's width (every lane in view,
/// however small its type), or so that its labels stay readable (a wide run then scrolls sideways,
/// following the current step).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Zoom {
    Fit,
    Readable,
}

impl Zoom {
    pub fn toggled(self) -> Zoom {
        match self {
            Zoom::Fit => Zoom::Readable,
            Zoom::Readable => Zoom::Fit,
        }
    }

    /// The picture's window's class for it (style.css).
    pub fn class(self) -> &'static str {
        match self {
            Zoom::Fit => "zoom-fit",
            Zoom::Readable => "zoom-readable",
        }
    }
}

/// A short word on what a key did not do (Z on a run that fits, P at the last step), shown for a
/// moment over the picture (`flash.rs`); `seq` tells one from the next with the same words.
#[derive(Debug, Clone, PartialEq)]
pub struct Flash {
    pub text: AttrValue,
    pub seq: u64,
}

/// A message for the user, and how serious it is.
#[derive(Debug, Clone, PartialEq)]
pub struct Notice {
    pub text: String,
    pub error: bool,
}

#[derive(Debug)]
pub struct AppState {
    pub viewer: Option<Rc<RefCell<Viewer>>>,
    /// Bumped on every change of the viewer, so that equality stays cheap.
    pub rev: u64,
    pub time_mode: TimeMode,
    pub chart: Chart,
    pub presenter: bool,
    /// The page is the embed (embed.html): its lease chart zooms.
    pub embed: bool,
    /// How much of the lease chart its window showed across when it was last laid out (see
    /// `dom::lease_window`).
    pub lease_laid: Option<f64>,
    /// Presenter mode's blank screen (a clicker's B or . key), while the room looks away.
    pub blank: bool,
    /// The timeline's scale in presenter mode and the embed.
    pub zoom: Zoom,
    pub playing: bool,
    /// Index into [`SPEEDS`].
    pub speed: usize,
    pub notice: Option<Notice>,
    /// The located error of the last uploaded or pasted file.
    pub upload_error: Option<String>,
    /// The timeline of the whole branch (drawn once per branch and time mode) and what the
    /// current step shows of it.
    pub picture: Option<Rc<Picture>>,
    pub frame: Option<Rc<StepFrame>>,
    pub lease: Option<AttrValue>,
    /// How long computing the last picture took, in ms (shown to the tests, not the user).
    pub render_ms: f64,
    /// The picker is open (over a run, or because there is none).
    pub picking: bool,
    /// The run being viewed is a counterexample the search found: what it took.
    pub found: Option<Rc<Found>>,
    /// The shape (width over height) of presenter mode's box for the lease chart, as measured:
    /// the chart is laid out to show largest in it (see `Viewer::lease_chart`).
    pub lease_aspect: Option<f64>,
    /// What a key press just did not do, said for a moment.
    pub flash: Option<Flash>,
}

/// A counterexample the search found, as the run view names it.
#[derive(Debug, Clone, PartialEq)]
pub struct Found {
    /// One line per fault: `pause A for 5s at 1.5s`.
    pub faults: Vec<String>,
    /// Distinct states the search explored before it found it.
    pub states: u64,
}

impl PartialEq for AppState {
    fn eq(&self, other: &Self) -> bool {
        self.rev == other.rev
            && self.time_mode == other.time_mode
            && self.chart == other.chart
            && self.presenter == other.presenter
            && self.blank == other.blank
            && self.zoom == other.zoom
            && self.playing == other.playing
            && self.speed == other.speed
            && self.notice == other.notice
            && self.upload_error == other.upload_error
            && self.picking == other.picking
            && self.found == other.found
            && self.flash == other.flash
    }
}

impl Default for AppState {
    fn default() -> Self {
        AppState {
            viewer: None,
            rev: 0,
            time_mode: TimeMode::Logical,
            chart: Chart::Timeline,
            presenter: false,
            embed: false,
            lease_laid: None,
            blank: false,
            zoom: Zoom::Readable,
            playing: false,
            speed: crate::share::DEFAULT_SPEED,
            notice: None,
            upload_error: None,
            picture: None,
            frame: None,
            lease: None,
            render_ms: 0.0,
            picking: true,
            found: None,
            lease_aspect: None,
            flash: None,
        }
    }
}

pub enum Action {
    /// Restore what a link describes, from its scenario (read by app/own.rs if the link carries
    /// a file). The string names the parts of the link that were ignored, if any.
    OpenView(Box<View>, Result<Source, OpenError>, Option<String>),
    /// The link could not be read: say why and show the picker.
    BadLink(String),
    Pick(String),
    /// A scenario file the user uploaded or pasted, as the TOML module read it.
    Upload(Result<Source, OpenError>),
    /// A counterexample the search found, opened as an uploaded file is (so its link carries it).
    Counterexample {
        source: Result<Source, OpenError>,
        found: Found,
    },
    Forward,
    Back,
    Home,
    End,
    /// To the first step drawn on a later row of the timeline (several steps may share one).
    NextRow,
    /// To the last step drawn on an earlier row.
    PrevRow,
    /// To the next step that does not repeat an earlier retry: past a retry loop's polling
    /// (`viewer/notable.rs`).
    NextNotable,
    Seek(usize),
    /// Play, or pause; at the last step it says so rather than starting again (a presenter's P
    /// "to stop" at the end replayed the whole run, a review).
    TogglePlay,
    /// One step of play; stops at the end.
    Tick,
    Speed(usize),
    TimeMode(TimeMode),
    Chart(Chart),
    /// Presenter mode's box for the lease chart has this shape (width over height).
    LeaseBox(f64),
    /// The lease chart's window shows another width than it was laid out for (the embed's,
    /// once on the page): lay it out again.
    LeaseWindow,
    /// The timeline's window shows this much of the picture's width, in its px (see
    /// [`measure_seen`]).
    Seen(f64),
    Presenter(bool),
    Zoom(Zoom),
    WhatIf(Change),
    /// Back to the run as written.
    ResetBranch,
    ShowPicker(bool),
    Notice(Option<Notice>),
    /// Blanks presenter mode's screen, or shows it again.
    Blank(bool),
    /// Says `text` for a moment (see [`Flash`]).
    Flash(String),
    /// The flash numbered so has been shown long enough.
    FlashDone(u64),
}

/// What P (or the Play button) at the last step says, rather than starting the run again.
pub const AT_END: &str = "At the last step — Home goes back to the start";

/// The lease chart's current step, for `lease_pin::show_lease_step`: its number, whether it is
/// the last, and who acts at it (by name).
#[derive(Clone, PartialEq)]
pub struct LeaseStep {
    pub step: usize,
    pub end: bool,
    pub actors: Vec<String>,
}

/// What is legal but unlike a real deployment in the user's own scenario, and what of it never
/// applied, as a notice (the run goes ahead, as `lockstep run` does with the same warnings on
/// stderr).
fn warnings_notice(viewer: &Viewer) -> Option<Notice> {
    let mut parts = Vec::new();
    if let Source::Own { warnings, .. } = viewer.source()
        && !warnings.is_empty()
    {
        parts.push(format!(
            "This scenario runs, but it is unlike a real deployment:\n• {}",
            warnings.join("\n• ")
        ));
    }
    if !viewer.unapplied().is_empty() {
        parts.push(format!(
            "Part of this scenario never happened in its run:\n• {}",
            viewer.unapplied().join("\n• ")
        ));
    }
    // One warning a line (style.css `.notice p`): run together, two read as one (a review).
    (!parts.is_empty()).then(|| Notice {
        text: parts.join("\n"),
        error: false,
    })
}

/// `notice` (a what-if's) followed by the scenario's warnings when they showed before it was
/// made and were not dismissed: the what-if's notice, or none, replaced them, and a user's own
/// file's warnings were gone after the first change (a review).
fn still_warned(notice: Option<Notice>, warned: bool, viewer: &Viewer) -> Option<Notice> {
    let warnings = warned.then(|| warnings_notice(viewer)).flatten();
    match (notice, warnings) {
        (Some(n), Some(w)) => Some(Notice {
            text: format!("{}\n{}", n.text, w.text),
            error: n.error,
        }),
        (n, w) => n.or(w),
    }
}

fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map(|p| p.now())
        .unwrap_or(0.0)
}

impl AppState {
    /// How much of the lease chart its window shows across now (see `dom::lease_window`).
    pub fn lease_window(&self) -> Option<f64> {
        super::dom::lease_window(self.embed && self.zoom == Zoom::Readable)
    }

    /// The step the lease chart shows, whether it is the last and who acts at it, when the lease
    /// chart is shown (`lease_pin::show_lease_step` scrolls a chart larger than its window to
    /// it).
    pub fn lease_step(&self) -> Option<LeaseStep> {
        (self.chart == Chart::Lease)
            .then(|| {
                self.viewer.as_ref().map(|v| {
                    let v = v.borrow();
                    LeaseStep {
                        step: v.pos(),
                        end: v.at_end(),
                        actors: v.actors(),
                    }
                })
            })
            .flatten()
    }

    /// Draws the current step (lockstep-render does all of the drawing).
    fn redraw(&mut self) {
        let t0 = now_ms();
        let Some(viewer) = &self.viewer else {
            self.picture = None;
            self.frame = None;
            self.lease = None;
            return;
        };
        let v = viewer.borrow();
        self.lease_laid = (self.chart == Chart::Lease)
            .then(|| self.lease_window())
            .flatten();
        match self.chart {
            Chart::Timeline => {
                self.lease = None;
                let key = (v.branch(), self.time_mode);
                if self.picture.as_ref().is_none_or(|p| p.key != key) {
                    self.frame = None;
                    match v.picture(self.time_mode) {
                        Ok(p) => self.picture = Some(Rc::new(p)),
                        Err(e) => {
                            self.picture = None;
                            self.notice = Some(Notice {
                                text: format!("cannot draw this run: {e}"),
                                error: true,
                            })
                        }
                    }
                }
                if let Some(p) = &self.picture {
                    match v.frame(p) {
                        Ok(f) => self.frame = Some(Rc::new(f)),
                        Err(e) => {
                            self.notice = Some(Notice {
                                text: format!("cannot draw this step: {e}"),
                                error: true,
                            })
                        }
                    }
                }
            }
            Chart::Lease => match v.lease_chart(
                self.time_mode,
                self.lease_laid,
                self.lease_aspect.filter(|_| self.presenter),
            ) {
                Ok(svg) => self.lease = Some(AttrValue::from(svg)),
                Err(e) => {
                    self.notice = Some(Notice {
                        text: format!("cannot draw the lease chart: {e}"),
                        error: true,
                    })
                }
            },
        }
        drop(v);
        self.render_ms = now_ms() - t0;
        self.rev += 1;
    }

    fn open(&mut self, viewer: Viewer) {
        // Each scenario opens at its own zoom: a Z pressed on a run that fits already changed
        // nothing to see, and the next run opened fitted to the width at 7 px (a review). The
        // embed chooses its zoom by its frame's size.
        let another = self
            .viewer
            .as_ref()
            .is_none_or(|v| v.borrow().id() != viewer.id());
        if another && !self.embed {
            self.zoom = Zoom::Readable;
        }
        self.viewer = Some(Rc::new(RefCell::new(viewer)));
        self.picking = false;
        self.playing = false;
        self.found = None;
    }

    /// Goes to the next row of the timeline (`down`) or the one before; steps when the rows are
    /// not known (the lease chart).
    fn to_row(&self, down: bool) -> bool {
        let rows = self
            .picture
            .as_ref()
            .filter(|_| self.chart == Chart::Timeline);
        let pos = self.viewer.as_ref().map_or(0, |v| v.borrow().pos());
        match rows.and_then(|p| crate::viewer::row_step(&p.rows, pos, down)) {
            Some(n) => self.with_viewer(|v| v.seek(n)),
            None if down => self.with_viewer(|v| {
                v.forward();
            }),
            None => self.with_viewer(|v| {
                v.back();
            }),
        }
    }

    /// Whether the notice showing holds the scenario's warnings (see [`warnings_notice`]).
    fn shows_warnings(&self) -> bool {
        let (Some(notice), Some(v)) = (&self.notice, &self.viewer) else {
            return false;
        };
        warnings_notice(&v.borrow()).is_some_and(|w| notice.text.contains(&w.text))
    }

    /// Says `text` for a moment (a new flash, even with the words of the one showing).
    fn say(&mut self, text: &str) {
        let seq = self.flash.as_ref().map_or(0, |f| f.seq + 1);
        self.flash = Some(Flash {
            text: AttrValue::from(text.to_string()),
            seq,
        });
    }

    /// Applies `f` to the viewer, if there is one.
    fn with_viewer(&self, f: impl FnOnce(&mut Viewer)) -> bool {
        match &self.viewer {
            Some(v) => {
                f(&mut v.borrow_mut());
                true
            }
            None => false,
        }
    }
}

impl Reducible for AppState {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let mut next = AppState {
            viewer: self.viewer.clone(),
            rev: self.rev,
            time_mode: self.time_mode,
            chart: self.chart,
            presenter: self.presenter,
            embed: self.embed,
            lease_laid: self.lease_laid,
            blank: self.blank,
            zoom: self.zoom,
            playing: self.playing,
            speed: self.speed,
            notice: self.notice.clone(),
            upload_error: self.upload_error.clone(),
            picture: self.picture.clone(),
            frame: self.frame.clone(),
            lease: self.lease.clone(),
            render_ms: self.render_ms,
            picking: self.picking,
            found: self.found.clone(),
            lease_aspect: self.lease_aspect,
            flash: self.flash.clone(),
        };
        let mut redraw = true;
        match action {
            Action::OpenView(view, source, ignored) => {
                match source.and_then(|s| Viewer::open_view_from(&view, s)) {
                    Ok(v) => {
                        next.time_mode = view.time_mode;
                        next.chart = view.chart;
                        next.presenter = view.presenter;
                        next.speed = view.speed.min(SPEEDS.len() - 1);
                        let notes: Vec<String> =
                            ignored.into_iter().chain(v.step_note(view.step)).collect();
                        // A shared link to an odd scenario says what is odd, as an upload does.
                        let notes: Vec<String> = notes
                            .into_iter()
                            .chain(warnings_notice(&v).map(|n| n.text))
                            .collect();
                        next.notice = (!notes.is_empty()).then(|| Notice {
                            text: notes.join(". "),
                            error: false,
                        });
                        next.open(v);
                    }
                    Err(e) => {
                        next.viewer = None;
                        next.picking = true;
                        next.notice = Some(Notice {
                            text: format!("This link cannot be opened: {e}"),
                            error: true,
                        });
                    }
                }
            }
            Action::BadLink(why) => {
                next.viewer = None;
                next.picking = true;
                next.notice = Some(Notice {
                    // A sentence ends once: "did you mean “fenced-gc-pause”?" has its mark.
                    text: format!(
                        "This link cannot be opened: {why}{}",
                        if why.ends_with(['?', '.']) { "" } else { "." }
                    ),
                    error: true,
                });
            }
            Action::Pick(id) => match Viewer::open(Source::Builtin(id), &[]) {
                Ok(v) => {
                    next.notice = None;
                    next.open(v);
                }
                Err(e) => {
                    next.notice = Some(Notice {
                        text: e.to_string(),
                        error: true,
                    })
                }
            },
            Action::Upload(source) => match source.and_then(|s| Viewer::open(s, &[])) {
                Ok(v) => {
                    next.upload_error = None;
                    next.notice = warnings_notice(&v);
                    next.open(v);
                }
                Err(e) => {
                    next.upload_error = Some(e.to_string());
                    redraw = false;
                }
            },
            Action::Counterexample { source, found } => {
                match source.and_then(|s| Viewer::open(s, &[])) {
                    Ok(v) => {
                        next.notice = None;
                        next.open(v);
                        next.found = Some(Rc::new(found));
                        // At its first fault, which the timeline highlights (step 0 draws
                        // nothing yet).
                        next.with_viewer(|v| {
                            if let Some(n) = v.first_fault_step() {
                                v.seek(n);
                            }
                        });
                    }
                    Err(e) => {
                        // The search wrote a file the loader refuses: a bug, said plainly.
                        next.notice = Some(Notice {
                            text: format!("The counterexample cannot be opened: {e}"),
                            error: true,
                        });
                        redraw = false;
                    }
                }
            }
            Action::Forward => {
                redraw = next.with_viewer(|v| {
                    v.forward();
                })
            }
            Action::Back => {
                redraw = next.with_viewer(|v| {
                    v.back();
                })
            }
            Action::Home => redraw = next.with_viewer(|v| v.go(StepTarget::Start)),
            Action::End => redraw = next.with_viewer(|v| v.go(StepTarget::End)),
            Action::Seek(n) => redraw = next.with_viewer(|v| v.seek(n)),
            Action::NextRow => redraw = next.to_row(true),
            Action::PrevRow => redraw = next.to_row(false),
            Action::NextNotable => {
                redraw = next.with_viewer(|v| {
                    if let Some(n) = v.next_notable() {
                        v.seek(n);
                    }
                })
            }
            Action::TogglePlay => {
                let at_end = next.viewer.as_ref().is_some_and(|v| v.borrow().at_end());
                if at_end && !next.playing {
                    next.say(AT_END);
                } else {
                    next.playing = !next.playing && next.viewer.is_some();
                }
                redraw = false;
            }
            Action::Tick => {
                let mut moved = false;
                next.with_viewer(|v| moved = v.forward());
                if !moved {
                    next.playing = false;
                }
                redraw = moved;
            }
            Action::Speed(i) => {
                next.speed = i.min(SPEEDS.len() - 1);
                redraw = false;
            }
            Action::TimeMode(m) => next.time_mode = m,
            Action::Chart(c) => next.chart = c,
            Action::LeaseBox(aspect) => {
                next.lease_aspect = Some(aspect);
                redraw = next.presenter && next.chart == Chart::Lease;
            }
            Action::LeaseWindow => redraw = next.chart == Chart::Lease,
            Action::Seen(width) => {
                let mut changed = false;
                next.with_viewer(|v| changed = v.set_seen_width(Some(width)) && v.at_end());
                redraw = changed && next.chart == Chart::Timeline;
            }
            Action::Presenter(on) => {
                next.presenter = on;
                next.blank = false;
                // The lease chart is laid out for presenter mode's box (and back).
                redraw = next.chart == Chart::Lease && next.lease_aspect.is_some();
            }
            Action::Blank(on) => {
                next.blank = on && next.presenter;
                redraw = false;
            }
            Action::Zoom(z) => {
                next.zoom = z;
                // An embed's lease chart zoomed in is laid out for the part of it in view.
                redraw = next.embed && next.chart == Chart::Lease;
            }
            Action::WhatIf(change) => {
                let warned = next.shows_warnings();
                let mut notice = None;
                next.with_viewer(|v| {
                    notice = super::branching::apply_whatif(v, change);
                    notice = still_warned(notice.take(), warned, v);
                });
                next.notice = notice;
            }
            Action::ResetBranch => {
                let warned = next.shows_warnings();
                let mut notice = None;
                next.with_viewer(|v| {
                    let failed = v.reset_branch().err().map(|e| Notice {
                        text: e.to_string(),
                        error: true,
                    });
                    notice = still_warned(failed, warned, v);
                });
                next.notice = notice;
            }
            Action::ShowPicker(on) => {
                next.picking = on || next.viewer.is_none();
                next.playing = false;
                redraw = false;
            }
            Action::Notice(n) => {
                next.notice = n;
                redraw = false;
            }
            Action::Flash(text) => {
                next.say(&text);
                redraw = false;
            }
            Action::FlashDone(seq) => {
                if next.flash.as_ref().is_some_and(|f| f.seq == seq) {
                    next.flash = None;
                }
                redraw = false;
            }
        }
        if redraw {
            next.redraw();
        }
        Rc::new(next)
    }
}
