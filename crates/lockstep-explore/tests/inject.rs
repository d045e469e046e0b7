//! The search injects faults into a running simulation and puts messages first where several are
//! due at once; a counterexample is written as scenario faults and `[[order]]` entries. The two
//! must agree, or a counterexample would not replay.

use lockstep_core::catalogue;
use lockstep_core::scenario::{Fault, FaultKind, Order};
use lockstep_core::sim::Sim;
use lockstep_explore::search::{Bounds, Schedule, menu, with_faults, with_schedule, workload};
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

/// The `[[order]]` entries that replay putting `choice` first at the `k`-th choice of `sim`'s run,
/// as the search records them (the defaults taken earlier at that instant and node, then the
/// choice), with the run stepped on from there by putting it first directly.
fn order_at(
    sim: &mut Sim,
    k: usize,
    choice: usize,
    out: &mut Vec<lockstep_core::TraceEvent>,
) -> Option<Vec<Order>> {
    let mut turns: Vec<Order> = Vec::new();
    let mut seen = 0;
    while sim.end.is_none() {
        if let Some(c) = sim.contest() {
            let names = &sim.params.names;
            let entry = |(from, label): &(u16, String)| Order {
                at_ms: c.at_ms,
                to: names[usize::from(c.to)].clone(),
                from: Some(names[usize::from(*from)].clone()),
                match_label: Some(label.clone()),
            };
            turns.retain(|o| o.at_ms == c.at_ms);
            if seen == k {
                let pick = entry(&c.messages[choice % c.messages.len()]);
                let mut orders: Vec<Order> =
                    turns.into_iter().filter(|o| o.to == pick.to).collect();
                orders.push(pick.clone());
                assert!(sim.put_first(&pick));
                return Some(orders);
            }
            turns.push(entry(&c.messages[0]));
            seen += 1;
        }
        sim.advance(out);
    }
    None
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    /// The search puts a message first in a running simulation; a counterexample states it as
    /// `[[order]]` entries. Both runs must be the same, or such a counterexample would not replay.
    #[test]
    fn putting_a_message_first_equals_the_order_entries_in_the_file(
        id in prop::sample::select(vec!["consensus-fenced-failover", "consensus-lock-delay", "redlock-happy-path", "consensus-session-suspended"]),
        k in 0usize..40,
        choice in 1usize..4,
    ) {
        let work = workload(&catalogue::load(id).unwrap().unwrap());
        let mut sim = Sim::new(&work);
        let mut before = Vec::new();
        let orders = order_at(&mut sim, k, choice, &mut before);
        prop_assume!(orders.is_some());
        let orders = orders.unwrap_or_default();
        let (direct, mut rest) = finish(sim);
        let mut all: Vec<String> = before.into_iter().map(|e| format!("{} {}", e.time_ms, e.label)).collect();
        all.append(&mut rest);
        let file = with_schedule(&work, &Schedule { faults: Vec::new(), orders });
        lockstep_core::scenario::check(&file).unwrap();
        let (by_file, file_labels) = finish(Sim::new(&file));
        // The file shows each applied entry as an event of its own; otherwise the runs agree.
        let file_labels: Vec<String> = file_labels.into_iter().filter(|l| !l.contains(" order: \"")).collect();
        prop_assert_eq!(&direct.db, &by_file.db);
        prop_assert_eq!(&direct.workers, &by_file.workers);
        prop_assert_eq!(all, file_labels);
        prop_assert!(by_file.unapplied().is_empty(), "{:?}", by_file.unapplied());
    }
}
