//! The lease chart tells the truth a presenter needs: a worker's belief after the lock service
//! stopped saying it holds the lock is a stale stretch of its belief bar, and the stale write
//! that fencing refuses or that pays twice lands inside one; the overlap of beliefs is named so;
//! a partition that never heals is open-ended; rows nobody fills say never; etcd keepalives
//! read as session lease renewals.

mod common;

use lockstep_render::layout::MarkKind;
use lockstep_render::lease::svg::{LeasePage, Swatch};
use lockstep_render::lease::{LeaseChart, LeaseRowKind, lease_chart};
use lockstep_render::{Caption, Options};

fn chart(id: &str) -> LeaseChart {
    lease_chart(&common::load(id).1.trace, &Options::default())
}

fn stale_of(c: &LeaseChart, worker: &str) -> Vec<(u64, u64)> {
    c.stale
        .iter()
        .filter(|s| c.rows[s.row].worker == worker && c.rows[s.row].kind == LeaseRowKind::Believes)
        .map(|s| (s.from_ms, s.to_ms))
        .collect()
}

#[test]
fn a_paused_workers_belief_turns_stale_at_its_ttl_and_stays_so_until_it_ends() {
    for id in ["fenced-gc-pause", "naive-gc-pause"] {
        let c = chart(id);
        // A's lease ran out at 5002 ms; A believes on until its write lands at 11 s.
        let a = stale_of(&c, "A");
        assert_eq!(a.len(), 1, "{id}: {a:?}");
        let (from, to) = a[0];
        assert_eq!(from, 5002, "{id}: stale from the expiry");
        assert!(to >= 11_000, "{id}: stale until A's belief ends, not {to}");
        // B released its own lock: no stale stretch (its release's round trip is no hazard).
        assert!(
            stale_of(&c, "B").is_empty(),
            "{id}: {:?}",
            stale_of(&c, "B")
        );
    }
}

#[test]
fn a_stale_write_that_fencing_refuses_lands_in_its_workers_stale_stretch() {
    // (A fresh holder refused for a reset counter, as in redis-restart-counter-reset, holds a
    // lock the service backs: its refusal is not stale.)
    for id in ["fenced-gc-pause", "consensus-fenced-failover"] {
        let c = chart(id);
        let refused: Vec<_> = c
            .marks
            .iter()
            .filter(|m| {
                m.kind == MarkKind::AccessRejected && c.rows[m.row].kind == LeaseRowKind::Believes
            })
            .collect();
        assert!(!refused.is_empty(), "{id}: no refused write");
        for m in refused {
            let inside = c
                .stale
                .iter()
                .any(|s| s.row == m.row && s.from_ms <= m.at_ms && m.at_ms <= s.to_ms);
            assert!(
                inside,
                "{id}: refused at {} ms, stale {:?}",
                m.at_ms, c.stale
            );
        }
    }
}

#[test]
fn a_late_write_that_pays_twice_lands_in_its_workers_stale_stretch() {
    // (Where the stale write lands first and the holder's own write pays twice, as in
    // fenced-writes-only-stale-first, the duplicate is the holder's and not stale.)
    for id in ["naive-gc-pause", "naive-network-delay"] {
        let c = chart(id);
        let dup = c
            .marks
            .iter()
            .find(|m| m.kind == MarkKind::Duplicate)
            .unwrap_or_else(|| panic!("{id}: no duplicate"));
        let inside = c
            .stale
            .iter()
            .any(|s| s.row == dup.row && s.from_ms <= dup.at_ms && dup.at_ms <= s.to_ms);
        assert!(
            inside,
            "{id}: duplicate at {} ms, stale {:?}",
            dup.at_ms, c.stale
        );
    }
}

#[test]
fn the_stale_stretch_has_a_legend_entry_and_the_band_is_an_overlap_not_a_danger() {
    let (scenario, run) = common::load("naive-gc-pause");
    let c = lease_chart(&run.trace, &Options::default());
    let page = LeasePage::new(&c, &Caption::for_run(&scenario, &run));
    assert!(page.swatches.iter().any(|(k, _)| *k == Swatch::Stale));
    let texts: Vec<&str> = page.texts.iter().map(|t| t.text.text.as_str()).collect();
    assert!(
        texts
            .iter()
            .any(|t| t.starts_with("overlap: A and B both believe")),
        "{texts:?}"
    );
    assert!(!texts.iter().any(|t| t.starts_with("danger")), "{texts:?}");
}

#[test]
fn a_partition_that_never_heals_is_drawn_open_ended_and_says_so() {
    use lockstep_render::lease::nodes::NodeShape;
    // consensus-isolated-leader never heals its partition; redis-sentinel-split-brain does.
    for (id, heals) in [
        ("consensus-isolated-leader", false),
        ("redis-sentinel-split-brain", true),
    ] {
        let (scenario, run) = common::load(id);
        let c = lease_chart(&run.trace, &Options::default());
        let page = LeasePage::new(&c, &Caption::for_run(&scenario, &run));
        let open = page
            .node_shapes
            .iter()
            .any(|s| matches!(s, NodeShape::OpenPartition(_)));
        assert_eq!(open, !heals, "{id}: open-ended partition");
        let says_never = page
            .swatches
            .iter()
            .any(|(k, _)| *k == Swatch::OpenPartition);
        assert_eq!(says_never, !heals, "{id}: legend");
        let texts: Vec<&str> = page.texts.iter().map(|t| t.text.text.as_str()).collect();
        assert_eq!(
            texts.contains(&"network partition (never heals in this run)"),
            !heals,
            "{id}"
        );
    }
}

#[test]
fn a_row_nobody_ever_fills_says_never() {
    let (scenario, run) = common::load("redlock-split-votes");
    let c = lease_chart(&run.trace, &Options::default());
    let page = LeasePage::new(&c, &Caption::for_run(&scenario, &run));
    let nevers = page.texts.iter().filter(|t| t.text.text == "never").count();
    // A and B: no majority, no belief.
    assert_eq!(nevers, 4, "rows saying never");
    // A run without a lock is not asked who holds the lock, and its rows never say never.
    let (scenario, run) = common::load("idempotency-keys");
    let c = lease_chart(&run.trace, &Options::default());
    let page = LeasePage::new(&c, &Caption::for_run(&scenario, &run));
    assert!(!page.texts.iter().any(|t| t.text.text == "never"));
    assert!(
        !page
            .texts
            .iter()
            .any(|t| t.text.text.contains("Who holds the lock"))
    );
    assert!(
        page.texts
            .iter()
            .any(|t| t.text.text.starts_with("Who wrote when?"))
    );
}

#[test]
fn etcd_keepalives_before_the_lock_read_as_session_lease_renewals() {
    let (scenario, run) = common::load("consensus-fenced-failover");
    let c = lease_chart(&run.trace, &Options::default());
    // B keeps its session lease alive while it still waits for the lock: not on a holder row.
    let b_waiting = c.marks.iter().any(|m| {
        m.kind == MarkKind::Renewed
            && c.rows[m.row].worker == "B"
            && c.rows[m.row].kind == LeaseRowKind::Activity
    });
    assert!(b_waiting, "B's keepalives while waiting");
    let page = LeasePage::new(&c, &Caption::for_run(&scenario, &run));
    assert!(
        page.swatches
            .iter()
            .any(|(k, _)| *k == Swatch::SessionRenewed)
    );
    assert!(
        page.texts
            .iter()
            .any(|t| t.text.text.starts_with("session lease renewed")),
        "legend"
    );
    // A Redis lock's renewal (PEXPIRE) is the lock's own lease.
    let (scenario, run) = common::load("redis-sentinel-split-brain");
    let c = lease_chart(&run.trace, &Options::default());
    let page = LeasePage::new(&c, &Caption::for_run(&scenario, &run));
    assert!(
        !page
            .swatches
            .iter()
            .any(|(k, _)| *k == Swatch::SessionRenewed)
    );
}
