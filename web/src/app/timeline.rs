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
use super::edge_cut::hide_cut_labels;
use super::end_view::{reach_floor, settle_at_end};
use super::follow::{
    Extent, FITTED_PLACE, Follow, MIRRORED, ROW_PLACE, RowPlace, caption_at, covered, floor_at,
    jump, keep_in_view, mark_snug, pinned, show_heads, title_floor, toggle,
};
use super::frame_dom::{Shown, apply, cull, hide_row_label, set};
use super::state::Zoom;
use super::step_caption::{Caption, show_caption};

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
    /// The zoom: the whole width, or readable labels (scrolling sideways when they need to).
    pub zoom: Zoom,
    #[prop_or_default]
    pub on_zoom: Callback<Zoom>,
    /// Whether the zoom has its button.
    #[prop_or(true)]
    pub zoom_button: bool,
    /// Follow steps no higher than just above the lanes' headers, leaving the picture's title
    /// block above the window (the app; the embed shows it: see [`title_floor`]).
    #[prop_or(false)]
    pub leave_title: bool,
    /// A click on the picture fitted to the width zooms in instead of jumping to a row (and,
    /// without the button, a click on the zoomed picture zooms out).
    #[prop_or(false)]
    pub tap_zooms: bool,
    /// The lanes paused or down at this step, with the word for it (see
    /// `Viewer::lane_states`): the pill naming lanes out of view says so.
    #[prop_or_default]
    pub lane_states: Rc<[(String, &'static str)]>,
    /// The sign over a window scrolled below the current step (see `unreached`); not in an
    /// embed without controls, which has no buttons.
    #[prop_or(true)]
    pub unreached_sign: bool,
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
    states: Rc<[(String, &'static str)]>,
}

impl PartialEq for HeadsProps {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.picture, &other.picture)
            && self.heads == other.heads
            && self.states == other.states
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
                <span class="lane-head" style={format!("left: {:.3}%", l.x / width * 100.0)}
                    data-state={props.states.iter().find(|(n, _)| *n == l.name).map(|(_, s)| *s)}>
                    <b>{ &l.name }</b><small>{ &l.role }</small>
                </span>
            }) }
        </div>
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
    let left = rect.left() + (rect.width() - w * scale) / 2.0;
    let y = (f64::from(e.client_y()) - top) / scale - frame.live.layout_dy;
    let x = (f64::from(e.client_x()) - left) / scale;
    pic.row_at(x, y, frame.step)
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
    // The hovered row was picked with the keyboard (↑ ↓ in the focused timeline), not the mouse.
    let keyed = use_state(|| false);
    // Where the mouse last was: Chrome sends a mousemove without movement when the picture
    // changes under a resting pointer, which must not bring the card back.
    let last_mouse = use_mut_ref(|| (i32::MIN, i32::MIN));
    let rev = props.rev;
    let pic = props.picture.clone();
    let frame = props.frame.clone();
    let (w, h) = (frame.live.width, frame.live.height);
    let to_scale = pic.key.1 == lockstep_render::TimeMode::ToScale;
    // Where the picture's own lane headers end, in page pixels.
    let heads_bottom =
        frame.live.layout_dy + pic.lanes.iter().map(|l| l.bottom).fold(0.0, f64::max);
    let pin = pic.gutter;
    // Where following a step stops scrolling up (the app leaves out the title block).
    let floor = title_floor(
        props.leave_title,
        (
            frame.live.layout_dy
                + pic
                    .lanes
                    .iter()
                    .map(|l| l.top)
                    .fold(f64::INFINITY, f64::min),
            heads_bottom,
        ),
    );
    {
        // Gone, the timeline takes back the marks it put on the page's root (see `mark`).
        let scroller = scroller.clone();
        use_effect_with((), move |_| {
            let root = scroller
                .cast::<Element>()
                .and_then(|el| el.closest(".app, .embed").ok().flatten());
            move || {
                if let Some(root) = root {
                    for name in MIRRORED {
                        let _ = root.remove_attribute(name);
                    }
                }
            }
        });
    }
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
            let resized = resized.then_some(if sized.1 == Zoom::Fit {
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
                                line_y: row.y + dy,
                                extent: Extent::of(row),
                                lines: pic.lines.clone(),
                                dy,
                                drawn: RefCell::borrow(&shown).reached.map(|(_, b)| b + dy),
                                arrives: row.arrives,
                                label: row.label.as_str().into(),
                                floor,
                                notes: crate::across::notes_near(
                                    &pic.words,
                                    frame.step - 1,
                                    (row.top, row.bottom),
                                )
                                .into(),
                            },
                            last,
                        ),
                    ))
                }
                (None, _) => None,
            };
            if let Some((el, target)) = target {
                let pic_for_heads = pic.clone();
                let (pic_for_label, shown_for_label) = (pic.clone(), shown.clone());
                let page_for_cull = page.clone();
                let step = frame.step;
                // Measured in the next frame callback: reading the scroller's size now would
                // lay the page out once here and again for the frame.
                let follow = wasm_bindgen::closure::Closure::once_into_js(move || {
                    mark_snug(&el, w, to_scale);
                    if let Some(pg) = page_for_cull.cast::<HtmlElement>() {
                        reach_floor(&el, &pg, floor, w);
                    }
                    let caption = match &target {
                        Follow::Row(width, row, _) => {
                            // The words in its way, found only when a caption shows.
                            caption_at(&el, *width, row, pin).map(|(x, right)| Caption {
                                at: (x / width, row.line_y / h),
                                right,
                                label: row.label.clone(),
                                near: crate::caption::near(
                                    &pic_for_label.words,
                                    step - 1,
                                    row.line_y - row.dy,
                                    row.dy,
                                ),
                            })
                        }
                        Follow::Start => None,
                    };
                    hide_row_label(
                        &pic_for_label,
                        step,
                        caption.as_ref().map(|c| &*c.label),
                        &mut RefCell::borrow_mut(&shown_for_label),
                    );
                    // On a phone and in an embed, the last step shows the picture's verdict under
                    // the run, which the pills naming the lanes out of view would cover
                    // (style.css `data-at-end`).
                    toggle(
                        &el,
                        "data-at-end",
                        matches!(target, Follow::Row(_, _, true)),
                    );
                    match target {
                        Follow::Start => {
                            show_caption(&el, None, (0.0, 0.0), 1.0);
                            let scale = f64::from(el.scroll_width()) / w.max(1.0);
                            jump(&el, Some(floor_at(&el, floor, scale)), Some(0.0));
                        }
                        // End jumps (a glide from far away may be cut short by the next key).
                        Follow::Row(width, row, last) => {
                            let left = keep_in_view(
                                &el,
                                width,
                                row.clone(),
                                pin,
                                (glide && !last, resized, fresh),
                            );
                            if last {
                                settle_at_end(&el, width, &row);
                            }
                            let scale = f64::from(el.scroll_width()) / width;
                            show_caption(
                                &el,
                                caption,
                                (left, covered(&el, pin * scale, left)),
                                scale,
                            );
                            // Scrolling sideways can take height from the window (a scrollbar,
                            // the embed's "scroll for more lanes" line): look again once the
                            // page has settled, and follow the row if it has gone out of view,
                            // unless something else (a glide, the next key) has moved it since.
                            let again = el.clone();
                            let at = (el.scroll_top(), el.scroll_left());
                            let settle = wasm_bindgen::closure::Closure::once_into_js(move || {
                                let still = (again.scroll_top(), again.scroll_left()) == at;
                                if still && last {
                                    // The end's own place (following the row would undo it).
                                    settle_at_end(&again, width, &row);
                                } else if still {
                                    keep_in_view(&again, width, row, pin, (false, None, false));
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
                    // Once `show_heads` has said whether the picture is wider than its window
                    // (the cast shows only then).
                    if step == 0 {
                        super::cast::fit_cast(&el);
                    }
                    if let Some(pg) = page_for_cull.cast::<Element>() {
                        cull(
                            &el,
                            &pg,
                            &pic_for_label,
                            &mut RefCell::borrow_mut(&shown_for_label),
                        );
                        // The step's own labels too, where the window has not moved.
                        let scale = f64::from(el.scroll_width()) / w.max(1.0);
                        hide_cut_labels(&el, &pg, w, pinned(&el, pin * scale));
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
        let (page, shown) = (page.clone(), shown.clone());
        use_effect_with((w.to_bits(), heads_bottom.to_bits(), pic.key), move |_| {
            let el = scroller.cast::<HtmlElement>();
            let listener = el.as_ref().map(|el| {
                let (s, hd, p) = (el.clone(), heads.clone(), pic.clone());
                let f = wasm_bindgen::closure::Closure::<dyn Fn()>::new(move || {
                    mark_snug(&s, w, to_scale);
                    if let Some(hd) = hd.cast::<Element>() {
                        show_heads(&s, &hd, &p, w, heads_bottom);
                    }
                    if let Some(pg) = page.cast::<Element>() {
                        cull(&s, &pg, &p, &mut RefCell::borrow_mut(&shown));
                        let pin = pinned(&s, p.gutter * f64::from(s.scroll_width()) / w.max(1.0));
                        hide_cut_labels(&s, &pg, w, pin);
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
    let tap_zoom =
        Some(props.zoom).filter(|&z| props.tap_zooms && (z == Zoom::Fit || !props.zoom_button));
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
        let (hovered, keyed) = (hovered.clone(), keyed.clone());
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
                keyed.set(false);
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
            let current = frame.step.checked_sub(1).and_then(|c| pic.rows.get(c));
            let style = super::hover_card::card_style(
                scroller.cast::<HtmlElement>(),
                (w, h),
                frame.live.layout_dy,
                r,
                current,
            );
            html! {
                <div class="hover-card" role="tooltip" {style}>
                    <strong>{ format!("Step {} · {}", r.step, r.label) }</strong>
                    if !r.explanation.is_empty() { <p>{ &r.explanation }</p> }
                    <span class="hint">{ if *keyed {
                        "Enter jumps here · ↑ ↓ the rows before and after"
                    } else {
                        "Click to jump here" } }</span>
                </div>
            }
        });
    // The keyboard: ↑ ↓ pick a drawn row in the focused timeline (shown as a hovered one is),
    // Enter jumps to it, Esc puts it down.
    let pick = {
        let (hovered, keyed, page) = (hovered.clone(), keyed.clone(), page.clone());
        let (pic, frame, scroller) = (pic.clone(), frame.clone(), scroller.clone());
        move |row: Option<&crate::viewer::HitRow>| {
            show_hover(&page, row, frame.live.width);
            hovered.set(row.map(|r| (r.step, rev)));
            keyed.set(row.is_some());
            if let (Some(r), Some(el)) = (row, scroller.cast::<HtmlElement>()) {
                let dy = frame.live.layout_dy;
                let place = RowPlace {
                    band: (r.top + dy, r.bottom + dy),
                    line_y: r.y + dy,
                    // Sideways too: a row picked while its lanes are out of view showed only
                    // as a faint band (a review, fenced-gc-pause at 1280x720).
                    extent: Extent::of(r),
                    lines: pic.lines.clone(),
                    dy,
                    drawn: None,
                    arrives: false,
                    label: "".into(),
                    floor,
                    notes: Rc::new([]),
                };
                keep_in_view(
                    &el,
                    frame.live.width,
                    place,
                    pic.gutter,
                    (false, None, false),
                );
            }
        }
    };
    let on_key = {
        let (hovered, keyed, pick) = (hovered.clone(), keyed.clone(), pick.clone());
        let (pic, frame, on_seek) = (pic.clone(), frame.clone(), props.on_seek.clone());
        let scroller = scroller.clone();
        Callback::from(move |e: KeyboardEvent| {
            // Only when reached by the keyboard (see keys.rs: clicked, ↑ ↓ step by rows). Chrome
            // counts a clicked element as focus-visible once a key is pressed: the focus event
            // noted how focus came.
            let by_keys = scroller
                .cast::<Element>()
                .is_some_and(|el| el.has_attribute("data-keyboard"));
            if !by_keys {
                return;
            }
            let drawn = &pic.rows[..pic.rows.partition_point(|r| r.step <= frame.step)];
            let at = hovered
                .filter(|&(_, r)| r == rev && *keyed)
                .and_then(|(s, _)| drawn.iter().position(|r| r.step == s));
            let key = e.key();
            match (key.as_str(), at) {
                ("ArrowUp" | "ArrowDown", _) if !drawn.is_empty() => {
                    let last = drawn.len() - 1;
                    let i = match at {
                        None => last,
                        Some(i) if key == "ArrowUp" => i.saturating_sub(1),
                        Some(i) => (i + 1).min(last),
                    };
                    pick(drawn.get(i));
                }
                ("Enter", Some(i)) => on_seek.emit(drawn[i].step),
                ("Escape", Some(_)) => pick(None),
                _ => return,
            }
            e.prevent_default();
            e.stop_propagation();
        })
    };
    let on_focus = {
        let (pick, pic, frame, scroller) =
            (pick.clone(), pic.clone(), frame.clone(), scroller.clone());
        Callback::from(move |_: FocusEvent| {
            // Reached by the keyboard (a click focuses it too): show the current step's row.
            let Some(el) = scroller.cast::<Element>() else {
                return;
            };
            // Moved here by the app itself (`dom::focus_timeline(true)`): not the keyboard's.
            let by_keys =
                !el.has_attribute("data-quiet") && el.matches(":focus-visible").unwrap_or(false);
            toggle(&el, "data-keyboard", by_keys);
            if by_keys && frame.step > 0 {
                pick(pic.rows.iter().take_while(|r| r.step <= frame.step).last());
            }
        })
    };
    let on_blur = {
        let (pick, keyed) = (pick.clone(), keyed.clone());
        let scroller = scroller.clone();
        Callback::from(move |_: FocusEvent| {
            if let Some(el) = scroller.cast::<Element>() {
                toggle(&el, "data-keyboard", false);
                // Tabbed back to, the timeline is the keyboard's again (and shows its ring).
                toggle(&el, "data-quiet", false);
            }
            if *keyed {
                pick(None);
            }
        })
    };
    let leave = {
        let hovered = hovered.clone();
        let page = page.clone();
        Callback::from(move |_: MouseEvent| {
            show_hover(&page, None, 0.0);
            hovered.set(None);
        })
    };
    let back = super::unreached::on_back(scroller.clone(), page.clone(), shown.clone());
    let class = classes!("page", props.highlight_faults.then_some("faults"));
    let zoom_class = props.zoom.class();
    html! {
        <div class={classes!("timeline-scroller", zoom_class)} ref={scroller} tabindex="0" role="region"
            onkeydown={on_key} onfocus={on_focus} onblur={on_blur}
            aria-label="The timeline: ↑ and ↓ pick an event, Enter jumps to it; scroll to see more of it"
            style={format!("--page-w: {w:.0}px; --page-n: {w:.0}")}>
            <LaneHeads picture={pic.clone()} heads={heads} states={props.lane_states.clone()} />
            if frame.step == 0 && !pic.lanes.is_empty() {
                <super::cast::Cast picture={pic.clone()} />
            }
            <div {class} ref={page} onclick={click} onmousemove={moved} onmouseleave={leave}>
                <Base picture={pic.clone()} />
                // The current step's words beside its receiving end (see [`show_caption`]).
                <div class="step-caption" aria-hidden="true" hidden=true></div>
                // Always there, so that yew, which matches unkeyed children from the end, never
                // takes the card's arrival for a change of the picture (and puts it in again).
                <div class="hover-slot" aria-live="polite">{ for card }</div>
            </div>
            if props.unreached_sign {
                <div class="unreached"><button type="button" hidden=true onclick={back}>
                    { "▲ Back to the current step" }</button></div>
            }
            // The lanes out of view to either side, named (see [`show_heads`]).
            <div class="lanes-off" aria-hidden="true">
                <span class="off-left" hidden=true></span>
                <span class="off-right" hidden=true></span>
            </div>
        </div>
    }
}
