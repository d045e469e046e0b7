//! The lease chart tells each story: tokens, incidents, long flights, a fixed axis while
//! stepping, and a step render's footer with the record so far.

mod common;

use lockstep_core::Tag;
use lockstep_core::topology::Role;
use lockstep_render::geom::{Point, Rect};
use lockstep_render::lease::IncidentKind;
use lockstep_render::lease::nodes::NodeShape;
use lockstep_render::lease::svg::LeasePage;
use lockstep_render::lease::{LeaseRowKind, lease_chart};
use lockstep_render::style;
use lockstep_render::{Caption, Options};

fn upto(step: usize) -> Options {
    Options {
        upto_step: Some(step),
        ..Options::default()
    }
}

#[test]
fn the_axis_stays_fixed_and_marks_stay_inside_it() {
    for (id, scenario, run) in common::catalogue() {
        let caption = Caption::for_run(&scenario, &run);
        let total = run.trace.events.len();
        let whole = lease_chart(&run.trace, &Options::default());
        let full = LeasePage::new(&whole, &caption);
        for step in [1, total / 3, total / 2, total] {
            let chart = lease_chart(&run.trace, &upto(step));
            // As a step render places it: in the whole run's frame.
            let page = LeasePage::stepped(&chart, &whole, &caption);
            assert_eq!(page.plot.x1, full.plot.x1, "{id} step {step}");
            for t in [0, 1000, 5000] {
                assert_eq!(page.x(t), full.x(t), "{id} step {step}: axis moved");
            }
            for m in &chart.marks {
                let x = page.x(m.at_ms);
                assert!(x >= page.plot.x0 && x <= page.plot.x1, "{id}: mark outside");
            }
            let texts: Vec<&str> = page.texts.iter().map(|t| t.text.text.as_str()).collect();
            if step < total {
                assert!(
                    texts
                        .iter()
                        .any(|t| t.starts_with(&format!("So far (step {step} of"))),
                    "{id} step {step}: no record so far"
                );
                assert!(!texts.iter().any(|t| t.starts_with("Verdict")), "{id}");
            }
        }
    }
}

#[test]
fn every_incident_is_on_the_chart() {
    for (id, _, run) in common::catalogue() {
        let chart = lease_chart(&run.trace, &Options::default());
        let incidents = run
            .trace
            .events
            .iter()
            .filter(|e| {
                matches!(
                    e.tag,
                    Some(
                        Tag::Crashed
                            | Tag::Restarted { .. }
                            | Tag::FailedOver
                            | Tag::ClockJumped { .. }
                            | Tag::Leader { .. }
                            | Tag::Partition { .. }
                    )
                )
            })
            .count();
        let tagged = chart
            .incidents
            .iter()
            .filter(|i| !matches!(i.kind, IncidentKind::Service | IncidentKind::Lost))
            .count();
        assert_eq!(tagged, incidents, "{id}");
    }
}

#[test]
fn tokens_and_long_flights_are_shown() {
    let (_, run) = common::load("fenced-gc-pause");
    let chart = lease_chart(&run.trace, &Options::default());
    let tokens: Vec<u64> = chart
        .rows
        .iter()
        .filter(|r| r.kind == LeaseRowKind::ServiceHolds)
        .flat_map(|r| r.intervals.iter().filter_map(|i| i.token))
        .collect();
    assert!(tokens.contains(&33) && tokens.contains(&34), "{tokens:?}");
    let (_, run) = common::load("naive-network-delay");
    let chart = lease_chart(&run.trace, &Options::default());
    let write = chart
        .flights
        .iter()
        .find(|f| f.label.starts_with("write"))
        .expect("A's write in flight");
    assert!(write.to_ms.unwrap_or(0) - write.from_ms >= 8000);
}

#[test]
fn every_step_of_a_run_has_one_page_size() {
    for (id, scenario, run) in common::catalogue() {
        let total = run.trace.events.len();
        let sizes: Vec<String> = [1, 5, total / 3, total / 2, total - 1, total]
            .into_iter()
            .map(|step| {
                let svg =
                    lockstep_render::run_lease_svg(&scenario, &run, &upto(step)).expect("draws");
                let head = svg.split('>').next().unwrap_or_default();
                let at = head.find(" width=").expect("width");
                head[at..].split(' ').take(3).collect::<Vec<_>>().join(" ")
            })
            .collect();
        assert!(sizes.windows(2).all(|w| w[0] == w[1]), "{id}: {sizes:?}");
    }
}

/// The symbols of a lease page as boxes: marks 22 px, note dots 10 px.
fn symbol_boxes(page: &LeasePage) -> Vec<Rect> {
    let square =
        |at: Point, half: f64| Rect::new(at.x - half, at.y - half, at.x + half, at.y + half);
    page.marks
        .iter()
        .map(|&(_, at)| square(at, 11.0))
        .chain(page.note_dots.iter().map(|&(_, at)| square(at, 5.0)))
        .collect()
}

#[test]
fn every_lease_chart_tells_its_whole_story_inside_the_axis() {
    for (id, scenario, run) in common::catalogue() {
        let caption = Caption::for_run(&scenario, &run);
        let chart = lease_chart(&run.trace, &Options::default());
        let page = LeasePage::new(&chart, &caption);
        let texts: Vec<&str> = page.texts.iter().map(|t| t.text.text.as_str()).collect();
        let has_text = |s: &str| texts.iter().any(|t| t.contains(s));

        // The axis starts at the run's start, 0, with a tick there.
        assert_eq!(page.ticks.first().map(|t| t.1), Some(0), "{id}: no 0 tick");
        assert_eq!(page.x(0), page.plot.x0, "{id}");

        // Every worker in the run has something on its rows.
        let trace = &run.trace;
        for (i, p) in trace.participants.iter().enumerate() {
            let appears = trace
                .events
                .iter()
                .any(|e| usize::from(e.from) == i || usize::from(e.to) == i);
            if p.role != Role::Worker || !appears {
                continue;
            }
            let rows: Vec<usize> = (0..chart.rows.len())
                .filter(|&r| chart.rows[r].worker == p.name)
                .collect();
            let filled = rows.iter().any(|&r| !chart.rows[r].intervals.is_empty())
                || chart.marks.iter().any(|m| rows.contains(&m.row))
                || chart.notes.iter().any(|n| rows.contains(&n.row))
                || chart.flights.iter().any(|f| rows.contains(&f.row));
            assert!(filled, "{id}: {}'s rows are empty", p.name);
        }

        // Every symbol inside the plot, none on top of another.
        let boxes = symbol_boxes(&page);
        for b in &boxes {
            assert!(
                b.x0 >= page.plot.x0 - 0.5 && b.x1 <= page.plot.x1 + 0.5,
                "{id}: symbol {b:?} outside the plot {:?}",
                page.plot
            );
        }
        for (k, a) in boxes.iter().enumerate() {
            for b in &boxes[k + 1..] {
                assert!(!a.overlaps(b), "{id}: symbols {a:?} and {b:?} overlap");
            }
        }

        // The story's key events: grants with their tokens, crashes, restarts, failovers,
        // clock jumps, partitions, elections and workers' notes, long flights.
        for e in &trace.events {
            match &e.tag {
                Some(Tag::ServiceGrants {
                    holder,
                    token: Some(token),
                }) => {
                    let shown = chart.rows.iter().any(|r| {
                        r.kind == LeaseRowKind::ServiceHolds
                            && r.worker == *holder
                            && r.intervals.iter().any(|i| i.token == Some(*token))
                    });
                    assert!(shown, "{id}: {holder}'s grant with token {token} not shown");
                    // And written, inside its bar or under it.
                    assert!(
                        texts
                            .iter()
                            .any(|t| *t == token.to_string() || *t == format!("token {token}")),
                        "{id}: {holder}'s token {token} not written"
                    );
                }
                Some(Tag::Crashed) => assert!(
                    page.node_shapes
                        .iter()
                        .any(|s| matches!(s, NodeShape::Down(_))),
                    "{id}: no crash drawn"
                ),
                Some(Tag::ClockJumped { .. }) => assert!(
                    page.node_shapes
                        .iter()
                        .any(|s| matches!(s, NodeShape::Jump { .. })),
                    "{id}: no clock jump drawn"
                ),
                Some(Tag::Partition { .. }) => assert!(
                    page.node_shapes
                        .iter()
                        .any(|s| matches!(s, NodeShape::Partition(r) | NodeShape::OpenPartition(r) if r.width() >= 4.0)),
                    "{id}: no partition band"
                ),
                // The database's answers with their tokens, repeats it skipped.
                Some(
                    Tag::WriteAccepted { token: Some(t), .. }
                    | Tag::ReadRaisedToken { last_token: t }
                    | Tag::AccessRejected { token: Some(t), .. },
                ) => assert!(
                    has_text(&format!("token {t}")),
                    "{id}: the database's answer to token {t} at {} ms not labelled",
                    e.time_ms
                ),
                Some(Tag::WriteAccepted { noops, .. }) if *noops > 0 => assert!(
                    has_text(&format!("{noops} repeats skipped")),
                    "{id}: repeats skipped at {} ms not labelled",
                    e.time_ms
                ),
                Some(Tag::FailedOver) => assert!(has_text("becomes master"), "{id}: failover"),
                Some(Tag::Restarted { .. }) => assert!(has_text("restarts"), "{id}: restart"),
                _ => {}
            }
        }
        // Long flights and instants on nodes have their legend entries.
        use lockstep_render::lease::svg::Swatch;
        let swatch = |k: Swatch| page.swatches.iter().any(|s| s.0 == k);
        assert_eq!(swatch(Swatch::Flight), !chart.flights.is_empty(), "{id}");
        assert_eq!(
            swatch(Swatch::Tick),
            page.node_shapes
                .iter()
                .any(|s| matches!(s, NodeShape::Tick(_))),
            "{id}"
        );
        // Every incident and every note has its label.
        for inc in &chart.incidents {
            let label = inc
                .text
                .strip_prefix(&format!("{} ", inc.node))
                .unwrap_or(&inc.text);
            assert!(
                has_text(label),
                "{id}: incident {:?} has no label",
                inc.text
            );
        }
        for note in &chart.notes {
            assert!(
                has_text(&note.text),
                "{id}: note {:?} has no label",
                note.text
            );
        }
        for f in &chart.flights {
            assert!(
                has_text(&f.label),
                "{id}: flight {:?} has no label",
                f.label
            );
        }
    }
}

#[test]
fn the_isolated_leader_and_the_split_brain_tell_their_stories() {
    let (scenario, run) = common::load("consensus-isolated-leader");
    let caption = Caption::for_run(&scenario, &run);
    let page = LeasePage::new(&lease_chart(&run.trace, &Options::default()), &caption);
    let texts: Vec<&str> = page.texts.iter().map(|t| t.text.text.as_str()).collect();
    for want in [
        "no answer from the lock service",
        "A refuses: no lock, no payouts",
        "steps down",
        "pre-vote for term 2 ×",
        "leader (term 2)",
    ] {
        assert!(
            texts.iter().any(|t| t.contains(want)),
            "no {want:?} in {texts:?}"
        );
    }
    let (scenario, run) = common::load("redis-sentinel-split-brain");
    let caption = Caption::for_run(&scenario, &run);
    let chart = lease_chart(&run.trace, &Options::default());
    let labels: Vec<&str> = chart.rows.iter().map(|r| r.label.as_str()).collect();
    assert!(
        labels.contains(&"redis (old master) says A holds it"),
        "{labels:?}"
    );
    assert!(
        labels.contains(&"redis-replica (promoted) says B holds it"),
        "{labels:?}"
    );
    let page = LeasePage::new(&chart, &caption);
    assert!(
        page.x(1000) > page.plot.x0 + 100.0,
        "the axis starts at 0, not at 1 s"
    );
}

#[test]
fn a_renewal_sits_on_a_holder_row_only_while_that_holder_holds() {
    use lockstep_render::layout::MarkKind;
    for (id, _, run) in common::catalogue() {
        let chart = lease_chart(&run.trace, &Options::default());
        for m in chart.marks.iter().filter(|m| m.kind == MarkKind::Renewed) {
            let row = &chart.rows[m.row];
            if row.kind == LeaseRowKind::ServiceHolds {
                assert!(
                    row.intervals
                        .iter()
                        .any(|iv| iv.from_ms <= m.at_ms && m.at_ms <= iv.to_ms),
                    "{id}: renewal at {} ms on {:?} outside its bars {:?}",
                    m.at_ms,
                    row.label,
                    row.intervals
                );
            } else {
                // On the worker's own rows: its belief row while it believes, else its
                // activity row (a keepalive while it still waits for the lock).
                assert!(
                    matches!(row.kind, LeaseRowKind::Believes | LeaseRowKind::Activity),
                    "{id}: renewal on {:?}",
                    row.label
                );
            }
        }
    }
}

#[test]
fn each_label_starts_or_ends_at_its_own_icon_and_never_shares_a_line() {
    for (id, scenario, run) in common::catalogue() {
        let caption = Caption::for_run(&scenario, &run);
        let chart = lease_chart(&run.trace, &Options::default());
        let page = LeasePage::new(&chart, &caption);
        let icons: Vec<Point> = page
            .marks
            .iter()
            .map(|m| m.1)
            .chain(page.note_dots.iter().map(|d| d.1))
            .collect();
        for row in 0..chart.rows.len() {
            let cy = page.row_y[row];
            let labels: Vec<&Rect> = page
                .owned
                .iter()
                .filter(|(r, _)| *r == row)
                .map(|(_, b)| b)
                .collect();
            for n in chart.notes.iter().filter(|n| n.row == row) {
                let tx = page.x(n.times[0]);
                let r = page
                    .texts
                    .iter()
                    .map(|t| &t.text)
                    .find(|t| t.text == n.text && labels.contains(&&t.rect))
                    .map(|t| t.rect)
                    .unwrap_or_else(|| panic!("{id}: no label {:?}", n.text));
                // The label starts or ends at its own icon (dot or cross) as drawn: symbols of
                // one instant stand side by side, and each label goes with its own, not with
                // the instant its icon was pushed away from.
                let on_row: Vec<f64> = icons
                    .iter()
                    .filter(|p| (p.y - cy).abs() < 1.0)
                    .map(|p| p.x)
                    .collect();
                let at_icon = |x: f64| on_row.iter().any(|&ix| (ix - x).abs() <= 2.0);
                assert!(
                    at_icon(r.x0) || at_icon(r.x1),
                    "{id}: {:?} ({:.0}..{:.0}) starts or ends at no icon of its row {on_row:?}",
                    n.text,
                    r.x0,
                    r.x1
                );
                // And that icon is near the note's instant.
                assert!(
                    on_row.iter().any(|&ix| (ix - tx).abs() <= 60.0
                        && (at_icon(r.x0) && (ix - r.x0).abs() <= 2.0
                            || at_icon(r.x1) && (ix - r.x1).abs() <= 2.0)),
                    "{id}: {:?} is far from its instant",
                    n.text
                );
            }
            // Two labels on one line are clearly apart, never read as one text; an instance's
            // holder letters, one under each short bar, a character's width apart at least.
            let least = if chart.rows[row].kind == LeaseRowKind::Instance {
                9.0
            } else {
                40.0
            };
            for (i, a) in labels.iter().enumerate() {
                for b in &labels[i + 1..] {
                    if (a.y0 - b.y0).abs() < 1.0 {
                        let gap = (b.x0 - a.x1).max(a.x0 - b.x1);
                        assert!(
                            gap >= least,
                            "{id}: labels {a:?} and {b:?} only {gap} apart"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn a_danger_zone_of_a_few_milliseconds_is_not_hidden_by_the_step_line() {
    let (scenario, run) = common::load("naive-network-delay");
    let caption = Caption::for_run(&scenario, &run);
    let chart = lease_chart(&run.trace, &upto(20));
    let page = LeasePage::new(&chart, &caption);
    let now = page.x(chart.current_ms.expect("a step render has a current step"));
    assert!(!chart.danger.is_empty(), "no danger zone at step 20");
    for d in &chart.danger {
        let r = page.danger_rect(d);
        // Wider than the step line with room to spare either side of it.
        assert!(r.width() >= 8.0, "{d:?}: band {r:?} too thin");
        assert!(
            r.x0 < now - 2.0 || r.x1 > now + 2.0,
            "{d:?} hidden under the step line"
        );
    }
    // The step line is drawn over the danger bands, on a wider white halo, so its amber
    // never mixes with the band's red.
    let svg = lockstep_render::run_lease_svg(&scenario, &run, &upto(20)).expect("draws");
    let step_line = svg
        .rfind(&format!("stroke=\"{}\"", style::CURRENT_POINTER.hex()))
        .expect("a step line");
    let band = svg
        .find(&format!("fill=\"{}\"", style::DANGER.hex()))
        .expect("a danger band");
    assert!(
        band < step_line,
        "the danger band is drawn over the step line"
    );
    let halo = svg[..step_line]
        .rfind("stroke=\"#FFFFFF\" stroke-width=\"5\"")
        .expect("a white halo under the step line");
    assert!(band < halo, "the halo is under the danger band");
}

#[test]
fn a_step_inside_an_overlap_says_since_and_gives_the_verdict_so_far_in_words() {
    let (scenario, run) = common::load("fenced-gc-pause");
    let caption = Caption::for_run(&scenario, &run);
    let chart = lease_chart(&run.trace, &upto(20));
    let page = LeasePage::new(&chart, &caption);
    let texts: Vec<&str> = page.texts.iter().map(|t| t.text.text.as_str()).collect();
    let danger: Vec<&&str> = texts
        .iter()
        .filter(|t| t.starts_with("overlap:") && t.contains("both believe"))
        .collect();
    assert!(!danger.is_empty(), "no danger line at step 20: {texts:?}");
    for d in &danger {
        assert!(
            d.contains(" since ") && !d.contains(" to "),
            "an ongoing overlap reads as finished: {d}"
        );
    }
    assert!(
        texts.contains(&"So far (step 20 of 41): nothing paid twice."),
        "no verdict so far in words: {texts:?}"
    );
    // The whole run's overlap has ended: it keeps "from .. to".
    let whole = LeasePage::new(&lease_chart(&run.trace, &Options::default()), &caption);
    assert!(
        whole
            .texts
            .iter()
            .any(|t| t.text.text.starts_with("overlap:") && t.text.text.contains(" to ")),
        "the whole run's danger line lost its end"
    );
}

#[test]
fn lost_keepalives_unlocks_and_replication_show_as_crosses() {
    use lockstep_core::trace::EventKind;
    use lockstep_render::layout::MarkKind;
    for (id, scenario, run) in common::catalogue() {
        let caption = Caption::for_run(&scenario, &run);
        let chart = lease_chart(&run.trace, &Options::default());
        let page = LeasePage::new(&chart, &caption);
        let texts: Vec<&str> = page.texts.iter().map(|t| t.text.text.as_str()).collect();
        let ps = &run.trace.participants;
        for e in run
            .trace
            .events
            .iter()
            .filter(|e| e.kind == EventKind::Lost)
        {
            let role = ps[usize::from(e.from)].role;
            let wanted = match role {
                Role::Worker if ps[usize::from(e.to)].role != Role::RedlockInstance => {
                    page.marks.iter().any(|m| m.0 == MarkKind::Lost)
                }
                Role::Redis | Role::RedisReplica | Role::Database => page
                    .node_shapes
                    .iter()
                    .any(|s| matches!(s, NodeShape::Lost(_))),
                _ => continue,
            };
            assert!(
                wanted,
                "{id}: {:?} lost at {} ms not drawn",
                e.label, e.time_ms
            );
            let what = e.label.trim_start_matches("lost: ");
            let what = what
                .split(|c: char| c.is_ascii_digit())
                .next()
                .unwrap_or(what);
            assert!(
                texts.iter().any(|t| t.contains(what)),
                "{id}: no label for {:?}",
                e.label
            );
        }
    }
    let (_, run) = common::load("redis-sentinel-split-brain");
    let chart = lease_chart(&run.trace, &Options::default());
    assert!(
        chart
            .incidents
            .iter()
            .any(|i| i.kind == IncidentKind::Lost && i.text.contains("replicate 1 op")),
        "the lost replication is not on the chart"
    );
}

#[test]
fn every_label_lies_in_its_own_rows_band_and_no_two_notes_share_a_label() {
    for (id, scenario, run) in common::catalogue() {
        let caption = Caption::for_run(&scenario, &run);
        let total = run.trace.events.len();
        let whole = lease_chart(&run.trace, &upto(total));
        let frame = LeasePage::stepped(&whole, &whole, &caption);
        // Every step of every run.
        for step in 1..=total {
            let chart = lease_chart(&run.trace, &upto(step));
            let page = LeasePage::stepped(&chart, &whole, &caption);
            // Stepping never moves a row or a lane.
            assert_eq!(page.row_y, frame.row_y, "{id} step {step}: rows moved");
            assert_eq!(
                page.node_lanes, frame.node_lanes,
                "{id} step {step}: lanes moved"
            );
            assert_eq!(page.plot, frame.plot, "{id} step {step}: the plot moved");
            let bands = &page.bands;
            assert_eq!(
                bands.len(),
                page.row_y.len() + page.node_lanes.len(),
                "{id}: a band per row and lane"
            );
            // Bands stack without overlapping, each holding its bar or shapes.
            for w in bands.windows(2) {
                assert!(w[0].1 <= w[1].0, "{id} step {step}: bands {w:?} overlap");
            }
            for (k, &cy) in page.row_y.iter().chain(&page.node_lanes).enumerate() {
                let (top, bottom) = bands[k];
                assert!(
                    top <= cy - 11.0 && cy + 12.0 <= bottom,
                    "{id}: band {k} {:?} does not hold its bar at {cy}",
                    bands[k]
                );
            }
            // Every label of a row or lane lies inside that row's band, within the plot.
            for &(k, r) in &page.owned {
                let (top, bottom) = bands[k];
                assert!(
                    r.y0 >= top - 0.01 && r.y1 <= bottom + 0.01,
                    "{id} step {step}: label {r:?} strays out of its band {k} {:?}",
                    bands[k]
                );
                assert!(
                    r.x0 >= page.plot.x0 - 0.01 && r.x1 <= page.plot.x1 + 0.01,
                    "{id}"
                );
            }
            // Every text inside the plot lies in one band, whole.
            for t in &page.texts {
                let r = t.text.rect;
                // (Not the legend beside the plot of a chart too tall for it under the plot.)
                let inside = r.x0 >= page.plot.x0
                    && r.x0 <= page.plot.x1
                    && r.y0 >= page.plot.y0
                    && r.y1 <= page.plot.y1;
                if inside {
                    assert!(
                        bands
                            .iter()
                            .any(|&(top, bottom)| r.y0 >= top - 0.01 && r.y1 <= bottom + 0.01),
                        "{id} step {step}: {:?} at {r:?} straddles two bands",
                        t.text.text
                    );
                }
            }
            // Each note, long flight and database answer has a label of its own, in its row's
            // band.
            for (text, row) in chart
                .notes
                .iter()
                .map(|n| (&n.text, n.row))
                .chain(chart.flights.iter().map(|f| (&f.label, f.row)))
                .chain(chart.accesses.iter().map(|a| (&a.text, a.row)))
            {
                let own = page.owned.iter().filter(|(k, _)| *k == row).any(|(_, r)| {
                    page.texts
                        .iter()
                        .any(|t| t.text.rect == *r && t.text.text == *text)
                });
                assert!(own, "{id} step {step}: {text:?} has no label of its own");
            }
            // No two labels overlap.
            let boxes: Vec<Rect> = page.owned.iter().map(|o| o.1).collect();
            for (i, a) in boxes.iter().enumerate() {
                for b in &boxes[i + 1..] {
                    assert!(
                        !a.overlaps(b),
                        "{id} step {step}: labels {a:?} {b:?} overlap"
                    );
                }
            }
        }
    }
}
