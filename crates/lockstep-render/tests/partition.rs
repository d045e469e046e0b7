//! Partition walls never contradict the arrows: no message that was delivered crosses a mark
//! saying the network is cut, over every built-in scenario, both time modes and several steps;
//! and the sides of a partition sit next to each other, so one wall separates them.

mod common;

use lockstep_render::geom::inside_length;
use lockstep_render::layout::ArrowEnd;
use lockstep_render::{Layout, Options, layout};

fn crossings(l: &Layout) -> Vec<String> {
    let mut out = Vec::new();
    // A delivered message passes only through a gate.
    for w in l.walls.iter().filter(|w| !w.gate) {
        for a in l.arrows.iter().filter(|a| a.end == ArrowEnd::Delivered) {
            let inside = inside_length(a.start, a.tip, &w.rect);
            if inside > 0.0 {
                out.push(format!(
                    "arrow {:?} (step {}) crosses the wall between {} and {} ({inside:.0} px)",
                    a.label.text,
                    a.send_row + 1,
                    l.lanes[w.lanes.0].name,
                    l.lanes[w.lanes.1].name
                ));
            }
        }
    }
    out
}

#[test]
fn no_delivered_message_crosses_a_partition_wall() {
    let mut failures = Vec::new();
    let mut walls = 0;
    common::each_layout(&[(1, 3), (1, 2), (3, 4)], |name, l| {
        walls += l.walls.len();
        for f in crossings(l) {
            failures.push(format!("{name}: {f}"));
        }
    });
    assert!(walls > 0, "no scenario draws a partition");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_sides_of_the_sentinel_split_sit_together() {
    let (_, run) = common::load("redis-sentinel-split-brain");
    let l = layout(&run.trace, &Options::default());
    let names: Vec<&str> = l.lanes.iter().map(|l| l.name.as_str()).collect();
    let at = |n: &str| names.iter().position(|x| *x == n).unwrap();
    // {A, redis} | {B, redis-replica}: each side's lanes are neighbours.
    assert_eq!(at("A").abs_diff(at("redis")), 1, "{names:?}");
    assert_eq!(at("B").abs_diff(at("redis-replica")), 1, "{names:?}");
    let pairs: std::collections::BTreeSet<(usize, usize)> =
        l.walls.iter().map(|w| w.lanes).collect();
    assert_eq!(pairs.len(), 1, "one wall between the sides: {pairs:?}");
}

#[test]
fn the_crossing_check_can_fail() {
    let (_, run) = common::load("redis-sentinel-split-brain");
    let mut l = layout(&run.trace, &Options::default());
    assert!(crossings(&l).is_empty());
    // A wall across the whole drawing is crossed by something delivered.
    let w = &mut l.walls[0];
    w.rect.y0 = 0.0;
    w.rect.y1 = l.height;
    assert!(!crossings(&l).is_empty());
}

/// Where a message to a node no group names passes, the wall has a gate, not a hole: a
/// partition's pieces and gates between two lanes touch top to bottom, so it reads as one wall
/// (the sentinel split's wall was three pieces with two holes).
#[test]
fn a_partition_is_one_unbroken_wall() {
    let mut failures = Vec::new();
    let mut gates = 0;
    common::each_layout(&[(1, 2)], |name, l| {
        let mut by_partition: std::collections::BTreeMap<(usize, (usize, usize)), Vec<_>> =
            Default::default();
        for w in &l.walls {
            by_partition
                .entry((w.from_row, w.lanes))
                .or_default()
                .push(w);
            gates += usize::from(w.gate);
        }
        for ((row, lanes), mut pieces) in by_partition {
            pieces.sort_by(|a, b| a.rect.y0.total_cmp(&b.rect.y0));
            for w in pieces.windows(2) {
                if (w[1].rect.y0 - w[0].rect.y1).abs() > 0.5 {
                    failures.push(format!(
                        "{name}: the wall of step {} between lanes {lanes:?} breaks from {:.0} to {:.0}",
                        row + 1,
                        w[0].rect.y1,
                        w[1].rect.y0
                    ));
                }
            }
        }
    });
    assert!(gates > 0, "no message passes a wall through a gate");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
