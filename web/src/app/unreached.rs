//! The sign over a window scrolled below the current step, into the steps not reached yet: the
//! picture there is bare lifelines, and a presenter who scrolled down by mistake saw an empty
//! timeline with nothing to say why (a review). The sign says so, and takes the window back.

use std::cell::RefCell;
use std::rc::Rc;

use web_sys::{DomRect, Element, HtmlElement};
use yew::{Callback, MouseEvent, NodeRef};

use super::follow::{HEADS_INSET, ROW_PLACE, toggle};
use super::frame_dom::Shown;

/// The sign's class in the timeline's scroller (style.css `.unreached`).
const SIGN: &str = ".unreached button";

/// Where the current step's drawing ends on the screen, given where the timeline's `window` and
/// its `drawn` page are; None when there is no page, or at step 0 or the last step (see
/// `frame_dom::reached`).
fn reached_on_screen((window, drawn): (&DomRect, &DomRect), shown: &Shown) -> Option<f64> {
    let (_, bottom) = shown.reached?;
    let (height, dy) = shown.page_height_and_dy();
    if height <= 0.0 || drawn.height() <= 0.0 || window.height() <= 0.0 {
        return None;
    }
    Some(drawn.top() + (bottom + dy) * drawn.height() / height)
}

/// The words on the sign at step `step`.
fn sign_words(step: usize) -> String {
    format!("▲ Back to step {step}: the steps below it are still to come")
}

/// Shows the sign when the whole window is below what the current step has drawn (its row is
/// above the window, under the sticky lane names or higher), hides it otherwise.
pub(super) fn show_unreached(scroller: &Element, rects: (&DomRect, &DomRect), shown: &Shown) {
    let Ok(Some(sign)) = scroller.query_selector(SIGN) else {
        return;
    };
    let below = reached_on_screen(rects, shown).is_some_and(|y| y < rects.0.top() + HEADS_INSET);
    if below && let Some((step, _)) = shown.reached {
        let words = sign_words(step);
        if sign.text_content().as_deref() != Some(words.as_str()) {
            sign.set_text_content(Some(&words));
        }
    }
    toggle(&sign, "hidden", !below);
}

/// The sign's click: the window back to the current step (see [`back_to_reached`]).
pub(super) fn on_back(
    scroller: NodeRef,
    page: NodeRef,
    shown: Rc<RefCell<Shown>>,
) -> Callback<MouseEvent> {
    Callback::from(move |_: MouseEvent| {
        if let (Some(el), Some(pg)) = (scroller.cast::<HtmlElement>(), page.cast::<Element>()) {
            back_to_reached(&el, &pg, &shown.borrow());
        }
    })
}

/// Takes the window back up to the current step, its row as far down the window as following
/// puts it, at once (the way back can be thousands of pixels).
fn back_to_reached(scroller: &HtmlElement, page: &Element, shown: &Shown) {
    let window = scroller.get_bounding_client_rect();
    let drawn = page.get_bounding_client_rect();
    if let Some(reached) = reached_on_screen((&window, &drawn), shown) {
        let at = window.top() + window.height() * ROW_PLACE;
        let to = f64::from(scroller.scroll_top()) + reached - at;
        scroller.set_scroll_top(to.max(0.0).round() as i32);
    }
}
