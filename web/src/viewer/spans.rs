//! How far across the page each row of a layout draws, so the page can scroll a step into view
//! sideways as well as down.

/// Per row of `layout`: the horizontal extent of its arrows (sent or arriving there, with their
/// labels) and notes.
pub(super) fn row_spans(layout: &lockstep_render::Layout) -> Vec<Option<(f64, f64)>> {
    let mut spans: Vec<Option<(f64, f64)>> = vec![None; layout.rows.len()];
    let mut widen = |row: usize, a: f64, b: f64| {
        if let Some(s) = spans.get_mut(row) {
            let (lo, hi) = (a.min(b), a.max(b));
            *s = Some(s.map_or((lo, hi), |(x0, x1)| (x0.min(lo), x1.max(hi))));
        }
    };
    for a in &layout.arrows {
        let label = (!a.label.text.is_empty()).then_some((a.label.rect.x0, a.label.rect.x1));
        for row in std::iter::once(a.send_row).chain(a.end_row) {
            widen(row, a.start.x, a.tip.x);
            if let Some((x0, x1)) = label {
                widen(row, x0, x1);
            }
        }
    }
    for n in &layout.notes {
        widen(n.row, n.rect.x0, n.rect.x1);
    }
    spans
}
