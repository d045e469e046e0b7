//! The lease chart as SVG, drawn with plotters' SVG backend: bars for who holds and who believes,
//! hatched pauses, red danger zones where beliefs overlap, a time axis, a legend and the verdict.

use lockstep_core::{Run, Scenario, Trace};
use plotters::prelude::*;

use super::{LeaseChart, LeaseRowKind, lease_chart};
use crate::error::{RenderError, check_step};
use crate::geom::{Point, Rect};
use crate::layout::{MarkKind, Options, Tone};
use crate::style;
use crate::svg::{Caption, Column, PageText, Painter, verdict_text};
use crate::text::{self, Align, TextBox};

const WIDTH: f64 = 1600.0;
const MARGIN: f64 = 24.0;
const ROW_H: f64 = 54.0;
const BAR_H: f64 = 24.0;
const GROUP_GAP: f64 = 14.0;
const LABEL_SIZE: f64 = 16.0;

/// Where everything of a lease chart goes.
#[derive(Debug, Clone, PartialEq)]
pub struct LeasePage {
    pub width: f64,
    pub height: f64,
    /// The plot area (time across).
    pub plot: Rect,
    /// Each row's centre line.
    pub row_y: Vec<f64>,
    /// Every piece of text with its colour.
    pub texts: Vec<PageText>,
    /// Time-axis ticks: x and time.
    pub ticks: Vec<(f64, u64)>,
    /// Legend swatches: what and where.
    pub swatches: Vec<(Swatch, Rect)>,
    /// The verdict's symbol.
    pub verdict_mark: Option<(MarkKind, Point)>,
    /// Where each incident's marker goes: its x and its label's y.
    pub incidents: Vec<(f64, f64)>,
    t0: u64,
    t1: u64,
}

/// A legend swatch of the lease chart.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Swatch {
    ServiceHolds,
    Believes,
    Paused,
    Danger,
    Current,
    Mark(MarkKind),
}

fn tick_step(span_ms: u64) -> u64 {
    let mut unit = 1;
    loop {
        for m in [1, 2, 5] {
            let step = unit * m;
            if span_ms / step <= 10 {
                return step;
            }
        }
        unit *= 10;
    }
}

fn tick_label(t: u64, step: u64) -> String {
    if step >= 1000 && step.is_multiple_of(1000) {
        format!("{} s", t / 1000)
    } else if step >= 100 {
        format!("{:.1} s", t as f64 / 1000.0)
    } else {
        format!("{t} ms")
    }
}

impl LeasePage {
    /// The x of simulated time `t`.
    pub fn x(&self, t: u64) -> f64 {
        let span = (self.t1 - self.t0).max(1) as f64;
        self.plot.x0 + (t.saturating_sub(self.t0)) as f64 / span * self.plot.width()
    }

    /// Places the chart and its text.
    pub fn new(chart: &LeaseChart, caption: &Caption) -> LeasePage {
        let mut texts = Vec::new();
        let text_w = WIDTH - 2.0 * MARGIN;
        let mut y = MARGIN;
        let title = format!("Who holds the lock? {}", caption.title);
        y = Column::write_at(
            &mut texts,
            MARGIN,
            text_w,
            y,
            &title,
            style::TITLE_SIZE,
            true,
            style::TEXT,
        );
        y += 4.0;
        let mut sub = String::new();
        if !caption.name.is_empty() {
            sub.push_str(&caption.name);
            sub.push_str(" · ");
        }
        sub.push_str("lease chart: simulated time runs left to right");
        if chart.steps_shown < chart.total_steps {
            sub.push_str(&format!(
                " · up to step {} of {}",
                chart.steps_shown, chart.total_steps
            ));
        }
        y = Column::write_at(
            &mut texts,
            MARGIN,
            text_w,
            y,
            &sub,
            style::SUBTITLE_SIZE,
            false,
            style::MUTED,
        );
        if chart.quorum > 1 {
            let q = format!(
                "The service \"says\" a worker holds the lock while at least {} instances record it.",
                chart.quorum
            );
            y = Column::write_at(
                &mut texts,
                MARGIN,
                text_w,
                y,
                &q,
                style::SUBTITLE_SIZE,
                false,
                style::MUTED,
            );
        }
        y += 36.0;

        // Row labels, right-aligned left of the plot.
        let label_w = chart
            .rows
            .iter()
            .map(|r| text::width(&r.label, LABEL_SIZE))
            .fold(0.0, f64::max);
        let label_right = MARGIN + label_w;
        let plot_x0 = label_right + 24.0;
        let plot_x1 = WIDTH - MARGIN - 40.0;
        let plot_top = y;
        let mut row_y = Vec::new();
        let mut ry = plot_top;
        for (i, r) in chart.rows.iter().enumerate() {
            if i > 0 && chart.rows[i - 1].worker != r.worker {
                ry += GROUP_GAP;
            }
            let cy = ry + ROW_H / 2.0;
            row_y.push(cy);
            let color = style::tone(Tone::Worker(r.worker_index));
            texts.push(PageText {
                text: TextBox::new(
                    r.label.clone(),
                    LABEL_SIZE,
                    Align::Right,
                    Point::new(label_right, cy),
                    0.0,
                ),
                color,
            });
            ry += ROW_H;
        }
        // A row for what happened to nodes and the network, if anything did.
        let incident_y = (!chart.incidents.is_empty()).then(|| {
            ry += GROUP_GAP;
            texts.push(PageText {
                text: TextBox::new(
                    "nodes & network",
                    LABEL_SIZE,
                    Align::Right,
                    Point::new(label_right, ry + ROW_H / 2.0),
                    0.0,
                ),
                color: style::MUTED,
            });
            ry += ROW_H * 1.5;
            ry - ROW_H * 1.5
        });
        let plot = Rect::new(plot_x0, plot_top, plot_x1, ry.max(plot_top + ROW_H));
        // The whole run's time, at every step: stepping never rescales the axis.
        let (t0, t1) = (
            chart.start_ms,
            chart.axis_end_ms.max(chart.end_ms).max(chart.start_ms + 1),
        );
        let mut page = LeasePage {
            width: WIDTH,
            height: 0.0,
            plot,
            row_y,
            texts,
            ticks: Vec::new(),
            swatches: Vec::new(),
            verdict_mark: None,
            incidents: Vec::new(),
            t0,
            t1,
        };
        // Incident labels in up to three levels, each clear of the one before on its level.
        if let Some(top) = incident_y {
            let mut ends: [f64; 3] = [f64::MIN; 3];
            for inc in &chart.incidents {
                let x = page.x(inc.at_ms);
                let w = text::width(&inc.text, style::GUTTER_SIZE);
                let x0 = (x - w / 2.0).clamp(plot.x0, (plot.x1 - w).max(plot.x0));
                let level = (0..3).find(|&k| ends[k] + 8.0 <= x0);
                let Some(level) = level else {
                    continue;
                };
                ends[level] = x0 + w;
                let cy = top + 10.0 + level as f64 * 20.0;
                page.incidents.push((x, cy));
                page.texts.push(PageText {
                    text: TextBox::new(
                        inc.text.clone(),
                        style::GUTTER_SIZE,
                        Align::Left,
                        Point::new(x0, cy),
                        0.0,
                    ),
                    color: style::TEXT,
                });
            }
        }
        // Tokens inside the bars wide enough for them; long flights' labels under their line.
        for (row, &cy) in chart.rows.iter().zip(&page.row_y) {
            for iv in &row.intervals {
                let Some(token) = iv.token else {
                    continue;
                };
                let (x0, x1) = (page.x(iv.from_ms), page.x(iv.to_ms));
                let t = format!("{token}");
                if text::width(&t, style::GUTTER_SIZE) + 8.0 <= x1 - x0 {
                    let color = if row.kind == LeaseRowKind::Believes {
                        style::BACKGROUND
                    } else {
                        style::TEXT
                    };
                    page.texts.push(PageText {
                        text: TextBox::new(
                            t,
                            style::GUTTER_SIZE,
                            Align::Left,
                            Point::new(x0 + 4.0, cy),
                            0.0,
                        )
                        .bold(),
                        color,
                    });
                }
            }
        }
        for f in &chart.flights {
            let Some(&cy) = page.row_y.get(f.row) else {
                continue;
            };
            let x0 = page.x(f.from_ms);
            let w = text::width(&f.label, style::GUTTER_SIZE);
            let x0 = x0.min(plot.x1 - w).max(plot.x0);
            page.texts.push(PageText {
                text: TextBox::new(
                    f.label.clone(),
                    style::GUTTER_SIZE,
                    Align::Left,
                    Point::new(x0, cy + BAR_H / 2.0 + 14.0),
                    0.0,
                ),
                color: style::tone(Tone::Worker(f.worker_index)),
            });
        }

        // Time axis.
        let step = tick_step(t1 - t0);
        let mut t = t0.div_ceil(step) * step;
        let axis_y = plot.y1 + 16.0;
        while t <= t1 {
            let x = page.x(t);
            page.ticks.push((x, t));
            page.texts.push(PageText {
                text: TextBox::new(
                    tick_label(t, step),
                    style::GUTTER_SIZE,
                    Align::Center,
                    Point::new(x, axis_y),
                    0.0,
                ),
                color: style::MUTED,
            });
            t += step;
        }
        // Labels of the current step and of the danger zones, above the plot.
        if let Some(now) = chart.current_ms {
            let x = page.x(now);
            page.texts.push(PageText {
                text: TextBox::new(
                    format!("step {}", chart.steps_shown),
                    style::GUTTER_SIZE,
                    Align::Center,
                    Point::new(x, plot.y0 - 12.0),
                    0.0,
                )
                .bold(),
                color: style::TEXT,
            });
        }
        let mut y = axis_y + 24.0;
        for d in &chart.danger {
            let line = format!(
                "danger: {} and {} both believe they hold the lock from {} to {} ms",
                d.first, d.second, d.from_ms, d.to_ms
            );
            let mark_x = MARGIN + 40.0;
            y = Column::write_at(
                &mut page.texts,
                mark_x,
                text_w - 40.0,
                y,
                &line,
                style::BODY_SIZE,
                true,
                style::DANGER,
            );
        }

        // Legend.
        y += 12.0;
        let mut kinds = vec![Swatch::ServiceHolds, Swatch::Believes];
        if chart.rows.iter().any(|r| r.kind == LeaseRowKind::Paused) {
            kinds.push(Swatch::Paused);
        }
        if !chart.danger.is_empty() {
            kinds.push(Swatch::Danger);
        }
        if chart.current_ms.is_some() {
            kinds.push(Swatch::Current);
        }
        for k in [
            MarkKind::WriteAccepted,
            MarkKind::AccessRejected,
            MarkKind::Duplicate,
            MarkKind::Expired,
            MarkKind::Renewed,
        ] {
            if chart.marks.iter().any(|m| m.kind == k) {
                kinds.push(Swatch::Mark(k));
            }
        }
        let label = |k: Swatch| match k {
            Swatch::ServiceHolds => "the lock service records the worker as holder",
            Swatch::Believes => "the worker believes it holds the lock",
            Swatch::Paused => "the worker is paused (frozen)",
            Swatch::Danger => "danger: two workers believe they hold the lock",
            Swatch::Current => "the current step",
            Swatch::Mark(MarkKind::WriteAccepted) => "write accepted",
            Swatch::Mark(MarkKind::AccessRejected) => "refused by fencing",
            Swatch::Mark(MarkKind::Duplicate) => "payouts paid twice",
            Swatch::Mark(MarkKind::Expired) => "TTL or lease ran out",
            Swatch::Mark(_) => "lease renewed",
        };
        let col_w = kinds
            .iter()
            .map(|&k| text::width(label(k), style::LEGEND_SIZE))
            .fold(0.0, f64::max)
            + 30.0
            + 10.0
            + 36.0;
        let columns = ((text_w / col_w).floor() as usize).clamp(1, 3);
        let row_h = 28.0;
        for (i, &k) in kinds.iter().enumerate() {
            let (r, c) = (i / columns, i % columns);
            let x = MARGIN + c as f64 * col_w;
            let cy = y + r as f64 * row_h + row_h / 2.0;
            page.swatches
                .push((k, Rect::new(x, cy - 9.0, x + 30.0, cy + 9.0)));
            page.texts.push(PageText {
                text: TextBox::new(
                    label(k),
                    style::LEGEND_SIZE,
                    Align::Left,
                    Point::new(x + 40.0, cy),
                    0.0,
                ),
                color: style::TEXT,
            });
        }
        y += kinds.len().div_ceil(columns) as f64 * row_h + 20.0;

        // Verdict: of the whole run, or in a step render what the database did so far.
        if chart.steps_shown < chart.total_steps {
            let f = chart.so_far;
            let mut line = format!(
                "So far (step {} of {}): writes accepted {}, refused by fencing {}",
                chart.steps_shown, chart.total_steps, f.writes_accepted, f.writes_rejected
            );
            if f.payouts_paid_twice > 0 {
                line.push_str(&format!(
                    "; {} payouts paid twice ({})",
                    f.payouts_paid_twice,
                    lockstep_core::actors::db::money(f.cents_paid_twice)
                ));
            }
            let color = if f.payouts_paid_twice > 0 {
                style::DANGER
            } else {
                style::TEXT
            };
            y = Column::write_at(
                &mut page.texts,
                MARGIN,
                text_w,
                y,
                &line,
                style::VERDICT_SIZE,
                true,
                color,
            );
        } else if let Some(v) = &caption.verdict {
            let (headline, color, mark, lines) = verdict_text(v);
            let h = text::line_height(style::VERDICT_SIZE);
            page.verdict_mark = Some((mark, Point::new(MARGIN + 12.0, y + h / 2.0)));
            let x = MARGIN + 34.0;
            y = Column::write_at(
                &mut page.texts,
                x,
                text_w - 34.0,
                y,
                &headline,
                style::VERDICT_SIZE,
                true,
                color,
            );
            y += 4.0;
            for line in lines {
                y = Column::write_at(
                    &mut page.texts,
                    x,
                    text_w - 34.0,
                    y,
                    &line,
                    style::BODY_SIZE,
                    false,
                    style::TEXT,
                );
            }
        }
        page.height = (y + MARGIN).ceil();
        page
    }

    /// Every label's box.
    pub fn label_boxes(&self) -> Vec<Rect> {
        self.texts.iter().map(|t| t.text.rect).collect()
    }
}

/// Builds and draws the lease chart of `trace`. Fails if `options.upto_step` is past the end.
pub fn lease_svg(
    trace: &Trace,
    caption: &Caption,
    options: &Options,
) -> Result<String, RenderError> {
    check_step(options.upto_step, trace.events.len())?;
    let chart = lease_chart(trace, options);
    let mut page = LeasePage::new(&chart, caption);
    if options.upto_step.is_some() {
        // Every step of a run as tall as its last step's chart (the whole run's legend and
        // verdict), so flicking through steps never resizes the picture.
        let whole = lease_chart(
            trace,
            &Options {
                upto_step: Some(trace.events.len()),
                ..*options
            },
        );
        page.height = page.height.max(LeasePage::new(&whole, caption).height);
    }
    draw_lease(&chart, &page)
}

/// The lease chart of a scenario's run, with its title and verdict.
pub fn run_lease_svg(
    scenario: &Scenario,
    run: &Run,
    options: &Options,
) -> Result<String, RenderError> {
    lease_svg(&run.trace, &Caption::for_run(scenario, run), options)
}

/// Draws a placed lease chart.
pub fn draw_lease(chart: &LeaseChart, page: &LeasePage) -> Result<String, RenderError> {
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (page.width as u32, page.height as u32))
            .into_drawing_area();
        let bg = style::BACKGROUND;
        root.fill(&RGBColor(bg.0, bg.1, bg.2))
            .map_err(|e| RenderError::Draw(e.to_string()))?;
        let p = Painter {
            area: &root,
            dy: 0.0,
        };
        let plot = page.plot;

        // Grid, rows' guide lines, danger zones, the current step.
        for &(x, _) in &page.ticks {
            p.line(
                &[Point::new(x, plot.y0), Point::new(x, plot.y1 + 6.0)],
                style::NOTE_BORDER,
                1,
                0.5,
            )?;
        }
        for &y in &page.row_y {
            p.line(
                &[Point::new(plot.x0, y), Point::new(plot.x1, y)],
                style::NOTE_BORDER,
                1,
                0.35,
            )?;
        }
        p.line(
            &[
                Point::new(plot.x0, plot.y1 + 6.0),
                Point::new(plot.x1, plot.y1 + 6.0),
            ],
            style::MUTED,
            2,
            1.0,
        )?;
        for d in &chart.danger {
            let r = Rect::new(
                page.x(d.from_ms),
                plot.y0 - 4.0,
                page.x(d.to_ms).max(page.x(d.from_ms) + 2.0),
                plot.y1 + 4.0,
            );
            p.fill_rect(r, style::DANGER, style::DANGER_BAND_ALPHA)?;
            p.hatch(r, style::DANGER, 14.0, false)?;
            p.line(
                &[Point::new(r.x0, r.y0), Point::new(r.x0, r.y1)],
                style::DANGER,
                2,
                1.0,
            )?;
            p.line(
                &[Point::new(r.x1, r.y0), Point::new(r.x1, r.y1)],
                style::DANGER,
                2,
                1.0,
            )?;
        }

        // Bars.
        for (row, &cy) in chart.rows.iter().zip(&page.row_y) {
            let c = style::tone(Tone::Worker(row.worker_index));
            for iv in &row.intervals {
                let (x0, x1) = (
                    page.x(iv.from_ms),
                    page.x(iv.to_ms).max(page.x(iv.from_ms) + 3.0),
                );
                let r = Rect::new(x0, cy - BAR_H / 2.0, x1, cy + BAR_H / 2.0);
                match row.kind {
                    LeaseRowKind::ServiceHolds => {
                        p.fill_rect(r, c, 0.35)?;
                        p.stroke_rect(r, c, 2)?;
                    }
                    LeaseRowKind::Believes => p.fill_rect(r, c, 0.9)?,
                    LeaseRowKind::Paused => {
                        p.fill_rect(r, style::FROZEN_FILL, 1.0)?;
                        p.hatch(r, style::FROZEN_HATCH, 8.0, false)?;
                        p.stroke_rect(r, style::FROZEN_HATCH, 1)?;
                    }
                }
            }
        }
        // Incidents: a line down the chart at the instant, ending at its label.
        for &(x, cy) in &page.incidents {
            p.line(
                &[Point::new(x, plot.y0), Point::new(x, cy - 8.0)],
                style::GLOBAL_BORDER,
                1,
                0.8,
            )?;
        }
        // Long flights: a line from send to arrival under the worker's belief row.
        for f in &chart.flights {
            if let Some(&cy) = page.row_y.get(f.row) {
                let y = cy + BAR_H / 2.0 + 4.0;
                let (x0, x1) = (page.x(f.from_ms), page.x(f.to_ms.unwrap_or(chart.end_ms)));
                let c = style::tone(Tone::Worker(f.worker_index));
                p.line(&[Point::new(x0, y), Point::new(x1, y)], c, 3, 1.0)?;
                p.circle(Point::new(x0, y), 3.0, c, true, 1)?;
                if f.to_ms.is_some() {
                    p.polygon(
                        &[
                            Point::new(x1, y),
                            Point::new(x1 - 8.0, y - 5.0),
                            Point::new(x1 - 8.0, y + 5.0),
                        ],
                        c,
                        1.0,
                    )?;
                } else {
                    p.mark(MarkKind::InFlight, Point::new(x1, y), c)?;
                }
            }
        }
        // Marks at (nearly) the same instant on a row sit side by side, inside the axis.
        let mut last: Option<(usize, f64)> = None;
        for m in &chart.marks {
            if let Some(&cy) = page.row_y.get(m.row) {
                let mut x = page.x(m.at_ms);
                if let Some((row, prev)) = last
                    && row == m.row
                    && x < prev + 24.0
                {
                    x = prev + 24.0;
                }
                let x = x.min(plot.x1 - 10.0);
                last = Some((m.row, x));
                p.mark(m.kind, Point::new(x, cy), style::INFRA)?;
            }
        }
        if let Some(now) = chart.current_ms {
            let x = page.x(now);
            p.line(
                &[Point::new(x, plot.y0 - 2.0), Point::new(x, plot.y1 + 6.0)],
                style::CURRENT_POINTER,
                2,
                1.0,
            )?;
        }

        // Danger markers beside their lines, legend swatches, text.
        for t in &page.texts {
            if t.color == style::DANGER && t.text.bold && t.text.text.starts_with("danger") {
                let r = Rect::new(
                    MARGIN,
                    t.text.rect.y0 + 1.0,
                    MARGIN + 30.0,
                    t.text.rect.y1 - 1.0,
                );
                p.fill_rect(r, style::DANGER, style::DANGER_BAND_ALPHA)?;
                p.hatch(r, style::DANGER, 8.0, false)?;
            }
        }
        let worker0 = style::tone(Tone::Worker(0));
        for &(k, s) in &page.swatches {
            match k {
                Swatch::ServiceHolds => {
                    p.fill_rect(s, worker0, 0.35)?;
                    p.stroke_rect(s, worker0, 2)?;
                }
                Swatch::Believes => p.fill_rect(s, worker0, 0.9)?,
                Swatch::Paused => {
                    p.fill_rect(s, style::FROZEN_FILL, 1.0)?;
                    p.hatch(s, style::FROZEN_HATCH, 7.0, false)?;
                    p.stroke_rect(s, style::FROZEN_HATCH, 1)?;
                }
                Swatch::Danger => {
                    p.fill_rect(s, style::DANGER, style::DANGER_BAND_ALPHA)?;
                    p.hatch(s, style::DANGER, 8.0, false)?;
                }
                Swatch::Current => {
                    let c = s.center();
                    p.line(
                        &[Point::new(c.x, s.y0), Point::new(c.x, s.y1)],
                        style::CURRENT_POINTER,
                        2,
                        1.0,
                    )?;
                }
                Swatch::Mark(mk) => p.mark(mk, s.center(), style::INFRA)?,
            }
        }
        for t in &page.texts {
            p.text(&t.text, t.color)?;
        }
        if let Some((mark, at)) = page.verdict_mark {
            p.mark(mark, at, style::TEXT)?;
        }
        root.present()
            .map_err(|e| RenderError::Draw(e.to_string()))?;
    }
    Ok(crate::svg::patterns::finish(out))
}
