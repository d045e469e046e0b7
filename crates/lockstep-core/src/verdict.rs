//! The verdict: computed from the database's own records (and, for overlapping beliefs, from the
//! workers' events), never from the lock service's state.

use crate::sort;
use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::actors::db::Database;
use crate::scenario::Outcome;
use crate::sim::End;
use crate::trace::{Tag, Trace};

/// A stretch of time in which two workers both believed they held the lock.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Overlap {
    pub first: String,
    pub second: String,
    pub from_ms: u64,
    pub to_ms: u64,
    /// One of the two had been told by its own client, before the overlap ended, that it could
    /// not be sure of its session (or that the session was lost), and carried on: it acted as a
    /// holder without knowing it was one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub acted_after_warning: Option<SessionWarning>,
    /// Both still believed at the trace's last event: for a run stepped part way, the overlap
    /// goes on past this step (and counts from the step both began to believe, even when that
    /// is this very step, so the verdict so far says what the picture's band shows).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub ongoing: bool,
}

/// When a worker's own client warned it about its session (Curator's SUSPENDED or LOST).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SessionWarning {
    pub worker: String,
    pub at_ms: u64,
    pub state: SessionState,
}

/// What the client said about its session.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SessionState {
    /// No word from the cluster for 2/3 of the session timeout: it may or may not be alive.
    Suspended,
    /// 4/3 of the session timeout without a word: its client has expired it.
    Lost,
}

impl Overlap {
    /// The verdict's line for this overlap, the same in every front end. "Believed" is only
    /// true of a worker whose own client had not told it otherwise.
    pub fn sentence(&self) -> String {
        let (first, second, from, to) = (&self.first, &self.second, self.from_ms, self.to_ms);
        match &self.acted_after_warning {
            None if self.ongoing => {
                format!("{first} and {second} both believe they hold the lock since {from} ms")
            }
            None => format!(
                "{first} and {second} both believed they held the lock from {from} to {to} ms"
            ),
            Some(w) => format!(
                "{first} and {second} both acted as lock holders from {from} to {to} ms ({} carried on after its own client reported its session {} at {} ms)",
                w.worker,
                match w.state {
                    SessionState::Suspended => "suspended",
                    SessionState::Lost => "lost",
                },
                w.at_ms
            ),
        }
    }
}

/// What a run did to the payouts.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Verdict {
    pub outcome: Outcome,
    /// Payouts in the batch.
    pub payouts: u32,
    /// Payouts applied at least once.
    pub payouts_applied: u32,
    /// Payouts applied more than once.
    pub payouts_duplicated: u32,
    /// Money paid more than once, in cents.
    pub money_paid_twice_cents: u64,
    /// Writes that applied at least one payout.
    pub writes_accepted: u32,
    /// Writes the database took but applied nothing of: every payout was a repeat its
    /// idempotency key made a no-op.
    #[serde(default)]
    pub writes_skipped: u32,
    /// Writes the database refused because of their fencing token.
    pub writes_rejected: u32,
    /// Conditional writes (`UPDATE … WHERE status = 'unpaid'`) that found the batch already
    /// paid and changed nothing.
    #[serde(default)]
    pub writes_unmatched: u32,
    /// Writes refused because they reused idempotency keys with other parameters.
    #[serde(default)]
    pub writes_key_reused: u32,
    pub reads_rejected: u32,
    /// Repeated payouts that idempotency keys turned into no-ops.
    pub idempotent_noops: u32,
    /// Whether the batch ended up paid.
    pub processed: bool,
    pub overlaps: Vec<Overlap>,
}

impl Verdict {
    /// The verdict's lines for writes the database turned away for a reason other than a fencing
    /// token, the same in every front end (none when there were none).
    pub fn other_refusals(&self) -> Vec<String> {
        let writes = |n: u32| if n == 1 { "write" } else { "writes" };
        let mut lines = Vec::new();
        if self.writes_unmatched > 0 {
            lines.push(format!(
                "conditional {} that found the batch already paid (WHERE status = 'unpaid' matched no row): {}",
                writes(self.writes_unmatched),
                self.writes_unmatched
            ));
        }
        if self.writes_key_reused > 0 {
            lines.push(format!(
                "{} refused for reusing idempotency keys with another amount: {}",
                writes(self.writes_key_reused),
                self.writes_key_reused
            ));
        }
        lines
    }

    /// Judges a run from the database's records and the trace's belief events, as if it had
    /// ended on its own (see [`Verdict::judge_end`] for a run cut off by a limit).
    pub fn judge(db: &Database, trace: &Trace) -> Verdict {
        Verdict::judge_end(db, trace, None)
    }

    /// Judges a run that stopped for `end`. A run cut off by a limit is `inconclusive` unless it
    /// has already paid something twice (a double write stays a double write).
    pub fn judge_end(db: &Database, trace: &Trace, end: Option<End>) -> Verdict {
        let payouts = db.applied.len() as u32;
        let payouts_applied = db.applied.iter().filter(|&&n| n > 0).count() as u32;
        let extra: u64 = db
            .applied
            .iter()
            .map(|&n| u64::from(n.saturating_sub(1)))
            .sum();
        let payouts_duplicated = db.applied.iter().filter(|&&n| n > 1).count() as u32;
        let processed = db.paid && payouts_applied == payouts;
        let cut_off = matches!(end, Some(End::TimeLimit | End::EventLimit));
        let outcome = if payouts_duplicated > 0 {
            Outcome::DoubleWrite
        } else if cut_off {
            Outcome::Inconclusive
        } else if !processed {
            Outcome::NotProcessed
        } else {
            Outcome::Safe
        };
        Verdict {
            outcome,
            payouts,
            payouts_applied,
            payouts_duplicated,
            money_paid_twice_cents: extra * db.amount_cents,
            writes_accepted: db.writes_accepted,
            writes_skipped: db.writes_skipped,
            writes_rejected: db.writes_rejected,
            writes_unmatched: db.writes_unmatched,
            writes_key_reused: db.writes_key_reused,
            reads_rejected: db.reads_rejected,
            idempotent_noops: db.noops,
            processed,
            overlaps: overlaps(trace),
        }
    }
}

/// Belief intervals per worker, then every pairwise intersection of positive length.
fn overlaps(trace: &Trace) -> Vec<Overlap> {
    let end = trace.events.last().map_or(0, |e| e.time_ms);
    let mut open: BTreeMap<u16, u64> = BTreeMap::new();
    // (worker, from, to, still believing at the trace's end)
    let mut spans: Vec<(u16, u64, u64, bool)> = Vec::new();
    // The first warning each worker's client gave it.
    let mut warned: BTreeMap<u16, (u64, SessionState)> = BTreeMap::new();
    for e in &trace.events {
        match e.tag {
            Some(Tag::SessionSuspended) => {
                warned
                    .entry(e.from)
                    .or_insert((e.time_ms, SessionState::Suspended));
            }
            Some(Tag::SessionLost) => {
                warned
                    .entry(e.from)
                    .or_insert((e.time_ms, SessionState::Lost));
            }
            Some(Tag::Believes { .. }) => {
                open.insert(e.from, e.time_ms);
            }
            Some(Tag::StopsBelieving) => {
                if let Some(start) = open.remove(&e.from) {
                    spans.push((e.from, start, e.time_ms, false));
                }
            }
            _ => {}
        }
    }
    spans.extend(open.into_iter().map(|(w, start)| (w, start, end, true)));
    sort::sort_by_key(&mut spans, |&(w, start, _, _)| (start, w));
    let mut out = Vec::new();
    for (i, a) in spans.iter().enumerate() {
        for b in &spans[i + 1..] {
            if a.0 == b.0 {
                continue;
            }
            let (from, to) = (a.1.max(b.1), a.2.min(b.2));
            let ongoing = a.3 && b.3;
            if from < to || ongoing {
                let acted_after_warning = [a.0, b.0]
                    .into_iter()
                    .filter_map(|w| warned.get(&w).map(|&(at, state)| (at, w, state)))
                    .filter(|&(at, _, _)| at < to)
                    .min_by_key(|&(at, w, _)| (at, w))
                    .map(|(at_ms, w, state)| SessionWarning {
                        worker: trace.name(w).to_string(),
                        at_ms,
                        state,
                    });
                out.push(Overlap {
                    first: trace.name(a.0).to_string(),
                    second: trace.name(b.0).to_string(),
                    from_ms: from,
                    to_ms: to,
                    acted_after_warning,
                    ongoing,
                });
            }
        }
    }
    out
}
