//! The to-scale time axis before anything is placed: the picture's one scale (px per ms), the
//! bursts of events closer than a line apart at that scale, and the idle stretches that may be
//! cut short by an axis break. The placer asks it how far apart two times are.
//!
//! A burst is drawn in order, not to scale: its rows pack like logical rows (a send and its
//! delivery, unrelated lanes share a line) inside a tinted band that gives its time range. A
//! presenter reading Kleppmann needs the order of the messages of a lock round, not their
//! milliseconds; a zoom with its own scale would claim distances it cannot keep once rows share
//! lines, and a picture with several zoom factors cannot be read at a glance.

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

/// A burst's band starts this far above its first line (room for that row's label, which sits
/// above its line): the band's top is the burst's first time on the picture's scale...
pub(in crate::layout) const ZOOM_TOP: f64 = 24.0;
/// ...and ends this far below its last line (a note hangs half its height below its line): the
/// band's bottom is the burst's last time, and the axis runs on at its scale from there.
pub(in crate::layout) const ZOOM_BOTTOM: f64 = 12.0;

/// A burst: events closer than one line apart at the picture's scale, drawn in order.
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

/// The bursts at scale `s`: runs of distinct times closer than a line apart (each gap within a
/// run is too short to draw at the scale; each gap between runs is at least a line).
fn bursts(times: &[u64], idle: &[(u64, u64)], s: f64) -> Vec<Burst> {
    let mut out: Vec<Burst> = Vec::new();
    let mut start: Option<usize> = None;
    for (k, w) in times.windows(2).enumerate() {
        let (a, b) = (w[0], w[1]);
        let close = ((b - a) as f64) * s < PITCH && !idle.contains(&(a, b));
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
    /// Plans the axis of a run (an empty plan in logical time).
    pub fn new(events: &[TraceEvent], mode: TimeMode) -> Plan {
        let (times, quiet) = times_and_quiet(events);
        let (Some(&t0), Some(&t1)) = (times.first(), times.last()) else {
            return Plan::default();
        };
        if mode == TimeMode::Logical || t1 == t0 {
            return Plan::default();
        }
        // The scale that fills the budget with the run's time; then the quiet stretches that
        // are long at that scale become breaks, and the scale fills the budget with the rest.
        let budget = (BUDGET_PER_TIME * times.len() as f64).clamp(BUDGET_MIN, BUDGET_MAX);
        let fill = |cut: u64| {
            let active = (t1 - t0).saturating_sub(cut).max(1);
            (budget / active as f64).clamp(SCALE_MIN, SCALE_MAX)
        };
        let whole = fill(0);
        let mut idle = idle(&times, &quiet, whole, BREAK_SHARE * budget);
        // Breaks may raise the scale, but not so far that the run is all breaks and bursts.
        let most = (whole * MAX_RISE).min(SCALE_MAX);
        loop {
            let base = fill(idle.iter().map(|(a, b)| b - a).sum()).min(most);
            let plan = Plan {
                ms_scale: base,
                bursts: bursts(&times, &idle, base),
                idle: idle.clone(),
            };
            // A picture that is all breaks and bursts shows no time at all: the shortest break
            // goes back to scale until some stretch is drawn at the picture's scale.
            let at_scale = times
                .windows(2)
                .any(|w| !plan.idle.contains(&(w[0], w[1])) && !plan.ordered(w[0], w[1]));
            match idle.iter().enumerate().min_by_key(|(_, (a, b))| b - a) {
                Some((k, _)) if !at_scale => {
                    idle.remove(k);
                }
                _ => return plan,
            }
        }
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

    /// Where the axis runs on at the picture's scale after the line at `y` of time `t`: the
    /// bottom of the band of a burst holding `t` (at the burst's last time), else the line.
    pub fn resume_after(&self, y: f64, t: u64) -> (f64, u64) {
        match self.burst_of(t) {
            Some(b) => (y + ZOOM_BOTTOM, b.to_ms.max(t)),
            None => (y, t),
        }
    }

    /// The y at the picture's scale of a line at `t` after a line at `(y, t0)` outside the
    /// burst of `t0` (bursts' bands are room for their rows, not time): from the end of the
    /// band of a burst holding `t0`, to the top of one starting at `t`, at the scale.
    pub fn scaled_y(&self, (y, t0): (f64, u64), t: u64) -> f64 {
        let (y0, from) = self.resume_after(y, t0);
        y0 + t.saturating_sub(from) as f64 * self.ms_scale + self.pad_before(t)
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
            idle: Vec::new(),
        };
        assert!(plan.ordered(6000, 6008));
        assert!(!plan.ordered(4, 3000));
    }
}
