//! The lease chart's legend and verdict: under the plot in columns, or, where that would make
//! the chart taller than a slide, in a panel beside the plot with the legend's words wrapped.

use super::legend::swatch_label as label;
use super::{LeaseChart, LeasePage, MARGIN, Swatch, labels};
use crate::geom::{Point, Rect};
use crate::style;
use crate::svg::{Caption, Column, PageText, verdict_text};
use crate::text::{self, Align, TextBox};

/// The height of one legend entry of one line.
const ENTRY_H: f64 = 28.0;
/// A swatch's width and the room from its left edge to its words.
const SWATCH_W: f64 = 30.0;
const WORDS_DX: f64 = 40.0;

/// Writes the legend under the plot from `y` in up to three columns across `width`; returns the
/// y below it.
pub(super) fn legend_across(page: &mut LeasePage, kinds: &[Swatch], y: f64, width: f64) -> f64 {
    let col_w = kinds
        .iter()
        .map(|&k| text::width(label(k), labels::SMALL))
        .fold(0.0, f64::max)
        + SWATCH_W
        + 10.0
        + 36.0;
    let columns = ((width / col_w).floor() as usize).clamp(1, 3);
    for (i, &k) in kinds.iter().enumerate() {
        let (r, c) = (i / columns, i % columns);
        let x = MARGIN + c as f64 * col_w;
        let cy = y + r as f64 * ENTRY_H + ENTRY_H / 2.0;
        swatch(page, k, x, cy);
        page.texts.push(PageText {
            text: TextBox::new(
                label(k),
                labels::SMALL,
                Align::Left,
                Point::new(x + WORDS_DX, cy),
                0.0,
            ),
            color: style::TEXT,
        });
    }
    y + kinds.len().div_ceil(columns) as f64 * ENTRY_H
}

/// Writes the legend in one column from `(x, y)`, each entry's words wrapped to `width`; returns
/// the y below it.
pub(super) fn legend_down(
    page: &mut LeasePage,
    kinds: &[Swatch],
    x: f64,
    y: f64,
    width: f64,
) -> f64 {
    let line_h = text::line_height(labels::SMALL);
    let mut y = y;
    for &k in kinds {
        let top = y + (ENTRY_H - line_h) / 2.0;
        swatch(page, k, x, top + line_h / 2.0);
        let bottom = Column::write_at(
            &mut page.texts,
            x + WORDS_DX,
            width - WORDS_DX,
            top,
            label(k),
            labels::SMALL,
            false,
            style::TEXT,
        );
        y = (bottom + (ENTRY_H - line_h) / 2.0).max(y + ENTRY_H);
    }
    y
}

/// A legend swatch centred at height `cy` from `x`.
fn swatch(page: &mut LeasePage, k: Swatch, x: f64, cy: f64) {
    page.swatches
        .push((k, Rect::new(x, cy - 9.0, x + SWATCH_W, cy + 9.0)));
}

/// Writes the verdict from `(x, y)` within `width`: the whole run's, or in a step render what
/// the database did so far; returns the y below it.
pub(super) fn verdict(
    page: &mut LeasePage,
    chart: &LeaseChart,
    caption: &Caption,
    x: f64,
    y: f64,
    width: f64,
) -> f64 {
    let mut y = y;
    if chart.steps_shown < chart.total_steps {
        // The verdict so far in words, as the sequence view's step footer gives it, then
        // the database's counts.
        let f = chart.so_far;
        let (headline, color) = if f.payouts_paid_twice > 0 {
            (
                format!(
                    "So far (step {} of {}): {} payouts paid twice ({}).",
                    chart.steps_shown,
                    chart.total_steps,
                    f.payouts_paid_twice,
                    lockstep_core::actors::db::money(f.cents_paid_twice)
                ),
                style::DANGER,
            )
        } else {
            (
                format!(
                    "So far (step {} of {}): nothing paid twice.",
                    chart.steps_shown, chart.total_steps
                ),
                style::TEXT,
            )
        };
        y = Column::write_at(
            &mut page.texts,
            x,
            width,
            y,
            &headline,
            style::VERDICT_SIZE,
            true,
            color,
        );
        y += 4.0;
        let counts = crate::svg::so_far_counts(&f);
        y = Column::write_at(
            &mut page.texts,
            x,
            width,
            y,
            &counts,
            style::BODY_SIZE,
            false,
            style::TEXT,
        );
    } else if let Some(v) = &caption.verdict {
        let (headline, color, mark, lines) = verdict_text(v);
        let h = text::line_height(style::VERDICT_SIZE);
        page.verdict_mark = Some((mark, Point::new(x + 12.0, y + h / 2.0)));
        let x = x + 34.0;
        y = Column::write_at(
            &mut page.texts,
            x,
            width - 34.0,
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
                width - 34.0,
                y,
                &line,
                style::BODY_SIZE,
                false,
                style::TEXT,
            );
        }
    }
    y
}

/// How far right of its hatched swatch an overlap's line starts.
pub(crate) const OVERLAP_DX: f64 = 40.0;

/// Writes an overlap's line (see `legend::overlap_line`) from `(x, y)` within `width`, its
/// swatch [`OVERLAP_DX`] to its left (drawn by `draw_lease`); returns the y below it.
pub(super) fn overlap(texts: &mut Vec<PageText>, line: &str, x: f64, y: f64, width: f64) -> f64 {
    Column::write_at(
        texts,
        x,
        width,
        y,
        line,
        style::BODY_SIZE,
        true,
        style::DANGER,
    )
}
