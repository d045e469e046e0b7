//! A payout-paid-twice row (red-edged band) holds only its own note and the write that caused
//! it: no unrelated arrow on its line (it would read as the cause), no label straddling the
//! band's edges.

mod common;

use lockstep_render::layout::HighlightKind;

#[test]
fn duplicate_rows_hold_nothing_else_and_labels_clear_their_edges() {
    let mut failures = Vec::new();
    common::each_layout(&[], |name, l| {
        for h in l
            .highlights
            .iter()
            .filter(|h| h.kind == HighlightKind::DuplicatePayout)
        {
            let Some((top, bottom)) = l.highlight_band(h) else {
                continue;
            };
            let inside = |y: f64| y > top && y < bottom;
            // The write that caused it (the last arrow into its lane before it) may
            // arrive on its line.
            let lane = l.notes.iter().find(|n| n.row == h.row).map(|n| n.lanes.0);
            let cause = l
                .arrows
                .iter()
                .filter(|a| Some(a.to_lane) == lane && a.end_row.is_some_and(|e| e < h.row))
                .max_by_key(|a| a.end_row)
                .map(|a| a.send_row);
            for a in l.arrows.iter().filter(|a| Some(a.send_row) != cause) {
                if inside(a.start.y) || inside(a.tip.y) {
                    failures.push(format!(
                        "{name}: arrow {:?} (step {}) on the paid-twice row of step {}",
                        a.label.text,
                        a.send_row + 1,
                        h.row + 1
                    ));
                }
                let r = a.label.rect;
                if !a.label.text.is_empty()
                    && ((r.y0 < top && r.y1 > top) || (r.y0 < bottom && r.y1 > bottom))
                {
                    failures.push(format!(
                        "{name}: label {:?} straddles the edge of the paid-twice row of step {}",
                        a.label.text,
                        h.row + 1
                    ));
                }
            }
            for n in l.notes.iter().filter(|n| n.row != h.row) {
                if n.rect.y1 > top && n.rect.y0 < bottom {
                    failures.push(format!(
                        "{name}: note {:?} on the paid-twice row of step {}",
                        n.text.text,
                        h.row + 1
                    ));
                }
            }
        }
    });
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A refused access's row holds only its own arrow: nothing else on its line.
#[test]
fn refused_rows_hold_nothing_else() {
    let mut failures = Vec::new();
    common::each_layout(&[], |name, l| {
        for h in l
            .highlights
            .iter()
            .filter(|h| h.kind == HighlightKind::RejectedAccess)
        {
            let y = l.rows[h.row].y;
            for a in l.arrows.iter().filter(|a| a.send_row != h.row) {
                if a.start.y == y || a.tip.y == y {
                    failures.push(format!(
                        "{name}: arrow {:?} (step {}) on the refused row of step {}",
                        a.label.text,
                        a.send_row + 1,
                        h.row + 1
                    ));
                }
            }
            for n in &l.notes {
                if n.rect.y0 < y && n.rect.y1 > y {
                    failures.push(format!(
                        "{name}: note {:?} on the refused row of step {}",
                        n.text.text,
                        h.row + 1
                    ));
                }
            }
        }
    });
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
