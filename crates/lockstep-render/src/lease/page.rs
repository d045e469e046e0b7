//! Where everything of a lease chart goes: rows, bars' tokens, marks side by side inside the
//! axis, the nodes-and-network lanes, the time axis from 0, the legend and the verdict.

use super::nodes::{self, LANE_H, NodeShape};
use super::{Danger, LeaseChart, LeaseRowKind};
use crate::geom::{Point, Rect};
use crate::layout::{MarkKind, Tone};
use crate::style;
use crate::svg::{Caption, Column, PageText, verdict_text};
use crate::text::{self, Align, TextBox};

const WIDTH: f64 = 1600.0;
pub(crate) const MARGIN: f64 = 24.0;
const ROW_H: f64 = 54.0;
pub(crate) const BAR_H: f64 = 24.0;
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
    /// The rows' marks, side by side inside the plot: what and where.
    pub marks: Vec<(MarkKind, Point)>,
    /// Workers' notes: a dot on the worker's row at each instant (worker index, centre).
    pub note_dots: Vec<(usize, Point)>,
    /// The nodes-and-network lanes' centre lines and shapes.
    pub node_lanes: Vec<f64>,
    pub node_shapes: Vec<NodeShape>,
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
    Partition,
    Down,
    Jump,
    Note,
    Mark(MarkKind),
}

/// A symbol on a row before it is set beside the others: x, half width, the mark (None: a
/// worker's note dot) and the worker index.
type Symbol = (f64, f64, Option<MarkKind>, usize);

/// Room after the run's last instant inside the plot, so symbols there stay inside it.
const END_ROOM: f64 = 48.0;
/// Half the width of a mark's symbol and of a note's dot.
const MARK_HW: f64 = 11.0;
const DOT_HW: f64 = 5.0;
/// The narrowest a danger zone's band is drawn.
pub const DANGER_MIN_W: f64 = 8.0;

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
        self.plot.x0 + (t.saturating_sub(self.t0)) as f64 / span * (self.plot.width() - END_ROOM)
    }

    /// A danger zone's band over every row: at least [`DANGER_MIN_W`] wide around its middle,
    /// so a zone of a few milliseconds is seen and no 2 px step line can hide it.
    pub fn danger_rect(&self, d: &Danger) -> Rect {
        let (x0, x1) = (self.x(d.from_ms), self.x(d.to_ms));
        let grow = ((DANGER_MIN_W - (x1 - x0)) / 2.0).max(0.0);
        Rect::new(x0 - grow, self.plot.y0 - 4.0, x1 + grow, self.plot.y1 + 4.0)
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
        // Lanes for what happened to nodes and the network, if anything did.
        let lane_names = nodes::lanes(&chart.incidents);
        let mut node_lanes = Vec::new();
        if !lane_names.is_empty() {
            ry += GROUP_GAP;
        }
        for lane in &lane_names {
            let cy = ry + LANE_H / 2.0;
            node_lanes.push(cy);
            texts.push(PageText {
                text: TextBox::new(
                    lane.clone(),
                    LABEL_SIZE,
                    Align::Right,
                    Point::new(label_right, cy),
                    0.0,
                ),
                color: style::MUTED,
            });
            ry += LANE_H;
        }
        // Room under the last row for the labels under its bars.
        if lane_names.is_empty() {
            ry += 12.0;
        }
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
            marks: Vec::new(),
            note_dots: Vec::new(),
            node_lanes,
            node_shapes: Vec::new(),
            t0,
            t1,
        };
        let end_ms = chart.end_ms;
        let mut lane_texts = Vec::new();
        page.node_shapes = nodes::place(
            &chart.incidents,
            &page.node_lanes,
            plot,
            |t| page.x(t),
            end_ms,
            &mut lane_texts,
        );
        page.texts.extend(lane_texts);
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

        page.place_notes_and_marks(chart);

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
        for (k, shown) in [
            (
                Swatch::Partition,
                page.node_shapes
                    .iter()
                    .any(|s| matches!(s, NodeShape::Partition(_))),
            ),
            (
                Swatch::Down,
                page.node_shapes
                    .iter()
                    .any(|s| matches!(s, NodeShape::Down(_))),
            ),
            (
                Swatch::Jump,
                page.node_shapes
                    .iter()
                    .any(|s| matches!(s, NodeShape::Jump { .. })),
            ),
            (Swatch::Note, !page.note_dots.is_empty()),
            (
                Swatch::Mark(MarkKind::Lost),
                page.marks.iter().any(|m| m.0 == MarkKind::Lost)
                    || page
                        .node_shapes
                        .iter()
                        .any(|s| matches!(s, NodeShape::Lost(_))),
            ),
        ] {
            if shown {
                kinds.push(k);
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
            Swatch::Mark(MarkKind::Lost) => "message lost in the network",
            Swatch::Partition => "network partition, until it heals",
            Swatch::Down => "node down: crashed, until it restarts",
            Swatch::Jump => "clock jump: the node's clock leaps this far",
            Swatch::Note => "what the worker noted or decided",
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

    /// Workers' notes: a dot at each instant on the worker's belief row and one label, below
    /// the bar, clear of the row's other labels; then the marks, side by side with the dots.
    fn place_notes_and_marks(&mut self, chart: &LeaseChart) {
        let plot = self.plot;
        let h = text::line_height(style::GUTTER_SIZE);
        // Per row: symbols (x, half width, mark or worker) and label boxes taken.
        let mut symbols: Vec<Vec<Symbol>> = vec![Vec::new(); self.row_y.len()];
        let mut taken: Vec<Vec<Rect>> = vec![Vec::new(); self.row_y.len()];
        for t in &self.texts {
            for (row, &cy) in self.row_y.iter().enumerate() {
                if t.text.rect.y0 < cy + ROW_H / 2.0 && t.text.rect.y1 > cy + BAR_H / 2.0 {
                    taken[row].push(t.text.rect);
                }
            }
        }
        // Notes whose labels would start within a few characters of each other share one
        // label ("redis-4–5 timed out ×2; 3/5 locked, validity 9792 ms").
        let mut labels: Vec<(usize, f64, String)> = Vec::new();
        for note in &chart.notes {
            if note.row >= self.row_y.len() {
                continue;
            }
            let worker_index = chart.rows[note.row].worker_index;
            for &t in &note.times {
                symbols[note.row].push(if note.lost {
                    (self.x(t), MARK_HW, Some(MarkKind::Lost), worker_index)
                } else {
                    (self.x(t), DOT_HW, None, worker_index)
                });
            }
            let x = self.x(note.times[0]);
            match labels.iter_mut().rev().find(|(row, _, _)| *row == note.row) {
                Some((_, lx, text)) if x - *lx < 60.0 => {
                    text.push_str("; ");
                    text.push_str(&note.text);
                }
                _ => labels.push((note.row, x, note.text.clone())),
            }
        }
        // Each row's labels keep their notes' time order: set side by side from their notes'
        // instants (shifted left together near the end of the axis), then, where one would
        // cover another label (a long flight's), moved to the nearest free place after the
        // label before it.
        let gap = 16.0;
        for (row, (taken, &cy)) in taken.iter_mut().zip(&self.row_y).enumerate() {
            let mine: Vec<&(usize, f64, String)> =
                labels.iter().filter(|(r, _, _)| *r == row).collect();
            if mine.is_empty() {
                continue;
            }
            let worker_index = chart.rows[row].worker_index;
            let ly = cy + BAR_H / 2.0 + 14.0;
            let widths: Vec<f64> = mine
                .iter()
                .map(|(_, _, l)| text::width(l, style::GUTTER_SIZE))
                .collect();
            let spans: Vec<(f64, f64)> = mine
                .iter()
                .zip(&widths)
                .map(|(&(_, x, _), &w)| {
                    let lx = x.min(plot.x1 - w).max(plot.x0);
                    (lx + w / 2.0, w / 2.0 + (gap - 2.0) / 2.0)
                })
                .collect();
            let centres = nodes::side_by_side(
                &spans,
                plot.x0 - (gap - 2.0) / 2.0,
                plot.x1 + (gap - 2.0) / 2.0,
            );
            let mut after = plot.x0;
            for ((&&(_, x, ref label), &w), c) in mine.iter().zip(&widths).zip(centres) {
                let box_at = |lx: f64| Rect::new(lx, ly - h / 2.0, lx + w, ly + h / 2.0);
                let free = |lx: f64| {
                    lx >= after
                        && lx + w <= plot.x1
                        && !taken.iter().any(|o| o.overlaps(&box_at(lx)))
                };
                let mut candidates = vec![c - w / 2.0, x, x - w, after];
                for o in taken.iter() {
                    candidates.push(o.x1 + gap);
                    candidates.push(o.x0 - gap - w);
                }
                let first = candidates[0];
                candidates.sort_by(|a, b| (a - first).abs().total_cmp(&(b - first).abs()));
                // A row too crowded for order keeps the label anyway, out of order.
                let placed = candidates.iter().copied().find(|&lx| free(lx)).or_else(|| {
                    candidates.iter().copied().find(|&lx| {
                        lx >= plot.x0
                            && lx + w <= plot.x1
                            && !taken.iter().any(|o| o.overlaps(&box_at(lx)))
                    })
                });
                if let Some(lx) = placed {
                    taken.push(box_at(lx));
                    after = lx + w + gap;
                    self.texts.push(PageText {
                        text: TextBox::new(
                            label.clone(),
                            style::GUTTER_SIZE,
                            Align::Left,
                            Point::new(lx, ly),
                            0.0,
                        ),
                        color: style::tone(Tone::Worker(worker_index)),
                    });
                }
            }
        }
        for m in &chart.marks {
            if let Some(row) = symbols.get_mut(m.row) {
                row.push((self.x(m.at_ms), MARK_HW, Some(m.kind), 0));
            }
        }
        for (row, mut items) in symbols.into_iter().enumerate() {
            let cy = self.row_y[row];
            items.sort_by(|a, b| a.0.total_cmp(&b.0));
            // Dots of one note closer than a dot's width are one dot; so are crosses of lost
            // messages (a worker's request to five Redlock instances lost at once is one X).
            items.dedup_by(|b, a| {
                matches!(a.2, None | Some(MarkKind::Lost)) && a.2 == b.2 && b.0 - a.0 < 2.0 * a.1
            });
            let spans: Vec<(f64, f64)> = items.iter().map(|&(x, hw, _, _)| (x, hw)).collect();
            let xs = nodes::side_by_side(&spans, plot.x0, plot.x1);
            for (&(_, _, kind, worker), x) in items.iter().zip(xs) {
                let at = Point::new(x, cy);
                match kind {
                    Some(k) => self.marks.push((k, at)),
                    None => self.note_dots.push((worker, at)),
                }
            }
        }
    }

    /// Every label's box.
    pub fn label_boxes(&self) -> Vec<Rect> {
        self.texts.iter().map(|t| t.text.rect).collect()
    }
}
