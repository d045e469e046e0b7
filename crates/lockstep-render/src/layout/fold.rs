//! Finds repeated retries: a cycle of events (a SET and its "nil" answer, or a whole Redlock
//! round to five instances and its unlock) repeated three times or more in a row, identically.
//! The first cycle is drawn; the rest fold into one line ("B retried 47 more times, 102 ms
//! apart") that interactive front ends can unfold.

use lockstep_core::Trace;
use lockstep_core::trace::{EventKind, Tag, TraceEvent};

/// Longest cycle looked for, in events: a Redlock round to five instances and its unlock is 32
/// to 40 events; 60 workers retrying against one Redis make a round of 236 (as `lockstep run`).
const MAX_PERIOD: usize = 256;
/// A cycle must repeat at least this often (the first included) to fold.
const MIN_REPEATS: usize = 3;

/// A stretch of repeated cycles folded into one line.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Fold {
    /// First and last folded event (the first cycle, drawn, comes before `first`).
    pub first: usize,
    pub last: usize,
    /// How many times the cycle ran, the drawn one included.
    pub repeats: usize,
    /// Average time from one cycle's start to the next.
    pub period_ms: u64,
    /// What the folded line says.
    pub text: String,
}

fn same(a: &TraceEvent, b: &TraceEvent) -> bool {
    a.kind == b.kind
        && a.from == b.from
        && a.to == b.to
        && a.label == b.label
        && a.tag == b.tag
        && a.explanation == b.explanation
}

/// Whether event `e` may be part of a folded cycle: messages, plain state changes and the lock
/// service granting and freeing the key (a failed round's bookkeeping, the same every round), so
/// no fault, belief, mark or verdict-relevant tag disappears.
fn foldable(e: &TraceEvent) -> bool {
    !matches!(e.kind, EventKind::Fault)
        && matches!(
            e.tag,
            None | Some(Tag::ServiceGrants { .. } | Tag::ServiceFrees { .. })
        )
}

/// The folds of `trace`, in order.
pub fn folds(trace: &Trace) -> Vec<Fold> {
    let events = &trace.events;
    let mut out = Vec::new();
    let mut i = 0;
    while i < events.len() {
        let mut best: Option<(usize, usize)> = None;
        for p in 2..=MAX_PERIOD {
            if i + p * MIN_REPEATS > events.len() {
                break;
            }
            if !events[i..i + p].iter().all(foldable) {
                continue;
            }
            let mut r = 1;
            while i + (r + 1) * p <= events.len()
                && (0..p).all(|k| same(&events[i + k], &events[i + r * p + k]))
            {
                r += 1;
            }
            // The cycle that folds the most events wins (the shortest on a tie).
            if r >= MIN_REPEATS && best.is_none_or(|(bp, br)| r * p > bp * br) {
                best = Some((p, r));
            }
        }
        match best {
            Some((p, r)) => {
                let first = i + p;
                let last = i + r * p - 1;
                let span = events[i + (r - 1) * p].time_ms - events[i].time_ms;
                let period_ms = span / (r as u64 - 1);
                let who = events[i].from;
                let one_actor = events[i..i + p]
                    .iter()
                    .all(|e| e.from == who || e.to == who);
                let what = if one_actor {
                    format!("{} retried", trace.name(who))
                } else {
                    format!("the same {p} events again")
                };
                out.push(Fold {
                    first,
                    last,
                    repeats: r,
                    period_ms,
                    text: format!(
                        "{what} {} more times, {period_ms} ms apart (steps {}-{})",
                        r - 1,
                        first + 1,
                        last + 1
                    ),
                });
                i += r * p;
            }
            None => i += 1,
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use lockstep_core::topology::{Participant, Role};

    fn ev(t: u64, kind: EventKind, from: u16, to: u16, label: &str) -> TraceEvent {
        TraceEvent {
            time_ms: t,
            kind,
            from,
            to,
            message: None,
            label: label.into(),
            explanation: String::new(),
            tag: None,
        }
    }

    #[test]
    fn retries_fold_after_the_first() {
        let mut events = vec![ev(0, EventKind::Note, 0, 0, "start")];
        for k in 0..5 {
            events.push(ev(100 * k, EventKind::Send, 0, 1, "SET"));
            events.push(ev(100 * k + 1, EventKind::Send, 1, 0, "nil"));
        }
        events.push(ev(900, EventKind::Note, 0, 0, "end"));
        let trace = Trace {
            participants: vec![
                Participant {
                    name: "B".into(),
                    role: Role::Worker,
                },
                Participant {
                    name: "redis".into(),
                    role: Role::Redis,
                },
            ],
            events,
        };
        let f = folds(&trace);
        assert_eq!(f.len(), 1);
        assert_eq!((f[0].first, f[0].last, f[0].repeats), (3, 10, 5));
        assert_eq!(f[0].period_ms, 100);
        assert!(
            f[0].text
                .starts_with("B retried 4 more times, 100 ms apart")
        );
        // Two repeats are not enough.
        let short = Trace {
            events: trace.events[..5].to_vec(),
            ..trace.clone()
        };
        assert!(folds(&short).is_empty());
    }
}
