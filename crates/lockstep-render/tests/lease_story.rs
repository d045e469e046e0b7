//! The lease chart tells each catalogue story where it happens: a row per Redlock instance (who
//! holds its key), the master or leader over time, the database's `last_token`, a worker's
//! activity outside its beliefs on a neutral row, the harm (paid twice) at its instant, and the
//! truth about idempotent repeats and a migration to fencing.

mod common;

use lockstep_core::Tag;
use lockstep_render::layout::MarkKind;
use lockstep_render::lease::svg::{LeasePage, Swatch};
use lockstep_render::lease::{LeaseChart, LeaseRowKind, lease_chart};
use lockstep_render::{Caption, Options};

fn chart(id: &str) -> LeaseChart {
    lease_chart(&common::load(id).1.trace, &Options::default())
}

/// Who holds each instance's key at `t`, by row label.
fn holders_at(chart: &LeaseChart, t: u64) -> Vec<(String, Option<String>)> {
    chart
        .rows
        .iter()
        .filter(|r| r.kind == LeaseRowKind::Instance)
        .map(|r| {
            let who = r
                .intervals
                .iter()
                .find(|iv| iv.from_ms <= t && t < iv.to_ms)
                .and_then(|iv| iv.who)
                .map(|w| chart.names[w.node].clone());
            (r.label.clone(), who)
        })
        .collect()
}

/// The names on a row's bars, in time order.
fn bar_names(chart: &LeaseChart, kind: LeaseRowKind) -> Vec<(String, Option<u64>)> {
    chart
        .rows
        .iter()
        .filter(|r| r.kind == kind)
        .flat_map(|r| &r.intervals)
        .filter_map(|iv| iv.who.map(|w| (chart.names[w.node].clone(), iv.token)))
        .collect()
}

#[test]
fn a_redlock_instance_switching_holders_and_a_split_vote_are_seen() {
    let c = chart("redlock-clock-jump");
    let redis3 = c
        .rows
        .iter()
        .find(|r| r.kind == LeaseRowKind::Instance && r.label.starts_with("redis-3"))
        .expect("a row for redis-3");
    let on3: Vec<String> = redis3
        .intervals
        .iter()
        .filter_map(|iv| iv.who.map(|w| c.names[w.node].clone()))
        .collect();
    assert_eq!(on3, ["A", "B"], "redis-3 switches from A to B");
    // Once B holds its three, A still holds redis-1 and redis-2: both "majorities" at once.
    let b_holds = c
        .rows
        .iter()
        .filter(|r| r.kind == LeaseRowKind::Instance)
        .flat_map(|r| &r.intervals)
        .filter(|iv| iv.who.is_some_and(|w| c.names[w.node] == "B"))
        .map(|iv| iv.from_ms)
        .max()
        .expect("B holds instances");
    let at = holders_at(&c, b_holds + 1);
    let count = |w: &str| at.iter().filter(|(_, h)| h.as_deref() == Some(w)).count();
    assert_eq!((count("A"), count("B")), (2, 3), "{at:?}");

    // Three clients split the five votes 2/2/1 in their first round.
    let c = chart("redlock-split-votes");
    let split = (0..200).any(|t| {
        let at = holders_at(&c, t);
        let mut n: Vec<usize> = ["A", "B", "C"]
            .iter()
            .map(|w| at.iter().filter(|(_, h)| h.as_deref() == Some(*w)).count())
            .collect();
        n.sort_unstable();
        n == [1, 2, 2]
    });
    assert!(split, "no instant shows the 2/2/1 split");
}

#[test]
fn the_master_or_leader_over_time_is_a_row_of_its_own() {
    let c = chart("redis-sentinel-split-brain");
    assert_eq!(
        bar_names(&c, LeaseRowKind::Leader),
        [
            ("redis".to_string(), None),
            ("redis-replica".to_string(), None)
        ]
    );
    for id in ["consensus-fenced-failover", "consensus-isolated-leader"] {
        let c = chart(id);
        assert_eq!(
            bar_names(&c, LeaseRowKind::Leader),
            [
                ("node-1".to_string(), Some(1)),
                ("node-2".to_string(), Some(2))
            ],
            "{id}"
        );
        // An election is a new bar, not a tick on a node's lane.
        let (scenario, run) = common::load(id);
        let page = LeasePage::new(&c, &Caption::for_run(&scenario, &run));
        let texts: Vec<&str> = page.texts.iter().map(|t| t.text.text.as_str()).collect();
        assert!(texts.contains(&"node-2 leader (term 2)"), "{id}: {texts:?}");
    }
    // The database's last_token, a bar per value: 33 from A's read, 34 from B's.
    let c = chart("consensus-fenced-failover");
    let tokens: Vec<Option<u64>> = c
        .rows
        .iter()
        .filter(|r| r.kind == LeaseRowKind::LastToken)
        .flat_map(|r| r.intervals.iter().map(|iv| iv.token))
        .collect();
    assert_eq!(tokens, [Some(33), Some(34)]);
}

#[test]
fn a_belief_row_holds_only_what_happened_while_its_worker_believed() {
    for (id, _, run) in common::catalogue() {
        let c = lease_chart(&run.trace, &Options::default());
        let believed = |row: usize, t: u64| {
            c.rows[row]
                .intervals
                .iter()
                .any(|iv| iv.from_ms <= t && t <= iv.to_ms + 5)
        };
        let belief = |row: usize| c.rows[row].kind == LeaseRowKind::Believes;
        if !c.rows.iter().any(|r| r.kind == LeaseRowKind::ServiceHolds) {
            continue;
        }
        for m in &c.marks {
            assert!(
                !belief(m.row) || believed(m.row, m.at_ms),
                "{id}: {:?} at {} ms on {:?}",
                m.kind,
                m.at_ms,
                c.rows[m.row].label
            );
        }
        for n in c.notes.iter().filter(|n| !n.about_worker) {
            assert!(
                !belief(n.row) || believed(n.row, n.times[0]),
                "{id}: note {:?} on {:?}",
                n.text,
                c.rows[n.row].label
            );
        }
        for a in &c.accesses {
            assert!(!belief(a.row) || believed(a.row, a.at_ms), "{id}: {a:?}");
        }
    }
    // B's refused lock request and keepalives before it holds: on B's activity row.
    let c = chart("consensus-fenced-failover");
    let activity = c
        .rows
        .iter()
        .position(|r| r.kind == LeaseRowKind::Activity && r.worker == "B")
        .expect("B's activity row");
    assert_eq!(c.rows[activity].label, "B's other activity");
    assert!(
        c.notes
            .iter()
            .any(|n| n.row == activity && n.text.starts_with("refused: lock"))
    );
    assert!(
        c.marks
            .iter()
            .any(|m| m.row == activity && m.kind == MarkKind::Renewed)
    );
}

#[test]
fn the_harm_is_marked_where_it_happens() {
    for (id, scenario, run) in common::catalogue() {
        let c = lease_chart(&run.trace, &Options::default());
        let page = LeasePage::new(&c, &Caption::for_run(&scenario, &run));
        let duplicates: Vec<u64> = run
            .trace
            .events
            .iter()
            .filter(|e| matches!(e.tag, Some(Tag::Duplicate { .. })))
            .map(|e| e.time_ms)
            .collect();
        assert_eq!(page.harm.len(), duplicates.len(), "{id}");
        for (r, &t) in page.harm.iter().zip(&duplicates) {
            let x = page.x(t);
            assert!(r.x0 <= x && x <= r.x1, "{id}: harm band away from {t} ms");
            assert!(
                r.y0 <= page.plot.y0 && r.y1 >= page.plot.y1,
                "{id}: across the rows"
            );
        }
        let labelled = page.texts.iter().any(|t| t.text.text == "paid twice");
        assert_eq!(
            labelled,
            !duplicates.is_empty(),
            "{id}: \"paid twice\" label"
        );
        let swatch = page.swatches.iter().any(|s| s.0 == Swatch::Harm);
        assert_eq!(swatch, !duplicates.is_empty(), "{id}: legend");
        // The write that paid twice gets the duplicate's mark, no check mark beside it.
        for &t in &duplicates {
            assert!(
                !c.marks
                    .iter()
                    .any(|m| m.kind == MarkKind::WriteAccepted && m.at_ms == t),
                "{id}: a check mark on the write that paid twice at {t} ms"
            );
        }
    }
    // The band ends as B lets go; A believes on, stale, until its write lands.
    let (scenario, run) = common::load("naive-network-delay");
    let c = lease_chart(&run.trace, &Options::default());
    let page = LeasePage::new(&c, &Caption::for_run(&scenario, &run));
    assert!(
        page.texts
            .iter()
            .any(|t| t.text.text.starts_with("overlap:")
                && t.text.text.contains("A believes on, stale, until")),
        "the overlap line does not say A believes on"
    );
}

#[test]
fn an_idempotent_repeat_is_no_accepted_write_and_names_its_keys() {
    let (scenario, run) = common::load("idempotency-keys");
    let c = lease_chart(&run.trace, &Options::default());
    let checks = c
        .marks
        .iter()
        .filter(|m| m.kind == MarkKind::WriteAccepted)
        .count();
    assert_eq!(
        checks, 1,
        "only the write that applied something is accepted"
    );
    let texts: Vec<String> = c.accesses.iter().map(|a| a.text.clone()).collect();
    assert!(
        texts.contains(&"3 repeats skipped: keys batch-42/1–3 already used".to_string()),
        "{texts:?}"
    );
    assert!(
        texts.contains(&"applied 3, keys batch-42/1–3 stored".to_string()),
        "{texts:?}"
    );
    // The sequence view: one check mark, and the verdict counts the skipped repeat apart.
    let layout = lockstep_render::layout(&run.trace, &Options::default());
    let checks = layout
        .marks
        .iter()
        .filter(|m| m.kind == MarkKind::WriteAccepted)
        .count();
    assert_eq!(checks, 1);
    let svg = lockstep_render::run_svg(&scenario, &run, &Options::default()).expect("draws");
    assert!(
        svg.contains("writes accepted: 1,"),
        "verdict counts one write"
    );
    assert!(
        svg.contains("repeats skipped by idempotency keys: 3 payouts (1 write applied nothing)"),
        "verdict counts the skipped repeat"
    );
}

#[test]
fn a_migration_draws_its_steps() {
    let c = chart("migration-right-order");
    assert!(
        c.incidents
            .iter()
            .any(|i| i.node == "db" && i.text == "db enforces fencing tokens"),
        "{:?}",
        c.incidents
    );
    for (w, text) in [
        ("A", "A not upgraded: sends no token"),
        ("B", "B upgraded: sends fencing tokens"),
    ] {
        let note = c.notes.iter().find(|n| n.text == text).expect(text);
        let row = &c.rows[note.row];
        assert_eq!(
            (row.worker.as_str(), &row.kind),
            (w, &LeaseRowKind::Believes),
            "{text}"
        );
    }
}

#[test]
fn every_text_of_a_lease_chart_is_large_enough_for_a_room() {
    // Shown whole on a 1920x1080 slide (scaled down if it must be, never up), every text is
    // at least 16 px: a 1600 px page fills the slide's height at full size, or a 1920 px page
    // (legend beside the plot) its width.
    for (id, scenario, run) in common::catalogue() {
        let page = LeasePage::new(
            &lease_chart(&run.trace, &Options::default()),
            &Caption::for_run(&scenario, &run),
        );
        let fit = (1920.0 / page.width).min(1080.0 / page.height).min(1.0);
        for t in &page.texts {
            assert!(
                t.text.size * fit >= 16.0,
                "{id}: {:?} at {} px",
                t.text.text,
                t.text.size
            );
        }
    }
}

/// A holder's name is written under its short bars only where it changes: redlock-delayed-
/// restart's B retries 41 times, and its grants on redis-4 and redis-5 were a staircase of 40
/// "B" labels each, 3097 px tall. Every chart stays within a slide and a half's height.
#[test]
fn repeated_short_grants_say_their_holder_once_and_charts_stay_short() {
    let mut tallest = (0.0, String::new());
    for (id, scenario, run) in common::catalogue() {
        let page = LeasePage::new(
            &lease_chart(&run.trace, &Options::default()),
            &Caption::for_run(&scenario, &run),
        );
        if page.height > tallest.0 {
            tallest = (page.height, id.to_string());
        }
        if id == "redlock-delayed-restart" {
            let bs = page.texts.iter().filter(|t| t.text.text == "B").count();
            // One under redis-3's, redis-4's and redis-5's first grant to B.
            assert_eq!(bs, 3, "{id}: {bs} labels \"B\"");
        }
    }
    assert!(
        tallest.0 <= 1500.0,
        "{} is {} px tall",
        tallest.1,
        tallest.0
    );
}
