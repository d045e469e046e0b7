//! Spans on lanes, opened and closed by the trace's tags: pauses, crashes, the service's record of
//! a holder, a worker's belief; and the danger zones where two beliefs overlap.

use lockstep_core::sort;
use std::collections::BTreeMap;

use lockstep_core::trace::Tag;

use super::frame::Frame;
use super::{Span, SpanKind, Tone};
use crate::geom::Rect;

/// Span bars: a worker's belief right of its lifeline, the service's record left of it.
const BAR_NEAR: f64 = 4.0;
const BAR_FAR: f64 = 14.0;
/// Half the width of pause and crash spans.
const WIDE_HALF: f64 = 20.0;

/// Two workers' beliefs overlapping: rows, and the lanes of the two workers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Overlap {
    pub from_row: usize,
    pub to_row: Option<usize>,
    pub first: usize,
    pub second: usize,
}

/// What the builder needs to know about each lane.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct LaneInfo {
    /// The colour of the worker on this lane.
    pub tone: Option<Tone>,
    /// Whether the lane is a consensus node (whose records move to a new leader).
    pub consensus: bool,
}

/// Opens and closes spans as tags go by.
#[derive(Debug)]
pub(super) struct SpanBuilder<'a> {
    frame: &'a Frame,
    ys: &'a [f64],
    lanes: Vec<LaneInfo>,
    /// Tone of each holder name.
    holders: BTreeMap<String, Tone>,
    paused: BTreeMap<usize, (usize, u64)>,
    down: BTreeMap<usize, usize>,
    believes: BTreeMap<usize, (usize, Option<u64>)>,
    /// (lane, holder) -> (row, token, slot beside the lifeline).
    holds: BTreeMap<(usize, String), (usize, Option<u64>, usize)>,
    /// (lane, from row, to row) of every belief.
    beliefs: Vec<(usize, usize, Option<usize>)>,
    pub spans: Vec<Span>,
}

impl<'a> SpanBuilder<'a> {
    pub fn new(
        frame: &'a Frame,
        ys: &'a [f64],
        lanes: Vec<LaneInfo>,
        holders: BTreeMap<String, Tone>,
    ) -> Self {
        SpanBuilder {
            frame,
            ys,
            lanes,
            holders,
            paused: BTreeMap::new(),
            down: BTreeMap::new(),
            believes: BTreeMap::new(),
            holds: BTreeMap::new(),
            beliefs: Vec::new(),
            spans: Vec::new(),
        }
    }

    fn wide(&self, lane: usize, y0: f64, y1: f64) -> Rect {
        let x = self.frame.x(lane);
        Rect::new(x - WIDE_HALF, y0, x + WIDE_HALF, y1)
    }

    fn belief_bar(&self, lane: usize, y0: f64, y1: f64) -> Rect {
        let x = self.frame.x(lane);
        Rect::new(x + BAR_NEAR, y0, x + BAR_FAR, y1)
    }

    fn hold_bar(&self, lane: usize, slot: usize, y0: f64, y1: f64) -> Rect {
        let x = self.frame.x(lane) - slot as f64 * (BAR_FAR - BAR_NEAR + 2.0);
        Rect::new(x - BAR_FAR, y0, x - BAR_NEAR, y1)
    }

    fn worker_tone(&self, lane: usize) -> Tone {
        self.lanes[lane].tone.unwrap_or(Tone::Infra)
    }

    fn holder_tone(&self, holder: &str) -> Tone {
        self.holders.get(holder).copied().unwrap_or(Tone::Infra)
    }

    /// Closes the service's record `key` at row `to` (None: still open, ending at `y1`).
    fn close_hold(
        &mut self,
        key: (usize, String),
        ended: Option<lockstep_core::trace::FreeReason>,
        to: Option<usize>,
        y1: f64,
    ) {
        if let Some((from, token, slot)) = self.holds.remove(&key) {
            let rect = self.hold_bar(key.0, slot, self.ys[from], y1);
            let tone = self.holder_tone(&key.1);
            self.spans.push(Span {
                lane: Some(key.0),
                kind: SpanKind::ServiceHolds {
                    holder: key.1,
                    token,
                    ended,
                },
                from_row: from,
                to_row: to,
                rect,
                tone,
            });
        }
    }

    /// Takes in the tag of the event on row `i`, on `lane` (the lane of its `from`).
    pub fn observe(&mut self, i: usize, lane: usize, tag: &Tag) {
        let y = self.ys[i];
        match tag {
            Tag::Paused { until_ms } => {
                self.paused.entry(lane).or_insert((i, *until_ms));
            }
            Tag::Resumed => {
                if let Some((from, until_ms)) = self.paused.remove(&lane) {
                    let rect = self.wide(lane, self.ys[from], y);
                    self.spans.push(Span {
                        lane: Some(lane),
                        kind: SpanKind::Paused { until_ms },
                        from_row: from,
                        to_row: Some(i),
                        rect,
                        tone: Tone::Infra,
                    });
                }
            }
            Tag::Crashed => {
                self.down.entry(lane).or_insert(i);
            }
            Tag::Restarted { .. } => {
                if let Some(from) = self.down.remove(&lane) {
                    let rect = self.wide(lane, self.ys[from], y);
                    self.spans.push(Span {
                        lane: Some(lane),
                        kind: SpanKind::Down,
                        from_row: from,
                        to_row: Some(i),
                        rect,
                        tone: Tone::Infra,
                    });
                }
            }
            Tag::Believes { token } => {
                self.believes.entry(lane).or_insert((i, *token));
            }
            Tag::StopsBelieving => {
                if let Some((from, token)) = self.believes.remove(&lane) {
                    self.beliefs.push((lane, from, Some(i)));
                    let rect = self.belief_bar(lane, self.ys[from], y);
                    let tone = self.worker_tone(lane);
                    self.spans.push(Span {
                        lane: Some(lane),
                        kind: SpanKind::Believes { token },
                        from_row: from,
                        to_row: Some(i),
                        rect,
                        tone,
                    });
                }
            }
            Tag::Leader { .. } => {
                // A new leader serves the replicated lock records: draw them on its lane from now.
                let moved: Vec<(usize, String)> = self
                    .holds
                    .keys()
                    .filter(|(l, _)| *l != lane && self.lanes[*l].consensus)
                    .cloned()
                    .collect();
                for key in moved {
                    let kept = self.holds.get(&key).map(|&(_, token, _)| token);
                    self.close_hold(key.clone(), None, Some(i), y);
                    if let Some(token) = kept {
                        let slot = self.holds.keys().filter(|(l, _)| *l == lane).count();
                        self.holds.insert((lane, key.1), (i, token, slot));
                    }
                }
            }
            Tag::ServiceGrants { holder, token } => {
                let key = (lane, holder.clone());
                if !self.holds.contains_key(&key) {
                    let slot = self.holds.keys().filter(|(l, _)| *l == lane).count();
                    self.holds.insert(key, (i, *token, slot));
                }
            }
            Tag::ServiceFrees { holder, reason } => {
                // The record may have been made by another node of the same service (a consensus
                // leader that has since crashed): close it wherever it is.
                let key = if self.holds.contains_key(&(lane, holder.clone())) {
                    Some((lane, holder.clone()))
                } else {
                    self.holds.keys().find(|(_, h)| h == holder).cloned()
                };
                if let Some(key) = key {
                    self.close_hold(key, Some(*reason), Some(i), y);
                }
            }
            _ => {}
        }
    }

    /// Ends the spans still open at `open_end` and finds where beliefs overlap; `time_of` gives a
    /// row's simulated time (None: the last row shown).
    pub fn finish(
        mut self,
        open_end: f64,
        time_of: impl Fn(Option<usize>) -> u64,
    ) -> (Vec<Span>, Vec<Overlap>) {
        for (lane, (from, until_ms)) in std::mem::take(&mut self.paused) {
            let rect = self.wide(lane, self.ys[from], open_end);
            self.spans.push(Span {
                lane: Some(lane),
                kind: SpanKind::Paused { until_ms },
                from_row: from,
                to_row: None,
                rect,
                tone: Tone::Infra,
            });
        }
        for (lane, from) in std::mem::take(&mut self.down) {
            let rect = self.wide(lane, self.ys[from], open_end);
            self.spans.push(Span {
                lane: Some(lane),
                kind: SpanKind::Down,
                from_row: from,
                to_row: None,
                rect,
                tone: Tone::Infra,
            });
        }
        for (lane, (from, token)) in std::mem::take(&mut self.believes) {
            self.beliefs.push((lane, from, None));
            let rect = self.belief_bar(lane, self.ys[from], open_end);
            let tone = self.worker_tone(lane);
            self.spans.push(Span {
                lane: Some(lane),
                kind: SpanKind::Believes { token },
                from_row: from,
                to_row: None,
                rect,
                tone,
            });
        }
        let open: Vec<(usize, String)> = self.holds.keys().cloned().collect();
        for key in open {
            self.close_hold(key, None, None, open_end);
        }

        // Overlapping beliefs, by simulated time as the verdict measures them.
        let mut sorted = self.beliefs.clone();
        sort::sort_by_key(&mut sorted, |&(lane, from, _)| (from, lane));
        let mut overlaps = Vec::new();
        for (k, a) in sorted.iter().enumerate() {
            for b in &sorted[k + 1..] {
                if a.0 == b.0 {
                    continue;
                }
                let from_t = time_of(Some(a.1)).max(time_of(Some(b.1)));
                let to_t = time_of(a.2).min(time_of(b.2));
                // Both still believing at the last step shown: the overlap has begun, even in
                // the instant it began (a step render must show where the danger starts).
                let both_open = a.2.is_none() && b.2.is_none();
                if from_t < to_t || (both_open && from_t <= to_t) {
                    let to_row = match (a.2, b.2) {
                        (Some(x), Some(y)) => Some(x.min(y)),
                        (Some(x), None) | (None, Some(x)) => Some(x),
                        (None, None) => None,
                    };
                    overlaps.push(Overlap {
                        from_row: a.1.max(b.1),
                        to_row,
                        first: a.0,
                        second: b.0,
                    });
                }
            }
        }
        (self.spans, overlaps)
    }
}
