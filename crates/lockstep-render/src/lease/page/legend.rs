//! The lease chart's words around the plot: the time axis's ticks, the legend's labels, and
//! who goes on believing after a danger zone.

use super::{Danger, LeaseChart, LeasePage, LeaseRowKind, Swatch};
use crate::layout::MarkKind;
use crate::lease::nodes::NodeShape;

/// The time between ticks: 1, 2 or 5 of a power of ten, at most ten ticks.
pub(super) fn tick_step(span_ms: u64) -> u64 {
    let mut unit = 1;
    loop {
        for m in [1, 2, 5] {
            let step = unit * m;
            if span_ms / step <= 10 {
                return step;
            }
        }
        unit *= 10;
    }
}

/// The least distance between ticks on a chart seen through a window narrower than it, in px
/// (a tick label such as "10.5 s" is about 40 px wide, a phone shows it at about two thirds).
const NARROW_TICK_PX: f64 = 72.0;

/// The tick step of a chart seen through a window narrower than it (a phone shows about 180 px
/// of the plot beside the pinned row names): the finest that keeps ticks [`NARROW_TICK_PX`]
/// apart at `px_per_ms`, never coarser than [`tick_step`]. With ten ticks across the whole run,
/// the phone scrolled to the current step showed one, the earlier ones under the names.
pub(super) fn narrow_tick_step(span_ms: u64, px_per_ms: f64) -> u64 {
    let coarse = tick_step(span_ms);
    let mut unit = 1;
    while unit < coarse {
        for m in [1, 2, 5] {
            let step = unit * m;
            if step as f64 * px_per_ms >= NARROW_TICK_PX {
                return step.min(coarse);
            }
        }
        unit *= 10;
    }
    coarse
}

/// The least distance between ticks on a narrow plot (a box's page, `Fit::InBox`): room for a
/// label such as "12 ms" or "10.5 s" and a gap.
const TICK_ROOM_PX: f64 = 64.0;

/// [`tick_step`], or coarser where its ticks would stand closer than [`TICK_ROOM_PX`] at
/// `px_per_ms` (a plot some 500 px across beside a panel: "8 ms" ran into "10 ms").
pub(super) fn roomy_tick_step(span_ms: u64, px_per_ms: f64) -> u64 {
    let mut step = tick_step(span_ms);
    while (step as f64) * px_per_ms < TICK_ROOM_PX && step < span_ms.max(1) {
        // 1, 2, 5, 10, 20, 50, …
        let unit = 10_u64.pow(step.ilog10());
        step = match step / unit {
            1 => 2 * unit,
            2 => 5 * unit,
            _ => 10 * unit,
        };
    }
    step
}

/// A tick's time in the unit its step suits: "2 s", "0.5 s", "20 ms".
pub(super) fn tick_label(t: u64, step: u64) -> String {
    if step >= 1000 && step.is_multiple_of(1000) {
        format!("{} s", t / 1000)
    } else if step >= 100 {
        format!("{:.1} s", t as f64 / 1000.0)
    } else {
        format!("{t} ms")
    }
}

/// The worker of an ended danger zone that goes on believing after it, and until when.
fn believes_on(chart: &LeaseChart, d: &Danger) -> Option<(String, u64)> {
    chart
        .rows
        .iter()
        .filter(|r| {
            r.kind == LeaseRowKind::Believes && (r.worker == d.first || r.worker == d.second)
        })
        .find_map(|r| {
            r.intervals
                .iter()
                .find(|iv| iv.from_ms <= d.to_ms && iv.to_ms > d.to_ms)
                .map(|iv| (r.worker.clone(), iv.to_ms))
        })
}

/// Where worker `w`'s belief after a danger zone ending at `to_ms` is still backed by the
/// service (a deposed master on its side of a partition still saying yes): the row's words with
/// "still" ("redis (old master) still says A holds it"). Why the harm can land outside the band.
fn still_backed(chart: &LeaseChart, w: &str, to_ms: u64) -> Option<String> {
    chart
        .rows
        .iter()
        .filter(|r| r.kind == LeaseRowKind::ServiceHolds && r.worker == w)
        .find(|r| {
            r.intervals
                .iter()
                .any(|iv| iv.from_ms < to_ms && iv.to_ms > to_ms)
        })
        .map(|r| {
            r.label
                .replacen(" says ", " still says ", 1)
                .replacen(" say ", " still say ", 1)
        })
}

/// What a legend swatch stands for.
pub(super) fn swatch_label(k: Swatch) -> &'static str {
    match k {
        Swatch::ServiceHolds => "the service records the worker as holder",
        Swatch::Believes => "the worker believes it holds the lock",
        Swatch::Stale => "stale belief: the service no longer says it holds it",
        Swatch::Paused => "the worker is paused (frozen)",
        Swatch::Danger => "overlap of beliefs: both believe they hold the lock",
        Swatch::Harm => "paid twice: a write paid payouts again here",
        Swatch::Leader => "master or leader, from failover or election",
        Swatch::LastToken => "db's last_token: it refuses lower tokens",
        Swatch::Current => "the current step",
        Swatch::Mark(MarkKind::WriteAccepted) => "write accepted",
        Swatch::Mark(MarkKind::AccessRejected) => "refused by fencing",
        Swatch::Mark(MarkKind::Duplicate) => "payouts paid twice",
        Swatch::Mark(MarkKind::Expired) => "TTL or lease ran out",
        Swatch::Mark(MarkKind::Lost) => "message lost in the network",
        Swatch::Partition => "network partition, until it heals",
        Swatch::OpenPartition => "network partition (never heals in this run)",
        Swatch::OpenPartitionSoFar => "network partition, not healed by this step",
        Swatch::Down => "node down: crashed, until it restarts",
        Swatch::Jump => "clock jump: arrow as long as the leap",
        Swatch::Tick => "an instant on a node: restart, election",
        Swatch::Note => "what the worker noted or decided",
        Swatch::Flight => "a message in flight, from sending to arrival",
        Swatch::SessionRenewed => crate::layout::SESSION_RENEWED,
        Swatch::Mark(_) => "lease renewed",
    }
}

/// The legend's swatches: only what `page` draws of `chart`, in legend order.
pub(super) fn kinds(chart: &LeaseChart, page: &LeasePage) -> Vec<Swatch> {
    // Only what is drawn: a run without a lock service has no bars.
    let has_bars = |kind: LeaseRowKind| {
        chart
            .rows
            .iter()
            .any(|r| r.kind == kind && !r.intervals.is_empty())
    };
    let mut kinds = Vec::new();
    if has_bars(LeaseRowKind::ServiceHolds) || has_bars(LeaseRowKind::Instance) {
        kinds.push(Swatch::ServiceHolds);
    }
    if has_bars(LeaseRowKind::Leader) {
        kinds.push(Swatch::Leader);
    }
    if has_bars(LeaseRowKind::LastToken) {
        kinds.push(Swatch::LastToken);
    }
    if has_bars(LeaseRowKind::Believes) {
        kinds.push(Swatch::Believes);
    }
    if !chart.stale.is_empty() {
        kinds.push(Swatch::Stale);
    }
    if chart.rows.iter().any(|r| r.kind == LeaseRowKind::Paused) {
        kinds.push(Swatch::Paused);
    }
    if !chart.danger.is_empty() {
        kinds.push(Swatch::Danger);
    }
    if !page.harm.is_empty() {
        kinds.push(Swatch::Harm);
    }
    if chart.current_ms.is_some() {
        kinds.push(Swatch::Current);
    }
    for k in [
        MarkKind::WriteAccepted,
        MarkKind::AccessRejected,
        MarkKind::Duplicate,
        MarkKind::Expired,
        MarkKind::Renewed,
    ] {
        // Renewals while the worker holds nothing (on its other-activity row) renew an
        // etcd-like session lease, not a lock: they look different and have their own entry.
        let on_activity = |m: &&crate::lease::LeaseMark| {
            k == MarkKind::Renewed && chart.rows[m.row].kind == LeaseRowKind::Activity
        };
        let marks = || chart.marks.iter().filter(|m| m.kind == k);
        if marks().any(|m| !on_activity(&m)) {
            kinds.push(Swatch::Mark(k));
        }
        if marks().any(|m| on_activity(&m)) {
            kinds.push(Swatch::SessionRenewed);
        }
    }
    for (k, shown) in [
        (
            Swatch::Partition,
            page.node_shapes
                .iter()
                .any(|s| matches!(s, NodeShape::Partition(_))),
        ),
        (
            if chart.steps_shown < chart.total_steps {
                Swatch::OpenPartitionSoFar
            } else {
                Swatch::OpenPartition
            },
            page.node_shapes
                .iter()
                .any(|s| matches!(s, NodeShape::OpenPartition(_))),
        ),
        (
            Swatch::Down,
            page.node_shapes
                .iter()
                .any(|s| matches!(s, NodeShape::Down(_))),
        ),
        (
            Swatch::Jump,
            page.node_shapes
                .iter()
                .any(|s| matches!(s, NodeShape::Jump { .. })),
        ),
        (
            Swatch::Tick,
            page.node_shapes
                .iter()
                .any(|s| matches!(s, NodeShape::Tick(_))),
        ),
        (Swatch::Note, !page.note_dots.is_empty()),
        (Swatch::Flight, !chart.flights.is_empty()),
        (
            Swatch::Mark(MarkKind::Lost),
            page.marks.iter().any(|m| m.0 == MarkKind::Lost)
                || page
                    .node_shapes
                    .iter()
                    .any(|s| matches!(s, NodeShape::Lost(_))),
        ),
    ] {
        if shown {
            kinds.push(k);
        }
    }
    kinds
}

/// The line under the chart that says when an overlap of beliefs ran, and who believed on after
/// it.
pub(super) fn overlap_line(chart: &LeaseChart, d: &Danger) -> String {
    // An overlap still going on at the step shown has not ended: "since", not "to".
    if d.open {
        return format!(
            "overlap: {} and {} both believe they hold the lock since {} ms",
            d.first, d.second, d.from_ms
        );
    }
    let mut line = format!(
        "overlap: {} and {} both believe they hold the lock from {} to {} ms",
        d.first, d.second, d.from_ms, d.to_ms
    );
    // The band ends when one lets go; the other may go on believing, stale, and act on it
    // after the band (the write fencing has to stop).
    if let Some((w, until)) = believes_on(chart, d) {
        // "Stale" only where the chart hatches it so (a deposed master may still say the
        // worker holds it).
        let stale = chart
            .stale
            .iter()
            .any(|s| chart.rows[s.row].worker == w && s.from_ms <= d.to_ms && s.to_ms >= until);
        let how = if stale { ", stale," } else { "" };
        line.push_str(&format!("; {w} believes on{how} until {until} ms"));
        if let Some(backed) = still_backed(chart, &w, d.to_ms).filter(|_| !stale) {
            line.push_str(&format!(", not stale: {backed}"));
        }
    }
    line
}
