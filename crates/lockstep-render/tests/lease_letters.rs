//! An instance whose key changes hands letters every short bar with its holder, on one line:
//! redlock-split-votes' redis-1 and redis-2 went A, A, A, B, A, B, B, B with half the letters
//! missing and the second "B" a level lower (a staircase).

mod common;

use lockstep_render::lease::svg::LeasePage;
use lockstep_render::lease::{LeaseRowKind, lease_chart};
use lockstep_render::{Caption, Options};

#[test]
fn split_votes_letter_every_bar_on_one_line() {
    let (scenario, run) = common::load("redlock-split-votes");
    let chart = lease_chart(&run.trace, &Options::default());
    let caption = Caption::for_run(&scenario, &run);
    let page = LeasePage::new(&chart, &caption);
    for name in ["redis-1", "redis-2"] {
        let row = chart
            .rows
            .iter()
            .position(|r| r.label == format!("{name} holds the key for"))
            .expect("the instance's row");
        let bars: Vec<&str> = chart.rows[row]
            .intervals
            .iter()
            .filter_map(|iv| iv.who.map(|w| chart.names[w.node].as_str()))
            .collect();
        assert!(bars.contains(&"A") && bars.contains(&"B"), "{bars:?}");
        let (top, bottom) = (page.row_y[row], page.row_y[row + 1]);
        let mut letters: Vec<(f64, f64, &str)> = page
            .texts
            .iter()
            .filter(|t| matches!(t.text.text.as_str(), "A" | "B"))
            .map(|t| (t.text.rect.x0, t.text.rect.center().y, t.text.text.as_str()))
            .filter(|&(_, y, _)| top < y && y < bottom)
            .collect();
        letters.sort_by(|a, b| a.0.total_cmp(&b.0));
        let said: Vec<&str> = letters.iter().map(|l| l.2).collect();
        assert_eq!(said, bars, "{name}: letters {letters:?}");
        assert!(
            letters.iter().all(|l| (l.1 - letters[0].1).abs() < 0.5),
            "{name}: letters on more than one line: {letters:?}"
        );
    }
}

#[test]
fn an_instance_that_keeps_one_holder_says_it_once() {
    // redlock-delayed-restart: redis-4's forty short grants to B say "B" once.
    let (scenario, run) = common::load("redlock-delayed-restart");
    let chart = lease_chart(&run.trace, &Options::default());
    let caption = Caption::for_run(&scenario, &run);
    let page = LeasePage::new(&chart, &caption);
    let row = chart
        .rows
        .iter()
        .position(|r| r.kind == LeaseRowKind::Instance && r.label.starts_with("redis-4 "))
        .expect("redis-4's row");
    assert!(chart.rows[row].intervals.len() > 10);
    let (top, bottom) = (page.row_y[row], page.row_y[row + 1]);
    let bs = page
        .texts
        .iter()
        .filter(|t| t.text.text == "B")
        .filter(|t| (top..bottom).contains(&t.text.rect.center().y))
        .count();
    assert_eq!(bs, 1);
}
