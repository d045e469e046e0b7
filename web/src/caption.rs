//! Where the caption of a wide step's words goes beside the end in view (see
//! `across::caption_side`): on the side its arrow reaches from, just above its line, unless that
//! is out of the window or covers words already drawn there, such as a note of the line above
//! hanging down beside the end (consensus-fenced-failover #101 at 1280x720: the caption
//! "rejected — 33 < last_token 34" hid the bottom of A's note "A's client gives up its lease").
//! Plain arithmetic, in the picture's screen pixels, tested natively.

use crate::viewer::DrawnWords;

/// A box of words the picture draws (a label's or a note's), `(x0, y0, x1, y1)`.
pub type WordBox = (f64, f64, f64, f64);

/// The gap between the end and the caption's near edge (style.css `.step-caption`: 0.75rem).
pub const GAP: f64 = 12.0;
/// The gap below the line when the caption goes under it: wider, to clear the arrowhead
/// (style.css `.step-caption[data-below]`: 1.25rem).
pub const GAP_BELOW: f64 = 20.0;
/// The room between the line and the caption's edge (style.css: 2px).
pub const OFF_LINE: f64 = 2.0;
/// The least room between a caption moved to keep inside the window and its edge.
const EDGE: f64 = 2.0;

/// Where the caption goes: right of the end or left of it, above its line or below, moved
/// `shift` px right (left when negative) to keep inside the window when it is too wide for
/// either side of the end.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Spot {
    pub right: bool,
    pub below: bool,
    pub shift: f64,
}

/// What the caption is placed against, in the picture's screen pixels.
#[derive(Clone, Copy, Debug)]
pub struct Beside {
    /// The end's x and its line's y.
    pub at: (f64, f64),
    /// The caption's width and height.
    pub size: (f64, f64),
    /// The room in the window left and right of the end.
    pub room: (f64, f64),
    /// Whether the row reaches right from the end (its words go on that side if they can).
    pub right: bool,
}

impl Beside {
    /// The caption's box at `spot`.
    pub fn rect(&self, spot: Spot) -> WordBox {
        let ((x, y), (w, h)) = (self.at, self.size);
        let gap = if spot.below { GAP_BELOW } else { GAP };
        let x0 = if spot.right { x + gap } else { x - gap - w } + spot.shift;
        let y0 = if spot.below {
            y + OFF_LINE
        } else {
            y - OFF_LINE - h
        };
        (x0, y0, x0 + w, y0 + h)
    }

    /// Whether the caption fits in the window on that side (`spare` more than its width).
    fn fits(&self, right: bool, spare: f64) -> bool {
        let room = if right { self.room.1 } else { self.room.0 };
        self.size.0 + spare <= room
    }
}

/// Where the caption goes: above the line on the side the row reaches from, else above it on
/// the other side, else below the line on either, the first of these that fits in the window
/// (with `spare` to its edge) and covers none of `drawn`. When none does, above the line on the
/// side with the more room, as before any words were in the way.
pub fn spot(beside: &Beside, spare: f64, drawn: &[WordBox]) -> Spot {
    let clear = |s: Spot| {
        let (x0, y0, x1, y1) = beside.rect(s);
        drawn
            .iter()
            .all(|&(a0, b0, a1, b1)| a1 <= x0 || a0 >= x1 || b1 <= y0 || b0 >= y1)
    };
    let near = beside.right;
    [(near, false), (!near, false), (near, true), (!near, true)]
        .into_iter()
        .map(|(right, below)| Spot {
            right,
            below,
            shift: 0.0,
        })
        .find(|&s| beside.fits(s.right, spare) && clear(s))
        .unwrap_or_else(|| {
            let (left, right) = beside.room;
            let on_right = if near {
                beside.fits(true, spare) || (!beside.fits(false, spare) && right >= left)
            } else {
                !(beside.fits(false, spare) || left >= right)
            };
            let spot = Spot {
                right: on_right,
                below: false,
                shift: 0.0,
            };
            // Too wide for its side: moved back inside the window as far as it goes (a phone's
            // embed cut "FCALL " off B's "FCALL acquire 2 lock:batch-42 fence 149406 5000").
            let (x0, _, x1, _) = beside.rect(spot);
            let (edge0, edge1) = (beside.at.0 - left + EDGE, beside.at.0 + right - EDGE);
            // Its start shows at least: the words are read from it.
            let shift = if x0 < edge0 {
                edge0 - x0
            } else if x1 > edge1 {
                -(x1 - edge1).min((x0 - edge0).max(0.0))
            } else {
                0.0
            };
            Spot { shift, ..spot }
        })
}

/// How far from a step's line words drawn can be in the caption's way, in the layout's pixels
/// (a caption is a line of label text tall, a note up to a few lines).
const REACH: f64 = 80.0;

/// The boxes of words drawn by step `row + 1` (the row `row`'s step) within [`REACH`] of its
/// line at `line_y`, moved `dy` down as the page draws them (see `StepFrame::layout_dy`),
/// leaving out the step's own arrows' labels: the caption repeats those, and they are hidden
/// while it shows.
pub fn near(words: &[DrawnWords], row: usize, line_y: f64, dy: f64) -> Vec<WordBox> {
    words
        .iter()
        .filter(|w| w.row <= row && (w.note || (w.row != row && w.arrival != Some(row))))
        .map(|w| w.rect)
        .filter(|&(_, y0, _, y1)| y1 >= line_y - REACH && y0 <= line_y + REACH)
        .map(|(x0, y0, x1, y1)| (x0, y0 + dy, x1, y1 + dy))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An end at x 400 on a line at y 300, a caption 280 x 20 with 500 px of room right of the
    /// end and 100 left, reaching right.
    fn beside() -> Beside {
        Beside {
            at: (400.0, 300.0),
            size: (280.0, 20.0),
            room: (100.0, 500.0),
            right: true,
        }
    }

    const ABOVE_RIGHT: Spot = Spot {
        right: true,
        below: false,
        shift: 0.0,
    };

    #[test]
    fn with_nothing_in_the_way_the_caption_sits_above_the_line_where_the_row_reaches() {
        assert_eq!(spot(&beside(), 16.0, &[]), ABOVE_RIGHT);
        assert_eq!(beside().rect(ABOVE_RIGHT), (412.0, 278.0, 692.0, 298.0));
        // Words drawn elsewhere do not move it.
        let far = [(900.0, 280.0, 1100.0, 300.0), (380.0, 200.0, 500.0, 270.0)];
        assert_eq!(spot(&beside(), 16.0, &far), ABOVE_RIGHT);
    }

    #[test]
    fn a_note_hanging_down_beside_the_end_sends_the_caption_below_the_line() {
        // consensus-fenced-failover #101: A's two-line note of the line above ends 13 px above
        // the line, over the lane the rejection arrives at; there is no room left of A.
        let note = [(320.0, 255.0, 485.0, 287.0)];
        let s = spot(&beside(), 16.0, &note);
        assert_eq!(
            s,
            Spot {
                right: true,
                below: true,
                shift: 0.0
            }
        );
        let (x0, y0, _, _) = beside().rect(s);
        assert!(y0 > 300.0 && x0 >= 400.0 + GAP_BELOW);
    }

    #[test]
    fn with_room_on_the_other_side_the_caption_stays_above_the_line_there() {
        let b = Beside {
            room: (600.0, 500.0),
            ..beside()
        };
        let note = [(420.0, 270.0, 600.0, 290.0)];
        assert_eq!(
            spot(&b, 16.0, &note),
            Spot {
                right: false,
                below: false,
                shift: 0.0
            }
        );
    }

    #[test]
    fn with_words_everywhere_it_goes_above_the_line_on_the_roomier_side() {
        let b = Beside {
            room: (600.0, 500.0),
            ..beside()
        };
        let everywhere = [(0.0, 0.0, 2000.0, 2000.0)];
        assert_eq!(spot(&b, 16.0, &everywhere), ABOVE_RIGHT);
        let cramped = Beside {
            room: (600.0, 200.0),
            ..beside()
        };
        assert_eq!(
            spot(&cramped, 16.0, &everywhere),
            Spot {
                right: false,
                below: false,
                shift: 0.0
            }
        );
    }

    #[test]
    fn a_caption_too_wide_for_either_side_is_moved_back_inside_the_window() {
        // A phone's embed: B at x 400 near the window's right edge, 350 px of room left of it
        // and 10 right, a 340 px caption.
        let b = Beside {
            at: (400.0, 300.0),
            size: (340.0, 20.0),
            room: (350.0, 10.0),
            right: false,
        };
        let s = spot(&b, 16.0, &[]);
        assert!(!s.right && !s.below, "{s:?}");
        let (x0, _, x1, _) = b.rect(s);
        // Its left edge at the window's (50 + 2), nearer the end rather than cut.
        assert!((x0 - 52.0).abs() < 1e-9 && x1 <= 410.0 - 2.0, "{x0} {x1}");
        // Wider than the whole window: its start shows, its end is cut.
        let wider = Beside {
            size: (400.0, 20.0),
            ..b
        };
        let (x0, ..) = wider.rect(spot(&wider, 16.0, &[]));
        assert!((x0 - 52.0).abs() < 1e-9, "{x0}");
    }

    #[test]
    fn a_caption_too_wide_for_the_side_it_prefers_goes_to_the_other() {
        let b = Beside {
            room: (400.0, 200.0),
            ..beside()
        };
        assert_eq!(
            spot(&b, 16.0, &[]),
            Spot {
                right: false,
                below: false,
                shift: 0.0
            }
        );
    }
}
