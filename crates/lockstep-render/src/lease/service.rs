//! The lease chart's rows about nodes rather than workers: for Redlock one row per instance,
//! whose key it holds over time (so an instance that switches from A to B, or a 2/2/1 split of
//! votes, is seen); for a Redis master with a replica or a consensus cluster, who is master or
//! leader over time, each failover or election a new bar; and the database's `last_token` over
//! time, a new bar at each change.

use lockstep_core::Trace;
use lockstep_core::topology::Role;
use lockstep_core::trace::{FreeReason, Tag, TraceEvent};

use super::downtime::Down;
use super::{Interval, LeaseRow, LeaseRowKind, Who};
use crate::layout::MarkKind;

/// The "worker" a node row is filed under: rows of one name form one group on the chart.
pub const SERVICE_GROUP: &str = "lock service";
pub const DB_GROUP: &str = "database";

/// A bar from `from_ms` on, closed by [`close`] or left open to the end.
fn open(from_ms: u64, who: Option<Who>, token: Option<u64>) -> Interval {
    Interval {
        from_ms,
        to_ms: from_ms,
        open: true,
        token,
        who,
    }
}

/// Closes the open bar, if any, at `at_ms`.
fn close(intervals: &mut [Interval], at_ms: u64) {
    if let Some(iv) = intervals.last_mut().filter(|iv| iv.open) {
        iv.to_ms = at_ms;
        iv.open = false;
    }
}

/// Bars still open run to `end_ms`, the last step shown.
fn finish(intervals: &mut [Interval], end_ms: u64) {
    for iv in intervals.iter_mut().filter(|iv| iv.open) {
        iv.to_ms = end_ms.max(iv.from_ms);
    }
}

/// Who a participant is, for a bar: its worker index when it is a worker (the bar takes its
/// colour).
fn who(trace: &Trace, node: usize) -> Who {
    let worker = (trace.participants.get(node).map(|p| p.role) == Some(Role::Worker)).then(|| {
        trace.participants[..node]
            .iter()
            .filter(|p| p.role == Role::Worker)
            .count()
    });
    Who { node, worker }
}

/// The rows about the lock service's nodes, for the steps `events` shows (every row the whole
/// run has, so stepping never adds one), and the marks on them (keys that expired): (row index
/// among the returned rows, time, mark).
pub fn service_rows(
    trace: &Trace,
    events: &[TraceEvent],
    end_ms: u64,
) -> (Vec<LeaseRow>, Vec<(usize, u64, MarkKind)>) {
    let ps = &trace.participants;
    let mut rows = Vec::new();
    let mut marks = Vec::new();
    let worker_named = |name: &str| {
        ps.iter()
            .position(|p| p.name == name && p.role == Role::Worker)
    };
    // Redlock: one row per instance.
    for (node, p) in ps.iter().enumerate() {
        if p.role != Role::RedlockInstance {
            continue;
        }
        let mut intervals: Vec<Interval> = Vec::new();
        // The key it held when it crashed, until its restart says whether it comes back.
        let mut down: Down<(Option<Who>, Option<u64>)> = Down::default();
        // When the open bar is a key persistence brought back at a restart.
        let mut back_at: Option<u64> = None;
        for e in events.iter().filter(|e| usize::from(e.from) == node) {
            match &e.tag {
                Some(Tag::ServiceGrants { holder, token }) => {
                    if intervals.last().is_some_and(|iv| iv.open) {
                        continue;
                    }
                    let holder = worker_named(holder).map(|w| who(trace, w));
                    intervals.push(open(e.time_ms, holder, *token));
                    back_at = None;
                }
                Some(Tag::ServiceFrees { reason, .. })
                    if intervals.last().is_some_and(|iv| iv.open) =>
                {
                    if back_at == Some(e.time_ms) {
                        // Back from disk and gone at once (expired while down, or written
                        // after the last fsync): it never answered anyone again.
                        intervals.pop();
                    } else {
                        close(&mut intervals, e.time_ms);
                    }
                    if *reason == FreeReason::Expired {
                        marks.push((rows.len(), e.time_ms, MarkKind::Expired));
                    }
                }
                // A crashed instance answers no one: its record ends here.
                Some(Tag::Crashed) => {
                    let held = intervals
                        .last()
                        .filter(|iv| iv.open)
                        .map(|iv| (iv.who, iv.token));
                    close(&mut intervals, e.time_ms);
                    down.crash(node, held.into_iter().collect());
                }
                Some(Tag::Restarted { persistent }) => {
                    for (holder, token) in down.restart(node, *persistent) {
                        intervals.push(open(e.time_ms, holder, token));
                        back_at = Some(e.time_ms);
                    }
                }
                _ => {}
            }
        }
        finish(&mut intervals, end_ms);
        rows.push(LeaseRow {
            kind: LeaseRowKind::Instance,
            worker: SERVICE_GROUP.to_string(),
            worker_index: 0,
            label: format!("{} holds the key for", p.name),
            intervals,
        });
    }
    // A master with a replica that can take over, or a consensus cluster: who leads.
    let replica = ps.iter().any(|p| p.role == Role::RedisReplica);
    let consensus = ps.iter().any(|p| p.role == Role::ConsensusNode);
    if replica || consensus {
        let mut intervals: Vec<Interval> = Vec::new();
        // The master from the start; a consensus cluster starts with its first node leading
        // term 1 (the core's initial state).
        if replica && let Some(master) = ps.iter().position(|p| p.role == Role::Redis) {
            intervals.push(open(0, Some(who(trace, master)), None));
        } else if let Some(first) = ps.iter().position(|p| p.role == Role::ConsensusNode) {
            intervals.push(open(0, Some(who(trace, first)), Some(1)));
        }
        for e in events {
            let node = usize::from(e.from);
            let leads = intervals
                .last()
                .is_some_and(|iv| iv.open && iv.who.map(|w| w.node) == Some(node));
            match &e.tag {
                Some(Tag::FailedOver) => {
                    close(&mut intervals, e.time_ms);
                    intervals.push(open(e.time_ms, Some(who(trace, node)), None));
                }
                Some(Tag::Leader { term }) => {
                    close(&mut intervals, e.time_ms);
                    intervals.push(open(e.time_ms, Some(who(trace, node)), Some(*term)));
                }
                Some(Tag::Crashed) if leads => close(&mut intervals, e.time_ms),
                None if leads && e.label.contains("steps down") => close(&mut intervals, e.time_ms),
                _ => {}
            }
        }
        finish(&mut intervals, end_ms);
        rows.push(LeaseRow {
            kind: LeaseRowKind::Leader,
            worker: SERVICE_GROUP.to_string(),
            worker_index: 0,
            label: if consensus {
                "leader (term)".to_string()
            } else {
                "master".to_string()
            },
            intervals,
        });
    }
    (rows, marks)
}

/// The database's `last_token` after each access that changes it, as bars from the change to
/// the next (the token written inside): why a lower token is refused and an equal one passes.
/// None when the whole run never gives the database a token.
pub fn last_token_row(trace: &Trace, events: &[TraceEvent], end_ms: u64) -> Option<LeaseRow> {
    let changes = |events: &[TraceEvent]| -> Vec<(u64, u64)> {
        let mut last: Option<u64> = None;
        let mut out = Vec::new();
        for e in events {
            let now = match e.tag {
                Some(Tag::WriteAccepted { token: Some(t), .. }) => Some(t.max(last.unwrap_or(0))),
                Some(Tag::ReadRaisedToken { last_token }) => Some(last_token),
                Some(Tag::AccessRejected {
                    last_token: Some(t),
                    ..
                }) => Some(t),
                _ => None,
            };
            if let Some(t) = now.filter(|&t| Some(t) != last) {
                last = Some(t);
                out.push((e.time_ms, t));
            }
        }
        out
    };
    if changes(&trace.events).is_empty() {
        return None;
    }
    let db = trace
        .participants
        .iter()
        .position(|p| p.role == Role::Database)?;
    let mut intervals: Vec<Interval> = Vec::new();
    for (at, token) in changes(events) {
        close(&mut intervals, at);
        intervals.push(open(
            at,
            Some(Who {
                node: db,
                worker: None,
            }),
            Some(token),
        ));
    }
    finish(&mut intervals, end_ms);
    Some(LeaseRow {
        kind: LeaseRowKind::LastToken,
        worker: DB_GROUP.to_string(),
        worker_index: 0,
        label: "db last_token".to_string(),
        intervals,
    })
}
