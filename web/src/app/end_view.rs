//! Where the timeline's window goes at the run's last step (the same however it was reached),
//! and the room made under a picture so that its window can go where following puts it.

use wasm_bindgen::JsCast;
use web_sys::HtmlElement;

use super::follow::{EDGE, HEADS_INSET, ROW_PLACE, RowPlace, floor_at, heads_band, jump};

/// The last step is shown the same way however it was reached (End, stepping onto it, a link
/// to `step=end`, typing its number): with the end of the picture at the window's bottom, as
/// far as that keeps the row (its band `band`, in the layout's pixels) below the lane names.
/// Following only moves as far as it must, so without this the last step's scroll depended on
/// where the view had been (fenced-gc-pause at 1280x720: 563 px after End, 474 after stepping).
///
/// A last row drawing only a note over every lane (the run's end) is in view wherever the
/// window is: the window goes to the picture's left, where the verdict under the run starts, if
/// the note's words show there, else to its words ("run complete" in the middle of a Redlock run
/// 2,400 px wide was off a 1280 px screen; the strip beside the picture gives the verdict), except
/// where no panel beside the picture gives the verdict (a phone) and it is in view, and in
/// presenter mode and an embed, which always show the picture's verdict.
pub(super) fn settle_at_end(scroller: &HtmlElement, page_width: f64, row: &RowPlace) {
    let band = row.band;
    let drawn = f64::from(scroller.scroll_width());
    if drawn <= 0.0 || page_width <= 0.0 {
        return;
    }
    let scale = drawn / page_width;
    let heads = heads_band(scroller);
    let row_top = band.0 * scale + heads;
    let bottom = f64::from(scroller.scroll_height() - scroller.client_height()).max(0.0);
    let floor = floor_at(scroller, row.floor, scale);
    let top = bottom.min((row_top - HEADS_INSET - EDGE).max(floor));
    // Not through a line either (fenced-gc-pause's "applied 3" showed only its descenders; see
    // [`snap_past_end`]).
    let lines: Vec<(f64, f64)> = row
        .lines
        .iter()
        .map(|&(t, b)| ((t + row.dy) * scale + heads, (b + row.dy) * scale + heads))
        .collect();
    let view = f64::from(scroller.client_height()) - heads;
    // The row, and the verdict under the run down to the picture's end when they fit together:
    // snapping up from the end cut the verdict's last line (consensus-fenced-failover at
    // 1920x1080, found by a review).
    let row_only = (row_top, band.1 * scale + heads);
    let with_verdict = (row_top, f64::from(scroller.scroll_height()) - EDGE);
    let fits = with_verdict.1 - with_verdict.0 <= view;
    // On a phone and in an embed no panel beside the picture gives the verdict: the picture's
    // own verdict, left under the run, goes before the note's words when the window shows it
    // (naive-gc-pause's end on a phone showed "…twice." cut at the window's left edge).
    let embed = scroller.closest(".embed").ok().flatten().is_some();
    let presenter = scroller.closest(".presenter").ok().flatten().is_some();
    let verdict_beside = !super::dom::narrow() && !embed;
    // In presenter mode and in an embed the picture's verdict is what the end shows, fitting
    // with the last row or not: going to the note's words instead left a wide run scrolled
    // sideways, the verdict out of view (redlock-gc-pause presenting at 1280x720, its labels at
    // 16 px; an embed 640x360 with its full controls, review 31).
    let verdict_shown = presenter || embed;
    let width = f64::from(scroller.client_width());
    let left = match (row.extent.span, row.extent.words) {
        (Some(_), _) => None,
        (None, Some(_)) if verdict_shown || (fits && !verdict_beside) => Some(0.0),
        (None, Some((w0, w1))) if w1 * scale > width - EDGE => {
            Some(((w0 + w1) / 2.0 * scale - width / 2.0).max(0.0))
        }
        (None, _) => Some(0.0),
    };
    // Moved right to the note's words, the window no longer shows the verdict under the run (it
    // starts at the picture's left): the rows before the last take that room instead, the last
    // row where following puts every row (a 720p projector showed "run complete" over the
    // lanes' feet and blank space, a review).
    let away = verdict_beside && left.is_some_and(|x| x > EDGE);
    let keep = if fits && !away {
        with_verdict
    } else {
        row_only
    };
    // In presenter mode and in an embed the picture's verdict, at the window's left, reads whole
    // even where the last row cannot show with it: the window at the picture's end
    // (consensus-session-suspended at 1280x720 cut its second half at the window's bottom, a
    // review). The strip (the embed's panel, when shown) says the step.
    let verdict_first = !fits && !away && left.is_some_and(|x| x <= EDGE) && verdict_shown;
    if verdict_first {
        let end = f64::from(scroller.scroll_height()) - EDGE;
        let to = snap_past_end(
            scroller,
            bottom,
            heads,
            &lines,
            (end - 1.0, end),
            (floor, bottom),
        );
        jump(scroller, Some(to.max(floor)), left);
        return;
    }
    let top = if away {
        let height = f64::from(scroller.client_height());
        ((row_only.0 + row_only.1) / 2.0 - (height - HEADS_INSET) * ROW_PLACE - HEADS_INSET / 2.0)
            .clamp(floor, bottom.max(floor))
    } else {
        top
    };
    let top = if top > floor + 0.5 {
        snap_past_end(scroller, top, heads, &lines, keep, (floor, bottom))
    } else {
        top
    };
    jump(scroller, Some(top), left);
}

/// Makes room under a picture too short for its window to be scrolled down to its `floor` (see
/// [`title_floor`]), so that it can be: stopped short of it, the window showed a sliver of the
/// picture's own title block, "last_token 34." cut through (fenced-gc-pause at 1920x1080). The
/// room (a margin, not padding: the pinned column and the lane names are laid out on the page's
/// box) is blank below the lanes' footers; none where the picture is tall enough.
pub(super) fn reach_floor(
    scroller: &HtmlElement,
    page: &HtmlElement,
    floor: (f64, f64),
    page_width: f64,
) {
    let drawn = f64::from(scroller.scroll_width());
    if drawn <= 0.0 || page_width <= 0.0 {
        return;
    }
    let to = floor_at(scroller, floor, drawn / page_width);
    // The room made at an earlier step, if any.
    let padded = room_made(page);
    let content = f64::from(scroller.scroll_height()) - padded;
    let need = if to > 0.0 {
        (to + f64::from(scroller.client_height()) - content)
            .max(0.0)
            .ceil()
    } else {
        0.0
    };
    if (need - padded).abs() < 0.5 {
        return;
    }
    let _ = page
        .style()
        .set_property("margin-bottom", &format!("{need}px"));
}

/// Where the window's top goes instead of `top` (see [`crate::snap::snap_top`]) so that its edge
/// under the lane names (`heads` tall) cuts through no line (`lines`) while the window shows
/// `keep`, within `floor` and a little past the picture's end (its scroll range ending at
/// `bottom`), over room made under the picture for it: at the end a label half under the lane
/// names read as a drawing fault (fenced-gc-pause's last step at 1280x720, "(integer) 1:
/// deleted" cut through, and naive-gc-pause's at 1920x1080, a review).
fn snap_past_end(
    scroller: &HtmlElement,
    top: f64,
    heads: f64,
    lines: &[(f64, f64)],
    keep: (f64, f64),
    (floor, bottom): (f64, f64),
) -> f64 {
    let view = f64::from(scroller.client_height()) - heads;
    let to = crate::snap::snap_top(
        top,
        heads,
        lines.iter().copied(),
        keep,
        view,
        (floor, bottom + crate::snap::REACH),
    );
    if to > bottom + 0.5 {
        room_below(scroller, (to - bottom).ceil());
    }
    to
}

/// Adds `more` pixels of room under the picture in `scroller` (to what [`reach_floor`] made,
/// which takes it back at the next step), so the window can go that much further down.
fn room_below(scroller: &HtmlElement, more: f64) {
    let Ok(Some(page)) = scroller.query_selector(":scope > .page") else {
        return;
    };
    let Ok(page) = page.dyn_into::<HtmlElement>() else {
        return;
    };
    let room = room_made(&page) + more;
    let _ = page
        .style()
        .set_property("margin-bottom", &format!("{room}px"));
}

/// The room made under the picture (see [`reach_floor`], [`room_below`]), in pixels.
fn room_made(page: &HtmlElement) -> f64 {
    page.style()
        .get_property_value("margin-bottom")
        .ok()
        .and_then(|m| m.trim_end_matches("px").parse::<f64>().ok())
        .unwrap_or(0.0)
}
