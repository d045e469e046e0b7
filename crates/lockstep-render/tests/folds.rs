//! Repeated retries fold into one labelled line (and unfold on request); the 1,000-message run's
//! SVG stays smaller than Mermaid's SVG of it.

mod common;

use lockstep_core::{Run, Scenario, parse_scenario, run};
use lockstep_render::{Caption, Options, TimeMode, layout, run_svg, timeline_svg};

/// ../shared/bench/mermaid-bench/side-inputs/long-N.toml: A holds the lock for a long job, B
/// retries every 100 ms until A releases (`work_ms` 1700 gives about 50 messages, 49200 about
/// 1,000).
fn long(work_ms: u64) -> (Scenario, Run) {
    let toml = format!(
        "name = \"long\"\ntitle = \"B waits while A holds the lock for a long job\"\n\
         summary = \"A long job holds the lock; B retries every 100 ms until A releases.\"\n\
         expect = \"safe\"\n\n[lock]\nkind = \"redis\"\nttl_ms = {}\n\n[resource]\nfencing = \"off\"\n\n\
         [[workers]]\nname = \"A\"\nwork_ms = {work_ms}\n\n[[workers]]\nname = \"B\"\nstart_ms = 10\n\
         retry_ms = 100\nacquire_timeout_ms = 3000000\n\n[limits]\nmax_time_ms = 3600000\nmax_events = 1000000\n",
        work_ms + 10_000
    );
    let scenario = parse_scenario("long.toml", toml.as_bytes()).expect("valid scenario");
    let run = run(&scenario);
    (scenario, run)
}

#[test]
fn retries_fold_into_one_line_and_unfold_on_request() {
    let (_, run) = long(1700);
    let messages = common::messages(&run.trace, usize::MAX);
    for mode in [TimeMode::Logical, TimeMode::ToScale] {
        let folded = layout(
            &run.trace,
            &Options {
                time_mode: mode,
                ..Options::default()
            },
        );
        assert_eq!(folded.folds.len(), 1, "{mode:?}");
        let f = &folded.folds[0];
        assert!(f.text.starts_with("B retried "), "{}", f.text);
        assert!(f.text.contains("ms apart"), "{}", f.text);
        assert!(f.repeats >= 10 && f.period_ms >= 100, "{f:?}");
        // Every folded row shares one line, with the note that says so.
        let line = folded.rows[f.first].line;
        assert!(folded.rows[f.first..=f.last].iter().all(|r| r.line == line));
        assert!(folded.notes.iter().any(|n| n.text.text == f.text));
        assert!(folded.arrows.len() < messages);
        assert!(folded.overlapping_labels().is_empty());

        let unfolded = layout(
            &run.trace,
            &Options {
                time_mode: mode,
                unfold_retries: true,
                ..Options::default()
            },
        );
        assert!(unfolded.folds.is_empty());
        assert_eq!(unfolded.arrows.len(), messages);
        assert!(unfolded.height > folded.height);
    }
}

#[test]
fn the_thousand_message_run_is_smaller_than_mermaids_svg() {
    let (scenario, run) = long(49_200);
    let messages = common::messages(&run.trace, usize::MAX);
    assert!(messages > 900, "{messages} messages");
    let svg = run_svg(&scenario, &run, &Options::default()).expect("draws");
    // Mermaid 12.3's SVG of the same run is 439,805 bytes.
    assert!(svg.len() <= 439_805, "{} bytes", svg.len());
    // Unfolded, every message is drawn, and still parses.
    let all = timeline_svg(
        &run.trace,
        &Caption::titled("unfolded"),
        &Options {
            unfold_retries: true,
            ..Options::default()
        },
    )
    .expect("draws");
    assert!(roxmltree::Document::parse(&all).is_ok());
}

#[test]
fn whole_redlock_rounds_fold_in_both_time_modes() {
    // Each retry round of redlock-delayed-restart is 32 events (five SETs, their answers, the
    // unlock) with the lock service's grants and frees: `lockstep run` folds them, so must render.
    let (scenario, run) = common::load("redlock-delayed-restart");
    for mode in [TimeMode::Logical, TimeMode::ToScale] {
        let options = Options {
            time_mode: mode,
            ..Options::default()
        }
        .for_scenario(&scenario);
        let folded = layout(&run.trace, &options);
        let unfolded = layout(
            &run.trace,
            &Options {
                unfold_retries: true,
                ..options
            },
        );
        assert!(
            folded.folds.iter().map(|f| f.repeats).sum::<usize>() >= 30,
            "{mode:?}: {:?}",
            folded.folds
        );
        assert!(
            folded.height * 2.0 < unfolded.height,
            "{mode:?}: folded {} vs unfolded {}",
            folded.height,
            unfolded.height
        );
    }
}

#[test]
fn rounds_alike_but_not_identical_fold_into_one_labelled_line() {
    // Redlock clients retrying at once after random back-off: each client's rounds differ in
    // timing, in which instances said yes and in how the other clients' rounds interleave.
    let (_, run) = common::load("redlock-split-votes");
    let l = layout(&run.trace, &Options::default());
    for who in ["A retried 3 more times", "B retried 3 more times"] {
        let f = l
            .folds
            .iter()
            .find(|f| f.text.starts_with(who))
            .unwrap_or_else(|| panic!("no fold {who:?}: {:?}", l.folds));
        // Back-off differs between rounds: the line gives the range.
        assert!(
            f.text.contains("–") && f.text.contains("ms apart"),
            "{}",
            f.text
        );
        assert!(l.notes.iter().any(|n| n.text.text == f.text));
    }
    // Two-line labels and notes (each label's first line on a line of its own) made it taller
    // (5,441 px) and 745 px narrower.
    assert!(l.height < 5600.0, "{} px (8,065 px before)", l.height);

    // An isolated leader's pre-votes, again and again with random election timeouts.
    let (_, run) = common::load("consensus-quorum-loss-fail-closed");
    let l = layout(&run.trace, &Options::default());
    assert!(
        l.folds.iter().any(|f| f.text.starts_with("node-1 retried")),
        "{:?}",
        l.folds
    );
}

#[test]
fn a_fold_never_leaves_half_a_message_behind() {
    for (id, _, run) in common::catalogue() {
        let l = layout(&run.trace, &Options::default());
        let folded: std::collections::BTreeSet<usize> = l
            .folds
            .iter()
            .flat_map(|f| f.events.iter().copied())
            .collect();
        for f in &l.folds {
            assert!(f.events.len() >= 2 && f.first == f.events[0], "{id}: {f:?}");
            for &i in &f.events {
                let Some(m) = run.trace.events[i].message else {
                    continue;
                };
                for (j, e) in run.trace.events.iter().enumerate() {
                    assert!(
                        e.message != Some(m) || folded.contains(&j),
                        "{id}: message {m} folded at step {} but drawn at step {}",
                        i + 1,
                        j + 1
                    );
                }
            }
        }
    }
}

/// consensus-isolated-leader: the cut-off node-1 runs the same pre-vote round (asks node-2 and
/// node-3, both asks lost) again and again while others' messages to it fall between its
/// rounds; every round after the first folds (six were drawn, one fold held two).
#[test]
fn an_isolated_nodes_pre_votes_fold_all_alike_rounds() {
    let (_, run) = common::load("consensus-isolated-leader");
    let l = layout(&run.trace, &Options::default());
    let node1 = run
        .trace
        .participants
        .iter()
        .position(|p| p.name == "node-1")
        .expect("node-1");
    let folded: Vec<usize> = l.folds.iter().flat_map(|f| f.events.clone()).collect();
    let drawn: Vec<usize> = run
        .trace
        .events
        .iter()
        .enumerate()
        .filter(|(i, e)| {
            usize::from(e.from) == node1
                && e.kind == lockstep_core::EventKind::State
                && e.label.starts_with("pre-vote for term")
                && !folded.contains(i)
        })
        .map(|(i, _)| i + 1)
        .collect();
    assert!(
        drawn.len() <= 1,
        "node-1's pre-vote rounds drawn at steps {drawn:?}; folds: {:?}",
        l.folds.iter().map(|f| &f.text).collect::<Vec<_>>()
    );
}

/// A fold says how many rounds it holds, even when its repeating cycle is several rounds of
/// different shapes, and never reaches across another fold of the same worker (its rounds would
/// not be next to each other, its rows would run back in time). redlock-delayed-restart's
/// "B retried 2 more times, 1176–1255 ms apart (steps 188-507)" held 10 failed rounds
/// 150–340 ms apart, and "B retried 7 more times, 189–2517 ms apart" reached across it.
#[test]
fn a_fold_counts_the_rounds_it_holds_and_keeps_to_its_time() {
    for id in [
        "redlock-delayed-restart",
        "redlock-split-votes",
        "redlock-happy-path",
    ] {
        let (_, run) = common::load(id);
        let l = layout(&run.trace, &Options::default());
        let mut seen_until = std::collections::BTreeMap::new();
        for f in &l.folds {
            let Some(rest) = f.text.split(" retried ").nth(1) else {
                continue;
            };
            let said: usize = rest
                .split(' ')
                .next()
                .and_then(|n| n.parse().ok())
                .unwrap_or_else(|| panic!("{id}: {}", f.text));
            let worker = f.text.split(" retried ").next().unwrap_or_default();
            let failed = f
                .events
                .iter()
                .filter(|&&i| run.trace.events[i].label.starts_with("Redlock failed"))
                .count();
            if failed > 0 {
                assert_eq!(said, failed, "{id}: {}", f.text);
            }
            let (from, to) = (
                run.trace.events[f.events[0]].time_ms,
                run.trace.events[*f.events.last().expect("events")].time_ms,
            );
            if let Some(&until) = seen_until.get(worker) {
                assert!(
                    from >= until,
                    "{id}: {} starts before {worker}'s last fold ends",
                    f.text
                );
            }
            seen_until.insert(worker.to_string(), to);
        }
    }
}
