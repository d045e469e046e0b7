//! The to-scale time axis before anything is placed: the picture's one scale (px per ms), the
//! bursts of events drawn as local zooms at their own scale, and the idle stretches that may be
//! cut short by an axis break. The placer asks it how far apart two times are.

use std::collections::BTreeSet;

use lockstep_core::trace::{EventKind, Tag, TraceEvent};

use super::PITCH;
use crate::layout::TimeMode;

/// Target height of the time axis at the picture's scale (zooms and breaks aside)...
const SCALE_TARGET: f64 = 1400.0;
/// ...within these bounds (px per simulated ms): a short run is not stretched without end, a
/// long one not squeezed to nothing.
const SCALE_MIN: f64 = 0.02;
const SCALE_MAX: f64 = ZOOM_MAX;
/// The picture's scale grows (from what fills [`SCALE_TARGET`]) while bursts would take more than
/// this share of the axis and the axis stays under [`HEIGHT_CAP`]: most events then sit at
/// their true time and zooms are few and small.
const ZOOM_SHARE: f64 = 0.4;
const HEIGHT_CAP: f64 = 3200.0;
/// Breaks and bursts raise the picture's scale at most this many times above the scale that
/// fits the whole run in [`SCALE_TARGET`].
const MAX_RISE: f64 = 4.0;
/// A zoom's own scale: at most this many px per ms (one line per ms)...
const ZOOM_MAX: f64 = PITCH;
/// ...and its time span at most this tall at that scale (events closer than one line at it
/// stack as rows, marked).
const ZOOM_SPAN: f64 = 256.0;
/// An idle stretch (nothing in flight, no node paused) at least this tall at the scale that fits
/// the whole run in [`SCALE_TARGET`] is cut short by an axis break...
const BREAK_MIN_PX: f64 = 320.0;
/// ...and at least this long.
const BREAK_MIN_MS: u64 = 2000;
/// A burst lasts at most this long at the picture's scale.
const MAX_BURST_PX: f64 = 3.0 * PITCH;
/// How much taller than the picture's scale a zoom must be, at least.
const MIN_FACTOR: f64 = 2.0;

/// A burst: events closer than one line apart at the picture's scale, drawn at its own scale.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(in crate::layout) struct Burst {
    pub from_ms: u64,
    pub to_ms: u64,
    /// The zoom's own scale (px per ms).
    pub px_per_ms: f64,
}

/// The axis's plan: its scale, its bursts and the stretches it may break.
#[derive(Debug, Clone, Default, PartialEq)]
pub(in crate::layout) struct Plan {
    /// The picture's scale (px per ms; 0 in logical time).
    pub ms_scale: f64,
    pub bursts: Vec<Burst>,
    /// Idle stretches (from, to) that may become breaks.
    idle: Vec<(u64, u64)>,
}

/// The distinct times of the events, and the gaps between them during which nothing is in
/// flight and no node is paused (the time from each such gap's start).
fn times_and_quiet(events: &[TraceEvent]) -> (Vec<u64>, BTreeSet<u64>) {
    let mut times: Vec<u64> = Vec::new();
    let mut quiet = BTreeSet::new();
    let mut flying: BTreeSet<u64> = BTreeSet::new();
    let mut paused: BTreeSet<u16> = BTreeSet::new();
    for e in events {
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
        // Whether the stretch after this event (until the next one) is quiet: the last event
        // of each instant decides.
        if flying.is_empty() && paused.is_empty() {
            quiet.insert(e.time_ms);
        } else {
            quiet.remove(&e.time_ms);
        }
    }
    (times, quiet)
}

/// The largest power of two (px per ms) at most `px`.
fn nice(px: f64) -> f64 {
    2f64.powf(px.log2().floor())
}

/// The bursts at scale `s`: runs of times closer than a line apart, each at its own scale.
fn bursts(times: &[u64], idle: &[(u64, u64)], s: f64) -> Vec<Burst> {
    let mut out: Vec<Burst> = Vec::new();
    let mut start: Option<usize> = None;
    for (k, w) in times.windows(2).enumerate() {
        let (a, b) = (w[0], w[1]);
        let close = ((b - a) as f64) * s < PITCH && !idle.contains(&(a, b));
        // A burst lasts a few lines at the picture's scale: a long chain of close events
        // (retries 100 ms apart) is cut into several, the stacks between them marked.
        let long = start.is_some_and(|from| (b - times[from]) as f64 * s > MAX_BURST_PX);
        if long && let Some(from) = start.take() {
            out.push(burst(&times[from..=k], s));
        }
        match (close && !long, start) {
            (true, None) => start = Some(k),
            (false, Some(from)) => {
                out.push(burst(&times[from..=k], s));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(from) = start {
        out.push(burst(&times[from..], s));
    }
    out
}

/// A burst of these distinct times: zoomed in until its closest times are a line apart, but
/// no further than [`ZOOM_MAX`] nor taller than [`ZOOM_SPAN`]; at least [`MIN_FACTOR`] times the
/// picture's scale `s`.
fn burst(times: &[u64], s: f64) -> Burst {
    let (from_ms, to_ms) = (times[0], times[times.len() - 1]);
    let span = (to_ms - from_ms).max(1) as f64;
    let closest = times
        .windows(2)
        .map(|w| w[1] - w[0])
        .min()
        .unwrap_or(1)
        .max(1);
    let need = PITCH / closest as f64;
    let most = (ZOOM_SPAN / span).min(ZOOM_MAX);
    let px_per_ms = nice(need.min(most)).max(MIN_FACTOR * s);
    Burst {
        from_ms,
        to_ms,
        px_per_ms,
    }
}

/// The quiet gaps long enough to break at scale `s`.
fn idle(times: &[u64], quiet: &BTreeSet<u64>, s: f64) -> Vec<(u64, u64)> {
    times
        .windows(2)
        .map(|w| (w[0], w[1]))
        .filter(|&(a, b)| {
            quiet.contains(&a) && b - a >= BREAK_MIN_MS && (b - a) as f64 * s >= BREAK_MIN_PX
        })
        .collect()
}

/// The axis's height at a plan, and the part of it the bursts take (one line per distinct
/// time at least: the rows that stack within an instant come on top, whatever the scale).
fn heights(times: &[u64], plan: &Plan) -> (f64, f64) {
    let (mut total, mut zoomed) = (0.0, 0.0);
    for w in times.windows(2) {
        let (a, b) = (w[0], w[1]);
        if plan.idle.contains(&(a, b)) {
            total += super::BREAK_H;
            continue;
        }
        let gap = ((b - a) as f64 * plan.scale_between(a, b)).max(PITCH);
        total += gap;
        if plan.burst_of(a).is_some_and(|z| b <= z.to_ms) {
            zoomed += gap;
        }
    }
    (total, zoomed)
}

impl Plan {
    /// Plans the axis of a run (an empty plan in logical time).
    pub fn new(events: &[TraceEvent], mode: TimeMode) -> Plan {
        let (times, quiet) = times_and_quiet(events);
        let (Some(&t0), Some(&t1)) = (times.first(), times.last()) else {
            return Plan::default();
        };
        if mode == TimeMode::Logical || t1 == t0 {
            return Plan::default();
        }
        // The scale that fills the target with the run's time; then the quiet stretches that
        // are long at that scale become breaks, and the scale fills the target with the rest.
        let fill = |cut: u64| {
            let active = (t1 - t0).saturating_sub(cut).max(1);
            (SCALE_TARGET / active as f64).clamp(SCALE_MIN, SCALE_MAX)
        };
        let whole = fill(0);
        let mut idle = idle(&times, &quiet, whole);
        // Breaks may raise the scale, but not so far that the run is all breaks and bursts.
        let most = (whole * MAX_RISE).min(SCALE_MAX);
        let plan_at = |s: f64, idle: &[(u64, u64)]| Plan {
            ms_scale: s,
            bursts: bursts(&times, idle, s),
            idle: idle.to_vec(),
        };
        let (base, mut best) = loop {
            let base = fill(idle.iter().map(|(a, b)| b - a).sum()).min(most);
            let plan = plan_at(base, &idle);
            // A picture that is all breaks and bursts shows no time at all: the shortest break
            // goes back to scale until some stretch is drawn at the picture's scale.
            let at_scale = times.windows(2).any(|w| {
                !plan.idle.contains(&(w[0], w[1])) && plan.scale_between(w[0], w[1]) == base
            });
            match idle.iter().enumerate().min_by_key(|(_, (a, b))| b - a) {
                Some((k, _)) if !at_scale => {
                    idle.remove(k);
                }
                _ => break (base, plan),
            }
        };
        let (base_total, zoomed) = heights(&times, &best);
        if zoomed <= ZOOM_SHARE * base_total {
            return best;
        }
        // Bursts take most of the axis: a larger scale puts more events at their time, as long
        // as the picture stays within bounds.
        let mut s = base;
        while s * 1.25 <= most {
            s *= 1.25;
            let plan = plan_at(s, &idle);
            let (total, zoomed) = heights(&times, &plan);
            if total > HEIGHT_CAP.max(base_total) {
                break;
            }
            best = plan;
            if zoomed <= ZOOM_SHARE * total {
                break;
            }
        }
        best
    }

    /// The burst holding time `t`, if any.
    pub fn burst_of(&self, t: u64) -> Option<&Burst> {
        let k = self.bursts.partition_point(|b| b.to_ms < t);
        self.bursts.get(k).filter(|b| b.from_ms <= t)
    }

    /// The scale (px per ms) between two times: a burst's own when both fall in it.
    pub fn scale_between(&self, a: u64, b: u64) -> f64 {
        match self.burst_of(a.min(b)) {
            Some(z) if a.max(b) <= z.to_ms => z.px_per_ms,
            _ => self.ms_scale,
        }
    }

    /// The scale at time `t`.
    pub fn scale_at(&self, t: u64) -> f64 {
        self.scale_between(t, t)
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
    fn a_burst_has_its_own_power_of_two_scale() {
        assert_eq!(nice(31.0), 16.0);
        assert_eq!(nice(32.0), 32.0);
        // Times 1 ms apart: a line per ms.
        let b = burst(&[6000, 6001, 6002, 6003], 0.127);
        assert_eq!(b.px_per_ms, 32.0);
        // A long burst: no taller than ZOOM_SPAN.
        let b = burst(&[0, 1, 271], 0.25);
        assert_eq!(b.px_per_ms, 0.5);
        // Two times 56 ms apart: just enough to part them (twice the picture's scale).
        let b = burst(&[1500, 1556], 0.486);
        assert_eq!(b.px_per_ms, 0.972);
    }
}
