//! The search injects faults into a running simulation; a counterexample is written as scenario
//! faults. The two must agree, or a counterexample would not replay.

use lockstep_core::catalogue;
use lockstep_core::scenario::{Fault, FaultKind};
use lockstep_core::sim::Sim;
use lockstep_explore::search::{Bounds, menu, with_faults, workload};
use proptest::prelude::*;

fn finish(mut sim: Sim) -> (Sim, Vec<String>) {
    let mut events = Vec::new();
    while sim.advance(&mut events) {}
    let labels = events
        .into_iter()
        .map(|e| format!("{} {}", e.time_ms, e.label))
        .collect();
    (sim, labels)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn injecting_at_a_time_equals_a_scenario_fault_at_that_time(
        id in prop::sample::select(vec!["naive-gc-pause", "fenced-gc-pause", "redlock-happy-path", "consensus-fenced-failover"]),
        choice in 0usize..64,
        at in 0u64..9000,
    ) {
        let s = catalogue::load(id).unwrap().unwrap();
        let work = workload(&s);
        let options = menu(&work, &Bounds::for_scenario(&s));
        let mut fault: Fault = options[choice % options.len()].fault.clone();
        fault.at_ms = Some(at);
        // From the file.
        let (by_file, file_labels) = finish(Sim::new(&with_faults(&work, std::slice::from_ref(&fault))));
        // Injected while running.
        let mut sim = Sim::new(&work);
        let mut before = Vec::new();
        while sim.end.is_none() && sim.next_time().is_some_and(|t| t < at) {
            sim.advance(&mut before);
        }
        let injected = sim.inject_at(at, &fault, &mut before);
        prop_assume!(injected);
        let (by_injection, mut labels) = finish(sim);
        let mut all: Vec<String> = before.into_iter().map(|e| format!("{} {}", e.time_ms, e.label)).collect();
        all.append(&mut labels);
        prop_assert_eq!(&by_file.db, &by_injection.db);
        prop_assert_eq!(file_labels, all);
        if fault.kind == FaultKind::Pause {
            prop_assert_eq!(&by_file.workers, &by_injection.workers);
        }
    }
}

#[test]
fn equal_states_hash_equal_and_a_fault_changes_the_hash() {
    use std::hash::{DefaultHasher, Hasher};
    let s = catalogue::load("naive-gc-pause").unwrap().unwrap();
    let hash = |sim: &Sim| {
        let mut h = DefaultHasher::new();
        sim.hash_state(&mut h);
        h.finish()
    };
    let mut a = Sim::new(&s);
    let mut b = Sim::new(&s);
    let mut out = Vec::new();
    for _ in 0..10 {
        a.advance(&mut out);
        b.advance(&mut out);
    }
    assert_eq!(hash(&a), hash(&b));
    let pause = Fault {
        kind: FaultKind::Pause,
        target: Some("B".into()),
        duration_ms: Some(1000),
        ..s.faults[0].clone()
    };
    assert!(b.inject_at(b.next_time().unwrap(), &pause, &mut out));
    assert_ne!(hash(&a), hash(&b));
}
