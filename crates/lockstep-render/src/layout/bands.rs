//! Where a highlighted row's band goes: the current step's outline, a refused or duplicate
//! row's tint.

use super::{Highlight, HighlightKind, Layout, Row, frame};
use crate::geom::Rect;
use crate::style;

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
            // The outline is drawn inside the band: it keeps off the step and time of the lines
            // above and below (a row's label sits only a few pixels under the line above, whose
            // step and time reach below it; the outline ran through "#23-24 │ 10–11 ms").
            HighlightKind::Current => {
                let (above, below) = self.neighbours_reach(r);
                // Into this row's own label box if need be: its backing is drawn over the
                // outline, and a few pixels of box are all the two lines leave.
                // Never onto its own step and time, though.
                let own = 0.5 * style::GUTTER_SIZE + style::CURRENT_OUTLINE_WIDTH + 1.0;
                let top = (r.top - 3.0).max((above + 1.0).min(r.y - own));
                let bottom = (r.bottom + 3.0).min((below - 1.0).max(r.y + own));
                (top, bottom)
            }
            _ => (r.top - 3.0, r.bottom + 3.0),
        })
    }

    /// How far the step and time of the line just above `r`'s reach down, and those of the
    /// line just below up. Only those: a neighbour's label or note may share the band's height
    /// beside it (rows are packed), and its backing is drawn over the outline; an outline kept
    /// off them too no longer held its own row's label (or the web page's caption at its place).
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
    /// time of every other line: it ran through the line above's at redlock-gc-pause #25.
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
                    let (top, bottom) = at_n
                        .highlight_band(&Highlight {
                            row,
                            kind: HighlightKind::Current,
                        })
                        .unwrap();
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
