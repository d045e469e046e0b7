//! Folding repetition: a worker retrying `SET NX` every 100 ms for five seconds makes the same
//! four events fifty times. The timeline shows the first round and one line with the count.

use lockstep_core::TraceEvent;

/// The longest round of events looked for: a Redlock round to five instances and its release is
/// 40 events; 60 workers retrying against one Redis make a round of 236.
pub const MAX_ROUND: usize = 256;
/// A round is folded when it happens at least this many times in a row.
pub const MIN_OCCURRENCES: usize = 3;

/// `len` events from `start` that then happen `repeats` more times, identically, right after.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fold {
    pub start: usize,
    pub len: usize,
    pub repeats: usize,
}

impl Fold {
    /// The first event after the folded repeats.
    pub fn end(&self) -> usize {
        self.start + self.len * (self.repeats + 1)
    }
}

/// Two events that read the same on the timeline, whatever their time and message number.
fn same(a: &TraceEvent, b: &TraceEvent) -> bool {
    a.kind == b.kind
        && a.from == b.from
        && a.to == b.to
        && a.label == b.label
        && a.explanation == b.explanation
        && a.tag == b.tag
}

/// The repeated rounds in `events`, in order and not overlapping. At each position the round that
/// hides the most events wins (the shortest such round on a tie).
pub fn folds(events: &[TraceEvent]) -> Vec<Fold> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < events.len() {
        match best_round_at(events, i) {
            Some(fold) => {
                i = fold.end();
                out.push(fold);
            }
            None => i += 1,
        }
    }
    out
}

fn best_round_at(events: &[TraceEvent], start: usize) -> Option<Fold> {
    let mut best: Option<Fold> = None;
    for len in 1..=MAX_ROUND {
        if start + len * MIN_OCCURRENCES > events.len() {
            break;
        }
        let round = &events[start..start + len];
        let repeats = events[start + len..]
            .chunks_exact(len)
            .take_while(|next| next.iter().zip(round).all(|(a, b)| same(a, b)))
            .count();
        if repeats + 1 < MIN_OCCURRENCES {
            continue;
        }
        let fold = Fold {
            start,
            len,
            repeats,
        };
        if best.is_none_or(|b| len * repeats > b.len * b.repeats) {
            best = Some(fold);
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use lockstep_core::EventKind;

    fn ev(label: &str, time_ms: u64) -> TraceEvent {
        TraceEvent {
            time_ms,
            kind: EventKind::Send,
            from: 0,
            to: 1,
            message: Some(time_ms),
            label: label.into(),
            explanation: String::new(),
            tag: None,
        }
    }

    fn trace(labels: &str) -> Vec<TraceEvent> {
        labels
            .chars()
            .enumerate()
            .map(|(i, c)| ev(&c.to_string(), i as u64 * 100))
            .collect()
    }

    #[test]
    fn a_round_seen_three_times_folds() {
        assert_eq!(
            folds(&trace("xabababy")),
            [Fold {
                start: 1,
                len: 2,
                repeats: 2
            }]
        );
        // Twice is not enough.
        assert!(folds(&trace("xababy")).is_empty());
    }

    #[test]
    fn the_round_hiding_most_events_wins() {
        // `aaab` four times: folding `aaab` hides 12 events, folding `aaa` only 2.
        let f = folds(&trace("aaabaaabaaabaaab"));
        assert_eq!(
            f,
            [Fold {
                start: 0,
                len: 4,
                repeats: 3
            }]
        );
    }

    #[test]
    fn anything_different_breaks_the_round() {
        let mut events = trace("abababab");
        assert_eq!(folds(&events).len(), 1);
        events[5].explanation = "different".into();
        assert!(folds(&events).is_empty());
    }
}
