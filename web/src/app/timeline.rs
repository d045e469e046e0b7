//! The timeline: the whole branch's SVG from lockstep-render, put in the page once; a step only
//! shows or hides the groups of the steps between the old and the new one, replaces the few
//! small pieces that change per step (the current step, messages in flight, open spans, the
//! title block) and moves the current step's outline. A click jumps to the row under the mouse,
//! hovering shows its explanation: the row is found from the mouse's y, so the picture needs no
//! element per row. Keeps the current step in view.

use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement};
use yew::prelude::*;

use super::dom;
use lockstep_render::TimeMode;

use crate::patch;
use crate::stack::{CHUNK, chunk_id, live_id};
use crate::viewer::{Picture, StepFrame};

#[derive(Properties, PartialEq)]
pub struct TimelineProps {
    pub picture: Rc<Picture>,
    pub frame: Rc<StepFrame>,
    /// Changes on every redraw, so the current step is brought into view.
    pub rev: u64,
    pub on_seek: Callback<usize>,
    /// Mark the fault events (the run is a counterexample the search found).
    #[prop_or(false)]
    pub highlight_faults: bool,
    /// Presenter mode: the picture changes size, and the current step must stay in view.
    #[prop_or(false)]
    pub presenter: bool,
}

/// How far inside its window's edges a row must lie to count as in view, in screen pixels.
const EDGE: f64 = 4.0;
/// The height the sticky row of lane names covers at the top of the timeline's window.
const HEADS_INSET: f64 = 48.0;

/// Where a scroller must move to show `lo..hi` (scaled, in its content's pixels) in its window
/// `at..at + size`: None when it shows already; else centred, or its start when it is wider than
/// the window.
fn scroll_to_show(lo: f64, hi: f64, at: f64, size: f64) -> Option<f64> {
    // A row that only just fits counts as out of view: the scale from page to screen pixels is
    // rounded (the scroller's sizes are whole pixels), so over a 4,000 px picture the row's edge
    // can land a pixel or two past the window's.
    if lo >= at + EDGE && hi <= at + size - EDGE {
        return None;
    }
    let to = if hi - lo > size {
        lo - 16.0
    } else {
        (lo + hi) / 2.0 - size / 2.0
    };
    Some(to.max(0.0))
}

/// Scrolls `scroller` so that the band `top..bottom` (in page pixels) is visible, and so that the
/// row's horizontal extent `span` is too (a Redlock run in presenter mode is wider than the screen).
fn keep_in_view(
    scroller: &HtmlElement,
    page_width: f64,
    (top, bottom): (f64, f64),
    (span, focus): (Option<(f64, f64)>, Option<f64>),
    glide: bool,
) {
    // The page is drawn at the scroller's width (or wider, on a phone).
    let drawn = f64::from(scroller.scroll_width());
    if drawn <= 0.0 || page_width <= 0.0 {
        return;
    }
    let scale = drawn / page_width;
    // The sticky lane names cover the window's top: a row under them is not in view.
    let down = scroll_to_show(
        top * scale,
        bottom * scale,
        f64::from(scroller.scroll_top()) + HEADS_INSET,
        f64::from(scroller.client_height()) - HEADS_INSET,
    )
    .map(|to| (to - HEADS_INSET / 2.0).max(0.0));
    let across = span.and_then(|(x0, x1)| {
        let width = f64::from(scroller.client_width());
        // Only when the picture is wider than its window.
        if drawn <= width + 1.0 {
            return None;
        }
        let (lo, hi) = (x0 * scale, x1 * scale);
        let at = f64::from(scroller.scroll_left());
        match focus.map(|f| f * scale) {
            // A row wider than the window: the part where it arrives (a rejection at the db).
            Some(f) if hi - lo > width => {
                let to = (f - width / 2.0).clamp(lo - 16.0, (hi + 40.0 - width).max(lo - 16.0));
                (f < at + EDGE || f > at + width - EDGE || lo > at || hi < at + width)
                    .then_some(to.max(0.0))
            }
            _ => scroll_to_show(lo, hi, at, width),
        }
    });
    if down.is_none() && across.is_none() {
        return;
    }
    let opts = web_sys::ScrollToOptions::new();
    if let Some(y) = down {
        opts.set_top(y);
    }
    if let Some(x) = across {
        opts.set_left(x);
    }
    // Glide to the step, unless the user asked for less motion.
    opts.set_behavior(if !glide || dom::reduced_motion() {
        web_sys::ScrollBehavior::Instant
    } else {
        web_sys::ScrollBehavior::Smooth
    });
    scroller.scroll_to_with_scroll_to_options(&opts);
}

/// Where a step moves the timeline's scroller.
enum Follow {
    /// Step 0: back to the top left.
    Start,
    /// A row (the page's width, the row's band, its extent and focus, whether it is the last
    /// step).
    Row(f64, (f64, f64), (Option<(f64, f64)>, Option<f64>), bool),
}

/// Moves `scroller` at once to `top` and `left` (None: where it is).
fn jump(scroller: &HtmlElement, top: Option<f64>, left: Option<f64>) {
    let opts = web_sys::ScrollToOptions::new();
    if let Some(y) = top {
        opts.set_top(y);
    }
    if let Some(x) = left {
        opts.set_left(x);
    }
    opts.set_behavior(web_sys::ScrollBehavior::Instant);
    scroller.scroll_to_with_scroll_to_options(&opts);
}

#[derive(Properties)]
struct BaseProps {
    picture: Rc<Picture>,
}

impl PartialEq for BaseProps {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.picture, &other.picture)
    }
}

/// The picture's SVG, put in the page once per picture (a step never re-renders it).
#[component]
fn Base(props: &BaseProps) -> Html {
    Html::from_html_unchecked(AttrValue::from(props.picture.svg.clone()))
}

#[derive(Properties)]
struct HeadsProps {
    picture: Rc<Picture>,
    heads: NodeRef,
}

impl PartialEq for HeadsProps {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.picture, &other.picture) && self.heads == other.heads
    }
}

/// The lanes' names in a row that stays at the top of the timeline's window while it scrolls
/// (HTML over the picture, at the lanes' x in the picture's scale): shown once the picture's own
/// lane headers have scrolled out of view (see [`show_heads`]).
#[component]
fn LaneHeads(props: &HeadsProps) -> Html {
    let pic = &props.picture;
    let width = f64::from(pic.page_width()).max(1.0);
    html! {
        <div class="lane-heads" ref={props.heads.clone()} aria-hidden="true" hidden=true>
            { for pic.lanes.iter().map(|l| html! {
                <span class="lane-head" style={format!("left: {:.3}%", l.x / width * 100.0)}>
                    <b>{ &l.name }</b><small>{ &l.role }</small>
                </span>
            }) }
        </div>
    }
}

/// Shows the sticky row of lane names when the picture's own headers (at `bottom`, in page
/// pixels) are scrolled out of the scroller's window.
fn show_heads(scroller: &HtmlElement, heads: &Element, page_width: f64, bottom: f64) {
    let drawn = f64::from(scroller.scroll_width());
    if drawn <= 0.0 || page_width <= 0.0 {
        return;
    }
    let scale = drawn / page_width;
    // A picture wider than its window says so (the embed shows a hint).
    let wide = scroller.scroll_width() > scroller.client_width() + 1;
    if wide != scroller.has_attribute("data-wide") {
        let _ = if wide {
            scroller.set_attribute("data-wide", "")
        } else {
            scroller.remove_attribute("data-wide")
        };
    }
    let out = f64::from(scroller.scroll_top()) > bottom * scale - 4.0;
    let shown = !heads.has_attribute("hidden");
    if out != shown {
        let _ = if out {
            heads.remove_attribute("hidden")
        } else {
            heads.set_attribute("hidden", "")
        };
    }
}

/// What the page shows of a picture at the moment, so a step changes only the difference.
#[derive(Default)]
struct Shown {
    /// The picture these refer to.
    picture: Option<(u64, TimeMode)>,
    /// Per layer: how many of its groups show.
    groups: Vec<usize>,
    /// Per layer: the changing pieces last put in.
    live: Vec<String>,
    defs: String,
    before: String,
    after: String,
    size: (f64, f64),
    dy: f64,
}

fn set(el: &Element, name: &str, value: &str) {
    let _ = el.set_attribute(name, value);
}

/// The element of the page with this id.
fn by_id(id: &str) -> Option<Element> {
    web_sys::window()?.document()?.get_element_by_id(id)
}

/// The layer group inside one `<svg>` of the stack (under its shifting group).
fn layer_in(svg: &Element) -> Option<Element> {
    svg.first_element_child()?.first_element_child()
}

/// Shows or hides group `j` of layer `i`.
fn show_group(i: usize, j: usize, on: bool) {
    let Some(g) = by_id(&chunk_id(i, j / CHUNK))
        .as_ref()
        .and_then(layer_in)
        .and_then(|l| l.children().item((j % CHUNK) as u32))
    else {
        return;
    };
    if on {
        let _ = g.remove_attribute("display");
    } else {
        set(&g, "display", "none");
    }
}

/// Shows the first `want` of layer `i`'s `len` groups and hides the rest, whatever the page's
/// copy showed before (chunk by chunk: one lookup per chunk, not per group).
fn show_all(i: usize, len: usize, want: usize) {
    for k in 0..len.div_ceil(CHUNK) {
        let Some(layer) = by_id(&chunk_id(i, k)).as_ref().and_then(layer_in) else {
            continue;
        };
        let groups = layer.children();
        for j in 0..groups.length() {
            let Some(g) = groups.item(j) else { continue };
            if k * CHUNK + (j as usize) < want {
                let _ = g.remove_attribute("display");
            } else {
                set(&g, "display", "none");
            }
        }
    }
}

/// Makes the children of `g`, the page's copy of the markup `old`, those of `new`: only the
/// elements that changed are put in or taken out (see [`crate::patch`]); all of them when the
/// page's copy is new or not what `old` says.
fn patch_children(g: &Element, old: &str, new: &str, fresh: bool) {
    let planned = (!fresh)
        .then(|| Some((patch::elements(old)?, patch::elements(new)?)))
        .flatten()
        .and_then(|(o, n)| Some((o.len(), patch::plan(&o, &n)?, n)));
    let kids = g.children();
    let Some((count, plan, new_els)) =
        planned.filter(|(count, ..)| kids.length() as usize == *count)
    else {
        g.set_inner_html(new);
        return;
    };
    // The old elements, found before anything moves.
    let old_els: Vec<Option<Element>> = (0..count).map(|i| kids.item(i as u32)).collect();
    for (before, range) in &plan.insert {
        let markup = new_els[range.clone()].concat();
        let _ = match before.and_then(|b| old_els.get(b).cloned().flatten()) {
            Some(el) => el.insert_adjacent_html("beforebegin", &markup),
            None => g.insert_adjacent_html("beforeend", &markup),
        };
    }
    for el in plan
        .remove
        .iter()
        .filter_map(|&i| old_els.get(i).cloned().flatten())
    {
        el.remove();
    }
}

/// Brings the page's copy of `pic` to `frame`; true when that copy was new.
fn apply(page: &Element, pic: &Rc<Picture>, frame: &StepFrame, shown: &mut Shown) -> bool {
    let Ok(Some(svg)) = page.query_selector("#ls-timeline") else {
        return false;
    };
    let mut fresh = false;
    let key = Some(pic.key);
    // A copy of the picture the page has not seen yet (a new picture, or yew put it in again).
    let mark = format!("{:?}", pic.key);
    if shown.picture != key || svg.get_attribute("data-shown").as_deref() != Some(mark.as_str()) {
        set(&svg, "data-shown", &mark);
        fresh = true;
        // What the page's copy shows is unknown: yew keeps the old elements when the new
        // picture's SVG text is the same (the same run opened again by a link), with the old
        // step's groups and changing pieces in them. Every piece is set below.
        *shown = Shown {
            picture: key,
            groups: pic.groups.iter().map(Vec::len).collect(),
            live: vec![String::new(); pic.groups.len()],
            ..Shown::default()
        };
    }
    let live = &frame.live;
    if fresh || shown.size != (live.width, live.height) {
        let (w, h) = (live.width, live.height);
        let svgs = page.children();
        for k in 0..svgs.length() {
            if let Some(s) = svgs.item(k).filter(|s| s.tag_name() == "svg") {
                set(&s, "width", &format!("{w:.0}"));
                set(&s, "height", &format!("{h:.0}"));
                set(&s, "viewBox", &format!("0 0 {w:.0} {h:.0}"));
            }
        }
        shown.size = (w, h);
    }
    if fresh || shown.dy != live.layout_dy {
        let shift = format!("translate(0 {:.0})", live.layout_dy);
        if let Ok(all) = page.query_selector_all(".ls-shift") {
            for k in 0..all.length() {
                if let Some(g) = all.item(k).and_then(|n| n.dyn_into::<Element>().ok()) {
                    set(&g, "transform", &shift);
                }
            }
        }
        shown.dy = live.layout_dy;
    }
    for (i, want) in frame.shown(pic).into_iter().enumerate() {
        if fresh {
            show_all(i, pic.groups[i].len(), want);
        } else {
            let had = shown.groups[i];
            for j in want..had {
                show_group(i, j, false);
            }
            for j in had..want {
                show_group(i, j, true);
            }
        }
        shown.groups[i] = want;
        if let Some(text) = live.layers.get(i)
            && (fresh || *text != shown.live[i])
            && let Some(g) = by_id(&live_id(i)).as_ref().and_then(layer_in)
        {
            patch_children(&g, &shown.live[i], text, fresh);
            shown.live[i] = text.clone();
        }
    }
    // The hatchings' patterns lead the title block: put in once, since replacing a pattern
    // makes the browser redo everything filled with it.
    let (defs, before) = match live.before.find("</defs>") {
        Some(i) => live.before.split_at(i + "</defs>".len()),
        None => ("", live.before.as_str()),
    };
    for (id, text, was) in [
        ("ls-defs", defs, &mut shown.defs),
        ("ls-before", before, &mut shown.before),
        ("ls-after", live.after.as_str(), &mut shown.after),
    ] {
        if (fresh || text != was.as_str())
            && let Some(g) = by_id(id)
        {
            patch_children(&g, was, text, fresh);
            *was = text.to_string();
        }
    }
    if let Ok(Some(outline)) = page.query_selector(".current-outline") {
        match frame.step.checked_sub(1).and_then(|c| pic.rows.get(c)) {
            Some(r) => {
                let (y, h) = crate::viewer::band(r);
                // The row's horizontal extent, for the tests of scrolling it into view.
                match r.span {
                    Some((x0, x1)) => set(&outline, "data-span", &format!("{x0:.0} {x1:.0}")),
                    None => {
                        let _ = outline.remove_attribute("data-span");
                    }
                }
                match r.focus {
                    Some(x) => set(&outline, "data-focus", &format!("{x:.0}")),
                    None => {
                        let _ = outline.remove_attribute("data-focus");
                    }
                }
                set(&outline, "y", &format!("{y:.1}"));
                set(&outline, "width", &format!("{:.0}", live.width));
                set(&outline, "height", &format!("{h:.1}"));
            }
            None => set(&outline, "height", "0"),
        }
    }
    for (id, text) in [("ls-title", &frame.title), ("ls-desc", &frame.description)] {
        if let Some(el) = by_id(id) {
            el.set_text_content(Some(text));
        }
    }
    fresh
}

/// The row under the mouse, from its y on the page's copy of the picture (one listener and
/// some arithmetic instead of an element per row, which a step would have to restyle).
fn row_at<'p>(
    e: &MouseEvent,
    page: &NodeRef,
    pic: &'p Picture,
    frame: &StepFrame,
) -> Option<&'p crate::viewer::HitRow> {
    let svg = page.cast::<Element>()?.first_element_child()?;
    let rect = svg.get_bounding_client_rect();
    let (w, h) = (frame.live.width, frame.live.height);
    // The drawing keeps its aspect ratio, centred in the element (as in the embed).
    let scale = (rect.width() / w).min(rect.height() / h);
    if scale <= 0.0 || !scale.is_finite() {
        return None;
    }
    let top = rect.top() + (rect.height() - h * scale) / 2.0;
    let y = (f64::from(e.client_y()) - top) / scale - frame.live.layout_dy;
    pic.row_at(y, frame.step)
}

/// Puts the hover band on `row` (or hides it).
fn show_hover(page: &NodeRef, row: Option<&crate::viewer::HitRow>, width: f64) {
    let Some(band) = page
        .cast::<Element>()
        .and_then(|p| p.query_selector(".hover-band").ok().flatten())
    else {
        return;
    };
    match row {
        Some(r) => {
            let (y, h) = crate::viewer::band(r);
            set(&band, "y", &format!("{y:.1}"));
            set(&band, "width", &format!("{width:.0}"));
            set(&band, "height", &format!("{h:.1}"));
        }
        None => set(&band, "height", "0"),
    }
}

#[component]
pub fn Timeline(props: &TimelineProps) -> Html {
    let scroller = use_node_ref();
    let page = use_node_ref();
    let heads = use_node_ref();
    let shown = use_mut_ref(Shown::default);
    // The hovered step and the redraw it was hovered in: a step (key, clicker, play) redraws, and
    // the card stays hidden until the mouse really moves again.
    let hovered = use_state(|| None::<(usize, u64)>);
    // Where the mouse last was: Chrome sends a mousemove without movement when the picture
    // changes under a resting pointer, which must not bring the card back.
    let last_mouse = use_mut_ref(|| (i32::MIN, i32::MIN));
    let rev = props.rev;
    let pic = props.picture.clone();
    let frame = props.frame.clone();
    let (w, h) = (frame.live.width, frame.live.height);
    // Where the picture's own lane headers end, in page pixels.
    let heads_bottom =
        frame.live.layout_dy + pic.lanes.iter().map(|l| l.bottom).fold(0.0, f64::max);
    {
        let (scroller, page, shown) = (scroller.clone(), page.clone(), shown.clone());
        let heads = heads.clone();
        let (pic, frame) = (pic.clone(), frame.clone());
        // A new presenter mode resizes the picture: jump to the step at once.
        let presenter = props.presenter;
        let last_presenter = use_mut_ref(|| presenter);
        use_effect_with((props.rev, presenter), move |_| {
            let glide = *last_presenter.borrow() == presenter;
            *last_presenter.borrow_mut() = presenter;
            let fresh = page
                .cast::<Element>()
                .is_some_and(|el| apply(&el, &pic, &frame, &mut RefCell::borrow_mut(&shown)));
            // A picture just put in (a link opened) jumps to its step: a glide would start late,
            // behind the page's first layout.
            let glide = glide && !fresh;
            // A step hides the hover band until the mouse moves again (as it does the card).
            show_hover(&page, None, 0.0);
            // A run just opened on a phone: show it from the top, not where the picker was.
            if fresh && dom::narrow() {
                dom::scroll_page_to_top();
            }
            let row = frame.step.checked_sub(1).and_then(|c| pic.rows.get(c));
            let last = frame.step > 0 && frame.step >= pic.rows.len();
            let target = match (scroller.cast::<HtmlElement>(), row) {
                // Step 0 (Home): the title, the summary and the lane headers, at the top left.
                (Some(el), None) => Some((el, Follow::Start)),
                (Some(el), Some(row)) => {
                    let dy = frame.live.layout_dy;
                    let band = (row.top + dy, row.bottom + dy);
                    Some((
                        el,
                        Follow::Row(frame.live.width, band, (row.span, row.focus), last),
                    ))
                }
                (None, _) => None,
            };
            if let Some((el, target)) = target {
                // Measured in the next frame callback: reading the scroller's size now would
                // lay the page out once here and again for the frame.
                let follow = wasm_bindgen::closure::Closure::once_into_js(move || {
                    match target {
                        Follow::Start => jump(&el, Some(0.0), Some(0.0)),
                        // End jumps (a glide from far away may be cut short by the next key).
                        Follow::Row(width, band, span, last) => {
                            keep_in_view(&el, width, band, span, glide && !last);
                            // Scrolling sideways can take height from the window (a scrollbar,
                            // the embed's "scroll for more lanes" line): look again once the
                            // page has settled, and follow the row if it has gone out of view,
                            // unless something else (a glide, the next key) has moved it since.
                            let again = el.clone();
                            let at = (el.scroll_top(), el.scroll_left());
                            let settle = wasm_bindgen::closure::Closure::once_into_js(move || {
                                if (again.scroll_top(), again.scroll_left()) == at {
                                    keep_in_view(&again, width, band, span, false);
                                }
                            });
                            if let Some(w) = web_sys::window() {
                                let _ = w.request_animation_frame(settle.unchecked_ref());
                            }
                        }
                    }
                    // A glide reports its scrolling; a jump or no scroll at all may not.
                    if let Some(hd) = heads.cast::<Element>() {
                        show_heads(&el, &hd, w, heads_bottom);
                    }
                });
                if let Some(w) = web_sys::window() {
                    let _ = w.request_animation_frame(follow.unchecked_ref());
                }
            }
        });
    }
    {
        // Scroll events do not bubble (yew listens at the root): listen on the scroller itself.
        let (scroller, heads) = (scroller.clone(), heads.clone());
        use_effect_with((w.to_bits(), heads_bottom.to_bits()), move |_| {
            let el = scroller.cast::<HtmlElement>();
            let listener = el.as_ref().map(|el| {
                let (s, hd) = (el.clone(), heads.clone());
                let f = wasm_bindgen::closure::Closure::<dyn Fn()>::new(move || {
                    if let Some(hd) = hd.cast::<Element>() {
                        show_heads(&s, &hd, w, heads_bottom);
                    }
                });
                let _ = el.add_event_listener_with_callback("scroll", f.as_ref().unchecked_ref());
                // A new window size changes the picture's scale.
                if let Some(w) = web_sys::window() {
                    let _ =
                        w.add_event_listener_with_callback("resize", f.as_ref().unchecked_ref());
                }
                f
            });
            move || {
                if let (Some(el), Some(f)) = (el, listener) {
                    let _ = el
                        .remove_event_listener_with_callback("scroll", f.as_ref().unchecked_ref());
                    if let Some(w) = web_sys::window() {
                        let _ = w.remove_event_listener_with_callback(
                            "resize",
                            f.as_ref().unchecked_ref(),
                        );
                    }
                }
            }
        });
    }
    let click = {
        let (page, pic, frame) = (page.clone(), pic.clone(), frame.clone());
        let on_seek = props.on_seek.clone();
        Callback::from(move |e: MouseEvent| {
            if let Some(r) = row_at(&e, &page, &pic, &frame) {
                on_seek.emit(r.step);
            }
        })
    };
    let moved = {
        let hovered = hovered.clone();
        let last_mouse = last_mouse.clone();
        let (page, pic, frame) = (page.clone(), pic.clone(), frame.clone());
        Callback::from(move |e: MouseEvent| {
            let at = (e.client_x(), e.client_y());
            let really_moved = *last_mouse.borrow() != at;
            *last_mouse.borrow_mut() = at;
            if !really_moved {
                return;
            }
            let row = row_at(&e, &page, &pic, &frame);
            let now = row.map(|r| (r.step, rev));
            if *hovered != now {
                show_hover(&page, row, frame.live.width);
                // The pointer cursor over a row (style.css).
                if let Some(el) = page.cast::<Element>() {
                    let _ = match row {
                        Some(_) => el.set_attribute("data-over-row", ""),
                        None => el.remove_attribute("data-over-row"),
                    };
                }
                hovered.set(now);
            }
        })
    };
    let card = hovered
        .filter(|&(_, at)| at == rev)
        .and_then(|(s, _)| pic.rows.iter().find(|r| r.step == s))
        .filter(|r| r.step <= frame.step)
        .map(|r| {
            let top_pct = ((r.bottom + frame.live.layout_dy) / h * 100.0).min(96.0);
            html! {
                <div class="hover-card" role="tooltip" style={format!("top: {top_pct:.2}%")}>
                    <strong>{ format!("Step {} · {}", r.step, r.label) }</strong>
                    if !r.explanation.is_empty() { <p>{ &r.explanation }</p> }
                    <span class="hint">{ "Click to jump here" }</span>
                </div>
            }
        });
    let leave = {
        let hovered = hovered.clone();
        let page = page.clone();
        Callback::from(move |_: MouseEvent| {
            show_hover(&page, None, 0.0);
            hovered.set(None);
        })
    };
    let class = classes!("page", props.highlight_faults.then_some("faults"));
    html! {
        <div class="timeline-scroller" ref={scroller} tabindex="0"
            aria-label="The timeline; scroll to see more of it" style={format!("--page-w: {w:.0}px")}>
            <LaneHeads picture={pic.clone()} heads={heads} />
            <div {class} ref={page} onclick={click} onmousemove={moved} onmouseleave={leave}>
                <Base picture={pic.clone()} />
                // Always there, so that yew, which matches unkeyed children from the end, never
                // takes the card's arrival for a change of the picture (and puts it in again).
                <div class="hover-slot">{ for card }</div>
            </div>
        </div>
    }
}
