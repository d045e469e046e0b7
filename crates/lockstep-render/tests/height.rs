//! Logical timelines compared with Mermaid's drawing of the same run: at most 0.75x its height
//! where Mermaid needs 1,300 px or more, and never taller for smaller runs.

mod common;

use lockstep_render::{Options, layout, mermaid};

/// The height of Mermaid 12.3's drawing of a `sequenceDiagram`, from its arrows and notes: fitted
/// to Mermaid's SVGs of the 19 built-in runs (measured with ../shared/bench/mermaid-bench in
/// Chromium; every estimate within 10 px).
fn mermaid_height(text: &str) -> f64 {
    let arrows = text
        .lines()
        .filter(|l| l.contains("->>") || l.contains("-x") || l.contains("-)"))
        .count();
    let notes = text.lines().filter(|l| l.contains("Note over")).count();
    254.0 + 44.0 * arrows as f64 + 50.0 * notes as f64
}

#[test]
fn logical_timelines_are_shorter_than_mermaids() {
    let mut report = Vec::new();
    let mut failures = Vec::new();
    for (id, _, run) in common::catalogue() {
        let l = layout(&run.trace, &Options::default());
        let theirs = mermaid_height(&mermaid(&run.trace, None));
        let ratio = l.height / theirs;
        let most = if theirs >= 1300.0 { 0.75 } else { 1.0 };
        let line = format!(
            "{id}: {:.0} px vs Mermaid {theirs:.0} px ({ratio:.2}x, at most {most})",
            l.height
        );
        if ratio > most {
            failures.push(line.clone());
        }
        report.push(line);
    }
    println!("{}", report.join("\n"));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn fenced_gc_pause_fits_a_slide_at_three_quarters_or_better() {
    let (scenario, run) = common::load("fenced-gc-pause");
    let l = layout(&run.trace, &Options::default());
    let page =
        lockstep_render::svg::Page::new(&l, &lockstep_render::Caption::for_run(&scenario, &run));
    let scale = (1920.0 / page.width).min(1080.0 / page.height);
    assert!(
        scale >= 0.75,
        "{}x{} fits 1920x1080 only at {scale:.2}",
        page.width,
        page.height
    );
}
