//! To scale, the axis keeps one scale: a tick at every round time wherever the scale holds, a
//! held-up message as long as its time in the network, idle stretches cut short by marked
//! breaks. Bursts of events within ms are drawn in order in a band naming their time range, not
//! at a zoom factor of their own, so a to-scale picture is hardly taller than its logical one.

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
fn rows_of_one_instant_stack_marked_as_such() {
    for (id, l) in common::each_to_scale() {
        for w in lines(&l).windows(2) {
            let ((y0, t0), (y1, t1)) = (w[0], w[1]);
            if t0 != t1 {
                continue;
            }
            // Stacked (marked), or inside a burst drawn in order.
            assert!(
                l.stretches
                    .iter()
                    .any(|s| s.kind != StretchKind::Break && s.y0 <= y0 && s.y1 >= y1),
                "{id}: two lines at {t0} ms ({y0:.0}, {y1:.0}) with no stack or burst mark"
            );
        }
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

/// No round time is labelled on a burst's band, where it would read as the time of the
/// burst's rows (fenced-gc-pause: `8 s` on the first row of the 8004 ms burst), nor inside a
/// burst (its rows are in order, not at their time): the label of a round time just before a
/// burst sits above its band, just after one below.
#[test]
fn no_round_time_is_labelled_on_a_burst() {
    let mut failures = Vec::new();
    for (id, l) in common::each_to_scale() {
        for (t, b) in l
            .ticks
            .iter()
            .filter_map(|t| t.label.as_ref().map(|b| (t, b)))
        {
            for z in l.stretches.iter().filter(|s| s.kind == StretchKind::Zoom) {
                let inside = (z.from_ms..=z.to_ms).contains(&t.time_ms);
                if inside || (b.rect.y1 > z.band.0 && b.rect.y0 < z.band.1) {
                    failures.push(format!(
                        "{id}: tick {} ms labelled at {:.0}..{:.0}, on the band ({:.0}..{:.0}) of the burst {}..{} ms",
                        t.time_ms, b.rect.y0, b.rect.y1, z.band.0, z.band.1, z.from_ms, z.to_ms
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A to-scale picture is at most 1.5x as tall as the logical picture of the same run: on a
/// 1920x1080 slide its text stays readable (it was 2,100–6,100 px tall, its text 2.5–7 px).
#[test]
fn to_scale_pictures_are_at_most_half_again_as_tall_as_logical_ones() {
    let mut report = Vec::new();
    let mut failures = Vec::new();
    for (id, scenario, run) in common::catalogue() {
        let logical = layout(&run.trace, &Options::default().for_scenario(&scenario));
        let options = Options {
            time_mode: TimeMode::ToScale,
            ..Options::default()
        }
        .for_scenario(&scenario);
        let scaled = layout(&run.trace, &options);
        let ratio = scaled.height / logical.height;
        let line = format!(
            "{id}: {:.0} px to scale, {:.0} px logical ({ratio:.2}x)",
            scaled.height, logical.height
        );
        if ratio > 1.5 {
            failures.push(line.clone());
        }
        report.push(line);
    }
    println!("{}", report.join("\n"));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// fenced-gc-pause to scale, with its title and verdict, fits a 1920x1080 slide at half size or
/// better (it needed 0.44).
#[test]
fn fenced_gc_pause_to_scale_fits_a_slide_at_half_size() {
    let (scenario, run) = common::load("fenced-gc-pause");
    let l = to_scale("fenced-gc-pause");
    let page =
        lockstep_render::svg::Page::new(&l, &lockstep_render::Caption::for_run(&scenario, &run));
    let scale = (1920.0 / page.width).min(1080.0 / page.height);
    assert!(
        scale >= 0.5,
        "{}x{} fits 1920x1080 only at {scale:.2}",
        page.width,
        page.height
    );
}

/// The zoom factors a picture's labels claim ("×9.2", "×73").
fn zoom_factors(l: &lockstep_render::Layout) -> Vec<f64> {
    let mut out: Vec<f64> = Vec::new();
    for label in l.stretches.iter().filter_map(|s| s.label.as_ref()) {
        if let Some(rest) = label.text.split('×').nth(1) {
            let digits: String = rest
                .chars()
                .take_while(|c| c.is_ascii_digit() || *c == '.')
                .collect();
            let f: f64 = digits.parse().expect("a zoom factor");
            if !out.contains(&f) {
                out.push(f);
            }
        }
    }
    out
}

/// At most two zoom factors in a picture, none under ×4 (×2 is hardly a zoom): a presenter
/// cannot compare lengths across ×9.2, ×21 and ×82 bands. Bursts are drawn in order with their
/// time range instead, so no band claims a scale it does not keep.
#[test]
fn at_most_two_zoom_factors_per_picture_none_under_four() {
    let mut failures = Vec::new();
    for (id, l) in common::each_to_scale() {
        let factors = zoom_factors(&l);
        if factors.len() > 2 || factors.iter().any(|&f| f < 4.0) {
            failures.push(format!("{id}: zoom factors {factors:?}"));
        }
        for z in l.stretches.iter().filter(|s| s.kind == StretchKind::Zoom) {
            let label = z.label.as_ref().expect("a burst says its time range");
            let range = if z.from_ms == z.to_ms {
                format!("{} ms, in order", z.from_ms)
            } else {
                format!("{}–{} ms, in order", z.from_ms, z.to_ms)
            };
            assert_eq!(label.text, range, "{id}");
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Every round second outside bursts and breaks is labelled, unless its label would overlap a
/// burst's or break's label; no tick label sits on a burst band's edge (heartbeat had no `1 s`,
/// redis-sentinel-split-brain showed 1.0, 1.5, 2.5, 3.5, 5.0 s).
#[test]
fn every_round_second_outside_bursts_and_breaks_is_labelled() {
    let mut failures = Vec::new();
    let mut labelled = 0;
    for (id, l) in common::each_to_scale() {
        let lines = lines(&l);
        let (Some(&(_, first)), Some(&(_, last))) = (lines.first(), lines.last()) else {
            continue;
        };
        for t in l
            .ticks
            .iter()
            .filter_map(|t| t.label.as_ref().map(|b| (t, b)))
        {
            for z in l.stretches.iter().filter(|s| s.kind == StretchKind::Zoom) {
                for edge in [z.band.0, z.band.1] {
                    if t.1.rect.y0 < edge && t.1.rect.y1 > edge {
                        failures.push(format!("{id}: {} on the edge of a band", t.1.text));
                    }
                }
            }
        }
        let mut s = first.div_ceil(1000) * 1000;
        while s <= last {
            let tick = l.ticks.iter().find(|t| t.time_ms == s);
            // In a burst, or on its band (where it would read as the time of the burst's rows).
            let off_scale = l.stretches.iter().any(|st| match st.kind {
                StretchKind::Zoom => {
                    (st.from_ms..=st.to_ms).contains(&s)
                        || tick.is_some_and(|t| t.y > st.band.0 - 4.0 && t.y < st.band.1 + 4.0)
                }
                StretchKind::Break => st.from_ms < s && s < st.to_ms,
                StretchKind::Stack => false,
            });
            match tick {
                _ if off_scale => {}
                Some(t) if t.label.is_some() => labelled += 1,
                Some(t) => {
                    // Only a stretch's label, or a band closer than a label's height (between
                    // two bands too close for it), may keep it unlabelled.
                    let at = lockstep_render::geom::Rect::new(0.0, t.y - 8.0, f64::MAX, t.y + 8.0);
                    let crowded = l
                        .stretches
                        .iter()
                        .filter_map(|st| st.label.as_ref())
                        .any(|b| b.rect.overlaps(&at))
                        || l.stretches.iter().any(|st| {
                            st.kind == StretchKind::Zoom
                                && t.y > st.band.0 - 24.0
                                && t.y < st.band.1 + 24.0
                        });
                    if !crowded {
                        failures.push(format!("{id}: {s} ms has a tick but no label"));
                    }
                }
                None => failures.push(format!("{id}: no tick at {s} ms")),
            }
            s += 1000;
        }
    }
    assert!(labelled > 100, "{labelled}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Inside a burst's band the rows pack and follow each other a line apart, as logical rows do:
/// no empty room between two lines (a ×250 zoom left 32 px per ms between rows, 64 px for a
/// 2 ms hop: 54 such gaps over the catalogue, 123 px in redlock-split-votes).
#[test]
fn no_empty_room_between_the_rows_of_a_burst() {
    let mut stretched = Vec::new();
    let mut inside = 0;
    for (id, l) in common::each_to_scale() {
        // Each line's index and y (a line left empty, made room for a slanted arrow as in
        // logical time, counts as a line).
        let mut lines: Vec<(usize, f64)> = l.rows.iter().map(|r| (r.line, r.y)).collect();
        lines.sort_by_key(|&(line, _)| line);
        lines.dedup_by_key(|&mut (line, _)| line);
        for z in l.stretches.iter().filter(|s| s.kind == StretchKind::Zoom) {
            for w in lines.windows(2) {
                let ((k0, y0), (k1, y1)) = (w[0], w[1]);
                if y0 >= z.y0 - 0.5 && y1 <= z.y1 + 0.5 {
                    inside += 1;
                    if y1 - y0 > (k1 - k0) as f64 * 32.0 + 0.5 {
                        stretched.push(format!("{id}: {:.0} px at y {y0:.0}", y1 - y0));
                    }
                }
            }
        }
    }
    println!("{inside} gaps inside bursts, {} stretched", stretched.len());
    assert!(inside > 500, "{inside}");
    assert!(
        stretched.is_empty(),
        "{} stretched: {}",
        stretched.len(),
        stretched[..stretched.len().min(10)].join(", ")
    );
}
