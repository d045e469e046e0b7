//! Time marks for the to-scale mode: round times, where they fall among the rows, and the
//! marked stretches where the axis leaves the picture's scale (bursts drawn in order, stacks,
//! breaks).

use super::place::scale::Plan;
use super::{Stretch, StretchKind, Tick};
use crate::geom::{Point, Rect};
use crate::style;
use crate::text::{Align, TextBox};

/// Time ticks are at least this far apart...
const TICK_SPACING: f64 = 60.0;
/// ...except that a second this long or longer gets its tick (a tick label is about 20 px tall
/// with its padding).
const SECOND_MIN: f64 = 28.0;
/// Padding of tick labels.
const TICK_PAD: f64 = 1.0;

/// The y of simulated time `t` on the axis of `lines` (each line's y and time, top to bottom):
/// a line's y at its time, linear in between. Several lines of one instant (rows pushed apart)
/// are a stack: time runs on from the lowest line of the instant before to the highest line of
/// the one after. (Rows will not do: a delivery may sit level with its send, on a line
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

/// The smallest of 1, 2, 5, 10, 20, 50... ms that is at least [`TICK_SPACING`] px on the scale,
/// but a second wherever a second is [`SECOND_MIN`] px or more: every round second has its tick.
fn step(ms_scale: f64) -> u64 {
    let step = step_at(ms_scale, TICK_SPACING);
    if 1000.0 * ms_scale >= SECOND_MIN {
        step.min(1000)
    } else {
        step
    }
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

/// A burst's band reaches this far above its first line and below its last (its first row's
/// label sits above its line), unless a label or note straddles that edge.
const BAND_PAD: f64 = 14.0;
/// A band's edge keeps this far from the text boxes it passes.
const BAND_CLEAR: f64 = 2.0;

/// A burst's band from its first line `y0` to its last `y1`, its edges moved off the text `boxes`
/// they would cut: a box straddling the top edge (the first row's label, above its line) is
/// taken in; one straddling the bottom edge is taken in if it hangs from the band's last line,
/// else (the next row's label) left out.
fn band(y0: f64, y1: f64, boxes: &[Rect]) -> (f64, f64) {
    let (mut top, mut bottom) = (y0 - BAND_PAD, y1 + BAND_PAD);
    for r in boxes {
        if r.y0 < top && r.y1 > top && r.y1 <= y1 {
            top = top.min(r.y0 - BAND_CLEAR);
        }
    }
    // Below: what hangs from the last line is taken in, the next row's label left out; where
    // the two overlap in height (in different lanes), the edge runs between them.
    let (mut hang, mut next) = (f64::NEG_INFINITY, f64::INFINITY);
    for r in boxes {
        if r.y0 <= y1 && r.y1 > y1 {
            hang = hang.max(r.y1);
        } else if r.y0 > y1 && r.y0 < bottom && r.y1 > bottom {
            next = next.min(r.y0);
        }
    }
    if hang + BAND_CLEAR <= next - BAND_CLEAR {
        bottom = bottom
            .max(hang + BAND_CLEAR)
            .min(next - BAND_CLEAR)
            .max(y1 + BAND_CLEAR);
    } else {
        bottom = (hang + next) / 2.0;
    }
    (top, bottom)
}

/// Room a burst's label may need (the widest the picture reserves beside the time marks).
pub(super) const WIDEST_LABEL: &str = "100000–100000 ms, in order";

/// "6000–6008 ms, in order": a burst's time range (its rows are in order, not to scale).
fn burst_label(from_ms: u64, to_ms: u64) -> String {
    if from_ms == to_ms {
        format!("{from_ms} ms, in order")
    } else {
        format!("{from_ms}–{to_ms} ms, in order")
    }
}

/// "8.0 s" or "624 ms".
fn duration(ms: u64) -> String {
    if ms >= 1000 {
        format!("{:.1} s", ms as f64 / 1000.0)
    } else {
        format!("{ms} ms")
    }
}

/// The smallest of 1, 2, 5, 10... ms that is at least `spacing` px at `px_per_ms`.
fn step_at(px_per_ms: f64, spacing: f64) -> u64 {
    for unit in (0..15).map(|k| 10u64.pow(k)) {
        for m in [1, 2, 5] {
            if (unit * m) as f64 * px_per_ms >= spacing {
                return unit * m;
            }
        }
    }
    10u64.pow(15)
}

fn stretch(kind: StretchKind, (y0, t0): (f64, u64), (y1, t1): (f64, u64)) -> Stretch {
    Stretch {
        kind,
        y0,
        y1,
        from_ms: t0,
        to_ms: t1,
        band: (y0 - BAND_PAD, y1 + BAND_PAD),
        label: None,
    }
}

/// Where the time axis leaves the picture's scale: bursts drawn in order (their rows a line
/// apart, not to scale), rows stacked within an instant, and idle stretches cut short (breaks).
/// `lines` are each line's y and time, top to bottom; `breaks` the lines after which the axis
/// breaks; `boxes` the labels and notes drawn (a burst's band neither cuts nor half-covers one).
pub(super) fn stretches(
    lines: &[(f64, u64)],
    axis: &Plan,
    breaks: &[usize],
    label_x: f64,
    boxes: &[Rect],
) -> Vec<Stretch> {
    let mut out: Vec<Stretch> = Vec::new();
    for &k in breaks {
        if let (Some(&a), Some(&b)) = (lines.get(k), lines.get(k + 1)) {
            out.push(stretch(StretchKind::Break, a, b));
        }
    }
    for burst in &axis.bursts {
        let from = lines.partition_point(|l| l.1 < burst.from_ms);
        let to = lines.partition_point(|l| l.1 <= burst.to_ms);
        // A burst whose rows all share one line is drawn as it is: at its time.
        if to < from + 2 {
            continue;
        }
        let mut z = stretch(StretchKind::Zoom, lines[from], lines[to - 1]);
        // Its time range is the burst's, whichever lines its first and last events joined.
        z.from_ms = z.from_ms.min(burst.from_ms);
        z.to_ms = z.to_ms.max(burst.to_ms);
        z.band = band(z.y0, z.y1, boxes);
        out.push(z);
    }
    // Rows pushed apart within an instant (or a few ms, closer than a line apart at the
    // picture's scale) outside bursts.
    for (k, w) in lines.windows(2).enumerate() {
        let ((y0, t0), (y1, t1)) = (w[0], w[1]);
        if breaks.contains(&k)
            || axis.ordered(t0, t1)
            || y1 - y0 <= (t1 - t0) as f64 * axis.ms_scale + 0.5
        {
            continue;
        }
        match out.last_mut() {
            Some(last) if last.kind == StretchKind::Stack && last.y1 == y0 => {
                last.y1 = y1;
                last.to_ms = t1;
            }
            _ => out.push(stretch(StretchKind::Stack, w[0], w[1])),
        }
    }
    // Labels: bursts' and breaks' first, then stacks' where there is room.
    let mut taken: Vec<Rect> = Vec::new();
    for pass in [false, true] {
        for s in out
            .iter_mut()
            .filter(|s| (s.kind == StretchKind::Stack) == pass)
        {
            let text = match s.kind {
                StretchKind::Zoom => burst_label(s.from_ms, s.to_ms),
                StretchKind::Stack if s.to_ms == s.from_ms => "same ms".to_string(),
                StretchKind::Stack => format!("within {} ms", s.to_ms - s.from_ms),
                StretchKind::Break => format!("… {} …", duration(s.to_ms - s.from_ms)),
            };
            // A stack's label sits beside its marks, right of a burst's bracket.
            let x = if pass { label_x + 30.0 } else { label_x + 14.0 };
            let b = TextBox::new(
                text,
                style::GUTTER_SIZE,
                Align::Left,
                Point::new(x, (s.y0 + s.y1) / 2.0),
                TICK_PAD,
            );
            if !taken.iter().any(|t| t.inflate(2.0).overlaps(&b.rect)) {
                taken.push(b.rect);
                s.label = Some(b);
            }
        }
    }
    out.sort_by(|a, b| a.y0.total_cmp(&b.y0));
    out
}

/// How far a tick's label may move off its line to clear a burst's band: a round time a few
/// ms before a burst falls on its band's top (which reaches above the burst's first line).
const MAX_NUDGE: f64 = 30.0;

/// Tick label `b` (of round time `t`) clear of every burst's band: moved above the band of a
/// burst just after `t` or below that of a burst just before, by at most [`MAX_NUDGE`]; None
/// where that would not do (two bands closer than a label's height).
fn clear_of_bands(b: TextBox, t: u64, stretches: &[Stretch]) -> Option<TextBox> {
    let mut b = b;
    for s in stretches.iter().filter(|s| s.kind == StretchKind::Zoom) {
        let (top, bottom) = (s.band.0 - BAND_CLEAR, s.band.1 + BAND_CLEAR);
        if b.rect.y1 <= top || b.rect.y0 >= bottom {
            continue;
        }
        // Before the burst: above its band; after it: below.
        let dy = if t < s.from_ms {
            (top - b.rect.y1).min(0.0)
        } else if t > s.to_ms {
            (bottom - b.rect.y0).max(0.0)
        } else {
            return None;
        };
        if dy.abs() > MAX_NUDGE {
            return None;
        }
        b = b.shifted(0.0, dy);
    }
    // Moved off one band onto another (two bands closer than a label's height): no label.
    let on_band = stretches.iter().any(|s| {
        s.kind == StretchKind::Zoom
            && b.rect.y1 > s.band.0 - BAND_CLEAR + 0.5
            && b.rect.y0 < s.band.1 + BAND_CLEAR - 0.5
    });
    (!on_band).then_some(b)
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
        // Inside a break the axis has no scale, and inside a burst's rows go in order, not at
        // their time: no tick in either (a burst's label gives its time range).
        let off_scale = |y: f64| {
            stretches.iter().any(|s| match s.kind {
                StretchKind::Break => y > s.y0 - 1.0 && y < s.y1 + 1.0,
                StretchKind::Zoom => (s.from_ms..=s.to_ms).contains(&t),
                StretchKind::Stack => false,
            })
        };
        if let Some(y) = y_at(lines, t).filter(|&y| !off_scale(y)) {
            let b = TextBox::new(
                label(t, step),
                style::GUTTER_SIZE,
                Align::Left,
                Point::new(label_x, y),
                TICK_PAD,
            );
            // A round time on a burst's band (it reaches above the burst's first line) would
            // read as the time of the burst's rows ("8 s" on the 8004 ms row): its label moves
            // off the band, above it or below.
            let label = clear_of_bands(b, t, stretches).filter(|b| {
                !last_label.is_some_and(|l| l.y1 + 4.0 > b.rect.y0)
                    && !stretches
                        .iter()
                        .filter_map(|s| s.label.as_ref())
                        .any(|l| l.rect.inflate(2.0).overlaps(&b.rect))
            });
            if let Some(b) = &label {
                last_label = Some(b.rect);
            }
            out.push(Tick {
                time_ms: t,
                y,
                label,
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
        assert_eq!(step(0.03), 1000);
        assert_eq!(step(0.02), 5000);
        assert_eq!(step(0.1), 1000);
        assert_eq!(step(0.25), 500);
        assert_eq!(step(1.0), 100);
        assert_eq!(label(3000, 1000), "3 s");
        assert_eq!(label(1500, 500), "1.5 s");
        assert_eq!(label(40, 20), "40 ms");
    }
}
