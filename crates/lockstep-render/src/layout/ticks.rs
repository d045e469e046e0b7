//! Time marks for the to-scale mode: round times, where they fall among the rows.

use super::{Stretch, StretchKind, Tick};
use crate::geom::{Point, Rect};
use crate::style;
use crate::text::{Align, TextBox};

/// Time ticks are at least this far apart.
const TICK_SPACING: f64 = 100.0;
/// Padding of tick labels.
const TICK_PAD: f64 = 1.0;

/// The y of simulated time `t` on the axis of `lines` (each line's y and time, top to bottom):
/// a line's y at its time, linear in between. Several lines of one instant (a burst pushed
/// apart) are a zoom: time runs on from the lowest line of the instant before to the highest
/// line of the one after. (Rows will not do: a delivery may sit level with its send, on a line
/// of an earlier instant.)
pub(super) fn y_at(lines: &[(f64, u64)], t: u64) -> Option<f64> {
    let j = lines.partition_point(|&(_, time)| time < t);
    let &(top, after_t) = lines.get(j)?;
    if after_t == t || j == 0 {
        return Some(top);
    }
    let (bottom, before_t) = lines[j - 1];
    let f = (t - before_t) as f64 / (after_t - before_t) as f64;
    Some(bottom + f * (top - bottom))
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

/// Where the time axis leaves its scale: bursts of events pushed apart for their labels (local
/// zooms) and idle stretches cut short (breaks). `lines` are each line's y and time, top to bottom;
/// `breaks` the lines after which the axis breaks.
pub(super) fn stretches(
    lines: &[(f64, u64)],
    ms_scale: f64,
    breaks: &[usize],
    label_x: f64,
) -> Vec<Stretch> {
    let mut out: Vec<Stretch> = Vec::new();
    for (k, w) in lines.windows(2).enumerate() {
        let ((y0, t0), (y1, t1)) = (w[0], w[1]);
        let kind = if breaks.contains(&k) {
            StretchKind::Break
        } else if y1 - y0 > t1.saturating_sub(t0) as f64 * ms_scale + 0.5 {
            StretchKind::Zoom
        } else {
            continue;
        };
        match out.last_mut() {
            Some(last) if last.kind == kind && kind == StretchKind::Zoom && last.y1 == y0 => {
                last.y1 = y1;
                last.to_ms = t1;
            }
            _ => out.push(Stretch {
                kind,
                y0,
                y1,
                from_ms: t0,
                to_ms: t1,
                label: None,
            }),
        }
    }
    let mut last: Option<Rect> = None;
    for s in &mut out {
        let text = match s.kind {
            // Events in the same millisecond, drawn apart to be read.
            StretchKind::Zoom if s.to_ms == s.from_ms => "zoom: < 1 ms".to_string(),
            StretchKind::Zoom => format!("zoom: {} ms", s.to_ms - s.from_ms),
            StretchKind::Break => format!("≈ {:.1} s idle", (s.to_ms - s.from_ms) as f64 / 1000.0),
        };
        let b = TextBox::new(
            text,
            style::GUTTER_SIZE,
            Align::Left,
            Point::new(label_x + 14.0, (s.y0 + s.y1) / 2.0),
            TICK_PAD,
        );
        if last.is_none_or(|l| l.y1 + 4.0 <= b.rect.y0) {
            last = Some(b.rect);
            s.label = Some(b);
        }
    }
    out
}

/// Round times along the lines (each line's y and time, top to bottom), labelled at `label_x`
/// where labels do not crowd each other or the stretches' labels; none inside a break.
pub(super) fn ticks(
    lines: &[(f64, u64)],
    ms_scale: f64,
    label_x: f64,
    stretches: &[Stretch],
) -> Vec<Tick> {
    let (Some(&(_, first)), Some(&(_, last))) = (lines.first(), lines.last()) else {
        return Vec::new();
    };
    let step = step(ms_scale);
    let mut out = Vec::new();
    let mut last_label: Option<Rect> = None;
    let mut t = first.div_ceil(step) * step;
    while t <= last {
        // Inside a break the axis has no scale, so no tick; a zoom keeps its order of time
        // (y_at follows its rows), so a round second falling in a burst still gets its tick.
        let inside = |y: f64| {
            stretches
                .iter()
                .any(|s| s.kind == StretchKind::Break && y > s.y0 - 1.0 && y < s.y1 + 1.0)
        };
        if let Some(y) = y_at(lines, t).filter(|&y| !inside(y)) {
            let b = TextBox::new(
                label(t, step),
                style::GUTTER_SIZE,
                Align::Left,
                Point::new(label_x, y),
                TICK_PAD,
            );
            let crowded = last_label.is_some_and(|l| l.y1 + 4.0 > b.rect.y0)
                || stretches
                    .iter()
                    .filter_map(|s| s.label.as_ref())
                    .any(|l| l.rect.inflate(2.0).overlaps(&b.rect));
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
