//! Builds a [`Layout`] from a trace: lanes first, then every row's height (over the whole trace, so
//! stepping never moves what is drawn), then the arrows, notes, spans and marks of the steps shown,
//! and last the footers, time marks and legend.

use lockstep_core::sort;
use std::collections::BTreeMap;

use lockstep_core::Trace;
use lockstep_core::topology::Role;
use lockstep_core::trace::{Tag, TraceEvent};

use super::frame::GUTTER_PAD;
use super::gutter::{GUTTER_TITLE, Gutter, step_list};
use super::lanes::{self, MIN_GAP};
use super::pieces::{self, Piece};
use super::place::{self, PITCH};
use super::scene::{Rows, Scene};
use super::spacing::frame_of;
use super::spans::{LaneInfo, SpanBuilder};
use super::{
    Arrow, Highlight, HighlightKind, Lane, Layout, NoteKind, Options, Row, Span, SpanKind,
    TimeMode, Tone, legend, ticks,
};
use super::{flight, fold, network};
use crate::geom::{Point, Rect};
use crate::style;
use crate::text::{self, Align, TextBox};

/// To scale, runs of at most this many events are placed again at a scale that leaves room for
/// their zooms (see `place::scale::Plan::fitted`).
const REFIT_MAX_EVENTS: usize = 1000;

/// Space around the drawing.
pub(super) const MARGIN: f64 = 24.0;
pub(super) fn build(trace: &Trace, options: &Options) -> Layout {
    let events = &trace.events;
    let total = events.len();
    let shown = options.upto_step.map_or(total, |s| s.min(total));
    // A step render has the whole run's frame (right edge, lifeline ends, size), so stepping
    // through a run never resizes the picture.
    let full = options.upto_step.is_some().then(|| {
        build(
            trace,
            &Options {
                upto_step: None,
                ..*options
            },
        )
    });
    let order = lanes::lane_order(&trace.participants, options.lane_order);
    let order = if options.lane_order == super::LaneOrder::WorkersAroundService {
        lanes::partition_order(order, &trace.participants, events)
    } else {
        order
    };
    let mut lane_of: Vec<Option<usize>> = vec![None; trace.participants.len()];
    for (lane, &node) in order.iter().enumerate() {
        lane_of[usize::from(node)] = Some(lane);
    }
    let workers = pieces::worker_indices(trace);
    let tones: Vec<Option<Tone>> = order
        .iter()
        .map(|&n| workers[usize::from(n)].map(Tone::Worker))
        .collect();
    let links = pieces::link_messages(events);
    // Long labels and notes go on two lines in logical time only: to scale, a burst's band is
    // sized for one-line labels above its first line and notes on its last.
    let two_lines = options.time_mode == TimeMode::Logical;
    let mut pieces = pieces::pieces(trace, &links, &lane_of, (options.permissive_db, two_lines));
    let folds = if options.unfold_retries {
        Vec::new()
    } else {
        fold::folds(trace)
    };
    for f in &folds {
        let lanes: Vec<usize> = f
            .events
            .iter()
            .flat_map(|&i| [events[i].from, events[i].to])
            .filter_map(|n| lane_of.get(usize::from(n)).copied().flatten())
            .collect();
        let (lo, hi) = (
            lanes.iter().copied().min().unwrap_or(0),
            lanes.iter().copied().max().unwrap_or(0),
        );
        pieces[f.first] = Piece::Note {
            lanes: (lo, hi),
            kind: NoteKind::Note,
            text: f.text.clone(),
            icon: None,
        };
        for &i in &f.events[1..] {
            pieces[i] = Piece::Nothing;
        }
    }
    let mut folded_into: Vec<Option<usize>> = vec![None; total];
    for f in &folds {
        for &i in &f.events {
            folded_into[i] = Some(f.first);
        }
    }
    let max_time = events.iter().map(|e| e.time_ms).max().unwrap_or(0);
    let gutter = Gutter {
        step_w: total.max(1).to_string().len(),
        // Room for a range, `4004–4005`.
        time_w: 2 * max_time.to_string().len() + 1,
    };
    let (frame, too_wide) = frame_of(trace, &order, &pieces, &gutter, options.permissive_db);
    // A long one-lane note that would widen the picture goes on two lines, and the lanes are
    // spaced again for it.
    let frame = if too_wide.is_empty() || !two_lines {
        frame
    } else {
        for &i in &too_wide {
            if let Piece::Note { text, .. } = &mut pieces[i] {
                *text = text::two_lines(text);
            }
        }
        frame_of(trace, &order, &pieces, &gutter, options.permissive_db).0
    };

    // Lane headers.
    let header_top = MARGIN;
    let mut lanes_out: Vec<Lane> = order
        .iter()
        .enumerate()
        .map(|(i, &n)| {
            let p = &trace.participants[usize::from(n)];
            let role = lanes::header_role(trace, n, options.permissive_db);
            let (header, header_box) = lanes::header(&p.name, role, frame.x(i), header_top);
            Lane {
                node: n,
                name: p.name.clone(),
                role: p.role,
                worker: workers[usize::from(n)],
                x: frame.x(i),
                footer: header.clone(),
                header,
                header_box,
                footer_box: header_box,
            }
        })
        .collect();
    let header_bottom = header_top + lanes::header_height();

    // Every event's line, over the whole trace.
    let origin = header_bottom + 30.0;
    let names: Vec<String> = trace.participants.iter().map(|p| p.name.clone()).collect();
    let mut axis = place::scale::Plan::new(events, &names, options.time_mode, &folded_into);
    let place_on = |axis: &place::scale::Plan| {
        place::place(&place::Input {
            events,
            links: &links,
            pieces: &pieces,
            frame: &frame,
            lanes: order.len(),
            mode: options.time_mode,
            axis,
            folded_into: &folded_into,
            origin,
        })
    };
    let mut placed = place_on(&axis);
    // To scale, the zooms' strips stop the clock: the scale gives up the room they take, so the
    // picture is no taller than its budget (three passes at most; long runs are placed once).
    for _ in 0..if events.len() <= REFIT_MAX_EVENTS {
        3
    } else {
        0
    } {
        let lines: Vec<(f64, u64)> = placed.lines.iter().map(|l| (l.y, l.time_ms)).collect();
        let Some(lower) = axis.fitted(&lines, &placed.breaks) else {
            break;
        };
        axis = lower;
        placed = place_on(&axis);
    }
    let ms_scale = axis.ms_scale;
    network::give_back_jump_room(&mut placed.notes, events);
    let ys: Vec<f64> = (0..total).map(|i| placed.y(i)).collect();

    // Rows shown; the first row shown on each line carries the line's gutter label.
    let mut steps_on: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    // A folded step is named by its fold's note, not in the gutter (only the fold's first,
    // which draws the note).
    // Its time column spans every step on it, folded ones too.
    let mut times_on: BTreeMap<usize, (u64, u64)> = BTreeMap::new();
    for i in 0..shown {
        let t = events[i].time_ms;
        let span = times_on.entry(placed.line_of[i]).or_insert((t, t));
        *span = (span.0.min(t), span.1.max(t));
        if folded_into[i].is_none_or(|f| f == i) {
            steps_on.entry(placed.line_of[i]).or_default().push(i + 1);
        }
    }
    let rows: Vec<Row> = (0..shown)
        .map(|i| {
            let e = &events[i];
            let y = ys[i];
            let line = placed.line_of[i];
            let drawn = placed.labels[i]
                .as_ref()
                .map(|t| t.rect)
                .or(placed.notes[i].as_ref().map(|n| n.0));
            let (top, bottom) = match drawn {
                Some(r) => (r.y0.min(y - PITCH / 2.0), r.y1.max(y + PITCH / 2.0)),
                None => (y - PITCH / 2.0, y + PITCH / 2.0),
            };
            let steps = steps_on.get(&line).map_or(&[][..], Vec::as_slice);
            let gutter_box = if steps.first() == Some(&(i + 1)) {
                let time = times_on
                    .get(&line)
                    .copied()
                    .unwrap_or((e.time_ms, e.time_ms));
                frame.gutter(&gutter.text(&step_list(steps), time), y)
            } else {
                TextBox::empty(Point::new(frame.gutter_right, y))
            };
            Row {
                step: i + 1,
                event: i,
                time_ms: e.time_ms,
                kind: e.kind,
                y,
                line,
                top,
                bottom,
                gutter: gutter_box,
                label: e.label.clone(),
                explanation: e.explanation.clone(),
            }
        })
        .collect();
    // The steps on one line share its extent (a round's label over its first step's arrow is
    // the round's): the current step's outline is as tall for each, and none runs through the
    // words of another on its line.
    let mut rows = rows;
    let mut extent: BTreeMap<usize, (f64, f64)> = BTreeMap::new();
    for r in &rows {
        let e = extent.entry(r.line).or_insert((r.top, r.bottom));
        *e = (e.0.min(r.top), e.1.max(r.bottom));
    }
    for r in &mut rows {
        if let Some(&(top, bottom)) = extent.get(&r.line) {
            (r.top, r.bottom) = (top, bottom);
        }
    }
    let y_end = rows.iter().map(|r| r.y).fold(origin, f64::max);
    // Open spans run a little past the last row shown.
    let open_end = y_end + PITCH / 2.0;

    // Arrows, notes and marks; spans from the tags.
    let mut scene = Scene::default();
    // Each round's sends (by its leader's event), in order.
    let mut rounds: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for (i, p) in pieces.iter().enumerate() {
        if let Piece::Arrow { group: Some(g), .. } = p {
            rounds.entry(*g).or_default().push(i);
        }
    }
    let row_info = Rows {
        rounds: &rounds,
        events,
        links: &links,
        ys: &ys,
        placed: &placed,
        duplicate_replies: &pieces::duplicate_replies(events),
        session_keepalives: &pieces::session_keepalives(trace, events),
        shown,
        y_end,
        tones: &tones,
    };
    let holders: BTreeMap<String, Tone> = trace
        .participants
        .iter()
        .zip(&workers)
        .filter_map(|(p, w)| w.map(|w| (p.name.clone(), Tone::Worker(w))))
        .collect();
    let lane_info = lanes_out
        .iter()
        .zip(&tones)
        .map(|(l, &tone)| LaneInfo {
            tone,
            consensus: l.role == Role::ConsensusNode,
        })
        .collect();
    let mut span_builder = SpanBuilder::new(&frame, &ys, lane_info, holders);
    for i in 0..shown {
        let e = &events[i];
        match &pieces[i] {
            Piece::Arrow {
                from, to, group, ..
            } => scene.arrow(&frame, &row_info, i, (*from, *to), *group),
            Piece::Note {
                lanes,
                kind,
                text,
                icon,
            } => scene.note(&frame, &row_info, i, (lanes, *kind, text, *icon)),
            Piece::ArrowEnd | Piece::Nothing => {}
        }
        // A tag belongs to the lane of the event's `from`.
        if let (Some(tag), Some(lane)) =
            (&e.tag, lane_of.get(usize::from(e.from)).copied().flatten())
        {
            span_builder.observe(i, lane, tag);
        }
    }
    let last_time = rows.last().map_or(0, |r| r.time_ms);
    let time_of = move |row: Option<usize>| match row {
        Some(r) => events[r].time_ms,
        None => last_time,
    };
    let (mut spans, overlaps) = span_builder.finish(open_end, time_of);
    // A fan-out whose first arrow is drawn late: another of its arrows (from the same point)
    // carries the group's label.
    for g in 0..scene.arrows.len() {
        let a = &scene.arrows[g];
        let leader = a.send_row;
        if a.group.is_some()
            || !matches!(pieces[leader], Piece::Arrow { group: Some(x), .. } if x == leader)
        {
            continue;
        }
        if let (Some(label), Some(k)) = (
            placed.labels[leader].clone(),
            scene.arrows.iter().position(|b| b.group == Some(leader)),
        ) {
            // Over the arrow that carries it, on that arrow's own line (a fan-in's arrows leave
            // their senders on different lines).
            let b = &scene.arrows[k];
            let home = frame.arrow_label(b.from_lane, b.to_lane, &label.text, b.start.y);
            let from_leader = matches!(pieces[leader], Piece::Arrow { from, .. }
                if frame.x(from) == b.start.x && ys[leader] == b.start.y);
            if from_leader {
                // From the leader's own point (a fan-out): the label stays where it was placed.
                scene.arrows[k].label = label;
                continue;
            }
            // Where that arrow has no room for it, the leader's own late label names it (and
            // a leader drawn late keeps its label on its stub).
            if placed.late[leader].is_none()
                && network::clear_of(&home.rect, &scene.arrows, &scene.notes, k)
            {
                scene.arrows[k].label = home;
            }
        }
    }
    let Scene {
        mut arrows,
        notes,
        mut marks,
        mut highlights,
    } = scene;
    // A round still being sent: its label names only the members sent so far (in the whole
    // round's box: the picture does not move as it completes). Only the arrow carrying the
    // round's label: a member in flight carries its own words.
    let round_label = |g: usize| match &pieces[g] {
        Piece::Arrow { label, .. } => label.as_str(),
        _ => "",
    };
    for a in &mut arrows {
        if let Some(g) = a.group.filter(|&g| {
            a.label_final >= shown && !a.label.text.is_empty() && a.label.text == round_label(g)
        }) {
            let round = rounds.get(&g).map_or(&[][..], Vec::as_slice);
            let text = pieces::label_so_far(trace, round, shown, &a.label.text);
            a.label = a.label.with_text(text);
        }
    }
    // A step render draws the whole run's stubs of the messages arrived so far (whether a stub is
    // needed depends on arrows that may come later), so stepping never changes one.
    let flights = match &full {
        Some(f) => f
            .flights
            .iter()
            .filter(|x| x.end_row < shown)
            .cloned()
            .collect(),
        None => flight::flights(events, &arrows, &placed, &frame, &ys),
    };
    // Sender dots follow what the steps shown draw: a fan-out's arrows in flight leave its send
    // row once they arrive late (a step render draws them over its unchanging pieces).
    marks.extend(super::senders::sender_marks(&arrows, &flights, &pieces));
    let lane_of_name: BTreeMap<&str, usize> = lanes_out
        .iter()
        .enumerate()
        .map(|(i, l)| (l.name.as_str(), i))
        .collect();
    let walls = network::walls(
        (events, shown),
        &lane_of_name,
        &frame,
        (&ys, open_end),
        &arrows,
    );
    hold_level_labels(&mut rows, &arrows);
    let taken: Vec<Rect> = rows
        .iter()
        .map(|r| r.gutter.rect)
        .chain(
            marks
                .iter()
                .map(|m| Rect::new(m.at.x - 11.0, m.at.y - 11.0, m.at.x + 11.0, m.at.y + 11.0)),
        )
        .collect();
    let lane_of_event = |e: &TraceEvent| lane_of.get(usize::from(e.from)).copied().flatten();
    let jumps = network::jumps(
        events,
        shown,
        &lane_of_event,
        &frame,
        &ys,
        (&notes, &arrows, &taken),
    );

    // Footers below everything drawn.
    let content_bottom = rows
        .iter()
        .map(|r| r.bottom)
        .chain(notes.iter().map(|n| n.rect.y1))
        .chain(spans.iter().map(|s| s.rect.y1))
        .chain(arrows.iter().map(|a| a.tip.y))
        .fold(origin, f64::max);
    let footer_top = full
        .as_ref()
        .map_or(0.0, |f| f.lifeline_bottom)
        .max(content_bottom + 24.0);
    // A replica that took over says so at the bottom.
    let promoted: Vec<usize> = events[..shown]
        .iter()
        .filter(|e| matches!(e.tag, Some(Tag::FailedOver)))
        .filter_map(|e| lane_of.get(usize::from(e.from)).copied().flatten())
        .collect();
    for (i, lane) in lanes_out.iter_mut().enumerate() {
        let role = if promoted.contains(&i) {
            "master (promoted)"
        } else {
            lanes::role_line(lane.role, options.permissive_db)
        };
        let (footer, footer_box) = lanes::header_with(&lane.name, role, frame.x(i), footer_top);
        lane.footer = footer;
        lane.footer_box = footer_box;
    }
    let footer_bottom = footer_top + lanes::header_height();

    // The right edge of what is drawn, then time marks beyond it.
    let right = lanes_out
        .iter()
        .flat_map(|l| [l.header_box, l.footer_box])
        .chain(arrows.iter().map(|a| a.label.rect))
        .chain(notes.iter().map(|n| n.rect))
        .chain(spans.iter().map(|s| s.rect))
        .map(|b| b.x1)
        .chain(marks.iter().map(|m| m.at.x + 12.0))
        .fold(
            frame.xs.last().copied().unwrap_or(frame.area_left) + MIN_GAP / 2.0,
            f64::max,
        )
        .max(full.as_ref().map_or(0.0, |f| f.area.x1));
    let shown_lines = rows.iter().map(|r| r.line).max().map_or(0, |l| l + 1);
    let lines: Vec<(f64, u64)> = placed.lines[..shown_lines]
        .iter()
        .map(|l| (l.y, l.time_ms))
        .collect();
    let stretches = if ms_scale > 0.0 && !rows.is_empty() {
        ticks::stretches(&lines, &axis, &placed.breaks, right + 12.0)
    } else {
        Vec::new()
    };
    let ticks = if ms_scale > 0.0 {
        ticks::ticks(&lines, ms_scale, right + 12.0, &stretches)
    } else {
        Vec::new()
    };
    let axis_parts = if ms_scale > 0.0 {
        ticks::axis_parts(&lines, &stretches)
    } else {
        Vec::new()
    };
    let tick_right = ticks
        .iter()
        .filter_map(|t| t.label.as_ref().map(|l| l.rect.x1))
        .chain(
            stretches
                .iter()
                .filter_map(|s| s.label.as_ref().map(|l| l.rect.x1)),
        )
        .fold(right, f64::max);
    // To scale, room for the widest time label any step of the run may show (which ticks and
    // zooms a step shows depends on the step), so stepping never widens the picture.
    let tick_right = if ms_scale > 0.0 {
        tick_right.max(ticks::widest_label_right(
            &stretches,
            max_time,
            right + 12.0,
        ))
    } else {
        tick_right
    };
    for o in overlaps {
        let y1 = o.to_row.map_or(open_end, |r| ys[r]);
        spans.push(Span {
            lane: None,
            kind: SpanKind::Overlap {
                first: lanes_out[o.first].name.clone(),
                second: lanes_out[o.second].name.clone(),
            },
            from_row: o.from_row,
            to_row: o.to_row,
            rect: Rect::new(frame.area_left - 8.0, ys[o.from_row], right + 8.0, y1),
            tone: Tone::Danger,
        });
    }
    // To scale, each overlap band says how long it lasts, beside the time marks.
    let mut stretches = stretches;
    let overlap_labels = if ms_scale > 0.0 {
        ticks::mark_overlaps(&spans, &mut stretches, &ticks, right + 12.0, time_of)
    } else {
        Vec::new()
    };
    let tick_right = overlap_labels
        .iter()
        .map(|b| b.rect.x1)
        .fold(tick_right, f64::max);

    let current = options.upto_step.and_then(|_| shown.checked_sub(1));
    if let Some(row) = current {
        highlights.push(Highlight {
            row,
            kind: HighlightKind::Current,
        });
    }
    sort::sort_by_key(&mut highlights, |h| (h.row, h.kind as u8));

    // The legend, in one column beside the diagram (a slide is wider than it is tall).
    let tick_right = full
        .as_ref()
        .and_then(|f| f.legend.first())
        .map_or(tick_right, |e| tick_right.max(e.swatch.x0 - 36.0));
    let width = (tick_right + MARGIN + 8.0).ceil();
    // A step render's legend names only what this step draws (the page keeps the whole run's
    // size, so stepping never resizes it).
    let present = legend::Present::of(&legend::Drawn {
        spans: &spans,
        marks: &marks,
        highlights: &highlights,
        lanes: &lanes_out,
        notes: &notes,
        folds: &folds,
        arrows: &arrows,
        flights: &flights,
        stretches: &stretches,
        walls: !walls.is_empty(),
        gates: walls.iter().any(|w| w.gate),
        step_lists: rows.iter().any(|r| r.gutter.text.contains(',')),
        jumps: !jumps.is_empty(),
        current: current.is_some(),
    });
    let legend_x = (tick_right + 36.0).ceil();
    let (legend, legend_bottom) = legend::place(&present, legend_x, header_top, legend_x);
    let width = legend
        .iter()
        .map(|e| e.text.rect.x1 + MARGIN)
        .fold(width, f64::max)
        .max(full.as_ref().map_or(0.0, |f| f.width))
        .ceil();
    let gutter_title = TextBox::new(
        GUTTER_TITLE,
        style::GUTTER_SIZE,
        Align::Right,
        Point::new(
            frame.gutter_right,
            header_bottom - text::line_height(style::ROLE_SIZE) / 2.0 - 6.0,
        ),
        GUTTER_PAD,
    );

    let mut laid = Layout {
        mode: options.time_mode,
        width,
        height: (legend_bottom.max(footer_bottom) + MARGIN)
            .ceil()
            .max(full.as_ref().map_or(0.0, |f| f.height)),
        lanes: lanes_out,
        rows,
        arrows,
        notes,
        spans,
        marks,
        highlights,
        legend,
        ticks,
        gutter_title,
        current,
        total_steps: total,
        lifeline_top: header_bottom,
        lifeline_bottom: footer_top,
        area: Rect::new(frame.area_left, header_top, right, footer_bottom),
        ms_scale,
        folds,
        stretches,
        overlap_labels,
        axis: axis_parts,
        walls,
        jumps,
        flights,
        so_far: crate::lease::SoFar::upto(events, shown),
        current_dips: super::Dips::default(),
    };
    laid.current_dips = laid
        .current
        .map_or_else(super::Dips::default, |row| laid.dips(row));
    mark_heads_on_bars(&mut laid);
    laid
}

/// Marks the delivered arrows whose heads lie on a holder's or a holding record's bar of their
/// own colour (see `Arrow::on_bar`).
fn mark_heads_on_bars(laid: &mut Layout) {
    let bars: Vec<(Rect, super::Tone)> = laid
        .spans
        .iter()
        .filter(|s| {
            matches!(
                s.kind,
                super::SpanKind::Believes { .. } | super::SpanKind::ServiceHolds { .. }
            )
        })
        .map(|s| (s.rect, s.tone))
        .collect();
    for a in laid
        .arrows
        .iter_mut()
        .filter(|a| a.end == super::ArrowEnd::Delivered)
    {
        let [tip, b0, b1] = a.head();
        let bbox = Rect::new(tip.x, tip.y, b0.x, b0.y).union(&Rect::new(b1.x, b1.y, b1.x, b1.y));
        a.on_bar = bars
            .iter()
            .any(|(r, tone)| *tone == a.tone && r.overlaps(&bbox));
    }
}

#[cfg(test)]
mod tests;

/// Widens each line's extent to hold the words of the level arrows on it: an arrival drawn where
/// it arrives ("… (sent #4)") is labelled after the rows' extents are taken, and the current
/// step's outline ran through its words (redlock-split-votes #33).
fn hold_level_labels(rows: &mut [Row], arrows: &[Arrow]) {
    // Each line's extent, once over the arrows, then given to its rows (a long run has thousands
    // of both).
    let mut held: BTreeMap<u64, (f64, f64)> = BTreeMap::new();
    for a in arrows.iter().filter(|a| a.start.y == a.tip.y) {
        let (y, r) = (a.start.y, a.label.rect);
        // Its words sit above its line, within the line's share of the gap.
        if a.label.text.is_empty() || (r.y0 + r.y1) / 2.0 > y || r.y1 < y - PITCH {
            continue;
        }
        let e = held.entry(y.to_bits()).or_insert((r.y0, r.y1));
        *e = (e.0.min(r.y0), e.1.max(r.y1));
    }
    for row in rows.iter_mut() {
        if let Some(&(top, bottom)) = held.get(&row.y.to_bits()) {
            (row.top, row.bottom) = (row.top.min(top), row.bottom.max(bottom));
        }
    }
}
