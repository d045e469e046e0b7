//! Where presenter mode's unfolded legend lies over the picture: above or below the current
//! step's row, no taller than the room there, so it never hides the step being told.

use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement};

use super::follow::heads_band;

/// The gap kept between the legend and the current step's row, in screen pixels.
const GAP: f64 = 8.0;
/// The least height the legend is given (its summary and two lines of entries, scrolling): a
/// window with less room than this either side of the row shows it over the row's side with
/// more room anyway.
const LEAST: f64 = 96.0;

/// Places the legend `details` (just unfolded or folded, in presenter mode's strip): at the
/// strip's end, over the picture's corner, where that clears the current step's row; else over
/// the window's half the row is not in, its top under the lane names or its bottom at the
/// strip's, as tall as the room beside the row lets it be (it scrolls). A review at 1280x720 found it, opened
/// mid-run at the strip's end, over the current row, which following keeps low in the window.
pub(super) fn place_legend(details: &Element) {
    let Some(el) = details.dyn_ref::<HtmlElement>() else {
        return;
    };
    let style = el.style();
    // Folded, or opened afresh: the style sheet's place first (at the strip's end).
    let _ = style.remove_property("top");
    let _ = style.remove_property("bottom");
    let _ = style.remove_property("max-height");
    if !details.has_attribute("open") {
        return;
    }
    let (Some(side), Some(doc)) = (details.parent_element(), el.owner_document()) else {
        return;
    };
    let scroller = doc
        .query_selector(".presenter .timeline-scroller")
        .ok()
        .flatten()
        .and_then(|s| s.dyn_into::<HtmlElement>().ok());
    let row = doc
        .query_selector(".presenter .current-outline")
        .ok()
        .flatten();
    let (Some(scroller), Some(row)) = (scroller, row) else {
        return;
    };
    let (r, w, s, l) = (
        row.get_bounding_client_rect(),
        scroller.get_bounding_client_rect(),
        side.get_bounding_client_rect(),
        details.get_bounding_client_rect(),
    );
    // No current row drawn (step 0), or scrolled out of the window by hand: nothing to clear.
    let top = w.top() + heads_band(&scroller);
    if r.height() <= 0.0 || r.bottom() <= top || r.top() >= w.bottom() {
        return;
    }
    if l.top() >= r.bottom() + GAP || l.bottom() <= r.top() - GAP {
        return;
    }
    let above = r.top() - GAP - top;
    let below = s.bottom() - r.bottom() - GAP;
    // Over the window's top half when the row is in its bottom half (where following keeps it),
    // rather than wherever there is more room: a legend opened at each step then stays in one
    // place, its entries with it (at 1920x1080 the rooms either side were about equal, and it
    // jumped between them from step to step).
    let middle = (top + w.bottom()) / 2.0;
    if (r.top() + r.bottom()) / 2.0 >= middle {
        let _ = style.set_property("top", &format!("{:.0}px", top - s.top()));
        let _ = style.set_property("bottom", "auto");
        let _ = style.set_property("max-height", &format!("{:.0}px", above.max(LEAST)));
    } else {
        let _ = style.set_property("max-height", &format!("{:.0}px", below.max(LEAST)));
    }
}
