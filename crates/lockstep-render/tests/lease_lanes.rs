//! The lease chart's node and database lanes: lost answers, forgotten keys, tokens clear of marks,
//! a permissive database's tokenless writes and clock jumps longer than the axis.

mod common;

use lockstep_render::geom::Rect;
use lockstep_render::lease::lease_chart;
use lockstep_render::lease::nodes::NodeShape;
use lockstep_render::lease::svg::LeasePage;
use lockstep_render::{Caption, Options};

#[test]
fn the_database_lane_tells_lost_answers_and_forgotten_keys() {
    let (scenario, run) = common::load("idempotency-key-expired");
    let caption = Caption::for_run(&scenario, &run);
    let chart = lease_chart(&run.trace, &Options::default());
    let page = LeasePage::new(&chart, &caption);
    let texts: Vec<&str> = page.texts.iter().map(|t| t.text.text.as_str()).collect();
    for want in ["dropped: applied 3", "3 idempotency keys forgotten", "db"] {
        assert!(texts.contains(&want), "no {want:?} in {texts:?}");
    }
    assert!(
        page.node_shapes
            .iter()
            .any(|s| matches!(s, NodeShape::Lost(_))),
        "the lost answer has no X"
    );
}

#[test]
fn a_token_is_never_written_under_a_mark() {
    // consensus-session-suspended: B's session keepalive renews right where B's grant starts.
    for (id, scenario, run) in common::catalogue() {
        let caption = Caption::for_run(&scenario, &run);
        let page = LeasePage::new(&lease_chart(&run.trace, &Options::default()), &caption);
        for t in page.texts.iter().filter(|t| t.text.bold) {
            for &(_, at) in &page.marks {
                let mark = Rect::new(at.x - 11.0, at.y - 11.0, at.x + 11.0, at.y + 11.0);
                assert!(
                    !t.text.rect.overlaps(&mark),
                    "{id}: token {:?} under a mark at {at:?}",
                    t.text.text
                );
            }
        }
    }
}

#[test]
fn a_write_a_permissive_database_took_without_a_token_says_so() {
    let (scenario, run) = common::load("migration-wrong-order");
    let svg = lockstep_render::run_lease_svg(&scenario, &run, &Options::default()).expect("draws");
    assert!(svg.contains("db took it: NO TOKEN"), "no NO TOKEN label");
    assert!(svg.contains("db took token 33"), "no token on B's write");
    let (scenario, run) = common::load("naive-gc-pause");
    let svg = lockstep_render::run_lease_svg(&scenario, &run, &Options::default()).expect("draws");
    assert!(!svg.contains("NO TOKEN"));
}

#[test]
fn a_clock_jump_longer_than_the_axis_is_a_short_broken_arrow_not_in_danger_red() {
    let (scenario, run) = common::load("redlock-clock-jump");
    let caption = Caption::for_run(&scenario, &run);
    let page = LeasePage::new(&lease_chart(&run.trace, &Options::default()), &caption);
    let jump = page.node_shapes.iter().find_map(|s| match *s {
        NodeShape::Jump { from, to, off_axis } => Some((from, to, off_axis)),
        _ => None,
    });
    let (from, to, off_axis) = jump.expect("a clock jump");
    assert!(off_axis, "a 20 s leap on a 5.3 s axis drawn to scale");
    assert!(
        to.x > from.x && to.x - from.x <= 80.0,
        "the arrow runs {} px, like a process",
        to.x - from.x
    );
    assert!(
        page.texts
            .iter()
            .any(|t| t.text.text.contains("+20 s") && t.text.text.contains("off the axis")),
        "no '+20 s … off the axis' label"
    );
    let svg = lockstep_render::run_lease_svg(&scenario, &run, &Options::default()).expect("draws");
    let arrow = format!("{},{}", to.x.round(), to.y.round());
    let polygon = svg
        .lines()
        .find(|l| l.starts_with("<polygon") && l.contains(&arrow))
        .expect("the jump's arrow head");
    assert!(
        !polygon.contains(&lockstep_render::style::DANGER.hex()),
        "the jump is danger red: {polygon}"
    );
}
