//! The lease chart as data: time across, one row per "the service says X holds the lock", "X
//! believes it holds the lock" and "X is paused", and the danger zones where two workers' beliefs
//! overlap. [`svg`] draws it.

use lockstep_core::sort;
mod access;
mod activity;
pub mod downtime;
mod draw;
mod flights;
pub mod nodes;
pub mod page;
pub mod refresh;
pub mod service;
mod so_far;
pub mod stale;
pub mod story;
pub mod svg;

use std::collections::{BTreeMap, BTreeSet};

use lockstep_core::Trace;
use lockstep_core::topology::Role;
use lockstep_core::trace::{EventKind, FreeReason, Tag};

use crate::layout::{MarkKind, Options};
pub use access::Access;
use access::access_text;
pub use activity::activity_label;
use downtime::{Down, records_go_down_with};
pub use flights::{Flight, LONG_FLIGHT_MS};
pub use so_far::SoFar;
pub use stale::Stale;
pub use story::{Incident, IncidentKind, WorkerNote};

/// A stretch of simulated time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Interval {
    pub from_ms: u64,
    pub to_ms: u64,
    /// Still going at the last step shown.
    pub open: bool,
    /// The fencing token or revision of the grant (or belief) the interval stands for; on a
    /// leader row the term, on the database's row its `last_token`.
    pub token: Option<u64>,
    /// On a row about a node: whom the bar stands for (the holder of an instance's key, the
    /// master or leader).
    pub who: Option<Who>,
}

/// Whom a bar on a node's row stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Who {
    /// Participant index ([`LeaseChart::names`] names it).
    pub node: usize,
    /// Its index among workers, when it is a worker: the bar takes the worker's colour.
    pub worker: Option<usize>,
}

/// What a row shows.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum LeaseRowKind {
    /// The lock service records this worker as the holder (for Redlock: a majority of instances do).
    ServiceHolds,
    /// The worker believes it holds the lock.
    Believes,
    /// The worker is paused.
    Paused,
    /// What the worker did while it did not believe it held the lock.
    Activity,
    /// One Redlock instance: whose key it holds over time.
    Instance,
    /// Who the service's master (Redis with a replica) or leader (consensus) is over time.
    Leader,
    /// The database's `last_token` over time.
    LastToken,
}

/// One row of the chart.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct LeaseRow {
    pub kind: LeaseRowKind,
    /// The worker the row is about.
    pub worker: String,
    /// The worker's index among workers (for its colour).
    pub worker_index: usize,
    pub label: String,
    pub intervals: Vec<Interval>,
}

/// Two workers both believe they hold the lock.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Danger {
    pub from_ms: u64,
    pub to_ms: u64,
    /// Both beliefs still go on at the last step shown: the overlap has not ended.
    pub open: bool,
    pub first: String,
    pub second: String,
}

/// Where the database paid payouts a second time: the harm, at its own instant.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Harm {
    pub at_ms: u64,
    pub payouts: u32,
    pub cents: u64,
}

/// A symbol on a row at an instant.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct LeaseMark {
    pub row: usize,
    pub at_ms: u64,
    pub kind: MarkKind,
}

/// The whole chart.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct LeaseChart {
    pub start_ms: u64,
    pub end_ms: u64,
    pub rows: Vec<LeaseRow>,
    pub danger: Vec<Danger>,
    pub marks: Vec<LeaseMark>,
    /// Time of the current step, when `upto_step` named one.
    pub current_ms: Option<u64>,
    /// Steps shown and in the whole trace.
    pub steps_shown: usize,
    pub total_steps: usize,
    /// How many lock-service nodes must record a holder for the service to "say" it holds.
    pub quorum: usize,
    /// The end of the whole run: the time axis ends here at every step, so stepping never
    /// rescales it.
    pub axis_end_ms: u64,
    pub incidents: Vec<Incident>,
    /// What workers noted on their own lanes ("no answer from the lock service").
    pub notes: Vec<WorkerNote>,
    pub flights: Vec<Flight>,
    /// The database's answers to workers' accesses, with their tokens.
    pub accesses: Vec<Access>,
    /// What the database did up to the last step shown: writes accepted, writes refused,
    /// payouts paid twice and the money.
    pub so_far: SoFar,
    /// Each write that paid payouts a second time.
    pub harm: Vec<Harm>,
    /// Every participant's name, by index (for [`Who`]).
    pub names: Vec<String>,
    /// Where a worker believes it holds the lock after the service stopped saying so.
    pub stale: Vec<Stale>,
    /// Leases a new leader refreshed as it took over.
    pub refreshes: Vec<refresh::Refresh>,
}

/// Intervals in which `count(t) >= need`, given +1/-1 changes at instants (in order).
fn intervals_at_least(changes: &[(u64, i64)], need: i64, end: u64) -> Vec<Interval> {
    let mut out = Vec::new();
    let mut count = 0;
    let mut since = None;
    for &(t, d) in changes {
        count += d;
        match since {
            None if count >= need => since = Some(t),
            Some(s) if count < need => {
                since = None;
                if t > s {
                    out.push(Interval {
                        from_ms: s,
                        to_ms: t,
                        open: false,
                        token: None,
                        who: None,
                    });
                }
            }
            _ => {}
        }
    }
    if let Some(s) = since {
        out.push(Interval {
            from_ms: s,
            to_ms: end.max(s),
            open: true,
            token: None,
            who: None,
        });
    }
    out
}

/// Records a change of `delta` for `key` at `t` (nothing for 0).
fn record<K: Ord>(log: &mut BTreeMap<K, Vec<(u64, i64)>>, key: K, t: u64, delta: i64) {
    if delta != 0 {
        log.entry(key).or_default().push((t, delta));
    }
}

/// Turns `node` on or off in `set`, recording the change if there was one.
fn switch(
    set: &mut BTreeSet<usize>,
    log: &mut BTreeMap<usize, Vec<(u64, i64)>>,
    node: usize,
    t: u64,
    on: bool,
) {
    let changed = if on {
        set.insert(node)
    } else {
        set.remove(&node)
    };
    record(
        log,
        node,
        t,
        match (changed, on) {
            (false, _) => 0,
            (true, true) => 1,
            (true, false) => -1,
        },
    );
}

/// A holder as one service node records it (the node only where each node gets its own row).
type HolderOn = (String, Option<usize>);

/// A service node's name and, in a run with a failover, its part: "redis (old master)",
/// "redis-replica (promoted)".
fn node_title(trace: &Trace, node: usize) -> String {
    let name = trace
        .participants
        .get(node)
        .map_or("?", |p| p.name.as_str());
    let failed_over = |n: usize| {
        trace
            .events
            .iter()
            .any(|e| usize::from(e.from) == n && e.tag == Some(Tag::FailedOver))
    };
    let promoted = trace
        .participants
        .iter()
        .enumerate()
        .any(|(i, p)| p.role == Role::RedisReplica && failed_over(i));
    match trace.participants.get(node).map(|p| p.role) {
        Some(Role::Redis) if promoted => format!("{name} (old master)"),
        Some(Role::RedisReplica) if failed_over(node) => format!("{name} (promoted)"),
        _ => name.to_string(),
    }
}

/// Builds the chart of the steps `options.upto_step` shows (all by default).
pub fn lease_chart(trace: &Trace, options: &Options) -> LeaseChart {
    let total = trace.events.len();
    let shown = options.upto_step.map_or(total, |s| s.min(total));
    let events = &trace.events[..shown];
    // The axis starts at the run's start, time 0, whenever the first event happens.
    let start_ms = 0;
    let end_ms = events.last().map_or(start_ms, |e| e.time_ms);
    let ps = &trace.participants;
    let workers: Vec<usize> = (0..ps.len())
        .filter(|&i| ps[i].role == Role::Worker)
        .collect();
    let service: Vec<usize> = (0..ps.len())
        .filter(|&i| ps[i].role.is_lock_service())
        .collect();
    let quorum = if service.iter().any(|&i| ps[i].role == Role::RedlockInstance) {
        service.len() / 2 + 1
    } else {
        1
    };
    let name = |i: usize| ps.get(i).map_or("?", |p| p.name.as_str());

    // A Redis master with a replica that can take over: two nodes may each say someone holds
    // the lock, so each node gets its own row, named ("redis (old master) says A holds it").
    let per_node = service.iter().any(|&i| ps[i].role == Role::RedisReplica);
    let node_key = |node: usize| per_node.then_some(node);
    // Per holder (and node, for a master with a replica): +1/-1 as service nodes record or
    // drop it.
    let mut held: BTreeSet<(usize, String)> = BTreeSet::new();
    let mut down: Down<String> = Down::default();
    let forgets = |node: usize| ps.get(node).is_some_and(|p| records_go_down_with(p.role));
    let mut changes: BTreeMap<HolderOn, Vec<(u64, i64)>> = BTreeMap::new();
    let mut belief: BTreeMap<usize, Vec<(u64, i64)>> = BTreeMap::new();
    let mut pause: BTreeMap<usize, Vec<(u64, i64)>> = BTreeMap::new();
    let mut believing: BTreeSet<usize> = BTreeSet::new();
    let mut paused: BTreeSet<usize> = BTreeSet::new();
    // (holder or worker, at, kind) for marks.
    let mut service_marks: Vec<((String, Option<usize>), u64, MarkKind)> = Vec::new();
    let mut worker_marks: Vec<(usize, u64, MarkKind)> = Vec::new();
    let mut last_writer: Option<usize> = None;
    // The database node and time of the last duplicate: its accepting reply follows.
    let mut duplicate_at: Option<(usize, u64)> = None;
    // Per worker: the label of its last write the database received (the keys it carried).
    let mut last_write: BTreeMap<usize, &str> = BTreeMap::new();
    // (worker, at, text) of the database's answers.
    let mut answers: Vec<(usize, u64, String)> = Vec::new();
    let (incidents, mut notes) = story::story(trace, events);
    let so_far = SoFar::upto(&trace.events, shown);
    for e in events {
        let node = usize::from(e.from);
        let t = e.time_ms;
        if e.kind == EventKind::Deliver
            && ps.get(usize::from(e.to)).map(|p| p.role) == Some(Role::Database)
        {
            last_writer = Some(node);
            if e.label.starts_with("write") {
                last_write.insert(node, e.label.as_str());
            }
        }
        if let Some(text) = e.tag.as_ref().and_then(|t| {
            let request = last_write.get(&usize::from(e.to)).copied();
            access_text(t, &e.label, request, options.permissive_db)
        }) {
            answers.push((usize::from(e.to), t, text));
        }
        match &e.tag {
            Some(Tag::ServiceGrants { holder, .. }) => {
                let fresh = held.insert((node, holder.clone()));
                let key = (holder.clone(), node_key(node));
                record(&mut changes, key, t, if fresh { 1 } else { 0 });
            }
            Some(Tag::ServiceFrees { holder, reason }) => {
                // A Redis instance frees only its own key; a consensus cluster's new leader
                // frees what an earlier leader granted.
                let key = if held.contains(&(node, holder.clone())) {
                    Some((node, holder.clone()))
                } else if !forgets(node) {
                    held.iter().find(|(_, h)| h == holder).cloned()
                } else {
                    None
                };
                let freed_on = key.as_ref().map_or(node, |k| k.0);
                if let Some(key) = key {
                    held.remove(&key);
                    changes
                        .entry((holder.clone(), node_key(key.0)))
                        .or_default()
                        .push((t, -1));
                }
                if *reason == FreeReason::Expired {
                    service_marks.push((
                        (holder.clone(), node_key(freed_on)),
                        t,
                        MarkKind::Expired,
                    ));
                }
            }
            // A crashed Redis says no one holds anything until a restart brings its keys back.
            Some(Tag::Crashed) if forgets(node) => {
                let lost: Vec<String> = held
                    .iter()
                    .filter(|(n, _)| *n == node)
                    .map(|(_, h)| h.clone())
                    .collect();
                for holder in &lost {
                    held.remove(&(node, holder.clone()));
                    record(&mut changes, (holder.clone(), node_key(node)), t, -1);
                }
                down.crash(node, lost);
            }
            Some(Tag::Restarted { persistent }) => {
                for holder in down.restart(node, *persistent) {
                    held.insert((node, holder.clone()));
                    record(&mut changes, (holder, node_key(node)), t, 1);
                }
            }
            Some(Tag::Renewed) => {
                worker_marks.push((usize::from(e.to), t, MarkKind::Renewed));
            }
            Some(Tag::Believes { .. }) => switch(&mut believing, &mut belief, node, t, true),
            Some(Tag::StopsBelieving) => switch(&mut believing, &mut belief, node, t, false),
            Some(Tag::Paused { .. }) => switch(&mut paused, &mut pause, node, t, true),
            Some(Tag::Resumed) => switch(&mut paused, &mut pause, node, t, false),
            // A repeat that applied nothing gets no check mark (its label says what happened),
            // nor does the write that paid twice (its mark is the duplicate's).
            Some(Tag::WriteAccepted { applied, noops, .. })
                if (*applied > 0 || *noops == 0) && duplicate_at != Some((node, t)) =>
            {
                worker_marks.push((usize::from(e.to), t, MarkKind::WriteAccepted));
            }
            Some(Tag::AccessRejected { .. }) => {
                worker_marks.push((usize::from(e.to), t, MarkKind::AccessRejected));
            }
            Some(Tag::Duplicate { .. }) => {
                duplicate_at = Some((node, t));
                if let Some(w) = last_writer {
                    worker_marks.push((w, t, MarkKind::Duplicate));
                }
            }
            _ => {}
        }
    }

    // A step render has every row the whole run has (empty until it happens), so stepping
    // through a run never moves rows or resizes the chart.
    let whole_run = options.upto_step.is_some().then(|| {
        lease_chart(
            trace,
            &Options {
                upto_step: None,
                ..*options
            },
        )
    });
    let whole_run_has = |wname: &str, kind: LeaseRowKind| {
        whole_run
            .as_ref()
            .is_some_and(|c| c.rows.iter().any(|r| r.worker == wname && r.kind == kind))
    };
    // The lock service's own rows first: instances, master or leader.
    let (mut rows, node_marks) = service::service_rows(trace, events, end_ms);
    let mut row_of: BTreeMap<(usize, u8), usize> = BTreeMap::new();
    let mut service_row_of: BTreeMap<(String, Option<usize>), usize> = BTreeMap::new();
    for (k, &w) in workers.iter().enumerate() {
        let wname = name(w).to_string();
        // The nodes that ever record the worker (in the whole run, so that stepping never
        // adds rows); one row with no node for a service without a replica.
        let mut nodes: Vec<Option<usize>> = if per_node {
            service
                .iter()
                .copied()
                .filter(|&n| {
                    trace.events.iter().any(|e| {
                        usize::from(e.from) == n
                            && matches!(&e.tag, Some(Tag::ServiceGrants { holder, .. }) if *holder == wname)
                    })
                })
                .map(Some)
                .collect()
        } else {
            vec![None]
        };
        if nodes.is_empty() {
            nodes.push(None);
        }
        if !service.is_empty() || whole_run_has(&wname, LeaseRowKind::ServiceHolds) {
            row_of.insert((w, 0), rows.len());
            for node in nodes {
                service_row_of.insert((wname.clone(), node), rows.len());
                let says = match node {
                    Some(n) => format!("{} says", node_title(trace, n)),
                    None if quorum > 1 => "a majority say".to_string(),
                    None if per_node => "no node says".to_string(),
                    None => "service says".to_string(),
                };
                rows.push(LeaseRow {
                    kind: LeaseRowKind::ServiceHolds,
                    worker: wname.clone(),
                    worker_index: k,
                    label: format!("{says} {wname} holds it"),
                    intervals: intervals_at_least(
                        changes
                            .get(&(wname.clone(), node))
                            .map_or(&[][..], Vec::as_slice),
                        quorum as i64,
                        end_ms,
                    ),
                });
            }
        }
        row_of.insert((w, 1), rows.len());
        rows.push(LeaseRow {
            kind: LeaseRowKind::Believes,
            worker: wname.clone(),
            worker_index: k,
            // Without a lock service there is nothing to believe: the row is the worker's.
            label: if service.is_empty() {
                format!("{wname} (no lock)")
            } else {
                format!("{wname} believes it holds it")
            },
            intervals: intervals_at_least(belief.get(&w).map_or(&[][..], Vec::as_slice), 1, end_ms),
        });
        if pause.contains_key(&w) || whole_run_has(&wname, LeaseRowKind::Paused) {
            row_of.insert((w, 2), rows.len());
            rows.push(LeaseRow {
                kind: LeaseRowKind::Paused,
                worker: wname.clone(),
                worker_index: k,
                label: format!("{wname} paused"),
                intervals: intervals_at_least(
                    pause.get(&w).map_or(&[][..], Vec::as_slice),
                    1,
                    end_ms,
                ),
            });
        }
    }

    rows.extend(service::last_token_row(trace, events, end_ms));
    let mut marks: Vec<LeaseMark> = node_marks
        .into_iter()
        .map(|(row, at_ms, kind)| LeaseMark { row, at_ms, kind })
        .collect();
    for (key, at_ms, kind) in service_marks {
        if let Some(&row) = service_row_of.get(&key) {
            marks.push(LeaseMark { row, at_ms, kind });
        }
    }
    for (w, at_ms, kind) in worker_marks {
        // A renewal sits on a "service says X holds it" row only while that row's bar is there:
        // an etcd session keeps its lease alive while its worker still waits for the lock, and
        // that keepalive belongs on the worker's own row.
        let holding = (kind == MarkKind::Renewed)
            .then(|| {
                rows.iter().position(|r| {
                    r.kind == LeaseRowKind::ServiceHolds
                        && r.worker == name(w)
                        && r.intervals
                            .iter()
                            .any(|iv| iv.from_ms <= at_ms && at_ms <= iv.to_ms)
                })
            })
            .flatten();
        if let Some(row) = holding.or_else(|| row_of.get(&(w, 1)).copied()) {
            marks.push(LeaseMark { row, at_ms, kind });
        }
    }
    sort::sort_by_key(&mut marks, |m| (m.row, m.at_ms, m.kind as u8));
    let accesses: Vec<Access> = answers
        .into_iter()
        .filter_map(|(w, at_ms, text)| {
            let row = *row_of.get(&(w, 1))?;
            Some(Access { row, at_ms, text })
        })
        .collect();
    notes.retain_mut(|n| {
        row_of.get(&(n.worker, 1)).is_some_and(|&row| {
            n.row = row;
            true
        })
    });

    // Danger zones: pairwise overlaps of beliefs.
    let mut danger = Vec::new();
    let beliefs: Vec<&LeaseRow> = rows
        .iter()
        .filter(|r| r.kind == LeaseRowKind::Believes)
        .collect();
    for (i, a) in beliefs.iter().enumerate() {
        for b in &beliefs[i + 1..] {
            for x in &a.intervals {
                for y in &b.intervals {
                    let (from_ms, to_ms) = (x.from_ms.max(y.from_ms), x.to_ms.min(y.to_ms));
                    // Both still open at the last step shown: begun, even at that instant.
                    if from_ms < to_ms || (x.open && y.open && from_ms <= to_ms) {
                        let (first, second) = if x.from_ms <= y.from_ms {
                            (a.worker.clone(), b.worker.clone())
                        } else {
                            (b.worker.clone(), a.worker.clone())
                        };
                        danger.push(Danger {
                            from_ms,
                            to_ms,
                            open: x.open && y.open,
                            first,
                            second,
                        });
                    }
                }
            }
        }
    }
    sort::sort_by_key(&mut danger, |d| (d.from_ms, d.to_ms));

    // Tokens: each interval carries the token of the grant or belief that began it.
    // Rows about nodes carry their own numbers.
    for row in rows.iter_mut().filter(|r| {
        matches!(
            r.kind,
            LeaseRowKind::ServiceHolds | LeaseRowKind::Believes | LeaseRowKind::Paused
        )
    }) {
        for iv in &mut row.intervals {
            iv.token = events
                .iter()
                .rev()
                .filter(|e| e.time_ms <= iv.from_ms)
                .filter_map(|e| match (&row.kind, &e.tag) {
                    (LeaseRowKind::ServiceHolds, Some(Tag::ServiceGrants { holder, token }))
                        if *holder == row.worker =>
                    {
                        Some(*token)
                    }
                    (LeaseRowKind::Believes, Some(Tag::Believes { token }))
                        if name(usize::from(e.from)) == row.worker =>
                    {
                        Some(*token)
                    }
                    _ => None,
                })
                .next()
                .flatten();
        }
    }

    let flights = flights::long_flights(events, &workers, &row_of, end_ms);

    let harm = events
        .iter()
        .filter_map(|e| match e.tag {
            Some(Tag::Duplicate { payouts, cents }) => Some(Harm {
                at_ms: e.time_ms,
                payouts,
                cents,
            }),
            _ => None,
        })
        .collect();
    let mut chart = LeaseChart {
        harm,
        names: ps.iter().map(|p| p.name.clone()).collect(),
        stale: Vec::new(),
        refreshes: Vec::new(),
        axis_end_ms: trace
            .events
            .last()
            .map_or(start_ms, |e| e.time_ms)
            .max(end_ms),
        incidents,
        notes,
        flights,
        accesses,
        so_far,
        start_ms,
        end_ms,
        rows,
        danger,
        marks,
        current_ms: options
            .upto_step
            .and_then(|_| events.last().map(|e| e.time_ms)),
        steps_shown: shown,
        total_steps: total,
        quorum,
    };
    activity::split(&mut chart, whole_run.as_ref());
    chart.stale = stale::stale(&chart);
    chart.refreshes = refresh::refreshes(&chart, events);
    chart
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counting_intervals() {
        let c = [(0, 1), (5, 1), (7, -1), (9, -1)];
        assert_eq!(
            intervals_at_least(&c, 2, 20),
            [Interval {
                from_ms: 5,
                to_ms: 7,
                open: false,
                token: None,
                who: None,
            }]
        );
        assert_eq!(
            intervals_at_least(&c[..2], 1, 20),
            [Interval {
                from_ms: 0,
                to_ms: 20,
                open: true,
                token: None,
                who: None,
            }]
        );
    }
}
