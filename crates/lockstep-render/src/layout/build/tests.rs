//! What a step render shows of rounds and messages in flight: only what has happened by then.

use crate::layout::{Options, TimeMode, layout, pieces};
use lockstep_core::catalogue;

/// At every step, a round's label names none of the nodes whose part in it is still to
/// come, and counts no more of them than have been sent.
#[test]
fn a_round_label_names_only_the_members_sent_so_far() {
    for id in [
        "redlock-split-votes",
        "redlock-happy-path",
        "redlock-gc-pause",
    ] {
        let scenario = catalogue::load(id).unwrap().unwrap();
        let trace = lockstep_core::run(&scenario).trace;
        let leader = pieces::groups(&trace.events);
        let mut checked = 0;
        for mode in [TimeMode::Logical, TimeMode::ToScale] {
            for n in 1..=trace.events.len().min(120) {
                let at_n = layout(
                    &trace,
                    &Options {
                        time_mode: mode,
                        upto_step: Some(n),
                        ..Options::default()
                    },
                );
                for a in at_n.arrows.iter().filter(|a| !a.label.text.is_empty()) {
                    let Some(g) = a.group else { continue };
                    let members: Vec<usize> = (0..trace.events.len())
                        .filter(|&i| leader[i] == Some(g))
                        .collect();
                    let first = &trace.events[g];
                    let fan_out = members.iter().all(|&m| trace.events[m].from == first.from);
                    let name = |m: usize| {
                        let e = &trace.events[m];
                        trace.name(if fan_out { e.to } else { e.from }).to_string()
                    };
                    let sent: Vec<String> = members
                        .iter()
                        .filter(|&&m| m < n)
                        .map(|&m| name(m))
                        .collect();
                    let text = a.label.one_line();
                    for m in members.iter().filter(|&&m| m >= n) {
                        let later = name(*m);
                        assert!(
                            sent.contains(&later) || !text.contains(&later),
                            "{id} {mode:?} step {n}: '{text}' names {later}, sent at #{}",
                            m + 1
                        );
                    }
                    if let Some(k) = text
                        .split(['×', '→'])
                        .nth(1)
                        .and_then(|t| t.split_whitespace().next()?.parse::<usize>().ok())
                    {
                        assert!(k <= sent.len(), "{id} step {n}: '{text}' counts {k}");
                    }
                    checked += usize::from(members.iter().any(|&m| m >= n));
                }
            }
        }
        assert!(
            checked > 10,
            "{id}: only {checked} rounds looked at mid-way"
        );
    }
}

/// A round's later member, still in the network, says on its own row what it carries:
/// redlock-split-votes #34 and #36 (redis-4's and redis-5's "(nil)" to A, answered on #32's
/// round) were bare stubs.
#[test]
fn a_round_member_in_flight_says_what_it_carries() {
    // At #34 the round is not yet complete: its member's stub still says only its own words.
    for (step, sends) in [(34, &[33][..]), (36, &[33, 35][..])] {
        let at = logical_at("redlock-split-votes", step);
        for &send in sends {
            let a = at.arrows.iter().find(|a| a.send_row == send).unwrap();
            assert_eq!(a.end, crate::layout::ArrowEnd::InFlight, "#{}", send + 1);
            assert_eq!(
                a.label.text,
                "(nil): key exists",
                "at {step}, #{}",
                send + 1
            );
        }
    }
}

/// A message in flight on its send's line, past other lanes, stops just short of its
/// receiver: halfway, its ring sat by redis-1 although A's SET (#5) was for redis-2.
#[test]
fn a_level_message_in_flight_stops_by_its_receiver_not_by_a_lane_between() {
    let at_5 = logical_at("redlock-gc-pause", 5);
    let a = at_5.arrows.iter().find(|a| a.send_row == 4).unwrap();
    assert_eq!(a.end, crate::layout::ArrowEnd::InFlight);
    assert_eq!(a.tip.y, a.start.y, "level");
    let x = |name: &str| at_5.lanes.iter().find(|l| l.name == name).unwrap().x;
    assert!(
        (x("redis-2") - a.tip.x).abs() < 40.0,
        "tip {} by redis-2 at {}",
        a.tip.x,
        x("redis-2")
    );
    assert!(
        (x("redis-1") - a.tip.x).abs() > 60.0,
        "tip {} by redis-1 at {}",
        a.tip.x,
        x("redis-1")
    );
}

/// Scenario `id`'s run laid out in logical time up to step `n`.
fn logical_at(id: &str, n: usize) -> crate::layout::Layout {
    let scenario = catalogue::load(id).unwrap().unwrap();
    let trace = lockstep_core::run(&scenario).trace;
    let options = Options {
        upto_step: Some(n),
        ..Options::default()
    };
    layout(&trace, &options)
}
