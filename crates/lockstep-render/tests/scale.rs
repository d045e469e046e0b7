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
    // Less the zooms it crosses (rows in order, marked: room, not time), and the time inside
    // them (their labels give it).
    let crossed = l
        .stretches
        .iter()
        .filter(|s| s.band.1 > a.start.y && s.band.0 < a.tip.y);
    let zoomed: f64 = crossed
        .clone()
        .map(|s| s.band.1.min(a.tip.y) - s.band.0.max(a.start.y))
        .sum();
    let inside: u64 = crossed
        .filter(|s| s.band.1 <= a.tip.y)
        .map(|s| s.resume_ms - s.top_ms)
        .sum();
    // A band the arrow ends in may be lifted: its top is before its first time.
    let lifted: u64 = l
        .stretches
        .iter()
        .filter(|s| s.band.0 < a.tip.y && s.band.1 > a.tip.y)
        .map(|s| s.from_ms - s.top_ms)
        .sum();
    let drawn = a.tip.y - a.start.y - zoomed;
    let scaled = (8001 - inside - lifted) as f64 * l.ms_scale;
    assert!(
        (drawn - scaled).abs() < 2.0,
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
            assert!((b.y1 - b.y0 - 72.0).abs() < 0.01, "{id}: {b:?}");
            assert!(b.to_ms - b.from_ms >= 2000, "{id}: {b:?}");
            // Its label names the true length of the idle time it cuts.
            let cut = (b.to_ms - b.from_ms) as f64 / 1000.0;
            let label = b.label.as_ref().expect("a break says what it cuts");
            assert_eq!(label.text, format!("{cut:.1} s cut"), "{id}");
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
    assert!(breaks >= 2, "{breaks} breaks over the catalogue");
    // Drawn across the lanes: the label and the zig-zags.
    let (scenario, run) = common::load("migration-right-order");
    let options = Options {
        time_mode: TimeMode::ToScale,
        ..Options::default()
    };
    let svg = lockstep_render::run_svg(&scenario, &run, &options).unwrap();
    assert!(svg.contains(" s cut"), "no break label in the SVG");
    assert!(
        svg.contains("height is simulated time at ") && svg.contains("breaks cut idle time"),
        "the subtitle says what the axis does"
    );
}

/// Points on the axis where its time is known, top to bottom: each line outside zooms, each
/// zoom's band edges (its first and last time), each break's and stack's ends, each tick.
fn anchors(l: &lockstep_render::Layout) -> Vec<(f64, u64)> {
    let in_zoom = |y: f64| {
        l.stretches
            .iter()
            .any(|s| s.kind == StretchKind::Zoom && y >= s.band.0 - 0.5 && y <= s.band.1 + 0.5)
    };
    let mut out: Vec<(f64, u64)> = lines(l).into_iter().filter(|&(y, _)| !in_zoom(y)).collect();
    for s in &l.stretches {
        out.push((s.band.0, s.top_ms));
        out.push((s.band.1, s.resume_ms));
    }
    out.extend(l.ticks.iter().map(|t| (t.y, t.time_ms)));
    out.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    out.dedup();
    out
}

/// The stretches between neighbouring anchors that no zoom, stack or break covers: drawn to
/// scale.
fn at_scale(l: &lockstep_render::Layout) -> Vec<((f64, u64), (f64, u64))> {
    anchors(l)
        .windows(2)
        .map(|w| (w[0], w[1]))
        .filter(|&((y0, _), (y1, _))| {
            y1 > y0 + 0.5
                && !l
                    .stretches
                    .iter()
                    .any(|s| s.band.0 <= y0 + 0.5 && s.band.1 >= y1 - 0.5)
        })
        .collect()
}

/// One px per second for the whole picture: every stretch not marked as a zoom, stack or break
/// is as long as its time at the picture's scale, measured from what is drawn (a zoom's band
/// edges are its first and last times; fenced-gc-pause drew the 998 ms before the 6000 ms
/// burst as 14 px, 0.35 s, where a second was 40 px elsewhere).
#[test]
fn every_stretch_drawn_to_scale_has_the_pictures_one_scale() {
    let mut failures = Vec::new();
    let mut checked = 0;
    for (id, l) in common::each_to_scale() {
        for ((y0, t0), (y1, t1)) in at_scale(&l) {
            let want = t1.saturating_sub(t0) as f64 * l.ms_scale;
            let px = y1 - y0;
            checked += 1;
            if (px - want).abs() > (0.01 * px).max(1.0) {
                failures.push(format!(
                    "{id}: {t0}–{t1} ms drawn {px:.1} px, {want:.1} px at {:.1} px/s",
                    l.ms_scale * 1000.0
                ));
            }
        }
    }
    assert!(checked > 120, "{checked}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A gridline at every whole second inside each stretch drawn to scale (fenced-gc-pause had
/// none at 6 s and 8 s), at its time on the scale.
#[test]
fn every_whole_second_drawn_to_scale_has_a_gridline() {
    let mut failures = Vec::new();
    let mut seen = 0;
    for (id, l) in common::each_to_scale() {
        assert!(
            l.ms_scale * 1000.0 >= 28.0,
            "{id}: a second is under a label's height"
        );
        for ((y0, t0), (_, t1)) in at_scale(&l) {
            let mut s = t0.div_ceil(1000) * 1000;
            while s <= t1 {
                let y = y0 + (s - t0) as f64 * l.ms_scale;
                seen += 1;
                if !l
                    .ticks
                    .iter()
                    .any(|t| t.time_ms == s && (t.y - y).abs() < 1.0)
                {
                    failures.push(format!("{id}: no gridline at {s} ms (y {y:.0})"));
                }
                s += 1000;
            }
        }
    }
    assert!(seen > 120, "{seen}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Whatever is not drawn at the picture's scale is marked: between two lines, either the gap
/// is the time at the scale (from a zoom's band bottom to the next band's top), or a zoom,
/// stack or break covers it.
#[test]
fn every_gap_off_the_pictures_scale_is_marked() {
    for (id, l) in common::each_to_scale() {
        let covered = |y0: f64, y1: f64| {
            l.stretches
                .iter()
                .any(|st| st.band.0 <= y0 + 0.5 && st.band.1 >= y1 - 0.5)
        };
        for w in lines(&l).windows(2) {
            let ((y0, _), (y1, _)) = (w[0], w[1]);
            if covered(y0, y1) {
                continue;
            }
            // Not wholly inside one mark: each piece between anchors is at scale (checked
            // above) or marked.
            for ((a, _), (b, _)) in anchors(&l)
                .windows(2)
                .map(|w| (w[0], w[1]))
                .filter(|&((a, _), (b, _))| a >= y0 - 0.5 && b <= y1 + 0.5)
            {
                let at_scale = at_scale(&l)
                    .iter()
                    .any(|&((p, _), (q, _))| p == a && q == b);
                assert!(
                    at_scale || covered(a, b) || b - a < 0.5,
                    "{id}: {a:.0}..{b:.0} neither at scale nor marked"
                );
            }
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

/// No round time is labelled inside a burst's band, where it would read as the time of the
/// burst's rows (fenced-gc-pause: `8 s` on the first row of the 8004 ms burst); and every label
/// sits at its own line, even on a band's edge (fenced-gc-pause's "6 s" was moved 12 px up off
/// the band's top, so 5 s -> 6 s read as 0.7 s).
#[test]
fn round_times_are_labelled_at_their_line_and_never_inside_a_burst() {
    let mut failures = Vec::new();
    let mut on_edges = 0;
    for (id, l) in common::each_to_scale() {
        for (t, b) in l
            .ticks
            .iter()
            .filter_map(|t| t.label.as_ref().map(|b| (t, b)))
        {
            let mid = (b.rect.y0 + b.rect.y1) / 2.0;
            if (mid - t.y).abs() > 0.5 {
                failures.push(format!(
                    "{id}: tick {} ms at y {:.0} labelled at {mid:.0}",
                    t.time_ms, t.y
                ));
            }
            for z in l.stretches.iter().filter(|s| s.kind == StretchKind::Zoom) {
                let inside = (z.from_ms < t.time_ms && t.time_ms < z.to_ms)
                    || (t.y > z.band.0 + 2.0 && t.y < z.band.1 - 2.0);
                if inside {
                    failures.push(format!(
                        "{id}: tick {} ms labelled at {:.0}..{:.0}, on the band ({:.0}..{:.0}) of the burst {}..{} ms",
                        t.time_ms, b.rect.y0, b.rect.y1, z.band.0, z.band.1, z.from_ms, z.to_ms
                    ));
                }
                on_edges += usize::from(b.rect.y1 > z.band.0 && b.rect.y0 < z.band.1);
            }
        }
    }
    assert!(
        on_edges > 0,
        "no label on a band's edge: the test checks nothing new"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Zooms' and breaks' labels are as large as the arrows' labels (16 px; they were 14 px, 6 px
/// on redlock-clock-jump's slide).
#[test]
fn zoom_and_break_labels_are_label_size() {
    let mut seen = 0;
    for (id, l) in common::each_to_scale() {
        for s in l.stretches.iter().filter(|s| s.kind != StretchKind::Stack) {
            if let Some(b) = &s.label {
                seen += 1;
                assert!(b.size >= 16.0, "{id}: {:?} at {} px", b.text, b.size);
            }
        }
    }
    assert!(seen > 50, "{seen}");
}

/// A to-scale picture is at most 1.6x as tall as the logical picture of the same run: on a
/// 1920x1080 slide its text stays readable (it was 2,100–6,100 px tall, its text 2.5–7 px).
/// (1.5x before zooms' bands got room of their own for their first row's label and last row's
/// note, off the time axis: a zoom's edges are its first and last times on the scale.)
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
        if ratio > 1.6 {
            failures.push(line.clone());
        }
        report.push(line);
    }
    println!("{}", report.join("\n"));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// fenced-gc-pause to scale, with its title and verdict, fits a 1920x1080 slide at 0.65 or
/// better (it needed 0.44, then 0.61 with its zooms' rows drawn over the time after them; the
/// zooms now stop the clock and the scale gives up the room they take).
#[test]
fn fenced_gc_pause_to_scale_fits_a_slide_at_065_or_better() {
    let (scenario, run) = common::load("fenced-gc-pause");
    let l = to_scale("fenced-gc-pause");
    let page =
        lockstep_render::svg::Page::new(&l, &lockstep_render::Caption::for_run(&scenario, &run));
    let scale = (1920.0 / page.width).min(1080.0 / page.height);
    assert!(
        scale >= 0.65,
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
                format!("zoom: {} ms,\nin order", z.from_ms)
            } else {
                format!("zoom: {}–{} ms,\nin order", z.from_ms, z.to_ms)
            };
            assert_eq!(label.text, range, "{id}");
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Every round second outside bursts and breaks is labelled, unless its label would overlap a
/// burst's or break's label (heartbeat had no `1 s`, redis-sentinel-split-brain showed 1.0, 1.5,
/// 2.5, 3.5, 5.0 s). A label on a band's edge stays at its line (see
/// `round_times_are_labelled_at_their_line_and_never_inside_a_burst`).
#[test]
fn every_round_second_outside_bursts_and_breaks_is_labelled() {
    let mut failures = Vec::new();
    let mut labelled = 0;
    for (id, l) in common::each_to_scale() {
        let lines = lines(&l);
        let (Some(&(_, first)), Some(&(_, last))) = (lines.first(), lines.last()) else {
            continue;
        };
        let mut s = first.div_ceil(1000) * 1000;
        while s <= last {
            let tick = l.ticks.iter().find(|t| t.time_ms == s);
            // In a burst, or on its band (where it would read as the time of the burst's rows).
            let off_scale = l.stretches.iter().any(|st| match st.kind {
                StretchKind::Zoom => {
                    (st.top_ms..=st.resume_ms).contains(&s)
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
                    // (A time label is about 20 px tall and keeps 2 px from another label.)
                    let at =
                        lockstep_render::geom::Rect::new(0.0, t.y - 12.0, f64::MAX, t.y + 12.0);
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
    assert!(labelled > 50, "{labelled}");
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

/// The share of the timeline's height inside zooms (bursts drawn in order, not time), per
/// scenario, with the picture's scale: printed for the record.
#[test]
fn zooms_share_of_the_timeline() {
    let mut report = Vec::new();
    for (id, l) in common::each_to_scale() {
        let zoomed: f64 = l
            .stretches
            .iter()
            .filter(|s| s.kind != StretchKind::Break)
            .map(|s| s.band.1 - s.band.0)
            .sum();
        let tall = l.lifeline_bottom - l.lifeline_top;
        report.push(format!(
            "{id:36} {:6.1} px/s  {:4.0} px  zooms {:3.0}%",
            l.ms_scale * 1000.0,
            tall,
            100.0 * zoomed / tall
        ));
        assert!(zoomed < tall, "{id}");
    }
    println!("{}", report.join("\n"));
}
