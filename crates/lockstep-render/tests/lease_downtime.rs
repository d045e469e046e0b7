//! A crashed node records no holder on the lease chart: a Redis instance's keys go down with its
//! process (redis-3 in redlock-delayed-restart held "A" for 11 s though it was down from 1 s),
//! a leader stops leading, and a restart brings a key back only when persistence kept it.

mod common;

use lockstep_core::Tag;
use lockstep_core::topology::Role;
use lockstep_render::Options;
use lockstep_render::lease::{LeaseChart, LeaseRowKind, lease_chart};

/// Each crash of a lock-service node: (node, crash time, restart time or the end of the run).
fn downtimes(run: &lockstep_core::Run) -> Vec<(usize, u64, u64)> {
    let trace = &run.trace;
    let end = trace.events.last().map_or(0, |e| e.time_ms);
    let mut out = Vec::new();
    for (i, e) in trace.events.iter().enumerate() {
        let node = usize::from(e.from);
        if e.tag != Some(Tag::Crashed) || !trace.participants[node].role.is_lock_service() {
            continue;
        }
        let back = trace.events[i..]
            .iter()
            .find(|r| usize::from(r.from) == node && matches!(r.tag, Some(Tag::Restarted { .. })))
            .map_or(end, |r| r.time_ms);
        out.push((node, e.time_ms, back));
    }
    out
}

/// The bars on `chart` that stand for what `node` records: its instance row, its own "says X
/// holds it" rows, the leader or master row's bars for it, and a lone Redis's "service says".
fn records_of(
    chart: &LeaseChart,
    run: &lockstep_core::Run,
    node: usize,
) -> Vec<(String, u64, u64)> {
    let ps = &run.trace.participants;
    let name = &ps[node].name;
    let lone_redis =
        ps.iter().filter(|p| p.role.is_lock_service()).count() == 1 && ps[node].role == Role::Redis;
    let mut out = Vec::new();
    for row in &chart.rows {
        let own = match row.kind {
            LeaseRowKind::Instance => row.label.starts_with(&format!("{name} ")),
            LeaseRowKind::ServiceHolds => {
                row.label.starts_with(&format!("{name} "))
                    || (lone_redis && row.label.starts_with("service says"))
            }
            _ => false,
        };
        for iv in &row.intervals {
            let leads = row.kind == LeaseRowKind::Leader && iv.who.map(|w| w.node) == Some(node);
            if own || leads {
                out.push((row.label.clone(), iv.from_ms, iv.to_ms));
            }
        }
    }
    out
}

#[test]
fn no_crashed_node_records_a_holder_while_it_is_down() {
    let mut crashes = 0;
    for (id, _, run) in common::catalogue() {
        let chart = lease_chart(&run.trace, &Options::default());
        for (node, down, back) in downtimes(&run) {
            crashes += 1;
            for (label, from, to) in records_of(&chart, &run, node) {
                assert!(
                    to <= down || from >= back,
                    "{id}: {label:?} runs {from}-{to} ms, but {} is down {down}-{back} ms",
                    run.trace.participants[node].name
                );
            }
        }
    }
    assert!(crashes >= 8, "only {crashes} crashes of service nodes");
}

#[test]
fn redis_3_stops_holding_a_when_it_crashes_and_so_does_a_s_majority() {
    let (_, run) = common::load("redlock-delayed-restart");
    let chart = lease_chart(&run.trace, &Options::default());
    let row = |label: &str| {
        chart
            .rows
            .iter()
            .find(|r| r.label == label)
            .unwrap_or_else(|| panic!("no row {label:?}"))
    };
    let redis_3: Vec<(u64, u64)> = row("redis-3 holds the key for")
        .intervals
        .iter()
        .map(|iv| (iv.from_ms, iv.to_ms))
        .collect();
    // A's key from its grant to the crash at 1000 ms; B's key after the restart at 11.1 s.
    assert_eq!(redis_3[0].1, 1000, "{redis_3:?}");
    assert!(
        redis_3[1..].iter().all(|&(from, _)| from >= 11_100),
        "{redis_3:?}"
    );
    // Two of five instances are no majority: A's lock stands on redis-1 and redis-2 alone.
    let majority = &row("a majority say A holds it").intervals;
    assert_eq!(majority.len(), 1);
    assert_eq!(majority[0].to_ms, 1000);
    assert!(
        chart
            .stale
            .iter()
            .any(|s| s.from_ms == 1000 && chart.rows[s.row].worker == "A"),
        "A's belief after the crash is not stale: {:?}",
        chart.stale
    );
}

/// redlock-restart-without-persistence with a later restart that keeps its data.
fn restart_with_persistence(at_ms: u64) -> lockstep_core::Run {
    let source = lockstep_core::catalogue::source("redlock-restart-without-persistence")
        .expect("built in")
        .replace("persistent = false", "persistent = true")
        .replace("at_ms = 1050", &format!("at_ms = {at_ms}"));
    let scenario = lockstep_core::parse_scenario("persistent.toml", source.as_bytes())
        .expect("the edited scenario parses");
    lockstep_core::run(&scenario)
}

/// redis-3's bars in that run: (from, to, worker index of the holder).
fn redis_3_keys(run: &lockstep_core::Run) -> Vec<(u64, u64, Option<usize>)> {
    let chart = lease_chart(&run.trace, &Options::default());
    let row = chart
        .rows
        .iter()
        .find(|r| r.label == "redis-3 holds the key for")
        .expect("redis-3's row");
    row.intervals
        .iter()
        .map(|iv| (iv.from_ms, iv.to_ms, iv.who.and_then(|w| w.worker)))
        .collect()
}

#[test]
fn a_restart_with_persistence_brings_the_key_back_until_it_expires() {
    let spans = redis_3_keys(&restart_with_persistence(3000));
    assert_eq!((spans[0].1, spans[0].2), (1000, Some(0)), "{spans:?}");
    // Back at the restart, A's still, until its TTL runs out on redis-3's clock.
    assert_eq!((spans[1].0, spans[1].2), (3000, Some(0)), "{spans:?}");
    assert!(spans[1].1 > 9000, "{spans:?}");
}

#[test]
fn a_key_that_expired_while_its_instance_was_down_does_not_come_back() {
    // The restart at 12 s is past A's 10 s TTL: the core frees the key as it reloads it.
    let spans = redis_3_keys(&restart_with_persistence(12_000));
    assert!(
        spans
            .iter()
            .all(|&(_, to, who)| to <= 1000 || who != Some(0)),
        "A's expired key back on redis-3: {spans:?}"
    );
}
