//! `[[order]]`: which of several messages due at one node at the same instant goes first. The
//! documented example, the default (sent) order, located errors for bad entries, entries that
//! never apply, and the simulator's `contest` / `put_first` that the explorer branches with.

use lockstep_core::scenario::{Order, Scenario, parse_scenario};
use lockstep_core::sim::Sim;
use lockstep_core::{EventKind, Outcome, run};

/// The `[[order]]` example in docs/scenario-format.md (the TOML block after its heading).
fn documented() -> (String, Scenario) {
    let doc = include_str!("../../../docs/scenario-format.md");
    let section = doc.find("## `[[order]]`").expect("the [[order]] section");
    let start = section + doc[section..].find("```toml\n").expect("its example") + 8;
    let end = start + doc[start..].find("```").expect("its end");
    let text = doc[start..end].to_string();
    let s = parse_scenario("order.toml", text.as_bytes()).unwrap();
    (text, s)
}

fn without_orders(s: &Scenario) -> Scenario {
    let mut s = s.clone();
    s.order.clear();
    s
}

#[test]
fn the_documented_example_handles_the_stale_write_first_and_pays_twice() {
    let (_, s) = documented();
    let r = run(&s);
    assert_eq!(r.verdict.outcome, s.expect);
    assert_eq!(r.verdict.outcome, Outcome::DoubleWrite);
    assert_eq!(r.unapplied(), vec![]);
    // The choice is shown on db's lane, highlighted like a fault, before A's write is handled.
    let shown = r
        .trace
        .events
        .iter()
        .position(|e| e.kind == EventKind::Fault && e.label.starts_with("order: \"write"))
        .expect("the order choice is in the trace");
    let e = &r.trace.events[shown];
    assert_eq!((e.time_ms, e.from, e.to), (3005, 3, 3), "{e:?}");
    assert!(e.label.ends_with("from A first"), "{}", e.label);
    let next = &r.trace.events[shown + 1];
    assert_eq!((next.kind, next.from), (EventKind::Deliver, 0), "{next:?}");
    // In the sent order B's write lands first and A's is refused.
    let sent = run(&without_orders(&s));
    assert_eq!(sent.verdict.outcome, Outcome::Safe);
    assert_eq!(sent.verdict.writes_rejected, 1);
}

#[test]
fn the_simulator_names_the_choice_and_puts_the_named_message_first() {
    let (_, s) = documented();
    let plain = without_orders(&s);
    let mut sim = Sim::new(&plain);
    let mut out = Vec::new();
    let contest = loop {
        if let Some(c) = sim.contest() {
            break c;
        }
        assert!(sim.advance(&mut out), "the run ended without a choice");
    };
    assert_eq!(contest.at_ms, 3005);
    assert_eq!(sim.params.names[usize::from(contest.to)], "db");
    let senders: Vec<&str> = contest
        .messages
        .iter()
        .map(|(from, _)| sim.params.names[usize::from(*from)].as_str())
        .collect();
    assert_eq!(
        senders,
        ["B", "A"],
        "sent order: B's write was sent at 3003 ms"
    );
    let a_first = Order {
        at_ms: 3005,
        to: "db".into(),
        from: Some("A".into()),
        match_label: None,
    };
    // Another instant or a message that is not due changes nothing.
    assert!(!sim.put_first(&Order {
        at_ms: 3004,
        ..a_first.clone()
    }));
    assert!(!sim.put_first(&Order {
        match_label: Some("read".into()),
        ..a_first.clone()
    }));
    assert!(sim.put_first(&a_first));
    let contest = sim.contest().unwrap();
    assert_eq!(sim.params.names[usize::from(contest.messages[0].0)], "A");
    // Stepping on from here is the run of the file with the entry.
    while sim.advance(&mut out) {}
    let by_file = run(&s);
    assert_eq!(sim.db, by_file.sim.db);
}

fn error_of(text: &str) -> String {
    parse_scenario("bad.toml", text.as_bytes())
        .unwrap_err()
        .to_string()
}

#[test]
fn bad_entries_are_refused_with_file_line_and_field() {
    let (text, _) = documented();
    let cases = [
        (
            "to = \"db\"",
            "to = \"dbx\"",
            "order[0].to: no node is called `dbx`",
        ),
        (
            "from = \"A\"",
            "from = \"Z\"",
            "order[0].from: no node is called `Z`",
        ),
        (
            "from = \"A\"",
            "from = \"db\"",
            "order[0].from: a node sends no message to itself",
        ),
        (
            "at_ms = 3005",
            "at_ms = 700000",
            "order[0].at_ms: 700000 is out of range",
        ),
        ("at_ms = 3005", "at_ms = -1", "order[0].at_ms"),
        (
            "match = \"write\"",
            "match = \" \"",
            "order[0].match: must not be empty",
        ),
        (
            "match = \"write\"",
            "matches = \"write\"",
            "unknown field `matches`",
        ),
    ];
    for (from, to, expected) in cases {
        let e = error_of(&text.replace(from, to));
        assert!(e.contains(expected), "{to}: {e}");
        // Located on the entry's lines, past the workers.
        let line: usize = e.split(':').nth(1).unwrap().parse().unwrap();
        assert!(line > 25, "{to}: {e}");
    }
    let neither = text
        .replace("from = \"A\"\n", "")
        .replace("match = \"write\"\n", "");
    let e = error_of(&neither);
    assert!(
        e.contains("order[0].to: an order entry needs `from` or `match`"),
        "{e}"
    );
}

#[test]
fn entries_that_never_apply_are_reported() {
    let (text, _) = documented();
    let nothing_due = parse_scenario(
        "late.toml",
        text.replace("at_ms = 3005", "at_ms = 3004").as_bytes(),
    )
    .unwrap();
    let r = run(&nothing_due);
    assert_eq!(r.verdict.outcome, Outcome::Safe, "the sent order stood");
    let un = r.unapplied();
    assert_eq!(un.len(), 1, "{un:?}");
    assert_eq!(un[0].path, "order[0]");
    assert!(un[0].message.contains("nothing to order"), "{}", un[0]);
    let no_match = parse_scenario(
        "miss.toml",
        text.replace("match = \"write\"", "match = \"read\"")
            .as_bytes(),
    )
    .unwrap();
    let r = run(&no_match);
    assert_eq!(r.verdict.outcome, Outcome::Safe);
    let un = r.unapplied();
    assert!(
        un[0]
            .message
            .contains("none from A with a label starting with \"read\""),
        "{}",
        un[0]
    );
}

#[test]
fn a_scenario_without_entries_writes_none() {
    let (_, s) = documented();
    let text = toml::to_string(&without_orders(&s)).unwrap();
    assert!(!text.contains("order"), "{text}");
    let with = toml::to_string(&s).unwrap();
    let back: Scenario = toml::from_str(&with).unwrap();
    assert_eq!(back.order, s.order);
}
