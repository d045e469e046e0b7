//! The scenario picker: the catalogue in teaching order with each summary and expected outcome,
//! filtered as you type.

use web_sys::HtmlInputElement;
use yew::prelude::*;

use super::state::{Action, AppState, entries};

#[derive(Properties, PartialEq)]
pub struct PickerProps {
    pub state: UseReducerHandle<AppState>,
}

#[component]
pub fn Picker(props: &PickerProps) -> Html {
    let state = &props.state;
    let filter = use_state(String::new);
    let entries = use_memo((), |_| entries());
    let filter_box = use_node_ref();
    {
        // Opened over a run (S, the Scenarios button): typing filters at once.
        let (filter_box, over_run) = (filter_box.clone(), state.viewer.is_some());
        use_effect_with((), move |_| {
            if let (true, Some(el)) = (over_run, filter_box.cast::<HtmlInputElement>()) {
                let _ = el.focus();
            }
        });
    }
    let on_filter = {
        let filter = filter.clone();
        Callback::from(move |e: InputEvent| {
            let input: HtmlInputElement = e.target_unchecked_into();
            filter.set(input.value());
        })
    };
    let shown: Vec<_> = entries
        .iter()
        .filter(|e| crate::catalogue::matches_filter(&filter, &[e.id, &e.title, &e.summary]))
        .collect();
    // Enter in the filter opens the first card it leaves.
    let on_enter = {
        let (s, first) = (state.clone(), shown.first().map(|e| e.id.to_string()));
        Callback::from(move |e: KeyboardEvent| {
            if e.key() == "Enter"
                && let Some(id) = first.clone()
            {
                e.prevent_default();
                super::own::new_choice();
                s.dispatch(Action::Pick(id));
            }
        })
    };
    let close = {
        let s = state.clone();
        Callback::from(move |_: MouseEvent| s.dispatch(Action::ShowPicker(false)))
    };
    html! {
        <section class="picker" aria-labelledby="picker-title">
            <div class="picker-head">
                <h2 id="picker-title">{ "Pick a scenario" }</h2>
                <input type="search" placeholder="Filter: fencing, redlock, pause…" value={(*filter).clone()}
                    ref={filter_box}
                    oninput={on_filter} onkeydown={on_enter}
                    aria-label="Filter the scenarios (Enter opens the first match)" />
                if state.viewer.is_some() {
                    <button onclick={close}>{ "Back to the run" }</button>
                }
            </div>
            <p class="intro">
                { "Each scenario is a deterministic simulation of workers, a lock service and the payouts database they protect. Step through it, watch who believes they hold the lock, and see what the database accepts. " }
                <button type="button" class="link" onclick={Callback::from(|_: MouseEvent| super::upload::show_own())}
                    data-testid="to-own">{ "Run your own scenario file ↓" }</button>
            </p>
            <ol class="scenarios">
                { for shown.iter().map(|e| {
                    let s = state.clone();
                    let id = e.id.to_string();
                    let onclick = Callback::from(move |_: MouseEvent| {
                        // A link's file still being read must not replace this pick.
                        super::own::new_choice();
                        s.dispatch(Action::Pick(id.clone()))
                    });
                    // Named by its title and outcome, described by its summary: named by the
                    // whole card, each button read out 40 to 60 words (a review).
                    let dom_id = format!("pick-{}", e.id);
                    html! {
                        <li>
                            <button class="scenario" {onclick} data-id={e.id}
                                aria-labelledby={format!("{dom_id}-title {dom_id}-expect")} aria-describedby={format!("{dom_id}-summary")}>
                                <span class="title" id={format!("{dom_id}-title")}>{ &e.title }</span>
                                <span class={classes!("expect", e.expect)} id={format!("{dom_id}-expect")}>{ e.expect }</span>
                                <span class="id">{ e.id }</span>
                                <span class="summary" id={format!("{dom_id}-summary")}>{ &e.summary }</span>
                            </button>
                        </li>
                    }
                }) }
            </ol>
            if shown.is_empty() {
                <p class="hint">{ "No scenario matches that filter." }</p>
            }
            // How many cards the filter leaves, for a screen reader (the cards change silently).
            <p class="sr-only" role="status" data-testid="picker-said">{
                match (filter.trim().is_empty(), shown.len()) {
                    (true, _) => String::new(),
                    (false, 0) => "No scenario matches that filter.".to_string(),
                    (false, 1) => "1 scenario matches; Enter opens it.".to_string(),
                    (false, n) => format!("{n} scenarios match; Enter opens the first."),
                }
            }</p>
        </section>
    }
}
