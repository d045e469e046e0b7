//! lockstep in the browser: pick or upload a scenario, step through its run as the SVG timeline
//! lockstep-render draws, branch it with what-if faults, share the view as a link, present it or
//! embed it. The logic (links, the run being shown, the what-if menu) is plain Rust tested
//! natively; the yew components only build for wasm32.

pub mod across;
pub mod caption;
pub mod catalogue;
pub mod inspector;
pub mod own;
pub mod patch;
pub mod search_from;
pub mod share;
pub mod snap;
pub mod stack;
pub mod viewer;
pub mod whatif;

#[cfg(target_arch = "wasm32")]
mod app;
