//! Time marks for the to-scale mode: round times, where they fall among the rows, and the
//! marked stretches where the axis leaves the picture's scale (bursts drawn in order, stacks,
//! breaks).

use super::place::PITCH;
use super::place::scale::{Plan, ZOOM_TOP};
use super::{AxisPart, Stretch, StretchKind, Tick, ZoomSecond};
use crate::geom::{Point, Rect};
use crate::style;
use crate::text::{Align, TextBox};
use lockstep_core::sort;

/// Time ticks are at least this far apart...
const TICK_SPACING: f64 = 60.0;
/// ...except that a second this long or longer gets its tick (a tick label is about 20 px tall
/// with its padding).
const SECOND_MIN: f64 = 28.0;
/// Padding of tick labels.
const TICK_PAD: f64 = 1.0;

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

/// A tick label keeps this far from a burst's band.
const BAND_CLEAR: f64 = 2.0;

/// "zoom: 6000–6008 ms, in order": a burst's time range (its rows are in order, not to scale:
/// a local zoom, not counted as time).
/// On two lines, the range and then "in order": the column right of the axis need be only as
/// wide as the range. (To scale, fenced-gc-pause is still too wide for a 1280x720 projector at
/// its labels' 16 px: the page scrolls sideways there, and names the paused worker out of view.)
pub(super) fn burst_label(from_ms: u64, to_ms: u64) -> String {
    if from_ms == to_ms {
        format!("zoom: {from_ms} ms,\nin order")
    } else {
        format!("zoom: {from_ms}–{to_ms} ms,\nin order")
    }
}

/// A stretch's label and the x it starts at, for time labels starting at `label_x`.
fn stretch_label(s: &Stretch, label_x: f64) -> (String, f64) {
    let text = match s.kind {
        StretchKind::Zoom => burst_label(s.from_ms, s.to_ms),
        StretchKind::Stack if s.to_ms == s.from_ms => "same ms".to_string(),
        StretchKind::Stack => format!("within {} ms", s.to_ms - s.from_ms),
        StretchKind::Break => format!("{} cut", duration(s.to_ms - s.from_ms)),
    };
    // A stack's label sits beside its marks, right of a burst's bracket.
    let x = if s.kind == StretchKind::Stack {
        label_x + 30.0
    } else {
        label_x + 14.0
    };
    (text, x)
}

/// The right edge of the widest time label a step of the run may show, for time labels
/// starting at `label_x`: any of the whole run's `stretches` (a step shows a part of a stretch,
/// whose label is no wider) and a tick up to `max_ms`. The picture keeps room for it, so stepping
/// never widens it, and no more (a fixed room for the widest label any run could have made every
/// picture to scale 300 px wider than its own labels need).
pub(super) fn widest_label_right(stretches: &[Stretch], max_ms: u64, label_x: f64) -> f64 {
    let tick = TextBox::new(
        label(max_ms, 1),
        style::GUTTER_SIZE,
        Align::Left,
        Point::new(label_x, 0.0),
        TICK_PAD,
    )
    .rect
    .x1;
    stretches
        .iter()
        .map(|s| {
            let (text, x) = stretch_label(s, label_x);
            TextBox::new(
                text,
                style::LABEL_SIZE,
                Align::Left,
                Point::new(x, 0.0),
                TICK_PAD,
            )
            .rect
            .x1
        })
        .fold(tick, f64::max)
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
        band: (y0, y1),
        top_ms: t0,
        resume_ms: t1,
        tint: Vec::new(),
        label: None,
        seconds: Vec::new(),
    }
}

/// The whole seconds strictly inside a zoom's time range, each marked between the last line
/// before it and the first line at or after it (on that line if its time is the second): the
/// place of that second in the order of the burst's rows. `lines` are the zoom's lines.
fn seconds_in(lines: &[(f64, u64)], (from, to): (u64, u64)) -> Vec<ZoomSecond> {
    let mut out = Vec::new();
    let mut s = (from / 1000 + 1) * 1000;
    while s < to {
        let after = lines.partition_point(|l| l.1 < s);
        let y = match (
            after.checked_sub(1).and_then(|k| lines.get(k)),
            lines.get(after),
        ) {
            (_, Some(&(y, t))) if t == s => y,
            (Some(&(y0, _)), Some(&(y1, _))) => (y0 + y1) / 2.0,
            (None, Some(&(y, _))) => y - PITCH / 2.0,
            (Some(&(y, _)), None) => y + PITCH / 2.0,
            (None, None) => break,
        };
        out.push(ZoomSecond {
            time_ms: s,
            y,
            label: None,
        });
        s += 1000;
    }
    out
}

/// Where the time axis leaves the picture's scale: bursts drawn in order (an inserted strip from
/// the burst's first time to its last over which the clock stands still), rows stacked within
/// an instant (likewise), and idle stretches cut short (breaks). `lines` are each line's y and
/// time, top to bottom; `breaks` the lines after which the axis breaks.
pub(super) fn stretches(
    lines: &[(f64, u64)],
    axis: &Plan,
    breaks: &[usize],
    label_x: f64,
) -> Vec<Stretch> {
    let mut out: Vec<Stretch> = Vec::new();
    let line = |k: usize| lines[k];
    for &k in breaks {
        if let Some(&(yb, tb)) = lines.get(k + 1) {
            // From where the axis leaves off (a band's bottom) to where it takes up again (the
            // next band's top); the time cut is all of it.
            let r = axis.after(k, line);
            let y1 = yb - axis.pad_before(tb);
            out.push(stretch(StretchKind::Break, r.anchor, (y1, tb)));
        }
    }
    for burst in &axis.bursts {
        let from = lines.partition_point(|l| l.1 < burst.from_ms);
        let to = lines.partition_point(|l| l.1 <= burst.to_ms);
        if to <= from {
            continue;
        }
        let mut z = stretch(StretchKind::Zoom, lines[from], lines[to - 1]);
        // From its first line's time (its band's top) to the burst's last time (its bottom,
        // where the axis runs on).
        let r = axis.after(to - 1, line);
        z.to_ms = r.anchor.1;
        z.resume_ms = r.anchor.1;
        z.band = (z.y0 - ZOOM_TOP, r.bottom);
        z.tint = vec![z.band];
        z.seconds = seconds_in(&lines[from..to], (z.from_ms, z.to_ms));
        out.push(z);
    }
    // Rows pushed below their time on the scale (an instant's rows that could not share a line)
    // outside bursts: an inserted strip from where the axis left off to the pushed line (or its
    // band's top).
    for (k, w) in lines.windows(2).enumerate() {
        let (_, (y1, t1)) = (w[0], w[1]);
        if breaks.contains(&k) || axis.ordered(w[0].1, t1) || y1 <= axis.next_y(k, line, t1) + 0.01
        {
            continue;
        }
        let r = axis.after(k, line);
        let end = (y1 - axis.pad_before(t1), t1);
        match out.last_mut() {
            Some(last) if last.kind == StretchKind::Stack && last.y1 == r.anchor.0 => {
                last.y1 = end.0;
                last.to_ms = t1;
                last.resume_ms = t1;
                last.band.1 = end.0;
            }
            _ => out.push(stretch(StretchKind::Stack, r.anchor, end)),
        }
    }
    // Labels: breaks' always (a cut must say how much it cut), then bursts', then stacks' and
    // the seconds inside bursts where there is room.
    let mut taken: Vec<Rect> = Vec::new();
    for pass in 0..3 {
        for s in out.iter_mut().filter(|s| match pass {
            0 => s.kind == StretchKind::Break,
            1 => s.kind == StretchKind::Zoom,
            _ => s.kind == StretchKind::Stack,
        }) {
            let (text, x) = stretch_label(s, label_x);
            let b = TextBox::new(
                text,
                style::LABEL_SIZE,
                Align::Left,
                Point::new(x, (s.band.0 + s.band.1) / 2.0),
                TICK_PAD,
            );
            if pass == 0 || !taken.iter().any(|t| t.inflate(2.0).overlaps(&b.rect)) {
                taken.push(b.rect);
                s.label = Some(b);
            }
        }
    }
    for s in out.iter_mut() {
        for m in s.seconds.iter_mut() {
            let b = TextBox::new(
                format!("{} s", m.time_ms / 1000),
                style::GUTTER_SIZE,
                Align::Left,
                Point::new(label_x + 14.0, m.y),
                TICK_PAD,
            );
            if !taken.iter().any(|t| t.inflate(2.0).overlaps(&b.rect)) {
                taken.push(b.rect);
                m.label = Some(b);
            }
        }
    }
    sort::sort_by(&mut out, |a, b| a.band.0.total_cmp(&b.band.0));
    out
}

/// The stretches of the axis drawn at the picture's scale, as (y, time) at either end: between
/// lines, bursts' band edges and breaks' edges, wherever no burst, stack or break lies.
pub(super) fn at_scale(
    lines: &[(f64, u64)],
    stretches: &[Stretch],
) -> Vec<((f64, u64), (f64, u64))> {
    let zooms = || stretches.iter().filter(|s| s.kind == StretchKind::Zoom);
    let zoom_bands = Bands::new(zooms().map(|s| s.band));
    let mut edges: Vec<f64> = zooms().flat_map(|s| [s.y0, s.y1]).collect();
    sort::sort_by(&mut edges, f64::total_cmp);
    let on_edge = |y: f64| edges.binary_search_by(|e| e.total_cmp(&y)).is_ok();
    let mut points: Vec<(f64, u64)> = lines
        .iter()
        .copied()
        .filter(|&(y, _)| !(zoom_bands.inside(y, 0.5) || on_edge(y)))
        .collect();
    for s in stretches.iter().filter(|s| s.kind != StretchKind::Stack) {
        points.push((s.band.0, s.top_ms));
        points.push((s.band.1, s.resume_ms));
    }
    sort::sort_by(&mut points, |a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    points.dedup();
    let all = Bands::new(stretches.iter().map(|s| s.band));
    points
        .windows(2)
        .map(|w| (w[0], w[1]))
        .filter(|&((y0, t0), (y1, t1))| t1 > t0 && !all.covers(y0, y1, 0.5))
        .collect()
}

/// The whole axis piece by piece, top to bottom: the stretches at the picture's scale between
/// the marked ones (zooms, stacks, breaks).
pub(super) fn axis_parts(lines: &[(f64, u64)], stretches: &[Stretch]) -> Vec<AxisPart> {
    let mut parts: Vec<AxisPart> = at_scale(lines, stretches)
        .into_iter()
        .map(|((y0, t0), (y1, t1))| AxisPart {
            kind: None,
            y0,
            y1,
            from_ms: t0,
            to_ms: t1,
        })
        .chain(stretches.iter().map(|s| AxisPart {
            kind: Some(s.kind),
            y0: s.band.0,
            y1: s.band.1,
            from_ms: s.top_ms,
            to_ms: s.resume_ms,
        }))
        .collect();
    sort::sort_by(&mut parts, |a, b| {
        a.y0.total_cmp(&b.y0).then(a.from_ms.cmp(&b.from_ms))
    });
    parts
}

/// Tick label `b` at its line `y`, unless the line lies inside a burst's band (not on its
/// edge): there it would name the time of the rows beside it.
fn at_line(b: TextBox, y: f64, zooms: &Bands) -> Option<TextBox> {
    (!zooms.inside(y, BAND_CLEAR)).then_some(b)
}

/// Bands (top, bottom) in y order, to ask "is y inside one?" or "does one cover this stretch of
/// the axis?" in log time: a long run has hundreds of stretches and thousands of rows, and
/// asking each stretch for each row made the axis of the 10,000-event bench quadratic.
struct Bands {
    /// By top.
    bands: Vec<(f64, f64)>,
    /// The lowest bottom among the bands up to each index (bands may nest).
    reach: Vec<f64>,
}

impl Bands {
    fn new(bands: impl Iterator<Item = (f64, f64)>) -> Bands {
        let mut bands: Vec<(f64, f64)> = bands.collect();
        sort::sort_by(&mut bands, |a, b| a.0.total_cmp(&b.0));
        let reach = bands
            .iter()
            .scan(f64::NEG_INFINITY, |m, b| {
                *m = m.max(b.1);
                Some(*m)
            })
            .collect();
        Bands { bands, reach }
    }

    /// Whether a band that starts above `y0 + margin` reaches below `y1 - margin`.
    fn covers(&self, y0: f64, y1: f64, margin: f64) -> bool {
        let n = self.bands.partition_point(|b| b.0 <= y0 + margin);
        n > 0 && self.reach[n - 1] >= y1 - margin
    }

    /// Whether `y` lies inside a band by more than `margin`.
    fn inside(&self, y: f64, margin: f64) -> bool {
        let n = self.bands.partition_point(|b| b.0 + margin < y);
        n > 0 && self.reach[n - 1] - margin > y
    }
}

/// Round times wherever the axis runs at the picture's scale (bursts, stacks and breaks aside),
/// labelled at `label_x` where labels do not crowd each other or the stretches' labels.
pub(super) fn ticks(
    lines: &[(f64, u64)],
    ms_scale: f64,
    label_x: f64,
    stretches: &[Stretch],
) -> Vec<Tick> {
    let step = step(ms_scale);
    let mut at: Vec<(u64, f64)> = Vec::new();
    for ((y0, t0), (_, t1)) in at_scale(lines, stretches) {
        let mut t = t0.div_ceil(step) * step;
        while t <= t1 {
            at.push((t, y0 + (t - t0) as f64 * ms_scale));
            t += step;
        }
    }
    sort::sort_by(&mut at, |a, b| a.1.total_cmp(&b.1));
    at.dedup_by_key(|a| a.0);
    let mut out = Vec::new();
    let mut last_label: Option<Rect> = None;
    let zooms = Bands::new(
        stretches
            .iter()
            .filter(|s| s.kind == StretchKind::Zoom)
            .map(|s| s.band),
    );
    // The stretches' labels by top, and the tallest, to look only at those near a tick.
    let mut taken: Vec<Rect> = stretches
        .iter()
        .filter_map(|s| s.label.as_ref().map(|l| l.rect.inflate(2.0)))
        .collect();
    sort::sort_by(&mut taken, |a, b| a.y0.total_cmp(&b.y0));
    let tallest = taken.iter().map(Rect::height).fold(0.0, f64::max);
    for (t, y) in at {
        let b = TextBox::new(
            label(t, step),
            style::GUTTER_SIZE,
            Align::Left,
            Point::new(label_x, y),
            TICK_PAD,
        );
        // Labelled at its line (moved off it, 6 s read as 5.7 s); but not inside a burst's
        // band, where it would read as the time of the burst's rows: only on its edge.
        let label = at_line(b, y, &zooms).filter(|b| {
            let from = taken.partition_point(|r| r.y0 < b.rect.y0 - tallest);
            let to = taken.partition_point(|r| r.y0 <= b.rect.y1);
            !last_label.is_some_and(|l| l.y1 + 4.0 > b.rect.y0)
                && !taken[from..to].iter().any(|r| r.overlaps(&b.rect))
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
    out
}

/// The overlap bands among `spans`: each zoom's tint leaves them out, and each gets its label
/// ("overlap 2.0 s", see [`overlap_labels`]); `time_of` gives a row's time (None: the last).
pub(super) fn mark_overlaps(
    spans: &[super::Span],
    stretches: &mut [Stretch],
    ticks: &[Tick],
    label_x: f64,
    time_of: impl Fn(Option<usize>) -> u64,
) -> Vec<TextBox> {
    let overlaps: Vec<&super::Span> = spans
        .iter()
        .filter(|s| matches!(s.kind, super::SpanKind::Overlap { .. }))
        .collect();
    let ys: Vec<(f64, f64)> = overlaps.iter().map(|s| (s.rect.y0, s.rect.y1)).collect();
    untint_overlaps(stretches, &ys);
    let bands: Vec<(f64, f64, u64)> = overlaps
        .iter()
        .map(|s| {
            let ms = time_of(s.to_row).saturating_sub(time_of(Some(s.from_row)));
            (s.rect.y0, s.rect.y1, ms)
        })
        .collect();
    overlap_labels(&bands, label_x, ticks, stretches)
}

/// Takes the overlap bands' heights (`bands`: top, bottom) out of each zoom's tint.
fn untint_overlaps(stretches: &mut [Stretch], bands: &[(f64, f64)]) {
    for s in stretches.iter_mut() {
        let (Some(lo), Some(hi)) = (
            s.tint.iter().map(|t| t.0).reduce(f64::min),
            s.tint.iter().map(|t| t.1).reduce(f64::max),
        ) else {
            continue;
        };
        // Only the bands that reach this zoom's tint cut it (a long run has hundreds of each).
        for &(y0, y1) in bands.iter().filter(|&&(y0, y1)| y0 < hi && y1 > lo) {
            s.tint = s
                .tint
                .iter()
                .flat_map(|&(a, b)| [(a, b.min(y0)), (a.max(y1), b)])
                .filter(|(a, b)| b > a)
                .collect();
        }
    }
}

/// "overlap 2.0 s": each overlap band's true length, beside the time marks (where the picture's
/// scale is stated), bold, on a free stretch of the band's height: `bands` are each band's top,
/// bottom and length in ms.
fn overlap_labels(
    bands: &[(f64, f64, u64)],
    label_x: f64,
    ticks: &[Tick],
    stretches: &[Stretch],
) -> Vec<TextBox> {
    let mut taken: Vec<Rect> = ticks
        .iter()
        .filter_map(|t| t.label.as_ref().map(|b| b.rect))
        .chain(
            stretches
                .iter()
                .filter_map(|s| s.label.as_ref().map(|b| b.rect)),
        )
        .collect();
    let mut out = Vec::new();
    for &(y0, y1, ms) in bands {
        let mid = (y0 + y1) / 2.0;
        // Measured once at the band's middle, then moved: a long run has hundreds of bands.
        let here = TextBox::new(
            format!("overlap {}", duration(ms)),
            style::LABEL_SIZE,
            Align::Left,
            Point::new(label_x + 14.0, mid),
            TICK_PAD,
        )
        .bold();
        let at = |_x: f64, y: f64| here.shifted(0.0, y - mid);
        // The spots tried lie within 400 px of the band: only what is near can be in the way.
        let reach = (y1 - y0) / 2.0 + 400.0 + here.rect.height();
        let near: Vec<Rect> = taken
            .iter()
            .filter(|t| t.y1 >= mid - reach && t.y0 <= mid + reach)
            .copied()
            .collect();
        let free = |b: &TextBox| !near.iter().any(|t| t.inflate(2.0).overlaps(&b.rect));
        // The band's middle, then outwards a few px at a time: within the band where there is
        // room, else as near it as there is (a band of a few ms in a step render), always in
        // the column the picture keeps for time labels, so stepping never widens it.
        let half = ((y1 - y0) / 2.0 - 10.0).max(0.0);
        let spots = || (0..).map(|k| k as f64 * 4.0);
        let within = spots()
            .take_while(|d| *d <= half)
            .flat_map(|d| [mid - d, mid + d])
            .map(|y| at(label_x + 14.0, y))
            .find(|b| free(b));
        let b = within.unwrap_or_else(|| {
            spots()
                .take(100)
                .flat_map(|d| [mid + d, mid - d])
                .map(|y| at(label_x + 14.0, y))
                .find(|b| free(b))
                .unwrap_or_else(|| at(label_x + 14.0, mid))
        });
        taken.push(b.rect);
        out.push(b);
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
