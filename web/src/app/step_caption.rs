//! The current step's words in a caption beside the receiving end of its arrow, when the row is
//! too wide for the window and its own words are out of view (moved out of timeline.rs).

use std::rc::Rc;

use wasm_bindgen::JsCast;
use web_sys::HtmlElement;

use super::follow::toggle;
use super::frame_dom::set;

/// The current step's words in a caption beside the end in view (see `follow::caption_at`).
pub(super) struct Caption {
    /// The end, on its line, in fractions of the page's width and height.
    pub(super) at: (f64, f64),
    /// The row reaches right from the end.
    pub(super) right: bool,
    pub(super) label: Rc<str>,
    /// The words drawn near the line, in page pixels (see [`crate::caption::near`]).
    pub(super) near: Vec<crate::caption::WordBox>,
}

/// Shows the current step's words beside the receiving end of its arrow, on its line, at the
/// size of the picture's labels at `scale` screen pixels to its own, or hides them. They go
/// where [`crate::caption::spot`] says: on the side the arrow comes from, above the line, if
/// they fit there in the window (its left edge going to `left`, the pinned step column `pin`
/// wide) and cover no words drawn near the line.
pub(super) fn show_caption(
    scroller: &HtmlElement,
    caption: Option<Caption>,
    (left, pin): (f64, f64),
    scale: f64,
) {
    let Some(el) = scroller
        .query_selector(".step-caption")
        .ok()
        .flatten()
        .and_then(|e| e.dyn_into::<HtmlElement>().ok())
    else {
        return;
    };
    let Some(Caption {
        at: (x, y),
        right,
        label,
        near,
    }) = caption
    else {
        toggle(&el, "hidden", true);
        return;
    };
    if el.text_content().as_deref() != Some(&*label) {
        el.set_text_content(Some(&label));
    }
    // The size of the picture's own labels where it is drawn: a caption any taller than they
    // are does not fit the room its row keeps above the line (a phone's rows are 25 px tall).
    set(
        &el,
        "style",
        &format!(
            "left: {:.3}%; top: {:.3}%; font-size: {:.2}px",
            x * 100.0,
            y * 100.0,
            lockstep_render::style::LABEL_SIZE * scale
        ),
    );
    toggle(&el, "hidden", false);
    // The end's place in the picture (the caption's parent) and in the window, and the room on
    // either side of it.
    let page = el
        .parent_element()
        .and_then(|p| p.dyn_into::<HtmlElement>().ok())
        .map_or((f64::from(scroller.scroll_width()), 0.0), |p| {
            (f64::from(p.offset_width()), f64::from(p.offset_height()))
        });
    let end = x * page.0;
    let at = end - left;
    let line = y * page.1;
    let beside = crate::caption::Beside {
        at: (end, line),
        size: (f64::from(el.offset_width()), f64::from(el.offset_height())),
        room: (at - pin, f64::from(scroller.client_width()) - at),
        right,
    };
    let drawn: Vec<_> = near
        .iter()
        .map(|&(x0, y0, x1, y1)| (x0 * scale, y0 * scale, x1 * scale, y1 * scale))
        .collect();
    let spot = crate::caption::spot(&beside, CAPTION_SPARE, &drawn);
    toggle(&el, "data-left", !spot.right);
    toggle(&el, "data-below", spot.below);
    if spot.shift != 0.0 {
        // Moved back inside the window (style.css `--shift`).
        let style = el.get_attribute("style").unwrap_or_default();
        set(
            &el,
            "style",
            &format!("{style}; --shift: {:.1}px", spot.shift),
        );
    }
}

/// The room a caption keeps from the window's edge beyond its gap from the end, in screen pixels.
const CAPTION_SPARE: f64 = 16.0;
