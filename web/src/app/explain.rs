//! The explanation of the current step and the verdict so far (the whole run's only at its end),
//! as in the terminal UI.

use lockstep_core::actors::db::money;
use yew::prelude::*;

use super::state::AppState;

#[derive(Properties, PartialEq)]
pub struct PanelProps {
    pub state: UseReducerHandle<AppState>,
}

#[component]
pub fn Explanation(props: &PanelProps) -> Html {
    let Some(viewer) = &props.state.viewer else {
        return html! {};
    };
    let v = viewer.borrow();
    let body = match v.current() {
        Some(e) => html! {
            <>
                <h2 class="step-head">
                    <span class="step-no">{ format!("Step {} of {}", v.pos(), v.total()) }</span>
                    <span class="at">{ format!("{} ms", e.time_ms) }</span>
                </h2>
                <p class="label" data-testid="current-label">{ &e.label }</p>
                <p class="why">{ &e.explanation }</p>
            </>
        },
        None => html! {
            <>
                <h2 class="step-head">{ format!("Step 0 of {}", v.total()) }</h2>
                <p class="why">{ &v.scenario().summary }</p>
                <p class="hint">{ "Press → or Space to take the first step." }</p>
            </>
        },
    };
    html! {
        <section class="panel explanation" aria-live="polite" aria-label="What happens at this step">
            { body }
        </section>
    }
}

#[component]
pub fn VerdictPanel(props: &PanelProps) -> Html {
    let Some(viewer) = &props.state.viewer else {
        return html! {};
    };
    let v = viewer.borrow();
    let verdict = v.verdict_so_far();
    let ended = v.at_end();
    // By name, so an outcome the core adds later (a run cut off by a limit) still shows.
    let (class, symbol, headline) = match (verdict.outcome.as_str(), ended) {
        ("double-write", _) => (
            "danger",
            "✗",
            format!(
                "double-write — {} paid twice",
                money(verdict.money_paid_twice_cents)
            ),
        ),
        ("safe", true) => ("ok", "✓", "safe".to_string()),
        ("safe", false) => ("pending", "…", "safe so far".to_string()),
        ("not-processed", false) => ("pending", "…", "nothing paid yet".to_string()),
        (other, _) => ("warn", "!", other.to_string()),
    };
    let expected = v.scenario().expect;
    html! {
        <section class={classes!("panel", "verdict", class)} aria-label="Verdict so far">
            <h2>{ if ended { "Verdict" } else { "Verdict so far" } }</h2>
            <p class="outcome" data-testid="verdict">
                <span class="symbol" aria-hidden="true">{ symbol }</span>
                <span data-outcome={verdict.outcome.as_str()}>{ headline }</span>
            </p>
            <ul class="facts">
                <li>{ format!("payouts applied: {} of {}", verdict.payouts_applied, verdict.payouts) }</li>
                <li>{ format!("paid twice: {}", verdict.payouts_duplicated) }</li>
                <li>{ format!("stale accesses refused: {}", verdict.writes_rejected + verdict.reads_rejected) }</li>
                { for verdict.other_refusals().into_iter().map(|line| html! { <li>{ line }</li> }) }
                if verdict.idempotent_noops > 0 {
                    <li>{ format!("repeats made harmless: {}", verdict.idempotent_noops) }</li>
                }
                { for verdict.overlaps.iter().map(|o| html! {
                    <li class="overlap">{ o.sentence() }</li>
                }) }
            </ul>
            if ended && v.whatifs().is_empty() {
                if expected == verdict.outcome {
                    <p class="expect">{ format!("The scenario expects “{expected}”.") }</p>
                } else {
                    // A scenario's author wants to know first that the run did not do what the
                    // file says it shows (`lockstep check` fails on it).
                    <p class="expect mismatch" role="status" data-testid="expect-mismatch">
                        { format!("⚠ The scenario expects “{expected}”, but this run ends “{}”: `lockstep check` would fail on it.", verdict.outcome.as_str()) }
                    </p>
                }
            }
        </section>
    }
}
