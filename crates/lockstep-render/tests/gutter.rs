//! The gutter reads top to bottom in time: no line shows a later time than a line below it.

mod common;

use lockstep_render::{Options, TimeMode, layout};

#[test]
fn gutter_times_never_go_back() {
    let mut failures = Vec::new();
    for (id, _, run) in common::catalogue() {
        for mode in [TimeMode::Logical, TimeMode::ToScale] {
            for unfold_retries in [false, true] {
                let l = layout(
                    &run.trace,
                    &Options {
                        time_mode: mode,
                        unfold_retries,
                        ..Options::default()
                    },
                );
                // Each line's earliest event, lines from the top.
                let mut lines: Vec<(f64, u64, usize)> = Vec::new();
                for r in &l.rows {
                    match lines.iter_mut().find(|(y, ..)| *y == r.y) {
                        Some(line) => line.1 = line.1.min(r.time_ms),
                        None => lines.push((r.y, r.time_ms, r.step)),
                    }
                }
                lines.sort_by(|a, b| a.0.total_cmp(&b.0));
                for w in lines.windows(2) {
                    if w[1].1 < w[0].1 {
                        failures.push(format!(
                            "{id} {mode:?} unfold={unfold_retries}: step {} at {} ms above step {} at {} ms",
                            w[0].2, w[0].1, w[1].2, w[1].1
                        ));
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A line's gutter names exactly the steps drawn on it (up to three): no range claims a step
/// drawn on another line.
#[test]
fn gutter_steps_are_the_lines_own() {
    let mut failures = Vec::new();
    for (id, _, run) in common::catalogue() {
        let l = layout(&run.trace, &Options::default());
        // A folded step is named by its fold's note (steps after the first of each fold).
        let folded: std::collections::BTreeSet<usize> = l
            .folds
            .iter()
            .flat_map(|f| f.events.iter().copied().filter(move |&e| e != f.first))
            .collect();
        for r in l.rows.iter().filter(|r| !r.gutter.text.is_empty()) {
            let on_line: Vec<usize> = l
                .rows
                .iter()
                .filter(|o| o.line == r.line && !folded.contains(&o.event))
                .map(|o| o.step)
                .collect();
            let named = r.gutter.text.trim_start_matches('#');
            let named = named.split(' ').next().unwrap_or("");
            let listed: Vec<usize> = if let Some((a, b)) = named.split_once('-') {
                (a.parse().unwrap_or(0)..=b.parse().unwrap_or(0)).collect()
            } else if named.contains('…') && on_line.len() > 3 {
                continue;
            } else {
                named.split(',').filter_map(|n| n.parse().ok()).collect()
            };
            if listed != on_line {
                failures.push(format!(
                    "{id}: gutter {named:?} on a line of steps {on_line:?}"
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A line's time column is true for every step it holds: each step's trace time lies within the
/// line's printed time (or range `a–b`), in both time modes and in every step render's header.
#[test]
fn gutter_time_holds_every_step_of_its_line() {
    let mut failures = Vec::new();
    for (id, _, run) in common::catalogue() {
        for mode in [TimeMode::Logical, TimeMode::ToScale] {
            let l = layout(
                &run.trace,
                &Options {
                    time_mode: mode,
                    ..Options::default()
                },
            );
            for r in l.rows.iter().filter(|r| !r.gutter.text.is_empty()) {
                let time = r.gutter.text.split('│').nth(1).unwrap_or("");
                let time = time.trim().trim_end_matches("ms").trim();
                let (lo, hi) = time.split_once('–').unwrap_or((time, time));
                let (lo, hi): (u64, u64) =
                    (lo.parse().unwrap_or(u64::MAX), hi.parse().unwrap_or(0));
                for o in l.rows.iter().filter(|o| o.line == r.line) {
                    let t = run.trace.events[o.event].time_ms;
                    if t < lo || t > hi {
                        failures.push(format!(
                            "{id} {mode:?}: step {} at {t} ms on line {:?}",
                            o.step, r.gutter.text
                        ));
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The gutter reads down the page: a send, a note or a slanted arrival never sits on a line above
/// an earlier step's line, in any catalogue layout (both time modes, in full and stopped
/// part-way). A folded step sits on its fold's line. Only a message's arrival drawn level (on its send's line, or level where it
/// arrives, saying when it was sent) may share a line above later steps.
#[test]
fn steps_go_down_the_page_but_for_level_arrivals() {
    use lockstep_core::EventKind;
    let mut failures = Vec::new();
    common::each_layout(&[(1, 4), (1, 2), (3, 4)], |name, l| {
        // A folded step stays in its fold (the note above, which names it).
        let folded: std::collections::BTreeSet<usize> = l
            .folds
            .iter()
            .flat_map(|f| f.events.iter().copied().filter(move |&e| e != f.first))
            .collect();
        let mut rows: Vec<_> = l
            .rows
            .iter()
            .filter(|r| !folded.contains(&r.event))
            .collect();
        rows.sort_by_key(|r| r.step);
        let mut lowest = f64::NEG_INFINITY;
        for r in rows {
            let level_arrival = matches!(r.kind, EventKind::Deliver | EventKind::Lost)
                && l.arrows
                    .iter()
                    .any(|a| a.end_row == Some(r.event) && a.start.y == a.tip.y);
            if r.y < lowest && !level_arrival {
                failures.push(format!(
                    "{name}: step {} ({:?} {:?}) sits above an earlier step's line",
                    r.step, r.kind, r.label
                ));
            }
            lowest = lowest.max(r.y);
        }
    });
    assert!(
        failures.is_empty(),
        "{} steps:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
