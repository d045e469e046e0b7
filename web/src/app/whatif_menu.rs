//! The what-if menu: inject a fault at the current step or flip a toggle (fencing mode, TTL); the
//! run branches there. Lists the changes of the branch and goes back to the run as written.

use std::cell::RefCell;
use std::rc::Rc;

use lockstep_core::Change;
use wasm_bindgen::JsCast;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use super::state::{Action, AppState};
use crate::viewer::Viewer;
use crate::whatif::{FENCING_MODES, FaultForm, MenuFault, describe};

/// What the menu shows depends on the branch and on whether the run has ended, not on the step:
/// a step does not redraw it.
#[derive(Properties)]
pub struct WhatIfProps {
    pub dispatch: UseReducerDispatcher<AppState>,
    pub viewer: Rc<RefCell<Viewer>>,
    /// The branch shown ([`Viewer::branch`]): a what-if change makes a new one.
    pub branch: u64,
    pub at_end: bool,
}

impl PartialEq for WhatIfProps {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.viewer, &other.viewer)
            && self.branch == other.branch
            && self.at_end == other.at_end
            && self.dispatch == other.dispatch
    }
}

/// The value of the select or input an event came from.
fn field_value(e: &Event) -> String {
    let target = e.target();
    if let Some(sel) = target
        .as_ref()
        .and_then(|t| t.dyn_ref::<HtmlSelectElement>())
    {
        return sel.value();
    }
    target
        .as_ref()
        .and_then(|t| t.dyn_ref::<HtmlInputElement>())
        .map(HtmlInputElement::value)
        .unwrap_or_default()
}

#[component]
pub fn WhatIfMenu(props: &WhatIfProps) -> Html {
    let state = &props.dispatch;
    let form = use_state(FaultForm::default);
    let problem = use_state(|| None::<String>);
    let at_end = props.at_end;
    let (participants, whatifs, fencing, ttl, idempotency, lands) = {
        let v = props.viewer.borrow();
        let sim_scenario = &v.session().sim().params.scenario;
        let (pos, after) = (v.pos(), v.session().lands_after());
        (
            v.full_trace().participants.clone(),
            v.whatifs().to_vec(),
            sim_scenario.resource.fencing,
            sim_scenario.lock.ttl_ms,
            sim_scenario.resource.idempotency,
            (after > pos).then_some(after),
        )
    };
    let targets = form.fault.targets(&participants);
    // Keep the chosen target valid when the fault kind changes.
    let target = if targets.contains(&form.target) {
        form.target.clone()
    } else {
        targets.first().cloned().unwrap_or_default()
    };
    let set = |f: fn(&mut FaultForm, String)| {
        let form = form.clone();
        Callback::from(move |e: Event| {
            let mut next = (*form).clone();
            f(&mut next, field_value(&e));
            form.set(next);
        })
    };
    let on_kind = set(|f, v| f.fault = MenuFault::from_id(&v).unwrap_or(MenuFault::Pause));
    let on_target = set(|f, v| f.target = v);
    let on_seconds = set(|f, v| f.seconds = v);
    let on_match = set(|f, v| f.match_label = v);
    let on_persist = {
        let form = form.clone();
        Callback::from(move |e: Event| {
            let input: HtmlInputElement = e.target_unchecked_into();
            let mut next = (*form).clone();
            next.persistent = input.checked();
            form.set(next);
        })
    };
    let on_inject = {
        let state = state.clone();
        let form = form.clone();
        let problem = problem.clone();
        let target = target.clone();
        let participants = participants.clone();
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let mut f = (*form).clone();
            f.target = target.clone();
            match f.to_change(&participants) {
                Ok(change) => {
                    problem.set(None);
                    state.dispatch(Action::WhatIf(change));
                }
                Err(why) => problem.set(Some(why)),
            }
        })
    };
    let on_fencing = {
        let state = state.clone();
        Callback::from(move |e: Event| {
            let v = field_value(&e);
            if let Some((mode, _)) = FENCING_MODES.iter().find(|(m, _)| m.as_str() == v) {
                state.dispatch(Action::WhatIf(Change::SetFencing { fencing: *mode }));
            }
        })
    };
    let ttl_button = |delta: i64, text: &'static str| {
        let state = state.clone();
        let next = (ttl as i64 + delta).max(100) as u64;
        let onclick = Callback::from(move |_: MouseEvent| {
            state.dispatch(Action::WhatIf(Change::SetTtl { ttl_ms: next }))
        });
        html! { <button type="button" {onclick} disabled={at_end} aria-label={format!("Set the TTL to {next} ms")}>{ text }</button> }
    };
    let on_idempotency = {
        let state = state.clone();
        Callback::from(move |e: Event| {
            let input: HtmlInputElement = e.target_unchecked_into();
            state.dispatch(Action::WhatIf(Change::SetIdempotency {
                idempotency: input.checked(),
            }));
        })
    };
    let reset = {
        let state = state.clone();
        Callback::from(move |_: MouseEvent| state.dispatch(Action::ResetBranch))
    };
    let jump = |step: usize| {
        let state = state.clone();
        Callback::from(move |_: MouseEvent| state.dispatch(Action::Seek(step)))
    };
    let fault = form.fault;
    html! {
        <details class="panel whatif" aria-label="What if" open={!super::dom::narrow()}>
            <summary><h2>{ "What if…" }</h2></summary>
            if at_end {
                <p class="hint" data-testid="whatif-ended">
                    { "The run has ended: there is nothing left to change. Step back (← or Home) to branch the run at an earlier step." }
                </p>
            } else {
                <p class="hint">{ "Changes happen at the current step; the run branches from there." }</p>
            }
            if let Some(after) = lands {
                <p class="hint" data-testid="whatif-lands">
                    { format!("The simulator runs a node's handling of a message whole, and this step's node goes on to step {after} in the same handling: a change made now lands after step {after}. (A real pause can strike mid-handling; to pause a worker between two of its steps, use a scenario file's `after`.)") }
                </p>
            }
            <form onsubmit={on_inject} class="fault-form">
                <label>
                    <span>{ "Fault" }</span>
                    <select onchange={on_kind} data-testid="fault-kind">
                        { for MenuFault::ALL.iter().map(|f| html! {
                            <option value={f.id()} selected={*f == fault}>{ f.label() }</option>
                        }) }
                    </select>
                </label>
                if fault.needs_target() {
                    <label>
                        <span>{ "Node" }</span>
                        <select onchange={on_target} data-testid="fault-target">
                            { for targets.iter().map(|t| html! {
                                <option value={t.clone()} selected={*t == target}>{ t }</option>
                            }) }
                        </select>
                    </label>
                }
                if fault.needs_seconds() {
                    <label>
                        <span>{ if fault == MenuFault::ClockJump { "By (s, may be negative)" } else { "For (s)" } }</span>
                        <input type="text" inputmode="decimal" value={form.seconds.clone()}
                            onchange={on_seconds} data-testid="fault-seconds" />
                    </label>
                }
                if fault.needs_match() {
                    <label>
                        <span>{ "Message label starts with" }</span>
                        <input type="text" value={form.match_label.clone()} onchange={on_match} />
                    </label>
                }
                if fault == MenuFault::Restart {
                    <label class="check">
                        <input type="checkbox" checked={form.persistent} onchange={on_persist} />
                        <span>{ "keeps its data (persistence)" }</span>
                    </label>
                }
                <button type="submit" class="primary" disabled={at_end}>{ "Inject now" }</button>
            </form>
            if let Some(p) = &*problem {
                <p class="error" role="alert">{ p }</p>
            }
            <div class="toggles">
                <label>
                    <span>{ "Database fencing" }</span>
                    <select onchange={on_fencing} aria-label="Database fencing mode" disabled={at_end}>
                        { for FENCING_MODES.iter().map(|(m, text)| html! {
                            <option value={m.as_str()} selected={*m == fencing}>{ *text }</option>
                        }) }
                    </select>
                </label>
                <label class="check">
                    <input type="checkbox" checked={idempotency} onchange={on_idempotency} disabled={at_end} />
                    <span>{ "Idempotency keys on every payout" }</span>
                </label>
                <div class="ttl" role="group" aria-label="Lock TTL">
                    <span>{ format!("TTL {ttl} ms") }</span>
                    { ttl_button(-1000, "−1 s") }
                    { ttl_button(1000, "+1 s") }
                </div>
            </div>
            if !whatifs.is_empty() {
                <div class="branch" data-testid="branch">
                    <h3>{ "This run is a branch" }</h3>
                    <ol>
                        { for whatifs.iter().map(|w| html! {
                            <li>
                                <button type="button" class="link" onclick={jump(w.at_step)}>
                                    { format!("after step {}: {}", w.at_step, describe(&w.change)) }
                                </button>
                            </li>
                        }) }
                    </ol>
                    <button type="button" onclick={reset}>{ "Back to the original run" }</button>
                </div>
            }
        </details>
    }
}
