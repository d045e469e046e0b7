//! To scale, the axis keeps one scale: a tick at every round time wherever the scale holds, a
//! held-up message as long as its time in the network, and zoom brackets that name a real span.

mod common;

use lockstep_render::layout::StretchKind;
use lockstep_render::{Options, TimeMode, layout};

fn to_scale(id: &str) -> lockstep_render::Layout {
    let (scenario, run) = common::load(id);
    let options = Options {
        time_mode: TimeMode::ToScale,
        ..Options::default()
    }
    .for_scenario(&scenario);
    layout(&run.trace, &options)
}

#[test]
fn every_second_has_its_tick() {
    for (id, last_s) in [
        ("naive-network-delay", 10),
        ("naive-gc-pause", 11),
        ("fenced-gc-pause", 11),
    ] {
        let l = to_scale(id);
        for s in 1..=last_s {
            assert!(
                l.ticks.iter().any(|t| t.time_ms == s * 1000),
                "{id}: no {s} s tick: {:?}",
                l.ticks.iter().map(|t| t.time_ms).collect::<Vec<_>>()
            );
        }
    }
}

#[test]
fn a_held_up_message_is_as_long_as_its_time_in_the_network() {
    let l = to_scale("naive-network-delay");
    // The write A sends at 2004 ms arrives at 10005 ms: its arrow spans 8001 ms of the axis,
    // give or take the bursts it crosses (a few rows' pitch).
    let a = l
        .arrows
        .iter()
        .find(|a| {
            a.end_row
                .is_some_and(|r| l.rows[r].time_ms - l.rows[a.send_row].time_ms > 7000)
        })
        .expect("the delayed write");
    let drawn = a.tip.y - a.start.y;
    let scaled = 8001.0 * l.ms_scale;
    assert!(
        drawn < scaled + 300.0,
        "drawn {drawn:.0} px for {scaled:.0} px of time"
    );
    for w in l.ticks.windows(2) {
        let px = w[1].y - w[0].y;
        let want = (w[1].time_ms - w[0].time_ms) as f64 * l.ms_scale;
        // Between two ticks the axis may hold a burst zoomed for reading, never a run of
        // empty lines.
        assert!(
            px < want + 200.0,
            "{} -> {} ms: {px:.0} px",
            w[0].time_ms,
            w[1].time_ms
        );
    }
}

#[test]
fn no_zoom_says_zero_ms() {
    for (id, scenario, run) in common::catalogue() {
        let options = Options {
            time_mode: TimeMode::ToScale,
            ..Options::default()
        }
        .for_scenario(&scenario);
        let l = layout(&run.trace, &options);
        for s in l.stretches.iter().filter(|s| s.kind == StretchKind::Zoom) {
            if let Some(label) = &s.label {
                assert!(label.text != "zoom: 0 ms", "{id}: {:?}", s);
            }
        }
    }
}

#[test]
fn constant_pixels_per_second_between_ticks_outside_breaks_and_zooms() {
    let mut report = Vec::new();
    for (id, l) in common::each_to_scale() {
        let marked = |y0: f64, y1: f64| {
            l.stretches
                .iter()
                .any(|s| s.y0 < y1 - 0.5 && s.y1 > y0 + 0.5)
        };
        let mut checked = 0;
        for w in l.ticks.windows(2) {
            let (a, b) = (&w[0], &w[1]);
            if marked(a.y, b.y) {
                continue;
            }
            let want = (b.time_ms - a.time_ms) as f64 * l.ms_scale;
            let px = b.y - a.y;
            assert!(
                (px - want).abs() < 2.0,
                "{id}: {} -> {} ms is {px:.1} px, not {want:.1} px at the picture's scale",
                a.time_ms,
                b.time_ms
            );
            checked += 1;
        }
        report.push(format!(
            "{id}: {checked} tick gaps at one scale, {:.0} px tall",
            l.height
        ));
    }
    println!("{}", report.join("\n"));
}

/// Every line's y and time (the time of the first event put on it), top to bottom.
fn lines(l: &lockstep_render::Layout) -> Vec<(f64, u64)> {
    let mut out: Vec<(usize, f64, u64)> = Vec::new();
    for r in &l.rows {
        if !out.iter().any(|&(line, ..)| line == r.line) {
            out.push((r.line, r.y, r.time_ms));
        }
    }
    out.sort_by_key(|&(line, ..)| line);
    out.into_iter().map(|(_, y, t)| (y, t)).collect()
}

#[test]
fn a_zoom_keeps_its_own_scale_and_says_how_much_it_zooms() {
    let mut checked = 0;
    for (id, l) in common::each_to_scale() {
        let stacks: Vec<_> = l
            .stretches
            .iter()
            .filter(|s| s.kind == StretchKind::Stack)
            .collect();
        for z in l.stretches.iter().filter(|s| s.kind == StretchKind::Zoom) {
            assert!(
                z.px_per_ms >= 2.0 * l.ms_scale,
                "{id}: a zoom at {} px/ms on a picture at {} px/ms",
                z.px_per_ms,
                l.ms_scale
            );
            // Bounded: its time span at its own scale is a few lines, not the picture.
            assert!(
                (z.to_ms - z.from_ms) as f64 * z.px_per_ms <= 256.0 + 1e-6,
                "{id}: {z:?}"
            );
            if let Some(label) = &z.label {
                assert!(label.text.starts_with("zoom ×"), "{id}: {}", label.text);
                assert!(label.text.contains(" ms = "), "{id}: {}", label.text);
            }
            // Its own time marks: one scale between them, except where rows of one instant
            // stack (marked).
            for w in z.ticks.windows(2) {
                let stacked = stacks
                    .iter()
                    .any(|s| s.y0 < w[1] - 0.5 && s.y1 > w[0] + 0.5);
                if stacked {
                    continue;
                }
                let want = z.tick_ms as f64 * z.px_per_ms;
                assert!(
                    (w[1] - w[0] - want).abs() < 1.0,
                    "{id}: zoom marks {:.0} px apart, not {want:.0}: {z:?}",
                    w[1] - w[0]
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 50, "only {checked} zoom marks checked");
}

#[test]
fn rows_of_one_instant_stack_marked_as_such() {
    for (id, l) in common::each_to_scale() {
        for w in lines(&l).windows(2) {
            let ((y0, t0), (y1, t1)) = (w[0], w[1]);
            if t0 != t1 {
                continue;
            }
            assert!(
                l.stretches
                    .iter()
                    .any(|s| s.kind == StretchKind::Stack && s.y0 <= y0 && s.y1 >= y1),
                "{id}: two lines at {t0} ms ({y0:.0}, {y1:.0}) with no stack mark"
            );
        }
    }
}

#[test]
fn zooms_are_few_and_small() {
    for (id, l) in common::each_to_scale() {
        // No burst swallows a span the picture's scale can draw: a zoom lasts a few ms.
        for z in l.stretches.iter().filter(|s| s.kind == StretchKind::Zoom) {
            assert!(
                (z.to_ms - z.from_ms) as f64 * l.ms_scale < 32.0 * 4.0,
                "{id}: a zoom of {} ms on a picture at {} px/ms",
                z.to_ms - z.from_ms,
                l.ms_scale
            );
        }
    }
    for id in [
        "naive-gc-pause",
        "fenced-gc-pause",
        "naive-network-delay",
        "redlock-gc-pause",
        "redlock-happy-path",
        "write-retry-duplicates",
    ] {
        let l = to_scale(id);
        let axis = l.rows.last().unwrap().y - l.rows[0].y;
        let zoomed: f64 = l
            .stretches
            .iter()
            .filter(|s| s.kind == StretchKind::Zoom)
            .map(|s| s.y1 - s.y0)
            .sum();
        // Redlock's rounds are bursts of five requests and five replies within ~10 ms, four of
        // them in a 2.3 s run; the rest of the catalogue's stories leave zooms under half.
        let limit = if id == "redlock-happy-path" {
            0.55
        } else {
            0.5
        };
        assert!(
            zoomed <= limit * axis,
            "{id}: zooms take {zoomed:.0} of {axis:.0} px"
        );
    }
}

#[test]
fn long_idle_stretches_break_marked_with_the_time_cut() {
    let mut breaks = 0;
    for (id, l) in common::each_to_scale() {
        for b in l.stretches.iter().filter(|s| s.kind == StretchKind::Break) {
            breaks += 1;
            assert_eq!(b.y1 - b.y0, 72.0, "{id}: {b:?}");
            assert!(b.to_ms - b.from_ms >= 2000, "{id}: {b:?}");
            let cut = (b.to_ms - b.from_ms) as f64 / 1000.0;
            let label = b.label.as_ref().expect("a break says what it cuts");
            assert_eq!(label.text, format!("… {cut:.1} s …"), "{id}");
            assert!(
                l.rows.iter().all(|r| r.y <= b.y0 || r.y >= b.y1),
                "{id}: a row inside a break"
            );
            assert!(
                l.ticks.iter().all(|t| t.y <= b.y0 || t.y >= b.y1),
                "{id}: a time mark inside a break"
            );
        }
    }
    assert!(breaks >= 3, "{breaks} breaks over the catalogue");
    // Drawn across the lanes: the label and the zig-zags.
    let (scenario, run) = common::load("migration-right-order");
    let options = Options {
        time_mode: TimeMode::ToScale,
        ..Options::default()
    };
    let svg = lockstep_render::run_svg(&scenario, &run, &options).unwrap();
    assert!(svg.contains("… "), "no break label in the SVG");
}

#[test]
fn the_danger_band_runs_at_the_pictures_scale_wherever_no_mark_says_otherwise() {
    let mut checked = 0;
    for (id, l) in common::each_to_scale() {
        let lines = lines(&l);
        for s in &l.spans {
            let lockstep_render::layout::SpanKind::Overlap { .. } = s.kind else {
                continue;
            };
            // Each stretch of the band between two lines is as long as its time at the
            // picture's scale, or inside a marked zoom, stack or break.
            for w in lines.windows(2) {
                let ((y0, t0), (y1, t1)) = (w[0], w[1]);
                if y0 < s.rect.y0 - 0.5 || y1 > s.rect.y1 + 0.5 {
                    continue;
                }
                let marked = l
                    .stretches
                    .iter()
                    .any(|st| st.y0 <= y0 + 0.5 && st.y1 >= y1 - 0.5);
                if !marked {
                    let want = (t1 - t0) as f64 * l.ms_scale;
                    assert!(
                        (y1 - y0 - want).abs() < 1.0,
                        "{id}: the danger band's {t0}–{t1} ms is {:.0} px, {want:.0} at the \
                         picture's scale, and no mark says why",
                        y1 - y0
                    );
                }
                checked += 1;
            }
        }
    }
    assert!(checked > 20, "{checked}");
}

#[test]
fn every_gap_off_the_pictures_scale_is_marked() {
    for (id, l) in common::each_to_scale() {
        for w in lines(&l).windows(2) {
            let ((y0, t0), (y1, t1)) = (w[0], w[1]);
            let want = (t1 - t0) as f64 * l.ms_scale;
            let marked = l
                .stretches
                .iter()
                .any(|st| st.y0 <= y0 + 0.5 && st.y1 >= y1 - 0.5);
            assert!(
                marked || (y1 - y0 - want).abs() < 1.0,
                "{id}: {t0}–{t1} ms is {:.0} px, not {want:.0}, unmarked",
                y1 - y0
            );
        }
    }
}

#[test]
fn the_legend_explains_zooms_stacks_and_breaks() {
    use lockstep_render::layout::LegendKind;
    let mut seen = [false; 3];
    for (id, l) in common::each_to_scale() {
        for (k, (stretch, entry)) in [
            (StretchKind::Zoom, LegendKind::Zoom),
            (StretchKind::Stack, LegendKind::Stack),
            (StretchKind::Break, LegendKind::Break),
        ]
        .into_iter()
        .enumerate()
        {
            let drawn = l.stretches.iter().any(|s| s.kind == stretch);
            let listed = l.legend.iter().any(|e| e.kind == entry);
            assert_eq!(
                drawn, listed,
                "{id}: {stretch:?} drawn {drawn}, in the legend {listed}"
            );
            seen[k] |= drawn;
        }
    }
    assert_eq!(seen, [true; 3]);
}

/// A zoom's tinted band takes in its rows' labels and notes whole (the first row's label sits
/// above its line) and leaves its neighbours' out: no label or note straddles a band's edge
/// (heartbeat-does-not-help #10-11 `PEXPIRE …`, idempotency-keys #11-12 `write 3 payouts`).
#[test]
fn no_label_or_note_straddles_a_zoom_bands_edge() {
    let mut failures = Vec::new();
    for (id, l) in common::each_to_scale() {
        let boxes = l
            .arrows
            .iter()
            .filter(|a| !a.label.text.is_empty())
            .map(|a| (&a.label.text, a.label.rect))
            .chain(l.flights.iter().map(|f| (&f.label.text, f.label.rect)))
            .chain(l.notes.iter().map(|n| (&n.text.text, n.rect)));
        let zooms: Vec<_> = l
            .stretches
            .iter()
            .filter(|s| s.kind == StretchKind::Zoom)
            .collect();
        for (text, r) in boxes {
            for z in &zooms {
                for edge in [z.band.0, z.band.1] {
                    // An edge may graze a box's padding (2 px): where a note hanging from a
                    // band's last line and the next row's label overlap in height, the edge
                    // runs between them.
                    if r.y0 + 2.0 < edge && r.y1 - 2.0 > edge {
                        failures.push(format!(
                            "{id}: {text:?} ({:.0}..{:.0}) straddles the edge at {edge:.0} of the zoom {}..{} ms",
                            r.y0, r.y1, z.from_ms, z.to_ms
                        ));
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A round time outside a zoom is not labelled on the zoom's band, where it would read as the
/// time of the zoom's rows (fenced-gc-pause: `8 s` on the first row of the 8004 ms zoom).
#[test]
fn no_round_time_is_labelled_on_a_zoom_it_is_not_in() {
    let mut failures = Vec::new();
    for (id, l) in common::each_to_scale() {
        for t in l.ticks.iter().filter(|t| t.label.is_some()) {
            for z in l.stretches.iter().filter(|s| s.kind == StretchKind::Zoom) {
                let inside = (z.from_ms..=z.to_ms).contains(&t.time_ms);
                if !inside && t.y > z.band.0 - 2.0 && t.y < z.band.1 + 2.0 {
                    failures.push(format!(
                        "{id}: tick {} ms labelled at {:.0}, on the band ({:.0}..{:.0}) of the zoom {}..{} ms",
                        t.time_ms, t.y, z.band.0, z.band.1, z.from_ms, z.to_ms
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
