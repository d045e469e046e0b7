//! How far across the page each row of a layout draws, so the page can scroll a step into view
//! sideways as well as down.

use lockstep_render::layout::NoteKind;

/// Per row of `layout`: the horizontal extent of its arrows (sent or arriving there, with their
/// labels) and notes. A note about the whole system (a partition, the end of the run) spans
/// every lane and is in view wherever the window is: it gives no reason to scroll sideways
/// (redlock-clock-jump's step 1 scrolled a 1280 px window 303 px right to centre its words,
/// cutting the title; the strip under the picture shows them).
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
    for n in layout.notes.iter().filter(|n| n.kind != NoteKind::Global) {
        widen(n.row, n.rect.x0, n.rect.x1);
    }
    spans
}

/// Per row of `layout`: the horizontal extent of its words alone (its arrows' labels and its
/// notes, not the arrows), so a step whose lanes are too far apart for the window can still show
/// its words beside the end it happens at.
pub(super) fn row_words(layout: &lockstep_render::Layout) -> Vec<Option<(f64, f64)>> {
    let mut words: Vec<Option<(f64, f64)>> = vec![None; layout.rows.len()];
    let mut widen = |row: usize, lo: f64, hi: f64| {
        if let Some(s) = words.get_mut(row) {
            *s = Some(s.map_or((lo, hi), |(x0, x1)| (x0.min(lo), x1.max(hi))));
        }
    };
    for a in layout.arrows.iter().filter(|a| !a.label.text.is_empty()) {
        widen(a.send_row, a.label.rect.x0, a.label.rect.x1);
    }
    for n in layout.notes.iter().filter(|n| n.kind != NoteKind::Global) {
        widen(n.row, n.rect.x0, n.rect.x1);
    }
    words
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
    for m in layout.notes.iter().filter(|n| n.kind != NoteKind::Global) {
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
    let mut ends: Vec<Option<(f64, f64)>> = vec![None; layout.rows.len()];
    let mut widen = |row: usize, a: f64, b: f64| {
        if let Some(s) = ends.get_mut(row) {
            let (lo, hi) = (a.min(b), a.max(b));
            *s = Some(s.map_or((lo, hi), |(x0, x1)| (x0.min(lo), x1.max(hi))));
        }
    };
    for a in &layout.arrows {
        for row in std::iter::once(a.send_row).chain(a.end_row) {
            widen(row, a.start.x, a.tip.x);
        }
    }
    let lane_x = |i: usize| layout.lanes.get(i).map(|l| l.x);
    for n in layout.notes.iter().filter(|n| n.kind != NoteKind::Global) {
        match (lane_x(n.lanes.0), lane_x(n.lanes.1)) {
            (Some(a), Some(b)) => widen(n.row, a, b),
            _ => widen(n.row, n.rect.x0, n.rect.x1),
        }
    }
    ends
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
