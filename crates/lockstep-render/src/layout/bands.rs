//! Where a highlighted row's band goes: the current step's outline, a refused or duplicate
//! row's tint.

use super::{Highlight, HighlightKind, Layout, Row, frame};
use crate::geom::{Point, Rect};
use crate::style;
use lockstep_core::sort;

/// How far inside the page's left and right edges the current step's outline runs.
pub const OUTLINE_SIDE: f64 = 12.0;
/// How far right of the lanes' area the current step's outline reaches to scale, where the
/// axis's words begin a few pixels further on.
const AXIS_CLEAR: f64 = 2.0;

/// Where the current step's outline leaves the top and bottom of its band over the lanes to keep
/// off its neighbours' boxes (see `Layout::dips`): each `(from, to, y)`, left to right, apart.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Dips {
    /// Down under the boxes of the lines above.
    pub top: Vec<(f64, f64, f64)>,
    /// Up over the boxes of the lines below.
    pub bottom: Vec<(f64, f64, f64)>,
}

/// The current step's outline (see [`Layout::current_outline`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Outline {
    /// The closed path, clockwise from the top left corner, every edge across or down the page.
    pub points: Vec<Point>,
    /// The band it holds over the step column, top and bottom.
    pub column: (f64, f64),
    /// The band it holds over the lanes, top and bottom (the lines above' boxes dip into it).
    pub lanes: (f64, f64),
}

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
    /// [`Layout::step_column_band`], over the lanes at [`Layout::highlight_band`], dipping
    /// under the boxes of the lines above that hang into it. None when no step is current.
    pub fn current_outline(&self, page_width: f64, inset: f64) -> Option<Outline> {
        self.outline_of(self.current?, page_width, inset)
    }

    /// The outline of row `row` as the current step's (see [`Layout::current_outline`]; a
    /// step's band layer draws it with the rows next to it only).
    pub fn outline_of(&self, row: usize, page_width: f64, inset: f64) -> Option<Outline> {
        let (top, bottom) = self.highlight_band(&Highlight {
            row,
            kind: HighlightKind::Current,
        })?;
        let (column_top, column_bottom) = self.step_column_band(row)?;
        // To scale, the axis's times and notes ("overlap 2 ms", "zoom: 6000–6004 ms") stand
        // right of the lanes: the outline ends at the lanes' edge rather than running through
        // their words to the page's (fenced-gc-pause's step 20 struck through "overlap 2 ms").
        let right = if self.ms_scale <= 0.0 {
            page_width
        } else {
            page_width.min(self.area.x1 + AXIS_CLEAR + OUTLINE_SIDE + inset)
        };
        let (x0, x1) = (OUTLINE_SIDE + inset, right - OUTLINE_SIDE - inset);
        let step = self.step_column_right() + inset;
        let mut points = vec![
            Point::new(x0, column_top + inset),
            Point::new(step, column_top + inset),
            Point::new(step, top + inset),
        ];
        for &(from, to, y) in &self.current_dips.top {
            let (from, to) = (from.max(step + 2.0 * inset), to.min(x1 - 2.0 * inset));
            if from < to {
                points.extend([
                    Point::new(from, top + inset),
                    Point::new(from, y + inset),
                    Point::new(to, y + inset),
                    Point::new(to, top + inset),
                ]);
            }
        }
        points.extend([Point::new(x1, top + inset), Point::new(x1, bottom - inset)]);
        for &(from, to, y) in self.current_dips.bottom.iter().rev() {
            let (from, to) = (from.max(step + 2.0 * inset), to.min(x1 - 2.0 * inset));
            if from < to {
                points.extend([
                    Point::new(to, bottom - inset),
                    Point::new(to, y - inset),
                    Point::new(from, y - inset),
                    Point::new(from, bottom - inset),
                ]);
            }
        }
        points.extend([
            Point::new(step, bottom - inset),
            Point::new(step, column_bottom - inset),
            Point::new(x0, column_bottom - inset),
        ]);
        Some(Outline {
            points,
            column: (column_top, column_bottom),
            lanes: (top, bottom),
        })
    }

    /// Where the current step's outline (as thick as the SVG draws it) along the top of its band
    /// over the lanes dips under the boxes of the lines above (their notes and arrows' labels)
    /// that hang into the band, so that no backing is drawn over it: the note "B holds the lock" of
    /// naive-gc-pause #16 is taller than its line's share of the gap and hid the outline's top
    /// at #17. Each dip is `(from, to, y)`: from x `from` to `to` the band's top is at `y`, in
    /// order left to right, apart. A box over which the dip would reach the row's own words is
    /// left over the outline.
    pub(super) fn dips(&self, row: usize) -> Dips {
        let width = style::CURRENT_OUTLINE_WIDTH;
        let (Some((top, bottom)), Some(r)) = (
            self.highlight_band(&Highlight {
                row,
                kind: HighlightKind::Current,
            }),
            self.rows.get(row),
        ) else {
            return Dips::default();
        };
        /// Clear of a box's edges by this much.
        const GAP: f64 = 2.0;
        /// Clear of the row's own arrowheads, on its line.
        const ARROWHEAD: f64 = 7.0;
        // The boxes drawn by the step shown: the row's own (in its band) and its neighbours'.
        let drawn: Vec<Rect> = self
            .notes
            .iter()
            .filter(|n| n.row <= row)
            .map(|n| n.rect)
            .chain(
                self.arrows
                    .iter()
                    .filter(|a| a.send_row <= row && !a.label.text.is_empty())
                    .map(|a| a.label.rect),
            )
            .collect();
        let middle = |b: &Rect| (b.y0 + b.y1) / 2.0;
        let own: Vec<Rect> = drawn
            .iter()
            .filter(|b| middle(b) >= top && middle(b) <= bottom)
            .copied()
            .collect();
        // Whether the edge at `y` (its stroke reaching `width` into the band, down for the top
        // edge) keeps off the row's own words and arrowheads from `from` to `to`.
        let clear = |(from, to, y): (f64, f64, f64), down: bool| {
            let inner = if down { y + width } else { y - width };
            let own_clear = own.iter().filter(|o| o.x0 < to && o.x1 > from).all(|o| {
                if down {
                    inner + 1.0 <= o.y0
                } else {
                    inner - 1.0 >= o.y1
                }
            });
            own_clear && (inner - r.y).abs() >= ARROWHEAD && (inner < r.y) == down
        };
        let merged = |mut dips: Vec<(f64, f64, f64)>, down: bool| {
            dips.retain(|&d| clear(d, down));
            sort::sort_by(&mut dips, |a, b| a.0.total_cmp(&b.0));
            // Overlapping dips become one, as deep as the deeper, which must still keep clear.
            let mut merged: Vec<(f64, f64, f64)> = Vec::new();
            for d in dips {
                match merged.last_mut() {
                    Some(m) if d.0 <= m.1 => {
                        let y = if down { m.2.max(d.2) } else { m.2.min(d.2) };
                        *m = (m.0, m.1.max(d.1), y);
                    }
                    _ => merged.push(d),
                }
            }
            merged.retain(|&d| clear(d, down));
            merged
        };
        let above = drawn
            .iter()
            .filter(|b| middle(b) < top && b.y1 > top)
            .map(|b| (b.x0 - GAP, b.x1 + GAP, b.y1 + 1.0))
            .collect();
        let below = drawn
            .iter()
            .filter(|b| middle(b) > bottom && b.y0 < bottom)
            .map(|b| (b.x0 - GAP, b.x1 + GAP, b.y0 - 1.0))
            .collect();
        Dips {
            top: merged(above, true),
            bottom: merged(below, false),
        }
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
    use crate::geom::Rect;
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

    /// At every step of the scenarios with boxes hanging into the next line (laying out every
    /// step of the whole catalogue takes a minute and a half), the current step's outline along
    /// the top of its band holds the row's own words and keeps off the notes and labels of the
    /// lines above (their backings hid it: naive-gc-pause #17), except where keeping off would
    /// take it into the row's own words.
    #[test]
    fn the_current_steps_outline_keeps_under_the_boxes_above() {
        const INSET: f64 = 2.0;
        let (mut checked, mut crossed) = (0, Vec::new());
        for id in [
            "naive-gc-pause",
            "careful-worker-still-loses",
            "redlock-split-votes",
            "redlock-clock-jump",
            "consensus-quorum-loss-fail-closed",
        ] {
            let trace = lockstep_core::run(&catalogue::load(id).unwrap().unwrap()).trace;
            for n in 1..=trace.events.len() {
                let at_n = layout(
                    &trace,
                    &Options {
                        upto_step: Some(n),
                        ..Options::default()
                    },
                );
                let row = at_n.current.unwrap();
                let r = &at_n.rows[row];
                let outline = at_n.current_outline(1000.0 + at_n.area.x1, INSET).unwrap();
                let path = &outline.points;
                // The top edge: from the step column's right edge to the far right corner.
                let right = path.iter().map(|p| p.x).fold(f64::MIN, f64::max);
                let end = path.iter().position(|p| p.x == right).unwrap();
                let tops: Vec<(f64, f64, f64)> = path[2..=end]
                    .windows(2)
                    .filter(|w| w[0].y == w[1].y)
                    .map(|w| (w[0].x, w[1].x, w[0].y))
                    .collect();
                // Boxes of the lines above: their middle above the band's top.
                let top = path[2].y - INSET;
                let drawn: Vec<(Rect, String)> = at_n
                    .notes
                    .iter()
                    .filter(|b| b.row <= row)
                    .map(|b| (b.rect, b.text.text.clone()))
                    .chain(
                        at_n.arrows
                            .iter()
                            .filter(|a| a.send_row <= row)
                            .map(|a| (a.label.rect, a.label.text.clone())),
                    )
                    .collect();
                let above = drawn
                    .iter()
                    .filter(|(b, _)| (b.y0 + b.y1) / 2.0 < top && b.y1 < r.y);
                // The row's own boxes, which a dip under a box above must not reach.
                let own: Vec<Rect> = at_n
                    .notes
                    .iter()
                    .map(|b| (b.row, b.rect))
                    .chain(at_n.arrows.iter().map(|a| (a.send_row, a.label.rect)))
                    .filter(|&(of, b)| {
                        of <= row
                            && (b.y0 + b.y1) / 2.0 >= top
                            && (b.y0 + b.y1) / 2.0 <= outline.lanes.1
                    })
                    .map(|(_, b)| b)
                    .collect();
                let blocked = |b: &Rect| {
                    let deep = b.y1 + 1.0 + 2.0 * INSET;
                    deep + 7.0 > r.y
                        || own
                            .iter()
                            .any(|o| o.x0 < b.x1 + 2.0 && o.x1 > b.x0 - 2.0 && o.y0 < deep + 1.0)
                };
                // The row's own words lie wholly under its top (an arrival drawn where it
                // arrives, "… (sent #4)", was labelled after the row's extent was taken, and the
                // outline ran through it: redlock-split-votes #33).
                for o in &own {
                    for &(x0, x1, y) in &tops {
                        if x0.min(x1) < o.x1 && x0.max(x1) > o.x0 && y + INSET > o.y0 {
                            crossed.push(format!(
                                "{id} #{n}: the outline's top at {y} crosses its row's {o:?}"
                            ));
                        }
                    }
                }
                for (b, text) in above {
                    for &(x0, x1, y) in &tops {
                        checked += 1;
                        let across = x0.min(x1) < b.x1 && x0.max(x1) > b.x0;
                        let clear = y - INSET >= b.y1 || y + INSET <= b.y0;
                        if across && !clear && !blocked(b) {
                            crossed.push(format!(
                                "{id} #{n}: the outline's top at {y} crosses '{text}' at {b:?}"
                            ));
                        }
                    }
                }
                // The bottom edge, from the far right corner back to the step column, keeps off
                // the boxes of the lines below drawn so far (a round's answers share a line
                // below: "OK ×2 from redis-3, redis-4" at redlock-split-votes #26).
                let step_x = path[1].x;
                let bottoms: Vec<(f64, f64, f64)> = path[end + 1..]
                    .windows(2)
                    .filter(|w| w[0].y == w[1].y && w[0].x.min(w[1].x) >= step_x)
                    .map(|w| (w[0].x, w[1].x, w[0].y))
                    .collect();
                let below = drawn
                    .iter()
                    .filter(|(b, _)| (b.y0 + b.y1) / 2.0 > outline.lanes.1 && b.y0 > r.y);
                let blocked_below = |b: &Rect| {
                    let high = b.y0 - 1.0 - 2.0 * INSET;
                    high - 7.0 < r.y
                        || own
                            .iter()
                            .any(|o| o.x0 < b.x1 + 2.0 && o.x1 > b.x0 - 2.0 && o.y1 > high - 1.0)
                };
                for (b, text) in below {
                    for &(x0, x1, y) in &bottoms {
                        checked += 1;
                        let across = x0.min(x1) < b.x1 && x0.max(x1) > b.x0;
                        let clear = y - INSET >= b.y1 || y + INSET <= b.y0;
                        if across && !clear && !blocked_below(b) {
                            crossed.push(format!(
                                "{id} #{n}: the outline's bottom at {y} crosses '{text}' at {b:?}"
                            ));
                        }
                    }
                }
            }
        }
        assert!(checked > 1000);
        assert!(crossed.is_empty(), "{}", crossed.join("\n"));
    }
}
