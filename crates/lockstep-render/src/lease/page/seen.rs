//! How a reader sees a lease chart, and the page it is placed on for that: whole on a page or a
//! slide, through a phone's window, or whole in a box of another shape (presenter mode's).

use super::{Fit, LeasePage, MARGIN, NARROWEST, SLIDE_H, WIDTH};
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
}

/// The narrowest page [`LeasePage::box_for`] tries: the plot still some 700 px across.
const NARROWEST_PAGE: f64 = 1000.0;
/// Room [`LeasePage::box_for`] leaves under the tallest step it measured, for the steps of a
/// long run it did not.
const STEP_SLACK: f64 = 1.03;

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

    /// The page, `(width, height)`, on which every step's chart of a run shows largest in a box
    /// `aspect` times as wide as it is tall, with its legend and verdict under the plot: the
    /// box's shape, as narrow as holds the tallest of `steps` (each step's chart and caption:
    /// the verdict so far and the overlap's line wrap to more lines at some steps than at the
    /// end, fenced-gc-pause on a 1,200 px page being 789 px tall at #15 and 884 at the end), so
    /// every step shows at one size, at the top of the box. None when no page narrower than a
    /// slide's does (a chart too tall for the box at any width).
    pub fn box_for(
        steps: &[(&LeaseChart, &Caption)],
        whole: &LeaseChart,
        aspect: f64,
    ) -> Option<(f64, f64)> {
        if !(aspect.is_finite() && aspect > 0.0) || steps.is_empty() {
            return None;
        }
        let fits = |w: f64| {
            steps.iter().all(|&(chart, caption)| {
                let page = LeasePage::place(chart, Some(whole), caption, (Fit::Below, None, w));
                page.height * STEP_SLACK <= w / aspect
            })
        };
        // Narrower pages are taller: the widths that fit are the widest few, found by halving.
        let widths: Vec<f64> = (0..)
            .map(|k| WIDTH - 50.0 * f64::from(k))
            .take_while(|&w| w >= NARROWEST_PAGE)
            .collect();
        let fitting = widths.partition_point(|&w| fits(w));
        // The narrowest of them, if narrower than a slide's page.
        (fitting > 1).then(|| {
            let w = widths[fitting - 1];
            (w, (w / aspect).floor())
        })
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
        let fit = if below.height <= SLIDE_H {
            Fit::Below
        } else {
            Fit::Beside
        };
        LeasePage::place(chart, whole, caption, (fit, None, WIDTH))
    }
}
