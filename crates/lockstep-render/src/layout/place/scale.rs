//! The to-scale time axis before anything is placed: the picture's one scale (px per ms), the
//! bursts of events closer than a line apart at that scale, and the idle stretches that may be
//! cut short by an axis break. The placer asks it where the next line goes.
//!
//! Outside bursts and breaks, y is one linear function of time (the picture's px/s). A burst is a
//! zoom that stops the clock: an inserted strip whose rows go in order (a send and its delivery,
//! unrelated lanes share a line), whose top is its first time and whose bottom its last, after
//! which the axis runs on at the picture's scale from the burst's last time. So every round time
//! outside a burst sits exactly at its time, and a burst claims no distance it cannot keep. A
//! break cuts an idle stretch short, marked with its true length.

use std::collections::BTreeSet;

use lockstep_core::trace::{EventKind, Tag, TraceEvent};

use super::PITCH;
use crate::layout::TimeMode;

/// Height of the time axis at the picture's scale (bursts and breaks aside), per distinct time
/// of the run: a run with few moments gets a short axis, so the whole picture stays close to
/// its logical picture's height (the bursts' rows come on top)...
const BUDGET_PER_TIME: f64 = 20.0;
/// ...within these bounds (px).
const BUDGET_MIN: f64 = 280.0;
const BUDGET_MAX: f64 = 800.0;
/// The picture's scale stays within these bounds (px per simulated ms): a short run is not
/// stretched without end, a long one not squeezed to nothing.
const SCALE_MIN: f64 = 0.02;
const SCALE_MAX: f64 = PITCH;
/// Breaks raise the picture's scale at most this many times above the scale that fits the
/// whole run in its budget.
const MAX_RISE: f64 = 4.0;
/// An idle stretch (nothing in flight, no node paused) taking at least this share of the axis
/// at the scale that fits the whole run in its budget is cut short by an axis break...
const BREAK_SHARE: f64 = 0.2;
/// ...and at least this long.
const BREAK_MIN_MS: u64 = 2000;

/// The picture's scale goes no lower than this (px per ms) to make room for its zooms: a second
/// stays taller than a time mark's label.
const SCALE_FLOOR: f64 = 0.03;

/// A burst's band starts this far above its first line (room for that row's label, which sits
/// above its line): the band's top is the burst's first time...
pub(in crate::layout) const ZOOM_TOP: f64 = 24.0;
/// ...and ends this far below its last line (a note hangs half its height below its line): the
/// band's bottom is the burst's last time, and the axis runs on at its scale from there.
pub(in crate::layout) const ZOOM_BOTTOM: f64 = 12.0;

/// A burst: events closer than one line apart at the picture's scale, drawn in order in a strip
/// of its own (the clock stops over it).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(in crate::layout) struct Burst {
    pub from_ms: u64,
    pub to_ms: u64,
}

/// The axis's plan: its scale, its bursts and the stretches it may break.
#[derive(Debug, Clone, Default, PartialEq)]
pub(in crate::layout) struct Plan {
    /// The picture's scale (px per ms; 0 in logical time).
    pub ms_scale: f64,
    pub bursts: Vec<Burst>,
    /// Idle stretches (from, to) that may become breaks.
    idle: Vec<(u64, u64)>,
    /// The distinct times of events drawn on lines of their own.
    times: Vec<u64>,
    /// The axis's height at the scale that fills it (px): what the zooms' strips take out of.
    budget: f64,
}

/// Where the axis stands after a line: it runs on at the picture's scale from `anchor` (y, ms),
/// which is `bottom`: the line itself, or its burst's band's bottom at the burst's last time.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(in crate::layout) struct Resume {
    pub anchor: (f64, u64),
    pub bottom: f64,
}

impl Resume {
    /// The y of time `t` at the picture's scale `s`, from the anchor.
    pub fn scaled(&self, t: u64, s: f64) -> f64 {
        self.anchor.0 + (t as f64 - self.anchor.1 as f64) * s
    }
}

/// The stretches during which cutting idle time would hide what the picture is about: two
/// workers both believing they hold the lock, or one believing it while the service records no
/// hold for it (its lease ran out).
fn danger(events: &[TraceEvent], names: &[String]) -> Vec<(u64, u64)> {
    let mut believers: BTreeSet<u16> = BTreeSet::new();
    let mut holds: std::collections::BTreeMap<String, usize> = Default::default();
    let mut out: Vec<(u64, u64)> = Vec::new();
    let mut since: Option<u64> = None;
    for e in events {
        match &e.tag {
            Some(Tag::Believes { .. }) => {
                believers.insert(e.from);
            }
            Some(Tag::StopsBelieving) => {
                believers.remove(&e.from);
            }
            Some(Tag::ServiceGrants { holder, .. }) => {
                *holds.entry(holder.clone()).or_default() += 1
            }
            Some(Tag::ServiceFrees { holder, .. }) => {
                if let Some(n) = holds.get_mut(holder) {
                    *n = n.saturating_sub(1);
                }
            }
            _ => {}
        }
        let stale = believers.iter().any(|&b| {
            names
                .get(usize::from(b))
                .is_none_or(|name| holds.get(name).copied().unwrap_or(0) == 0)
        });
        let both = believers.len() >= 2;
        match (both || stale, since) {
            (true, None) => since = Some(e.time_ms),
            (false, Some(from)) => {
                out.push((from, e.time_ms));
                since = None;
            }
            _ => {}
        }
    }
    if let (Some(from), Some(last)) = (since, events.last()) {
        out.push((from, last.time_ms));
    }
    out
}

/// The distinct times of the events drawn on lines of their own (a folded retry is drawn on its
/// fold's line: its time makes no line), all distinct times, and the times after which nothing
/// is in flight and no node is paused until the next event.
fn times_and_quiet(
    events: &[TraceEvent],
    folded_into: &[Option<usize>],
) -> (Vec<u64>, Vec<u64>, BTreeSet<u64>) {
    let mut shown: Vec<u64> = Vec::new();
    let mut times: Vec<u64> = Vec::new();
    let mut quiet = BTreeSet::new();
    let mut flying: BTreeSet<u64> = BTreeSet::new();
    let mut paused: BTreeSet<u16> = BTreeSet::new();
    for (i, e) in events.iter().enumerate() {
        match (e.kind, e.message) {
            (EventKind::Send, Some(m)) => {
                flying.insert(m);
            }
            (EventKind::Deliver | EventKind::Lost, Some(m)) => {
                flying.remove(&m);
            }
            _ => {}
        }
        match e.tag {
            Some(Tag::Paused { .. }) => {
                paused.insert(e.from);
            }
            Some(Tag::Resumed) => {
                paused.remove(&e.from);
            }
            _ => {}
        }
        if times.last() != Some(&e.time_ms) {
            times.push(e.time_ms);
        }
        let folded = folded_into
            .get(i)
            .copied()
            .flatten()
            .is_some_and(|first| first != i);
        if !folded && shown.last() != Some(&e.time_ms) {
            shown.push(e.time_ms);
        }
        // Whether the stretch after this event (until the next one) is quiet: the last event
        // of each instant decides.
        if flying.is_empty() && paused.is_empty() {
            quiet.insert(e.time_ms);
        } else {
            quiet.remove(&e.time_ms);
        }
    }
    (shown, times, quiet)
}

/// The bursts at scale `s`: runs of distinct times closer than a line apart (each gap within a
/// run is too short to draw at the scale; each gap between runs is at least a line).
fn bursts(times: &[u64], idle: &[(u64, u64)], s: f64) -> Vec<Burst> {
    let mut out: Vec<Burst> = Vec::new();
    let mut start: Option<usize> = None;
    for (k, w) in times.windows(2).enumerate() {
        let (a, b) = (w[0], w[1]);
        let close = ((b - a) as f64) * s < PITCH && !idle.iter().any(|&(x, y)| y == b && x >= a);
        match (close, start) {
            (true, None) => start = Some(k),
            (false, Some(from)) => {
                out.push(Burst {
                    from_ms: times[from],
                    to_ms: a,
                });
                start = None;
            }
            _ => {}
        }
    }
    if let (Some(from), Some(&last)) = (start, times.last()) {
        out.push(Burst {
            from_ms: times[from],
            to_ms: last,
        });
    }
    out
}

/// The quiet gaps long enough to break: at least [`BREAK_MIN_MS`] and `min_px` at scale `s`.
fn idle(times: &[u64], quiet: &BTreeSet<u64>, s: f64, min_px: f64) -> Vec<(u64, u64)> {
    times
        .windows(2)
        .map(|w| (w[0], w[1]))
        .filter(|&(a, b)| {
            quiet.contains(&a) && b - a >= BREAK_MIN_MS && (b - a) as f64 * s >= min_px
        })
        .collect()
}

impl Plan {
    /// Plans the axis of a run (an empty plan in logical time). `folded_into` gives, per event,
    /// the first event of the fold it is drawn in, if any.
    pub fn new(
        events: &[TraceEvent],
        names: &[String],
        mode: TimeMode,
        folded_into: &[Option<usize>],
    ) -> Plan {
        let (shown, times, quiet) = times_and_quiet(events, folded_into);
        let (Some(&t0), Some(&t1)) = (times.first(), times.last()) else {
            return Plan::default();
        };
        if mode == TimeMode::Logical || t1 == t0 {
            return Plan::default();
        }
        // The scale that fills the budget with the run's time; then the quiet stretches that
        // are long at that scale become breaks, and the scale fills the budget with the rest.
        let budget = (BUDGET_PER_TIME * shown.len() as f64).clamp(BUDGET_MIN, BUDGET_MAX);
        let fill = |cut: u64| {
            let active = (t1 - t0).saturating_sub(cut).max(1);
            (budget / active as f64).clamp(SCALE_MIN, SCALE_MAX)
        };
        let whole = fill(0);
        // Never cut inside an overlap or a stale belief: that is the time the picture teaches.
        let danger = danger(events, names);
        let mut idle = idle(&times, &quiet, whole, BREAK_SHARE * budget);
        idle.retain(|&(a, b)| !danger.iter().any(|&(x, y)| x < b && y > a));
        // Breaks may raise the scale, but not so far that the run is all breaks and bursts.
        let most = (whole * MAX_RISE).min(SCALE_MAX);
        loop {
            let base = fill(idle.iter().map(|(a, b)| b - a).sum()).min(most);
            let plan = Plan {
                ms_scale: base,
                bursts: bursts(&shown, &idle, base),
                idle: idle.clone(),
                times: shown.clone(),
                budget,
            };
            // A picture that is all breaks and bursts shows no time at all: the shortest break
            // goes back to scale until some stretch is drawn at the picture's scale.
            let at_scale = shown.windows(2).any(|w| {
                !plan.idle.iter().any(|&(x, y)| y == w[1] && x >= w[0]) && !plan.ordered(w[0], w[1])
            });
            match idle.iter().enumerate().min_by_key(|(_, (a, b))| b - a) {
                Some((k, _)) if !at_scale => {
                    idle.remove(k);
                }
                _ => return plan,
            }
        }
    }

    /// The same plan at a lower scale, so that the axis with its zooms' strips (`lines` as
    /// placed at this scale, `breaks` the lines after which it breaks) is about as tall as the
    /// budget or the lines a line apart, whichever is more: the strips stop the clock, so time
    /// at the picture's scale gives up the room they take. None where the scale may not go lower
    /// (a second stays a label tall; no two lines of different moments merge into a zoom).
    pub fn fitted(&self, lines: &[(f64, u64)], breaks: &[usize]) -> Option<Plan> {
        let line = |k: usize| lines[k];
        let (&(y_first, _), &(y_last, _)) = (lines.first()?, lines.last()?);
        // The time drawn at the picture's scale, and the height it takes.
        let mut linear_ms = 0u64;
        let mut cut_px = 0.0;
        for (k, w) in lines.windows(2).enumerate() {
            if self.ordered(w[0].1, w[1].1) {
                continue;
            }
            let r = self.after(k, line);
            if breaks.contains(&k) {
                cut_px += w[1].0 - r.bottom;
                continue;
            }
            linear_ms += w[1].1.saturating_sub(r.anchor.1);
        }
        let linear_ms = linear_ms.max(1) as f64;
        let inserted = (y_last - y_first) - cut_px - linear_ms * self.ms_scale;
        let target = self.budget.max(lines.len() as f64 * PITCH);
        // No lower than keeps every gap between lines at this scale a line or more: lowering
        // the scale makes room, it never merges rows of different moments into a zoom.
        let apart = self
            .times
            .windows(2)
            .filter(|w| !self.ordered(w[0], w[1]))
            .map(|w| w[1] - w[0])
            .min()
            .map_or(0.0, |g| PITCH / g as f64 * (1.0 + 1e-9));
        let floor = SCALE_FLOOR.max(apart).min(self.ms_scale);
        let s = ((target - inserted - cut_px) / linear_ms).clamp(floor, self.ms_scale);
        (s < 0.99 * self.ms_scale).then(|| Plan {
            ms_scale: s,
            bursts: bursts(&self.times, &self.idle, s),
            ..self.clone()
        })
    }

    /// Where the axis stands after line `k` (`line` gives each line's y and time): from a line
    /// outside bursts, at that line; after a burst's line, at its band's bottom with the burst's
    /// last time (the clock stood still over the band).
    pub fn after(&self, k: usize, line: impl Fn(usize) -> (f64, u64)) -> Resume {
        let (y, t) = line(k);
        match self.burst_of(t) {
            Some(b) => {
                let bottom = y + ZOOM_BOTTOM;
                Resume {
                    anchor: (bottom, b.to_ms.max(t)),
                    bottom,
                }
            }
            None => Resume {
                anchor: (y, t),
                bottom: y,
            },
        }
    }

    /// The y of a new line at `t` after line `k` (not in its burst), at the picture's scale:
    /// its time on the scale, or, if it starts a burst, its band's top there and the line
    /// [`ZOOM_TOP`] below.
    pub fn next_y(&self, k: usize, line: impl Fn(usize) -> (f64, u64), t: u64) -> f64 {
        self.after(k, line).scaled(t, self.ms_scale) + self.pad_before(t)
    }

    /// The y of a new line at `t` after line `k` with an axis break between, if the idle
    /// stretch before `t` may be cut and cutting it leaves it shorter.
    pub fn break_before(
        &self,
        k: usize,
        line: impl Fn(usize) -> (f64, u64) + Copy,
        t: u64,
        height: f64,
    ) -> Option<f64> {
        let (_, last) = line(k);
        if !self.may_break(last, t) {
            return None;
        }
        let r = self.after(k, line);
        let at_scale = r.scaled(t, self.ms_scale) - r.bottom;
        (t.saturating_sub(r.anchor.1) >= BREAK_MIN_MS && at_scale > height)
            .then_some(r.bottom + height + self.pad_before(t))
    }

    /// The burst holding time `t`, if any.
    pub fn burst_of(&self, t: u64) -> Option<&Burst> {
        let k = self.bursts.partition_point(|b| b.to_ms < t);
        self.bursts.get(k).filter(|b| b.from_ms <= t)
    }

    /// Whether times `a` and `b` fall in one burst: between them the rows go in order, a line
    /// apart, not to scale.
    pub fn ordered(&self, a: u64, b: u64) -> bool {
        self.burst_of(a.min(b)).is_some_and(|z| a.max(b) <= z.to_ms)
    }

    /// Room a line at `t` adds above itself: the top of its burst's band, if it starts one.
    pub fn pad_before(&self, t: u64) -> f64 {
        if self.burst_of(t).is_some() {
            ZOOM_TOP
        } else {
            0.0
        }
    }

    /// Whether the stretch between lines at `a` and `b` may be cut short by a break: it ends
    /// with an idle stretch that starts after `a` (events between may have joined `a`'s line).
    pub fn may_break(&self, a: u64, b: u64) -> bool {
        self.idle.iter().any(|&(x, y)| y == b && x >= a)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn close_times_make_one_burst_and_far_ones_none() {
        // At 0.05 px per ms a line is 640 ms: 0..4 and 6000..6008 are bursts, 3000 stands alone.
        let times = [0, 1, 2, 4, 3000, 6000, 6001, 6008];
        let b = bursts(&times, &[], 0.05);
        assert_eq!(
            b,
            vec![
                Burst {
                    from_ms: 0,
                    to_ms: 4
                },
                Burst {
                    from_ms: 6000,
                    to_ms: 6008
                }
            ]
        );
        let plan = Plan {
            ms_scale: 0.05,
            bursts: b,
            ..Plan::default()
        };
        assert!(plan.ordered(6000, 6008));
        assert!(!plan.ordered(4, 3000));
    }

    #[test]
    fn the_axis_resumes_at_a_bursts_last_time() {
        // Lines at 6000 and 6008 (one burst) at 0.05 px per ms: after the band's bottom the
        // axis runs on from 6008 ms, so 7008 ms is 50 px below it.
        let plan = Plan {
            ms_scale: 0.05,
            bursts: vec![Burst {
                from_ms: 6000,
                to_ms: 6008,
            }],
            ..Plan::default()
        };
        let lines = [(100.0, 6000), (132.0, 6008)];
        let y = plan.next_y(1, |k| lines[k], 7008);
        assert!((y - (132.0 + ZOOM_BOTTOM + 50.0)).abs() < 1e-9, "{y}");
    }
}
