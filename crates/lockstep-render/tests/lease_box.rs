//! Presenter mode shows the lease chart whole in a box beside the step's explanation, narrower
//! than a slide's shape: the chart is laid out on a narrower page for it, which shows larger
//! there, with every label still apart and on the page.

mod common;

use lockstep_render::geom::Rect;
use lockstep_render::lease::svg::{LeasePage, Seen};
use lockstep_render::{Caption, Options, lease_box_for, lease_chart};

/// The box at 1280x720 (908 x 592 px) and at 1920x1080 (1,456 x 950 px).
const BOXES: [(f64, f64); 2] = [(908.0, 592.0), (1456.0, 950.0)];

/// How large `page` shows in a `w` x `h` box: screen pixels per chart pixel.
fn scale(page: &LeasePage, (w, h): (f64, f64)) -> f64 {
    (w / page.width).min(h / page.height)
}

#[test]
fn in_a_presenters_box_the_chart_is_laid_out_narrower_and_shows_larger() {
    let mut larger = Vec::new();
    for (id, scenario, run) in common::catalogue() {
        let caption = Caption::for_run(&scenario, &run);
        let total = run.trace.events.len();
        let at = |n| {
            lease_chart(
                &run.trace,
                &Options {
                    upto_step: Some(n),
                    ..Options::default()
                },
            )
        };
        let whole = at(total);
        for frame in BOXES {
            let slide = LeasePage::stepped_in(&whole, &whole, &caption, Seen::Whole);
            let Some(seen) =
                lease_box_for(&run.trace, &caption, &Options::default(), frame.0 / frame.1)
            else {
                continue;
            };
            let (Seen::Boxed(w, h) | Seen::Beside(w, h)) = seen else {
                panic!("{id}: {seen:?} is not a box's page");
            };
            // The box's shape.
            assert!((w / h - frame.0 / frame.1).abs() < 0.01, "{id}: {w} x {h}");
            let page = LeasePage::stepped_in(&whole, &whole, &caption, seen);
            let gain = scale(&page, frame) / scale(&slide, frame);
            assert!(gain > 1.0, "{id}: {w} px shows smaller ({gain:.2}x)");
            larger.push((id.clone(), frame, gain, scale(&page, frame)));
            // Every step on the narrower page: no label over another, every one on the page.
            for n in [1, total / 3, total / 2, total] {
                let page = LeasePage::stepped_in(&at(n), &whole, &caption, seen);
                // One size at every step: no step's chart is taller than the box.
                assert_eq!((page.width, page.height), (w, h), "{id} step {n}");
                let boxes = page.label_boxes();
                for (i, a) in boxes.iter().enumerate() {
                    let words = |r: &Rect| {
                        page.texts
                            .iter()
                            .filter(|t| t.text.rect.overlaps(r))
                            .map(|t| t.text.text.clone())
                            .collect::<Vec<_>>()
                    };
                    if let Some(b) = boxes[i + 1..].iter().find(|b| a.overlaps(b)) {
                        panic!(
                            "{id} at {w} px, step {n}: {:?} overlaps {:?}",
                            words(a),
                            words(b)
                        );
                    }
                }
                let on = Rect::new(0.0, 0.0, page.width, page.height);
                assert!(
                    page.texts
                        .iter()
                        .all(|t| t.text.rect.x0 >= on.x0 && t.text.rect.x1 <= on.x1),
                    "{id} at {w} px, step {n}: a word past the page's edge"
                );
            }
        }
    }
    // The headline runs show larger by an eighth or more at 1280x720 (fenced-gc-pause grows
    // taller on a narrower page, its legend and verdict wrapping, most at its middle steps).
    let at_720 = |id: &str| {
        larger
            .iter()
            .find(|(i, frame, _, _)| i == id && *frame == BOXES[0])
            .map(|&(_, _, gain, scale)| (gain, scale))
    };
    for (id, least) in [("fenced-gc-pause", 1.12), ("naive-gc-pause", 1.25)] {
        let g = at_720(id);
        assert!(g.is_some_and(|g| g.0 >= least), "{id}: {g:?} ({larger:?})");
    }
    // A chart whose legend goes beside its plot fills the box too: consensus-fenced-failover's
    // 16 px labels showed at 7.6 px at 1280x720 (its 1,920 px slide page, an eighth of the box
    // blank above and below); at 10 px now.
    let g = at_720("consensus-fenced-failover");
    assert!(
        g.is_some_and(|(_, scale)| 16.0 * scale >= 10.0),
        "consensus-fenced-failover: {g:?}"
    );
}
