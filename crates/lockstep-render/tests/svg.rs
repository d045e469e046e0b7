//! The SVG is well-formed XML with one lifeline per participant and one arrow per message.

mod common;

use lockstep_render::style::{self, ARROW_STROKE, LIFELINE_STROKE};
use lockstep_render::{
    Caption, Options, RenderError, TimeMode, layout, lease_svg, run_svg, timeline_svg,
};

/// Counts `<polyline>` elements with this stroke colour (if given) and width.
fn polylines(doc: &roxmltree::Document, stroke: Option<&str>, width: u32) -> usize {
    let w = width.to_string();
    doc.descendants()
        .filter(|n| n.has_tag_name("polyline"))
        .filter(|n| n.attribute("stroke-width") == Some(w.as_str()))
        .filter(|n| stroke.is_none_or(|s| n.attribute("stroke") == Some(s)))
        .count()
}

#[test]
fn every_scenario_has_its_lifelines_and_arrows() {
    let lifeline = style::LIFELINE.hex();
    for (id, scenario, run) in common::catalogue() {
        for mode in [TimeMode::Logical, TimeMode::ToScale] {
            // Unfolded: every message has its own arrow (folding is checked in folds.rs).
            let options = Options {
                time_mode: mode,
                unfold_retries: true,
                ..Options::default()
            };
            let svg = run_svg(&scenario, &run, &options).expect("draws");
            let doc = roxmltree::Document::parse(&svg)
                .unwrap_or_else(|e| panic!("{id} {mode:?}: not XML: {e}"));
            assert_eq!(doc.root_element().tag_name().name(), "svg");
            assert_eq!(
                polylines(&doc, Some(&lifeline), LIFELINE_STROKE),
                run.trace.participants.len(),
                "{id} {mode:?}: lifelines"
            );
            let messages = common::messages(&run.trace, usize::MAX);
            assert!(messages > 0, "{id}: no messages");
            assert_eq!(
                polylines(&doc, None, ARROW_STROKE),
                messages,
                "{id} {mode:?}: arrows"
            );
            assert_eq!(layout(&run.trace, &options).arrows.len(), messages);
            // Every participant's name is written (in its header and footer).
            let texts: Vec<&str> = doc
                .descendants()
                .filter(|n| n.has_tag_name("text"))
                .filter_map(|n| n.text().map(str::trim))
                .collect();
            for p in &run.trace.participants {
                assert!(
                    texts.iter().filter(|t| **t == p.name).count() >= 2,
                    "{id}: lane {} not labelled",
                    p.name
                );
            }
            assert!(texts.join(" ").contains(&scenario.title), "{id}: no title");
        }
    }
}

#[test]
fn a_partial_run_draws_only_the_messages_sent_so_far() {
    let (scenario, run) = common::load("naive-network-delay");
    let total = run.trace.events.len();
    for step in [0, 1, 2, total / 2, total - 1, total] {
        let options = Options {
            upto_step: Some(step),
            ..Options::default()
        };
        let svg = run_svg(&scenario, &run, &options).expect("draws");
        let doc = roxmltree::Document::parse(&svg).expect("XML");
        let sends = run.trace.events[..step]
            .iter()
            .filter(|e| e.kind == lockstep_core::EventKind::Send)
            .count();
        assert_eq!(polylines(&doc, None, ARROW_STROKE), sends, "step {step}");
        if step > 0 {
            let label = &run.trace.events[step - 1].label;
            assert!(
                svg.contains(&format!("Step {step} of {total}")),
                "step {step}: no caption for the current step ({label})"
            );
        }
    }
}

#[test]
fn a_step_past_the_end_is_an_error() {
    let (scenario, run) = common::load("fenced-gc-pause");
    let steps = run.trace.events.len();
    let options = Options {
        upto_step: Some(steps + 1),
        ..Options::default()
    };
    let caption = Caption::for_run(&scenario, &run);
    let expected = RenderError::StepOutOfRange {
        step: steps + 1,
        steps,
    };
    assert_eq!(
        timeline_svg(&run.trace, &caption, &options),
        Err(expected.clone())
    );
    assert_eq!(lease_svg(&run.trace, &caption, &options), Err(expected));
    let at_end = Options {
        upto_step: Some(steps),
        ..Options::default()
    };
    assert!(timeline_svg(&run.trace, &caption, &at_end).is_ok());
}

#[test]
fn lease_charts_are_xml_with_a_bar_per_interval() {
    for (id, scenario, run) in common::catalogue() {
        let options = Options::default();
        let svg =
            lease_svg(&run.trace, &Caption::for_run(&scenario, &run), &options).expect("draws");
        let doc = roxmltree::Document::parse(&svg).unwrap_or_else(|e| panic!("{id}: not XML: {e}"));
        let chart = lockstep_render::lease_chart(&run.trace, &options);
        let intervals: usize = chart.rows.iter().map(|r| r.intervals.len()).sum();
        let rects = doc.descendants().filter(|n| n.has_tag_name("rect")).count();
        assert!(
            rects >= intervals,
            "{id}: {rects} rects for {intervals} intervals"
        );
        assert_eq!(
            chart.danger.len(),
            run.verdict.overlaps.len(),
            "{id}: danger zones"
        );
    }
}

#[test]
fn a_dashed_line_is_one_element_with_a_dash_pattern() {
    // In-flight stubs, flight legend swatches and a permissive database's header are dashed; drawn
    // a `<polyline>` per dash, redlock-split-votes was 475 KB (133 KB as one element each).
    let mut dashed = 0;
    for (id, scenario, run) in common::catalogue() {
        for mode in [TimeMode::Logical, TimeMode::ToScale] {
            let options = Options {
                time_mode: mode,
                ..Options::default()
            };
            let svg = run_svg(&scenario, &run, &options).expect("draws");
            let doc = roxmltree::Document::parse(&svg).expect("XML");
            for n in doc.descendants().filter(|n| n.has_tag_name("polyline")) {
                let width = n.attribute("stroke-width").unwrap_or("1");
                assert!(
                    width.parse::<u32>().is_ok_and(|w| w <= 16),
                    "{id} {mode:?}: a reserved stroke width {width} was left in"
                );
                if n.attribute("stroke-dasharray").is_some() {
                    dashed += 1;
                    assert_eq!(width, "2", "{id} {mode:?}: a dashed line is 2 px");
                }
            }
        }
    }
    assert!(dashed > 100, "only {dashed} dashed lines in the catalogue");
    let (_, scenario, run) = common::catalogue()
        .into_iter()
        .find(|(id, _, _)| id == "redlock-split-votes")
        .expect("in the catalogue");
    let svg = run_svg(&scenario, &run, &Options::default()).expect("draws");
    assert!(
        svg.len() < 200_000,
        "redlock-split-votes: {} bytes",
        svg.len()
    );
}
