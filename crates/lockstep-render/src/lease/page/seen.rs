//! How a reader sees a lease chart, and the page it is placed on for that: whole on a page or a
//! slide, through a phone's window, or whole in a box of another shape (presenter mode's).

use super::{Fit, LeasePage, MARGIN, NARROWEST, PANEL_W, SLIDE_H, WIDE, WIDTH};
use crate::lease::LeaseChart;
use crate::svg::Caption;

/// How a reader sees a step's chart (see [`LeasePage::stepped_in`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Seen {
    /// Whole, scaled to a page or a slide.
    Whole,
    /// Through a window this many of the chart's pixels across, narrower than the chart (a
    /// phone): what is written under the plot wraps to it, and the time ticks are finer.
    Window(f64),
    /// Whole, in a box narrower than a slide's shape: on a page `(width, height)`, the box's
    /// shape, with the legend and verdict under the plot and any room left below them (see
    /// [`LeasePage::box_for`]). Presenter mode's box beside the step's explanation showed the
    /// 1,600 px page at 9 px type, with a fifth of its height unused.
    Boxed(f64, f64),
    /// Whole, in a box the chart with its legend under the plot fits at no width narrower than
    /// a slide's: on a page `(width, height)`, the box's shape, with the legend and verdict in
    /// a panel beside the plot. consensus-fenced-failover's 1,920 px page beside the plot left
    /// presenter mode's box at 1280x720 an eighth blank above and below, its labels at 7.6 px.
    Beside(f64, f64),
}

/// The narrowest page [`LeasePage::box_for`] tries: the plot still some 700 px across.
const NARROWEST_PAGE: f64 = 1000.0;
/// The narrowest page with the legend beside the plot it tries.
const NARROWEST_BESIDE: f64 = 1200.0;
/// The narrowest plot beside the panel on a box's page: redlock-gc-pause's 13 s in 400 px,
/// beside its long row names, read as a sliver.
const BESIDE_PLOT: f64 = 500.0;
/// The least room between the plot's words and the panel beside it.
const PANEL_GAP: f64 = 8.0;
/// Room [`LeasePage::box_for`] leaves under the tallest step it measured, for the steps of a
/// long run it did not.
pub(crate) const STEP_SLACK: f64 = 1.03;

impl LeasePage {
    /// [`LeasePage::stepped`] for a reader who sees it as `seen` says. Through a window narrower
    /// than the chart (a phone), the legend goes in one column and it and the verdict wrap to
    /// the window, so they can be read without scrolling sideways (across the page, the
    /// legend's right column was never in view with its left); always under the plot: a panel
    /// beside it would be out of view.
    pub fn stepped_in(
        chart: &LeaseChart,
        whole: &LeaseChart,
        caption: &Caption,
        seen: Seen,
    ) -> LeasePage {
        LeasePage::within(chart, Some(whole), caption, seen)
    }

    /// How every step's chart of a run shows largest in a box `aspect` times as wide as it is
    /// tall: on a page of the box's shape (`Seen::Boxed` or `Seen::Beside`), as narrow as holds
    /// the tallest of `steps` with `slack` times its height (1 when they are every step, else
    /// [`STEP_SLACK`]) (each step's chart and caption: the verdict so far and the
    /// overlap's line wrap to more lines at some steps than at the end, fenced-gc-pause on a
    /// 1,200 px page being 789 px tall at #15 and 884 at the end), so every step shows at one
    /// size, at the top of the box. The legend and verdict go under the plot, or, where no page
    /// narrower than a slide's holds the chart so, beside it. None when neither does (a chart
    /// too tall for the box at any width).
    pub fn box_for(
        steps: &[(&LeaseChart, &Caption)],
        whole: &LeaseChart,
        aspect: f64,
        slack: f64,
    ) -> Option<Seen> {
        if !(aspect.is_finite() && aspect > 0.0) || steps.is_empty() {
            return None;
        }
        // The narrowest of the pages from `widest` down to `narrowest`, `by` px apart, that
        // every step fits in the box's shape, if narrower than `widest`.
        let narrowest_fitting = |fit: Fit, widest: f64, narrowest: f64, by: f64| {
            let fits = |w: f64| {
                steps.iter().all(|&(chart, caption)| {
                    let page = LeasePage::place(chart, Some(whole), caption, (fit, None, w));
                    page.height * slack <= w / aspect
                        && (fit != Fit::InBox || page.clear_of_panel())
                })
            };
            // Narrower pages are taller: the widths that fit are the widest few, found by
            // halving.
            let widths: Vec<f64> = (0..)
                .map(|k| widest - by * f64::from(k))
                .take_while(|&w| w >= narrowest)
                .collect();
            let fitting = widths.partition_point(|&w| fits(w));
            (fitting > 1).then(|| widths[fitting - 1])
        };
        // Under the plot where a page narrower than a slide's holds it (fenced-gc-pause: its
        // plot then some 900 px across, where beside a panel it would be half that), else
        // beside it.
        let height = |w: f64| (w / aspect).floor();
        if let Some(w) = narrowest_fitting(Fit::Below, WIDTH, NARROWEST_PAGE, 50.0) {
            return Some(Seen::Boxed(w, height(w)));
        }
        // Finer steps beside it: its plot's height changes little with the width, so the page
        // is as wide as the box's shape makes that height (consensus-fenced-failover at
        // 1280x720: 1,450 px, its small text at 10 px, where 1,470 px gave 9.9).
        // Only where that shows larger than the slide's page would (redlock-happy-path's
        // 1,600 px page under the plot is smaller than any beside it).
        let (chart, caption) = *steps.last()?;
        let slide = LeasePage::within(chart, Some(whole), caption, Seen::Whole);
        let as_large = slide.width.max(slide.height * aspect);
        narrowest_fitting(Fit::InBox, WIDE, NARROWEST_BESIDE, 10.0)
            .filter(|&w| w < as_large)
            .map(|w| Seen::Beside(w, height(w)))
    }

    /// Whether every word left of a box's page's panel (`Fit::InBox`) ends before it: on a
    /// narrow page a long label (a partition's, wider than the plot) ran into the legend.
    /// And whether its plot is still [`BESIDE_PLOT`] across.
    fn clear_of_panel(&self) -> bool {
        let panel_x = self.width - MARGIN - PANEL_W;
        self.plot.width() >= BESIDE_PLOT
            && self
                .texts
                .iter()
                .map(|t| t.text.rect)
                // The title runs above the panel, which starts at the plot's top.
                .filter(|r| r.x0 < panel_x && r.y1 > self.plot.y0)
                .all(|r| r.x1 <= panel_x - PANEL_GAP)
    }

    /// Places the chart with its legend under the plot if the page then fits a slide's height,
    /// else beside it. A step render decides by the whole run's page, so every step has one
    /// size.
    pub(super) fn within(
        chart: &LeaseChart,
        whole: Option<&LeaseChart>,
        caption: &Caption,
        seen: Seen,
    ) -> LeasePage {
        match seen {
            Seen::Window(w) => {
                let narrow = (w - 2.0 * MARGIN).clamp(NARROWEST, WIDTH - 2.0 * MARGIN);
                return LeasePage::place(chart, whole, caption, (Fit::Below, Some(narrow), WIDTH));
            }
            Seen::Boxed(w, h) => {
                let w = w.clamp(NARROWEST_PAGE, WIDTH);
                let mut page = LeasePage::place(chart, whole, caption, (Fit::Below, None, w));
                page.height = page.height.max(h);
                return page;
            }
            Seen::Beside(w, h) => {
                let w = w.clamp(NARROWEST_BESIDE, WIDE);
                let mut page = LeasePage::place(chart, whole, caption, (Fit::InBox, None, w));
                page.height = page.height.max(h);
                return page;
            }
            Seen::Whole => {}
        }
        let below = LeasePage::place(
            whole.unwrap_or(chart),
            whole,
            caption,
            (Fit::Below, None, WIDTH),
        );
        if below.height <= SLIDE_H && whole.is_none() {
            return below;
        }
        let (fit, width) = if below.height <= SLIDE_H {
            (Fit::Below, WIDTH)
        } else {
            (Fit::Beside, WIDE)
        };
        LeasePage::place(chart, whole, caption, (fit, None, width))
    }
}
