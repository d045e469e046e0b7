//! The stepping controls: Home, Back, Play/Pause (at the last step it says so), Forward, End, past
//! repeated retries, speed, the step number, the time-mode and chart switches. Keys do the same
//! (see `keys.rs`); every button says its key.

use lockstep_render::TimeMode;
use web_sys::HtmlInputElement;
use web_sys::HtmlSelectElement;
use yew::prelude::*;

use super::state::{Action, AppState, SPEEDS, Zoom};
use crate::share::Chart;

#[derive(Properties, PartialEq)]
pub struct ControlsProps {
    pub state: UseReducerHandle<AppState>,
    /// Leave out the speed, mode and chart switches (the embed's minimal bar).
    #[prop_or(false)]
    pub minimal: bool,
}

#[component]
pub fn Controls(props: &ControlsProps) -> Html {
    let state = &props.state;
    let Some(viewer) = &state.viewer else {
        return html! {};
    };
    let (pos, total, at_end, retries) = {
        let v = viewer.borrow();
        // The embed's minimal bar has no such button: its run is not looked through for one.
        (
            v.pos(),
            v.total(),
            v.at_end(),
            !props.minimal && v.has_repeats(),
        )
    };
    let send = |a: fn() -> Action| {
        let s = state.clone();
        Callback::from(move |_: MouseEvent| s.dispatch(a()))
    };
    let on_step_input = {
        let s = state.clone();
        Callback::from(move |e: Event| {
            let input: HtmlInputElement = e.target_unchecked_into();
            if let Ok(n) = input.value().trim().parse::<usize>() {
                s.dispatch(Action::Seek(n));
                // The step is chosen: the keys go back to the run (a presenter who typed a
                // step number would otherwise find the clicker's → and Space typing into it).
                super::dom::focus_timeline(true);
            } else {
                // A value the run has no step for ("-3", "2.5", empty): the box shows the step
                // the run is at again, rather than a number it is not at.
                input.set_value(&pos.to_string());
            }
        })
    };
    let on_speed = {
        let s = state.clone();
        Callback::from(move |e: Event| {
            let sel: HtmlSelectElement = e.target_unchecked_into();
            if let Ok(i) = sel.value().parse::<usize>() {
                s.dispatch(Action::Speed(i));
            }
        })
    };
    let next_speed = {
        let s = state.clone();
        let next = (state.speed + 1) % SPEEDS.len();
        Callback::from(move |_: MouseEvent| s.dispatch(Action::Speed(next)))
    };
    let mode_button = {
        let s = state.clone();
        let to_scale = state.time_mode == TimeMode::ToScale;
        let next = if to_scale {
            TimeMode::Logical
        } else {
            TimeMode::ToScale
        };
        let onclick = Callback::from(move |_: MouseEvent| s.dispatch(Action::TimeMode(next)));
        html! {
            // The button says what it does (the picture's subtitle says which mode is shown).
            <button class="toggle" {onclick} data-testid="time-mode"
                title="Switch between logical time (one row per event) and to scale (height is simulated time) — key T">
                // "Show " goes in a narrow strip (a phone-sized embed, style.css).
                <span class="show">{ "Show " }</span>
                { if to_scale { "logical time" } else { "to scale" } }
            </button>
        }
    };
    let chart_button = {
        let s = state.clone();
        let lease = state.chart == Chart::Lease;
        let next = if lease { Chart::Timeline } else { Chart::Lease };
        let onclick = Callback::from(move |_: MouseEvent| s.dispatch(Action::Chart(next)));
        html! {
            <button class="toggle" aria-pressed={lease.to_string()} {onclick}
                title="Show the lease chart: who holds, who believes — key L">
                { "Lease" }<span class="more">{ " chart" }</span>
            </button>
        }
    };
    // The picture's zoom, in the strip where it covers no part of the picture (style.css shows
    // it only when there is something to zoom: the lease chart's in an embed only).
    let zoom_button = {
        let s = state.clone();
        let next = state.zoom.toggled();
        let onclick = Callback::from(move |_: MouseEvent| s.dispatch(Action::Zoom(next)));
        let lease = state.chart == Chart::Lease;
        // The words after the first go in a narrow strip (the embed's, style.css).
        let (text, more, title) = match (state.zoom, lease) {
            (Zoom::Fit, _) => (
                "Zoom",
                " in",
                "Zoom in to readable labels, following the current step — key Z",
            ),
            (Zoom::Readable, false) => ("Fit", " the width", "Show every lane at once — key Z"),
            (Zoom::Readable, true) => ("Fit", " the width", "Show the whole chart at once — key Z"),
        };
        let class = classes!("zoom", lease.then_some("of-lease"));
        html! {
            <button {class} {onclick} {title} data-testid="zoom">
                { text }<span class="more">{ more }</span>
            </button>
        }
    };
    html! {
        <div class="controls" role="toolbar" aria-label="Step through the run">
            <button onclick={send(|| Action::Home)} disabled={pos == 0}
                aria-label="First step (Home)" title="First step — Home">{ "|◀" }</button>
            <button onclick={send(|| Action::Back)} disabled={pos == 0}
                aria-label="Step back (Left, PageUp)" title="Back — Left / PageUp">{ "◀" }</button>
            if !props.minimal {
                // At the last step it says so rather than starting again (P "to stop" at the end
                // replayed the whole run from step 0, a review); its words stay "Play", whose
                // width the strip's one line was measured with (a 4:3 projector's has 7 px left).
                <button class="play" onclick={send(|| Action::TogglePlay)}
                    aria-label={if state.playing { "Pause (P)" } else { "Play (P)" }}
                    title={if at_end && !state.playing {
                        "At the last step: Home goes back to the start"
                    } else {
                        "Play / pause — P"
                    }}>
                    { if state.playing { "Pause" } else { "Play" } }
                </button>
            }
            <button onclick={send(|| Action::Forward)} disabled={at_end}
                aria-label="Step forward (Right, Space, PageDown)"
                title="Forward — Right / Space / PageDown">{ "▶" }</button>
            <button onclick={send(|| Action::End)} disabled={at_end}
                aria-label="Last step (End)" title="Last step — End">{ "▶|" }</button>
            // Only for a run with a retry loop, whose repeats it goes past (a what-if pause on
            // naive-happy-path made 130 steps of polling, a review).
            if retries {
                <button class="notable" onclick={send(|| Action::NextNotable)} disabled={at_end}
                    aria-label="Next notable step, past repeated retries (J)"
                    title="Next notable step: past repeated retries — key J">
                    { "Skip retries" }
                </button>
            }
            if !props.minimal {
                // A phone's speed control (style.css): the list does not fit its controls'
                // second line, and a touch user has no + and − keys (a review).
                <button class="speed-cycle" onclick={next_speed}
                    aria-label={format!("Play speed: {}; tap for the next", speed_words(SPEEDS[state.speed]))}>
                    { format!("{}×", SPEEDS[state.speed]) }
                </button>
            }
            <label class="step">
                <span>{ "Step" }</span>
                <input type="number" min="0" max={total.to_string()} value={pos.to_string()}
                    data-step={pos.to_string()}
                    onchange={on_step_input} aria-label="Current step" />
                <span class="of" data-testid="step-of">{ format!("of {total}") }</span>
            </label>
            if !props.minimal {
                <label class="speed">
                    <span>{ "Speed" }</span>
                    <select onchange={on_speed} aria-label="Play speed">
                        { for SPEEDS.iter().enumerate().map(|(i, s)| html! {
                            <option value={i.to_string()} selected={i == state.speed}>
                                { speed_words(*s) }
                            </option>
                        }) }
                    </select>
                </label>
                { mode_button }
                { chart_button }
            }
            { zoom_button }
        </div>
    }
}

/// A play speed in words: "1 step/s", "0.5 steps/s".
fn speed_words(steps_per_second: f64) -> String {
    if steps_per_second == 1.0 {
        "1 step/s".to_string()
    } else {
        format!("{steps_per_second} steps/s")
    }
}
