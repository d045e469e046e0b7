//! The danger band to scale: no axis break cuts into an overlap (two workers both believing they
//! hold the lock), and it says its true length. (Its parts at the picture's scale are as long as
//! it lasts: tests/true_axis.rs.)

mod common;

use lockstep_render::layout::StretchKind;

/// No axis break cuts into an overlap (redlock-clock-jump cut 2.0 s out of its 2.0 s overlap,
/// drawing it as 1.08 s while an idle 1.8 s after it was drawn in full).
#[test]
fn no_break_cuts_an_overlap() {
    let mut failures = Vec::new();
    for (id, l) in common::each_to_scale() {
        use lockstep_render::layout::SpanKind;
        let last = l.rows.last().map_or(0, |r| r.time_ms);
        for s in l
            .spans
            .iter()
            .filter(|s| matches!(s.kind, SpanKind::Overlap { .. }))
        {
            let (from, to) = (
                l.rows[s.from_row].time_ms,
                s.to_row.map_or(last, |r| l.rows[r].time_ms),
            );
            for b in l.stretches.iter().filter(|b| b.kind == StretchKind::Break) {
                if b.from_ms < to && b.to_ms > from {
                    failures.push(format!(
                        "{id}: the break {}–{} ms cuts the overlap {from}–{to} ms",
                        b.from_ms, b.to_ms
                    ));
                }
                if b.y0 < s.rect.y1 && b.y1 > s.rect.y0 {
                    failures.push(format!("{id}: a break drawn across the overlap band"));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// To scale, each overlap band says how long it lasts, beside the time marks, within its band's
/// height: "overlap 2.0 s" (fenced-gc-pause, 6002–8006 ms).
#[test]
fn each_overlap_band_is_labelled_with_its_true_length() {
    use lockstep_render::layout::SpanKind;
    for (id, l) in common::each_to_scale() {
        let bands: Vec<_> = l
            .spans
            .iter()
            .filter(|s| matches!(s.kind, SpanKind::Overlap { .. }))
            .collect();
        assert_eq!(bands.len(), l.overlap_labels.len(), "{id}");
        for (s, b) in bands.iter().zip(&l.overlap_labels) {
            let last = l.rows.last().map_or(0, |r| r.time_ms);
            let ms = s.to_row.map_or(last, |r| l.rows[r].time_ms) - l.rows[s.from_row].time_ms;
            let want = if ms >= 1000 {
                format!("overlap {:.1} s", ms as f64 / 1000.0)
            } else {
                format!("overlap {ms} ms")
            };
            assert_eq!(b.text, want, "{id}");
            assert!(
                b.rect.x0 > l.area.x1,
                "{id}: {b:?} not beside the time marks"
            );
            let mid = (b.rect.y0 + b.rect.y1) / 2.0;
            assert!(
                mid >= s.rect.y0 - 0.5 && mid <= s.rect.y1 + 0.5 || s.rect.height() < 20.0,
                "{id}: {:?} not beside its band {:.0}..{:.0}",
                b.text,
                s.rect.y0,
                s.rect.y1
            );
        }
    }
    let (_, l) = common::each_to_scale()
        .into_iter()
        .find(|(id, _)| id == "fenced-gc-pause")
        .expect("in the catalogue");
    assert_eq!(l.overlap_labels[0].text, "overlap 2.0 s");
}
