//! Parts of the timeline drawn above the notes or beside the lanes: crashes (in the gaps between
//! notes), partition walls, clock-jump breaks, and the legend's swatches.

use super::Painter;
use crate::error::RenderError;
use crate::geom::{Point, Rect};
use crate::layout::{Layout, LegendKind, SpanKind, Tone};
use crate::style::{self, Rgb};
use crate::text::{Align, TextBox};
use lockstep_core::sort;

/// A piece of a crash between notes shorter than this is left out (a sliver reads as a smudge).
const MIN_PIECE: f64 = 3.0;

/// The parts of a crash span that no note on its lane covers: the span cut into the pieces
/// between the notes, so the hatching never paints over a note's text.
pub(crate) fn visible_parts(l: &Layout, span: Rect) -> Vec<Rect> {
    let mut covering: Vec<(f64, f64)> = l
        .notes
        .iter()
        .map(|n| n.rect)
        .filter(|r| r.overlaps_x(&span, 0.0) && r.y1 > span.y0 && r.y0 < span.y1)
        .map(|r| (r.y0 - 1.0, r.y1 + 1.0))
        .collect();
    sort::sort_by(&mut covering, |a, b| a.0.total_cmp(&b.0));
    let mut pieces = Vec::new();
    let mut top = span.y0;
    for (y0, y1) in covering.into_iter().chain([(span.y1, span.y1)]) {
        let bottom = y0.min(span.y1);
        if bottom - top >= MIN_PIECE {
            pieces.push(Rect::new(span.x0, top, span.x1, bottom));
        }
        top = top.max(y1);
    }
    pieces
}

/// Crashed stretches, hatched grey, in the gaps between the notes on their lane.
pub(crate) fn crashes(p: &Painter, l: &Layout) -> Result<(), RenderError> {
    for s in l.spans.iter().filter(|s| s.kind == SpanKind::Down) {
        for r in visible_parts(l, s.rect) {
            p.fill_rect(r, style::DOWN_FILL, 0.95)?;
            p.hatch(r, style::DOWN_HATCH, 9.0, true)?;
            p.stroke_rect(r, style::DOWN_HATCH, 1)?;
        }
    }
    Ok(())
}

/// Partition walls, hatched, under the arrows (which cross them).
pub(crate) fn walls(p: &Painter, l: &Layout) -> Result<(), RenderError> {
    for w in &l.walls {
        let r = w.rect;
        if w.gate {
            // A gate: the wall's edges run on beside the message passing through, so the wall
            // still reads as one.
            for x in [r.x0, r.x1] {
                p.line(
                    &[Point::new(x, r.y0), Point::new(x, r.y1)],
                    style::PARTITION,
                    2,
                    1.0,
                )?;
            }
            continue;
        }
        // Projector strength: a mid-tone fill under the hatching and a 2 px edge.
        p.fill_rect(r, style::PARTITION_FILL, 1.0)?;
        p.hatch(r, style::PARTITION, 8.0, false)?;
        p.stroke_rect(r, style::PARTITION, 2)?;
        // A partition not healed by the last row shown goes on: an arrow at its foot, so its
        // end never reads as a healing.
        let lowest = l
            .walls
            .iter()
            .filter(|o| o.lanes == w.lanes && o.from_row == w.from_row)
            .all(|o| o.rect.y1 <= r.y1);
        if w.to_row.is_none() && lowest {
            let c = (r.x0 + r.x1) / 2.0;
            p.polygon(
                &[
                    Point::new(r.x0 - 5.0, r.y1),
                    Point::new(r.x1 + 5.0, r.y1),
                    Point::new(c, r.y1 + 14.0),
                ],
                style::PARTITION,
                1.0,
            )?;
        }
    }
    Ok(())
}

/// The break a clock jump makes on a lifeline: two bold slanted strokes across a gap in it,
/// wide enough to see on a slide.
fn jump_break(p: &Painter, at: Point) -> Result<(), RenderError> {
    p.fill_rect(
        Rect::new(at.x - 12.0, at.y - 6.0, at.x + 12.0, at.y + 6.0),
        style::BACKGROUND,
        1.0,
    )?;
    for dy in [-5.0, 5.0] {
        p.line(
            &[
                Point::new(at.x - 12.0, at.y + dy + 4.0),
                Point::new(at.x + 12.0, at.y + dy - 4.0),
            ],
            style::JUMP,
            // Not 3 px: that width is kept for arrow shafts, so arrows can be counted.
            4,
            1.0,
        )?;
    }
    Ok(())
}

/// Clock jumps: the break and how far the clock stepped.
pub(crate) fn jumps(p: &Painter, l: &Layout) -> Result<(), RenderError> {
    for j in &l.jumps {
        jump_break(p, j.at)?;
        if let Some(label) = &j.label {
            p.boxed_text(&label.clone().bold(), style::JUMP)?;
        }
    }
    Ok(())
}

/// The band behind a row paid twice: a danger tint with solid edges along its top and bottom, so
/// it never reads as the danger band (whose solid bar is at its left).
pub(crate) fn duplicate_row(p: &Painter, r: Rect) -> Result<(), RenderError> {
    p.fill_rect(r, style::DUPLICATE_ROW, style::DUPLICATE_ROW_ALPHA)?;
    let e = style::DUPLICATE_ROW_EDGE;
    p.fill_rect(Rect::new(r.x0, r.y0, r.x1, r.y0 + e), style::DANGER, 0.9)?;
    p.fill_rect(Rect::new(r.x0, r.y1 - e, r.x1, r.y1), style::DANGER, 0.9)
}

/// Length of a dash (and of the gap after it) on a dashed outline, in px.
const DASH: f64 = 8.0;

/// A rectangle's outline in dashes, 2 px wide (3 px is kept for arrow shafts): a header that warns.
pub(crate) fn dashed_rect(p: &Painter, r: Rect, c: Rgb) -> Result<(), RenderError> {
    let corners = [
        Point::new(r.x0, r.y0),
        Point::new(r.x1, r.y0),
        Point::new(r.x1, r.y1),
        Point::new(r.x0, r.y1),
    ];
    for i in 0..4 {
        dashed_line(p, corners[i], corners[(i + 1) % 4], c, DASH)?;
    }
    Ok(())
}

/// A line from `a` to `b` in dashes `dash` long, 2 px wide.
fn dashed_line(p: &Painter, a: Point, b: Point, c: Rgb, dash: f64) -> Result<(), RenderError> {
    p.dashed(a, b, c, dash)
}

/// Gaps of background along the line `a`-`b` (drawn over a shaft, they make it dashed).
pub(crate) fn gaps(p: &Painter, a: Point, b: Point) -> Result<(), RenderError> {
    let len = (b.x - a.x).hypot(b.y - a.y);
    let at = |d: f64| Point::new(a.x + (b.x - a.x) * d / len, a.y + (b.y - a.y) * d / len);
    // From past the sender's bars to short of the tip's mark.
    let mut t = 24.0;
    while t + 5.0 < len - 8.0 {
        p.line(&[at(t), at(t + 5.0)], style::BACKGROUND, 5, 1.0)?;
        t += 12.0;
    }
    Ok(())
}

/// Messages drawn level where they arrive: on the send row, a dashed stub leaving the sender
/// (the message went into the network here) under the send's label, with an open end.
pub(crate) fn flights(p: &Painter, l: &Layout) -> Result<(), RenderError> {
    for f in &l.flights {
        let c = style::tone(f.tone);
        dashed_line(p, f.start, f.tip, c, 5.0)?;
        p.boxed_text(&f.label, style::TEXT)?;
    }
    Ok(())
}

/// The swatch of a legend entry.
pub(crate) fn swatch(p: &Painter, kind: LegendKind, s: Rect) -> Result<(), RenderError> {
    let c = s.center();
    let worker0 = style::tone(Tone::Worker(0));
    match kind {
        LegendKind::Believes => {
            p.fill_rect(Rect::new(c.x - 5.0, s.y0, c.x + 5.0, s.y1), worker0, 0.9)?;
        }
        LegendKind::ServiceHolds => {
            let r = Rect::new(c.x - 5.0, s.y0, c.x + 5.0, s.y1);
            p.fill_rect(r, worker0, 0.45)?;
            p.stroke_rect(r, worker0, 1)?;
        }
        LegendKind::Overlap => {
            p.fill_rect(s, style::DANGER, style::DANGER_BAND_ALPHA)?;
            p.hatch(s, style::DANGER, style::DANGER_HATCH_STEP, false)?;
            p.fill_rect(Rect::new(s.x0, s.y0, s.x0 + 6.0, s.y1), style::DANGER, 0.9)?;
        }
        LegendKind::RefusedRow => {
            p.fill_rect(s, style::REFUSED_ROW, style::REFUSED_ROW_ALPHA)?;
        }
        LegendKind::DuplicateRow => duplicate_row(p, s)?,
        LegendKind::Paused => {
            p.fill_rect(s, style::FROZEN_FILL, style::FROZEN_FILL_ALPHA)?;
            p.hatch(s, style::FROZEN_HATCH, 7.0, false)?;
            p.stroke_rect(s, style::FROZEN_HATCH, 1)?;
        }
        LegendKind::Down => {
            p.fill_rect(s, style::DOWN_FILL, 0.95)?;
            p.hatch(s, style::DOWN_HATCH, 7.0, true)?;
            p.stroke_rect(s, style::DOWN_HATCH, 1)?;
        }
        LegendKind::Partition => {
            let w = Rect::new(c.x - 8.0, s.y0, c.x + 8.0, s.y1);
            p.fill_rect(w, style::PARTITION_FILL, 1.0)?;
            p.hatch(w, style::PARTITION, 8.0, false)?;
            p.stroke_rect(w, style::PARTITION, 2)?;
        }
        LegendKind::HolderNote => note_swatch(p, s, style::NOTE_FILL, worker0)?,
        LegendKind::PlainNote => note_swatch(p, s, style::NOTE_FILL, style::NOTE_BORDER)?,
        LegendKind::ClockJump => {
            p.line(
                &[Point::new(c.x, s.y0), Point::new(c.x, s.y1)],
                style::MUTED,
                1,
                1.0,
            )?;
            jump_break(p, c)?;
        }
        LegendKind::Zoom | LegendKind::Stack | LegendKind::Break => {
            super::axis::swatch(p, kind, s)?
        }
        LegendKind::Mark(k) => p.mark(k, c, style::INFRA)?,
        LegendKind::SessionRenewed => p.session_renewal(c)?,
        LegendKind::PermissiveDb => {
            p.fill_rect(s, style::PERMISSIVE_FILL, 1.0)?;
            dashed_rect(p, s, style::PERMISSIVE_BORDER)?;
        }
        LegendKind::NoToken => {
            // A write's shaft (2 px: 3 px is kept for real arrows) under a danger-coloured "NO".
            p.line(
                &[Point::new(s.x0, s.y1), Point::new(s.x1, s.y1)],
                worker0,
                2,
                1.0,
            )?;
            let bang = TextBox::new("NO", style::GUTTER_SIZE - 3.0, Align::Center, c, 1.0).bold();
            p.boxed_text(&bang, style::DANGER)?;
        }
        LegendKind::GlobalNote => note_swatch(p, s, style::GLOBAL_FILL, style::GLOBAL_BORDER)?,
        LegendKind::FaultNote => note_swatch(p, s, style::FAULT_FILL, style::FAULT_BORDER)?,
        LegendKind::Fold => fold_box(p, s)?,
        LegendKind::FlightStub => {
            dashed_line(
                p,
                Point::new(s.x0, c.y),
                Point::new(s.x1, c.y),
                worker0,
                5.0,
            )?;
        }
        LegendKind::Slanted => {
            p.line(
                &[Point::new(s.x0, s.y0 + 2.0), Point::new(s.x1, s.y1 - 2.0)],
                worker0,
                2,
                1.0,
            )?;
        }
        LegendKind::Gate => {
            // The wall's edges with a message passing between them, as drawn.
            for x in [c.x - 8.0, c.x + 8.0] {
                p.line(
                    &[Point::new(x, s.y0), Point::new(x, s.y1)],
                    style::PARTITION,
                    2,
                    1.0,
                )?;
            }
            p.line(
                &[Point::new(s.x0, c.y), Point::new(s.x1, c.y)],
                worker0,
                2,
                1.0,
            )?;
        }
        LegendKind::StepList => {
            // As large as the step column's own text (11 px vanished on a slide), as far as the
            // swatch is wide: wider, its "#" was cut by the legend's box.
            let size = style::GUTTER_SIZE.min(
                style::GUTTER_SIZE * s.width() / crate::text::width("#4,6", style::GUTTER_SIZE),
            );
            let list = TextBox::new("#4,6", size, Align::Center, c, 1.0);
            p.text(&list, style::TEXT)?;
        }
        LegendKind::Current => {
            // As drawn: the step column's yellow marker and the row's dark outline.
            p.fill_rect(Rect::new(s.x0, s.y0, c.x, s.y1), style::CURRENT, 1.0)?;
            p.frame_rect(s, style::CURRENT_OUTLINE, style::CURRENT_OUTLINE_WIDTH)?;
            p.fill_rect(
                Rect::new(s.x0, s.y0, s.x0 + 6.0, s.y1),
                style::CURRENT_OUTLINE,
                1.0,
            )?;
        }
    }
    Ok(())
}

/// A note's box in a legend swatch: its fill and a 2 px border.
fn note_swatch(p: &Painter, s: Rect, fill: Rgb, border: Rgb) -> Result<(), RenderError> {
    p.fill_rect(s, fill, 1.0)?;
    p.stroke_rect(s, border, 2)
}

/// A fold's note: a note box with the right edges of the folded rounds stacked behind it, all
/// inside `r` (its padding leaves room), so the stack never reaches past the note's own box.
pub(crate) fn fold_box(p: &Painter, r: Rect) -> Result<(), RenderError> {
    let d = FOLD_STACK;
    for k in [0.0, 1.0] {
        let behind = Rect::new(r.x0 + (2.0 - k) * d, r.y0, r.x1 - k * d, r.y1);
        p.fill_rect(behind, style::NOTE_FILL, 1.0)?;
        p.stroke_rect(behind, style::NOTE_BORDER, 1)?;
    }
    let front = Rect::new(r.x0, r.y0, r.x1 - 2.0 * d, r.y1);
    p.fill_rect(front, style::NOTE_FILL, 1.0)?;
    p.stroke_rect(front, style::NOTE_BORDER, 2)
}

/// How far each folded round's edge shows behind a fold's note.
pub(crate) const FOLD_STACK: f64 = 3.0;

/// The current step's outline: its closed path `points` (see `Layout::current_outline`), every
/// edge a `width` px bar centred on it, the corners squared by the bars' overlap.
pub(super) fn outline(p: &Painter, points: &[Point], width: f64) -> Result<(), RenderError> {
    let half = width / 2.0;
    for (a, b) in points.iter().zip(points.iter().cycle().skip(1)) {
        let bar = Rect::new(
            a.x.min(b.x) - half,
            a.y.min(b.y) - half,
            a.x.max(b.x) + half,
            a.y.max(b.y) + half,
        );
        p.fill_rect(bar, style::CURRENT_OUTLINE, 1.0)?;
    }
    Ok(())
}
