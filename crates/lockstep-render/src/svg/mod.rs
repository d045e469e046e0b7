//! The timeline as SVG, drawn with plotters' SVG backend from a [`Layout`]: a title block above
//! it (title, summary, the current step's explanation) and a verdict footer below it.

mod axis;
mod extras;
mod paint;
mod verdict;

use verdict::so_far_text;
pub(crate) use verdict::{so_far_counts, verdict_text};
pub(crate) mod patterns;
pub mod stepped;

use lockstep_core::{Run, Scenario, Trace, Verdict};
use plotters::prelude::*;

use crate::error::{RenderError, check_step};
use crate::geom::{Point, Rect};
use crate::layout::{
    self, ArrowEnd, HighlightKind, Layout, MarkKind, NoteKind, Options, SpanKind, TimeMode, Tone,
};
use crate::style::{self, Rgb};
use crate::text::{self, Align, TextBox};

pub(crate) use paint::Painter;

/// Space around the page.
const MARGIN: f64 = 24.0;
/// The narrowest page, so the title block has room.
const MIN_WIDTH: f64 = 960.0;

/// The narrowest the footer's lines wrap to (see [`Caption::seen_width`]).
const FOOTER_MIN_WIDTH: f64 = 240.0;

/// Lines of the current step's explanation above a step render (longer ones end in "…").
const STEP_LINES: usize = 3;

/// `text` cut to at most `chars` characters, ending in "…" if cut.
fn clip(text: &str, chars: usize) -> String {
    if text.chars().count() <= chars {
        return text.to_string();
    }
    let mut out: String = text.chars().take(chars.saturating_sub(1)).collect();
    out.push('…');
    out
}

/// What the picture is about: drawn above and below the timeline.
#[derive(Debug, Clone, PartialEq)]
pub struct Caption {
    pub title: String,
    /// The scenario's id, shown under the title.
    pub name: String,
    /// One or two sentences on what happens.
    pub summary: String,
    /// The verdict of the whole run, for the footer.
    pub verdict: Option<Verdict>,
    /// How much of the page's width a reader sees at once from its left edge, in the page's px
    /// (a phone's window, a projector's screen, when the picture is wider): the footer's lines
    /// wrap to it, so the verdict reads whole there rather than running off the window's right
    /// edge. None: they wrap to the page's width.
    pub seen_width: Option<f64>,
}

impl Caption {
    /// A caption with only a title.
    pub fn titled(title: impl Into<String>) -> Self {
        Caption {
            title: title.into(),
            name: String::new(),
            summary: String::new(),
            verdict: None,
            seen_width: None,
        }
    }

    /// The caption of a scenario's run: its title, id, summary and verdict.
    pub fn for_run(scenario: &Scenario, run: &Run) -> Self {
        Caption {
            title: scenario.title.clone(),
            name: scenario.name.clone(),
            summary: scenario.summary.clone(),
            verdict: Some(run.verdict.clone()),
            seen_width: None,
        }
    }
}

/// A line of text on the page, with its colour.
#[derive(Debug, Clone, PartialEq)]
pub struct PageText {
    pub text: TextBox,
    pub color: Rgb,
}

/// The page around a timeline: its size, where the layout goes, and the title and footer text.
#[derive(Debug, Clone, PartialEq)]
pub struct Page {
    pub width: f64,
    pub height: f64,
    /// The layout is drawn this far down.
    pub layout_dy: f64,
    pub header: Vec<PageText>,
    pub footer: Vec<PageText>,
    /// The verdict's symbol, beside its headline.
    pub verdict_mark: Option<(MarkKind, Point)>,
}

/// Writes wrapped lines of text down a column.
pub(crate) struct Column<'a> {
    pub out: &'a mut Vec<PageText>,
    pub x: f64,
    pub width: f64,
    pub y: f64,
}

impl Column<'_> {
    /// Writes `text_in` wrapped to `width` from `(x, y)` into `out`; returns the y below it.
    #[allow(clippy::too_many_arguments)]
    pub fn write_at(
        out: &mut Vec<PageText>,
        x: f64,
        width: f64,
        y: f64,
        text_in: &str,
        size: f64,
        bold: bool,
        color: Rgb,
    ) -> f64 {
        let mut col = Column { out, x, width, y };
        col.write(text_in, size, bold, color);
        col.y
    }

    pub fn write(&mut self, text_in: &str, size: f64, bold: bool, color: Rgb) {
        let chars = ((self.width / (size * text::CHAR_EM)).floor() as usize).max(8);
        for line in text::wrap(text_in, chars) {
            let h = text::line_height(size);
            let mut t = TextBox::new(
                line,
                size,
                Align::Left,
                Point::new(self.x, self.y + h / 2.0),
                0.0,
            );
            if bold {
                t = t.bold();
            }
            self.out.push(PageText { text: t, color });
            self.y += h;
        }
    }
}

impl Page {
    /// Places the title block and the footer around `layout`.
    pub fn new(layout: &Layout, caption: &Caption) -> Page {
        let width = layout.width.max(MIN_WIDTH).ceil();
        let text_w = width - 2.0 * MARGIN;
        let mut header = Vec::new();
        let mut col = Column {
            out: &mut header,
            x: MARGIN,
            width: text_w,
            y: MARGIN,
        };
        col.write(&caption.title, style::TITLE_SIZE, true, style::TEXT);
        col.y += 4.0;
        let mode = match layout.mode {
            TimeMode::Logical => "logical time: one row per event".to_string(),
            TimeMode::ToScale => axis::what_the_axis_does(layout),
        };
        let sub = if caption.name.is_empty() {
            format!("{mode} · {} steps", layout.total_steps)
        } else {
            format!("{} · {mode} · {} steps", caption.name, layout.total_steps)
        };
        col.write(&sub, style::SUBTITLE_SIZE, false, style::MUTED);
        if !caption.summary.is_empty() {
            col.y += 8.0;
            col.write(&caption.summary, style::BODY_SIZE, false, style::TEXT);
        }
        if let Some(row) = layout.current.and_then(|r| layout.rows.get(r)) {
            col.y += 10.0;
            let head = format!(
                "Step {} of {} at {} ms: {}",
                row.step, layout.total_steps, row.time_ms, row.label
            );
            // A fixed block (one headline, STEP_LINES of explanation), so every step of a run
            // has the same page size.
            let chars = ((text_w / (style::BODY_SIZE * text::CHAR_EM)).floor() as usize).max(8);
            col.write(&clip(&head, chars), style::BODY_SIZE, true, style::TEXT);
            let mut lines = text::wrap(&row.explanation, chars);
            if lines.len() > STEP_LINES {
                lines.truncate(STEP_LINES);
                let last = &mut lines[STEP_LINES - 1];
                *last = clip(&format!("{last} …"), chars);
            }
            for line in &lines {
                col.write(line, style::BODY_SIZE, false, style::TEXT);
            }
            col.y += (STEP_LINES - lines.len()) as f64 * text::line_height(style::BODY_SIZE);
        }
        let layout_dy = (col.y + 8.0 - layout::MARGIN_TOP).ceil();
        let mut footer = Vec::new();
        let mut verdict_mark = None;
        let icon_w = 34.0;
        // No narrower than a short sentence, however little of the page is seen.
        let seen_w = caption.seen_width.map_or(f64::INFINITY, |w| {
            (w - 2.0 * MARGIN - icon_w).max(FOOTER_MIN_WIDTH)
        });
        let mut col = Column {
            out: &mut footer,
            x: MARGIN + icon_w,
            width: (text_w - icon_w).min(seen_w),
            y: layout_dy + layout.height,
        };
        if let Some(v) = &caption.verdict {
            let h = text::line_height(style::VERDICT_SIZE);
            let icon_at = Point::new(MARGIN + 12.0, col.y + h / 2.0);
            let (headline, color, mark, lines) = if layout.rows.len() < layout.total_steps {
                // A step render tells only what has happened so far, never the ending.
                let (headline, color, mark, mut lines) = so_far_text(layout);
                // As many lines as the whole run's verdict has, so every step of a run has the
                // same page size.
                lines.resize(verdict_text(v).3.len().max(lines.len()), String::new());
                (headline, color, mark, lines)
            } else {
                verdict_text(v)
            };
            verdict_mark = Some((mark, icon_at));
            col.write(&headline, style::VERDICT_SIZE, true, color);
            col.y += 4.0;
            for line in lines {
                if line.is_empty() {
                    col.y += text::line_height(style::BODY_SIZE);
                } else {
                    col.write(&line, style::BODY_SIZE, false, style::TEXT);
                }
            }
            if layout.rows.len() < layout.total_steps {
                let note = format!(
                    "(the run so far; this picture stops at step {} of {})",
                    layout.rows.len(),
                    layout.total_steps
                );
                col.write(&note, style::BODY_SIZE, false, style::MUTED);
            } else if layout.current.is_some() {
                // The last step: the same footer height as every step before it.
                col.write(
                    "(the verdict of the whole run, reached at its last step)",
                    style::BODY_SIZE,
                    false,
                    style::MUTED,
                );
            }
        }
        let height = (col.y + MARGIN).ceil();
        Page {
            width,
            height,
            layout_dy,
            header,
            footer,
            verdict_mark,
        }
    }

    /// Every label box on the page: the title block, the layout's labels (moved into place) and
    /// the footer.
    pub fn label_boxes(&self, layout: &Layout) -> Vec<Rect> {
        let mut out: Vec<Rect> = self.header.iter().map(|t| t.text.rect).collect();
        out.extend(
            layout
                .label_boxes()
                .iter()
                .map(|r| r.shifted(0.0, self.layout_dy)),
        );
        out.extend(self.footer.iter().map(|t| t.text.rect));
        out
    }
}

/// Lays out `trace` and draws it as an SVG document. Fails if `options.upto_step` is past the end.
pub fn timeline_svg(
    trace: &Trace,
    caption: &Caption,
    options: &Options,
) -> Result<String, RenderError> {
    check_step(options.upto_step, trace.events.len())?;
    draw_timeline(&layout::layout(trace, options), caption)
}

/// The SVG of a scenario's run, with its title, summary and verdict.
pub fn run_svg(scenario: &Scenario, run: &Run, options: &Options) -> Result<String, RenderError> {
    let options = options.for_scenario(scenario);
    timeline_svg(&run.trace, &Caption::for_run(scenario, run), &options)
}

fn lane_color(l: &layout::Lane) -> Rgb {
    match l.worker {
        Some(w) => style::tone(Tone::Worker(w)),
        None if l.role.is_lock_service() => style::INFRA,
        None => style::TEXT,
    }
}

/// Draws a layout (and its page) as an SVG document.
pub fn draw_timeline(layout: &Layout, caption: &Caption) -> Result<String, RenderError> {
    let page = Page::new(layout, caption);
    // About half a kilobyte of SVG per row: reserved at once, not regrown while drawing.
    let mut out = String::with_capacity(16_384 + 512 * layout.rows.len());
    {
        let size = (page.width as u32, page.height as u32);
        let root = SVGBackend::with_string(&mut out, size).into_drawing_area();
        let bg = style::BACKGROUND;
        root.fill(&RGBColor(bg.0, bg.1, bg.2))
            .map_err(|e| RenderError::Draw(e.to_string()))?;
        let top = Painter {
            area: &root,
            dy: 0.0,
        };
        for t in &page.header {
            top.text(&t.text, t.color)?;
        }
        let p = Painter {
            area: &root,
            dy: page.layout_dy,
        };
        draw_layout(&p, layout, page.width)?;
        for t in &page.footer {
            top.text(&t.text, t.color)?;
        }
        if let Some((mark, at)) = page.verdict_mark {
            top.mark(mark, at, style::TEXT)?;
        }
        root.present()
            .map_err(|e| RenderError::Draw(e.to_string()))?;
    }
    Ok(patterns::finish(out))
}

fn draw_layout(p: &Painter, l: &Layout, page_width: f64) -> Result<(), RenderError> {
    // Time marks (to scale): faint lines across the lanes, the time at the right.
    for t in &l.ticks {
        p.line(
            &[Point::new(l.area.x0, t.y), Point::new(l.area.x1 + 6.0, t.y)],
            style::NOTE_BORDER,
            1,
            0.6,
        )?;
        if let Some(label) = &t.label {
            p.text(label, style::MUTED)?;
        }
    }

    // Where the axis leaves its scale: zooms and stacks (breaks come over the lifelines).
    axis::zooms(p, l)?;

    // Bands behind everything: highlighted rows, then the danger zone.
    for h in &l.highlights {
        match (h.kind, l.tint_rect(h)) {
            (HighlightKind::RejectedAccess, Some(r)) => {
                p.fill_rect(r, style::REFUSED_ROW, style::REFUSED_ROW_ALPHA)?
            }
            (HighlightKind::DuplicatePayout, Some(r)) => extras::duplicate_row(p, r)?,
            (HighlightKind::Current, _) => {
                let w = style::CURRENT_OUTLINE_WIDTH;
                if let Some(outline) = l.outline_of(h.row, page_width, w / 2.0) {
                    // A yellow marker in the step column only, and a dark outline round the
                    // row: a fill over the lanes would repaint the bands that carry meaning
                    // (the refused row's green turned olive, the danger band's start hidden).
                    let (side, (top, bottom)) = (crate::layout::OUTLINE_SIDE, outline.column);
                    let marker = Rect::new(side, top, l.step_column_right(), bottom);
                    p.fill_rect(marker, style::CURRENT, 1.0)?;
                    extras::outline(p, &outline.points, w)?;
                    let edge = Rect::new(side, top, side + 6.0, bottom);
                    p.fill_rect(edge, style::CURRENT_OUTLINE, 1.0)?;
                }
            }
            _ => {}
        }
    }
    for s in &l.spans {
        if let SpanKind::Overlap { .. } = s.kind {
            // Strong enough to survive a washed-out projector, and hatched: the refused row's
            // plain green is told from it by pattern and lightness, not only by hue.
            // Over the zooms' tint all along (a zoom leaves its tint out under the band): as
            // strong where it runs at the picture's scale as where it crosses a zoom.
            if l.ms_scale > 0.0 {
                p.fill_rect(s.rect, style::ZOOM_FILL, style::ZOOM_FILL_ALPHA)?;
            }
            p.fill_rect(s.rect, style::DANGER, style::DANGER_BAND_ALPHA)?;
            p.hatch(s.rect, style::DANGER, style::DANGER_HATCH_STEP, false)?;
            let bar = Rect::new(s.rect.x0, s.rect.y0, s.rect.x0 + 6.0, s.rect.y1);
            p.fill_rect(bar, style::DANGER, 0.9)?;
        }
    }
    for b in &l.overlap_labels {
        p.boxed_text(b, style::DANGER)?;
    }

    // Partition walls between the lanes they cut apart.
    extras::walls(p, l)?;

    // Lifelines.
    for lane in &l.lanes {
        p.line(
            &[
                Point::new(lane.x, l.lifeline_top),
                Point::new(lane.x, l.lifeline_bottom),
            ],
            style::LIFELINE,
            style::LIFELINE_STROKE,
            1.0,
        )?;
    }
    // Idle stretches cut short: a break across every lane, interrupting the lifelines.
    axis::breaks(p, l)?;

    // Pauses under the bars (crashes come above the notes).
    for s in l
        .spans
        .iter()
        .filter(|s| matches!(s.kind, SpanKind::Paused { .. }))
    {
        p.fill_rect(s.rect, style::FROZEN_FILL, style::FROZEN_FILL_ALPHA)?;
        p.hatch(s.rect, style::FROZEN_HATCH, 9.0, false)?;
        p.stroke_rect(s.rect, style::FROZEN_HATCH, 1)?;
    }
    for s in &l.spans {
        match &s.kind {
            SpanKind::Believes { .. } => {
                p.fill_rect(s.rect, style::tone(s.tone), 0.9)?;
            }
            SpanKind::ServiceHolds { ended, .. } => {
                let c = style::tone(s.tone);
                p.fill_rect(s.rect, c, 0.45)?;
                p.stroke_rect(s.rect, c, 1)?;
                if let Some(reason) = ended {
                    let cap = match reason {
                        lockstep_core::trace::FreeReason::Released => c,
                        lockstep_core::trace::FreeReason::Expired => style::TIMER,
                        lockstep_core::trace::FreeReason::Forgotten => style::DANGER,
                    };
                    p.line(
                        &[
                            Point::new(s.rect.x0 - 3.0, s.rect.y1),
                            Point::new(s.rect.x1 + 3.0, s.rect.y1),
                        ],
                        cap,
                        4,
                        1.0,
                    )?;
                }
            }
            _ => {}
        }
    }

    // Arrow shafts (the only lines of width ARROW_STROKE); heads come after the labels.
    let heads: Vec<(layout::Arrow, [Point; 3])> = l
        .arrows
        .iter()
        .filter(|a| a.end == ArrowEnd::Delivered)
        .map(|a| (a.clone(), a.head()))
        .collect();
    for a in &l.arrows {
        let c = style::tone(a.tone);
        let end = match a.end {
            ArrowEnd::Delivered => {
                let (dx, dy) = (a.tip.x - a.start.x, a.tip.y - a.start.y);
                let len = (dx * dx + dy * dy).sqrt().max(1e-6);
                let back = 13.0_f64.min(len);
                Point::new(a.tip.x - dx / len * back, a.tip.y - dy / len * back)
            }
            ArrowEnd::Lost | ArrowEnd::InFlight => a.tip,
        };
        p.line(&[a.start, end], c, style::ARROW_STROKE, 1.0)?;
        if a.end == ArrowEnd::InFlight {
            // Still in the network: dashed (gaps painted over the one shaft, so every message
            // stays one line of the arrow width).
            extras::gaps(p, a.start, end)?;
        }
    }

    // Notes.
    let fold_texts: std::collections::BTreeSet<&str> =
        l.folds.iter().map(|f| f.text.as_str()).collect();
    for n in &l.notes {
        let (fill, border) = match n.kind {
            NoteKind::Global => (style::GLOBAL_FILL, style::GLOBAL_BORDER),
            NoteKind::Fault => (style::FAULT_FILL, style::FAULT_BORDER),
            NoteKind::State | NoteKind::Note => (style::NOTE_FILL, style::NOTE_BORDER),
        };
        let fill = if n.emphasis { style::DANGER_FILL } else { fill };
        let border = n.tone.map_or(border, style::tone);
        if n.kind == NoteKind::Note && fold_texts.contains(n.text.one_line().as_str()) {
            // A fold: the folded rounds' edges stacked behind its box.
            extras::fold_box(p, n.rect)?;
        } else {
            p.fill_rect(n.rect, fill, 1.0)?;
            p.stroke_rect(n.rect, border, if n.emphasis { 4 } else { 2 })?;
        }
        let color = if n.emphasis {
            style::DANGER
        } else {
            style::TEXT
        };
        p.text(&n.text, color)?;
    }

    // Crashes above the notes (never hidden), clock-jump breaks on the lifelines.
    extras::crashes(p, l)?;
    extras::jumps(p, l)?;

    // Messages that arrive where no slanted arrow could reach: their stubs on the send row.
    extras::flights(p, l)?;

    // Arrow labels, on white so crossing lines do not hurt reading.
    for a in &l.arrows {
        // Refused, or taken without a token by a permissive database: in the danger colour.
        if a.rejected || a.label.text.ends_with(layout::NO_TOKEN) {
            p.boxed_text(&a.label.clone().bold(), style::DANGER)?;
        } else {
            p.boxed_text(&a.label, style::TEXT)?;
        }
    }

    // Arrow heads, on top of labels so none is hidden. A head on a bar of its own colour gets
    // a white rim (see `Arrow::on_bar`): a white head half as big again behind it, from the same
    // tip, so the lifeline at the tip stays whole.
    for (a, head) in &heads {
        if a.on_bar {
            let tip = head[0];
            let grow =
                |q: Point| Point::new(tip.x + (q.x - tip.x) * 1.4, tip.y + (q.y - tip.y) * 1.4);
            p.polygon(&[tip, grow(head[1]), grow(head[2])], style::BACKGROUND, 1.0)?;
        }
        p.polygon(head, style::tone(a.tone), 1.0)?;
    }

    // Marks.
    for m in &l.marks {
        let tint = match m.kind {
            MarkKind::InFlight => l
                .arrows
                .iter()
                .find(|a| a.end == ArrowEnd::InFlight && a.tip == m.at)
                .map_or(style::INFRA, |a| style::tone(a.tone)),
            _ => style::INFRA,
        };
        if m.session {
            p.session_renewal(m.at)?;
        } else {
            p.mark(m.kind, m.at, tint)?;
        }
    }

    // Lane headers and footers.
    for lane in &l.lanes {
        let c = lane_color(lane);
        for (boxed, texts) in [
            (lane.header_box, &lane.header),
            (lane.footer_box, &lane.footer),
        ] {
            if lane.is_permissive_db() {
                // Drawn, not only written: a warning fill and a dashed edge.
                p.fill_rect(boxed, style::PERMISSIVE_FILL, 1.0)?;
                extras::dashed_rect(p, boxed, style::PERMISSIVE_BORDER)?;
            } else {
                p.fill_rect(boxed, style::HEADER_FILL, 1.0)?;
                p.stroke_rect(boxed, c, 2)?;
            }
            p.text(&texts[0], c)?;
            p.text(&texts[1], style::MUTED)?;
        }
    }

    // Gutter: step and time of each row; the current one bold, with a pointer.
    p.text(&l.gutter_title, style::MUTED)?;
    // A line of several steps is bold whichever of them is current (its text is on its first).
    let current_line = l.current.and_then(|c| l.rows.get(c)).map(|r| r.y);
    for (i, r) in l.rows.iter().enumerate() {
        if l.current != Some(i) && current_line == Some(r.y) {
            p.text(&r.gutter.clone().bold(), style::TEXT)?;
        } else if l.current == Some(i) {
            p.text(&r.gutter.clone().bold(), style::TEXT)?;
            let x = r.gutter.rect.x1 + 2.0;
            p.polygon(
                &[
                    Point::new(x, r.y - 7.0),
                    Point::new(x + 10.0, r.y),
                    Point::new(x, r.y + 7.0),
                ],
                style::CURRENT_OUTLINE,
                1.0,
            )?;
        } else {
            p.text(&r.gutter, style::MUTED)?;
        }
    }

    // Legend.
    for e in &l.legend {
        extras::swatch(p, e.kind, e.swatch)?;
        p.text(&e.text, style::TEXT)?;
    }
    Ok(())
}
