//! Simulation speed: every built-in scenario, a 64-worker stress run (~100,000 events), and a
//! step back from the end of it. Memory per step is reported by benches/memory.rs.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use lockstep_core::{Session, catalogue, run};

mod common;
use common::stress_scenario;

fn builtins(c: &mut Criterion) {
    let mut group = c.benchmark_group("builtin");
    for id in catalogue::ids() {
        let scenario = catalogue::load(id)
            .and_then(Result::ok)
            .expect("built-in parses");
        group.bench_function(id, |b| b.iter(|| run(black_box(&scenario))));
    }
    group.finish();
}

fn stress(c: &mut Criterion) {
    let scenario = stress_scenario();
    let events = run(&scenario).trace.events.len() as u64;
    println!("stress scenario: {events} events");
    let mut group = c.benchmark_group("stress");
    group.throughput(Throughput::Elements(events));
    group.sample_size(10);
    group.bench_function("64-workers", |b| b.iter(|| run(black_box(&scenario))));
    group.finish();
}

fn stepping(c: &mut Criterion) {
    let scenario = stress_scenario();
    let mut session = Session::new(&scenario);
    session.run_to_end();
    // One step back (restore a checkpoint, re-simulate up to CHECKPOINT_EVERY events) and forward again.
    c.bench_function("step_back_and_forward_at_the_end_of_stress", |b| {
        b.iter(|| {
            session.step_back();
            black_box(session.step().is_some())
        })
    });
}

criterion_group!(benches, builtins, stress, stepping);
criterion_main!(benches);
