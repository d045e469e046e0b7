//! A clock jump's break has the lifeline to itself: in redlock-clock-jump (logical time) it was
//! wedged between redis-3's "clock jumps" note and the expiry note of the next row.

mod common;

use lockstep_render::geom::{Rect, inside_length};

#[test]
fn a_clock_jumps_break_touches_no_note_label_or_arrow() {
    let mut jumps = 0;
    common::each_layout(&[(1, 2)], |name, l| {
        for j in &l.jumps {
            jumps += 1;
            // The break as drawn (two 24 px strokes 10 px apart), with 4 px to spare.
            let glyph = Rect::new(j.at.x - 16.0, j.at.y - 15.0, j.at.x + 16.0, j.at.y + 15.0);
            for n in &l.notes {
                assert!(
                    !n.rect.overlaps(&glyph),
                    "{name}: the break at {:?} touches the note {:?}",
                    j.at,
                    n.text.text
                );
            }
            for a in &l.arrows {
                assert!(
                    !a.label.rect.overlaps(&glyph) && inside_length(a.start, a.tip, &glyph) <= 0.0,
                    "{name}: the break at {:?} touches the arrow {:?}",
                    j.at,
                    a.label.text
                );
            }
        }
    });
    assert!(jumps >= 2, "only {jumps} clock jumps drawn");
}
