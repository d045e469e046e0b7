//! The same scenario and seed give byte-identical JSON traces; the document round-trips.

use lockstep_core::document::{SCHEMA, TraceDocument};
use lockstep_core::{catalogue, run};
use lockstep_tests::builtin;

fn json(id: &str, seed: Option<u64>) -> String {
    let mut s = builtin(id);
    if let Some(seed) = seed {
        s.seed = seed;
    }
    let r = run(&s);
    serde_json::to_string(&TraceDocument::new(&s, &r.trace, &r.verdict)).expect("serialisable")
}

#[test]
fn same_scenario_and_seed_give_identical_json() {
    for id in catalogue::ids() {
        assert_eq!(json(id, None), json(id, None), "{id}");
    }
}

#[test]
fn the_seed_drives_redlock_retries() {
    let seeds: std::collections::BTreeSet<String> = (1..=6)
        .map(|seed| json("redlock-happy-path", Some(seed)))
        .collect();
    assert!(
        seeds.len() > 1,
        "different seeds give different retry delays"
    );
}

#[test]
fn json_document_round_trips_and_names_its_schema() {
    let text = json("consensus-fenced-failover", None);
    let doc: TraceDocument = serde_json::from_str(&text).expect("parses back");
    assert_eq!(doc.schema, SCHEMA);
    assert_eq!(serde_json::to_string(&doc).expect("serialisable"), text);
    assert_eq!(doc.events[0].step, 1);
    assert!(doc.participants.iter().any(|p| p.name == "node-2"));
}
