//! "Find a counterexample": lockstep-explore's bounded search from the scenario being viewed, with
//! the what-ifs applied in the view made part of it ([`crate::search_from`]), run in slices of a
//! few milliseconds between timeouts so the page stays responsive, with its progress, the bounds
//! in words and a Cancel button. A double write is shrunk and opened as the run being viewed,
//! exactly as an uploaded file is (so its share link carries it).

use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::time::Duration;

use lockstep_core::Scenario;
use lockstep_explore::search::{
    Bounds, Progress, Search, Stats, counterexample_scenario, describe_schedule, shrink,
};
use yew::platform::time::sleep;
use yew::prelude::*;

use super::state::{Action, AppState, Found};
use crate::search_from::search_scenario;
use crate::viewer::Viewer;

/// Simulator steps per call of `Search::step`: well under a millisecond.
const STEP_BUDGET: u64 = 2_000;
/// How long one slice may work before it yields to the page (a frame is ~16 ms).
const SLICE_MS: f64 = 10.0;

#[derive(Debug, Clone, PartialEq)]
enum Phase {
    Idle,
    Running {
        stats: Stats,
        bounds: String,
    },
    Cancelled {
        stats: Stats,
    },
    Exhausted {
        stats: Stats,
        complete: bool,
        bounds: String,
    },
    Failed(String),
}

/// The panel depends on the run being viewed, not on its step: a step does not redraw it.
#[derive(Properties)]
pub struct SearchProps {
    pub dispatch: UseReducerDispatcher<AppState>,
    pub viewer: Option<Rc<RefCell<Viewer>>>,
    /// The counterexample being viewed, if the search found it.
    pub found: Option<Rc<Found>>,
}

impl PartialEq for SearchProps {
    fn eq(&self, other: &Self) -> bool {
        let same_viewer = match (&self.viewer, &other.viewer) {
            (Some(a), Some(b)) => Rc::ptr_eq(a, b),
            (None, None) => true,
            _ => false,
        };
        same_viewer && self.found == other.found && self.dispatch == other.dispatch
    }
}

fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map(|p| p.now())
        .unwrap_or(0.0)
}

fn counts(stats: &Stats) -> String {
    format!(
        "{} states explored, {} fault schedules run",
        stats.states, stats.schedules
    )
}

/// Runs `search` slice by slice until it ends or `cancel` is set (then the search is dropped).
async fn drive(
    mut search: Search,
    scenario: Scenario,
    cancel: Rc<Cell<bool>>,
    phase: UseStateHandle<Phase>,
    state: UseReducerDispatcher<AppState>,
) {
    let bounds = search.describe_bounds();
    loop {
        // A timeout between slices lets the page paint and handle clicks (Cancel among them).
        sleep(Duration::ZERO).await;
        if cancel.get() {
            return;
        }
        let t0 = now_ms();
        let mut progress = search.step(STEP_BUDGET);
        while matches!(progress, Progress::Running(_)) && now_ms() - t0 < SLICE_MS {
            progress = search.step(STEP_BUDGET);
        }
        match progress {
            Progress::Running(stats) => phase.set(Phase::Running {
                stats,
                bounds: bounds.clone(),
            }),
            Progress::Exhausted { stats, complete } => {
                phase.set(Phase::Exhausted {
                    stats,
                    complete,
                    bounds,
                });
                return;
            }
            Progress::Found(found) => {
                let work = search.workload();
                let small = shrink(work, &found.schedule(), search.bounds().to_ms);
                let found = Found {
                    faults: describe_schedule(&small),
                    states: found.stats.states,
                };
                // The TOML module writes the file (and reads it back) after a fetch: the search
                // is done, so the panel goes idle now and the run opens when the file is there.
                phase.set(Phase::Idle);
                super::own::counterexample(
                    scenario.name.clone(),
                    format!("{}-counterexample.toml", scenario.name),
                    &counterexample_scenario(&scenario, work, &small),
                    move |source| state.dispatch(Action::Counterexample { source, found }),
                );
                return;
            }
        }
    }
}

#[component]
pub fn SearchPanel(props: &SearchProps) -> Html {
    let state = &props.dispatch;
    let phase = use_state(|| Phase::Idle);
    // The cancel flag of the search under way (a fresh one per search).
    let cancel = use_mut_ref(|| Rc::new(Cell::new(false)));
    let scenario_name = props
        .viewer
        .as_ref()
        .map(|v| v.borrow().scenario().name.clone());
    {
        // Another run opened, or the panel went away: stop the search of the old one.
        let cancel = cancel.clone();
        let phase = phase.clone();
        use_effect_with(scenario_name, move |_| {
            phase.set(Phase::Idle);
            let cancel = cancel.clone();
            move || cancel.borrow().set(true)
        });
    }
    let start = {
        let state = state.clone();
        let viewer = props.viewer.clone();
        let phase = phase.clone();
        let cancel = cancel.clone();
        Callback::from(move |_: MouseEvent| {
            let Some(viewer) = &viewer else {
                return;
            };
            // The design on screen: the what-ifs applied in the view are part of it.
            let scenario = search_scenario(&viewer.borrow());
            let search = match Search::new(&scenario, Bounds::for_scenario(&scenario)) {
                Ok(s) => s,
                Err(e) => {
                    phase.set(Phase::Failed(e.to_string()));
                    return;
                }
            };
            cancel.borrow().set(true);
            let flag = Rc::new(Cell::new(false));
            *cancel.borrow_mut() = flag.clone();
            phase.set(Phase::Running {
                stats: Stats::default(),
                bounds: search.describe_bounds(),
            });
            wasm_bindgen_futures::spawn_local(drive(
                search,
                scenario,
                flag,
                phase.clone(),
                state.clone(),
            ));
        })
    };
    let stop = {
        let phase = phase.clone();
        let cancel = cancel.clone();
        Callback::from(move |_: MouseEvent| {
            cancel.borrow().set(true);
            if let Phase::Running { stats, .. } = &*phase {
                phase.set(Phase::Cancelled { stats: *stats });
            }
        })
    };
    let bounds_block = |bounds: &str| {
        html! {
            <details class="bounds">
                <summary>{ "Within these bounds" }</summary>
                <pre data-testid="search-bounds">{ bounds.trim_end() }</pre>
            </details>
        }
    };
    let body = match &*phase {
        Phase::Running { stats, bounds } => html! {
            <div class="search-progress" role="status" aria-live="polite" data-testid="search-progress">
                <p>
                    <span class="spinner" aria-hidden="true"></span>
                    { format!("Searching… {}; now trying {} fault(s).", counts(stats), stats.faults) }
                </p>
                { bounds_block(bounds) }
                <button onclick={stop} data-testid="search-cancel">{ "Cancel" }</button>
            </div>
        },
        Phase::Cancelled { stats } => html! {
            <p class="search-result" data-testid="search-result">
                { format!("Search cancelled after {}.", counts(stats)) }
            </p>
        },
        Phase::Exhausted {
            stats,
            complete,
            bounds,
        } => html! {
            <div class="search-result" data-testid="search-result">
                <p>
                    if *complete {
                        { format!("No double write within these bounds ({}).", counts(stats)) }
                    } else {
                        { format!("No double write found before the search reached its limit of states ({}); larger schedules were not tried.", counts(stats)) }
                    }
                </p>
                { bounds_block(bounds) }
            </div>
        },
        Phase::Failed(why) => html! {
            <p class="search-result error" role="alert" data-testid="search-result">
                { format!("The search cannot run: {why}") }
            </p>
        },
        Phase::Idle => html! {},
    };
    let running = matches!(&*phase, Phase::Running { .. });
    // What a screen reader is told when a search ends, in a region that is always there (one
    // put in with its words is not announced everywhere): the result showed, and only the
    // opened step's explanation was read out (a review).
    let said = match (&*phase, &props.found) {
        (Phase::Running { .. }, _) => String::new(),
        (_, Some(found)) if !found.faults.is_empty() => format!(
            "Counterexample found: {} — then a payout is applied twice.",
            found.faults.join("; ")
        ),
        (_, Some(_)) => {
            "Counterexample found: a payout is applied twice with no fault at all.".to_string()
        }
        (Phase::Cancelled { .. }, None) => "Search cancelled.".to_string(),
        (Phase::Exhausted { complete: true, .. }, None) => {
            "No double write within these bounds.".to_string()
        }
        (Phase::Exhausted { .. }, None) => {
            "No double write found before the search reached its limit of states.".to_string()
        }
        _ => String::new(),
    };
    html! {
        <section class="panel search" aria-label="Find a counterexample">
            if let Some(found) = &props.found {
                <p class="counterexample" data-testid="counterexample">
                    <strong>{ "Counterexample: " }</strong>
                    { if found.faults.is_empty() {
                        "a payout is applied twice with no fault at all.".to_string()
                    } else {
                        format!("{} — then a payout is applied twice. Found after {} states; the faults are highlighted on the timeline.",
                            found.faults.join("; "), found.states)
                    } }
                </p>
            }
            <button class="find" onclick={start} disabled={running} data-testid="search-start"
                title="Search fault schedules (pauses, crashes, restarts, clock jumps) for a double write">
                { "Find a counterexample" }
            </button>
            { body }
            <p class="sr-only" role="status" data-testid="search-said">{ said }</p>
        </section>
    }
}
