//! A picture scrolled sideways slides under the pinned step column, and one wider than its
//! window runs on past its right edge: a label either edge would cut is hidden whole, with the
//! box it sits in, so a label reads whole or not at all (a review read "k:batch-42 expired",
//! "edis" and "tus batch-42" at the column's edge as words of their own).

use std::cell::RefCell;

use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement};

thread_local! {
    /// The elements hidden now, shown again at the next look.
    static CUT: RefCell<Vec<Element>> = const { RefCell::new(Vec::new()) };
    /// Each text element's extent once read (see [`text_extent`]).
    static EXTENTS: RefCell<Extents> = RefCell::new(Extents::default());
}

/// The extents of the text elements read so far: a look at every step read four attributes and
/// the words of each of the page's thousand-odd texts again (2 ms of a step on a 1,400-event
/// run). The page puts a label's element in once and never changes it, so its extent is read
/// once: a `WeakMap` from the element to its index here, forgotten with the element.
struct Extents {
    index: js_sys::WeakMap,
    extents: Vec<Option<(f64, f64, f64)>>,
}

impl Default for Extents {
    fn default() -> Self {
        Extents {
            index: js_sys::WeakMap::new(),
            extents: Vec::new(),
        }
    }
}

/// The most extents kept before starting afresh: the elements of pictures no longer shown leave
/// theirs behind.
const MOST_EXTENTS: usize = 100_000;

/// How many elements before a label are looked at for the box it sits in (a note's fill and
/// edge, a header's box, the lines of the same note).
const BOX_LOOKBACK: usize = 6;

/// Hides the labels of `page` (drawn `page_width` layout px wide in `scroller`) that cross the
/// pinned step column's edge, `pin` screen px from the window's left (the window's left edge when
/// the column is not pinned, `pin` 0), or the window's right edge, and the lanes' headers
/// that cross either edge of the window right of it, or its foot; shows again those hidden before
/// that no longer do. Reads attributes, and the boxes of the lanes' headers and footers: the
/// layout is clean where it is called (a scroll, a step's frame).
pub(super) fn hide_cut_labels(scroller: &HtmlElement, page: &Element, page_width: f64, pin: f64) {
    let drawn = f64::from(scroller.scroll_width());
    let at = f64::from(scroller.scroll_left());
    let mut cut = Vec::new();
    let width = f64::from(scroller.client_width());
    if drawn > 0.0 && page_width > 0.0 {
        let scale = drawn / page_width;
        let (left, right) = if drawn > width + 1.0 {
            ((at + pin) / scale, (at + width) / scale)
        } else {
            (f64::NEG_INFINITY, f64::INFINITY)
        };
        // The window's foot, on the screen (the page's layers are drawn moved down by the
        // step's offset: their attributes do not say where they show).
        let foot = scroller.get_bounding_client_rect().top()
            + f64::from(scroller.client_top() + scroller.client_height());
        cut_heads(page, (left, right, foot), &mut cut);
    }
    // Without a pinned column (a phone) the window's own left edge cuts labels the same way:
    // a note whole beside the current step's row is kept in view where it fits
    // (`across::sideways`), and one that cannot be ("A holds the lock (token 33)" beside A's
    // send to the database on a phone) is hidden rather than read as "lock (token 33)".
    // The window's right edge too, where the picture runs on past it: a presenter at 1280x720
    // read "B holds the lock (tok" and a phone "DELEX lock:bat" there (a review).
    let wide = drawn > width + 1.0;
    if drawn > 0.0 && page_width > 0.0 && (at > 0.5 || wide) {
        let scale = drawn / page_width;
        let edge = if at > 0.5 {
            (at + pin) / scale
        } else {
            f64::NEG_INFINITY
        };
        let right = if wide {
            (at + width) / scale
        } else {
            f64::INFINITY
        };
        let crosses = |x0: f64, x1: f64, e: f64| x0 < e - 1.0 && x1 > e + 1.0;
        // At the right edge only words the window could show whole: a line of the title block
        // wider than the window would be hidden wherever it is scrolled to.
        let fits = |x0: f64, x1: f64| x1 - x0 <= (width - pin) / scale;
        if let Ok(texts) = page.query_selector_all(":scope > svg:not([data-far]) text") {
            for i in 0..texts.length() {
                // A `text` element of the selector's: no need to check its type.
                let Some(text) = texts.item(i).map(|n| n.unchecked_into::<Element>()) else {
                    continue;
                };
                let Some((x0, x1, y)) = known_extent(&text) else {
                    continue;
                };
                let sliced = crosses(x0, x1, edge) || (crosses(x0, x1, right) && fits(x0, x1));
                // Words whole inside the window whose box an edge slices ("A resumes" at the
                // pinned column, its box's left side under it: a review): hidden with it.
                let (b0, b1) = (x0 - BOX_PAD, x1 + BOX_PAD);
                let near = crosses(b0, b1, edge) || (crosses(b0, b1, right) && fits(b0, b1));
                if sliced || near {
                    let mut boxes = Vec::new();
                    boxes_of(&text, (x0, x1, y), &mut boxes);
                    let box_sliced = boxes.iter().any(|b| {
                        rect_span(b).is_some_and(|(r0, r1)| {
                            crosses(r0, r1, edge) || (crosses(r0, r1, right) && fits(r0, r1))
                        })
                    });
                    if sliced || box_sliced {
                        cut.extend(boxes);
                        lines_of(&text, &mut cut);
                        cut.push(text);
                    }
                }
            }
        }
    }
    CUT.with(|was| {
        let mut was = was.borrow_mut();
        for el in was.iter().filter(|el| !cut.contains(el)) {
            let _ = el.remove_attribute("data-cut");
        }
        for el in cut.iter().filter(|el| !was.contains(el)) {
            let _ = el.set_attribute("data-cut", "");
        }
        *was = cut;
    });
}

/// How far a label's box may reach past its words, in the layout's pixels (a note's padding is
/// less): only a label this near an edge has its box looked at.
const BOX_PAD: f64 = 12.0;

/// A rect's left and right, from its attributes.
fn rect_span(rect: &Element) -> Option<(f64, f64)> {
    let num = |name: &str| rect.get_attribute(name)?.parse::<f64>().ok();
    let (x, w) = (num("x")?, num("width")?);
    Some((x, x + w))
}

/// [`text_extent`], read once per element.
fn known_extent(text: &Element) -> Option<(f64, f64, f64)> {
    EXTENTS.with(|e| {
        let mut e = e.borrow_mut();
        if let Some(i) = e.index.get(text).as_f64() {
            return e.extents.get(i as usize).copied().flatten();
        }
        if e.extents.len() >= MOST_EXTENTS {
            *e = Extents::default();
        }
        let extent = text_extent(text);
        let i = e.extents.len();
        e.extents.push(extent);
        e.index
            .set(text, &wasm_bindgen::JsValue::from_f64(i as f64));
        extent
    })
}

/// A text element's left and right and its y, in the layout's pixels, from its attributes and
/// lockstep-render's own measure of its words (the same monospace metrics it laid them out by).
fn text_extent(text: &Element) -> Option<(f64, f64, f64)> {
    let num = |name: &str| text.get_attribute(name)?.parse::<f64>().ok();
    let (x, y, size) = (num("x")?, num("y")?, num("font-size")?);
    let words = text.text_content()?;
    let width = lockstep_render::text::width(words.trim(), size);
    let x0 = match text.get_attribute("text-anchor").as_deref() {
        Some("middle") => x - width / 2.0,
        Some("end") => x - width,
        _ => x,
    };
    Some((x0, x0 + width, y))
}

/// The other lines of `text`'s label (set one <text> a line, at the same x and anchor, a line
/// apart), added to `out`: a label hidden whole, not its first line alone ("×4 from
/// redis-1…redis-4" showed without "(integer) 0: not the holder" above it, a review).
fn lines_of(text: &Element, out: &mut Vec<Element>) {
    let key = |e: &Element| {
        let num = |name: &str| e.get_attribute(name).and_then(|v| v.parse::<f64>().ok());
        Some((
            num("x")?,
            num("y")?,
            num("font-size")?,
            e.get_attribute("text-anchor"),
        ))
    };
    let Some((x, y, size, anchor)) = key(text) else {
        return;
    };
    for forward in [false, true] {
        let mut at = y;
        let mut el = text.clone();
        loop {
            let next = if forward {
                el.next_element_sibling()
            } else {
                el.previous_element_sibling()
            };
            let Some(e) = next.filter(|e| e.tag_name() == "text") else {
                break;
            };
            let Some((ex, ey, esize, eanchor)) = key(&e) else {
                break;
            };
            let a_line_apart = (ey - at).abs() > 0.5 && (ey - at).abs() <= size * 1.6;
            if ex != x || esize != size || eanchor != anchor || !a_line_apart {
                break;
            }
            at = ey;
            if !out.contains(&e) {
                out.push(e.clone());
            }
            el = e;
        }
    }
}

/// The boxes drawn just before `text` that hold it (a note's fill and edge, a lane header's
/// box), added to `out`: hidden with it, rather than left as a cut frame round nothing.
fn boxes_of(text: &Element, (x0, x1, y): (f64, f64, f64), out: &mut Vec<Element>) {
    let mut el = text.previous_element_sibling();
    for _ in 0..BOX_LOOKBACK {
        let Some(e) = el else { break };
        match e.tag_name().as_str() {
            "text" => {}
            "rect" => {
                let num = |name: &str| e.get_attribute(name).and_then(|v| v.parse::<f64>().ok());
                if let (Some((left, right)), Some(ry), Some(rh)) =
                    (rect_span(&e), num("y"), num("height"))
                {
                    let holds = left <= x0 + 2.0 && right >= x1 - 2.0 && ry <= y && ry + rh >= y;
                    // Not a band across the lanes (the current step's, an overlap's).
                    let snug = right - left <= (x1 - x0) + 80.0;
                    if holds && snug {
                        out.push(e.clone());
                    }
                }
            }
            _ => break,
        }
        el = e.previous_element_sibling();
    }
}

/// The lanes' headers and footers (box, name and role) whose box crosses `left` or `right` (the
/// window's edges, in the layout's pixels), added to `out`: a 640x360 embed showed "A / rker" at
/// its left edge and "red" at its right (a review). The lanes are named in the pills at the
/// window's bottom instead (`follow::show_heads`). And those the window's `foot` (a screen y)
/// slices: the tops of the footers' boxes showed as grey slivers along a presenter's and an
/// embed's bottom edge (a review).
fn cut_heads(page: &Element, (left, right, foot): (f64, f64, f64), out: &mut Vec<Element>) {
    let Ok(rects) = page.query_selector_all(":scope > svg:not([data-far]) [data-layer=lanes] rect")
    else {
        return;
    };
    for i in 0..rects.length() {
        let Some(rect) = rects.item(i).and_then(|n| n.dyn_into::<Element>().ok()) else {
            continue;
        };
        let Some((x, x_end)) = rect_span(&rect) else {
            continue;
        };
        let crosses = |edge: f64| x < edge - 1.0 && x_end > edge + 1.0;
        let sliced = || {
            let r = rect.get_bounding_client_rect();
            r.top() < foot - 1.0 && r.bottom() > foot + 1.0
        };
        if !(crosses(left) || crosses(right) || sliced()) {
            continue;
        }
        // The box's words follow it.
        let mut el = rect.next_element_sibling();
        while let Some(e) = el.filter(|e| e.tag_name() == "text") {
            let inside = e
                .get_attribute("x")
                .and_then(|v| v.parse::<f64>().ok())
                .is_some_and(|tx| tx >= x && tx <= x_end);
            if !inside {
                break;
            }
            el = e.next_element_sibling();
            out.push(e);
        }
        out.push(rect);
    }
}

/// Whether a lane's header box, `half` wide either side of its line at `x` (in the scroller's
/// pixels), crosses `edge` (as `cut_heads` finds it): then it is hidden and its lane is named in
/// the pill at that edge. `half` is 0 while the headers are scrolled under the band of lane
/// names, whose chips name the lanes near an edge whole.
pub(super) fn head_cut(x: f64, half: f64, edge: f64) -> bool {
    x - half < edge - 1.0 && x + half > edge + 1.0
}
