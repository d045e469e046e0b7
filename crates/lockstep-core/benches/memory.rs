//! Reports the memory a Session keeps to step back through the stress run: checkpoints (whole
//! simulation clones every CHECKPOINT_EVERY events) plus the trace itself. A report, not a timing.

use lockstep_core::Session;
use lockstep_core::session::CHECKPOINT_EVERY;

mod common;

#[global_allocator]
static ALLOC: dhat::Alloc = dhat::Alloc;

fn live_bytes() -> usize {
    dhat::HeapStats::get().curr_bytes
}

fn main() {
    let _profiler = dhat::Profiler::builder().testing().build();
    let scenario = common::stress_scenario();
    let base = live_bytes();
    let mut run = lockstep_core::sim::Sim::new(&scenario);
    let mut events = Vec::new();
    while run.advance(&mut events) {}
    let trace_only = live_bytes() - base;
    let steps = events.len();
    drop((run, events));

    let base = live_bytes();
    let mut session = Session::new(&scenario);
    session.run_to_end();
    let with_checkpoints = live_bytes() - base;
    println!("stress run: {steps} steps, checkpoint every {CHECKPOINT_EVERY} events");
    println!(
        "  trace and final state alone: {trace_only} bytes ({} per step)",
        trace_only / steps.max(1)
    );
    println!(
        "  session with checkpoints:    {with_checkpoints} bytes ({} per step)",
        with_checkpoints / steps.max(1)
    );
    println!(
        "  kept for back-stepping:      {} bytes per step",
        with_checkpoints.saturating_sub(trace_only) / steps.max(1)
    );
    drop(session);
}
