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

/// A line right after a burst's band keeps this far below it: room for its label, which sits
/// above its line, outside the band.
const LABEL_ROOM: f64 = 26.0;
/// A burst's band starts this far above its first line (room for that row's label, which sits
/// above its line): the band's top is the burst's first time on the picture's scale...
pub(in crate::layout) const ZOOM_TOP: f64 = 24.0;
/// ...and ends this far below its last line (a note hangs half its height below its line): the
/// band's bottom is the burst's last time, and the axis runs on at its scale from there.
pub(in crate::layout) const ZOOM_BOTTOM: f64 = 12.0;

/// The at-scale axis of a picture stays within this height (px, breaks and bursts aside) when
/// its scale is raised so that an overlap's bursts fit in its time.
const AXIS_MAX: f64 = 1900.0;
/// An overlap band may be drawn this much taller than its time at the picture's scale before the
/// scale is raised (the bound tests/scale.rs checks is a little looser: 25 %).
const OVERLAP_SLACK: f64 = 1.15;

/// Overlaps shorter than this are a line or two whatever the scale: the scale does not rise for
/// them.
const OVERLAP_MIN_MS: u64 = 100;

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
    /// Where two workers both believe they hold the lock: (the event starting it, the event
    /// ending it). The scale is raised until each is drawn about as tall as its time.
    pub overlaps: Vec<(usize, usize)>,
    /// Overlaps and stale beliefs (from, to ms): never cut.
    danger: Vec<(u64, u64)>,
    /// Bursts (by their first time) whose band is lifted this many px above its time: the
    /// part of a burst just before an overlap ends, drawn over the time before it (so that the
    /// row where the overlap ends is not pushed down by the rows before it).
    pub lifts: Vec<(u64, f64)>,
    /// The run's time less its idle stretches (ms): the axis's length at scale.
    active_ms: u64,
}

/// Where the axis stands after a line: it runs on at the picture's scale from `anchor` (y, ms),
/// and the next line goes no higher than `bottom` (the line, or its burst's band's bottom).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(in crate::layout) struct Resume {
    pub anchor: (f64, f64),
    pub bottom: f64,
    /// Whether `bottom` is a burst's band's bottom.
    pub band: bool,
}

impl Resume {
    /// The y of time `t` at the picture's scale `s`, from the anchor.
    pub fn scaled(&self, t: u64, s: f64) -> f64 {
        self.anchor.0 + (t as f64 - self.anchor.1) * s
    }

    /// The axis's time at `bottom`, where it takes up again after a burst's band (its rows are
    /// drawn over the time after the burst): the time the band's height reaches on the scale,
    /// or earlier where the next line (at `next` ms, its band's top or its own y at `next_y`)
    /// had to go lower than its time (the rows needed more room than the time gives).
    pub fn resume_ms(&self, s: f64, next: u64, next_y: f64) -> u64 {
        let s = s.max(1e-12);
        let at = self.anchor.1 + (self.bottom - self.anchor.0) / s;
        let pushed = next as f64 - (next_y - self.bottom) / s;
        at.min(pushed).round().max(0.0) as u64
    }
}

/// Pairs of event indices (the event starting a stretch, the event ending it).
type EventPairs = Vec<(usize, usize)>;

/// The stretches during which cutting idle time would hide what the picture is about: two
/// workers both believing they hold the lock, or one believing it while the service records no
/// hold for it (its lease ran out). Also the events that start and end each overlap.
fn danger(events: &[TraceEvent], names: &[String]) -> (Vec<(u64, u64)>, EventPairs) {
    let mut believers: BTreeSet<u16> = BTreeSet::new();
    let mut holds: std::collections::BTreeMap<String, usize> = Default::default();
    let mut out: Vec<(u64, u64)> = Vec::new();
    let mut overlaps = Vec::new();
    let mut since: Option<u64> = None;
    let mut overlap_from: Option<usize> = None;
    for (i, e) in events.iter().enumerate() {
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
        match (both, overlap_from) {
            (true, None) => overlap_from = Some(i),
            (false, Some(from)) => {
                overlaps.push((from, i));
                overlap_from = None;
            }
            _ => {}
        }
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
    (out, overlaps)
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
///
/// A burst is split where an overlap begins or ends (`cuts`): each part's band sits with its
/// top at its first time and its rows over the time after it, so the row where two workers
/// start (or stop) both believing is drawn at its time, not a burst's height ahead of it.
fn bursts(times: &[u64], idle: &[(u64, u64)], cuts: &[u64], s: f64) -> Vec<Burst> {
    let mut out: Vec<Burst> = Vec::new();
    let mut start: Option<usize> = None;
    for (k, w) in times.windows(2).enumerate() {
        let (a, b) = (w[0], w[1]);
        let close = ((b - a) as f64) * s < PITCH
            && !idle.contains(&(a, b))
            && cuts.binary_search(&b).is_err();
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
    pub fn new(events: &[TraceEvent], names: &[String], mode: TimeMode) -> Plan {
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
        // Never cut inside an overlap or a stale belief: that is the time the picture teaches.
        let (danger, overlaps) = danger(events, names);
        let mut cuts: Vec<u64> = overlaps
            .iter()
            .flat_map(|&(a, b)| [events[a].time_ms, events[b].time_ms])
            .collect();
        cuts.sort_unstable();
        cuts.dedup();
        let mut idle = idle(&times, &quiet, whole, BREAK_SHARE * budget);
        idle.retain(|&(a, b)| !danger.iter().any(|&(x, y)| x < b && y > a));
        // Breaks may raise the scale, but not so far that the run is all breaks and bursts.
        let most = (whole * MAX_RISE).min(SCALE_MAX);
        loop {
            let base = fill(idle.iter().map(|(a, b)| b - a).sum()).min(most);
            let plan = Plan {
                ms_scale: base,
                bursts: bursts(&times, &idle, &cuts, base),
                idle: idle.clone(),
                overlaps: overlaps.clone(),
                danger: danger.clone(),
                lifts: Vec::new(),
                active_ms: (t1 - t0).saturating_sub(idle.iter().map(|(a, b)| b - a).sum()),
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

    /// The same plan at a larger scale, where the overlaps as placed at this one (`y` gives each
    /// event's y) are drawn taller than their time (their bursts' rows need more room than the
    /// time between them gives): the scale at which their time is as tall as they are drawn,
    /// within [`AXIS_MAX`]. None where no overlap needs it or the scale may not rise.
    pub fn rescaled(
        &self,
        events: &[TraceEvent],
        y: impl Fn(usize) -> f64,
        lines: &[(f64, u64)],
    ) -> Option<Plan> {
        let most = (AXIS_MAX / self.active_ms.max(1) as f64).min(SCALE_MAX);
        let overlaps = self.overlaps.iter().filter_map(|&(a, b)| {
            let ms = events.get(b)?.time_ms.checked_sub(events.get(a)?.time_ms)?;
            let drawn = y(b) - y(a);
            // An overlap of a few ms among many rows cannot be drawn to scale: it is left as
            // it is (a line or two) rather than stretch the rest.
            (ms >= OVERLAP_MIN_MS && drawn > OVERLAP_SLACK * ms as f64 * self.ms_scale)
                .then_some(drawn / ms as f64)
        });
        // A burst inside an overlap or a stale belief whose rows need more room than the time
        // until the next line: the scale at which that time holds them.
        let crowded = self.bursts.iter().filter_map(|b| {
            let first = lines.partition_point(|l| l.1 < b.from_ms);
            let next = lines.partition_point(|l| l.1 <= b.to_ms);
            let (&(y0, t0), &(yn, tn)) = (lines.get(first)?, lines.get(next)?);
            let in_danger = self
                .overlaps
                .iter()
                .any(|&(a, z)| events[a].time_ms < tn && events[z].time_ms > t0);
            let room = yn - self.pad_before(tn) - (y0 - ZOOM_TOP);
            let ms = (tn - t0) as f64;
            (in_danger && room > OVERLAP_SLACK * ms * self.ms_scale).then_some(room / ms)
        });
        // The part of a burst just before an overlap ends (a burst is split there): lifted by
        // its band's height, so that its rows are drawn over the time before it.
        let cuts = self.cuts(events);
        let ends: Vec<u64> = self
            .overlaps
            .iter()
            .filter_map(|&(_, b)| events.get(b).map(|e| e.time_ms))
            .collect();
        let lifts: Vec<(u64, f64)> = self
            .bursts
            .windows(2)
            .filter(|w| {
                ends.contains(&w[1].from_ms)
                    && ((w[1].from_ms - w[0].to_ms) as f64) * self.ms_scale < PITCH
            })
            .filter_map(|w| {
                let first = lines.partition_point(|l| l.1 < w[0].from_ms);
                let last = lines
                    .partition_point(|l| l.1 <= w[0].to_ms)
                    .checked_sub(1)?;
                let (y0, y1) = (lines.get(first)?.0, lines.get(last)?.0);
                Some((w[0].from_ms, y1 - y0 + ZOOM_TOP + ZOOM_BOTTOM))
            })
            .collect();
        // Within the axis's height: an overlap holding more rows than that allows is drawn
        // as tall as its rows; a burst that cannot fit its time at that height leaves the
        // scale alone.
        let need = overlaps
            .map(|s| s.min(most))
            .chain(crowded.filter(|&s| s <= most))
            .fold(0.0, f64::max);
        let same_lifts = lifts.len() == self.lifts.len()
            && lifts
                .iter()
                .zip(&self.lifts)
                .all(|(a, b)| a.0 == b.0 && (a.1 - b.1).abs() < 1.0);
        // New lifts first, at this scale (they may be all the overlap needs); then a higher
        // scale where the overlap is still drawn taller than its time.
        let s = if same_lifts {
            need.max(self.ms_scale)
        } else {
            self.ms_scale
        };
        if s <= self.ms_scale * 1.01 && same_lifts {
            return None;
        }
        let times: Vec<u64> = {
            let mut t: Vec<u64> = events.iter().map(|e| e.time_ms).collect();
            t.dedup();
            t
        };
        Some(Plan {
            ms_scale: s,
            bursts: bursts(&times, &self.idle, &cuts, s),
            lifts,
            ..self.clone()
        })
    }

    /// The times where overlaps begin and end, sorted (bursts are split there).
    fn cuts(&self, events: &[TraceEvent]) -> Vec<u64> {
        let mut cuts: Vec<u64> = self
            .overlaps
            .iter()
            .flat_map(|&(a, b)| [events[a].time_ms, events[b].time_ms])
            .collect();
        cuts.sort_unstable();
        cuts.dedup();
        cuts
    }

    /// Where the axis stands after line `k` (`line` gives each line's y and time): from a line
    /// outside bursts, at that line; after a burst's line, from the top of its band at its
    /// first time (the band's rows are drawn over the time after the burst, wherever nothing
    /// else happens in it), the next line going no higher than this band's bottom.
    ///
    /// `line` gives each line's y, time and nominal y (where it would be unlifted: the band of a
    /// lifted burst sits above its time by up to its lift, and its first time is at its
    /// nominal y on the scale).
    pub fn after(&self, k: usize, line: impl Fn(usize) -> (f64, u64, f64)) -> Resume {
        let (y, t, _) = line(k);
        match self.burst_of(t) {
            Some(b) => {
                let mut first = k;
                while first > 0 && line(first - 1).1 >= b.from_ms {
                    first -= 1;
                }
                let (y0, t0, nominal) = line(first);
                let top = nominal - ZOOM_TOP;
                // The bottom ends at a whole ms on the scale (from the band's top).
                let band_top = y0 - ZOOM_TOP;
                Resume {
                    anchor: (top, t0 as f64),
                    bottom: band_top + self.whole_ms(y + ZOOM_BOTTOM - band_top),
                    band: true,
                }
            }
            None => Resume {
                anchor: (y, t as f64),
                bottom: y,
                band: false,
            },
        }
    }

    /// `px` rounded up to a whole number of ms at the picture's scale: a band's bottom and the
    /// room under it end at a whole ms on the axis, which keeps its times exact where a ms is
    /// several px.
    fn whole_ms(&self, px: f64) -> f64 {
        let s = self.ms_scale.max(1e-12);
        (px / s - 1e-9).ceil() * s
    }

    /// The y of a new line at `t` after line `k` (not in its burst), at the picture's scale:
    /// its band's top at the time on the scale, or below the band above where that is lower.
    pub fn next_y(&self, k: usize, line: impl Fn(usize) -> (f64, u64, f64), t: u64) -> (f64, f64) {
        let r = self.after(k, line);
        let pad = self.pad_before(t);
        let room = if r.band && pad == 0.0 {
            self.whole_ms(LABEL_ROOM)
        } else {
            0.0
        };
        // A lifted band keeps clear of the note hanging below the line before it.
        let hang = if r.band { room } else { room.max(ZOOM_BOTTOM) };
        let floor = r.bottom + hang + pad;
        let nominal = r.scaled(t, self.ms_scale).max(r.bottom + room) + pad;
        let lift = self.lift(t);
        (
            (nominal - self.whole_ms(lift)).max(floor).min(nominal),
            nominal,
        )
    }

    /// How far the band of the burst starting at `t` is lifted above its time (0 for most).
    fn lift(&self, t: u64) -> f64 {
        self.burst_of(t)
            .filter(|b| b.from_ms == t)
            .and_then(|b| self.lifts.iter().find(|l| l.0 == b.from_ms))
            .map_or(0.0, |l| l.1)
    }

    /// The y of a new line at `t` after line `k` with an axis break between, if the idle
    /// stretch before `t` may be cut and cutting it leaves it shorter.
    pub fn break_before(
        &self,
        k: usize,
        line: impl Fn(usize) -> (f64, u64, f64) + Copy,
        t: u64,
        height: f64,
    ) -> Option<f64> {
        let (_, last, _) = line(k);
        if !self.may_break(last, t) {
            return None;
        }
        let r = self.after(k, line);
        let resume = r.resume_ms(self.ms_scale, t, r.bottom);
        let at_scale = r.scaled(t, self.ms_scale) - r.bottom;
        (t - resume >= BREAK_MIN_MS && at_scale > height)
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
        let b = bursts(&times, &[], &[], 0.05);
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
}
