//! Presenter mode's pinned legend: the widest runs (Redlock's, 3,100-3,340 px) are wider than
//! the screen at a size a room can read, and their legend, drawn at the picture's right edge, is
//! cut off. This panel shows the picture's own legend (a `<use>` of its group, so nothing is
//! drawn twice) at the picture's scale (smaller if it would not fit its panel's height), whenever
//! the picture does not fit the width.

use wasm_bindgen::JsCast;
use wasm_bindgen::JsValue;
use web_sys::Element;
use yew::prelude::*;

use crate::stack::live_layer_id;

#[derive(Properties, PartialEq)]
pub struct LegendPinProps {
    /// Changes on every redraw (the legend changes with the step).
    pub rev: u64,
}

/// A number property of a JS object (0 when missing).
fn number(obj: &JsValue, name: &str) -> f64 {
    js_sys::Reflect::get(obj, &JsValue::from_str(name))
        .ok()
        .and_then(|v| v.as_f64())
        .unwrap_or(0.0)
}

/// The bounding box of an SVG element in its own user space: (x, y, width, height).
fn bbox(el: &Element) -> Option<(f64, f64, f64, f64)> {
    let f = js_sys::Reflect::get(el, &JsValue::from_str("getBBox")).ok()?;
    let b = f.dyn_ref::<js_sys::Function>()?.call0(el).ok()?;
    Some((
        number(&b, "x"),
        number(&b, "y"),
        number(&b, "width"),
        number(&b, "height"),
    ))
}

/// Fits the pin to the legend and shows it when the picture is wider than its scroller.
fn fit(pin: &Element) -> Option<()> {
    let doc = web_sys::window()?.document()?;
    let legend = doc.get_element_by_id(&live_layer_id("legend"))?;
    let scroller = doc.query_selector(".timeline-scroller").ok()??;
    let picture = doc.get_element_by_id("ls-timeline")?;
    let svg = pin.first_element_child()?;
    let (x, y, w, h) = bbox(&legend)?;
    let page_w: f64 = picture
        .get_attribute("width")
        .and_then(|v| v.parse().ok())
        .unwrap_or(0.0);
    let scale = picture.get_bounding_client_rect().width() / page_w;
    let cut = scroller.scroll_width() > scroller.client_width() + 1;
    if !cut || w <= 0.0 || h <= 0.0 || !scale.is_finite() {
        return pin.set_attribute("hidden", "").ok();
    }
    let pad = 6.0;
    // At most as tall as the panel row it sits in may grow (style.css: `.presenter .side`'s
    // max-height, 30vh): a legend taller than that would be scrolled partly out of its panel. The
    // pin's own padding is 0.25rem each side.
    let room = web_sys::window()
        .and_then(|w| w.inner_height().ok()?.as_f64())
        .map(|h| h * 0.3 - 12.0)
        .filter(|room| *room > 0.0)
        .unwrap_or(f64::INFINITY);
    let scale = scale.min(room / (h + 2.0 * pad));
    let _ = svg.set_attribute(
        "viewBox",
        &format!(
            "{:.1} {:.1} {:.1} {:.1}",
            x - pad,
            y - pad,
            w + 2.0 * pad,
            h + 2.0 * pad
        ),
    );
    let _ = svg.set_attribute(
        "style",
        &format!(
            "width: {:.0}px; height: {:.0}px",
            (w + 2.0 * pad) * scale,
            (h + 2.0 * pad) * scale
        ),
    );
    pin.remove_attribute("hidden").ok()
}

#[component]
pub fn LegendPin(props: &LegendPinProps) -> Html {
    let pin = use_node_ref();
    {
        let pin = pin.clone();
        use_effect_with(props.rev, move |_| {
            // Measured in the next frame callback, when the page is laid out anyway.
            let later = wasm_bindgen::closure::Closure::once_into_js(move || {
                if let Some(el) = pin.cast::<Element>() {
                    fit(&el);
                }
            });
            if let Some(w) = web_sys::window() {
                let _ = w.request_animation_frame(later.unchecked_ref());
            }
        });
    }
    let svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" aria-label=\"The timeline's legend\" viewBox=\"0 0 1 1\"><use href=\"#{}\"/></svg>",
        live_layer_id("legend")
    );
    html! {
        <section class="panel legend-pin" ref={pin} hidden=true aria-label="Legend">
            { Html::from_html_unchecked(AttrValue::from(svg)) }
        </section>
    }
}
