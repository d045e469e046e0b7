//! A lease chart wider than its window (a phone) is scrolled sideways under its pinned row names:
//! a word of the plot that the window's right edge or the names' edge would cut is hidden whole
//! (style.css `.page svg [data-cut]`), so it reads whole or not at all (fenced-gc-pause's end
//! showed "wri" and "db t" at the right edge, redlock-gc-pause's "A done" cut there).

use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement};

/// Hides the plot's words that cross an edge of the lease chart's window in `scroller` (the
/// window's right, the pinned names' right), and shows again those that no longer do. A chart
/// that fits its window has none hidden.
pub fn hide_cut_words(scroller: &HtmlElement) {
    let Ok(Some(svg)) = scroller.query_selector(".page > svg") else {
        return;
    };
    let Ok(texts) = svg.query_selector_all("text") else {
        return;
    };
    let names = scroller
        .query_selector(".lease-pin > svg")
        .ok()
        .flatten()
        .map(|p| p.get_bounding_client_rect());
    let wide = scroller.scroll_width() > scroller.client_width() + 1;
    let s = scroller.get_bounding_client_rect();
    let right = s.left() + f64::from(scroller.client_left() + scroller.client_width());
    for i in 0..texts.length() {
        let Some(text) = texts.item(i).and_then(|n| n.dyn_into::<Element>().ok()) else {
            continue;
        };
        let cut = wide && {
            let r = text.get_bounding_client_rect();
            let middle = (r.top() + r.bottom()) / 2.0;
            let across = |edge: f64| r.left() < edge - 1.0 && r.right() > edge + 1.0;
            // Only the plot's words, between the title and the legend (the pinned names column
            // spans them): the title and the legend are wrapped to the window and pinned.
            names.as_ref().is_some_and(|n| {
                middle > n.top() && middle < n.bottom() && (across(right) || across(n.right()))
            })
        };
        mark(&text, cut);
        // The box behind the words (a white label background) goes with them: left alone it
        // showed as a blank patch at the window's edge.
        if let Some(back) = background(&text) {
            mark(&back, cut);
        }
    }
    // The time axis's copy kept at the window's foot (see `lease_pin::place_axis`) runs under
    // the names column too: its ticks' words there are hidden whole (an 800 px embed read "s"
    // beside "db last_token", the "5" of "5 s" under the names, a review).
    let Ok(ticks) = scroller.query_selector_all(".lease-axis text") else {
        return;
    };
    for i in 0..ticks.length() {
        let Some(text) = ticks.item(i).and_then(|n| n.dyn_into::<Element>().ok()) else {
            continue;
        };
        let cut = wide && {
            let r = text.get_bounding_client_rect();
            let across = |edge: f64| r.left() < edge - 1.0 && r.right() > edge + 1.0;
            across(right) || names.as_ref().is_some_and(|n| across(n.right()))
        };
        mark(&text, cut);
    }
}

/// Hides the words of the pinned copy of the names column (see `lease_pin::pin_lease_names`)
/// that its right edge cuts: the copy is of the whole chart, clipped, and early in a run the
/// current step's label above the plot showed there as "st" (a review, at 375 px and in a 640 px
/// embed), while the chart's own copy of it was hidden.
pub fn hide_cut_in_pin(scroller: &HtmlElement) {
    let Ok(Some(pin)) = scroller.query_selector(".lease-pin > svg") else {
        return;
    };
    let Ok(texts) = pin.query_selector_all("text") else {
        return;
    };
    let edge = pin.get_bounding_client_rect().right();
    for i in 0..texts.length() {
        let Some(text) = texts.item(i).and_then(|n| n.dyn_into::<Element>().ok()) else {
            continue;
        };
        let r = text.get_bounding_client_rect();
        let cut = r.width() > 0.0 && r.left() < edge - 1.0 && r.right() > edge + 1.0;
        mark(&text, cut);
        if let Some(back) = background(&text) {
            mark(&back, cut);
        }
    }
}

/// Hides the words of a lease chart taller than its window that the window's foot cuts, and
/// shows again those it no longer does (style.css `[data-foot-cut]`): scrolled to show its rows
/// and time axis, an 800x450 embed showed the top half of its legend's first line under them.
pub fn hide_foot_cut(scroller: &HtmlElement) {
    // The chart's own words, and the copies of its title and legend pinned sideways.
    let Ok(texts) = scroller.query_selector_all(".page > svg text, .lease-bands svg text") else {
        return;
    };
    let tall = scroller.scroll_height() > scroller.client_height() + 1;
    let s = scroller.get_bounding_client_rect();
    let foot = s.top() + f64::from(scroller.client_top() + scroller.client_height());
    for i in 0..texts.length() {
        let Some(text) = texts.item(i).and_then(|n| n.dyn_into::<Element>().ok()) else {
            continue;
        };
        let cut = tall && {
            let r = text.get_bounding_client_rect();
            r.height() > 0.0 && r.top() < foot - 1.0 && r.bottom() > foot + 1.0
        };
        mark_as(&text, "data-foot-cut", cut);
        if let Some(back) = background(&text) {
            mark_as(&back, "data-foot-cut", cut);
        }
    }
}

/// Sets or clears `el`'s `data-cut`, only when it changes.
fn mark(el: &Element, cut: bool) {
    mark_as(el, "data-cut", cut);
}

/// Sets or clears `el`'s attribute `name`, only when it changes.
fn mark_as(el: &Element, name: &str, on: bool) {
    let was = el.has_attribute(name);
    if on && !was {
        let _ = el.set_attribute(name, "");
    } else if !on && was {
        let _ = el.remove_attribute(name);
    }
}

/// The box drawn just behind `text` (one of the few elements before it: a rectangle holding the
/// words' middle, not much wider than they are), if any.
fn background(text: &Element) -> Option<Element> {
    let r = text.get_bounding_client_rect();
    let (x, y) = ((r.left() + r.right()) / 2.0, (r.top() + r.bottom()) / 2.0);
    let mut el = text.previous_element_sibling();
    for _ in 0..3 {
        let e = el?;
        if e.tag_name().eq_ignore_ascii_case("rect") {
            let b = e.get_bounding_client_rect();
            let holds = b.left() <= x && b.right() >= x && b.top() <= y && b.bottom() >= y;
            if holds && b.width() <= r.width() + 24.0 && b.height() <= r.height() * 2.0 {
                return Some(e);
            }
        }
        el = e.previous_element_sibling();
    }
    None
}

/// Shows the lease chart's words again (before its pinned parts are copied from it, so the
/// copies have them all).
pub fn show_all_words(scroller: &HtmlElement) {
    if let Ok(cut) = scroller.query_selector_all(".page > svg [data-cut]") {
        for i in 0..cut.length() {
            if let Some(el) = cut.item(i).and_then(|n| n.dyn_into::<Element>().ok()) {
                let _ = el.remove_attribute("data-cut");
            }
        }
    }
}
