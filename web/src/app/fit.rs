//! Presenter mode's strip under the timeline (the explanation, the verdict, the legend) keeps one
//! height whatever the step, so the timeline's bottom edge never jumps: each panel's type shrinks
//! (style.css `--fit`) until its text fits, rather than being cut off or scrolled.

use wasm_bindgen::JsCast;
use web_sys::HtmlElement;
use yew::prelude::*;

/// The panels that shrink to fit, and the least scale of each: the explanation's 25.6 px type
/// goes down to about 11.5 px, the verdict's and the legend's a little further.
const PANELS: [(&str, f64); 3] = [
    (".presenter .side > .explanation", 0.45),
    (".presenter .side > .verdict", 0.45),
    (".presenter .side > .legend", 0.55),
];

/// How much smaller each try after the first guess makes the type.
const STEP: f64 = 0.03;

/// Shrinks the type of every panel of the strip until it fits (a panel that fits at full size
/// keeps it).
pub fn fit_strip() {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    for (selector, least) in PANELS {
        if let Some(el) = doc
            .query_selector(selector)
            .ok()
            .flatten()
            .and_then(|e| e.dyn_into::<HtmlElement>().ok())
        {
            fit(&el, least);
        }
    }
}

/// Whether `el`'s content overflows its box (a pixel of rounding allowed).
fn overflows(el: &HtmlElement) -> bool {
    el.scroll_height() > el.client_height() + 1
}

fn set_fit(el: &HtmlElement, scale: f64) {
    let _ = el.set_attribute("style", &format!("--fit: {scale:.3}"));
}

/// Shrinks `el`'s type (not below `least`) until its content fits its box.
fn fit(el: &HtmlElement, least: f64) {
    set_fit(el, 1.0);
    let (need, have) = (f64::from(el.scroll_height()), f64::from(el.client_height()));
    if have <= 0.0 || !overflows(el) {
        return;
    }
    // Text takes room with the square of its size: the first guess is near, a few small steps
    // finish it (each try lays out the panel alone, not the page).
    let mut scale = (have / need).sqrt().clamp(least, 1.0);
    loop {
        set_fit(el, scale);
        if !overflows(el) || scale <= least {
            break;
        }
        scale = (scale - STEP).max(least);
    }
}

/// Fits the strip after every redraw in presenter mode, and when the window changes size.
#[hook]
pub fn use_fitted_strip(presenter: bool, rev: u64) {
    use_effect_with((presenter, rev), move |(on, _)| {
        if *on {
            fit_strip();
        }
    });
    use_effect_with(presenter, move |on| {
        let listener = on.then(|| {
            let f = wasm_bindgen::closure::Closure::<dyn Fn()>::new(fit_strip);
            if let Some(w) = web_sys::window() {
                let _ = w.add_event_listener_with_callback("resize", f.as_ref().unchecked_ref());
            }
            f
        });
        move || {
            if let (Some(f), Some(w)) = (listener, web_sys::window()) {
                let _ = w.remove_event_listener_with_callback("resize", f.as_ref().unchecked_ref());
            }
        }
    });
}
