//! Every catalogue lease chart fits a 1920x1080 slide at full size, and keeps its story when it
//! does: a chart too tall with its legend under the plot puts the legend and the verdict in a
//! panel beside it.

mod common;

use lockstep_render::layout::MarkKind;
use lockstep_render::lease::svg::LeasePage;
use lockstep_render::lease::{LeaseRowKind, lease_chart};
use lockstep_render::{Caption, Options};

/// The page's size as the SVG states it.
fn svg_size(svg: &str) -> (f64, f64) {
    let head = svg.split('>').next().unwrap_or_default();
    let attr = |name: &str| -> f64 {
        let at = head.find(&format!(" {name}=\"")).expect(name) + name.len() + 3;
        head[at..]
            .split('"')
            .next()
            .unwrap_or_default()
            .parse()
            .expect("a number")
    };
    (attr("width"), attr("height"))
}

#[test]
fn every_lease_chart_fits_a_slide_at_full_size() {
    for (id, scenario, run) in common::catalogue() {
        let total = run.trace.events.len();
        // The whole run, and step renders (they share one size).
        for step in [None, Some(1), Some(total / 2)] {
            let options = Options {
                upto_step: step,
                ..Options::default()
            };
            let svg = lockstep_render::run_lease_svg(&scenario, &run, &options).expect("draws");
            let (w, h) = svg_size(&svg);
            assert!(
                w <= 1920.0 && h <= 1080.0,
                "{id} step {step:?}: {w}x{h} does not fit 1920x1080 at full size"
            );
        }
    }
}

#[test]
fn a_fitted_chart_keeps_its_story_and_its_legend_clear_of_the_plot() {
    for (id, scenario, run) in common::catalogue() {
        let chart = lease_chart(&run.trace, &Options::default());
        let page = LeasePage::new(&chart, &Caption::for_run(&scenario, &run));
        let texts: Vec<&str> = page.texts.iter().map(|t| t.text.text.as_str()).collect();
        // The overlap band is named under the axis, and every refusal and duplicate is drawn.
        if !chart.danger.is_empty() {
            assert!(
                texts.iter().any(|t| t.starts_with("overlap:")),
                "{id}: the overlap is not named"
            );
        }
        for kind in [MarkKind::AccessRejected, MarkKind::Duplicate] {
            let wanted = chart.marks.iter().filter(|m| m.kind == kind).count();
            let drawn = page.marks.iter().filter(|m| m.0 == kind).count();
            assert_eq!(drawn, wanted, "{id}: {kind:?} marks");
        }
        assert_eq!(page.harm.len(), chart.harm.len(), "{id}: paid-twice bands");
        assert!(
            page.texts
                .iter()
                .any(|t| t.text.text.starts_with("Verdict")),
            "{id}: no verdict"
        );
        // The legend lies beside the plot or under its axis, never on it; and no text of the
        // page shares room with another's (the panel's wrapped words included).
        for (_, r) in &page.swatches {
            assert!(
                r.x0 > page.plot.x1 || r.y0 > page.plot.y1,
                "{id}: legend swatch {r:?} on the plot {:?}",
                page.plot
            );
        }
        let beside: Vec<_> = page
            .texts
            .iter()
            .filter(|t| t.text.rect.x0 > page.plot.x1)
            .collect();
        for a in &beside {
            for b in &page.texts {
                if std::ptr::eq(*a, b) {
                    continue;
                }
                assert!(
                    !a.text.rect.overlaps(&b.text.rect),
                    "{id}: {:?} and {:?} overlap",
                    a.text.text,
                    b.text.text
                );
            }
        }
    }
}

/// The charts the review found too tall keep their particular stories.
#[test]
fn the_tall_charts_keep_what_they_are_about() {
    let page_of = |id: &str| {
        let (scenario, run) = common::load(id);
        let chart = lease_chart(&run.trace, &Options::default());
        let page = LeasePage::new(&chart, &Caption::for_run(&scenario, &run));
        (chart, page)
    };
    // Redlock's documented fix: redis-3 restarts empty only after the TTL, with B's 41 retries
    // on redis-4 and redis-5 saying "B" once each.
    let (chart, page) = page_of("redlock-delayed-restart");
    let texts: Vec<&str> = page.texts.iter().map(|t| t.text.text.as_str()).collect();
    assert!(texts.contains(&"restarts empty"), "{texts:?}");
    assert!(texts.contains(&"crashes"), "{texts:?}");
    assert_eq!(texts.iter().filter(|t| **t == "B").count(), 3);
    assert_eq!(
        chart
            .rows
            .iter()
            .filter(|r| r.kind == LeaseRowKind::Instance)
            .count(),
        5
    );
    // The etcd failover: A's write refused at the end of its stale belief.
    let (chart, page) = page_of("consensus-fenced-failover");
    assert!(!chart.stale.is_empty());
    assert!(page.marks.iter().any(|m| m.0 == MarkKind::AccessRejected));
    // Sentinel: the duplicate payment.
    let (_, page) = page_of("redis-sentinel-split-brain");
    assert!(page.marks.iter().any(|m| m.0 == MarkKind::Duplicate));
}
