//! Where presenter mode's unfolded legend lies over the picture: across it, above or below the
//! current step's row, no taller than the room there, so it never hides the step being told or
//! the strip's words.

use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement};

use super::follow::heads_band;

/// The gap kept between the legend and the current step's row, in screen pixels.
const GAP: f64 = 8.0;
/// How far the legend keeps in from the picture's sides and bottom edge, in screen pixels.
const INSET: f64 = 4.0;
/// The least height the legend is given (its summary and two lines of entries, scrolling): a
/// window with less room than this either side of the row shows it over the row's side with
/// more room anyway.
const LEAST: f64 = 96.0;

/// Places the legend `details` (just unfolded or folded, in presenter mode's strip) over the
/// picture, across its whole width and clear of the strip: on the picture's bottom edge, or
/// under the lane names when the current step's row is in the window's bottom half, as tall as
/// the room beside that row lets it be (it scrolls past that). Two reviews at 1280x720 found it
/// at the strip's end, over the current row or over the sentence the presenter was reading
/// out, and 735 px wide with a third of its room empty while a run's 14 entries scrolled in a
/// 140 px box.
pub(super) fn place_legend(details: &Element) {
    let Some(el) = details.dyn_ref::<HtmlElement>() else {
        return;
    };
    let style = el.style();
    // Folded, or opened afresh: the style sheet's place first (at the strip's end).
    for property in ["top", "bottom", "left", "right", "width", "max-height"] {
        let _ = style.remove_property(property);
    }
    let list = details
        .query_selector("ul")
        .ok()
        .flatten()
        .and_then(|l| l.dyn_into::<HtmlElement>().ok());
    if let Some(list) = &list {
        let _ = list.style().remove_property("font-size");
    }
    if !details.has_attribute("open") {
        return;
    }
    let (Some(side), Some(doc)) = (details.parent_element(), el.owner_document()) else {
        return;
    };
    let Some(scroller) = doc
        .query_selector(".presenter .timeline-scroller")
        .ok()
        .flatten()
        .and_then(|s| s.dyn_into::<HtmlElement>().ok())
    else {
        return;
    };
    let (w, s) = (
        scroller.get_bounding_client_rect(),
        side.get_bounding_client_rect(),
    );
    if w.width() <= 0.0 || w.height() <= 0.0 {
        return;
    }
    let px = |v: f64| format!("{v:.0}px");
    // The side panel is the legend's containing block: its edges are measured from the side's.
    let _ = style.set_property("left", &px(w.left() - s.left() + INSET));
    let _ = style.set_property("right", &px(s.right() - w.right() + INSET));
    let _ = style.set_property("width", "auto");
    let top = w.top() + heads_band(&scroller);
    let bottom = w.bottom() - INSET;
    // No current row drawn (step 0), or scrolled out of the window by hand: nothing to clear.
    let row = doc
        .query_selector(".presenter .current-outline")
        .ok()
        .flatten()
        .map(|r| r.get_bounding_client_rect())
        .filter(|r| r.height() > 0.0 && r.bottom() > top && r.top() < w.bottom());
    // Under the lane names when the row is in the window's bottom half (where following keeps
    // it), rather than wherever there is more room: a legend opened at each step then stays in
    // one place, its entries with it (at 1920x1080 the rooms either side were about equal, and
    // it jumped between them from step to step).
    let middle = (top + w.bottom()) / 2.0;
    match row {
        Some(r) if (r.top() + r.bottom()) / 2.0 >= middle => {
            let _ = style.set_property("top", &px(top - s.top()));
            let _ = style.set_property("bottom", "auto");
            let _ = style.set_property("max-height", &px((r.top() - GAP - top).max(LEAST)));
        }
        row => {
            let _ = style.set_property("top", "auto");
            let _ = style.set_property("bottom", &px(s.bottom() - bottom));
            let room = row.map_or(bottom - top, |r| bottom - r.bottom() - GAP);
            let _ = style.set_property("max-height", &px(room.max(LEAST)));
        }
    }
    if let Some(list) = list {
        shrink_to_fit(el, &list);
    }
}

/// The least size of the legend's words, as a share of the style sheet's (16 px at 1080, see
/// [`shrink_to_fit`]).
const LEAST_TYPE: f64 = 0.75;

/// Makes the legend's words smaller, in steps, down to [`LEAST_TYPE`], until its entries all
/// show in its room: consensus-session-suspended opened by a link at its double write (#108,
/// 1280x720) has 198 px above the row for 15 entries that want 237 px at full size, and a legend
/// that scrolls shows a room some of what it is asked to explain.
fn shrink_to_fit(details: &HtmlElement, list: &HtmlElement) {
    let mut share = 1.0;
    while details.scroll_height() > details.client_height() + 1 && share > LEAST_TYPE {
        share = (share - 0.05_f64).max(LEAST_TYPE);
        let _ = list
            .style()
            .set_property("font-size", &format!("{share:.2}rem"));
    }
}
