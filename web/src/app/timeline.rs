//! The timeline: lockstep-render's SVG as it is, with a transparent layer of one band per row
//! on top (from the same layout) so that a click jumps to an event and hovering shows its
//! explanation. Keeps the current step in view.

use std::rc::Rc;

use web_sys::HtmlElement;
use yew::prelude::*;

use super::dom;
use crate::viewer::Picture;

#[derive(Properties, PartialEq)]
pub struct TimelineProps {
    pub picture: Rc<Picture>,
    /// Changes on every redraw, so the current step is brought into view.
    pub rev: u64,
    pub on_seek: Callback<usize>,
    /// Mark the fault events (the run is a counterexample the search found).
    #[prop_or(false)]
    pub highlight_faults: bool,
}

/// Scrolls `scroller` so that the band `top..bottom` (in page pixels) is visible.
fn keep_in_view(scroller: &HtmlElement, page_width: f64, top: f64, bottom: f64) {
    // The page is drawn at the scroller's width (or wider, on a phone).
    let drawn = f64::from(scroller.scroll_width());
    if drawn <= 0.0 || page_width <= 0.0 {
        return;
    }
    let scale = drawn / page_width;
    let (y0, y1) = (top * scale, bottom * scale);
    let view0 = f64::from(scroller.scroll_top());
    let view1 = view0 + f64::from(scroller.client_height());
    if y0 < view0 || y1 > view1 {
        let centre = (y0 + y1) / 2.0 - f64::from(scroller.client_height()) / 2.0;
        let opts = web_sys::ScrollToOptions::new();
        opts.set_top(centre.max(0.0));
        // Glide to the step, unless the user asked for less motion.
        opts.set_behavior(if dom::reduced_motion() {
            web_sys::ScrollBehavior::Instant
        } else {
            web_sys::ScrollBehavior::Smooth
        });
        scroller.scroll_to_with_scroll_to_options(&opts);
    }
}

#[component]
pub fn Timeline(props: &TimelineProps) -> Html {
    let scroller = use_node_ref();
    // The hovered step and the redraw it was hovered in: a step (key, clicker, play) redraws, and
    // the card stays hidden until the mouse really moves again.
    let hovered = use_state(|| None::<(usize, u64)>);
    // Where the mouse last was: Chrome sends a mousemove without movement when the picture
    // changes under a resting pointer, which must not bring the card back.
    let last_mouse = use_mut_ref(|| (i32::MIN, i32::MIN));
    let rev = props.rev;
    let pic = props.picture.clone();
    {
        let scroller = scroller.clone();
        let pic = pic.clone();
        use_effect_with(props.rev, move |_| {
            if let (Some(el), Some(row)) = (scroller.cast::<HtmlElement>(), pic.rows.last()) {
                let dy = pic.layout_dy;
                keep_in_view(&el, pic.width, row.top + dy, row.bottom + dy);
            }
        });
    }
    let (w, h) = (pic.width, pic.height);
    let current = pic.rows.last().map(|r| r.step);
    let bands = pic.rows.iter().map(|r| {
        let step = r.step;
        let on_click = props.on_seek.reform(move |_: MouseEvent| step);
        let moved = {
            let hovered = hovered.clone();
            let last_mouse = last_mouse.clone();
            Callback::from(move |e: MouseEvent| {
                let at = (e.client_x(), e.client_y());
                let really_moved = *last_mouse.borrow() != at;
                *last_mouse.borrow_mut() = at;
                if really_moved && *hovered != Some((step, rev)) {
                    hovered.set(Some((step, rev)));
                }
            })
        };
        // The current step gets a strong outline on top of the SVG's pale band (a projector
        // washes that out; the SVG's colours are plain fills the page cannot restyle).
        let class = classes!(
            "hit",
            r.branch.then_some("branch"),
            (props.highlight_faults && r.fault).then_some("fault"),
            (Some(step) == current).then_some("current")
        );
        html! {
            <rect {class} x="0" y={format!("{:.1}", r.top - 3.0)} width={format!("{w:.0}")}
                height={format!("{:.1}", (r.bottom - r.top + 6.0).max(8.0))}
                onclick={on_click} onmousemove={moved}>
                <title>{ format!("Step {}: {}", r.step, r.label) }</title>
            </rect>
        }
    });
    let branch_marks = pic.rows.iter().filter(|r| r.branch).map(|r| {
        html! {
            <g class="branch-mark">
                <rect x="2" y={format!("{:.1}", r.top - 3.0)} width="8"
                    height={format!("{:.1}", (r.bottom - r.top + 6.0).max(8.0))} />
                <text x="14" y={format!("{:.1}", r.top - 6.0)}>{ "what-if branch starts here" }</text>
            </g>
        }
    });
    let card = hovered
        .filter(|&(_, at)| at == rev)
        .and_then(|(s, _)| pic.rows.iter().find(|r| r.step == s))
        .map(|r| {
            let top_pct = ((r.bottom + pic.layout_dy) / h * 100.0).min(96.0);
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
        Callback::from(move |_: MouseEvent| hovered.set(None))
    };
    html! {
        <div class="timeline-scroller" ref={scroller} tabindex="0"
            aria-label="The timeline; scroll to see more of it">
            <div class="page" onmouseleave={leave} style={format!("--page-w: {w:.0}px")}>
                { Html::from_html_unchecked(AttrValue::from(pic.svg.clone())) }
                <svg class="hits" viewBox={format!("0 0 {w:.0} {h:.0}")} aria-hidden="true"
                    preserveAspectRatio="xMidYMid meet">
                    // One transform for the title block's height: a step that changes it moves
                    // the group, not every band.
                    <g transform={format!("translate(0 {:.1})", pic.layout_dy)}>
                        { for bands }
                        { for branch_marks }
                    </g>
                </svg>
                { for card }
            </div>
        </div>
    }
}
