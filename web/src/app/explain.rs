//! The explanation of the current step and the verdict so far (the whole run's only at its end),
//! as in the terminal UI.

use lockstep_core::Verdict;
use lockstep_core::actors::db::money;
use yew::prelude::*;

use super::state::AppState;
use crate::viewer::Viewer;

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
                <p class="hint">{ "Press → or Space, or tap ▶, to take the first step." }</p>
            </>
        },
    };
    html! {
        <section class="panel explanation" aria-live="polite" aria-label="What happens at this step">
            { body }
        </section>
    }
}

/// The current step in one line, for the embed with minimal controls (it has no explanation
/// panel): zoomed in on a phone, the picture's own caption had scrolled off to the left, and
/// nothing said which step was shown or what it was. At the end it gives the run's verdict.
#[component]
pub fn StepLine(props: &PanelProps) -> Html {
    let Some(viewer) = &props.state.viewer else {
        return html! {};
    };
    let v = viewer.borrow();
    let (at, words) = match v.current() {
        Some(e) => (
            format!("Step {} of {} · {} ms", v.pos(), v.total(), e.time_ms),
            e.label.clone(),
        ),
        None => (
            format!("Step 0 of {}", v.total()),
            v.scenario().title.clone(),
        ),
    };
    // At the end, the run's verdict, before the step's words so it is never the part cut off:
    // the picture's own verdict line, left of the lanes, was scrolled away or under the pinned
    // step column of a zoomed-in embed.
    let verdict = (v.pos() > 0 && v.at_end()).then(|| {
        let w = VerdictWords::of(&v, &v.verdict_so_far(), true);
        (w.class, format!("{} {}", w.symbol, w.headline))
    });
    html! {
        <p class="step-line" aria-live="polite" title={format!("{at}: {words}")}>
            // Spaces between the parts, not only margins: copied or read aloud, "3 msread
            // status" ran together.
            <span class="step-no">{ at }</span>{ " " }
            if let Some((class, said)) = verdict {
                <span class={classes!("verdict-word", class)}>{ said }</span>{ " " }
            }
            <span class="label">{ words }</span>
        </p>
    }
}

/// What the verdict panel says: its class, symbol and headline, its facts (with a class), and
/// the line on what the scenario expects (with whether the run disagrees). Shared by the panel
/// and presenter mode's fitting (web/src/app/fit.rs), which measures the end's verdict before it
/// is shown.
pub struct VerdictWords {
    pub class: &'static str,
    pub symbol: &'static str,
    pub headline: String,
    pub title: &'static str,
    pub facts: Vec<(String, Option<&'static str>)>,
    pub expect: Option<(String, bool)>,
}

impl VerdictWords {
    pub fn of(v: &Viewer, verdict: &Verdict, ended: bool) -> VerdictWords {
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
        let mut facts = vec![
            (
                format!(
                    "payouts applied: {} of {}",
                    verdict.payouts_applied, verdict.payouts
                ),
                None,
            ),
            (format!("paid twice: {}", verdict.payouts_duplicated), None),
            (
                format!(
                    "accesses refused by fencing: {}",
                    verdict.writes_rejected + verdict.reads_rejected
                ),
                None,
            ),
        ];
        facts.extend(verdict.other_refusals().into_iter().map(|l| (l, None)));
        if verdict.idempotent_noops > 0 {
            facts.push((
                format!("repeats made harmless: {}", verdict.idempotent_noops),
                None,
            ));
        }
        facts.extend(
            verdict
                .overlaps
                .iter()
                .map(|o| (o.sentence(), Some("overlap"))),
        );
        let expected = v.scenario().expect;
        // A branch says what its changes did to the outcome, the point of a what-if (a review:
        // its verdict read as a built-in run's, and the scenario's expectation went unsaid).
        let written = v.written_outcome();
        let branch = (ended && !v.whatifs().is_empty()).then(|| {
            if written == verdict.outcome {
                (format!("As written the scenario ends “{written}” too: these changes did not change the outcome."), false)
            } else {
                (format!("As written the scenario ends “{written}”; these changes make it “{}”.", verdict.outcome.as_str()), false)
            }
        });
        let expect = branch.or_else(|| (ended && v.whatifs().is_empty()).then(|| {
            if expected == verdict.outcome {
                (format!("The scenario expects “{expected}”."), false)
            } else {
                // A scenario's author wants to know first that the run did not do what the
                // file says it shows (`lockstep check` fails on it).
                (format!("⚠ The scenario expects “{expected}”, but this run ends “{}”: `lockstep check` would fail on it.", verdict.outcome.as_str()), true)
            }
        }));
        VerdictWords {
            class,
            symbol,
            headline,
            title: if ended { "Verdict" } else { "Verdict so far" },
            facts,
            expect,
        }
    }
}

#[component]
pub fn VerdictPanel(props: &PanelProps) -> Html {
    let Some(viewer) = &props.state.viewer else {
        return html! {};
    };
    let v = viewer.borrow();
    let verdict = v.verdict_so_far();
    let w = VerdictWords::of(&v, &verdict, v.at_end());
    html! {
        <section class={classes!("panel", "verdict", w.class)} aria-label="Verdict so far">
            <h2>{ w.title }</h2>
            <p class="outcome" data-testid="verdict">
                <span class="symbol" aria-hidden="true">{ w.symbol }</span>
                <span data-outcome={verdict.outcome.as_str()}>{ w.headline }</span>
            </p>
            <ul class="facts">
                { for w.facts.into_iter().map(|(line, class)| html! { <li class={class}>{ line }</li> }) }
            </ul>
            if let Some((line, mismatch)) = w.expect {
                if mismatch {
                    <p class="expect mismatch" role="status" data-testid="expect-mismatch">{ line }</p>
                } else {
                    <p class="expect">{ line }</p>
                }
            }
        </section>
    }
}
