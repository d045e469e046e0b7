//! To scale, the time axis is honest all the way down: every whole second between the first and
//! the last event has its time mark at its place on the picture's one scale (inside a zoom that is
//! drawn over the idle time after its burst, a mark on the zoom's bracket), consecutive marks are
//! their time apart at the stated px/s unless a marked break or a zoomed inset lies between them,
//! and the quiet time between two bursts shows as empty time (fenced-gc-pause drew B's read of
//! "status: unpaid" at 6004 ms and its write at 8004 ms on consecutive rows, 0 px apart, with no
//! 7, 8 or 9 s gridline).

mod common;

use common::lines;

use lockstep_render::Layout;
use lockstep_render::layout::{Stretch, StretchKind};

/// Whether a zoom's band is drawn over its time at the picture's scale (its rows cover the idle
/// time after its burst): its band is as tall as the time from its top to where the axis takes up
/// again. Else it is an inset, taller than its time, and the axis jumps across it (marked).
fn overlays(l: &Layout, z: &Stretch) -> bool {
    let time = (z.resume_ms - z.top_ms) as f64 * l.ms_scale;
    z.kind == StretchKind::Zoom && (z.band.1 - z.band.0 - time).abs() <= 2.0
}

/// Whether the axis between y0 and y1 leaves the picture's scale where it is marked: a break, a
/// zoomed inset or a stack lies between.
fn marked_between(l: &Layout, y0: f64, y1: f64) -> bool {
    l.stretches
        .iter()
        .filter(|s| !overlays(l, s))
        .any(|s| s.band.0 < y1 - 0.5 && s.band.1 > y0 + 0.5)
}

/// Every whole second from the first event to the last has a time mark, unless a break cuts it
/// or it falls within the few ms of a burst drawn as an inset; and consecutive marks are their
/// time apart at the picture's scale (±2 px) wherever nothing marked lies between them.
#[test]
fn every_whole_second_has_its_mark_at_its_place_on_the_one_scale() {
    let mut failures = Vec::new();
    let mut checked = 0;
    for (id, l) in common::each_to_scale() {
        let (Some(first), Some(last)) = (l.rows.first(), l.rows.last()) else {
            continue;
        };
        for k in first.time_ms.div_ceil(1000)..=last.time_ms / 1000 {
            let t = k * 1000;
            // Cut by a break, inside an inset, or within a burst's own ms (its rows go in
            // order; its label gives its range).
            let excused = l.stretches.iter().any(|s| {
                (!overlays(&l, s)
                    && s.kind != StretchKind::Stack
                    && s.top_ms < t
                    && t < s.resume_ms)
                    || (s.kind == StretchKind::Zoom && s.from_ms < t && t < s.to_ms)
            });
            checked += 1;
            if !excused && !l.ticks.iter().any(|m| m.time_ms == t) {
                failures.push(format!("{id}: no time mark at {} s", k));
            }
        }
        for w in l.ticks.windows(2) {
            let (a, b) = (&w[0], &w[1]);
            if marked_between(&l, a.y, b.y) {
                continue;
            }
            let want = (b.time_ms - a.time_ms) as f64 * l.ms_scale;
            if (b.y - a.y - want).abs() > 2.0 {
                failures.push(format!(
                    "{id}: {} -> {} ms drawn {:.0} px, {want:.0} px at {:.0} px/s, nothing marked between",
                    a.time_ms,
                    b.time_ms,
                    b.y - a.y,
                    l.ms_scale * 1000.0
                ));
            }
        }
    }
    assert!(checked > 200, "{checked}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Each line's place on the axis: its zoom's band (top and bottom with their times) if it is in
/// one, else its own y and time.
fn place(l: &Layout, y: f64, t: u64) -> ((f64, u64), (f64, u64)) {
    l.stretches
        .iter()
        .find(|s| s.kind == StretchKind::Zoom && s.band.0 <= y && y <= s.band.1)
        .map_or(((y, t), (y, t)), |z| {
            ((z.band.0, z.top_ms), (z.band.1, z.resume_ms))
        })
}

/// Between two consecutive lines in different places on the axis, the drawn distance (from the
/// first's band's bottom to the second's band's top) is their time apart at the picture's scale,
/// unless a break or an inset lies between; and a quiet second or more between two bursts shows
/// at least a fifth of its length as empty time.
#[test]
fn the_time_between_two_rows_is_drawn_or_marked() {
    let mut failures = Vec::new();
    let mut quiet = 0;
    for (id, l) in common::each_to_scale() {
        for w in lines(&l).windows(2) {
            let ((_, (y0, t0)), ((y1, t1), _)) =
                (place(&l, w[0].0, w[0].1), place(&l, w[1].0, w[1].1));
            if y1 <= y0 + 0.5 && t1 <= t0 || marked_between(&l, y0, y1) {
                continue;
            }
            let want = t1.saturating_sub(t0) as f64 * l.ms_scale;
            if y1 - y0 < want - 2.0 {
                failures.push(format!(
                    "{id}: {t0}–{t1} ms between rows ({} -> {} ms) drawn {:.0} px, {want:.0} px at {:.0} px/s",
                    w[0].1,
                    w[1].1,
                    y1 - y0,
                    l.ms_scale * 1000.0
                ));
            }
            let gap = w[1].1 - w[0].1;
            if gap >= 1000 {
                quiet += 1;
                let empty = y1 - y0;
                let full = gap as f64 * l.ms_scale;
                if empty < full / 5.0 - 1.0 {
                    failures.push(format!(
                        "{id}: {} -> {} ms ({gap} ms quiet) shows {empty:.0} px of empty time, {full:.0} px at {:.0} px/s",
                        w[0].1,
                        w[1].1,
                        l.ms_scale * 1000.0
                    ));
                }
            }
        }
    }
    assert!(quiet > 20, "{quiet}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// fenced-gc-pause: between B reading "status: unpaid" (6004 ms) and B writing (8004 ms) the
/// room sees time pass: the 7 s gridline (labelled) lies between the two rows.
#[test]
fn fenced_gc_pause_shows_the_two_seconds_b_works_in() {
    let (_, l) = common::each_to_scale()
        .into_iter()
        .find(|(id, _)| id == "fenced-gc-pause")
        .expect("in the catalogue");
    let row = |t: u64| {
        l.rows
            .iter()
            .find(|r| r.time_ms == t)
            .map(|r| r.y)
            .expect("a row")
    };
    let (read, write) = (row(6004), row(8004));
    let seven = l
        .ticks
        .iter()
        .find(|t| t.time_ms == 7000)
        .expect("a 7 s mark");
    assert!(seven.label.is_some(), "the 7 s mark is labelled");
    assert!(
        read < seven.y && seven.y < write,
        "7 s at {:.0}, rows at {read:.0} and {write:.0}",
        seven.y
    );
    assert!(
        l.ticks
            .iter()
            .any(|t| t.time_ms == 8000 && t.label.is_some()),
        "a labelled 8 s mark"
    );
}

/// No time mark's label touches a zoom's bracket or label (naive-network-delay: "10 s" sat on the
/// corner of the 10005 ms zoom's bracket).
#[test]
fn time_labels_keep_clear_of_zoom_brackets_and_labels() {
    let mut failures = Vec::new();
    for (id, l) in common::each_to_scale() {
        let bracket_x = l.area.x1 + 9.0;
        for b in l.ticks.iter().filter_map(|t| t.label.as_ref()) {
            if b.rect.x0 < bracket_x + 4.0 {
                failures.push(format!(
                    "{id}: {:?} starts {:.0} px from the brackets",
                    b.text,
                    b.rect.x0 - bracket_x
                ));
            }
            for s in &l.stretches {
                if let Some(z) = &s.label
                    && z.rect.inflate(1.0).overlaps(&b.rect)
                {
                    failures.push(format!("{id}: {:?} on {:?}", b.text, z.text));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
