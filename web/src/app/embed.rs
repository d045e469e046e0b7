//! The embed page (`embed.html#scenario=ID&step=N&controls=none|minimal|full`): one run at one
//! step, sized to its iframe, with as much chrome as the docs author asked for.

use yew::prelude::*;

use super::controls::Controls;
use super::dom;
use super::explain::{Explanation, StepLine};
use super::flash::FlashLine;
use super::keys::{use_hash_change, use_keys, use_player};
use super::notice_words::notice_words;
use super::page::{open_hash, picture};
use super::state::{Action, AppState, SPEEDS, Zoom};
use crate::share::{self, Chart, View};

/// The size of the picture's arrow labels at its own scale.
const LABEL_PX: f64 = 16.0;
/// The least size an embed opens with its picture's labels fitted to the frame's width: a phone's
/// floor (style.css, 9 px); smaller, it opens zoomed in to readable labels.
const LEAST_FITTED_PX: f64 = 9.0;

#[component]
pub fn Embed() -> Html {
    let controls = use_state(|| {
        View::parse_keeping(&dom::hash())
            .ok()
            .flatten()
            .map_or(share::Controls::Minimal, |(v, _)| v.controls)
    });
    // The whole width first: every lane in view; a tap or Z zooms in to readable labels. In a
    // frame 720 px wide or less the whole width is a thumbnail (3 px labels on a phone, under 6
    // px at 640): readable labels at the current step first, a tap zooms out. So too up to 1024
    // px with the full controls, whose explanation takes the frame's lower part.
    let full = *controls == share::Controls::Full;
    let state = use_reducer(|| AppState {
        zoom: if dom::embed_opens_zoomed(full) {
            Zoom::Readable
        } else {
            Zoom::Fit
        },
        embed: true,
        ..AppState::default()
    });
    // A wider frame still opens on a thumbnail where the run is wide: an 800 px frame drew
    // fenced-gc-pause's labels at 6.7 px (a review playing a docs author). Once the run's
    // picture is known, an embed fitted below [`LEAST_FITTED_PX`] zooms in; only at opening, so a
    // reader's own zoom stands.
    {
        let decided = use_mut_ref(|| false);
        let s = state.clone();
        // The lease chart's words are 16 px on its 1,600 px page too: fitted to an 800 px frame
        // they were 8 px, its legend's last line cut (a review).
        let width = match state.chart {
            Chart::Timeline => state.picture.as_ref().map(|p| p.page_width()),
            Chart::Lease => state
                .lease
                .as_ref()
                .map(|_| lockstep_render::lease::page::WIDTH as u32),
        };
        use_effect_with(width, move |width| {
            if let Some(page) = *width
                && !*decided.borrow()
            {
                *decided.borrow_mut() = true;
                let frame = web_sys::window()
                    .and_then(|w| w.inner_width().ok())
                    .and_then(|w| w.as_f64())
                    .unwrap_or(0.0);
                let fitted = LABEL_PX * frame / f64::from(page.max(1));
                if s.zoom == Zoom::Fit && frame > 0.0 && fitted < LEAST_FITTED_PX {
                    s.dispatch(Action::Zoom(Zoom::Readable));
                }
            }
        });
    }
    use_keys(state.clone(), true);
    use_player(state.clone(), SPEEDS[state.speed]);
    {
        let s = state.clone();
        let controls = controls.clone();
        use_hash_change(Callback::from(move |hash: String| {
            if let Ok(Some((v, _))) = View::parse_keeping(&hash) {
                controls.set(v.controls);
            }
            open_hash(&s, &hash);
        }));
    }
    {
        let s = state.clone();
        use_effect_with((), move |_| {
            open_hash(&s, &dom::hash());
        });
        let drawn = state.clone();
        use_effect_with(state.rev, move |_| {
            dom::mark("lockstep:drawn");
            super::after_frame::prefetch_after_frame(&drawn);
        });
        // The lease chart zoomed in is wider than the frame: scrolled to the current step, its
        // row names, title and legend pinned (as on a phone).
        let lease_step = state.lease_step();
        let s = state.clone();
        use_effect_with((state.rev, state.chart, state.zoom), move |_| {
            if let Some(at) = &lease_step {
                super::lease_pin::show_lease_step(at, true);
                // Laid out before its window was on the page (opened on the lease chart, for the
                // frame's width): again for the window's. A 640x360 frame with the full controls
                // cut its title mid-word, wrapped to 600 px in a 384 px window (a review).
                let laid_off = match (s.lease_laid, s.lease_window()) {
                    (Some(a), Some(b)) => (a / b - 1.0).abs() > 0.02,
                    _ => false,
                };
                if laid_off {
                    s.dispatch(Action::LeaseWindow);
                }
            }
        });
        // The last step's verdict wraps to the window (a zoom changes how much it shows).
        let seen = state.clone();
        use_effect_with((state.rev, state.zoom), move |_| {
            super::after_frame::measure_seen(&seen);
        });
    }
    // Once per message, not per step.
    use_effect_with(state.notice.as_ref().map(|n| n.text.clone()), |text| {
        if let Some(t) = text {
            dom::warn(&format!("lockstep embed: {t}"));
        }
    });
    let Some(viewer) = &state.viewer else {
        let why = state.notice.as_ref().map_or_else(
            || "This embed names no scenario: use embed.html#scenario=ID&step=N.".to_string(),
            |n| n.text.clone(),
        );
        // There is no picker here: the reader gets the app, where every scenario is.
        return html! {
            <div class="embed empty" role="alert">
                <p>{ notice_words(&why, &dom::hash()) }</p>
                <p><a class="open" href={dom::base_url("index.html")} target="_blank"
                    rel="noopener">{ "Open lockstep" }</a></p>
            </div>
        };
    };
    // A link with parts the embed ignored (a typo in `step=` or `controls=`): said in a line the
    // reader can dismiss, and in the console, where a docs author checking the page looks.
    let notice = state.notice.as_ref().map(|n| {
        let s = state.clone();
        let dismiss = Callback::from(move |_: MouseEvent| s.dispatch(Action::Notice(None)));
        html! {
            <div class="notice embed-notice" role="status">
                <p>{ notice_words(&n.text, &dom::hash()) }</p>
                <button onclick={dismiss} aria-label="Dismiss this message">{ "×" }</button>
            </div>
        }
    });
    // The app has no controls setting: the link opens the same view without the embed's.
    let mut view = viewer.borrow().view(state.time_mode, state.chart);
    view.speed = state.speed;
    let open_link = format!("{}{}", dom::base_url("index.html"), view.to_hash());
    let bar = match *controls {
        share::Controls::None => html! {},
        share::Controls::Minimal => {
            html! { <Controls state={state.clone()} minimal=true /> }
        }
        share::Controls::Full => html! { <Controls state={state.clone()} /> },
    };
    html! {
        <div class={classes!("embed", format!("controls-{}", match *controls {
            share::Controls::None => "none",
            share::Controls::Minimal => "minimal",
            share::Controls::Full => "full",
        }))}>
            if *controls != share::Controls::None {
                <div class="embed-bar">
                    { bar }
                    <a class="open" href={open_link} target="_blank" rel="noopener">{ "Open" }<span class="more">{ " in lockstep" }</span>{ " ↗" }</a>
                </div>
            }
            { for notice }
            if *controls == share::Controls::Minimal {
                <StepLine state={state.clone()} />
            }
            { picture(&state, Some(*controls)) }
            <FlashLine flash={state.flash.clone()} dispatch={state.dispatcher()} />
            <p class="scroll-hint" aria-hidden="true">{ "◀ scroll for more lanes ▶" }</p>
            if *controls == share::Controls::Full {
                <Explanation state={state.clone()} />
            }
        </div>
    }
}
