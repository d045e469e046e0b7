//! Time marks for the to-scale mode: round times, where they fall among the rows.

use super::{Row, Tick};
use crate::geom::{Point, Rect};
use crate::style;
use crate::text::{Align, TextBox};

/// Time ticks are at least this far apart.
const TICK_SPACING: f64 = 100.0;
/// Padding of tick labels.
const TICK_PAD: f64 = 1.0;

/// The y of simulated time `t` among `rows`: a row's y at its time, linear in between.
pub(super) fn y_at(rows: &[Row], t: u64) -> Option<f64> {
    let j = rows.partition_point(|r| r.time_ms < t);
    let after = rows.get(j)?;
    if after.time_ms == t || j == 0 {
        return Some(after.y);
    }
    let before = &rows[j - 1];
    let f = (t - before.time_ms) as f64 / (after.time_ms - before.time_ms) as f64;
    Some(before.y + f * (after.y - before.y))
}

/// The smallest of 1, 2, 5, 10, 20, 50... ms that is at least [`TICK_SPACING`] px on the scale.
fn step(ms_scale: f64) -> u64 {
    for unit in (0..15).map(|k| 10u64.pow(k)) {
        for m in [1, 2, 5] {
            if (unit * m) as f64 * ms_scale >= TICK_SPACING {
                return unit * m;
            }
        }
    }
    10u64.pow(15)
}

fn label(t: u64, step: u64) -> String {
    if step >= 1000 && t.is_multiple_of(1000) {
        format!("{} s", t / 1000)
    } else if step >= 100 {
        format!("{:.1} s", t as f64 / 1000.0)
    } else {
        format!("{t} ms")
    }
}

/// Round times across the rows, labelled at `label_x` where labels do not crowd each other.
pub(super) fn ticks(rows: &[Row], ms_scale: f64, label_x: f64) -> Vec<Tick> {
    let (Some(first), Some(last)) = (rows.first(), rows.last()) else {
        return Vec::new();
    };
    let step = step(ms_scale);
    let mut out = Vec::new();
    let mut last_label: Option<Rect> = None;
    let mut t = first.time_ms.div_ceil(step) * step;
    while t <= last.time_ms {
        if let Some(y) = y_at(rows, t) {
            let b = TextBox::new(
                label(t, step),
                style::GUTTER_SIZE,
                Align::Left,
                Point::new(label_x, y),
                TICK_PAD,
            );
            let crowded = last_label.is_some_and(|l| l.y1 + 4.0 > b.rect.y0);
            if !crowded {
                last_label = Some(b.rect);
            }
            out.push(Tick {
                time_ms: t,
                y,
                label: (!crowded).then_some(b),
            });
        }
        t += step;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_and_labels() {
        assert_eq!(step(0.1), 1000);
        assert_eq!(step(0.25), 500);
        assert_eq!(step(1.0), 100);
        assert_eq!(label(3000, 1000), "3 s");
        assert_eq!(label(1500, 500), "1.5 s");
        assert_eq!(label(40, 20), "40 ms");
    }
}
