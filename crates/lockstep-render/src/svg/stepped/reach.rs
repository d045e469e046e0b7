//! How far down the page each unchanging group draws (see [`super::SteppedBase::reach`]), so a
//! front end can leave the groups far from its window out of the browser's work.

use crate::geom::Rect;
use crate::layout::Layout;

/// What is drawn beyond the pieces' own points and boxes: arrow heads, the symbols of marks and
/// clock jumps, the x of a lost message, strokes. The largest of these (a mark's symbol) is
/// under 20 px across.
pub const SLACK: f64 = 24.0;

/// The top and bottom, in the layout's pixels, of what `draw_layout` draws for `l`, a layout
/// holding one group's pieces. A group with lanes reaches the whole page (their lifelines run
/// from top to bottom); one with nothing in it (a crash whose every part is under a note)
/// reaches nowhere, at the top.
pub fn reach(l: &Layout) -> (f64, f64) {
    if !l.lanes.is_empty() {
        return (0.0, l.height);
    }
    let mut ys: Vec<f64> = Vec::new();
    let mut rect = |r: &Rect| ys.extend([r.y0, r.y1]);
    l.spans.iter().for_each(|s| rect(&s.rect));
    l.walls.iter().for_each(|w| rect(&w.rect));
    l.notes.iter().for_each(|n| {
        rect(&n.rect);
        rect(&n.text.rect);
    });
    for a in &l.arrows {
        rect(&a.label.rect);
        rect(&Rect::new(a.start.x, a.start.y, a.tip.x, a.tip.y));
    }
    for f in &l.flights {
        rect(&f.label.rect);
        rect(&Rect::new(f.start.x, f.start.y, f.tip.x, f.tip.y));
    }
    for j in &l.jumps {
        rect(&Rect::new(j.at.x, j.at.y, j.at.x, j.at.y));
        if let Some(label) = &j.label {
            rect(&label.rect);
        }
    }
    l.marks
        .iter()
        .for_each(|m| rect(&Rect::new(m.at.x, m.at.y, m.at.x, m.at.y)));
    for r in &l.rows {
        rect(&r.gutter.rect);
        rect(&Rect::new(0.0, r.y, 0.0, r.y));
    }
    if !l.gutter_title.text.is_empty() {
        rect(&l.gutter_title.rect);
    }
    let top = ys.iter().copied().fold(f64::INFINITY, f64::min);
    let bottom = ys.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if top > bottom {
        return (0.0, 0.0);
    }
    (top - SLACK, bottom + SLACK)
}
