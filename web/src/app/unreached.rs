//! The sign over a window scrolled below the current step, into the steps not reached yet: the
//! picture there is bare lifelines, and a presenter who scrolled down by mistake saw an empty
//! timeline with nothing to say why (a review). The sign says so, and takes the window back.

use std::cell::RefCell;
use std::rc::Rc;

use web_sys::{Element, HtmlElement};
use yew::{Callback, MouseEvent, NodeRef};

use super::follow::{HEADS_INSET, ROW_PLACE, toggle};
use super::frame_dom::Shown;

/// The sign's class in the timeline's scroller (style.css `.unreached`).
pub(super) const SIGN: &str = ".unreached button";

/// Where the current step's drawing ends on the screen, and the window's top and height; None
/// when there is no page, or at step 0 or the last step (see `frame_dom::reached`).
fn reached_on_screen(scroller: &Element, page: &Element, shown: &Shown) -> Option<(f64, f64, f64)> {
    let (_, bottom) = shown.reached?;
    let (height, dy) = shown.page_height_and_dy();
    let drawn = page.get_bounding_client_rect();
    if height <= 0.0 || drawn.height() <= 0.0 {
        return None;
    }
    let scale = drawn.height() / height;
    let window = scroller.get_bounding_client_rect();
    Some((
        drawn.top() + (bottom + dy) * scale,
        window.top(),
        window.height(),
    ))
}

/// The words on the sign at step `step`.
fn sign_words(step: usize) -> String {
    format!("▲ Back to step {step}: the steps below it are still to come")
}

/// Shows the sign when the whole window is below what the current step has drawn (its row is
/// above the window, under the sticky lane names or higher), hides it otherwise.
pub(super) fn show_unreached(scroller: &Element, page: &Element, shown: &Shown) {
    let Ok(Some(sign)) = scroller.query_selector(SIGN) else {
        return;
    };
    let below = reached_on_screen(scroller, page, shown)
        .is_some_and(|(reached, top, _)| reached < top + HEADS_INSET);
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
    if let Some((reached, top, height)) = reached_on_screen(scroller, page, shown) {
        let to = f64::from(scroller.scroll_top()) + reached - (top + height * ROW_PLACE);
        scroller.set_scroll_top(to.max(0.0).round() as i32);
    }
}
