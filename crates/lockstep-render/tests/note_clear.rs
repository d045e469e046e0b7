//! A node's note keeps clear of a neighbouring worker's lifeline and belief bar, so it never
//! reads as the worker's: naive-network-delay's "lock:batch-42 expired (A's TTL ran out)", a
//! note on redis's lane, lay against A's bar. Giving it room costs width, not a line.

mod common;

use lockstep_core::topology::Role;
use lockstep_render::{Options, layout};

/// How far a note on another lane keeps from a worker's lifeline (its bar reaches 14 px).
const WORKER_CLEAR: f64 = 40.0;

#[test]
fn the_expiry_note_in_naive_network_delay_is_off_as_lane() {
    let (_, run) = common::load("naive-network-delay");
    let l = layout(&run.trace, &Options::default());
    let lane_x = |name: &str| l.lanes.iter().find(|lane| lane.name == name).expect(name).x;
    let note = l
        .notes
        .iter()
        .find(|n| n.text.text.contains("expired"))
        .expect("the expiry note");
    assert!(
        note.rect.x0 >= lane_x("A") + WORKER_CLEAR,
        "the note starts at {}, A's lifeline is at {}",
        note.rect.x0,
        lane_x("A")
    );
    assert!(note.rect.x0 < lane_x("redis") && lane_x("redis") < note.rect.x1);
}

#[test]
fn no_node_note_lies_against_a_workers_lifeline() {
    common::each_layout(&[(1, 2)], |name, l| {
        for n in l.notes.iter().filter(|n| n.lanes.0 == n.lanes.1) {
            if l.lanes[n.lanes.0].role == Role::Worker {
                continue;
            }
            for (k, lane) in l.lanes.iter().enumerate() {
                if k == n.lanes.0 || lane.role != Role::Worker {
                    continue;
                }
                let gap = (lane.x - n.rect.x1).max(n.rect.x0 - lane.x);
                assert!(
                    gap >= WORKER_CLEAR - 0.5,
                    "{name}: {:?} comes within {gap:.0} px of {}'s lifeline",
                    n.text.text,
                    lane.name
                );
            }
        }
    });
}
