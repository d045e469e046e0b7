//! The main page: header, picker or run (controls, the picture, explanation, verdict, what-if,
//! share), presenter mode, and the link in the hash kept in step with what is shown.

use yew::prelude::*;

use super::controls::Controls;
use super::dom;
use super::explain::{Explanation, VerdictPanel};
use super::flash::FlashLine;
use super::inspector::Inspector;
use super::keys::{use_hash_change, use_keys, use_player};
use super::lease_pin;
use super::legend::Legend;
use super::notice_words::notice_words;
use super::picker::Picker;
use super::search::SearchPanel;
use super::share_bar::{Redraw, ShareBar};
use super::state::{Action, AppState, SPEEDS, Zoom};
use super::timeline::Timeline;
use super::upload::Upload;
use super::whatif_menu::WhatIfMenu;
use crate::share::{Chart, HashErrors, StepTarget, View};
use crate::viewer::Source;

/// Restores what a hash describes (once the TOML module has read the file it carries, if any).
pub fn open_hash(state: &UseReducerHandle<AppState>, hash: &str) {
    match View::parse_keeping(hash) {
        Ok(Some((view, ignored))) => {
            // A mangled step or mode still opens the scenario, and says what was ignored.
            let ignored = (!ignored.is_empty()).then(|| {
                format!(
                    "Part of this link was ignored: {}; showing {} at {}",
                    HashErrors(ignored),
                    view.scenario,
                    match view.step {
                        StepTarget::Start => "step 0".to_string(),
                        StepTarget::At(n) => format!("step {n}"),
                        StepTarget::End => "the last step".to_string(),
                    }
                )
            });
            match view.source.clone() {
                None => {
                    super::own::new_choice();
                    let source = Ok(Source::Builtin(view.scenario.clone()));
                    state.dispatch(Action::OpenView(Box::new(view), source, ignored));
                }
                Some(toml) => {
                    let s = state.clone();
                    let file = view.file_name();
                    super::own::read(file, toml, move |source| {
                        s.dispatch(Action::OpenView(Box::new(view), source, ignored))
                    });
                }
            }
        }
        Ok(None) => {}
        Err(e) => state.dispatch(Action::BadLink(e.to_string())),
    }
}

/// The picture of the current step: the timeline or the lease chart. The timeline zooms (fit
/// the width, or readable labels): with a button and Z, and in the embed (`embed`: its
/// controls) a tap on the
/// whole-width picture zooms in (its rows are too thin to pick one); an embed without controls
/// has no button, and a tap there zooms in and out. Zoomed in, the embed too follows the steps
/// from the lanes' headers down, as the app does: its title block, scrolled sideways with the
/// step, showed as a fragment of a sentence at the top of a phone's frame.
pub fn picture(state: &UseReducerHandle<AppState>, embed: Option<crate::share::Controls>) -> Html {
    let on_seek = {
        let s = state.clone();
        Callback::from(move |n: usize| s.dispatch(super::state::Action::Seek(n)))
    };
    let on_zoom = {
        let s = state.clone();
        Callback::from(move |z| s.dispatch(Action::Zoom(z)))
    };
    let zoom_button = embed != Some(crate::share::Controls::None);
    let lane_states: std::rc::Rc<[_]> = state
        .viewer
        .as_ref()
        .map(|v| v.borrow().lane_states())
        .unwrap_or_default()
        .into();
    match (state.chart, &state.picture, &state.lease, &state.frame) {
        (Chart::Lease, _, Some(svg), _) => html! {
            // Scrolled by hand, the words its edges would cut are hidden whole.
            <div tabindex="0" role="region" aria-label="The lease chart"
                class={classes!("timeline-scroller", "lease", embed.map(|_| state.zoom.class()))}
                onscroll={Callback::from(|e: Event| {
                    if let Some(s) = e.target_dyn_into::<web_sys::HtmlElement>() {
                        super::lease_cut::hide_cut_words(&s);
                    }
                })}>
                // Filled by lease_pin::show_lease_step when the chart is wider than its window.
                <div class="lease-pin" aria-hidden="true"></div>
                <div class="lease-bands" aria-hidden="true"></div>
                <div class="lease-axis" aria-hidden="true"></div>
                <div class="page">{ Html::from_html_unchecked(svg.clone()) }</div>
            </div>
        },
        (Chart::Timeline, Some(p), _, Some(f)) => html! {
            <Timeline picture={p.clone()} frame={f.clone()} rev={state.rev} {on_seek}
                highlight_faults={state.found.is_some()} presenter={state.presenter}
                zoom={state.zoom} {on_zoom} {zoom_button} tap_zooms={embed.is_some()}
                unreached_sign={zoom_button}
                leave_title={embed.is_none() || state.zoom == Zoom::Readable}
                {lane_states} />
        },
        _ => html! {},
    }
}

#[component]
pub fn App() -> Html {
    let state = use_reducer(AppState::default);
    use_keys(state.clone(), false);
    use_player(state.clone(), SPEEDS[state.speed]);
    super::fit::use_fitted_strip(state.presenter, state.rev, state.viewer.clone());
    {
        let s = state.clone();
        use_hash_change(Callback::from(move |hash: String| {
            // Back to the page as it opened, before any scenario: the list.
            if hash.trim_start_matches('#').is_empty() {
                s.dispatch(Action::ShowPicker(true));
            } else {
                open_hash(&s, &hash);
            }
        }));
    }
    {
        // Open what the link says, once.
        let s = state.clone();
        use_effect_with((), move |_| {
            open_hash(&s, &dom::hash());
        });
    }
    {
        // Keep the hash in step with the view, and the page in step with presenter mode.
        let presenter = state.presenter;
        let view = state.viewer.as_ref().map(|v| {
            let mut view = v.borrow().view(state.time_mode, state.chart);
            view.presenter = presenter;
            view.speed = state.speed;
            (view.scenario.clone(), view.to_hash())
        });
        let (scenario, view) = view.unzip();
        // Another scenario starts with its panel at the top: a link pasted into the address bar
        // opened one with the panel still scrolled down to the last one's what-if (a review).
        use_effect_with(scenario, |_| {
            if let Some(side) = dom::html_element("main.workspace .side") {
                side.set_scroll_top(0);
            }
        });
        // Not while the list shows (Back to the list leaves the hash empty, which a write would
        // undo), and again when it closes (the same view picked again writes over the empty hash).
        use_effect_with((view, state.picking), |(view, picking)| {
            if let Some(hash) = view.as_ref().filter(|_| !*picking) {
                dom::replace_hash_after_frame(hash.clone());
            }
        });
        use_effect_with(presenter, |on| dom::full_screen(*on));
        // F on presenter mode's layout not yet full screen asks for it (keys.rs), once.
        use_effect_with((), |_| {
            let watch = dom::watch_full_screen();
            move || drop(watch)
        });
        let drawn = state.clone();
        let lease_step = state.lease_step();
        // Presenter mode lays the lease chart out for its box's shape, measured once the strip
        // is fitted (`use_fitted_strip`, above): again at a step after the window changed size.
        let measure = (state.presenter && state.chart == Chart::Lease).then(|| state.clone());
        use_effect_with((state.rev, state.presenter, state.chart), move |_| {
            if let Some(s) = measure
                && let Some(aspect) = lease_pin::box_aspect()
                && s.lease_aspect
                    .is_none_or(|a| (a / aspect - 1.0).abs() > 0.02)
            {
                s.dispatch(Action::LeaseBox(aspect));
            }
            dom::mark("lockstep:drawn");
            super::after_frame::prefetch_after_frame(&drawn);
            if let Some(at) = &lease_step {
                lease_pin::show_lease_step(at, false);
            }
        });
    }
    {
        // The last step's verdict under the run wraps to the timeline's window (presenter mode
        // and a zoom change how much of the picture it shows).
        let seen = state.clone();
        use_effect_with(
            (state.rev, state.presenter, state.chart, state.zoom),
            move |_| super::after_frame::measure_seen(&seen),
        );
    }
    let title = state.viewer.as_ref().map(|v| v.borrow().title());
    // The tab, the history and a screen reader's page title name the run (they named the site
    // whatever was open, a review); the list is the site's own page.
    {
        let named = title.clone().filter(|_| !state.picking);
        use_effect_with(named, |named| dom::set_page_title(named.as_deref()));
    }
    let toggle_presenter = {
        let s = state.clone();
        let on = !state.presenter;
        Callback::from(move |_: MouseEvent| s.dispatch(Action::Presenter(on)))
    };
    let open_picker = {
        let s = state.clone();
        Callback::from(move |_: MouseEvent| s.dispatch(Action::ShowPicker(true)))
    };
    let skip_to_run = Callback::from(|e: MouseEvent| {
        e.prevent_default();
        dom::focus_timeline(false);
    });
    let dismiss = {
        let s = state.clone();
        Callback::from(move |_: MouseEvent| s.dispatch(Action::Notice(None)))
    };
    // What the style rules of the page's parts need to know of one another (classes set here
    // rather than `:has()` rules, which cost every step style work; see follow.rs `mark`).
    let with_run = !(state.picking || state.viewer.is_none());
    let with_lease = state.chart == Chart::Lease && state.lease.is_some();
    let readable = state.chart == Chart::Timeline
        && state.zoom == Zoom::Readable
        && state.picture.is_some()
        && state.frame.is_some();
    let main = if !with_run {
        html! {
            <main id="main" class="picking">
                <Picker state={state.clone()} />
                <Upload dispatch={state.dispatcher()} error={state.upload_error.clone()} />
            </main>
        }
    } else {
        html! {
            <main id="main" class={classes!("workspace", with_lease.then_some("with-lease"))}>
                <div class="stage">
                    <Controls state={state.clone()} />
                    { picture(&state, None) }
                </div>
                <aside class="side">
                    <Explanation state={state.clone()} />
                    <VerdictPanel state={state.clone()} />
                    if let (Chart::Timeline, Some(f)) = (state.chart, &state.frame) {
                        <Legend art={f.legend.clone()}
                            folded={dom::narrow() || state.presenter} />
                    }
                    <SearchPanel dispatch={state.dispatcher()} viewer={state.viewer.clone()}
                        found={state.found.clone()} />
                    // Presenter mode hides the inspector (style.css): not rendering its tables
                    // spares every step their update.
                    if !state.presenter {
                        <Inspector state={state.clone()} />
                    }
                    if let Some(v) = &state.viewer {
                        <WhatIfMenu dispatch={state.dispatcher()} viewer={v.clone()}
                            branch={v.borrow().branch()} at_end={v.borrow().at_end()} />
                        <ContextProvider<Redraw> context={Redraw(state.rev)}>
                            <ShareBar viewer={v.clone()} branch={v.borrow().branch()}
                                time_mode={state.time_mode} chart={state.chart}
                                speed={state.speed} />
                        </ContextProvider<Redraw>>
                    }
                    <Upload dispatch={state.dispatcher()} error={state.upload_error.clone()} />
                </aside>
            </main>
        }
    };
    html! {
        <div class={classes!("app", state.presenter.then_some("presenter"),
            with_run.then_some("with-run"), readable.then_some("readable"))}
            data-render-ms={format!("{:.2}", state.render_ms)}>
            // Only over a run (the picker has none); it focuses the timeline rather than
            // following `#main`, which would replace the share link's hash.
            if with_run {
                <a class="skip" href="#main" onclick={skip_to_run}>{ "Skip to the run" }</a>
            }
            <header class="bar">
                <h1 class="brand">{ "lockstep" }</h1>
                if let Some(t) = title {
                    <p class="run-title">{ t }</p>
                }
                <nav aria-label="Page">
                    <button onclick={open_picker} title="Scenarios — S">{ "Scenarios" }</button>
                    if state.viewer.is_some() {
                        <button onclick={toggle_presenter} aria-pressed={state.presenter.to_string()}
                            title="Presenter mode: full screen, large type — F (Esc leaves)">
                            { if state.presenter { "Leave presenter mode" } else { "Presenter mode" } }
                        </button>
                    }
                </nav>
            </header>
            if let Some(n) = &state.notice {
                <div class={classes!("notice", n.error.then_some("error"))} role="alert">
                    <p>{ notice_words(&n.text, &dom::hash()) }</p>
                    <button onclick={dismiss} aria-label="Dismiss this message">{ "×" }</button>
                </div>
            }
            { main }
            <FlashLine flash={state.flash.clone()} dispatch={state.dispatcher()} />
            if state.blank {
                <div class="blank-screen" data-testid="blank-screen" role="status"
                    aria-label="The screen is blank; any key shows the run again"></div>
            }
            <footer class="keys" aria-label="Keys">
                { "Keys: → Space PageDown forward · ← PageUp back · ↓ N next row · ↑ row before · J past repeated retries · Home End · P play · + − speed · T time scale · L lease chart · F presenter (B blanks it) · Z zoom · S scenarios" }
            </footer>
        </div>
    }
}
