//! Where the timeline's window goes sideways to keep the current step in view when the picture is
//! wider than the window (a Redlock run in presenter mode, a phone), and when the step's words
//! need a caption beside the end in view. Plain arithmetic on a row's extents, tested natively;
//! the web app's follow code reads the scroller and applies it.

/// How far inside its window's edges a row must lie to count as in view, in screen pixels.
pub const EDGE: f64 = 4.0;
/// How far past the current step's ends the window should reach when it moves sideways (the
/// arrowhead and the start of its label), in screen pixels.
pub const END_PAD: f64 = 40.0;
/// How far a row's words may reach past the lanes it joins and still be shown with them, in
/// screen pixels (see [`sideways`]).
pub const OVERHANG: f64 = 120.0;

/// The shortest move sideways a step makes, in screen pixels: shorter ones are left out (see
/// [`sideways`]).
pub const NUDGE: f64 = 16.0;

/// What a row draws sideways, in the layout's pixels (or scaled to the screen's).
#[derive(Clone, Copy, Default, Debug, PartialEq)]
pub struct Extent {
    /// What it draws, left and right (see `HitRow::span`).
    pub span: Option<(f64, f64)>,
    /// Where to look when it is wider than the window (see `HitRow::focus`).
    pub focus: Option<f64>,
    /// The lanes it joins (see `HitRow::ends`).
    pub ends: Option<(f64, f64)>,
    /// Its words alone (see `HitRow::words`).
    pub words: Option<(f64, f64)>,
}

impl Extent {
    /// What `row` draws sideways.
    pub fn of(row: &crate::viewer::HitRow) -> Extent {
        Extent {
            span: row.span,
            focus: row.focus,
            ends: row.ends,
            words: row.words,
        }
    }

    /// The same extent at `scale` screen pixels per layout pixel.
    pub fn scaled(self, scale: f64) -> Extent {
        let by = |(a, b): (f64, f64)| (a * scale, b * scale);
        Extent {
            span: self.span.map(by),
            focus: self.focus.map(|f| f * scale),
            ends: self.ends.map(by),
            words: self.words.map(by),
        }
    }
}

/// Where a row's part that must show goes in the window when the window moves to it.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Align {
    /// In the middle: the whole row shows.
    Centre,
    /// At the left: the row's left end, the rest of it reaching across the window.
    Left,
    /// At the right.
    Right,
}

/// What of a row must show (see [`must_show`]).
#[derive(Clone, Copy, PartialEq, Debug)]
struct MustShow {
    /// Left and right, scaled.
    part: (f64, f64),
    align: Align,
    /// The row's words are all inside `part` (or it has none).
    words: bool,
}

/// The part of a row (scaled) that must show in a window `avail` wide: the whole of it, words and
/// all, when it fits (a label under the pinned column is hidden from the room); else both ends
/// with the words that overhang them a little; else the end the eye goes to (`focus`) with its
/// words, or without them when they do not fit beside it. None when the row draws nothing
/// sideways.
fn must_show(row: Extent, avail: f64) -> Option<MustShow> {
    let (end_lo, end_hi) = row.ends.or(row.span)?;
    let whole = row.span.map_or((end_lo, end_hi), |(s0, s1)| {
        (s0.min(end_lo), s1.max(end_hi))
    });
    let holds = |(lo, hi): (f64, f64)| row.words.is_none_or(|(w0, w1)| w0 >= lo && w1 <= hi);
    if whole.1 - whole.0 + 2.0 * EDGE <= avail {
        return Some(MustShow {
            part: whole,
            align: Align::Centre,
            words: holds(whole),
        });
    }
    // Words that overhang an end a little (a note centred on its lane, a reply's label) count
    // as part of it. Long labels between the lanes do not: they would move the window more often.
    let lo = if whole.0 < end_lo && end_lo - whole.0 <= OVERHANG {
        whole.0
    } else {
        end_lo
    };
    let hi = if whole.1 > end_hi && whole.1 - end_hi <= OVERHANG {
        whole.1
    } else {
        end_hi
    };
    if hi - lo + 2.0 * EDGE <= avail {
        return Some(MustShow {
            part: (lo, hi),
            align: Align::Centre,
            words: holds((lo, hi)),
        });
    }
    let f = row.focus.unwrap_or(end_lo).clamp(end_lo, end_hi);
    let (end, align) = if f <= end_lo {
        ((lo, end_lo), Align::Left)
    } else if f >= end_hi {
        ((end_hi, hi), Align::Right)
    } else if f - lo < hi - f {
        ((f, f), Align::Left)
    } else {
        ((f, f), Align::Right)
    };
    // The step's words with it when they fit beside it (redlock-gc-pause's step 23: A sends
    // "read status batch-42" to the database 2,500 px away; its label, 800 px from A, was cut
    // at the window's edge).
    let with_words = row
        .words
        .map(|(w0, w1)| (end.0.min(w0), end.1.max(w1)))
        .filter(|(a, b)| b - a + 2.0 * EDGE <= avail);
    let part = with_words.unwrap_or(end);
    Some(MustShow {
        part,
        align,
        words: holds(part),
    })
}

/// How far above and below a row's band a note drawn by an earlier step still counts as next to
/// it (see [`notes_near`]), in the layout's pixels: about a line.
const NOTE_REACH: f64 = 12.0;

/// The x extents of the notes drawn by the steps up to row `row` (0-based) beside its band
/// (`top`, `bottom`, in the layout's pixels): a move sideways keeps them whole where it can
/// (see [`sideways`]).
pub fn notes_near(
    words: &[crate::viewer::DrawnWords],
    row: usize,
    (top, bottom): (f64, f64),
) -> Vec<(f64, f64)> {
    words
        .iter()
        .filter(|w| w.note && w.row <= row)
        .filter(|w| w.rect.3 >= top - NOTE_REACH && w.rect.1 <= bottom + NOTE_REACH)
        .map(|w| (w.rect.0, w.rect.2))
        .collect()
}

/// Where the scroller must move sideways (from `at`, its window `width` wide, of which the pinned
/// step column covers the left `pin`) to show what must show of a row (see [`must_show`];
/// scaled): None when it shows already, else the least move that shows it (with a margin where
/// there is room). Only the current row counts: a move that also reached for the next steps'
/// rows went several hundred pixels past it, and back again a few steps later
/// (redlock-split-votes at 1280x720: 0, 238, 811, 46, 238, 811 in twelve steps). A window placed
/// `anew` (a link just opened) is placed so even when the row shows already.
///
/// A move never cuts a note beside the row (`notes`, scaled: see [`notes_near`]) at the window's
/// edge where moving a little further shows it whole with the row's part: on a phone, A's send
/// to the database at fenced-gc-pause's step 6 put A at the window's left edge, and the note
/// just above it, "A holds the lock (token 33)", read "lock (token 33)".
///
/// A step column `column` wide that is not pinned (`pin` 0: a narrow window) is shown whole or
/// scrolled away whole where the row's part allows: a 640x360 embed with its explanation beside
/// the picture showed "-1 ms", "-2 ms" of it, its step numbers cut off.
pub fn sideways(
    row: Extent,
    (at, width, pin, column): (f64, f64, f64, f64),
    anew: bool,
    notes: &[(f64, f64)],
) -> Option<f64> {
    let (left, right) = (at + pin, at + width);
    let avail = width - pin;
    let MustShow {
        part: (lo, hi),
        align,
        ..
    } = must_show(row, avail)?;
    // A row reaching the window's very right edge (a lane's line on it, its arrowhead whole) is
    // in view: moving 40 px to give it a margin and back a few steps later read as jitter on a
    // projector (consensus-fenced-failover at 1280x720: +40, -40, +40 at #56, #67, #74). At the
    // left the pinned column's marker covers its last pixels: a row there keeps the margin.
    if lo >= left + EDGE && hi <= right + 0.5 && !anew {
        return None;
    }
    let pad = END_PAD.min((avail - (hi - lo)) / 2.0).max(0.0);
    let x = match align {
        // As short a move as shows it: its left end at the window's left edge when it lies to
        // the left, else its right end at the right edge.
        Align::Centre if lo < left + pad => lo - pad - pin,
        Align::Centre => hi + pad - width,
        // A row too wide for the window: the end it happens at by the window's edge, the row
        // reaching across the window (at the other edge only the end would show).
        Align::Left => lo - pad - pin,
        Align::Right => hi + pad - width,
    };
    let mut x = x.max(0.0);
    for &(n0, n1) in notes {
        let (l, r) = (x + pin, x + width);
        // Cut at the left edge: the window moves left to its start, if the part still shows.
        if n0 < l + EDGE && n1 > l {
            let nx = (n0 - EDGE - pin).max(0.0);
            if hi <= nx + width - EDGE {
                x = nx;
            }
        } else if n1 > r - EDGE && n0 < r {
            let nx = n1 + EDGE - width;
            if lo >= nx + pin + EDGE {
                x = nx;
            }
        }
    }
    // Away first, as a link to a step scrolls it (it takes much of a narrow window).
    if pin <= 0.0 && x > 0.5 && x < column - 0.5 {
        if lo >= column - 0.5 {
            x = column;
        } else if hi <= width - EDGE {
            x = 0.0;
        }
    }
    let x = x.max(0.0);
    // A nudge of a few pixels shows nothing new and looks like the picture shaking.
    if !anew && (x - at).abs() < NUDGE {
        return None;
    }
    Some(x)
}

/// Whether the current step's words need a caption beside the end of its row the window shows
/// (scaled, in a window `avail` wide right of the pinned step column): Some(true) when the row
/// reaches right from that end, Some(false) when it reaches left, None when its words show.
///
/// An arrival too wide for the window shows its receiving end, while its words are drawn at the
/// sender's. A send or a round too wide for the window shows where it leaves, while its label can
/// sit far along it (redlock-gc-pause #33 at 1280x720: B's "SET lock:batch-42 …" to redis-1 was
/// cut under the step column as "tch-42 14d030 NX PX 10000").
pub fn caption_side(row: Extent, avail: f64, arrives: bool) -> Option<bool> {
    let shown = must_show(row, avail)?;
    if !arrives && shown.words {
        return None;
    }
    match shown.align {
        Align::Centre => None,
        Align::Left => Some(true),
        Align::Right => Some(false),
    }
}

/// The words of an edge hint naming the lanes out of view on one side: all of them when up to
/// three, else the first two, an ellipsis and the last ("redis-3, redis-4, … C").
pub fn off_names(side: &[String]) -> Option<String> {
    match side {
        [] => None,
        [_] | [_, _] | [_, _, _] => Some(side.join(", ")),
        [a, b, .., z] => Some(format!("{a}, {b}, … {z}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A row from lane `a` to lane `b` with its words at `words`.
    fn row(a: f64, b: f64, focus: f64, words: Option<(f64, f64)>) -> Extent {
        let (lo, hi) = (a.min(b), a.max(b));
        let span = words.map_or((lo, hi), |(w0, w1)| (lo.min(w0), hi.max(w1)));
        Extent {
            span: Some(span),
            focus: Some(focus),
            ends: Some((lo, hi)),
            words,
        }
    }

    #[test]
    fn a_row_that_fits_is_shown_whole_and_needs_no_caption() {
        let r = row(300.0, 700.0, 300.0, Some((320.0, 600.0)));
        assert_eq!(sideways(r, (0.0, 1000.0, 200.0, 0.0), false, &[]), None);
        // Out of view to the right: the shortest move that shows it with a margin.
        let far = row(2100.0, 2500.0, 2100.0, Some((2120.0, 2400.0)));
        assert_eq!(
            sideways(far, (0.0, 1000.0, 200.0, 0.0), false, &[]),
            Some(2500.0 + END_PAD - 1000.0)
        );
        assert_eq!(caption_side(r, 800.0, false), None);
        assert_eq!(caption_side(r, 800.0, true), None);
    }

    #[test]
    fn a_row_on_the_window_s_edge_or_a_few_pixels_past_it_does_not_move_the_window() {
        // consensus-fenced-failover #56 at 1280x720: its arrows end on node-3's line, on the
        // window's right edge; the window moved 40 px, and back 40 px at #67.
        let edge = row(1165.0, 1693.0, 1165.0, Some((1186.0, 1370.0)));
        assert_eq!(
            sideways(edge, (423.0, 1270.0, 300.0, 300.0), false, &[]),
            None
        );
        // A row nearly as wide as the window, 6 px past its edge: the least move is a nudge.
        let tight = row(400.0, 1090.0, 400.0, None);
        assert_eq!(
            sideways(tight, (80.0, 1000.0, 300.0, 300.0), false, &[]),
            None
        );
        // Opened anew, the window is placed whatever; further out of view, it moves.
        assert_eq!(
            sideways(tight, (80.0, 1000.0, 300.0, 300.0), true, &[]),
            Some(95.0)
        );
        assert_eq!(
            sideways(tight, (40.0, 1000.0, 300.0, 300.0), false, &[]),
            Some(95.0)
        );
    }

    #[test]
    fn a_send_whose_label_sits_far_along_it_gets_a_caption_at_its_sender() {
        // redlock-gc-pause #33 at 1280x720: B at 3000 sends to redis-1 at 400; the round's label
        // sits at 380..640, 2,400 px from B; the window is 980 px right of the step column.
        let r = row(3000.0, 400.0, 3000.0, Some((380.0, 640.0)));
        assert_eq!(caption_side(r, 980.0, false), Some(false));
        // The window goes to B, at its right edge.
        let x = sideways(r, (0.0, 1280.0, 300.0, 0.0), false, &[]).unwrap();
        assert_eq!(x, 3000.0 + END_PAD - 1280.0);
    }

    #[test]
    fn a_send_whose_label_fits_beside_its_sender_needs_no_caption() {
        let r = row(3000.0, 400.0, 3000.0, Some((2500.0, 2990.0)));
        assert_eq!(caption_side(r, 980.0, false), None);
        // The window shows the sender and the words.
        let x = sideways(r, (0.0, 1280.0, 300.0, 0.0), false, &[]).unwrap();
        assert!(x + 300.0 <= 2500.0 && x + 1280.0 >= 3000.0, "{x}");
    }

    #[test]
    fn an_arrival_too_wide_for_the_window_is_captioned_at_its_receiver() {
        // Its own row has no words: they are drawn at the sender's end, on the send's row.
        let r = row(3000.0, 400.0, 400.0, None);
        assert_eq!(caption_side(r, 980.0, true), Some(true));
        assert_eq!(caption_side(r, 980.0, false), None);
    }

    #[test]
    fn a_move_goes_no_further_than_the_current_row_and_the_next_in_view_stays() {
        // redlock-split-votes at 1280x720: the window went past the current row to show the
        // next steps' rows too, then back (0, 238, 811, 46, 238, 811 in twelve steps).
        let now = row(2000.0, 2100.0, 2000.0, None);
        let x = sideways(now, (0.0, 1000.0, 200.0, 0.0), false, &[]).unwrap();
        // Its right end by the window's right edge, not further.
        assert_eq!(x, 2100.0 + END_PAD - 1000.0);
        // The next row, in view from there, does not move it.
        let next = row(1500.0, 1900.0, 1500.0, None);
        assert_eq!(sideways(next, (x, 1000.0, 200.0, 0.0), false, &[]), None);
        // One left of the window: its left end by the pinned column's edge.
        let back = row(700.0, 900.0, 700.0, None);
        let y = sideways(back, (x, 1000.0, 200.0, 0.0), false, &[]).unwrap();
        assert_eq!(y, 700.0 - END_PAD - 200.0);
    }

    #[test]
    fn a_note_beside_the_row_is_not_cut_at_the_windows_edge() {
        // fenced-gc-pause's step 6 on a phone: A (at 500) sends to the database 900 px away, too
        // wide for a 340 px window; the window goes to A, at its left edge, and the note above,
        // 440..560, was cut there.
        let send = row(500.0, 1400.0, 500.0, Some((1100.0, 1390.0)));
        let plain = sideways(send, (0.0, 340.0, 0.0, 0.0), false, &[]).unwrap();
        assert!(plain > 440.0, "{plain}");
        let x = sideways(send, (0.0, 340.0, 0.0, 0.0), false, &[(440.0, 560.0)]).unwrap();
        assert!(x <= 440.0 - EDGE && x + 340.0 >= 500.0 + EDGE, "{x}");
        // A note too far from the end to show with it is left cut.
        let far = sideways(send, (0.0, 340.0, 0.0, 0.0), false, &[(100.0, 470.0)]).unwrap();
        assert_eq!(far, plain);
    }

    #[test]
    fn a_step_column_not_pinned_shows_whole_or_not_at_all() {
        // A 390 px window, the step column 150 px wide and not pinned: a row at 160..420 would
        // put the window's edge at 120, through the column.
        let r = row(200.0, 420.0, 200.0, None);
        let cut = sideways(r, (0.0, 390.0, 0.0, 0.0), true, &[]).unwrap();
        assert!(cut > 0.5 && cut < 150.0, "{cut}");
        let x = sideways(r, (0.0, 390.0, 0.0, 150.0), true, &[]).unwrap();
        assert_eq!(x, 150.0);
        // A row reaching under the column keeps it in view whole.
        let near = row(140.0, 300.0, 140.0, None);
        assert_eq!(
            sideways(near, (200.0, 390.0, 0.0, 150.0), false, &[]),
            Some(0.0)
        );
    }

    #[test]
    fn a_row_with_nothing_sideways_never_moves_the_window() {
        assert_eq!(
            sideways(Extent::default(), (0.0, 1000.0, 200.0, 0.0), true, &[]),
            None
        );
        assert_eq!(caption_side(Extent::default(), 1000.0, true), None);
    }
}
