//! The sequence views tell an etcd session's keepalive from a lock's renewal as the lease chart
//! does: a keepalive while the worker holds no lock is a hollow diamond with the legend entry
//! "session lease renewed (keepalive; not the lock itself)", and a Redis PEXPIRE renewal stays
//! "lease renewed".

mod common;

use lockstep_render::layout::{LegendKind, MarkKind};
use lockstep_render::lease::{LeaseRowKind, lease_chart};
use lockstep_render::{Options, TimeMode, layout};

fn legend_texts(l: &lockstep_render::Layout) -> Vec<&str> {
    l.legend.iter().map(|e| e.text.text.as_str()).collect()
}

#[test]
fn consensus_keepalives_say_session_lease_in_both_sequence_views() {
    let (_, run) = common::load("consensus-fenced-failover");
    for mode in [TimeMode::Logical, TimeMode::ToScale] {
        let l = common::layout_in(&run, mode);
        let texts = legend_texts(&l);
        assert!(
            texts.contains(&"session lease renewed (keepalive; not the lock itself)"),
            "{mode:?}: {texts:?}"
        );
        // B's keepalives while it waits in the queue are the session's.
        assert!(
            l.marks.iter().filter(|m| m.session).count() >= 2,
            "{mode:?}: no hollow keepalive"
        );
        assert!(
            l.marks
                .iter()
                .all(|m| !m.session || m.kind == MarkKind::Renewed)
        );
    }
}

#[test]
fn a_redis_renewal_stays_lease_renewed() {
    let (_, run) = common::load("heartbeat-does-not-help");
    let l = layout(&run.trace, &Options::default());
    assert!(l.marks.iter().any(|m| m.kind == MarkKind::Renewed));
    assert!(l.marks.iter().all(|m| !m.session), "a PEXPIRE drawn hollow");
    let kinds: Vec<LegendKind> = l.legend.iter().map(|e| e.kind).collect();
    assert!(kinds.contains(&LegendKind::Mark(MarkKind::Renewed)));
    assert!(!kinds.contains(&LegendKind::SessionRenewed));
}

#[test]
fn the_sequence_view_and_the_lease_chart_call_the_same_renewals_keepalives() {
    let mut keepalives = 0;
    for (id, _, run) in common::catalogue() {
        let l = layout(&run.trace, &Options::default());
        let chart = lease_chart(&run.trace, &Options::default());
        // The lease chart draws a renewal while its worker holds nothing on its activity row.
        let mut on_chart: Vec<u64> = chart
            .marks
            .iter()
            .filter(|m| {
                m.kind == MarkKind::Renewed && chart.rows[m.row].kind == LeaseRowKind::Activity
            })
            .map(|m| m.at_ms)
            .collect();
        let mut in_sequence: Vec<u64> = l
            .marks
            .iter()
            .filter(|m| m.session)
            .map(|m| l.rows[m.row].time_ms)
            .collect();
        on_chart.sort_unstable();
        in_sequence.sort_unstable();
        assert_eq!(in_sequence, on_chart, "{id}: keepalives differ");
        keepalives += on_chart.len();
    }
    assert!(
        keepalives >= 5,
        "only {keepalives} keepalives in the catalogue"
    );
}
