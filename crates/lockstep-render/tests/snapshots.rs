//! Snapshots of the layout (lanes, rows, arrows, notes, spans, marks as compact text) for key
//! scenarios in both time modes, and one partial run.

mod common;

use lockstep_render::{Options, TimeMode, layout};

fn snap(id: &str, mode: TimeMode, upto_step: Option<usize>) -> String {
    let (_, run) = common::load(id);
    let options = Options {
        time_mode: mode,
        upto_step,
        ..Options::default()
    };
    layout(&run.trace, &options).describe()
}

#[test]
fn fenced_gc_pause() {
    insta::assert_snapshot!(
        "fenced-gc-pause-logical",
        snap("fenced-gc-pause", TimeMode::Logical, None)
    );
    insta::assert_snapshot!(
        "fenced-gc-pause-to-scale",
        snap("fenced-gc-pause", TimeMode::ToScale, None)
    );
}

#[test]
fn naive_gc_pause() {
    insta::assert_snapshot!(
        "naive-gc-pause-logical",
        snap("naive-gc-pause", TimeMode::Logical, None)
    );
    insta::assert_snapshot!(
        "naive-gc-pause-to-scale",
        snap("naive-gc-pause", TimeMode::ToScale, None)
    );
}

#[test]
fn consensus_fenced_failover() {
    insta::assert_snapshot!(
        "consensus-fenced-failover-logical",
        snap("consensus-fenced-failover", TimeMode::Logical, None)
    );
    insta::assert_snapshot!(
        "consensus-fenced-failover-to-scale",
        snap("consensus-fenced-failover", TimeMode::ToScale, None)
    );
}

#[test]
fn naive_gc_pause_while_a_is_paused() {
    // Step 13: B's SET has reached redis while A is still frozen.
    insta::assert_snapshot!(
        "naive-gc-pause-step-13",
        snap("naive-gc-pause", TimeMode::Logical, Some(13))
    );
}

#[test]
fn redlock_fan_outs_share_a_line_and_a_label() {
    insta::assert_snapshot!(
        "redlock-happy-path-logical",
        snap("redlock-happy-path", TimeMode::Logical, None)
    );
}
