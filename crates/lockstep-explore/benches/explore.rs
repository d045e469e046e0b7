//! The explorer's figures: the search's states per second on one core (a whole proof of
//! fenced-every-access under two pauses) and a 10,000-run sweep of fenced-gc-pause on every core.

use criterion::{Criterion, criterion_group, criterion_main};
use lockstep_core::catalogue;
use lockstep_explore::search::{Bounds, Kinds, Progress, Search};
use lockstep_explore::{Axis, Sweep};

fn prove_fenced_every_access(c: &mut Criterion) {
    let s = catalogue::load("fenced-every-access").unwrap().unwrap();
    let mut bounds = Bounds::for_scenario(&s);
    bounds.kinds = Kinds::parse("pause").unwrap();
    let mut group = c.benchmark_group("search");
    group.sample_size(10);
    group.bench_function("prove fenced-every-access (2 pauses)", |b| {
        b.iter(|| {
            let mut search = Search::new(&s, bounds.clone()).unwrap();
            match search.run() {
                Progress::Exhausted {
                    stats,
                    complete: true,
                } => stats.states,
                other => panic!("{other:?}"),
            }
        })
    });
    group.finish();
}

fn sweep_fenced_gc_pause(c: &mut Criterion) {
    let s = catalogue::load("fenced-gc-pause").unwrap().unwrap();
    let sweep = Sweep::new(
        &s,
        vec![
            Axis::parse("pause-at=0s..9.9s/100ms").unwrap(),
            Axis::parse("pause=100ms..10s/100ms").unwrap(),
        ],
    )
    .unwrap();
    assert_eq!(sweep.len(), 10_000);
    let mut group = c.benchmark_group("sweep");
    group.sample_size(10);
    group.bench_function("fenced-gc-pause 10,000 runs", |b| b.iter(|| sweep.run()));
    group.finish();
}

criterion_group!(benches, prove_fenced_every_access, sweep_fenced_gc_pause);
criterion_main!(benches);
