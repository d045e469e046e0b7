//! The legend: one entry per kind of span or mark the drawing actually uses, in a grid.

use super::pieces::NO_TOKEN;
use super::{
    Arrow, ArrowEnd, Flight, Fold, Highlight, HighlightKind, Lane, LegendEntry, LegendKind, Mark,
    MarkKind, Note, NoteKind, Span, SpanKind, Stretch, StretchKind,
};
use crate::geom::{Point, Rect};
use crate::style;
use crate::text::{self, Align, TextBox};

const SWATCH_W: f64 = 30.0;
const SWATCH_H: f64 = 18.0;
const SWATCH_GAP: f64 = 10.0;
const COLUMN_GAP: f64 = 36.0;
const ROW_GAP: f64 = 10.0;

/// The kinds present in a drawing, in legend order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Present(pub Vec<LegendKind>);

/// What a layout draws, for its legend.
pub(crate) struct Drawn<'a> {
    pub spans: &'a [Span],
    pub marks: &'a [Mark],
    pub highlights: &'a [Highlight],
    pub lanes: &'a [Lane],
    pub notes: &'a [Note],
    pub folds: &'a [Fold],
    pub arrows: &'a [Arrow],
    pub flights: &'a [Flight],
    pub stretches: &'a [Stretch],
    /// Whether partition walls and clock-jump breaks are drawn.
    pub walls: bool,
    /// Whether a wall has a gate (a message passing it).
    pub gates: bool,
    /// Whether a row's step list skips steps drawn on other rows ("#41,43").
    pub step_lists: bool,
    pub jumps: bool,
    /// Whether a current step is shown.
    pub current: bool,
}

impl Present {
    /// The kinds `d` draws, in legend order.
    pub fn of(d: &Drawn) -> Present {
        let has_span = |f: fn(&SpanKind) -> bool| d.spans.iter().any(|s| f(&s.kind));
        // A session keepalive has an entry of its own (it renews no lock).
        let has_mark = |k: MarkKind| d.marks.iter().any(|m| m.kind == k && !m.session);
        let has_highlight = |k: HighlightKind| d.highlights.iter().any(|h| h.kind == k);
        let has_note = |k: NoteKind| d.notes.iter().any(|n| n.kind == k);
        let fold_texts: std::collections::BTreeSet<&str> =
            d.folds.iter().map(|f| f.text.as_str()).collect();
        let folded = !fold_texts.is_empty()
            && d.notes
                .iter()
                .any(|n| fold_texts.contains(n.text.one_line().as_str()));
        let shown = [
            (
                LegendKind::Believes,
                has_span(|k| matches!(k, SpanKind::Believes { .. })),
            ),
            (
                LegendKind::ServiceHolds,
                has_span(|k| matches!(k, SpanKind::ServiceHolds { .. })),
            ),
            (
                LegendKind::Overlap,
                has_span(|k| matches!(k, SpanKind::Overlap { .. })),
            ),
            (
                LegendKind::RefusedRow,
                has_highlight(HighlightKind::RejectedAccess),
            ),
            (
                LegendKind::DuplicateRow,
                has_highlight(HighlightKind::DuplicatePayout),
            ),
            (LegendKind::Partition, d.walls),
            (LegendKind::ClockJump, d.jumps),
            (
                LegendKind::Paused,
                has_span(|k| matches!(k, SpanKind::Paused { .. })),
            ),
            (LegendKind::Down, has_span(|k| matches!(k, SpanKind::Down))),
            (
                LegendKind::PermissiveDb,
                d.lanes.iter().any(Lane::is_permissive_db),
            ),
            (
                LegendKind::NoToken,
                d.arrows.iter().any(|a| a.label.text.ends_with(NO_TOKEN)),
            ),
            (LegendKind::GlobalNote, has_note(NoteKind::Global)),
            (LegendKind::FaultNote, has_note(NoteKind::Fault)),
            (
                LegendKind::HolderNote,
                d.notes
                    .iter()
                    .any(|n| plain_or_holder(n, &fold_texts) == Some(true)),
            ),
            (
                LegendKind::PlainNote,
                d.notes
                    .iter()
                    .any(|n| plain_or_holder(n, &fold_texts) == Some(false)),
            ),
            (LegendKind::Fold, folded),
            (LegendKind::FlightStub, !d.flights.is_empty()),
            (LegendKind::Gate, d.gates),
            (
                LegendKind::Slanted,
                d.arrows.iter().any(super::Arrow::is_slanted),
            ),
            (LegendKind::StepList, d.step_lists),
        ];
        let mut out: Vec<LegendKind> = shown
            .into_iter()
            .filter_map(|(k, on)| on.then_some(k))
            .collect();
        for k in [
            MarkKind::WriteAccepted,
            MarkKind::AccessRejected,
            MarkKind::Duplicate,
            MarkKind::Expired,
            MarkKind::Renewed,
            MarkKind::Lost,
            MarkKind::Delayed,
            MarkKind::InFlight,
            MarkKind::Paused,
            MarkKind::Sender,
        ] {
            // Only while a message is drawn in the network (a step render's dashed arrow ending
            // in a circle): not merely because one was sent at some earlier step.
            let in_flight =
                k == MarkKind::InFlight && d.arrows.iter().any(|a| a.end == ArrowEnd::InFlight);
            if has_mark(k) || in_flight {
                out.push(LegendKind::Mark(k));
            }
            if k == MarkKind::Renewed && d.marks.iter().any(|m| m.session) {
                out.push(LegendKind::SessionRenewed);
            }
        }
        for (k, kind) in [
            (LegendKind::Zoom, StretchKind::Zoom),
            (LegendKind::Stack, StretchKind::Stack),
            (LegendKind::Break, StretchKind::Break),
        ] {
            if d.stretches.iter().any(|s| s.kind == kind) {
                out.push(k);
            }
        }
        if d.current {
            out.push(LegendKind::Current);
        }
        Present(out)
    }
}

/// Whether a note is a box edged in a worker's colour (Some(true): a belief begins or ends) or
/// a plain grey one (Some(false)); None for the other boxes (global, fault, fold, the duplicate's
/// red one), which have entries of their own.
fn plain_or_holder(n: &Note, fold_texts: &std::collections::BTreeSet<&str>) -> Option<bool> {
    let plain_kind = matches!(n.kind, NoteKind::State | NoteKind::Note);
    if !plain_kind || n.emphasis || fold_texts.contains(n.text.one_line().as_str()) {
        return None;
    }
    Some(matches!(n.tone, Some(super::Tone::Worker(_))))
}

/// The legend's words for a session keepalive, the lease chart's too.
pub const SESSION_RENEWED: &str = "session lease renewed (keepalive; not the lock itself)";

/// What a legend entry says.
pub fn text_of(kind: LegendKind) -> &'static str {
    match kind {
        LegendKind::Believes => "bar right of a worker: it believes it holds the lock",
        LegendKind::ServiceHolds => "bar left of a lock node: the service records that holder",
        LegendKind::Overlap => "hatched red band: both believe they hold the lock",
        LegendKind::Paused => "hatched: paused, frozen (its clock keeps running)",
        LegendKind::Down => "grey hatched: crashed",
        LegendKind::Mark(MarkKind::WriteAccepted) => "write accepted by the database",
        LegendKind::Mark(MarkKind::AccessRejected) => "refused by fencing: stale or missing token",
        LegendKind::Mark(MarkKind::Duplicate) => "payouts paid a second time",
        LegendKind::Mark(MarkKind::Expired) => "TTL or lease ran out",
        LegendKind::Mark(MarkKind::Renewed) => "lease renewed",
        LegendKind::SessionRenewed => SESSION_RENEWED,
        LegendKind::Mark(MarkKind::Lost) => "message lost",
        LegendKind::Mark(MarkKind::Delayed) => "message held up in the network",
        LegendKind::Mark(MarkKind::InFlight) => "message still in the network",
        LegendKind::Mark(MarkKind::Paused) => "node paused",
        LegendKind::Mark(MarkKind::Sender) => "sender of a message to several nodes",
        LegendKind::Current => "the current step",
        LegendKind::RefusedRow => "green row: refused by the database (fencing stopped it)",
        LegendKind::DuplicateRow => "red-edged row: paid a second time (money lost)",
        LegendKind::Partition => "hatched wall: network cut (arrow at its foot: goes on)",
        LegendKind::ClockJump => "break on a lifeline: its clock jumped",
        LegendKind::Zoom => "tinted band: a burst within ms, in order, not to scale",
        LegendKind::Stack => "double bar by the time marks: rows of the same instant",
        LegendKind::Break => "zig-zag across: idle time cut out, its length beside it",
        LegendKind::PermissiveDb => "dashed orange header: takes writes without a token",
        LegendKind::NoToken => "NO TOKEN: a write taken without a fencing token",
        LegendKind::GlobalNote => "blue box across the lanes: the whole system",
        LegendKind::FaultNote => "brown box: an injected fault (pause, crash, delay…)",
        LegendKind::HolderNote => "box in a worker colour: it now holds or drops the lock",
        LegendKind::PlainNote => "grey box: a state or note (expired, done, complete)",
        LegendKind::Fold => "box “… retried N more times”: alike rounds folded",
        LegendKind::FlightStub => "dashed stub “→ #N”: sent here, arrives at #N (in a round)",
        LegendKind::Slanted => "slanted arrow: sent on its upper row, arrives on the lower",
        LegendKind::Gate => "gap in a wall: this message is not cut off by the partition",
        LegendKind::StepList => "#41,43 or #6,…,20: the steps between are on other rows",
    }
}

/// Lays the entries out in columns from `(x0, y0)`, no wider than `max_x` when that allows at
/// least one column. Returns the entries and the bottom of the legend.
pub(crate) fn place(present: &Present, x0: f64, y0: f64, max_x: f64) -> (Vec<LegendEntry>, f64) {
    if present.0.is_empty() {
        return (Vec::new(), y0);
    }
    let entry_w =
        |k: LegendKind| SWATCH_W + SWATCH_GAP + text::width(text_of(k), style::LEGEND_SIZE);
    let col_w = present.0.iter().map(|&k| entry_w(k)).fold(0.0, f64::max) + COLUMN_GAP;
    let columns = (((max_x - x0 + COLUMN_GAP) / col_w).floor() as usize).clamp(1, 3);
    let row_h = text::line_height(style::LEGEND_SIZE).max(SWATCH_H) + ROW_GAP;
    let mut out = Vec::new();
    for (i, &kind) in present.0.iter().enumerate() {
        let (r, c) = (i / columns, i % columns);
        let x = x0 + c as f64 * col_w;
        let cy = y0 + r as f64 * row_h + row_h / 2.0;
        let swatch = Rect::new(x, cy - SWATCH_H / 2.0, x + SWATCH_W, cy + SWATCH_H / 2.0);
        let text = TextBox::new(
            text_of(kind),
            style::LEGEND_SIZE,
            Align::Left,
            Point::new(x + SWATCH_W + SWATCH_GAP, cy),
            0.0,
        );
        out.push(LegendEntry { kind, swatch, text });
    }
    let rows = present.0.len().div_ceil(columns);
    (out, y0 + rows as f64 * row_h)
}
