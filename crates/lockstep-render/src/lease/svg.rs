//! The lease chart as SVG, drawn with plotters' SVG backend: bars for who holds and who believes,
//! hatched pauses, red danger zones where beliefs overlap, a time axis, a legend and the verdict.

use lockstep_core::{Run, Scenario, Trace};
use plotters::prelude::*;

use super::page::STEP_SLACK;
use super::page::{BAR_H, OVERLAP_DX};
pub use super::page::{LeasePage, Seen, Swatch};
use super::{LeaseChart, lease_chart};
use crate::error::{RenderError, check_step};
use crate::geom::{Point, Rect};
use crate::layout::{MarkKind, Options, Tone};
use crate::style;
use crate::svg::{Caption, Painter};

/// Builds and draws the lease chart of `trace`. Fails if `options.upto_step` is past the end.
pub fn lease_svg(
    trace: &Trace,
    caption: &Caption,
    options: &Options,
) -> Result<String, RenderError> {
    lease_svg_in(trace, caption, options, Seen::Whole)
}

/// The most steps [`lease_box_for`] measures: every step of a run this long or shorter (then
/// the page is exactly as tall as its tallest step), else [`BOX_STEPS`] spread over it, and
/// the last.
const ALL_STEPS: usize = 150;
const BOX_STEPS: usize = 40;

/// The page on which every step's chart of `trace` shows largest in a box `aspect` times as
/// wide as it is tall (see [`LeasePage::box_for`]): [`Seen::Boxed`] or [`Seen::Beside`]; None
/// when the chart as drawn for a slide does as well. `caption` is the whole run's (its verdict shows at the last
/// step only).
pub fn lease_box_for(
    trace: &Trace,
    caption: &Caption,
    options: &Options,
    aspect: f64,
) -> Option<Seen> {
    let total = trace.events.len();
    let whole = lease_chart(
        trace,
        &Options {
            upto_step: Some(total),
            ..*options
        },
    );
    // A chart too tall for the box at its last step is too tall at some step: no need to
    // draw the others (a Redlock run of 1,400 steps took over a second to).
    LeasePage::box_for(&[(&whole, caption)], &whole, aspect, 1.0)?;
    let (count, slack) = if total <= ALL_STEPS {
        (total, 1.0)
    } else {
        (BOX_STEPS, STEP_SLACK)
    };
    let mut steps: Vec<usize> = (1..=count).map(|k| (k * total).div_ceil(count)).collect();
    steps.dedup();
    let at = |n| {
        lease_chart(
            trace,
            &Options {
                upto_step: Some(n),
                ..*options
            },
        )
    };
    let charts: Vec<LeaseChart> = steps.iter().map(|&n| at(n)).collect();
    let so_far = Caption {
        verdict: None,
        ..caption.clone()
    };
    let measured: Vec<(&LeaseChart, &Caption)> = charts
        .iter()
        .zip(&steps)
        .map(|(c, &n)| (c, if n == total { caption } else { &so_far }))
        .collect();
    LeasePage::box_for(&measured, &whole, aspect, slack)
}

/// [`lease_svg`] for a reader who sees a step's chart as `seen` says: through a window narrower
/// than the chart (a phone), or whole in a box of another shape than a slide's (see
/// [`LeasePage::stepped_in`]).
pub fn lease_svg_in(
    trace: &Trace,
    caption: &Caption,
    options: &Options,
    seen: Seen,
) -> Result<String, RenderError> {
    check_step(options.upto_step, trace.events.len())?;
    let chart = lease_chart(trace, options);
    let page = match options.upto_step {
        Some(_) => {
            // Every step of a run in the whole run's frame and as tall as its last step's
            // chart (the whole run's legend and verdict), so flicking through steps never
            // moves a row or resizes the picture.
            let whole = lease_chart(
                trace,
                &Options {
                    upto_step: Some(trace.events.len()),
                    ..*options
                },
            );
            let mut page = LeasePage::stepped_in(&chart, &whole, caption, seen);
            page.height = page
                .height
                .max(LeasePage::stepped_in(&whole, &whole, caption, seen).height);
            page
        }
        None => LeasePage::new(&chart, caption),
    };
    draw_lease(&chart, &page)
}

/// The lease chart of a scenario's run, with its title and verdict (a permissive database's
/// tokenless writes say so).
pub fn run_lease_svg(
    scenario: &Scenario,
    run: &Run,
    options: &Options,
) -> Result<String, RenderError> {
    // What only the scenario knows (a permissive database) fills in the options.
    let options = options.for_scenario(scenario);
    lease_svg(&run.trace, &Caption::for_run(scenario, run), &options)
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
            let r = page.danger_rect(d);
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

        // The current step over the danger zones, haloed in white so its amber never reads
        // as the band's red.
        if let Some(now) = chart.current_ms {
            let x = page.x(now);
            let line = [Point::new(x, plot.y0 - 2.0), Point::new(x, plot.y1 + 6.0)];
            p.line(&line, style::BACKGROUND, 5, 1.0)?;
            p.line(&line, style::CURRENT_POINTER, 3, 1.0)?;
        }

        // Bars.
        for (row, &cy) in chart.rows.iter().zip(&page.row_y) {
            for iv in &row.intervals {
                let (x0, x1) = (
                    page.x(iv.from_ms),
                    // At least a symbol's width: a grant held for a moment stays visible; one
                    // still open at a step render's last step never reaches past that step.
                    page.x(iv.to_ms)
                        .max(page.x(iv.from_ms) + if iv.open { 3.0 } else { 8.0 }),
                );
                let r = Rect::new(x0, cy - BAR_H / 2.0, x1, cy + BAR_H / 2.0);
                super::draw::bar(&p, row, iv, r)?;
            }
        }
        // Where a worker believes on after the service let go: hatched over its belief bar.
        for st in &chart.stale {
            if let (Some(&cy), Some(row)) = (page.row_y.get(st.row), chart.rows.get(st.row)) {
                let (x0, x1) = (page.x(st.from_ms), page.x(st.to_ms));
                let r = Rect::new(x0, cy - BAR_H / 2.0, x1.max(x0 + 3.0), cy + BAR_H / 2.0);
                super::draw::stale(&p, r, row.worker_index)?;
            }
        }
        super::draw::node_shapes(&p, page)?;
        // Where a write paid twice, over the bars: the harm at its own instant.
        for &r in &page.harm {
            super::draw::harm(&p, r)?;
        }
        // Long flights: a line from send to arrival under the worker's belief row.
        for f in &chart.flights {
            if let Some(&cy) = page.row_y.get(f.row) {
                let y = cy + BAR_H / 2.0 + 4.0;
                let (x0, x1) = (page.x(f.from_ms), page.x(f.to_ms.unwrap_or(chart.end_ms)));
                let c = style::tone(Tone::Worker(f.worker_index));
                let arrived = f.to_ms.map(|_| Point::new(x1, y));
                if arrived.is_some() {
                    super::draw::flight(&p, Point::new(x0, y), arrived, c)?;
                } else {
                    p.line(&[Point::new(x0, y), Point::new(x1, y)], c, 3, 1.0)?;
                    p.circle(Point::new(x0, y), 3.0, c, true, 1)?;
                    p.mark(MarkKind::InFlight, Point::new(x1, y), c)?;
                }
            }
        }
        for &(from, to, c) in &page.leaders {
            p.line(&[from, to], c, 2, 0.6)?;
        }
        // A renewal on a worker's other-activity row keeps an etcd session's lease alive, not a
        // lock: it has a look of its own.
        let activity_y: Vec<f64> = chart
            .rows
            .iter()
            .zip(&page.row_y)
            .filter(|(r, _)| r.kind == super::LeaseRowKind::Activity)
            .map(|(_, &y)| y)
            .collect();
        for &(k, at) in &page.marks {
            // The duplicate's mark sits on its own red harm band: a white disc keeps it seen.
            if k == MarkKind::Duplicate {
                p.circle(at, 13.0, style::BACKGROUND, true, 1)?;
            }
            if k == MarkKind::Renewed && activity_y.iter().any(|&y| (y - at.y).abs() < 0.5) {
                p.session_renewal(at)?;
            } else {
                p.mark(k, at, style::INFRA)?;
            }
        }
        for &(worker, at) in &page.note_dots {
            let c = style::tone(Tone::Worker(worker));
            p.circle(at, 5.0, style::BACKGROUND, true, 1)?;
            p.circle(at, 5.0, c, false, 2)?;
        }

        // Danger markers beside their lines, legend swatches, text.
        for t in &page.texts {
            if t.color == style::DANGER && t.text.bold && t.text.text.starts_with("overlap:") {
                let x = t.text.rect.x0 - OVERLAP_DX;
                let r = Rect::new(x, t.text.rect.y0 + 1.0, x + 30.0, t.text.rect.y1 - 1.0);
                p.fill_rect(r, style::DANGER, style::DANGER_BAND_ALPHA)?;
                p.hatch(r, style::DANGER, 8.0, false)?;
            }
        }
        let worker0 = style::tone(Tone::Worker(0));
        for &(k, s) in &page.swatches {
            match k {
                Swatch::ServiceHolds => {
                    p.fill_rect(s, style::on_page(worker0, style::SERVICE_BAR_ALPHA), 1.0)?;
                    p.stroke_rect(s, worker0, 2)?;
                }
                Swatch::Believes => {
                    p.fill_rect(s, style::on_page(worker0, super::draw::BELIEF_ALPHA), 1.0)?
                }
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
                    let line = [Point::new(c.x, s.y0), Point::new(c.x, s.y1)];
                    p.line(&line, style::BACKGROUND, 5, 1.0)?;
                    p.line(&line, style::CURRENT_POINTER, 3, 1.0)?;
                }
                Swatch::Mark(mk) => p.mark(mk, s.center(), style::INFRA)?,
                Swatch::SessionRenewed => p.session_renewal(s.center())?,
                Swatch::Partition
                | Swatch::OpenPartition
                | Swatch::OpenPartitionSoFar
                | Swatch::Down
                | Swatch::Jump
                | Swatch::Tick
                | Swatch::Note
                | Swatch::Flight
                | Swatch::Leader
                | Swatch::LastToken
                | Swatch::Harm
                | Swatch::Stale => super::draw::swatch(&p, k, s)?,
            }
        }
        for t in &page.texts {
            // Labels in the plot sit on white, so the overlap band's hatching or a flight's
            // line under them does not hurt reading (not a token written inside its bar).
            let c = t.text.rect.center();
            let in_plot = (plot.x0..=plot.x1).contains(&c.x)
                && (plot.y0..=plot.y1).contains(&c.y)
                && !t.text.bold;
            if in_plot {
                p.boxed_text(&t.text, t.color)?;
            } else {
                p.text(&t.text, t.color)?;
            }
        }
        if let Some((mark, at)) = page.verdict_mark {
            p.mark(mark, at, style::TEXT)?;
        }
        root.present()
            .map_err(|e| RenderError::Draw(e.to_string()))?;
    }
    Ok(crate::svg::patterns::finish(out))
}
