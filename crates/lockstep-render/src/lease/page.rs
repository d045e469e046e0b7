//! Where everything of a lease chart goes: rows, bars' tokens, marks side by side inside the
//! axis, the nodes-and-network lanes, the time axis from 0, the legend and the verdict.

pub(crate) mod labels;
mod legend;
mod panel;
mod seen;
pub(crate) mod symbols;

pub(crate) use seen::STEP_SLACK;
pub use seen::Seen;

use legend::{narrow_tick_step, overlap_line, roomy_tick_step, tick_label, tick_step};
pub(crate) use panel::OVERLAP_DX;

use super::nodes::{self, NodeShape};
use super::{Danger, LeaseChart, LeaseRowKind};
use crate::geom::{Point, Rect};
use crate::layout::MarkKind;
use crate::style;
use crate::svg::{Caption, Column, PageText};
use crate::text::{self, Align, TextBox};

/// The width of a chart with its legend and verdict under its plot (every chart on a phone).
pub const WIDTH: f64 = 1600.0;
/// The tallest a chart may be: a 1920x1080 slide's height, so it is projected at full size.
pub const SLIDE_H: f64 = 1080.0;
/// The width of a chart whose legend and verdict stand beside its plot: a slide's width.
pub(crate) const WIDE: f64 = 1920.0;
/// The narrowest the legend and verdict are wrapped to for a narrow window.
const NARROWEST: f64 = 240.0;
/// The width of that panel beside the plot.
const PANEL_W: f64 = 480.0;
pub(crate) const MARGIN: f64 = 24.0;
/// The least height of the plot.
const ROW_H: f64 = 54.0;
pub(crate) const BAR_H: f64 = 24.0;
/// Room above a bar (or a lane's shapes) in its band.
const ROW_PAD: f64 = 8.0;
/// The same where the chart must be compact to fit a slide.
const TIGHT_ROW_PAD: f64 = 5.0;
/// From a bar's bottom edge to its first level of labels: room for a long flight's line.
const UNDER_BAR: f64 = 10.0;
/// Between the bands of one worker's rows, and (more) between workers and lanes.
const BAND_GAP: f64 = 4.0;
const GROUP_GAP: f64 = 14.0;
const TIGHT_GROUP_GAP: f64 = 8.0;

/// Where the legend and the verdict go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fit {
    /// Under the plot, on a 1600 px page (or as wide as `Seen::Boxed` says).
    Below,
    /// In a panel beside the plot, on a 1920 px page (or as wide as `Seen::Beside` says) with
    /// tighter rows: for a chart that would be taller than a slide with them under the plot
    /// (many instances, lanes or labels).
    Beside,
    /// Beside, on a box's page (`Seen::Beside`): the overlaps' lines in the panel under the
    /// verdict rather than under the plot, half the margins above and below, and room above
    /// the plot for what goes there only, so the page is as short as the plot allows.
    InBox,
}
const LABEL_SIZE: f64 = 18.0;

/// Where everything of a lease chart goes.
#[derive(Debug, Clone, PartialEq)]
pub struct LeasePage {
    pub width: f64,
    pub height: f64,
    /// The plot area (time across).
    pub plot: Rect,
    /// Each row's bar line.
    pub row_y: Vec<f64>,
    /// Each row's band, then each node lane's (top, bottom): its bar or shapes and the labels
    /// under them; bands never overlap.
    pub bands: Vec<(f64, f64)>,
    /// Labels that belong to a row or lane: its band's index and the label's box.
    pub owned: Vec<(usize, Rect)>,
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
    /// Where the database paid twice: a band across every row at that instant.
    pub harm: Vec<Rect>,
    /// Hairlines from a symbol down to its label, where a label ends at its symbol under
    /// others (from, to, colour).
    pub leaders: Vec<(Point, Point, crate::style::Rgb)>,
    t0: u64,
    t1: u64,
}

/// A legend swatch of the lease chart.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Swatch {
    ServiceHolds,
    Believes,
    /// A belief the service no longer backs: hatched over the belief bar.
    Stale,
    Paused,
    Danger,
    Current,
    Partition,
    /// A partition that never heals in the whole run.
    OpenPartition,
    /// A partition not healed by the step shown (a step render).
    OpenPartitionSoFar,
    Down,
    Jump,
    /// An instant on a node's lane: a failover, a restart, a leader, an election.
    Tick,
    Note,
    /// A worker's message long in the network: a line from its sending to its arrival.
    Flight,
    /// The master or leader over time.
    Leader,
    /// The database's `last_token` over time.
    LastToken,
    /// A write that paid payouts a second time: a band at its instant.
    Harm,
    /// A consensus service's session lease kept alive (etcd's keepalive), also while its
    /// worker holds no lock: the same diamond as a renewal.
    SessionRenewed,
    Mark(MarkKind),
}

/// Room after the run's last instant inside the plot, so symbols there stay inside it.
const END_ROOM: f64 = 48.0;
/// Half the width of the band where a write paid twice.
pub const HARM_HW: f64 = 4.0;
/// The narrowest a danger zone's band is drawn.
pub const DANGER_MIN_W: f64 = 8.0;

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
        LeasePage::within(chart, None, caption, Seen::Whole)
    }

    /// Places a step's chart in the frame of the whole run's (`whole`): every row as tall as it
    /// is at any step and every lane the run will have, so stepping never moves a row.
    pub fn stepped(chart: &LeaseChart, whole: &LeaseChart, caption: &Caption) -> LeasePage {
        LeasePage::within(chart, Some(whole), caption, Seen::Whole)
    }

    fn place(
        chart: &LeaseChart,
        whole: Option<&LeaseChart>,
        caption: &Caption,
        (fit, narrow, width): (Fit, Option<f64>, f64),
    ) -> LeasePage {
        let (row_pad, group_gap) = match fit {
            Fit::Below => (ROW_PAD, GROUP_GAP),
            Fit::Beside | Fit::InBox => (TIGHT_ROW_PAD, TIGHT_GROUP_GAP),
        };
        // The panel beside the plot (Fit::Beside), and the right edge of everything else.
        let panel_x = width - MARGIN - PANEL_W;
        let right = match fit {
            Fit::Below => width - MARGIN,
            Fit::Beside | Fit::InBox => panel_x - 24.0,
        };
        let mut texts = Vec::new();
        let text_w = width - 2.0 * MARGIN;
        // The title and subtitle wrap to a narrow window as the legend does: a phone keeps them
        // pinned at its left, and one line of them ran past its right edge.
        let head_w = narrow.unwrap_or(text_w);
        // A box's page has a box's padding around it: half the margin above and below.
        let edge = if fit == Fit::InBox {
            MARGIN / 2.0
        } else {
            MARGIN
        };
        let mut y = edge;
        // A run without a lock service (idempotency keys) has no lock to ask about.
        let lockless = !chart.rows.iter().any(|r| {
            matches!(
                r.kind,
                LeaseRowKind::ServiceHolds | LeaseRowKind::Instance | LeaseRowKind::Leader
            )
        });
        let question = if lockless {
            "Who wrote when?"
        } else {
            "Who holds the lock?"
        };
        let title = format!("{question} {}", caption.title);
        y = Column::write_at(
            &mut texts,
            MARGIN,
            head_w,
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
            head_w,
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
                head_w,
                y,
                &q,
                style::SUBTITLE_SIZE,
                false,
                style::MUTED,
            );
        }
        // Room above the plot for "paid twice" and the current step's label.
        let marked = whole.unwrap_or(chart);
        // On a box's page, the subtitle's lines run over the narrow plot, where "paid twice"
        // goes: room for all of it; room for the step's label only where nothing was paid
        // twice.
        let harm = !marked.harm.is_empty();
        y += match (fit, harm, chart.current_ms.is_some()) {
            (Fit::InBox, true, _) => 44.0,
            (Fit::InBox, false, true) => 24.0,
            (Fit::Below, _, _) | (_, true, _) | (_, _, true) => 36.0,
            _ => 16.0,
        };

        // Row labels, right-aligned left of the plot.
        let label_w = chart
            .rows
            .iter()
            .map(|r| text::width(&r.label, LABEL_SIZE))
            .fold(0.0, f64::max);
        let label_right = MARGIN + label_w;
        let plot_x0 = label_right + 24.0;
        let plot_x1 = right - 40.0;
        let plot_top = y;
        // The whole run's time, at every step: stepping never rescales the axis.
        let (t0, t1) = (
            chart.start_ms,
            chart.axis_end_ms.max(chart.end_ms).max(chart.start_ms + 1),
        );
        let mut page = LeasePage {
            width,
            height: 0.0,
            plot: Rect::new(plot_x0, plot_top, plot_x1, plot_top + ROW_H),
            row_y: Vec::new(),
            bands: Vec::new(),
            owned: Vec::new(),
            texts,
            ticks: Vec::new(),
            swatches: Vec::new(),
            verdict_mark: None,
            marks: Vec::new(),
            note_dots: Vec::new(),
            node_lanes: Vec::new(),
            node_shapes: Vec::new(),
            harm: Vec::new(),
            leaders: Vec::new(),
            t0,
            t1,
        };
        // Labels under the bars, in levels (their x does not depend on the rows' heights).
        // Each label by its own symbol as drawn (symbols at one instant stand side by side).
        let x_of = |t: u64| page.x(t);
        let placed = symbols::symbols(chart, x_of, plot_x0, plot_x1);
        let row_labels = labels::row_labels(chart, &placed, x_of, plot_x0, plot_x1);
        let mut frame = labels::Frame::of(chart, &row_labels, x_of, page.plot);
        if let Some(w) = whole {
            let whole_placed = symbols::symbols(w, x_of, plot_x0, plot_x1);
            let whole_labels = labels::row_labels(w, &whole_placed, x_of, plot_x0, plot_x1);
            frame = labels::Frame::of(w, &whole_labels, x_of, page.plot).max(frame);
        }
        let level_h = labels::level_h();
        let h = text::line_height(labels::SMALL);
        // Each row's band: room above the bar, the bar, a long flight's line under it, then
        // its levels of labels; each label lies inside its own row's band.
        let mut ry = plot_top;
        for (i, r) in chart.rows.iter().enumerate() {
            if i > 0 && chart.rows[i - 1].worker != r.worker {
                ry += group_gap;
            }
            let cy = ry + row_pad + BAR_H / 2.0;
            let under = cy + BAR_H / 2.0 + UNDER_BAR;
            let levels = frame.row_levels.get(i).copied().unwrap_or(0);
            let flight = frame.row_flight.get(i).copied().unwrap_or(false);
            let bottom = if levels > 0 {
                under + levels as f64 * level_h
            } else if flight {
                under
            } else {
                cy + BAR_H / 2.0 + row_pad
            };
            // The row's name, centred on its bar, needs its own height too.
            let bottom = bottom.max(cy + text::line_height(LABEL_SIZE) / 2.0 + 2.0);
            page.row_y.push(cy);
            page.bands.push((ry, bottom));
            let color = labels::row_color(r);
            page.texts.push(PageText {
                text: TextBox::new(
                    r.label.clone(),
                    LABEL_SIZE,
                    Align::Right,
                    Point::new(label_right, cy),
                    0.0,
                ),
                color,
            });
            if labels::never(whole.unwrap_or(chart), i) {
                page.texts.push(PageText {
                    text: TextBox::new(
                        "never",
                        labels::SMALL,
                        Align::Left,
                        Point::new(plot_x0 + 8.0, cy),
                        0.0,
                    ),
                    color: style::MUTED,
                });
            }
            for l in &row_labels[i] {
                let ly = under + h / 2.0 + l.level as f64 * level_h;
                let t = TextBox::new(
                    l.text.clone(),
                    labels::SMALL,
                    Align::Left,
                    Point::new(l.x, ly),
                    0.0,
                );
                if let Some(lx) = l.leader {
                    let from = Point::new(lx, cy + BAR_H / 2.0 + 2.0);
                    page.leaders
                        .push((from, Point::new(lx, t.rect.y0), l.color));
                }
                page.owned.push((i, t.rect));
                page.texts.push(PageText {
                    text: t,
                    color: l.color,
                });
            }
            ry = bottom + BAND_GAP;
        }
        // Lanes for what happened to nodes and the network, if anything did: the shapes on a
        // line near the top of each lane's band, their labels in levels under them.
        if !frame.lanes.is_empty() {
            ry += group_gap;
        }
        for (lane, name) in frame.lanes.iter().enumerate() {
            let cy = ry + row_pad + nodes::SHAPE_HALF;
            let bottom = (cy + nodes::SHAPE_HALF + 3.0 + frame.lane_levels[lane] as f64 * level_h)
                .max(cy + text::line_height(LABEL_SIZE) / 2.0 + 2.0);
            page.node_lanes.push(cy);
            page.bands.push((ry, bottom));
            page.texts.push(PageText {
                text: TextBox::new(
                    name.clone(),
                    LABEL_SIZE,
                    Align::Right,
                    Point::new(label_right, cy),
                    0.0,
                ),
                color: style::MUTED,
            });
            ry = bottom + BAND_GAP;
        }
        page.plot.y1 = ry.max(plot_top + ROW_H);
        let plot = page.plot;
        let end_ms = chart.end_ms;
        let mut lane_texts = Vec::new();
        page.node_shapes = nodes::place(
            &chart.incidents,
            &frame.lanes,
            &page.node_lanes,
            plot,
            |t| page.x(t),
            end_ms,
            &mut lane_texts,
        )
        .0;
        let rows = chart.rows.len();
        for (lane, t) in lane_texts {
            page.owned.push((rows + lane, t.text.rect));
            page.texts.push(t);
        }
        // Tokens, holders, leaders inside the bars wide enough for them (the others' are under
        // their bars).
        for (k, (row, &cy)) in chart.rows.iter().zip(&page.row_y).enumerate() {
            for iv in &row.intervals {
                let Some((inside, _)) = labels::bar_text(chart, k, iv) else {
                    continue;
                };
                let x0 = page.x(iv.from_ms);
                if labels::token_inside(chart, k, iv, |t| page.x(t)) {
                    let color = if row.kind == LeaseRowKind::Believes {
                        style::BACKGROUND
                    } else {
                        style::TEXT
                    };
                    page.texts.push(PageText {
                        text: TextBox::new(
                            inside,
                            labels::SMALL,
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

        page.place_symbols(&placed);

        // Time axis: finer in a narrow window, which shows a few seconds of the plot at a time.
        let px_per_ms = (plot.width() - END_ROOM) / (t1 - t0) as f64;
        let step = match narrow {
            Some(_) => narrow_tick_step(t1 - t0, px_per_ms),
            None if fit == Fit::InBox => roomy_tick_step(t1 - t0, px_per_ms),
            None => tick_step(t1 - t0),
        };
        let mut t = t0.div_ceil(step) * step;
        let axis_y = plot.y1 + 16.0;
        while t <= t1 {
            let x = page.x(t);
            page.ticks.push((x, t));
            page.texts.push(PageText {
                text: TextBox::new(
                    tick_label(t, step),
                    labels::SMALL,
                    Align::Center,
                    Point::new(x, axis_y),
                    0.0,
                ),
                color: style::MUTED,
            });
            t += step;
        }
        // Labels of the current step and of the danger zones, above the plot.
        // The harm where it happens: a band at each write that paid twice, named above the
        // plot (a line above the current step's label).
        for h in &chart.harm {
            let x = page.x(h.at_ms);
            page.harm.push(Rect::new(
                x - HARM_HW,
                plot.y0 - 4.0,
                x + HARM_HW,
                plot.y1 + 4.0,
            ));
            let t = TextBox::new(
                "paid twice".to_string(),
                labels::SMALL,
                Align::Center,
                Point::new(x, plot.y0 - 30.0),
                0.0,
            )
            .bold();
            // Kept inside the page's margins, and clear of the current step's label a line
            // below (on a narrow page the write that paid twice can be near the step shown).
            let mut dx = (MARGIN - t.rect.x0).max(0.0) + (right - t.rect.x1).min(0.0);
            if let Some(now) = chart.current_ms {
                let step_hw =
                    text::width(&format!("step {}", chart.steps_shown), labels::SMALL) / 2.0 + 8.0;
                let (now_x, half) = (page.x(now), t.rect.width() / 2.0);
                let at = x + dx;
                if (at - now_x).abs() < half + step_hw {
                    let left = now_x - step_hw - half;
                    dx = if left - half >= MARGIN {
                        left - x
                    } else {
                        now_x + step_hw + half - x
                    };
                }
            }
            page.texts.push(PageText {
                text: TextBox::new(
                    t.text.clone(),
                    labels::SMALL,
                    Align::Center,
                    Point::new(x + dx, plot.y0 - 30.0),
                    0.0,
                )
                .bold(),
                color: style::DANGER,
            });
        }
        if let Some(now) = chart.current_ms {
            let x = page.x(now);
            page.texts.push(PageText {
                text: TextBox::new(
                    format!("step {}", chart.steps_shown),
                    labels::SMALL,
                    Align::Center,
                    Point::new(x, plot.y0 - 12.0),
                    0.0,
                )
                .bold(),
                color: style::TEXT,
            });
        }
        // The overlaps' lines under the axis, or, on a box's page, in the panel under the
        // verdict (there, they took two lines' height from the plot), the page ending under
        // the axis's labels.
        let overlaps: Vec<String> = chart
            .danger
            .iter()
            .map(|d| overlap_line(chart, d))
            .collect();
        let mut y = if fit == Fit::InBox {
            axis_y + text::line_height(labels::SMALL) / 2.0
        } else {
            axis_y + 24.0
        };
        if fit != Fit::InBox {
            let mark_x = MARGIN + OVERLAP_DX;
            for line in &overlaps {
                y = panel::overlap(
                    &mut page.texts,
                    line,
                    mark_x,
                    y,
                    narrow.map_or(right - mark_x, |w| w - OVERLAP_DX),
                );
            }
        }

        // The legend and the verdict: under the plot, or in the panel beside it.
        let kinds = legend::kinds(chart, &page);
        let bottom = match fit {
            Fit::Below => {
                y = match narrow {
                    Some(w) => panel::legend_down(&mut page, &kinds, MARGIN, y + 12.0, w),
                    None => panel::legend_across(&mut page, &kinds, y + 12.0, text_w),
                } + 20.0;
                panel::verdict(
                    &mut page,
                    chart,
                    caption,
                    MARGIN,
                    y,
                    narrow.unwrap_or(text_w),
                )
            }
            Fit::Beside | Fit::InBox => {
                let py = panel::legend_down(&mut page, &kinds, panel_x, plot_top, PANEL_W) + 20.0;
                let mut py = panel::verdict(&mut page, chart, caption, panel_x, py, PANEL_W);
                if fit == Fit::InBox {
                    let x = panel_x + OVERLAP_DX;
                    for line in &overlaps {
                        py = panel::overlap(
                            &mut page.texts,
                            line,
                            x,
                            py + 12.0,
                            PANEL_W - OVERLAP_DX,
                        );
                    }
                }
                y.max(py)
            }
        };
        page.height = (bottom + edge).ceil();
        page
    }

    /// The rows' symbols, side by side inside the plot (see [`symbols`]).
    fn place_symbols(&mut self, placed: &[Vec<symbols::Symbol>]) {
        for (row, items) in placed.iter().enumerate() {
            let Some(&cy) = self.row_y.get(row) else {
                continue;
            };
            for s in items {
                let at = Point::new(s.x, cy);
                match s.kind {
                    Some(k) => self.marks.push((k, at)),
                    None => self.note_dots.push((s.worker, at)),
                }
            }
        }
    }

    /// Every label's box.
    pub fn label_boxes(&self) -> Vec<Rect> {
        self.texts.iter().map(|t| t.text.rect).collect()
    }
}
