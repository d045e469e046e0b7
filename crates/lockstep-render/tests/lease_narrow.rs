//! On a phone the lease chart is wider than its window: what is written under the plot (the
//! overlap's summary, the legend, the verdict) wraps to the window, in one column, so it can be
//! read whole without scrolling sideways; so does the title above it.

mod common;

use lockstep_render::lease::svg::{LeasePage, Seen};
use lockstep_render::lease::{LeaseRowKind, lease_chart};
use lockstep_render::{Caption, Options};

/// A 357 px phone window over a chart drawn 1,040 px wide, in the chart's pixels.
const WINDOW: f64 = 357.0 * 1600.0 / 1040.0;

/// Which words of a chart [`words`] gives.
#[derive(Clone, Copy)]
enum Part {
    /// Under the plot (below its last row).
    Under,
    /// Above it, starting left of it: the title and subtitle (not the marks over the step line).
    Head,
}

/// The words under the plot of step `n`'s chart, seen through `window`.
fn under_the_plot(id: &str, n: Option<usize>, window: Option<f64>) -> Vec<(String, f64, f64)> {
    words(id, n, window, Part::Under)
}

/// The words of `part` of step `n`'s chart, seen through `window`.
fn words(id: &str, n: Option<usize>, window: Option<f64>, part: Part) -> Vec<(String, f64, f64)> {
    let (_, scenario, run) = common::catalogue()
        .into_iter()
        .find(|(i, _, _)| i == id)
        .expect("a catalogue scenario");
    let total = run.trace.events.len();
    let at = |step| {
        lease_chart(
            &run.trace,
            &Options {
                upto_step: Some(step),
                ..Options::default()
            },
        )
    };
    let (chart, whole) = (at(n.unwrap_or(total)), at(total));
    let caption = Caption::for_run(&scenario, &run);
    let seen = window.map_or(Seen::Whole, Seen::Window);
    let page = LeasePage::stepped_in(&chart, &whole, &caption, seen);
    assert!(chart.rows.iter().any(|r| r.kind == LeaseRowKind::Believes));
    page.texts
        .iter()
        .filter(|t| match part {
            Part::Under => t.text.rect.y0 > page.plot.y1 + 24.0,
            Part::Head => t.text.rect.y1 < page.plot.y0 && t.text.rect.x0 < page.plot.x0,
        })
        .map(|t| (t.text.text.clone(), t.text.rect.x0, t.text.rect.x1))
        .collect()
}

#[test]
fn on_a_phone_the_words_under_the_plot_wrap_to_the_window() {
    for id in [
        "naive-gc-pause",
        "fenced-gc-pause",
        "redlock-gc-pause",
        "redlock-split-votes",
        "consensus-isolated-leader",
    ] {
        for n in [Some(1), Some(22), None] {
            let words = under_the_plot(id, n, Some(WINDOW));
            assert!(words.len() >= 3, "{id} {n:?}: {words:?}");
            for (text, x0, x1) in &words {
                assert!(
                    *x0 >= 0.0 && *x1 <= WINDOW,
                    "{id} step {n:?}: '{text}' runs from {x0} to {x1}, past the {WINDOW} px window"
                );
            }
        }
    }
}

#[test]
fn without_a_window_the_legend_runs_across_the_page() {
    let words = under_the_plot("naive-gc-pause", Some(22), None);
    assert!(
        words.iter().any(|(_, _, x1)| *x1 > WINDOW * 1.5),
        "{words:?}"
    );
}

#[test]
fn on_a_phone_the_title_wraps_to_the_window() {
    for id in [
        "fenced-gc-pause",
        "redlock-split-votes",
        "consensus-isolated-leader",
    ] {
        let head = words(id, Some(22), Some(WINDOW), Part::Head);
        assert!(head.len() >= 3, "{id}: {head:?}");
        for (text, x0, x1) in &head {
            assert!(
                *x0 >= 0.0 && *x1 <= WINDOW,
                "{id}: '{text}' runs from {x0} to {x1}, past the {WINDOW} px window"
            );
        }
    }
    // Across a slide, the title is one line.
    let wide = words("fenced-gc-pause", Some(22), None, Part::Head);
    assert!(wide.iter().any(|(_, _, x1)| *x1 > WINDOW), "{wide:?}");
}

#[test]
fn on_a_phone_the_plot_beside_the_pinned_names_shows_at_least_two_time_ticks() {
    for id in [
        "fenced-gc-pause",
        "naive-gc-pause",
        "redlock-split-votes",
        "consensus-fenced-failover",
        "idempotency-keys",
    ] {
        let (_, scenario, run) = common::catalogue()
            .into_iter()
            .find(|(i, _, _)| i == id)
            .expect("a catalogue scenario");
        let whole = lease_chart(&run.trace, &Options::default());
        let caption = Caption::for_run(&scenario, &run);
        let ticks = |window: Option<f64>| {
            let seen = window.map_or(Seen::Whole, Seen::Window);
            let page = LeasePage::stepped_in(&whole, &whole, &caption, seen);
            let xs: Vec<f64> = page.ticks.iter().map(|&(x, _)| x).collect();
            (page.plot.x0, xs)
        };
        // The window scrolls the plot past the row names pinned at its left: what it shows of
        // the plot is the window less their width.
        let (x0, phone) = ticks(Some(WINDOW));
        let shown = WINDOW - x0;
        let widest = phone.windows(2).map(|w| w[1] - w[0]).fold(0.0, f64::max);
        assert!(
            widest <= shown / 2.0,
            "{id}: ticks {widest:.0} px apart in {shown:.0} px of plot: {phone:?}"
        );
        // Their labels do not run into each other ("10.5 s" is about 40 px wide).
        assert!(
            phone.windows(2).all(|w| w[1] - w[0] >= 70.0),
            "{id}: {phone:?}"
        );
        // Across a wide window the whole run has its ten or so ticks, as before.
        let (_, wide) = ticks(None);
        assert!((3..=11).contains(&wide.len()), "{id}: {wide:?}");
    }
}
