//! Where a highlighted row's band goes: the current step's outline, a refused or duplicate
//! row's tint.

use super::{Highlight, HighlightKind, Layout, Row, frame};
use crate::geom::{Point, Rect};
use crate::style;

/// How far inside the page's left and right edges the current step's outline runs.
pub const OUTLINE_SIDE: f64 = 12.0;

impl Layout {
    /// The top and bottom of a highlighted row's band: a payout paid twice spans its note's line
    /// only (so the next line's labels stay clear of its red edges); other rows what they draw.
    pub fn highlight_band(&self, h: &Highlight) -> Option<(f64, f64)> {
        let r = self.rows.get(h.row)?;
        Some(match h.kind {
            HighlightKind::DuplicatePayout => {
                let half = frame::marker_band_half();
                // The write that caused it may arrive on its line, labelled above its arrow.
                let top = self
                    .arrows
                    .iter()
                    .filter(|a| a.tip.y == r.y && a.end_row.is_some_and(|e| e < h.row))
                    .map(|a| a.label.rect.y0 - 3.0)
                    .fold(r.y - half, f64::min);
                (top, r.y + half)
            }
            // Its 4 px outline wholly above the row's label box (it ran a pixel into the box,
            // whose backing cut a notch in it over "OK").
            HighlightKind::Current => (r.top - 4.0, r.bottom + 3.0),
            _ => (r.top - 3.0, r.bottom + 3.0),
        })
    }

    /// The top and bottom of the current step's band over the step column, where its outline
    /// steps down (and up) to keep off the step and time of the lines above and below: a row's
    /// label may sit a few pixels under the line above, beside that line's step and time, and
    /// the outline ran through "#23-24 │ 10–11 ms" (redlock-gc-pause #25). Over the lanes the
    /// band holds what the row draws ([`Layout::highlight_band`]); a neighbour's label or note
    /// beside it has a backing drawn over the outline.
    pub fn step_column_band(&self, row: usize) -> Option<(f64, f64)> {
        let r = self.rows.get(row)?;
        let (top, bottom) = (r.top - 4.0, r.bottom + 3.0);
        let (above, below) = self.neighbours_reach(r);
        // Never onto its own step and time.
        let own = 0.5 * style::GUTTER_SIZE + style::CURRENT_OUTLINE_WIDTH + 1.0;
        Some((
            top.max((above + 1.0).min(r.y - own)),
            bottom.min((below - 1.0).max(r.y + own)),
        ))
    }

    /// How far right the step column's part of the current step's outline reaches (the yellow
    /// marker's right edge), where its top and bottom step.
    pub fn step_column_right(&self) -> f64 {
        (self.area.x0 - 12.0).max(OUTLINE_SIDE + 8.0)
    }

    /// The current step's outline on a page `page_width` wide, as a closed path `inset` px
    /// inside its band (the middle of a stroke twice that wide): over the step column at
    /// [`Layout::step_column_band`], over the lanes at [`Layout::highlight_band`]. None when no
    /// step is current.
    pub fn current_outline(&self, page_width: f64, inset: f64) -> Option<Vec<Point>> {
        let row = self.current?;
        let (top, bottom) = self.highlight_band(&Highlight {
            row,
            kind: HighlightKind::Current,
        })?;
        let (column_top, column_bottom) = self.step_column_band(row)?;
        let (x0, x1) = (OUTLINE_SIDE + inset, page_width - OUTLINE_SIDE - inset);
        let step = self.step_column_right() + inset;
        Some(vec![
            Point::new(x0, column_top + inset),
            Point::new(step, column_top + inset),
            Point::new(step, top + inset),
            Point::new(x1, top + inset),
            Point::new(x1, bottom - inset),
            Point::new(step, bottom - inset),
            Point::new(step, column_bottom - inset),
            Point::new(x0, column_bottom - inset),
        ])
    }

    /// How far the step and time of the line just above `r`'s reach down, and those of the
    /// line just below up.
    fn neighbours_reach(&self, r: &Row) -> (f64, f64) {
        self.adjacent_rows(r)
            .fold((f64::NEG_INFINITY, f64::INFINITY), |(above, below), o| {
                if o.y < r.y {
                    (above.max(o.gutter.ink().1), below)
                } else {
                    (above, below.min(o.gutter.ink().0))
                }
            })
    }

    /// The rows on the lines next to `r`'s, above and below.
    pub(crate) fn adjacent_rows<'a>(&'a self, r: &Row) -> impl Iterator<Item = &'a Row> {
        let (above, below) =
            self.rows
                .iter()
                .fold((f64::NEG_INFINITY, f64::INFINITY), |(above, below), o| {
                    if o.y < r.y {
                        (above.max(o.y), below)
                    } else if o.y > r.y {
                        (above, below.min(o.y))
                    } else {
                        (above, below)
                    }
                });
        self.rows
            .iter()
            .filter(move |o| o.y == above || o.y == below)
    }

    /// Where a refused or duplicate row's tint (and its edges) goes: over the lanes only, from
    /// just right of the gutter to the last lane's margin, so it never runs through a row's
    /// step and time nor under the legend. None for the current step (its band starts at the
    /// gutter, which it points at) and for rows not shown.
    pub fn tint_rect(&self, h: &Highlight) -> Option<Rect> {
        if h.kind == HighlightKind::Current {
            return None;
        }
        let (top, bottom) = self.highlight_band(h)?;
        // As far as the danger band reaches either side (see the overlap spans).
        Some(Rect::new(
            self.area.x0 - 8.0,
            top,
            self.area.x1 + 8.0,
            bottom,
        ))
    }
}

#[cfg(test)]
mod tests {
    use crate::layout::{Highlight, HighlightKind, Options, TimeMode, layout};
    use lockstep_core::catalogue;

    /// At every step the current step's outline (drawn inside its band) keeps off the step and
    /// time of every other line over the step column: it ran through the line above's at
    /// redlock-gc-pause #25.
    #[test]
    fn the_current_steps_outline_keeps_off_other_lines_steps_and_times() {
        for id in [
            "redlock-gc-pause",
            "fenced-gc-pause",
            "consensus-isolated-leader",
        ] {
            let trace = lockstep_core::run(&catalogue::load(id).unwrap().unwrap()).trace;
            for mode in [TimeMode::Logical, TimeMode::ToScale] {
                for n in 1..=trace.events.len() {
                    let at_n = layout(
                        &trace,
                        &Options {
                            time_mode: mode,
                            upto_step: Some(n),
                            ..Options::default()
                        },
                    );
                    let row = at_n.current.unwrap();
                    let (top, bottom) = at_n.step_column_band(row).unwrap();
                    // Over the lanes it holds what the row draws.
                    let lanes = at_n
                        .highlight_band(&Highlight {
                            row,
                            kind: HighlightKind::Current,
                        })
                        .unwrap();
                    assert!(lanes.0 <= top && bottom <= lanes.1, "{id} {mode:?} #{n}");
                    let y = at_n.rows[row].y;
                    for o in at_n.rows.iter().filter(|o| o.y != y) {
                        let g = o.gutter.ink();
                        assert!(
                            g.1 <= top || g.0 >= bottom,
                            "{id} {mode:?} #{n}: the outline {top}..{bottom} crosses '{}' \
                             at {}..{}",
                            o.gutter.one_line(),
                            g.0,
                            g.1
                        );
                    }
                }
            }
        }
    }
}
