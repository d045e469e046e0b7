//! What the layout means: arrows per message, spans for pauses, beliefs and the service's records,
//! to-scale proportions, and stable positions while stepping.

mod common;

use lockstep_core::trace::Tag;
use lockstep_render::layout::{ArrowEnd, HighlightKind, MarkKind, SpanKind};
use lockstep_render::{Options, TimeMode, layout};

fn scale() -> Options {
    Options {
        time_mode: TimeMode::ToScale,
        ..Options::default()
    }
}

#[test]
fn to_scale_a_10s_pause_is_twice_a_5s_ttl() {
    for id in ["fenced-gc-pause", "naive-gc-pause"] {
        let (_, run) = common::load(id);
        let l = layout(&run.trace, &scale());
        let pause = l
            .spans
            .iter()
            .find(|s| matches!(s.kind, SpanKind::Paused { .. }))
            .expect("a pause");
        let ttl = l
            .spans
            .iter()
            .find(|s| matches!(&s.kind, SpanKind::ServiceHolds { holder, .. } if holder == "A"))
            .expect("A's lock on redis");
        // Measured on the axis's parts at the picture's scale: a zoom's strip stops the clock
        // (its rows are in order, not time), so what the bars cross of zooms is left out.
        let linear = |r: &lockstep_render::geom::Rect| -> f64 {
            l.axis
                .iter()
                .filter(|p| p.kind.is_none())
                .map(|p| (p.y1.min(r.y1) - p.y0.max(r.y0)).max(0.0))
                .sum()
        };
        let ratio = linear(&pause.rect) / linear(&ttl.rect);
        assert!((1.9..2.1).contains(&ratio), "{id}: pause/ttl = {ratio}");
    }
}

/// The delayed write is one message: one slanted arrow from A's send (2004 ms) to its arrival
/// at the database (10005 ms), crossing B's whole tenure, labelled once at its start with how
/// long it flies and where it lands; no stub, no second arrow.
#[test]
fn to_scale_a_delayed_message_is_drawn_in_flight() {
    let (_, run) = common::load("naive-network-delay");
    for options in [scale(), Options::default()] {
        let l = layout(&run.trace, &options);
        let delayed: Vec<_> = l.arrows.iter().filter(|a| a.delayed_ms.is_some()).collect();
        assert_eq!(delayed.len(), 1, "one arrow for the delayed write");
        let a = delayed[0];
        assert_eq!(a.start.y, l.rows[a.send_row].y, "from its send");
        assert_eq!(
            Some(a.tip.y),
            a.end_row.map(|r| l.rows[r].y),
            "to its arrival"
        );
        assert!(a.tip.y > a.start.y + 200.0, "slanted across B's tenure");
        assert!(a.beneath, "it passes beneath the rows' labels");
        assert_eq!(
            a.label.text, "write 3 payouts — in flight 8001 ms, arrives #30",
            "labelled once, at its start"
        );
        assert!(
            l.flights.iter().all(|f| f.send_row != a.send_row),
            "no stub"
        );
        assert!(l.marks.iter().any(|m| m.kind == MarkKind::Delayed));
    }
}

#[test]
fn one_arrow_per_message_and_lost_ones_end_at_their_target() {
    for (id, _, run) in common::catalogue() {
        // Unfolded: every message has its own arrow (folding is checked in folds.rs).
        let l = layout(
            &run.trace,
            &Options {
                unfold_retries: true,
                ..Options::default()
            },
        );
        assert_eq!(
            l.arrows.len(),
            common::messages(&run.trace, usize::MAX),
            "{id}"
        );
        let lost: Vec<_> = l
            .arrows
            .iter()
            .filter(|a| a.end == ArrowEnd::Lost)
            .collect();
        assert_eq!(lost.len(), common::lost_messages(&run.trace), "{id}");
        for a in &lost {
            assert_eq!(
                a.tip.x, l.lanes[a.to_lane].x,
                "{id}: a lost message ends at its target's lane"
            );
            assert!(
                l.marks
                    .iter()
                    .any(|m| m.kind == MarkKind::Lost && m.at == a.tip && m.lane == a.to_lane),
                "{id}: the x sits on the target's lane"
            );
        }
        assert_eq!(
            l.marks.iter().filter(|m| m.kind == MarkKind::Lost).count(),
            lost.len(),
            "{id}: an x per lost message"
        );
        for a in l.arrows.iter().filter(|a| a.end == ArrowEnd::Delivered) {
            assert_eq!(
                a.tip.x, l.lanes[a.to_lane].x,
                "{id}: delivered arrows reach the receiver"
            );
            assert!(a.tip.y >= a.start.y, "{id}: arrows go down");
        }
        assert!(
            l.arrows.iter().all(|a| a.end != ArrowEnd::InFlight),
            "{id}: nothing in flight at the end"
        );
    }
}

#[test]
fn spans_follow_the_tags() {
    for (id, _, run) in common::catalogue() {
        let l = layout(&run.trace, &Options::default());
        let count = |f: fn(&Tag) -> bool| {
            run.trace
                .events
                .iter()
                .filter(|e| e.tag.as_ref().is_some_and(f))
                .count()
        };
        let spans = |f: fn(&SpanKind) -> bool| l.spans.iter().filter(|s| f(&s.kind)).count();
        assert_eq!(
            spans(|k| matches!(k, SpanKind::Paused { .. })),
            count(|t| matches!(t, Tag::Paused { .. })),
            "{id}: pauses"
        );
        assert_eq!(
            spans(|k| matches!(k, SpanKind::Believes { .. })),
            count(|t| matches!(t, Tag::Believes { .. })),
            "{id}: beliefs"
        );
        // Each grant starts a record; a new consensus leader carries the open ones over.
        let started = l
            .spans
            .iter()
            .filter(|s| matches!(s.kind, SpanKind::ServiceHolds { .. }))
            .filter(|s| {
                matches!(
                    run.trace.events[s.from_row].tag,
                    Some(Tag::ServiceGrants { .. })
                )
            })
            .count();
        assert_eq!(
            started,
            count(|t| matches!(t, Tag::ServiceGrants { .. })),
            "{id}: service records"
        );
        let carried = l
            .spans
            .iter()
            .filter(|s| matches!(s.kind, SpanKind::ServiceHolds { .. }))
            .filter(|s| matches!(run.trace.events[s.from_row].tag, Some(Tag::Leader { .. })))
            .count();
        if id == "consensus-fenced-failover" {
            assert_eq!(carried, 1, "A's lease moves to the new leader");
        }
        assert_eq!(
            spans(|k| matches!(k, SpanKind::Overlap { .. })),
            run.verdict.overlaps.len(),
            "{id}: danger zones match the verdict"
        );
        let marks = |k: MarkKind| l.marks.iter().filter(|m| m.kind == k).count();
        assert_eq!(
            marks(MarkKind::AccessRejected),
            count(|t| matches!(t, Tag::AccessRejected { .. })),
            "{id}"
        );
        assert_eq!(
            marks(MarkKind::Duplicate),
            count(|t| matches!(t, Tag::Duplicate { .. })),
            "{id}"
        );
        assert_eq!(
            marks(MarkKind::Renewed),
            count(|t| matches!(t, Tag::Renewed)),
            "{id}"
        );
        let highlights = |k: HighlightKind| l.highlights.iter().filter(|h| h.kind == k).count();
        assert_eq!(
            highlights(HighlightKind::DuplicatePayout),
            marks(MarkKind::Duplicate),
            "{id}"
        );
        assert_eq!(
            highlights(HighlightKind::RejectedAccess),
            marks(MarkKind::AccessRejected),
            "{id}"
        );
        assert_eq!(
            highlights(HighlightKind::Current),
            0,
            "{id}: no current step unless asked"
        );
        // Every span lies within its rows.
        for s in &l.spans {
            let from = l.rows[s.from_row].y;
            assert!((s.rect.y0 - from).abs() < 1e-9, "{id}: {s:?}");
            if let Some(to) = s.to_row {
                assert!(to >= s.from_row);
                assert!((s.rect.y1 - l.rows[to].y).abs() < 1e-9, "{id}: {s:?}");
            }
        }
    }
}

#[test]
fn stepping_never_moves_what_is_drawn() {
    for id in [
        "fenced-gc-pause",
        "redlock-clock-jump",
        "consensus-fenced-failover",
    ] {
        let (_, run) = common::load(id);
        for mode in [TimeMode::Logical, TimeMode::ToScale] {
            let full = layout(
                &run.trace,
                &Options {
                    time_mode: mode,
                    ..Options::default()
                },
            );
            for step in [0, 1, 7, run.trace.events.len() / 2, run.trace.events.len()] {
                let part = layout(
                    &run.trace,
                    &Options {
                        time_mode: mode,
                        upto_step: Some(step),
                        ..Options::default()
                    },
                );
                assert_eq!(part.rows.len(), step);
                for (a, b) in part.lanes.iter().zip(&full.lanes) {
                    assert_eq!((a.x, &a.header), (b.x, &b.header), "{id} step {step}");
                }
                // The same lines at the same heights (a line's gutter lists only the steps shown).
                for (a, b) in part.rows.iter().zip(&full.rows) {
                    assert_eq!(
                        (a.step, a.y, a.line, a.gutter.anchor),
                        (b.step, b.y, b.line, b.gutter.anchor),
                        "{id} step {step}"
                    );
                }
                assert_eq!(part.current, step.checked_sub(1));
                if step > 0 {
                    assert!(
                        part.highlights
                            .iter()
                            .any(|h| h.kind == HighlightKind::Current && h.row == step - 1)
                    );
                }
                // Arrows whose message arrived by then are drawn exactly as in the full picture.
                for a in part.arrows.iter().filter(|a| a.end != ArrowEnd::InFlight) {
                    assert!(full.arrows.contains(a), "{id} step {step}: {a:?}");
                }
            }
        }
    }
}

#[test]
fn a_message_in_flight_stops_at_the_current_row() {
    let (_, run) = common::load("fenced-gc-pause");
    // Step 1 is A's SET; step 2 delivers it.
    let l = layout(
        &run.trace,
        &Options {
            upto_step: Some(1),
            ..Options::default()
        },
    );
    assert_eq!(l.arrows.len(), 1);
    let a = &l.arrows[0];
    assert_eq!(a.end, ArrowEnd::InFlight);
    assert!(a.tip.x > a.start.x && a.tip.x < l.lanes[a.to_lane].x);
    assert!(l.marks.iter().any(|m| m.kind == MarkKind::InFlight));
    let l2 = layout(
        &run.trace,
        &Options {
            upto_step: Some(2),
            ..Options::default()
        },
    );
    assert_eq!(l2.arrows[0].end, ArrowEnd::Delivered);
}

#[test]
fn a_step_past_the_end_is_clamped_by_the_layout() {
    let (_, run) = common::load("naive-happy-path");
    let n = run.trace.events.len();
    let l = layout(
        &run.trace,
        &Options {
            upto_step: Some(n + 50),
            ..Options::default()
        },
    );
    assert_eq!(l.rows.len(), n);
    assert_eq!(l.current, Some(n - 1));
}

#[test]
fn workers_sit_around_the_lock_service() {
    let (_, run) = common::load("fenced-gc-pause");
    let l = layout(&run.trace, &Options::default());
    let names: Vec<&str> = l.lanes.iter().map(|l| l.name.as_str()).collect();
    assert_eq!(names, ["A", "redis", "B", "db"]);
    assert!(l.lanes.windows(2).all(|w| w[0].x < w[1].x));
    let traced = layout(
        &run.trace,
        &Options {
            lane_order: lockstep_render::layout::LaneOrder::AsTraced,
            ..Options::default()
        },
    );
    let names: Vec<&str> = traced.lanes.iter().map(|l| l.name.as_str()).collect();
    assert_eq!(names, ["A", "B", "redis", "db"]);
}

#[test]
fn empty_trace_lays_out() {
    let trace = lockstep_core::Trace::default();
    let l = layout(&trace, &Options::default());
    assert!(l.rows.is_empty() && l.lanes.is_empty());
    assert!(l.width > 0.0 && l.height > 0.0);
    let svg = lockstep_render::timeline_svg(
        &trace,
        &lockstep_render::Caption::titled("empty"),
        &Options::default(),
    )
    .expect("draws");
    assert!(roxmltree::Document::parse(&svg).is_ok());
}

/// Each line's y and the time of its first event, top to bottom (lines with events).
fn lines(l: &lockstep_render::Layout) -> Vec<(f64, u64)> {
    let mut out: Vec<(f64, u64)> = Vec::new();
    let count = l.rows.iter().map(|r| r.line + 1).max().unwrap_or(0);
    for line in 0..count {
        // Lines left empty (room made for a slanted arrow) have no time.
        let on: Vec<_> = l.rows.iter().filter(|r| r.line == line).collect();
        if let Some(t) = on.iter().map(|r| r.time_ms).min() {
            out.push((on[0].y, t));
        }
    }
    out
}

#[test]
fn to_scale_one_second_is_the_same_length_everywhere() {
    // Between two lines: exactly their time apart on the picture's one scale; or one pitch when
    // the time is too short to fit the labels (a burst, pushed apart); or a marked axis break
    // for a long idle stretch.
    for (id, _, run) in common::catalogue() {
        let l = layout(&run.trace, &scale());
        assert!(l.ms_scale > 0.0, "{id}");
        let mut exact = 0;
        for w in lines(&l).windows(2) {
            let ((y0, t0), (y1, t1)) = (w[0], w[1]);
            assert!(y1 > y0, "{id}: lines out of order: {w:?}");
            // A zoom's band reaches a little past its first and last lines (room, not time),
            // and the axis runs on from its last time.
            let zooms = || {
                l.stretches
                    .iter()
                    .filter(|s| s.kind == lockstep_render::layout::StretchKind::Zoom)
            };
            // (A zoom's rows are drawn over the time after its burst: the axis takes up again
            // at the band's bottom at its `resume_ms`.)
            let t0 = zooms()
                .find(|s| s.y1 == y0)
                .map_or(t0, |s| s.resume_ms.max(t0));
            // (A lifted band's top is before its first time: the axis reaches it at `top_ms`.)
            let t1 = zooms()
                .find(|s| s.y0 == y1)
                .map_or(t1, |s| s.top_ms.min(t1));
            let want = t1.saturating_sub(t0) as f64 * l.ms_scale;
            let pads: f64 = zooms()
                .map(|s| {
                    let after = if s.y1 == y0 { s.band.1 - s.y1 } else { 0.0 };
                    let before = if s.y0 == y1 { s.y0 - s.band.0 } else { 0.0 };
                    after + before
                })
                .sum();
            let gap = y1 - y0 - pads;
            if (gap - want).abs() < 1e-6 {
                exact += 1;
            } else {
                // A line's time here is its earliest event's; a burst's rows go in order, a
                // line apart, not to scale.
                assert!(
                    want < gap + 0.5
                        || l.stretches.iter().any(|s| {
                            s.kind != lockstep_render::layout::StretchKind::Stack
                                && s.y0 < y1
                                && s.y1 > y0
                        }),
                    "{id}: lines at {t0} and {t1} ms are {gap} px apart, not {want}"
                );
            }
        }
        assert!(exact > 0, "{id}: no gap drawn to scale");
        // Ticks are in time order and in y order.
        assert!(
            l.ticks
                .windows(2)
                .all(|w| w[0].time_ms < w[1].time_ms && w[0].y <= w[1].y),
            "{id}"
        );
        let logical = layout(&run.trace, &Options::default());
        assert!(logical.ticks.is_empty() && logical.ms_scale == 0.0);
    }
}

#[test]
fn odd_traces_lay_out_without_panicking() {
    use lockstep_core::trace::TraceEvent;
    let (_, run) = common::load("naive-gc-pause");
    let mut trace = run.trace.clone();
    let ev = |kind, from, to, message, label: &str| TraceEvent {
        time_ms: 20_000,
        kind,
        from,
        to,
        message,
        label: label.into(),
        explanation: String::new(),
        tag: None,
    };
    use lockstep_core::EventKind::*;
    trace.events.extend([
        // A delivery whose send is not in the trace, a send without an id, a node that does not
        // exist, a message id used twice, a note from nowhere.
        ev(Deliver, 0, 3, Some(9_999), "orphan delivery"),
        ev(Send, 1, 3, None, "no id"),
        ev(Send, 0, 99, Some(10_000), "to nobody"),
        ev(Send, 0, 2, Some(1), "reused id"),
        ev(Note, 77, 77, None, "from nowhere"),
    ]);
    for mode in [TimeMode::Logical, TimeMode::ToScale] {
        for upto in [None, Some(trace.events.len() - 2)] {
            let options = Options {
                time_mode: mode,
                upto_step: upto,
                ..Options::default()
            };
            let l = layout(&trace, &options);
            assert!(l.overlapping_labels().is_empty());
            let svg = lockstep_render::timeline_svg(
                &trace,
                &lockstep_render::Caption::titled("odd"),
                &options,
            )
            .expect("draws");
            assert!(roxmltree::Document::parse(&svg).is_ok());
            assert!(
                lockstep_render::lease_svg(
                    &trace,
                    &lockstep_render::Caption::titled("odd"),
                    &options
                )
                .is_ok()
            );
        }
    }
    let text = lockstep_render::mermaid(&trace, None);
    assert!(
        text.contains("orphan delivery") && text.contains("no id") && !text.contains("to nobody")
    );
}

#[test]
fn to_scale_bursts_are_marked_zooms_and_idle_stretches_marked_breaks() {
    use lockstep_render::layout::StretchKind;
    let (_, run) = common::load("fenced-gc-pause");
    let l = layout(&run.trace, &scale());
    // The burst of B's steps around 6000 ms is drawn in order: a marked band of a few ms.
    assert!(
        l.stretches.iter().any(|s| s.kind == StretchKind::Zoom
            && s.from_ms >= 6000
            && s.to_ms <= 6010
            && s.label
                .as_ref()
                .is_some_and(|t| t.text == "zoom: 6000–6004 ms,\nin order")),
        "{:?}",
        l.stretches
    );
    // No break: A's pause is the story, drawn at its length.
    assert!(l.stretches.iter().all(|s| s.kind != StretchKind::Break));
    // A run with 30 s of nothing: the axis breaks there instead of drawing 30 s of white.
    let (_, happy) = common::load("naive-happy-path");
    let mut trace = happy.trace.clone();
    let cut = trace
        .events
        .iter()
        .position(|e| e.time_ms >= 2000)
        .expect("the write comes after 2 s");
    for e in &mut trace.events[cut..] {
        e.time_ms += 30_000;
    }
    let l = layout(&trace, &scale());
    let breaks: Vec<_> = l
        .stretches
        .iter()
        .filter(|s| s.kind == StretchKind::Break)
        .collect();
    assert_eq!(breaks.len(), 1, "{:?}", l.stretches);
    // All of the 30 s but the time the burst before it is drawn over.
    assert!(
        breaks[0].to_ms - breaks[0].from_ms >= 29_000,
        "{:?}",
        breaks[0]
    );
    assert!(breaks[0].y1 - breaks[0].y0 < 100.0);
    assert!(l.overlapping_labels().is_empty());
}

#[test]
fn accepted_writes_with_a_token_show_the_databases_last_token() {
    let mut seen = 0;
    for (id, _, run) in common::catalogue() {
        let l = layout(&run.trace, &Options::default());
        for a in &l.arrows {
            if let Some(Tag::WriteAccepted { token: Some(t), .. }) =
                &run.trace.events[a.send_row].tag
            {
                seen += 1;
                let shown: u64 = a
                    .label
                    .text
                    .split("last_token=")
                    .nth(1)
                    .and_then(|s| s.parse().ok())
                    .unwrap_or_else(|| panic!("{id}: {:?} has no last_token", a.label.text));
                assert!(
                    shown >= *t,
                    "{id}: last_token {shown} below the write's {t}"
                );
            }
        }
    }
    assert!(seen > 0, "some scenario writes with a token");
}

/// Fencing every access: B's read with token 34 raises the database's `last_token`, which is
/// why A's later 33 is refused; the reply to that read (db -> B) says so, and a read under
/// fencing on writes only says nothing.
#[test]
fn a_read_that_raises_last_token_says_so_on_its_own_reply() {
    let label_of = |id: &str, to: &str| -> Vec<String> {
        let (_, _, run) = common::catalogue()
            .into_iter()
            .find(|(i, _, _)| i == id)
            .unwrap_or_else(|| panic!("{id} in the catalogue"));
        let l = layout(&run.trace, &Options::default());
        l.arrows
            .iter()
            .filter(|a| {
                let e = &run.trace.events[a.send_row];
                run.trace.name(e.from) == "db" && run.trace.name(e.to) == to
            })
            .map(|a| a.label.text.clone())
            .filter(|t| t.starts_with("status:"))
            .collect()
    };
    assert_eq!(
        label_of("fenced-every-access", "B"),
        vec!["status: unpaid · db last_token=34"]
    );
    assert_eq!(
        label_of("fenced-every-access", "A"),
        vec!["status: unpaid · db last_token=33"]
    );
    for to in ["A", "B"] {
        for label in label_of("fenced-gc-pause", to) {
            assert!(
                !label.contains("last_token"),
                "writes-only fencing: {label}"
            );
        }
    }
}

#[test]
fn a_promoted_replica_says_so_at_the_bottom() {
    let mut seen = 0;
    for (id, _, run) in common::catalogue() {
        let l = layout(&run.trace, &Options::default());
        for e in run
            .trace
            .events
            .iter()
            .filter(|e| matches!(e.tag, Some(Tag::FailedOver)))
        {
            let name = run.trace.name(e.from);
            let lane = l.lanes.iter().find(|l| l.name == name).expect("a lane");
            assert_eq!(lane.footer[1].text, "master (promoted)", "{id}");
            seen += 1;
        }
    }
    assert!(seen > 0, "a failover scenario in the catalogue");
}

#[test]
fn a_write_that_paid_twice_gets_no_accepted_check() {
    let (_, run) = common::load("naive-network-delay");
    let l = layout(&run.trace, &Options::default());
    let accepted = run
        .trace
        .events
        .iter()
        .filter(|e| matches!(e.tag, Some(Tag::WriteAccepted { .. })))
        .count();
    let checks = l
        .marks
        .iter()
        .filter(|m| m.kind == MarkKind::WriteAccepted)
        .count();
    // Two writes applied, one of them paid every payout a second time.
    assert_eq!((accepted, checks), (2, 1));
}
