//! A worker's neutral activity row: what a worker did while it did not believe it held the lock
//! (a lost lock request, a keepalive before it holds, an answer after it gave up) moves off its
//! "X believes it holds it" row, so that row shows only what happened while X believed.

use super::{LeaseChart, LeaseRow, LeaseRowKind};
use lockstep_core::sort;

/// How long after a belief ends a worker's events still belong to it: the release's answer
/// and "A done" arrive a few milliseconds after the worker lets go.
pub const WRAP_UP_MS: u64 = 5;

/// Whether a worker whose belief row is `row` believed it held the lock at `t` (or was
/// wrapping up, [`WRAP_UP_MS`] after a belief).
fn believes_at(row: &LeaseRow, t: u64) -> bool {
    row.intervals
        .iter()
        .any(|iv| iv.from_ms <= t && t <= iv.to_ms + WRAP_UP_MS)
}

/// The label of a worker's activity row.
pub fn activity_label(worker: &str) -> String {
    format!("{worker}'s other activity")
}

/// Moves every mark, note, database answer and long flight of a worker that falls outside its
/// beliefs to an activity row under its belief row. A worker gets the row when anything of its
/// moves, or when `whole` (the whole run's chart, for a step render) has one for it, so that
/// stepping never adds a row.
pub fn split(chart: &mut LeaseChart, whole: Option<&LeaseChart>) {
    // Without a lock service a worker's one row is its own ("A (no lock)"), neutral already.
    if !chart
        .rows
        .iter()
        .any(|r| r.kind == LeaseRowKind::ServiceHolds)
    {
        return;
    }
    let belief_rows: Vec<usize> = (0..chart.rows.len())
        .filter(|&i| chart.rows[i].kind == LeaseRowKind::Believes)
        .collect();
    // Whether something on a belief row happened outside the worker's beliefs, judged by the
    // whole run's beliefs: a step render may end between a note and the belief of the same
    // millisecond, and must not move the note the whole run keeps.
    let outside = |chart: &LeaseChart, row: usize, t: u64| {
        let r = &chart.rows[row];
        let beliefs = whole
            .and_then(|w| {
                w.rows
                    .iter()
                    .find(|x| x.kind == LeaseRowKind::Believes && x.worker == r.worker)
            })
            .unwrap_or(r);
        r.kind == LeaseRowKind::Believes && !believes_at(beliefs, t)
    };
    let mut wants: Vec<usize> = belief_rows
        .iter()
        .copied()
        .filter(|&r| {
            chart
                .marks
                .iter()
                .any(|m| m.row == r && outside(chart, r, m.at_ms))
                || chart.notes.iter().any(|n| {
                    n.row == r
                        && !n.about_worker
                        && n.times.first().is_some_and(|&t| outside(chart, r, t))
                })
                || chart
                    .accesses
                    .iter()
                    .any(|a| a.row == r && outside(chart, r, a.at_ms))
                || chart
                    .flights
                    .iter()
                    .any(|f| f.row == r && outside(chart, r, f.from_ms))
                || whole.is_some_and(|w| {
                    w.rows.iter().any(|x| {
                        x.kind == LeaseRowKind::Activity && x.worker == chart.rows[r].worker
                    })
                })
        })
        .collect();
    wants.sort_unstable();
    if wants.is_empty() {
        return;
    }
    // Old row index -> new, with an activity row after each belief row in `wants`.
    let mut new_index = Vec::with_capacity(chart.rows.len());
    let mut shift = 0;
    for i in 0..chart.rows.len() {
        new_index.push(i + shift);
        if wants.contains(&i) {
            shift += 1;
        }
    }
    // An item's new row: the activity row after its belief row when it falls outside the belief
    // (and `may_move`), else its row's new index.
    let place = |row: usize, t: u64, may_move: bool| {
        if may_move && wants.contains(&row) && outside(chart, row, t) {
            new_index[row] + 1
        } else {
            new_index[row]
        }
    };
    let marks: Vec<_> = chart
        .marks
        .iter()
        .map(|m| {
            let mut m = *m;
            m.row = place(m.row, m.at_ms, true);
            m
        })
        .collect();
    let notes: Vec<_> = chart
        .notes
        .iter()
        .map(|n| {
            let mut n = n.clone();
            let first = n.times.first().copied().unwrap_or(0);
            n.row = place(n.row, first, !n.about_worker);
            n
        })
        .collect();
    let accesses: Vec<_> = chart
        .accesses
        .iter()
        .map(|a| {
            let mut a = a.clone();
            a.row = place(a.row, a.at_ms, true);
            a
        })
        .collect();
    let flights: Vec<_> = chart
        .flights
        .iter()
        .map(|f| {
            let mut f = f.clone();
            f.row = place(f.row, f.from_ms, true);
            f
        })
        .collect();
    let mut rows = Vec::with_capacity(chart.rows.len() + wants.len());
    for (i, r) in chart.rows.iter().enumerate() {
        rows.push(r.clone());
        if wants.contains(&i) {
            rows.push(LeaseRow {
                kind: LeaseRowKind::Activity,
                worker: r.worker.clone(),
                worker_index: r.worker_index,
                label: activity_label(&r.worker),
                intervals: Vec::new(),
            });
        }
    }
    chart.rows = rows;
    chart.marks = marks;
    sort::sort_by_key(&mut chart.marks, |m| (m.row, m.at_ms, m.kind as u8));
    chart.notes = notes;
    chart.accesses = accesses;
    chart.flights = flights;
}
