//! Where presenter mode's unfolded legend lies over the picture: across it, clear of the strip's
//! words, away from the current step's row where it fits beside it, its words as large as the
//! picture's window lets the whole run's entries be.

use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement};

use super::follow::heads_band;

/// The gap kept between the legend and the current step's row, in screen pixels.
const GAP: f64 = 8.0;
/// How far the legend keeps in from the picture's sides and bottom edge, in screen pixels.
const INSET: f64 = 4.0;
/// The least size of the legend's words, as a share of the style sheet's (16 px), where the
/// picture's window is too short for the whole run's entries at full size.
const LEAST_TYPE: f64 = 0.75;

/// Places the legend `details` (just unfolded or folded, in presenter mode's strip) over the
/// picture, across its whole width and never over the strip: under the lane names when the
/// current step's row is in the window's bottom half, else on the picture's bottom edge. It lists
/// the entries drawn so far, in the places the whole run's entries give them, its words as large
/// as lets the whole run's entries fit the picture's window: one size at every step of a run.
/// Where it is taller than the room beside the row, the picture moves the row clear of it, or,
/// where it cannot, the legend covers the row (the strip still tells the step) rather than cut
/// its entries.
///
/// Reviews at 1280x720 found it at the strip's end over the sentence being read out; then,
/// no taller than the room beside the row, with entries cut off in a box a clicker cannot scroll,
/// its words 16 px at one step and 13.6 at the next, and mostly blank early in a run (room kept
/// for entries to come).
pub(super) fn place_legend(details: &Element) {
    let Some(el) = details.dyn_ref::<HtmlElement>() else {
        return;
    };
    let style = el.style();
    // Folded, or opened afresh: the style sheet's place first (at the strip's end).
    for property in ["top", "bottom", "left", "right", "width", "max-height"] {
        let _ = style.remove_property(property);
    }
    super::follow::toggle(details, "data-packed", false);
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
    let top = w.top() + heads_band(&scroller);
    let bottom = w.bottom() - INSET;
    // The side panel is the legend's containing block: its edges are measured from the side's.
    let _ = style.set_property("left", &px(w.left() - s.left() + INSET));
    let _ = style.set_property("right", &px(s.right() - w.right() + INSET));
    let _ = style.set_property("width", "auto");
    let _ = style.set_property("top", &px(top - s.top()));
    let _ = style.set_property("bottom", "auto");
    let _ = style.set_property("max-height", "none");
    // The size of its words: the whole run's entries (the kept places too) in the window.
    if let Some(list) = &list {
        shrink_to_fit(el, list, bottom - top);
    }
    // Then only the entries drawn so far show.
    super::follow::toggle(details, "data-packed", true);
    let height = f64::from(el.offset_height());
    let _ = style.set_property("max-height", &px(bottom - top));
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
    let low = row
        .as_ref()
        .is_some_and(|r| (r.top() + r.bottom()) / 2.0 >= middle);
    let (under_names, on_edge) = (top, (bottom - height).max(top));
    let mut at = if low { under_names } else { on_edge };
    if let Some(r) = row
        && !(r.bottom() + GAP <= at || r.top() >= at + height + GAP)
    {
        // Too tall for the room beside the row: the picture moves the row clear of it where
        // it can, by the least it must (consensus-fenced-failover #60 at 1280x720: its row in
        // the window's middle, 140 px either side of it for a 196 px legend).
        // Above the pills naming the lanes out of view, where they show (their own tops: the
        // follow's allowance for them is wider, and left consensus-fenced-failover #110 at
        // 1280x720 3 px short of room).
        let foot = (w.bottom() - INSET).min(pills_top(&scroller) - INSET);
        let now = f64::from(scroller.scroll_top());
        let most = f64::from(scroller.scroll_height() - scroller.client_height());
        // (The legend's top, how far the row moves down the screen.)
        let clearing = [
            (under_names, under_names + height + GAP - r.top()),
            (on_edge, on_edge - GAP - r.bottom()),
        ];
        let least = clearing
            .into_iter()
            .filter(|&(_, down)| {
                (0.0..=most).contains(&(now - down))
                    && r.top() + down >= top
                    && r.bottom() + down <= foot
            })
            .min_by(|a, b| a.1.abs().total_cmp(&b.1.abs()));
        // Else it lies over the row, whole: the strip still tells the step.
        if let Some((legend_top, down)) = least {
            at = legend_top;
            let to = web_sys::ScrollToOptions::new();
            to.set_top((now - down).round());
            to.set_behavior(web_sys::ScrollBehavior::Instant);
            scroller.scroll_to_with_scroll_to_options(&to);
        }
    }
    let _ = style.set_property("top", &px(at - s.top()));
}

/// Makes the legend's words smaller, in steps, down to [`LEAST_TYPE`], until it is no taller than
/// `room`: consensus-fenced-failover's 23 entries at 16 px want more than a 1280x720 projector's
/// picture window, and a legend that scrolls shows a room part of what it is asked to explain.
fn shrink_to_fit(details: &HtmlElement, list: &HtmlElement, room: f64) {
    let mut share = 1.0;
    while f64::from(details.offset_height()) > room && share > LEAST_TYPE {
        share = (share - 0.05_f64).max(LEAST_TYPE);
        let _ = list
            .style()
            .set_property("font-size", &format!("{share:.2}rem"));
    }
}

/// The top of the highest pill naming the lanes out of view (style.css `.lanes-off`) in
/// `scroller`'s window, on the screen; infinity when none shows.
fn pills_top(scroller: &HtmlElement) -> f64 {
    let Ok(pills) = scroller.query_selector_all(".lanes-off span:not([hidden])") else {
        return f64::INFINITY;
    };
    (0..pills.length())
        .filter_map(|i| pills.item(i)?.dyn_into::<Element>().ok())
        .map(|p| p.get_bounding_client_rect())
        .filter(|b| b.height() > 0.0)
        .map(|b| b.top())
        .fold(f64::INFINITY, f64::min)
}
