//! What the lease chart says beyond its bars: why Sentinel's duplicate lands outside the overlap
//! band (A's side still had a master saying yes), why an etcd lease outlives its TTL (the new
//! leader refreshed it), and that a session keepalive does not look like a lock renewal.

mod common;

use lockstep_render::layout::MarkKind;
use lockstep_render::lease::svg::{LeasePage, Swatch};
use lockstep_render::lease::{LeaseRowKind, lease_chart};
use lockstep_render::style;
use lockstep_render::{Caption, Options};

fn page_of(id: &str) -> (lockstep_render::lease::LeaseChart, LeasePage) {
    let (scenario, run) = common::load(id);
    let chart = lease_chart(&run.trace, &Options::default());
    let page = LeasePage::new(&chart, &Caption::for_run(&scenario, &run));
    (chart, page)
}

/// The page's text, its wrapped lines joined.
fn all_text(page: &LeasePage) -> String {
    page.texts
        .iter()
        .map(|t| t.text.text.as_str())
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn sentinels_headline_says_a_still_had_a_master_saying_yes() {
    let (_, page) = page_of("redis-sentinel-split-brain");
    let text = all_text(&page);
    assert!(
        text.contains(
            "A believes on until 4006 ms, not stale: redis (old master) still says A holds it"
        ),
        "{text}"
    );
    // Where the belief is stale, the line says so and claims no backing.
    let (_, page) = page_of("fenced-gc-pause");
    let text = all_text(&page);
    assert!(
        text.contains("A believes on, stale, until 11002 ms"),
        "{text}"
    );
    assert!(!text.contains("still says"), "{text}");
}

#[test]
fn the_new_leaders_lease_refresh_is_written_where_it_happens() {
    let (chart, page) = page_of("consensus-fenced-failover");
    let [refresh] = chart.refreshes.as_slice() else {
        panic!("{:?}", chart.refreshes)
    };
    let row = &chart.rows[refresh.row];
    assert_eq!(
        (row.kind.clone(), row.worker.as_str()),
        (LeaseRowKind::ServiceHolds, "A")
    );
    // At node-2's takeover, inside A's bar, which therefore runs past its 5 s TTL.
    assert!(refresh.text.starts_with("node-2 leads"), "{}", refresh.text);
    let bar = row.intervals.first().expect("A's bar");
    assert!(bar.from_ms < refresh.at_ms && refresh.at_ms < 5000 && bar.to_ms > 5000);
    // On the chart, in that row's band, starting at the takeover.
    let label = page
        .texts
        .iter()
        .find(|t| t.text.text == refresh.text)
        .expect("the refresh is written");
    assert!(
        page.owned
            .iter()
            .any(|&(k, r)| k == refresh.row && r == label.text.rect)
    );
    assert!((label.text.rect.x0 - page.x(refresh.at_ms)).abs() < 4.0);
    // No refresh where no lease was held across a takeover.
    for id in [
        "fenced-gc-pause",
        "redlock-clock-jump",
        "redis-sentinel-split-brain",
    ] {
        assert!(page_of(id).0.refreshes.is_empty(), "{id}");
    }
}

#[test]
fn a_session_keepalive_has_its_own_look_and_legend_entry() {
    let (scenario, run) = common::load("consensus-fenced-failover");
    let (chart, page) = page_of("consensus-fenced-failover");
    let svg = lockstep_render::run_lease_svg(&scenario, &run, &Options::default()).expect("draws");
    let renew = {
        let c = style::RENEW;
        format!("fill=\"#{:02X}{:02X}{:02X}\" points=\"", c.0, c.1, c.2)
    };
    // The lock renewal's solid teal diamonds, by their top corner's y.
    let solid_y: Vec<f64> = svg
        .split(renew.as_str())
        .skip(1)
        .filter_map(|s| s.split([',', ' ']).nth(1)?.parse().ok())
        .collect();
    let activity_y: Vec<f64> = chart
        .rows
        .iter()
        .zip(&page.row_y)
        .filter(|(r, _)| r.kind == LeaseRowKind::Activity)
        .map(|(_, &y)| y)
        .collect();
    let session = chart
        .marks
        .iter()
        .filter(|m| m.kind == MarkKind::Renewed && chart.rows[m.row].kind == LeaseRowKind::Activity)
        .count();
    assert!(session >= 2, "B's keepalives while it waits");
    for y in &activity_y {
        assert!(
            !solid_y.iter().any(|s| (s + 10.0 - y).abs() < 1.0),
            "a solid renewal diamond on an other-activity row at {y}: {solid_y:?}"
        );
    }
    // Both kinds are in the legend, each once.
    let kinds: Vec<Swatch> = page.swatches.iter().map(|s| s.0).collect();
    assert_eq!(
        kinds
            .iter()
            .filter(|k| **k == Swatch::SessionRenewed)
            .count(),
        1
    );
    assert_eq!(
        kinds
            .iter()
            .filter(|k| **k == Swatch::Mark(MarkKind::Renewed))
            .count(),
        1
    );
}
