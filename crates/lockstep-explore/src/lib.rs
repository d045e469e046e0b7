//! lockstep-explore: finds failures by itself instead of replaying the one an author scripted
//! (DESIGN §6). It runs the same simulator the front ends show.
//!
//! - **Sweeps** ([`sweep::Sweep`]): every combination of parameter ranges (`--vary
//!   pause=0s..20s/500ms`), natively on every core; the outcome grid feeds the summary and the
//!   safety map (lockstep-render's `map`).
//! - **Search** ([`search::Search`]): a bounded, breadth-first exhaustive search over fault
//!   schedules (which node pauses, crashes, restarts or has its clock jump, when, for how long,
//!   from the finite sets in [`search::Bounds`]) and over delivery orders (wherever several
//!   messages are due at one node at the same instant, any of them may go first, up to
//!   `max_reorders` times per schedule; the file replays such a choice as an `[[order]]` entry). States are fingerprinted
//!   (`Sim::hash_state`), so a state reached twice is explored once. Breadth-first by the number
//!   of faults, so the first double write found has as few faults as any within the bounds;
//!   [`search::shrink`] then drops faults and order choices, shortens pauses and moves faults later while it still
//!   breaks, and [`search::counterexample_toml`] writes it as a scenario file.
//!
//! # Stepping a search from a front end
//!
//! The search never blocks for long and reads no clock, so it runs the same natively and in
//! wasm. Create it, then call [`search::Search::step`] with a budget of simulator steps; each
//! call returns a [`search::Progress`]:
//!
//! ```
//! use lockstep_explore::search::{Bounds, Progress, Search};
//! let scenario = lockstep_core::catalogue::load("naive-happy-path").unwrap().unwrap();
//! let mut search = Search::new(&scenario, Bounds::for_scenario(&scenario)).unwrap();
//! let found = loop {
//!     match search.step(10_000) {
//!         // Show `stats.states` / `stats.faults`; a cancel button simply stops calling `step`
//!         // and drops the search.
//!         Progress::Running(_stats) => continue,
//!         Progress::Found(found) => break Some(found),
//!         Progress::Exhausted { .. } => break None,
//!     }
//! };
//! let found = found.expect("a pause breaks the naive lock");
//! let work = search.workload();
//! let small = lockstep_explore::search::shrink(work, &found.schedule(), search.bounds().to_ms);
//! let toml = lockstep_explore::search::counterexample_toml(&scenario, work, &small).unwrap();
//! assert!(toml.contains("kind = \"pause\""));
//! ```
//!
//! - A terminal UI runs the loop on a background thread, sends each `Stats` to the UI thread and
//!   checks a cancel flag between calls (a budget of 10,000 steps is a few milliseconds).
//! - A browser calls `step` from `requestAnimationFrame` with a budget that fits in a frame
//!   (about 2,000 steps), and drops the search when the user cancels.
//! - The counterexample scenario opens as any run does: parse the TOML, or build it with
//!   `search::counterexample_scenario`, and highlight its faults (the events tagged as faults).
//!
//! Sweeps run in chunks the same way: [`sweep::Sweep::run_range`] then [`sweep::Sweep::result`].

pub mod duration;
pub mod error;
pub mod outcome;
pub mod param;
pub mod search;
pub mod sweep;

pub use error::ExploreError;
pub use outcome::RunOutcome;
pub use param::{Axis, Param};
pub use sweep::{Sweep, SweepResult};
