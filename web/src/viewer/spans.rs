//! How far across the page each row of a layout draws, so the page can scroll a step into view
//! sideways as well as down.

use lockstep_render::layout::{Note, NoteKind};

/// Per-row horizontal extents, each widened to take in the spans given to it.
struct Extents(Vec<Option<(f64, f64)>>);

impl Extents {
    fn new(rows: usize) -> Extents {
        Extents(vec![None; rows])
    }

    /// Widens row `row`'s extent to take in `a..b` (either way round).
    fn widen(&mut self, row: usize, a: f64, b: f64) {
        if let Some(s) = self.0.get_mut(row) {
            let (lo, hi) = (a.min(b), a.max(b));
            *s = Some(s.map_or((lo, hi), |(x0, x1)| (x0.min(lo), x1.max(hi))));
        }
    }
}

/// The notes about some lanes, not the whole system (a partition, the end of the run): one over
/// every lane is in view wherever the window is, and gives no reason to scroll sideways.
fn lane_notes(layout: &lockstep_render::Layout) -> impl Iterator<Item = &Note> {
    layout.notes.iter().filter(|n| n.kind != NoteKind::Global)
}

/// Per row of `layout`: the horizontal extent of its arrows (sent or arriving there, with their
/// labels) and notes, leaving out notes about the whole system (see [`lane_notes`]:
/// redlock-clock-jump's step 1 scrolled a 1280 px window 303 px right to centre a partition's
/// words, cutting the title; the strip under the picture shows them).
pub(super) fn row_spans(layout: &lockstep_render::Layout) -> Vec<Option<(f64, f64)>> {
    let mut spans = Extents::new(layout.rows.len());
    for a in &layout.arrows {
        let label = (!a.label.text.is_empty()).then_some((a.label.rect.x0, a.label.rect.x1));
        for row in std::iter::once(a.send_row).chain(a.end_row) {
            spans.widen(row, a.start.x, a.tip.x);
            if let Some((x0, x1)) = label {
                spans.widen(row, x0, x1);
            }
        }
    }
    for n in lane_notes(layout) {
        spans.widen(n.row, n.rect.x0, n.rect.x1);
    }
    spans.0
}

/// Per row of `layout`: the horizontal extent of its words alone (its arrows' labels and its
/// notes, not the arrows), so a step whose lanes are too far apart for the window can still show
/// its words beside the end it happens at. A note about the whole system counts its words only
/// (its box spans every lane): the run's last step shows them (see `end_view::settle_at_end`).
pub(super) fn row_words(layout: &lockstep_render::Layout) -> Vec<Option<(f64, f64)>> {
    let mut words = Extents::new(layout.rows.len());
    // A round's one label is the words of each of its sends drawn on its line (step 79 of
    // redlock-gc-pause, a reply of five, had none: its label was left cut at the window's edge).
    let mut round_words = std::collections::BTreeMap::new();
    for a in layout.arrows.iter().filter(|a| !a.label.text.is_empty()) {
        words.widen(a.send_row, a.label.rect.x0, a.label.rect.x1);
        if let Some(g) = a.group {
            round_words.insert(g, (a.label.rect.x0, a.label.rect.x1));
        }
    }
    for a in &layout.arrows {
        if let Some(&(x0, x1)) = a.group.and_then(|g| round_words.get(&g)) {
            words.widen(a.send_row, x0, x1);
        }
    }
    for n in lane_notes(layout) {
        words.widen(n.row, n.rect.x0, n.rect.x1);
    }
    for n in layout.notes.iter().filter(|n| n.kind == NoteKind::Global) {
        words.widen(n.row, n.text.rect.x0, n.text.rect.x1);
    }
    words.0
}

/// A box of words the picture draws: the rows from whose step it shows, and its rectangle, in
/// the layout's pixels.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DrawnWords {
    /// The row that draws it: an arrow's label shows from its send (a note from its row).
    pub row: usize,
    /// The row where its arrow arrives, if it is an arrow's label (its words are that step's
    /// too: see `HitRow::arrives`).
    pub arrival: Option<usize>,
    /// A note's box (else an arrow's label).
    pub note: bool,
    pub rect: (f64, f64, f64, f64),
}

/// Every box of words of `layout` (its arrows' labels and its notes about some lanes), so a
/// caption beside the current step's end can keep off those already drawn (see
/// `crate::caption`).
pub(super) fn drawn_words(layout: &lockstep_render::Layout) -> Vec<DrawnWords> {
    let rect = |r: &lockstep_render::geom::Rect| (r.x0, r.y0, r.x1, r.y1);
    let labels = layout
        .arrows
        .iter()
        .filter(|a| !a.label.text.is_empty())
        .map(|a| DrawnWords {
            row: a.send_row,
            arrival: a.end_row,
            note: false,
            rect: rect(&a.label.rect),
        });
    let notes = lane_notes(layout).map(|n| DrawnWords {
        row: n.row,
        arrival: None,
        note: true,
        rect: rect(&n.rect),
    });
    labels.chain(notes).collect()
}

/// Per row of `layout`: where on it the eye should go when the whole row does not fit the window
/// (a phone, an embed): where the row's event happens (a send where it leaves, a delivery where
/// it arrives, a note at its middle). The database's refusal happens at the database when it is
/// sent, and at the stale writer when it arrives: the writer learning it was fenced is the step.
pub(super) fn row_focus(layout: &lockstep_render::Layout) -> Vec<Option<f64>> {
    use lockstep_core::EventKind;
    let n = layout.rows.len();
    let (mut arrive, mut note, mut leave) = (vec![None; n], vec![None; n], vec![None; n]);
    for a in &layout.arrows {
        if let Some(x) = a.end_row.and_then(|r| arrive.get_mut(r)) {
            x.get_or_insert(a.tip.x);
        }
        if let Some(x) = leave.get_mut(a.send_row) {
            x.get_or_insert(a.start.x);
        }
    }
    for m in lane_notes(layout) {
        if let Some(x) = note.get_mut(m.row) {
            x.get_or_insert((m.rect.x0 + m.rect.x1) / 2.0);
        }
    }
    layout
        .rows
        .iter()
        .enumerate()
        .map(|(i, r)| match r.kind {
            EventKind::Send => leave[i].or(note[i]),
            EventKind::Deliver | EventKind::Lost => arrive[i].or(note[i]),
            _ => note[i].or(arrive[i]).or(leave[i]),
        })
        .collect()
}

/// Per row of `layout`: the x of the lanes its event joins (an arrow's sender and receiver, a
/// note's lanes), smallest and largest, so the page can show both ends of the current step.
pub(super) fn row_ends(layout: &lockstep_render::Layout) -> Vec<Option<(f64, f64)>> {
    let mut ends = Extents::new(layout.rows.len());
    for a in &layout.arrows {
        for row in std::iter::once(a.send_row).chain(a.end_row) {
            ends.widen(row, a.start.x, a.tip.x);
        }
    }
    let lane_x = |i: usize| layout.lanes.get(i).map(|l| l.x);
    for n in lane_notes(layout) {
        match (lane_x(n.lanes.0), lane_x(n.lanes.1)) {
            (Some(a), Some(b)) => ends.widen(n.row, a, b),
            _ => ends.widen(n.row, n.rect.x0, n.rect.x1),
        }
    }
    ends.0
}

/// How far right the step column reaches (its step numbers and times, and the current step's
/// pointer), in the layout's pixels: the page keeps that much of the picture pinned at the left
/// while a wide run scrolls sideways.
pub(super) fn gutter_right(layout: &lockstep_render::Layout) -> f64 {
    // The current step's pointer is drawn 2 px right of its text, about a line's height wide.
    let pointer = 14.0;
    layout
        .rows
        .iter()
        .map(|r| &r.gutter)
        .chain(std::iter::once(&layout.gutter_title))
        .filter(|t| !t.text.is_empty())
        .map(|t| t.rect.x1 + pointer)
        .fold(0.0, f64::max)
}
