//! The layout: every drawing decision about a trace (lanes, rows, arrows, notes, spans, marks,
//! highlights, legend) as plain data, in SVG pixels. The SVG, the terminal UI and the web app all
//! draw from it; nothing here knows about a terminal, a browser or plotters.
//!
//! Rows are placed top to bottom, one per event. Every text label gets a box computed from a fixed
//! per-character advance ([`crate::text`]); a row moves down until its label clears every earlier
//! label, so labels never overlap. In [`TimeMode::ToScale`] the gap between two rows is at least
//! the time between them on a fixed scale, so every idle stretch (a pause, a TTL running out, a
//! message held up) has its true length; bursts of events at one instant get room for their labels.

mod bands;
pub use bands::{Dips, OUTLINE_SIDE, Outline};
mod boxes;
mod build;
mod describe;
mod flight;
mod fold;
mod frame;
mod gutter;
mod lanes;
mod legend;
mod network;
mod pack;
mod pieces;
mod place;
mod scene;
mod senders;
mod shapes;
mod spacing;
mod spans;
mod ticks;

use lockstep_core::Trace;
use lockstep_core::topology::{NodeId, Role};
use lockstep_core::trace::{EventKind, FreeReason};

use crate::geom::{Point, Rect};
use crate::text::TextBox;

pub use fold::{Fold, folds as retry_folds};
pub use lanes::lane_order;
pub use legend::{SESSION_RENEWED, text_of as legend_text};
pub(crate) use pieces::NO_TOKEN;

/// Space above the lane headers.
pub const MARGIN_TOP: f64 = build::MARGIN;

/// How rows are spaced vertically.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum TimeMode {
    /// One row per event, evenly spaced (rows only move apart to keep labels clear).
    #[default]
    Logical,
    /// Gaps between rows proportional to simulated time, so durations compare by length: a 10 s
    /// pause is twice a 5 s TTL and a delayed message is a slanted arrow.
    ToScale,
}

/// The order of lanes from left to right.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum LaneOrder {
    /// The first half of the workers, the lock service, the other workers, the database: each
    /// worker sits next to the lock service (the layout of Kleppmann's fencing diagram).
    #[default]
    WorkersAroundService,
    /// The order of the trace's participants.
    AsTraced,
}

/// What to lay out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Options {
    pub time_mode: TimeMode,
    /// Lay out only steps 1..=n (1-based, as `lockstep run` numbers them) and highlight step n as
    /// the current step. `Some(0)` shows no event; a step past the end is clamped to the end (the
    /// SVG functions report it as an error instead). Positions do not depend on it: stepping
    /// through a run never moves what is already drawn.
    pub upto_step: Option<usize>,
    pub lane_order: LaneOrder,
    /// Draw every retry instead of folding runs of three or more identical retries into one
    /// line ([`Layout::folds`]); interactive front ends set it to unfold them.
    pub unfold_retries: bool,
    /// The database accepts accesses without a token (`fencing = "permissive"`): its header
    /// says so. [`crate::run_svg`] sets it from the scenario; the trace does not record it.
    pub permissive_db: bool,
}

impl Options {
    /// These options with what only the scenario knows (a permissive database) filled in.
    pub fn for_scenario(self, scenario: &lockstep_core::Scenario) -> Options {
        Options {
            permissive_db: scenario.resource.fencing
                == lockstep_core::scenario::FencingMode::Permissive,
            ..self
        }
    }
}

/// A colour role; [`crate::style::tone`] maps it to a colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Tone {
    /// The colour of the n-th worker (in trace order).
    Worker(usize),
    /// Traffic between lock-service nodes.
    Infra,
    Danger,
    Ok,
    Timer,
    Renew,
}

/// One participant's column.
#[derive(Debug, Clone, PartialEq)]
pub struct Lane {
    /// Index into the trace's participants.
    pub node: NodeId,
    pub name: String,
    pub role: Role,
    /// The worker's index among workers, for its colour.
    pub worker: Option<usize>,
    /// The lifeline's x.
    pub x: f64,
    /// Name and role, above the first row.
    pub header: [TextBox; 2],
    /// The header box.
    pub header_box: Rect,
    /// Name and role again below the last row.
    pub footer: [TextBox; 2],
    pub footer_box: Rect,
}

impl Lane {
    /// A database that takes writes without a token (its header is drawn as a warning).
    pub fn is_permissive_db(&self) -> bool {
        self.role == Role::Database && self.header[1].text == lanes::PERMISSIVE_ROLE
    }
}

/// One event's row.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// 1-based step number.
    pub step: usize,
    /// Index into the trace's events.
    pub event: usize,
    pub time_ms: u64,
    pub kind: EventKind,
    /// The row's line: arrows leave and arrive here, notes are centred on it.
    pub y: f64,
    /// Index of the row's line from the top. Rows of events that do not get in each other's way
    /// share a line (a message's send and delivery, a fan-out); a character-grid front end can
    /// give each line one text row.
    pub line: usize,
    /// Vertical extent of what this row draws (its label or note), for highlighting it.
    pub top: f64,
    pub bottom: f64,
    /// Step number and time, in the gutter left of the lanes.
    pub gutter: TextBox,
    /// The event's label and explanation, for front ends that show the current step.
    pub label: String,
    pub explanation: String,
}

/// How an arrow ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ArrowEnd {
    /// Delivered: the arrow reaches the receiver's lifeline.
    Delivered,
    /// Lost: the arrow stops partway, ending in an x.
    Lost,
    /// Not yet delivered at the last step shown: the arrow stops where the message is.
    InFlight,
}

/// One message, from its send row to its delivery (or loss) row.
#[derive(Debug, Clone, PartialEq)]
pub struct Arrow {
    /// The trace's message id, when it has one.
    pub message: Option<u64>,
    pub from_lane: usize,
    pub to_lane: usize,
    /// Row index of the send.
    pub send_row: usize,
    /// Row index of the delivery or loss (None while in flight).
    pub end_row: Option<usize>,
    pub end: ArrowEnd,
    /// The tail, on the sender's lifeline at the send row.
    pub start: Point,
    /// Where the line stops (the head, the x, or the message in flight).
    pub tip: Point,
    /// The send's label (with the delay, if any), above the tail.
    pub label: TextBox,
    pub tone: Tone,
    /// Extra delay of a delayed message, in ms.
    pub delayed_ms: Option<u64>,
    /// The database refused this access (the reply carrying the refusal).
    pub rejected: bool,
    /// The send (its event index) that leads the fan-out or fan-in this arrow belongs to: the
    /// group shares one line and one label, on the leader's arrow (the others' labels are empty).
    pub group: Option<usize>,
    /// The row from which its label says all it will: a round's label names only the members
    /// sent by the step shown, so it is complete from the round's last send (its own send row
    /// otherwise).
    pub label_final: usize,
    /// A message long in flight (no clear path from its send to its arrival): one slanted arrow
    /// all the same, painted beneath the labels and notes of the rows it passes, which stay
    /// readable on their backing. Only these may run through text.
    pub beneath: bool,
    /// Its head lies on a bar of its own colour (a reply reaching a worker while it believes it
    /// holds the lock): drawn with a white rim, or the same blue on the same blue hid it.
    pub on_bar: bool,
}

impl Arrow {
    /// Whether it goes down across rows (sent on one line, ending on a lower one).
    pub fn is_slanted(&self) -> bool {
        self.end != ArrowEnd::InFlight && self.start.y != self.tip.y
    }

    /// The corners of its head, tip first (a delivered arrow's: 15 px long, 14 wide, shorter
    /// on a shorter arrow).
    pub fn head(&self) -> [Point; 3] {
        let (dx, dy) = (self.tip.x - self.start.x, self.tip.y - self.start.y);
        let len = (dx * dx + dy * dy).sqrt().max(1e-6);
        let (ux, uy) = (dx / len, dy / len);
        let head = 15.0_f64.min(len);
        let base = Point::new(self.tip.x - ux * head, self.tip.y - uy * head);
        let (nx, ny) = (-uy * 7.0, ux * 7.0);
        [
            self.tip,
            Point::new(base.x + nx, base.y + ny),
            Point::new(base.x - nx, base.y - ny),
        ]
    }
}

/// A message drawn level where it arrives (no slanted arrow from its send was clear): on its
/// send row a dashed stub leaves the sender under the send's label, so that row shows the message
/// going into the network; its arrow says when it was sent and how long it was in flight.
#[derive(Debug, Clone, PartialEq)]
pub struct Flight {
    pub send_row: usize,
    /// Row of the arrival (flights are drawn once the message has arrived; before, the message's
    /// own arrow is the stub).
    pub end_row: usize,
    pub from_lane: usize,
    pub to_lane: usize,
    /// On the sender's lifeline at the send row...
    pub start: Point,
    /// ...to where the stub stops.
    pub tip: Point,
    /// The send's label, above the stub.
    pub label: TextBox,
    pub tone: Tone,
}

/// What a note says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NoteKind {
    /// About the whole system (partition, heal, end of run): spans every lane.
    Global,
    /// An injected fault.
    Fault,
    /// A state change.
    State,
    /// Narration.
    Note,
}

/// A box of text over one lane, or over all of them.
#[derive(Debug, Clone, PartialEq)]
pub struct Note {
    pub row: usize,
    /// First and last lane covered.
    pub lanes: (usize, usize),
    pub kind: NoteKind,
    /// The box (border and fill).
    pub rect: Rect,
    pub text: TextBox,
    /// Border colour: a worker's colour for its belief changes, danger for a duplicate payout.
    pub tone: Option<Tone>,
    /// Drawn with a thick border and bold text (payouts paid twice).
    pub emphasis: bool,
}

/// What a span on a lane means.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum SpanKind {
    /// The node is frozen (GC pause, VM stall) until `until_ms` (true time).
    Paused { until_ms: u64 },
    /// The node is crashed.
    Down,
    /// The lock service records `holder` as holding the lock; `ended` says why it stopped.
    ServiceHolds {
        holder: String,
        token: Option<u64>,
        ended: Option<FreeReason>,
    },
    /// The worker believes it holds the lock.
    Believes { token: Option<u64> },
    /// Two workers both believe they hold the lock: the danger zone, across every lane.
    Overlap { first: String, second: String },
}

/// A stretch of rows on a lane (or across all lanes, for an overlap).
#[derive(Debug, Clone, PartialEq)]
pub struct Span {
    /// None for spans across every lane.
    pub lane: Option<usize>,
    pub kind: SpanKind,
    pub from_row: usize,
    /// None while still open at the last row shown.
    pub to_row: Option<usize>,
    pub rect: Rect,
    pub tone: Tone,
}

/// A small symbol: each kind has its own shape as well as its own colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MarkKind {
    /// A write the database applied: a check mark.
    WriteAccepted,
    /// A read or write refused because of its fencing token: a no-entry sign.
    AccessRejected,
    /// Payouts paid twice: a warning triangle.
    Duplicate,
    /// A TTL or lease ran out: an hourglass.
    Expired,
    /// A lease was extended: a diamond.
    Renewed,
    /// A message was lost: an x.
    Lost,
    /// A message was held back in the network: a clock.
    Delayed,
    /// A node froze: a pause sign.
    Paused,
    /// The message is still in the network: a dot.
    InFlight,
    /// The sender of a message to several nodes at once (a fan-out): a filled dot on its
    /// lifeline, so a row reaching lanes on both sides of it says who sends.
    Sender,
}

/// A mark at a point.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Mark {
    pub row: usize,
    pub lane: usize,
    pub kind: MarkKind,
    pub at: Point,
    /// A renewal that is an etcd-like session's keepalive while its worker holds no lock: it
    /// keeps the session alive, not a lock, so it is drawn hollow (as on the lease chart).
    pub session: bool,
}

/// Why a row is highlighted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HighlightKind {
    /// The database refused a read or write because of its token.
    RejectedAccess,
    /// The database paid payouts a second time.
    DuplicatePayout,
    /// The step being shown.
    Current,
}

/// A highlighted row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Highlight {
    pub row: usize,
    pub kind: HighlightKind,
}

/// What a legend entry explains.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LegendKind {
    Believes,
    ServiceHolds,
    Paused,
    Down,
    Overlap,
    Mark(MarkKind),
    /// A renewal of a consensus session's lease while its worker holds no lock (a keepalive).
    SessionRenewed,
    Current,
    /// The tint behind a row where the database refused an access (fencing worked).
    RefusedRow,
    /// The tint behind a row where the database paid twice (money lost).
    DuplicateRow,
    /// A wall between lanes a network partition cuts apart.
    Partition,
    /// A break on a lifeline where the node's clock jumped.
    ClockJump,
    /// A database header drawn as a warning: it takes writes without a fencing token.
    PermissiveDb,
    /// A note standing for a run of alike retries folded into one line.
    Fold,
    /// A box across every lane: something that happened to the whole system (a partition).
    GlobalNote,
    /// A box for an injected fault (a pause, a crash, a clock jump, a drop, a delay).
    FaultNote,
    /// A box edged in a worker's colour: it now believes it holds the lock (or stops).
    HolderNote,
    /// A grey box: a node's state or a note (done, timed out, expired, run complete).
    PlainNote,
    /// A write's label ending in NO TOKEN: a permissive database took it without a token.
    NoToken,
    /// A dashed stub on a send row: the message went into the network there, arrives later.
    FlightStub,
    /// A gap in a partition wall: a message passing between lanes the partition does not cut.
    Gate,
    /// An arrow going down across rows: sent on its upper row, arriving on the lower.
    Slanted,
    /// A row's step list with commas ("#41,43"): the steps between are on other rows.
    StepList,
    /// To scale: a burst drawn in order, not to scale.
    Zoom,
    /// To scale: rows of one instant stacked.
    Stack,
    /// To scale: an idle stretch cut short.
    Break,
}

/// A swatch and its explanation.
#[derive(Debug, Clone, PartialEq)]
pub struct LegendEntry {
    pub kind: LegendKind,
    pub swatch: Rect,
    pub text: TextBox,
}

/// A network partition on the timeline: a wall between two neighbouring lanes it cuts apart, from
/// the row where it starts to the row where it heals or is replaced (open at the last row shown).
#[derive(Debug, Clone, PartialEq)]
pub struct Wall {
    pub from_row: usize,
    pub to_row: Option<usize>,
    /// The lanes either side of the wall.
    pub lanes: (usize, usize),
    pub rect: Rect,
    /// A gate in the wall rather than wall: where a delivered message between a cut-off lane
    /// and a lane no group names passes (the network did not cut them apart). A partition's
    /// pieces and gates together run unbroken from its first row to its last.
    pub gate: bool,
}

/// A node's clock stepping, drawn as a break across its lifeline with how far it jumped.
#[derive(Debug, Clone, PartialEq)]
pub struct Jump {
    pub row: usize,
    pub lane: usize,
    pub by_ms: i64,
    /// The centre of the break, on the lifeline.
    pub at: Point,
    /// "+20 s" beside the break (None where it would crowd another label).
    pub label: Option<TextBox>,
}

/// A time mark on the to-scale axis: a faint line across the lanes and its time at the right.
#[derive(Debug, Clone, PartialEq)]
pub struct Tick {
    pub time_ms: u64,
    pub y: f64,
    /// None where the label would crowd the previous one.
    pub label: Option<TextBox>,
}

/// How the to-scale time axis leaves the picture's scale over a stretch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StretchKind {
    /// A burst of events closer than a line apart at the picture's scale, drawn in order and
    /// not to scale: its rows pack like logical rows, in a tinted band across the lanes with
    /// brackets and its time range ("6000–6008 ms, in order"). The clock stands still over it:
    /// the axis runs on from its last time at its bottom.
    Zoom,
    /// Rows of one instant (or of a few ms, closer than a line apart) outside a burst, stacked
    /// one line apart: the axis does not run over them.
    Stack,
    /// A long idle stretch (nothing in flight, no node paused) cut short: a break across every
    /// lane, as tall whatever its length.
    Break,
}

/// A marked stretch of the to-scale axis, between two lines.
#[derive(Debug, Clone, PartialEq)]
pub struct Stretch {
    pub kind: StretchKind,
    pub y0: f64,
    pub y1: f64,
    pub from_ms: u64,
    pub to_ms: u64,
    /// A burst's tinted band, top and bottom: a little beyond its first and last lines, so that
    /// its rows' labels and notes sit wholly inside it and its neighbours' wholly outside.
    pub band: (f64, f64),
    /// The axis's time at the band's top (`from_ms`; for a break, the time where the axis left
    /// off).
    pub top_ms: u64,
    /// The axis's time at the band's bottom, where it runs on at the picture's scale: a zoom's
    /// or stack's strip stops the clock, so this is its last time (`to_ms`).
    pub resume_ms: u64,
    /// The stretches of the band (top, bottom) drawn tinted: all of it but where an overlap band
    /// crosses it (the overlap band carries the same tint under its red, so that it is as strong
    /// outside zooms as inside).
    pub tint: Vec<(f64, f64)>,
    /// "6000–6008 ms, in order", "same ms" or "… 8.0 s …", beside the time marks.
    pub label: Option<TextBox>,
    /// A zoom's whole seconds strictly inside its time range, marked on its bracket in the
    /// order of its rows (never a gridline through the strip, where it would claim a distance).
    pub seconds: Vec<ZoomSecond>,
}

/// A piece of the to-scale time axis. The pieces run top to bottom, each starting where the one
/// before ends (in y and in time): at the picture's scale (`kind` None: its height is its time
/// at the one px/s), a zoom or stack (an inserted strip: the clock stands still over it), or a
/// break (an idle stretch cut short).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AxisPart {
    pub kind: Option<StretchKind>,
    pub y0: f64,
    pub y1: f64,
    pub from_ms: u64,
    pub to_ms: u64,
}

/// A whole second inside a zoom: a short mark on the zoom's bracket between the last row before
/// it and the first row after it.
#[derive(Debug, Clone, PartialEq)]
pub struct ZoomSecond {
    pub time_ms: u64,
    pub y: f64,
    /// "8 s", where it does not crowd another label.
    pub label: Option<TextBox>,
}

/// Everything needed to draw a trace as a sequence timeline.
#[derive(Debug, Clone, PartialEq)]
pub struct Layout {
    pub mode: TimeMode,
    /// Size of the drawing, in px.
    pub width: f64,
    pub height: f64,
    pub lanes: Vec<Lane>,
    /// One per event shown, in trace order (row i is step i + 1).
    pub rows: Vec<Row>,
    pub arrows: Vec<Arrow>,
    pub notes: Vec<Note>,
    pub spans: Vec<Span>,
    pub marks: Vec<Mark>,
    pub highlights: Vec<Highlight>,
    pub legend: Vec<LegendEntry>,
    /// Time marks (to-scale mode only).
    pub ticks: Vec<Tick>,
    /// "step  time", above the gutter.
    pub gutter_title: TextBox,
    /// Row index of the current step, when `upto_step` named one.
    pub current: Option<usize>,
    /// Where the current step's outline leaves its band to keep off the boxes of the lines next
    /// to it that reach into it (see `Layout::current_outline`).
    pub current_dips: Dips,
    /// Events in the whole trace.
    pub total_steps: usize,
    /// Lifelines run from here...
    pub lifeline_top: f64,
    /// ...to here.
    pub lifeline_bottom: f64,
    /// Where notes and labels may go: right of the gutter, across the lanes.
    pub area: Rect,
    /// Pixels per simulated ms in to-scale mode (0 in logical mode).
    pub ms_scale: f64,
    /// Runs of repeated retries folded into one line (none with [`Options::unfold_retries`]):
    /// their rows share the line of a note saying how many times and how far apart.
    pub folds: Vec<Fold>,
    /// To scale: where the axis leaves its one scale (bursts in order, stacks, idle breaks).
    pub stretches: Vec<Stretch>,
    /// To scale, each overlap band's true length ("overlap 2.0 s") beside the time marks.
    pub overlap_labels: Vec<TextBox>,
    /// To scale, the whole time axis piece by piece (empty in logical time).
    pub axis: Vec<AxisPart>,
    /// Network partitions, as walls between the lanes they cut apart.
    pub walls: Vec<Wall>,
    /// Clock jumps, as breaks on the lifelines.
    pub jumps: Vec<Jump>,
    /// Send rows of messages drawn level where they arrived.
    pub flights: Vec<Flight>,
    /// What the database did in the steps shown (a step render's footer tells this, not the
    /// whole run's verdict).
    pub so_far: crate::lease::SoFar,
}

impl Layout {
    /// Every text label of the layout, for drawing and for overlap checks.
    pub fn labels(&self) -> impl Iterator<Item = &TextBox> {
        let lanes = self
            .lanes
            .iter()
            .flat_map(|l| l.header.iter().chain(l.footer.iter()));
        let rows = self.rows.iter().map(|r| &r.gutter);
        let arrows = self
            .arrows
            .iter()
            .map(|a| &a.label)
            .chain(self.flights.iter().map(|f| &f.label));
        let notes = self.notes.iter().map(|n| &n.text);
        let legend = self.legend.iter().map(|e| &e.text);
        let ticks = self
            .ticks
            .iter()
            .filter_map(|t| t.label.as_ref())
            .chain(self.stretches.iter().filter_map(|s| s.label.as_ref()))
            .chain(self.overlap_labels.iter())
            .chain(self.jumps.iter().filter_map(|j| j.label.as_ref()));
        lanes
            .chain(std::iter::once(&self.gutter_title))
            .chain(rows)
            .chain(arrows)
            .chain(notes)
            .chain(legend)
            .chain(ticks)
    }

    /// To scale, the y of time `t` where the axis runs at the picture's scale (or at the edge
    /// of a zoom, stack or break starting or ending at `t`); None inside a zoom or stack (rows
    /// in order, no distance) or inside a break (time cut).
    pub fn y_at(&self, t: u64) -> Option<f64> {
        self.axis.iter().find_map(|p| match p.kind {
            None if p.from_ms <= t && t <= p.to_ms => {
                Some(p.y0 + (t - p.from_ms) as f64 * self.ms_scale)
            }
            Some(_) if t == p.from_ms => Some(p.y0),
            Some(_) if t == p.to_ms => Some(p.y1),
            _ => None,
        })
    }

    /// The row index of a step (1-based), if shown.
    pub fn row_of_step(&self, step: usize) -> Option<usize> {
        step.checked_sub(1).filter(|&r| r < self.rows.len())
    }

    /// A compact, stable text rendering (lanes, rows, arrows, notes, spans, marks) for tests and
    /// debugging.
    pub fn describe(&self) -> String {
        describe::describe(self)
    }
}

/// Lays a trace out. Never fails: a step past the end is clamped (see [`Options::upto_step`]).
pub fn layout(trace: &Trace, options: &Options) -> Layout {
    build::build(trace, options)
}
