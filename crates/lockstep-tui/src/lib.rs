//! lockstep-tui: the terminal UI. Pick a scenario, step through its run on a timeline painted
//! from lockstep-render's layout, inspect every actor, inject faults and watch the run branch.
//!
//! Structured like ratatui's examples: an [`app::App`] state changed only by
//! [`action::Action`]s, one module per pane under [`ui`], each an `impl Widget`, and the
//! terminal loop in [`term`].

pub mod action;
pub mod app;
pub mod explore;
pub mod picker;
pub mod term;
pub mod ui;
pub mod viewer;
pub mod whatif;

use lockstep_core::Scenario;

pub use app::App;

/// Opens the scenario picker and runs until the user quits.
pub fn run_picker() -> std::io::Result<()> {
    term::run(App::picker())
}

/// Opens one scenario's run directly.
pub fn run_scenario(scenario: Scenario) -> std::io::Result<()> {
    term::run(App::viewing(scenario))
}
