//! To scale means to scale (issue 10): outside zooms and breaks, y is one linear function of time
//! at the picture's px/s. A zoom (a burst of events closer than a line apart) is an inserted
//! strip over which the clock stands still: its top is its first time, its bottom its last, and
//! the axis runs on from there. So every gridline sits exactly at its time, none lies inside a
//! zoom, and a whole second inside a zoom is marked on its bracket among its rows. Read from the
//! Layout's axis, not from the SVG text.

mod common;

use lockstep_render::Layout;
use lockstep_render::layout::{SpanKind, StretchKind};

/// Rows drawn at their own time (a folded retry is drawn on its fold's line, whose note names how
/// many and how far apart).
fn own_rows(l: &Layout) -> impl Iterator<Item = &lockstep_render::layout::Row> {
    let folded: Vec<usize> = l
        .folds
        .iter()
        .flat_map(|f| f.events[1..].iter().copied())
        .collect();
    l.rows.iter().filter(move |r| !folded.contains(&r.event))
}

/// The axis pieces meet end to end, in y and in time, and each piece at the picture's scale is
/// its time at the one px/s; a zoom or stack is never shorter than its time at that scale (it
/// zooms in, never hides time), and whatever is shorter is a break that says what it cut.
#[test]
fn the_axis_is_one_scale_between_marked_strips() {
    let mut failures = Vec::new();
    for (id, l) in common::each_to_scale() {
        assert!(!l.axis.is_empty(), "{id}: no axis");
        for w in l.axis.windows(2) {
            if (w[0].y1 - w[1].y0).abs() > 1e-6 || w[0].to_ms != w[1].from_ms {
                failures.push(format!("{id}: {:?} then {:?}", w[0], w[1]));
            }
        }
        for p in &l.axis {
            let at_scale = (p.to_ms - p.from_ms) as f64 * l.ms_scale;
            let px = p.y1 - p.y0;
            match p.kind {
                None if (px - at_scale).abs() > 1e-6 => failures.push(format!(
                    "{id}: {}–{} ms drawn {px:.2} px at scale, not {at_scale:.2}",
                    p.from_ms, p.to_ms
                )),
                Some(StretchKind::Zoom | StretchKind::Stack) if px + 1e-6 < at_scale => failures
                    .push(format!(
                        "{id}: a zoom {}–{} ms drawn {px:.1} px, shorter than its time ({at_scale:.1} px)",
                        p.from_ms, p.to_ms
                    )),
                _ => {}
            }
        }
        for b in l.stretches.iter().filter(|s| s.kind == StretchKind::Break) {
            let want = format!("{:.1} s cut", (b.to_ms - b.from_ms) as f64 / 1000.0);
            let said = b.label.as_ref().map(|t| t.text.as_str());
            if said != Some(want.as_str())
                || b.band.1 - b.band.0 >= (b.to_ms - b.from_ms) as f64 * l.ms_scale
            {
                failures.push(format!(
                    "{id}: break {}–{} ms says {said:?}",
                    b.from_ms, b.to_ms
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Every gridline sits at its time on the axis, and none lies inside a zoom or stack (fenced-gc-
/// pause's "8 s" ran below B's 8004 ms write when zooms were laid over the gridline scale).
#[test]
fn every_gridline_is_at_its_time_and_outside_zooms() {
    let mut failures = Vec::new();
    let mut seen = 0;
    for (id, l) in common::each_to_scale() {
        for t in &l.ticks {
            seen += 1;
            match l.y_at(t.time_ms) {
                Some(y) if (y - t.y).abs() < 1e-6 => {}
                y => failures.push(format!(
                    "{id}: gridline {} ms at y {:.1}, the axis puts it at {y:?}",
                    t.time_ms, t.y
                )),
            }
            for s in l.stretches.iter().filter(|s| s.kind != StretchKind::Break) {
                if t.y > s.band.0 + 1e-6 && t.y < s.band.1 - 1e-6 {
                    failures.push(format!(
                        "{id}: gridline {} ms inside the {:?} {}–{} ms",
                        t.time_ms, s.kind, s.from_ms, s.to_ms
                    ));
                }
            }
        }
    }
    assert!(seen > 200, "{seen} gridlines");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Rows go down the page as time goes on, and two rows on the axis's linear parts (not inside a
/// zoom or stack) are their time apart at the picture's scale, to within the 3 px within which
/// events share a line.
#[test]
fn rows_sit_at_their_time() {
    let mut failures = Vec::new();
    let mut checked = 0;
    for (id, l) in common::each_to_scale() {
        let rows: Vec<_> = own_rows(&l).collect();
        for w in rows.windows(2) {
            if w[1].time_ms > w[0].time_ms && w[1].y < w[0].y - 1e-6 {
                // In a zoom, rows go in order of the story (a reply drawn level beside its
                // request), not of the clock: only its range is claimed.
                let in_zoom = |y: f64| {
                    l.stretches
                        .iter()
                        .any(|s| s.kind != StretchKind::Break && y > s.band.0 && y < s.band.1)
                };
                if !(in_zoom(w[0].y) && in_zoom(w[1].y)) {
                    failures.push(format!(
                        "{id}: step {} ({} ms) at y {:.0} above step {} ({} ms) at {:.0}",
                        w[1].step, w[1].time_ms, w[1].y, w[0].step, w[0].time_ms, w[0].y
                    ));
                }
            }
        }
        for r in &rows {
            // Inside a zoom or stack, or on its edge with a time in its range (rows of one
            // instant stacked: the strip is that instant).
            let strip = l.axis.iter().any(|p| {
                p.kind.is_some()
                    && (r.y > p.y0 + 1e-6 && r.y < p.y1 - 1e-6
                        || (p.from_ms..=p.to_ms).contains(&r.time_ms)
                            && r.y >= p.y0 - 1e-6
                            && r.y <= p.y1 + 1e-6)
            });
            if strip {
                continue;
            }
            checked += 1;
            match l.y_at(r.time_ms) {
                Some(y) if (y - r.y).abs() <= 3.0 + 1e-6 => {}
                y => failures.push(format!(
                    "{id}: step {} at {} ms is at y {:.1}, its time is at {y:?}",
                    r.step, r.time_ms, r.y
                )),
            }
        }
    }
    assert!(checked > 20, "{checked}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A whole second inside a zoom's range is marked on its bracket between the last row before it
/// and the first after it, never as a gridline.
#[test]
fn whole_seconds_inside_zooms_are_marked_in_order() {
    let mut failures = Vec::new();
    for (id, l) in common::each_to_scale() {
        for z in l.stretches.iter().filter(|s| s.kind == StretchKind::Zoom) {
            let want: Vec<u64> = (z.from_ms / 1000 + 1..)
                .map(|s| s * 1000)
                .take_while(|&s| s < z.to_ms)
                .collect();
            let got: Vec<u64> = z.seconds.iter().map(|m| m.time_ms).collect();
            if want != got {
                failures.push(format!(
                    "{id}: zoom {}–{} marks {got:?}",
                    z.from_ms, z.to_ms
                ));
            }
            for m in &z.seconds {
                let inside = |r: &&lockstep_render::layout::Row| r.y >= z.band.0 && r.y <= z.band.1;
                let before = own_rows(&l)
                    .filter(inside)
                    .filter(|r| r.time_ms < m.time_ms)
                    .map(|r| r.y)
                    .fold(f64::NEG_INFINITY, f64::max);
                let after = own_rows(&l)
                    .filter(inside)
                    .filter(|r| r.time_ms > m.time_ms)
                    .map(|r| r.y)
                    .fold(f64::INFINITY, f64::min);
                if m.y < before.min(after)
                    || m.y > after.max(before)
                    || m.y < z.band.0
                    || m.y > z.band.1
                {
                    failures.push(format!(
                        "{id}: {} ms marked at {:.0}, rows before it end at {before:.0}, after start at {after:.0}",
                        m.time_ms, m.y
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// An overlap band's parts at the picture's scale are its true length within 3 % (its zooms are
/// marked as zooms): Redlock's and etcd's bands were -12 % / +8 % of their time. They are always
/// its time less its zooms' time, exactly; only consensus-session-suspended's 504 ms overlap
/// holds a zoom of more than 3 % of it (the keepalive round 6004–6106 ms: drawing 102 ms a line
/// apart would take 0.3 px per ms, a 2,500 px picture), and consensus-fenced-failover's 2004 ms
/// (B's keepalives fall about 200 ms from its grant and from its write, since B is no longer
/// kept waiting by a dead node: two zooms, 20 % of the band).
#[test]
fn overlap_bands_are_their_true_length_on_the_linear_parts() {
    let mut failures = Vec::new();
    let mut report = Vec::new();
    let mut checked = 0;
    for (id, l) in common::each_to_scale() {
        let last = l.rows.last().map_or(0, |r| r.time_ms);
        for s in l
            .spans
            .iter()
            .filter(|s| matches!(s.kind, SpanKind::Overlap { .. }))
        {
            let ms = s.to_row.map_or(last, |r| l.rows[r].time_ms) - l.rows[s.from_row].time_ms;
            if ms < 100 {
                continue;
            }
            checked += 1;
            let linear: f64 = l
                .axis
                .iter()
                .filter(|p| p.kind.is_none())
                .map(|p| (p.y1.min(s.rect.y1) - p.y0.max(s.rect.y0)).max(0.0))
                .sum();
            let want = ms as f64 * l.ms_scale;
            let zoomed: u64 = l
                .axis
                .iter()
                .filter(|p| {
                    p.kind.is_some() && p.y0 >= s.rect.y0 - 1e-6 && p.y1 <= s.rect.y1 + 1e-6
                })
                .map(|p| p.to_ms - p.from_ms)
                .sum();
            let partly: f64 = l
                .axis
                .iter()
                .filter(|p| {
                    p.kind.is_some() && p.y0 < s.rect.y0 - 1e-6 && p.y1 > s.rect.y0 + 1e-6
                        || p.kind.is_some() && p.y0 < s.rect.y1 - 1e-6 && p.y1 > s.rect.y1 + 1e-6
                })
                .count() as f64;
            // Exactly its time less the zooms wholly inside it (a zoom it starts or ends in
            // holds its first or last row: no time of the band at scale).
            if partly == 0.0 && (linear - (ms - zoomed) as f64 * l.ms_scale).abs() > 1e-6 {
                failures.push(format!(
                    "{id}: {linear:.2} px at scale for {ms} ms less {zoomed} ms zoomed"
                ));
            }
            let line = format!(
                "{id:36} overlap {ms} ms: {linear:.1} px at scale for {want:.1} px ({:+.1} %)",
                (linear / want - 1.0) * 100.0
            );
            let dense = ["consensus-session-suspended", "consensus-fenced-failover"];
            if (linear - want).abs() > 0.03 * want && !dense.contains(&id.as_str()) {
                failures.push(line.clone());
            }
            report.push(line);
        }
    }
    println!("{}", report.join("\n"));
    assert!(checked >= 8, "{checked}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
