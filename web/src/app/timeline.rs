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
use super::frame_dom::{Shown, apply, set};
use super::state::Zoom;

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
    /// The zoom, when the timeline offers its zoom control (presenter mode, the embed).
    #[prop_or(None)]
    pub zoom: Option<Zoom>,
    #[prop_or_default]
    pub on_zoom: Callback<Zoom>,
    /// Whether the zoom has its button.
    #[prop_or(true)]
    pub zoom_button: bool,
    /// A click on the picture fitted to the width zooms in instead of jumping to a row (and,
    /// without the button, a click on the zoomed picture zooms out).
    #[prop_or(false)]
    pub tap_zooms: bool,
}

/// How far inside its window's edges a row must lie to count as in view, in screen pixels.
const EDGE: f64 = 4.0;
/// The height the sticky row of lane names covers at the top of the timeline's window.
const HEADS_INSET: f64 = 48.0;
/// How far down the timeline's window a followed row is put (see [`keep_in_view`]).
const ROW_PLACE: f64 = 0.6;
/// How far down the window a row is put when the picture is fitted to the width (much shorter
/// than zoomed in): low, so the rows before it fill the window above it.
const FITTED_PLACE: f64 = 0.85;

/// The least scale at which a picture a little wider than its window is fitted to it instead of
/// scrolling sideways (presenter mode's readable zoom; style.css `data-snug`): 15 px labels.
const SNUG: f64 = 0.94;

/// Marks `scroller` `data-snug` when the picture, `page_width` px at its own size, fits its window
/// at [`SNUG`] or more.
fn mark_snug(scroller: &HtmlElement, page_width: f64) {
    let fits = page_width * SNUG <= f64::from(scroller.client_width());
    toggle(scroller, "data-snug", fits);
}

/// Where a scroller must move to show `lo..hi` (scaled, in its content's pixels) in its window
/// `at..at + size`: None when it shows already; else with its middle `place` of the way into the
/// window (0.5: centred), or its start when it is wider than the window.
fn scroll_to_show(lo: f64, hi: f64, at: f64, size: f64, place: f64) -> Option<f64> {
    // A row that only just fits counts as out of view: the scale from page to screen pixels is
    // rounded (the scroller's sizes are whole pixels), so over a 4,000 px picture the row's edge
    // can land a pixel or two past the window's.
    if lo >= at + EDGE && hi <= at + size - EDGE {
        return None;
    }
    let to = if hi - lo > size {
        lo - 16.0
    } else {
        (lo + hi) / 2.0 - size * place
    };
    Some(to.max(0.0))
}

/// How far past the current step's ends the window should reach when it moves sideways (the
/// arrowhead and the start of its label), in screen pixels.
const END_PAD: f64 = 40.0;
/// A sideways move longer than this (in screen pixels) jumps instead of gliding: a long slide
/// makes a room lose its place.
const GLIDE_MAX: f64 = 160.0;

/// What the page knows of the row to keep in view, in the layout's pixels.
#[derive(Clone, Copy)]
struct RowPlace {
    /// Its band, top and bottom, on the page.
    band: (f64, f64),
    /// What it draws, left and right (see `HitRow::span`).
    span: Option<(f64, f64)>,
    /// Where to look when it is wider than the window (see `HitRow::focus`).
    focus: Option<f64>,
    /// The lanes it joins (see `HitRow::ends`).
    ends: Option<(f64, f64)>,
}

/// Where the scroller must move sideways (from `at`, its window `width` wide, of which the pinned
/// step column covers the left `pin`) to show a row's ends `lo..hi` (scaled): None when both show
/// already; else just far enough to show both with [`END_PAD`] to spare, and when they cannot
/// both show, the end the eye goes to (`focus`).
fn sideways(
    (lo, hi): (f64, f64),
    focus: Option<f64>,
    at: f64,
    width: f64,
    pin: f64,
) -> Option<f64> {
    let (left, right) = (at + pin, at + width);
    let avail = width - pin;
    if lo >= left + EDGE && hi <= right - EDGE {
        return None;
    }
    let to = if hi - lo + 2.0 * END_PAD <= avail {
        if lo < left + EDGE {
            lo - END_PAD - pin
        } else {
            hi + END_PAD - width
        }
    } else if hi - lo <= avail - 2.0 * EDGE {
        // Both ends, with what room there is split between them.
        lo - (avail - (hi - lo)) / 2.0 - pin
    } else {
        // Wider than the window: keep the end the eye goes to in view, with the row reaching
        // across the window from it.
        let f = focus.unwrap_or(lo).clamp(lo, hi);
        if f >= left + EDGE && f <= right - EDGE {
            return None;
        }
        if f - lo < hi - f {
            f - END_PAD - pin
        } else {
            f + END_PAD - width
        }
    };
    Some(to.max(0.0))
}

/// Scrolls `scroller` so that the row `row` is visible: its band, and sideways both ends of its
/// step (a Redlock run in presenter mode is wider than the screen). `pin` is the width of the
/// pinned step column, in page pixels.
///
/// `resized`: the picture has just changed size (a zoom, presenter mode), so the old scroll
/// position means nothing: the row's middle is put this far down the window whatever (fitted to
/// the width, low: as much of the story before it above it as fits, see [`FITTED_PLACE`]).
fn keep_in_view(
    scroller: &HtmlElement,
    page_width: f64,
    row: RowPlace,
    pin: f64,
    (glide, resized): (bool, Option<f64>),
) {
    // The page is drawn at the scroller's width (or wider, on a phone).
    let drawn = f64::from(scroller.scroll_width());
    if drawn <= 0.0 || page_width <= 0.0 {
        return;
    }
    let scale = drawn / page_width;
    // The band of lane names above the picture (see [`heads_band`]).
    let band = heads_band(scroller);
    let (top, bottom) = (row.band.0 * scale + band, row.band.1 * scale + band);
    // The sticky lane names cover the window's top: a row under them is not in view. A row
    // followed down the run is put two thirds of the way down the window: the rows before it (the
    // story so far) show above it, rather than the blank space of the steps still to come.
    let height = f64::from(scroller.client_height());
    let down = if let Some(place) = resized {
        Some(((top + bottom) / 2.0 - height * place).max(0.0))
    } else {
        scroll_to_show(
            top,
            bottom,
            f64::from(scroller.scroll_top()) + HEADS_INSET,
            height - HEADS_INSET,
            ROW_PLACE,
        )
        .map(|to| (to - HEADS_INSET / 2.0).max(0.0))
    };
    let width = f64::from(scroller.client_width());
    let at = f64::from(scroller.scroll_left());
    // Only when the picture is wider than its window.
    let across = (drawn > width + 1.0)
        .then(|| row.ends.or(row.span))
        .flatten()
        .and_then(|(x0, x1)| {
            sideways(
                (x0 * scale, x1 * scale),
                row.focus.map(|f| f * scale),
                at,
                width,
                pin * scale,
            )
        })
        .map(|to| to.min(drawn - width));
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
    // Glide to the step, unless the user asked for less motion or the move sideways is long.
    let long = across.is_some_and(|x| (x - at).abs() > GLIDE_MAX);
    opts.set_behavior(if !glide || long || dom::reduced_motion() {
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
    /// A row (the page's width, the row, whether it is the last step).
    Row(f64, RowPlace, bool),
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
/// pixels) are scrolled out of the scroller's window; marks the scroller as scrolled sideways
/// (the pinned step column then covers the lanes under it) and names the lanes out of view to
/// either side.
fn show_heads(
    scroller: &HtmlElement,
    heads: &Element,
    pic: &Picture,
    page_width: f64,
    bottom: f64,
) {
    let drawn = f64::from(scroller.scroll_width());
    if drawn <= 0.0 || page_width <= 0.0 {
        return;
    }
    let scale = drawn / page_width;
    // A picture wider than its window says so (the embed shows a hint).
    let wide = scroller.scroll_width() > scroller.client_width() + 1;
    toggle(scroller, "data-wide", wide);
    let at = f64::from(scroller.scroll_left());
    toggle(scroller, "data-scrolled", at > 0.5);
    let out = f64::from(scroller.scroll_top()) > bottom * scale + heads_band(scroller) - 4.0;
    if out == heads.has_attribute("hidden") {
        toggle(heads, "hidden", !out);
    }
    // The lanes out of view: left of the pinned step column, right of the window.
    let (left, right) = (
        at + pic.gutter * scale,
        at + f64::from(scroller.client_width()),
    );
    let off = |side: &[&str]| match side.len() {
        0 => None,
        1..=3 => Some(side.join(", ")),
        n => Some(format!("{n} lanes")),
    };
    let names = |keep: &dyn Fn(f64) -> bool| -> Vec<&str> {
        pic.lanes
            .iter()
            .filter(|l| keep(l.x * scale))
            .map(|l| l.name.as_str())
            .collect()
    };
    let before = if wide {
        off(&names(&|x| x < left))
    } else {
        None
    };
    let after = if wide {
        off(&names(&|x| x > right))
    } else {
        None
    };
    let Some(hints) = scroller.query_selector(".lanes-off").ok().flatten() else {
        return;
    };
    for (sel, text, arrow_first) in [(".off-left", before, true), (".off-right", after, false)] {
        let Some(el) = hints.query_selector(sel).ok().flatten() else {
            continue;
        };
        match text {
            Some(t) => {
                let t = if arrow_first {
                    format!("◀ {t}")
                } else {
                    format!("{t} ▶")
                };
                if el.text_content().as_deref() != Some(t.as_str()) {
                    el.set_text_content(Some(&t));
                }
                toggle(&el, "hidden", false);
                if arrow_first {
                    set(
                        &el,
                        "style",
                        &format!("left: {:.0}px", pic.gutter * scale + 6.0),
                    );
                }
            }
            None => toggle(&el, "hidden", true),
        }
    }
}

/// The height of the band above the picture that holds the kept lane names (the scroller's first
/// child, style.css `.lane-heads`): the names stay in it, over no part of the picture, and the
/// picture starts under it.
fn heads_band(scroller: &HtmlElement) -> f64 {
    scroller
        .first_element_child()
        .and_then(|e| e.dyn_into::<HtmlElement>().ok())
        .map_or(0.0, |e| f64::from(e.offset_height()))
}

/// Sets or removes a boolean attribute, touching the element only when it changes.
fn toggle(el: &Element, name: &str, on: bool) {
    if on != el.has_attribute(name) {
        let _ = if on {
            el.set_attribute(name, "")
        } else {
            el.remove_attribute(name)
        };
    }
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
    let pin = pic.gutter;
    {
        let (scroller, page, shown) = (scroller.clone(), page.clone(), shown.clone());
        let heads = heads.clone();
        let (pic, frame) = (pic.clone(), frame.clone());
        // A new presenter mode or zoom resizes the picture: jump to the step at once.
        let sized = (props.presenter, props.zoom);
        let last_sized = use_mut_ref(|| sized);
        use_effect_with((props.rev, sized), move |_| {
            let resized = *last_sized.borrow() != sized;
            let glide = !resized;
            let resized = resized.then_some(if sized.1 == Some(Zoom::Fit) {
                FITTED_PLACE
            } else {
                ROW_PLACE
            });
            *last_sized.borrow_mut() = sized;
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
                        Follow::Row(
                            frame.live.width,
                            RowPlace {
                                band,
                                span: row.span,
                                focus: row.focus,
                                ends: row.ends,
                            },
                            last,
                        ),
                    ))
                }
                (None, _) => None,
            };
            if let Some((el, target)) = target {
                let pic_for_heads = pic.clone();
                // Measured in the next frame callback: reading the scroller's size now would
                // lay the page out once here and again for the frame.
                let follow = wasm_bindgen::closure::Closure::once_into_js(move || {
                    mark_snug(&el, w);
                    match target {
                        Follow::Start => jump(&el, Some(0.0), Some(0.0)),
                        // End jumps (a glide from far away may be cut short by the next key).
                        Follow::Row(width, row, last) => {
                            keep_in_view(&el, width, row, pin, (glide && !last, resized));
                            // Scrolling sideways can take height from the window (a scrollbar,
                            // the embed's "scroll for more lanes" line): look again once the
                            // page has settled, and follow the row if it has gone out of view,
                            // unless something else (a glide, the next key) has moved it since.
                            let again = el.clone();
                            let at = (el.scroll_top(), el.scroll_left());
                            let settle = wasm_bindgen::closure::Closure::once_into_js(move || {
                                if (again.scroll_top(), again.scroll_left()) == at {
                                    keep_in_view(&again, width, row, pin, (false, None));
                                }
                            });
                            if let Some(w) = web_sys::window() {
                                let _ = w.request_animation_frame(settle.unchecked_ref());
                            }
                        }
                    }
                    // A glide reports its scrolling; a jump or no scroll at all may not.
                    if let Some(hd) = heads.cast::<Element>() {
                        show_heads(&el, &hd, &pic_for_heads, w, heads_bottom);
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
        let (scroller, heads, pic) = (scroller.clone(), heads.clone(), pic.clone());
        use_effect_with((w.to_bits(), heads_bottom.to_bits(), pic.key), move |_| {
            let el = scroller.cast::<HtmlElement>();
            let listener = el.as_ref().map(|el| {
                let (s, hd, p) = (el.clone(), heads.clone(), pic.clone());
                let f = wasm_bindgen::closure::Closure::<dyn Fn()>::new(move || {
                    mark_snug(&s, w);
                    if let Some(hd) = hd.cast::<Element>() {
                        show_heads(&s, &hd, &p, w, heads_bottom);
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
    // A tap that zooms (see TimelineProps::tap_zooms): no row is picked, hovered or jumped to.
    let tap_zoom = props
        .zoom
        .filter(|&z| props.tap_zooms && (z == Zoom::Fit || !props.zoom_button));
    let click = {
        let (page, pic, frame) = (page.clone(), pic.clone(), frame.clone());
        let on_seek = props.on_seek.clone();
        let on_zoom = props.on_zoom.clone();
        let hovered = hovered.clone();
        Callback::from(move |e: MouseEvent| {
            if let Some(z) = tap_zoom {
                show_hover(&page, None, 0.0);
                hovered.set(None);
                on_zoom.emit(z.toggled());
            } else if let Some(r) = row_at(&e, &page, &pic, &frame) {
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
            let row = row_at(&e, &page, &pic, &frame).filter(|_| tap_zoom.is_none());
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
    let zoom_class = props.zoom.map(|z| match z {
        Zoom::Fit => "zoom-fit",
        Zoom::Readable => "zoom-readable",
    });
    html! {
        <div class={classes!("timeline-scroller", zoom_class)} ref={scroller} tabindex="0"
            aria-label="The timeline; scroll to see more of it" style={format!("--page-w: {w:.0}px")}>
            <LaneHeads picture={pic.clone()} heads={heads} />
            <div {class} ref={page} onclick={click} onmousemove={moved} onmouseleave={leave}>
                <Base picture={pic.clone()} />
                // Always there, so that yew, which matches unkeyed children from the end, never
                // takes the card's arrival for a change of the picture (and puts it in again).
                <div class="hover-slot">{ for card }</div>
            </div>
            // The lanes out of view to either side, named (see [`show_heads`]).
            <div class="lanes-off" aria-hidden="true">
                <span class="off-left" hidden=true></span>
                <span class="off-right" hidden=true></span>
            </div>
        </div>
    }
}
