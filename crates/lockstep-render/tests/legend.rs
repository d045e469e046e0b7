//! The timeline's legend explains every kind of thing the picture draws, and only those: a
//! permissive database's header, a fold, a partition banner, fault notes, row tints, the danger
//! band, in-flight stubs, lost messages, NO TOKEN labels, zooms and breaks of the time axis; and a
//! replica the run promotes says so in its header.

mod common;

use std::collections::BTreeSet;

use lockstep_render::layout::{
    ArrowEnd, HighlightKind, LegendKind, NoteKind, SpanKind, StretchKind, Tone,
};
use lockstep_render::{Layout, Options, TimeMode, layout};

/// A legend kind as a sortable name ("Mark(Lost)").
fn name(k: LegendKind) -> String {
    format!("{k:?}")
}

/// What `l` draws, read from the layout itself (not from the legend code).
fn drawn(l: &Layout) -> BTreeSet<String> {
    let mut out = Vec::new();
    for s in &l.spans {
        out.push(match s.kind {
            SpanKind::Believes { .. } => LegendKind::Believes,
            SpanKind::ServiceHolds { .. } => LegendKind::ServiceHolds,
            SpanKind::Overlap { .. } => LegendKind::Overlap,
            SpanKind::Paused { .. } => LegendKind::Paused,
            SpanKind::Down => LegendKind::Down,
        });
    }
    for h in &l.highlights {
        out.push(match h.kind {
            HighlightKind::RejectedAccess => LegendKind::RefusedRow,
            HighlightKind::DuplicatePayout => LegendKind::DuplicateRow,
            HighlightKind::Current => LegendKind::Current,
        });
    }
    // A session keepalive is drawn hollow, with its own entry.
    out.extend(l.marks.iter().map(|m| {
        if m.session {
            LegendKind::SessionRenewed
        } else {
            LegendKind::Mark(m.kind)
        }
    }));
    if !l.walls.is_empty() {
        out.push(LegendKind::Partition);
    }
    if !l.jumps.is_empty() {
        out.push(LegendKind::ClockJump);
    }
    if l.lanes.iter().any(|lane| lane.is_permissive_db()) {
        out.push(LegendKind::PermissiveDb);
    }
    // A fold's note sits on the row of its first folded event.
    for f in &l.folds {
        let on_its_row = l
            .notes
            .iter()
            .any(|n| l.rows.get(n.row).is_some_and(|r| r.event == f.first));
        if on_its_row {
            out.push(LegendKind::Fold);
        }
    }
    let fold_texts: BTreeSet<&str> = l.folds.iter().map(|f| f.text.as_str()).collect();
    for n in &l.notes {
        match n.kind {
            NoteKind::Global => out.push(LegendKind::GlobalNote),
            NoteKind::Fault => out.push(LegendKind::FaultNote),
            // The duplicate's red box and folds have entries of their own; the others are
            // edged in a worker's colour (a belief) or grey.
            NoteKind::State | NoteKind::Note
                if !n.emphasis && !fold_texts.contains(n.text.text.as_str()) =>
            {
                out.push(match n.tone {
                    Some(Tone::Worker(_)) => LegendKind::HolderNote,
                    _ => LegendKind::PlainNote,
                })
            }
            NoteKind::State | NoteKind::Note => {}
        }
    }
    if l.arrows.iter().any(|a| a.label.text.ends_with("NO TOKEN")) {
        out.push(LegendKind::NoToken);
    }
    if !l.flights.is_empty() {
        out.push(LegendKind::FlightStub);
    }
    if l.walls.iter().any(|w| w.gate) {
        out.push(LegendKind::Gate);
    }
    if l.arrows
        .iter()
        .any(|a| a.end != ArrowEnd::InFlight && a.start.y != a.tip.y)
    {
        out.push(LegendKind::Slanted);
    }
    if l.rows.iter().any(|r| r.gutter.text.contains(',')) {
        out.push(LegendKind::StepList);
    }
    if l.arrows.iter().any(|a| a.end == ArrowEnd::InFlight) {
        out.push(LegendKind::Mark(
            lockstep_render::layout::MarkKind::InFlight,
        ));
    }
    for s in &l.stretches {
        out.push(match s.kind {
            StretchKind::Zoom => LegendKind::Zoom,
            StretchKind::Stack => LegendKind::Stack,
            StretchKind::Break => LegendKind::Break,
        });
    }
    out.into_iter().map(name).collect()
}

fn legend(l: &Layout) -> BTreeSet<String> {
    l.legend.iter().map(|e| name(e.kind)).collect()
}

#[test]
fn the_legend_names_exactly_what_the_picture_draws() {
    let mut seen: BTreeSet<String> = BTreeSet::new();
    for (id, scenario, run) in common::catalogue() {
        let total = run.trace.events.len();
        for mode in [TimeMode::Logical, TimeMode::ToScale] {
            let options = Options {
                time_mode: mode,
                ..Options::default().for_scenario(&scenario)
            };
            let full = layout(&run.trace, &options);
            let (drawn_full, legend_full) = (drawn(&full), legend(&full));
            assert_eq!(
                legend_full, drawn_full,
                "{id} {mode:?}: legend (left) and drawn kinds (right) differ"
            );
            seen.extend(drawn_full.iter().cloned());
            // A step render's legend names exactly what the step draws: nothing of the run's
            // later steps (a presenter clicking through must not meet entries for things not
            // yet on the slide), and no entry comes and goes but "message still in the
            // network", there only while one is drawn in flight.
            let mut before: BTreeSet<String> = BTreeSet::new();
            for step in [1, total / 3, total / 2, total - 1] {
                let l = layout(
                    &run.trace,
                    &Options {
                        upto_step: Some(step),
                        ..options
                    },
                );
                let (d, g) = (drawn(&l), legend(&l));
                assert_eq!(
                    g, d,
                    "{id} {mode:?} step {step}: legend (left) and drawn (right)"
                );
                let gone: Vec<&String> = before
                    .difference(&g)
                    .filter(|k| *k != "Mark(InFlight)")
                    .collect();
                assert!(
                    gone.is_empty(),
                    "{id} {mode:?} step {step}: {gone:?} left the legend"
                );
                before = g;
                assert!(
                    l.width >= full.width && l.height >= full.height,
                    "{id}: page shrank"
                );
            }
        }
    }
    // The catalogue draws each of the new kinds somewhere, so the test above checks them.
    for k in [
        LegendKind::PermissiveDb,
        LegendKind::Fold,
        LegendKind::GlobalNote,
        LegendKind::FaultNote,
        LegendKind::NoToken,
        LegendKind::FlightStub,
        LegendKind::Gate,
        LegendKind::Slanted,
        LegendKind::StepList,
        LegendKind::Overlap,
        LegendKind::RefusedRow,
        LegendKind::DuplicateRow,
        LegendKind::Mark(lockstep_render::layout::MarkKind::Lost),
    ] {
        assert!(seen.contains(&name(k)), "no scenario draws {k:?}");
    }
}

#[test]
fn every_legend_entry_has_its_own_words_and_a_swatch() {
    for (id, scenario, run) in common::catalogue() {
        let l = layout(&run.trace, &Options::default().for_scenario(&scenario));
        let texts: Vec<&str> = l.legend.iter().map(|e| e.text.text.as_str()).collect();
        let distinct: BTreeSet<&&str> = texts.iter().collect();
        assert_eq!(distinct.len(), texts.len(), "{id}: {texts:?}");
        let svg =
            lockstep_render::run_svg(&scenario, &run, &Options::default().for_scenario(&scenario))
                .expect("draws");
        for t in &texts {
            let escaped = t
                .replace('&', "&amp;")
                .replace('<', "&lt;")
                .replace('>', "&gt;");
            assert!(svg.contains(&escaped), "{id}: legend text {t:?} not drawn");
        }
    }
}

#[test]
fn a_promoted_replica_says_so_in_its_header() {
    for id in [
        "redis-sentinel-split-brain",
        "redis-failover-token-rollback",
    ] {
        let (scenario, run) = common::load(id);
        let l = layout(&run.trace, &Options::default().for_scenario(&scenario));
        let replica = l
            .lanes
            .iter()
            .find(|lane| lane.name == "redis-replica")
            .expect("a replica lane");
        assert_eq!(replica.header[1].text, "redis replica → master", "{id}");
        assert_eq!(replica.footer[1].text, "master (promoted)", "{id}");
        // Before the failover, a step render's footer still calls it what it is then.
        let l = layout(
            &run.trace,
            &Options {
                upto_step: Some(2),
                ..Options::default().for_scenario(&scenario)
            },
        );
        let replica = l.lanes.iter().find(|lane| lane.name == "redis-replica");
        assert_eq!(
            replica.map(|r| r.footer[1].text.as_str()),
            Some("redis replica"),
            "{id}"
        );
    }
}
