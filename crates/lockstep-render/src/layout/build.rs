//! Builds a [`Layout`] from a trace: lanes first, then every row's height (over the whole trace, so
//! stepping never moves what is drawn), then the arrows, notes, spans and marks of the steps shown.

use std::collections::BTreeMap;

use lockstep_core::Trace;
use lockstep_core::topology::{NodeId, Role};
use lockstep_core::trace::{EventKind, FreeReason, Tag, TraceEvent};

use super::lanes::{self, LABEL_INSET, MIN_GAP};
use super::legend;
use super::rows::{PITCH, Placer, Shape};
use super::{
    Arrow, ArrowEnd, Highlight, HighlightKind, Lane, Layout, Mark, MarkKind, Note, NoteKind,
    Options, Row, Span, SpanKind, TimeMode, Tone,
};
use crate::geom::{Point, Rect};
use crate::style;
use crate::text::{self, Align, TextBox};

/// Space around the drawing.
pub(super) const MARGIN: f64 = 24.0;
/// Arrow labels sit this far above their arrow.
const LABEL_LIFT: f64 = 4.0;
/// Padding inside an arrow label's box.
const LABEL_PAD: f64 = 2.0;
/// Padding inside a note's box.
const NOTE_PAD_X: f64 = 8.0;
const NOTE_PAD_Y: f64 = 4.0;
/// Width reserved for an icon inside a note.
const ICON_W: f64 = 24.0;
/// Padding of gutter labels.
const GUTTER_PAD: f64 = 1.0;
/// Marks beside a lifeline sit this far from it (clear of the span bars).
const MARK_OFFSET: f64 = 24.0;
/// Span bars: a worker's belief right of its lifeline, the service's record left of it.
const BAR_NEAR: f64 = 4.0;
const BAR_FAR: f64 = 14.0;
/// Half the width of pause and crash spans.
const WIDE_HALF: f64 = 20.0;
/// Target height of the time axis in to-scale mode, before labels push rows apart.
const SCALE_TARGET: f64 = 1400.0;
/// How far a lost message gets before it ends in an x.
const LOST_AT: f64 = 0.6;

/// How each event links to a message arrow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Link {
    /// Starts an arrow; the event that ends it, if any.
    Start(Option<usize>),
    /// Ends the arrow started by this event (None: its send is not in the trace).
    End(Option<usize>),
    None,
}

/// Pairs every send with its delivery or loss, by message id.
fn link_messages(events: &[TraceEvent]) -> Vec<Link> {
    let mut links = vec![Link::None; events.len()];
    let mut open: BTreeMap<u64, usize> = BTreeMap::new();
    for (i, e) in events.iter().enumerate() {
        match e.kind {
            EventKind::Send => {
                links[i] = Link::Start(None);
                if let Some(m) = e.message {
                    open.insert(m, i);
                }
            }
            EventKind::Deliver | EventKind::Lost => {
                let start = e.message.and_then(|m| open.remove(&m));
                if let Some(s) = start {
                    links[s] = Link::Start(Some(i));
                }
                links[i] = Link::End(start);
            }
            _ => {}
        }
    }
    links
}

/// What one event draws, before rows have heights.
#[derive(Debug, Clone)]
enum Piece {
    /// An arrow starts here.
    Arrow {
        from: usize,
        to: usize,
        label: String,
    },
    /// An arrow ends here (no label of its own).
    ArrowEnd,
    /// A note over lanes `lanes.0..=lanes.1`.
    Note {
        lanes: (usize, usize),
        kind: NoteKind,
        text: String,
        icon: Option<MarkKind>,
    },
    Nothing,
}

/// The worker's index (trace order) of every node that is a worker.
fn worker_indices(trace: &Trace) -> Vec<Option<usize>> {
    let mut next = 0;
    trace
        .participants
        .iter()
        .map(|p| {
            (p.role == Role::Worker).then(|| {
                next += 1;
                next - 1
            })
        })
        .collect()
}

fn note_icon(e: &TraceEvent) -> Option<MarkKind> {
    match &e.tag {
        Some(Tag::Duplicate { .. }) => Some(MarkKind::Duplicate),
        Some(Tag::ServiceFrees {
            reason: FreeReason::Expired,
            ..
        }) => Some(MarkKind::Expired),
        Some(Tag::Paused { .. }) => Some(MarkKind::Paused),
        _ => None,
    }
}

fn arrow_label(e: &TraceEvent) -> String {
    match e.tag {
        Some(Tag::Delayed { extra_ms }) => format!("{} (delayed +{extra_ms} ms)", e.label),
        _ => e.label.clone(),
    }
}

/// The geometry every row is measured against.
struct Frame {
    xs: Vec<f64>,
    area_left: f64,
    gutter_right: f64,
}

impl Frame {
    fn x(&self, lane: usize) -> f64 {
        self.xs[lane]
    }

    /// Direction of an arrow from `from` to `to`: +1 rightwards, -1 leftwards.
    fn dir(&self, from: usize, to: usize) -> f64 {
        if self.xs[to] < self.xs[from] {
            -1.0
        } else {
            1.0
        }
    }

    /// An arrow label's box for a send on the row at `y`.
    fn arrow_label(&self, from: usize, to: usize, text: &str, y: f64) -> TextBox {
        let lh = text::line_height(style::LABEL_SIZE);
        let cy = y - LABEL_LIFT - LABEL_PAD - lh / 2.0;
        let x = self.x(from);
        let b = if self.dir(from, to) > 0.0 {
            TextBox::new(
                text,
                style::LABEL_SIZE,
                Align::Left,
                Point::new(x + LABEL_INSET, cy),
                LABEL_PAD,
            )
        } else {
            TextBox::new(
                text,
                style::LABEL_SIZE,
                Align::Right,
                Point::new(x - LABEL_INSET, cy),
                LABEL_PAD,
            )
        };
        let push = self.area_left - b.rect.x0;
        if push > 0.0 { b.shifted(push, 0.0) } else { b }
    }

    /// A note's box and text for the row at `y`.
    fn note(&self, lanes: (usize, usize), text: &str, icon: bool, y: f64) -> (Rect, TextBox) {
        let tw = text::width(text, style::NOTE_SIZE);
        let iw = if icon { ICON_W } else { 0.0 };
        let w = tw + iw + 2.0 * NOTE_PAD_X;
        let h = text::line_height(style::NOTE_SIZE) + 2.0 * NOTE_PAD_Y;
        let (l, r) = (self.x(lanes.0), self.x(lanes.1));
        let (mut x0, mut x1) = if lanes.0 == lanes.1 {
            (l - w / 2.0, l + w / 2.0)
        } else {
            let c = (l + r) / 2.0;
            let half = (w / 2.0).max((r - l) / 2.0 + 0.3 * MIN_GAP);
            (c - half, c + half)
        };
        if x0 < self.area_left {
            x1 += self.area_left - x0;
            x0 = self.area_left;
        }
        let rect = Rect::new(x0, y - h / 2.0, x1, y + h / 2.0);
        let text_x = (x0 + iw + x1) / 2.0;
        let tb = TextBox::new(
            text,
            style::NOTE_SIZE,
            Align::Center,
            Point::new(text_x, y),
            0.0,
        );
        (rect, tb)
    }

    fn shape(&self, piece: &Piece) -> Option<Shape> {
        let rect = match piece {
            Piece::Arrow { from, to, label } => self.arrow_label(*from, *to, label, 0.0).rect,
            Piece::Note {
                lanes, text, icon, ..
            } => self.note(*lanes, text, icon.is_some(), 0.0).0,
            Piece::ArrowEnd | Piece::Nothing => return None,
        };
        Some(Shape {
            x0: rect.x0,
            x1: rect.x1,
            up: -rect.y0,
            down: rect.y1,
        })
    }

    fn gutter(&self, text: &str, y: f64) -> TextBox {
        TextBox::new(
            text,
            style::GUTTER_SIZE,
            Align::Right,
            Point::new(self.gutter_right, y),
            GUTTER_PAD,
        )
    }
}

pub(super) fn build(trace: &Trace, options: &Options) -> Layout {
    let events = &trace.events;
    let total = events.len();
    let shown = options.upto_step.map_or(total, |s| s.min(total));
    let order = lanes::lane_order(&trace.participants, options.lane_order);
    let mut lane_of: Vec<Option<usize>> = vec![None; trace.participants.len()];
    for (lane, &node) in order.iter().enumerate() {
        lane_of[usize::from(node)] = Some(lane);
    }
    let lane_for = |node: NodeId| lane_of.get(usize::from(node)).copied().flatten();
    let workers = worker_indices(trace);
    let worker_of_lane: Vec<Option<usize>> =
        order.iter().map(|&n| workers[usize::from(n)]).collect();
    let worker_by_name = |name: &str| {
        trace
            .participants
            .iter()
            .position(|p| p.name == name)
            .and_then(|i| workers[i])
    };
    let links = link_messages(events);
    let last_lane = order.len().saturating_sub(1);

    // What each event draws.
    let pieces: Vec<Piece> = events
        .iter()
        .zip(&links)
        .map(|(e, link)| match (e.kind, link) {
            (EventKind::Send, _) | (_, Link::End(None)) => match (lane_for(e.from), lane_for(e.to))
            {
                (Some(from), Some(to)) => Piece::Arrow {
                    from,
                    to,
                    label: arrow_label(e),
                },
                _ => Piece::Nothing,
            },
            (_, Link::End(Some(_))) => Piece::ArrowEnd,
            _ if e.is_global() && !order.is_empty() => Piece::Note {
                lanes: (0, last_lane),
                kind: NoteKind::Global,
                text: e.label.clone(),
                icon: None,
            },
            _ => match lane_for(e.from) {
                Some(lane) => Piece::Note {
                    lanes: (lane, lane),
                    kind: match e.kind {
                        EventKind::Fault => NoteKind::Fault,
                        EventKind::Note => NoteKind::Note,
                        _ => NoteKind::State,
                    },
                    text: e.label.clone(),
                    icon: note_icon(e),
                },
                None => Piece::Nothing,
            },
        })
        .collect();

    // Lanes: gaps wide enough for the labels that cross them.
    let halves: Vec<f64> = order
        .iter()
        .map(|&n| {
            let p = &trace.participants[usize::from(n)];
            lanes::header_half_width(&p.name, p.role)
        })
        .collect();
    let arrow_widths: Vec<(usize, usize, f64)> = pieces
        .iter()
        .filter_map(|p| match p {
            Piece::Arrow { from, to, label } => {
                Some((*from, *to, text::width(label, style::LABEL_SIZE)))
            }
            _ => None,
        })
        .collect();
    let gaps = lanes::gaps(order.len(), &arrow_widths, &halves);
    let max_step = total.max(1);
    let max_time = events.iter().map(|e| e.time_ms).max().unwrap_or(0);
    let step_w = max_step.to_string().len();
    let time_w = max_time.to_string().len();
    let gutter_text = |step: usize, time: u64| format!("{step:>step_w$}  {time:>time_w$} ms");
    let gutter_right =
        (MARGIN + text::width(&gutter_text(max_step, max_time), style::GUTTER_SIZE)).ceil();
    let area_left = gutter_right + 14.0;
    let first_half = {
        let notes0 = pieces.iter().filter_map(|p| match p {
            Piece::Note {
                lanes: (0, 0),
                text,
                icon,
                ..
            } => Some(
                (text::width(text, style::NOTE_SIZE)
                    + 2.0 * NOTE_PAD_X
                    + if icon.is_some() { ICON_W } else { 0.0 })
                    / 2.0,
            ),
            _ => None,
        });
        notes0
            .fold(MIN_GAP / 2.0, f64::max)
            .min(260.0)
            .max(halves.first().copied().unwrap_or(0.0) + 4.0)
    };
    let mut xs = Vec::with_capacity(order.len());
    let mut x = (area_left + first_half).ceil();
    for i in 0..order.len() {
        xs.push(x);
        if let Some(g) = gaps.get(i) {
            x += g;
        }
    }
    let frame = Frame {
        xs,
        area_left,
        gutter_right,
    };

    // Lane headers.
    let header_top = MARGIN;
    let mut lanes_out: Vec<Lane> = order
        .iter()
        .enumerate()
        .map(|(i, &n)| {
            let p = &trace.participants[usize::from(n)];
            let (header, header_box) = lanes::header(&p.name, p.role, frame.x(i), header_top);
            Lane {
                node: n,
                name: p.name.clone(),
                role: p.role,
                worker: worker_of_lane[i],
                x: frame.x(i),
                header,
                header_box,
                footer: header_clone_placeholder(),
                footer_box: Rect::default(),
            }
        })
        .collect();
    let header_bottom = header_top + lanes::header_height();

    // Every row's height, over the whole trace.
    let shapes: Vec<Option<Shape>> = pieces.iter().map(|p| frame.shape(p)).collect();
    let max_up = shapes.iter().flatten().map(|s| s.up).fold(0.0, f64::max);
    let obstacles: Vec<Rect> = lanes_out.iter().map(|l| l.header_box).collect();
    let mut placer = Placer::new(obstacles, max_up);
    let origin = header_bottom + 24.0;
    let t0 = events.first().map_or(0, |e| e.time_ms);
    let duration = max_time.saturating_sub(t0);
    let ms_scale = match options.time_mode {
        TimeMode::ToScale if duration > 0 => {
            SCALE_TARGET.max(total as f64 * PITCH * 0.75) / duration as f64
        }
        _ => 0.0,
    };
    let ys: Vec<f64> = events
        .iter()
        .zip(&shapes)
        .map(|(e, shape)| {
            let base = origin + e.time_ms.saturating_sub(t0) as f64 * ms_scale;
            placer.place(base, *shape)
        })
        .collect();

    // Rows shown.
    let rows: Vec<Row> = (0..shown)
        .map(|i| {
            let e = &events[i];
            let y = ys[i];
            let (top, bottom) = match shapes[i] {
                Some(s) => (
                    (y - s.up).min(y - PITCH / 2.0),
                    (y + s.down).max(y + PITCH / 2.0),
                ),
                None => (y - PITCH / 2.0, y + PITCH / 2.0),
            };
            Row {
                step: i + 1,
                event: i,
                time_ms: e.time_ms,
                kind: e.kind,
                y,
                top,
                bottom,
                gutter: frame.gutter(&gutter_text(i + 1, e.time_ms), y),
                label: e.label.clone(),
                explanation: e.explanation.clone(),
            }
        })
        .collect();
    let y_end = rows.last().map_or(origin, |r| r.y);
    // Open spans run a little past the last row shown.
    let open_end = y_end + PITCH / 2.0;

    let mut arrows = Vec::new();
    let mut notes = Vec::new();
    let mut marks = Vec::new();
    let mut highlights = Vec::new();
    let mut spans = Vec::new();

    // Open spans: (lane) -> (row, until) for pauses; (lane) -> row for crashes and beliefs;
    // (lane, holder) -> (row, token, slot) for the service's records.
    let mut paused: BTreeMap<usize, (usize, u64)> = BTreeMap::new();
    let mut down: BTreeMap<usize, usize> = BTreeMap::new();
    let mut believes: BTreeMap<usize, (usize, Option<u64>)> = BTreeMap::new();
    let mut holds: BTreeMap<(usize, String), (usize, Option<u64>, usize)> = BTreeMap::new();
    let mut belief_spans: Vec<(usize, usize, Option<usize>)> = Vec::new();

    let tone_of_lane = |lane: usize| worker_of_lane[lane].map(Tone::Worker);

    for i in 0..shown {
        let e = &events[i];
        let y = ys[i];
        match &pieces[i] {
            Piece::Arrow { from, to, label } => {
                let (from, to) = (*from, *to);
                let start = Point::new(frame.x(from), y);
                let rejected = matches!(e.tag, Some(Tag::AccessRejected { .. }));
                let tone = if rejected {
                    Tone::Danger
                } else {
                    tone_of_lane(from)
                        .or_else(|| tone_of_lane(to))
                        .unwrap_or(Tone::Infra)
                };
                let (end_row, end, tip) = match links[i] {
                    Link::End(None) => (Some(i), ArrowEnd::Delivered, Point::new(frame.x(to), y)),
                    Link::Start(Some(j)) if j < shown => {
                        if events[j].kind == EventKind::Lost {
                            let x = frame.x(from) + LOST_AT * (frame.x(to) - frame.x(from));
                            (Some(j), ArrowEnd::Lost, Point::new(x, ys[j]))
                        } else {
                            (Some(j), ArrowEnd::Delivered, Point::new(frame.x(to), ys[j]))
                        }
                    }
                    Link::Start(later) => {
                        let full = match later {
                            Some(j) if events[j].kind == EventKind::Lost => Point::new(
                                frame.x(from) + LOST_AT * (frame.x(to) - frame.x(from)),
                                ys[j],
                            ),
                            Some(j) => Point::new(frame.x(to), ys[j]),
                            None => Point::new(frame.x(to), y_end.max(y) + PITCH),
                        };
                        let s = if full.y > y {
                            ((y_end - y) / (full.y - y)).clamp(0.0, 1.0)
                        } else {
                            0.5
                        };
                        let s = s.max(0.2);
                        let tip = Point::new(
                            start.x + s * (full.x - start.x),
                            start.y + s * (full.y - start.y),
                        );
                        (None, ArrowEnd::InFlight, tip)
                    }
                    _ => (Some(i), ArrowEnd::Delivered, Point::new(frame.x(to), y)),
                };
                let delayed_ms = match e.tag {
                    Some(Tag::Delayed { extra_ms }) => Some(extra_ms),
                    _ => None,
                };
                let side = Point::new(frame.x(from) - frame.dir(from, to) * MARK_OFFSET, y);
                let mark = match e.tag {
                    Some(Tag::WriteAccepted { .. }) => Some(MarkKind::WriteAccepted),
                    Some(Tag::AccessRejected { .. }) => Some(MarkKind::AccessRejected),
                    Some(Tag::Renewed) => Some(MarkKind::Renewed),
                    Some(Tag::Delayed { .. }) => Some(MarkKind::Delayed),
                    _ => None,
                };
                if let Some(kind) = mark {
                    marks.push(Mark {
                        row: i,
                        lane: from,
                        kind,
                        at: side,
                    });
                }
                match end {
                    ArrowEnd::Lost => marks.push(Mark {
                        row: end_row.unwrap_or(i),
                        lane: to,
                        kind: MarkKind::Lost,
                        at: tip,
                    }),
                    ArrowEnd::InFlight => marks.push(Mark {
                        row: shown - 1,
                        lane: to,
                        kind: MarkKind::InFlight,
                        at: tip,
                    }),
                    ArrowEnd::Delivered => {}
                }
                if rejected {
                    highlights.push(Highlight {
                        row: i,
                        kind: HighlightKind::RejectedAccess,
                    });
                }
                arrows.push(Arrow {
                    message: e.message,
                    from_lane: from,
                    to_lane: to,
                    send_row: i,
                    end_row,
                    end,
                    start,
                    tip,
                    label: frame.arrow_label(from, to, label, y),
                    tone,
                    delayed_ms,
                    rejected,
                });
            }
            Piece::Note {
                lanes,
                kind,
                text,
                icon,
            } => {
                let (rect, tb) = frame.note(*lanes, text, icon.is_some(), y);
                let duplicate = matches!(e.tag, Some(Tag::Duplicate { .. }));
                let tone = if duplicate {
                    Some(Tone::Danger)
                } else {
                    match e.tag {
                        Some(Tag::Believes { .. } | Tag::StopsBelieving) => tone_of_lane(lanes.0),
                        Some(Tag::ServiceFrees {
                            reason: FreeReason::Expired,
                            ..
                        }) => Some(Tone::Timer),
                        _ => None,
                    }
                };
                if let Some(kind) = icon {
                    marks.push(Mark {
                        row: i,
                        lane: lanes.0,
                        kind: *kind,
                        at: Point::new(rect.x0 + NOTE_PAD_X + ICON_W / 2.0 - 2.0, y),
                    });
                }
                if duplicate {
                    highlights.push(Highlight {
                        row: i,
                        kind: HighlightKind::DuplicatePayout,
                    });
                }
                notes.push(Note {
                    row: i,
                    lanes: *lanes,
                    kind: *kind,
                    rect,
                    text: if duplicate { tb.bold() } else { tb },
                    tone,
                    emphasis: duplicate,
                });
            }
            Piece::ArrowEnd | Piece::Nothing => {}
        }

        // Spans: the tag belongs to the lane of `from`.
        let Some(lane) = lane_for(e.from) else {
            continue;
        };
        let x = frame.x(lane);
        match &e.tag {
            Some(Tag::Paused { until_ms }) => {
                paused.entry(lane).or_insert((i, *until_ms));
            }
            Some(Tag::Resumed) => {
                if let Some((from, until_ms)) = paused.remove(&lane) {
                    spans.push(Span {
                        lane: Some(lane),
                        kind: SpanKind::Paused { until_ms },
                        from_row: from,
                        to_row: Some(i),
                        rect: Rect::new(x - WIDE_HALF, ys[from], x + WIDE_HALF, y),
                        tone: Tone::Infra,
                    });
                }
            }
            Some(Tag::Crashed) => {
                down.entry(lane).or_insert(i);
            }
            Some(Tag::Restarted { .. }) => {
                if let Some(from) = down.remove(&lane) {
                    spans.push(Span {
                        lane: Some(lane),
                        kind: SpanKind::Down,
                        from_row: from,
                        to_row: Some(i),
                        rect: Rect::new(x - WIDE_HALF, ys[from], x + WIDE_HALF, y),
                        tone: Tone::Infra,
                    });
                }
            }
            Some(Tag::Believes { token }) => {
                believes.entry(lane).or_insert((i, *token));
            }
            Some(Tag::StopsBelieving) => {
                if let Some((from, token)) = believes.remove(&lane) {
                    belief_spans.push((lane, from, Some(i)));
                    spans.push(Span {
                        lane: Some(lane),
                        kind: SpanKind::Believes { token },
                        from_row: from,
                        to_row: Some(i),
                        rect: Rect::new(x + BAR_NEAR, ys[from], x + BAR_FAR, y),
                        tone: tone_of_lane(lane).unwrap_or(Tone::Infra),
                    });
                }
            }
            Some(Tag::ServiceGrants { holder, token }) => {
                let key = (lane, holder.clone());
                if !holds.contains_key(&key) {
                    let slot = holds.keys().filter(|(l, _)| *l == lane).count();
                    holds.insert(key, (i, *token, slot));
                }
            }
            Some(Tag::ServiceFrees { holder, reason }) => {
                // The record may have been made by another node of the same service (a consensus
                // leader that has since crashed): close it wherever it is.
                let key = if holds.contains_key(&(lane, holder.clone())) {
                    Some((lane, holder.clone()))
                } else {
                    holds.keys().find(|(_, h)| h == holder).cloned()
                };
                if let Some(key) = key
                    && let Some((from, token, slot)) = holds.remove(&key)
                {
                    let hx = frame.x(key.0) - slot as f64 * (BAR_FAR - BAR_NEAR + 2.0);
                    spans.push(Span {
                        lane: Some(key.0),
                        kind: SpanKind::ServiceHolds {
                            holder: holder.clone(),
                            token,
                            ended: Some(*reason),
                        },
                        from_row: from,
                        to_row: Some(i),
                        rect: Rect::new(hx - BAR_FAR, ys[from], hx - BAR_NEAR, y),
                        tone: worker_by_name(holder).map_or(Tone::Infra, Tone::Worker),
                    });
                }
            }
            _ => {}
        }
    }

    // Spans still open at the last row shown.
    for (lane, (from, until_ms)) in paused {
        let x = frame.x(lane);
        spans.push(Span {
            lane: Some(lane),
            kind: SpanKind::Paused { until_ms },
            from_row: from,
            to_row: None,
            rect: Rect::new(x - WIDE_HALF, ys[from], x + WIDE_HALF, open_end),
            tone: Tone::Infra,
        });
    }
    for (lane, from) in down {
        let x = frame.x(lane);
        spans.push(Span {
            lane: Some(lane),
            kind: SpanKind::Down,
            from_row: from,
            to_row: None,
            rect: Rect::new(x - WIDE_HALF, ys[from], x + WIDE_HALF, open_end),
            tone: Tone::Infra,
        });
    }
    for (lane, (from, token)) in believes {
        let x = frame.x(lane);
        belief_spans.push((lane, from, None));
        spans.push(Span {
            lane: Some(lane),
            kind: SpanKind::Believes { token },
            from_row: from,
            to_row: None,
            rect: Rect::new(x + BAR_NEAR, ys[from], x + BAR_FAR, open_end),
            tone: tone_of_lane(lane).unwrap_or(Tone::Infra),
        });
    }
    for ((lane, holder), (from, token, slot)) in holds {
        let hx = frame.x(lane) - slot as f64 * (BAR_FAR - BAR_NEAR + 2.0);
        spans.push(Span {
            lane: Some(lane),
            tone: worker_by_name(&holder).map_or(Tone::Infra, Tone::Worker),
            kind: SpanKind::ServiceHolds {
                holder,
                token,
                ended: None,
            },
            from_row: from,
            to_row: None,
            rect: Rect::new(hx - BAR_FAR, ys[from], hx - BAR_NEAR, open_end),
        });
    }

    // Overlapping beliefs (the danger zone), by simulated time as the verdict measures them.
    let time_at = |row: Option<usize>| match row {
        Some(r) => events[r].time_ms,
        None => rows.last().map_or(0, |r| r.time_ms),
    };
    let mut sorted = belief_spans.clone();
    sorted.sort_by_key(|&(lane, from, _)| (from, lane));
    let mut overlaps: Vec<(usize, usize, Option<usize>, usize, usize)> = Vec::new();
    for (k, a) in sorted.iter().enumerate() {
        for b in &sorted[k + 1..] {
            if a.0 == b.0 {
                continue;
            }
            let (from_t, to_t) = (
                time_at(Some(a.1)).max(time_at(Some(b.1))),
                time_at(a.2).min(time_at(b.2)),
            );
            if from_t < to_t {
                let from_row = a.1.max(b.1);
                let to_row = match (a.2, b.2) {
                    (Some(x), Some(y)) => Some(x.min(y)),
                    (Some(x), None) | (None, Some(x)) => Some(x),
                    (None, None) => None,
                };
                overlaps.push((from_row, a.0, to_row, a.0, b.0));
            }
        }
    }

    // Footers, legend, size.
    let content_bottom = rows
        .iter()
        .map(|r| r.bottom)
        .chain(notes.iter().map(|n| n.rect.y1))
        .chain(spans.iter().map(|s| s.rect.y1))
        .chain(arrows.iter().map(|a| a.tip.y))
        .fold(origin, f64::max);
    let footer_top = content_bottom + 24.0;
    for (i, lane) in lanes_out.iter_mut().enumerate() {
        let (footer, footer_box) = lanes::header(&lane.name, lane.role, frame.x(i), footer_top);
        lane.footer = footer;
        lane.footer_box = footer_box;
    }
    let footer_bottom = footer_top + lanes::header_height();

    let mut right = frame.xs.last().copied().unwrap_or(area_left) + MIN_GAP / 2.0;
    for b in lanes_out
        .iter()
        .flat_map(|l| [l.header_box, l.footer_box])
        .chain(arrows.iter().map(|a| a.label.rect))
        .chain(notes.iter().map(|n| n.rect))
        .chain(spans.iter().map(|s| s.rect))
        .chain(
            marks
                .iter()
                .map(|m| Rect::new(m.at.x - 12.0, m.at.y, m.at.x + 12.0, m.at.y)),
        )
    {
        right = right.max(b.x1);
    }
    let area = Rect::new(area_left, header_top, right, footer_bottom);
    for (from_row, _, to_row, a, b) in overlaps {
        let name = |lane: usize| lanes_out[lane].name.clone();
        let (first, second) = (name(a), name(b));
        let y1 = to_row.map_or(open_end, |r| ys[r]);
        spans.push(Span {
            lane: None,
            kind: SpanKind::Overlap { first, second },
            from_row,
            to_row,
            rect: Rect::new(area_left - 8.0, ys[from_row], right + 8.0, y1),
            tone: Tone::Danger,
        });
    }

    let current = options.upto_step.and_then(|_| shown.checked_sub(1));
    if let Some(row) = current {
        highlights.push(Highlight {
            row,
            kind: HighlightKind::Current,
        });
    }
    highlights.sort_by_key(|h| (h.row, h.kind as u8));

    let width = (right + MARGIN + 8.0).ceil();
    let present = legend::Present::of(&spans, &marks, current.is_some());
    let legend_top = footer_bottom + 28.0;
    let (legend, legend_bottom) = legend::place(&present, MARGIN, legend_top, width - MARGIN);
    let width = legend
        .iter()
        .map(|e| e.text.rect.x1 + MARGIN)
        .fold(width, f64::max)
        .ceil();
    let height = (legend_bottom + MARGIN).ceil();

    Layout {
        mode: options.time_mode,
        width,
        height,
        lanes: lanes_out,
        rows,
        arrows,
        notes,
        spans,
        marks,
        highlights,
        legend,
        current,
        total_steps: total,
        lifeline_top: header_bottom,
        lifeline_bottom: footer_top,
        area,
        ms_scale,
    }
}

/// Stand-in footer text until the footers are placed.
fn header_clone_placeholder() -> [TextBox; 2] {
    let t = TextBox::new("", 1.0, Align::Center, Point::default(), 0.0);
    [t.clone(), t]
}
