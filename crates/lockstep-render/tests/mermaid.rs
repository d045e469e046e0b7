//! The Mermaid export: the right participants, one arrow per message, notes for the rest.

mod common;

use lockstep_core::EventKind;
use lockstep_render::mermaid;

#[test]
fn every_scenario_has_its_participants_and_messages() {
    for (id, scenario, run) in common::catalogue() {
        let text = mermaid(&run.trace, Some(&scenario.title));
        let mut lines = text.lines();
        assert_eq!(lines.next(), Some("sequenceDiagram"), "{id}");
        let body: Vec<&str> = lines.map(str::trim).collect();
        let mut aliases = std::collections::BTreeMap::new();
        for l in body.iter().filter(|l| l.starts_with("participant ")) {
            let rest = &l["participant ".len()..];
            let (alias, name) = rest.split_once(" as ").expect("participant X as NAME");
            aliases.insert(alias.to_string(), name.to_string());
        }
        let mut names: Vec<String> = aliases.values().cloned().collect();
        names.sort();
        let mut expected: Vec<String> = run
            .trace
            .participants
            .iter()
            .map(|p| p.name.clone())
            .collect();
        expected.sort();
        assert_eq!(names, expected, "{id}: participants");

        let arrows: Vec<&&str> = body
            .iter()
            .filter(|l| {
                !l.starts_with("Note ")
                    && !l.starts_with("participant ")
                    && !l.starts_with("title ")
            })
            .collect();
        assert_eq!(
            arrows.len(),
            common::messages(&run.trace, usize::MAX),
            "{id}: messages"
        );
        let lost = arrows
            .iter()
            .filter(|l| l.split(':').next().is_some_and(|h| h.contains("-x")))
            .count();
        assert_eq!(
            lost,
            common::lost_messages(&run.trace),
            "{id}: lost messages"
        );
        for a in &arrows {
            let (head, _) = a
                .split_once(": ")
                .unwrap_or_else(|| panic!("{id}: arrow without label: {a}"));
            let (from, to) = ["-->>", "->>", "--x", "-x"]
                .iter()
                .find_map(|arrow| head.split_once(arrow))
                .unwrap_or_else(|| panic!("{id}: not an arrow: {a}"));
            assert!(
                aliases.contains_key(from) && aliases.contains_key(to),
                "{id}: unknown participant in {a}"
            );
        }
        let notes = body.iter().filter(|l| l.starts_with("Note over ")).count();
        let non_messages = run
            .trace
            .events
            .iter()
            .filter(|e| {
                !matches!(
                    e.kind,
                    EventKind::Send | EventKind::Deliver | EventKind::Lost
                )
            })
            .count();
        assert_eq!(notes, non_messages, "{id}: notes");
        // Nothing Mermaid chokes on is left unescaped: every `#` starts an entity code ending in `;`,
        // and every `;` ends one.
        for l in &body {
            let mut rest = *l;
            while let Some(i) = rest.find(['#', ';']) {
                assert!(rest[i..].starts_with('#'), "{id}: bare ; in {l}");
                let code_end = rest[i..]
                    .find(';')
                    .unwrap_or_else(|| panic!("{id}: bare # in {l}"));
                let code = &rest[i + 1..i + code_end];
                assert!(
                    !code.is_empty() && code.chars().all(|c| c.is_ascii_alphanumeric()),
                    "{id}: {l}"
                );
                rest = &rest[i + code_end + 1..];
            }
            if let Some((_, text)) = l.split_once(": ") {
                assert!(!text.contains(['<', '>']), "{id}: raw angle bracket in {l}");
            }
        }
    }
}

#[test]
fn labels_with_special_characters_are_escaped() {
    let (_, run) = common::load("fenced-gc-pause");
    let mut trace = run.trace.clone();
    trace.events[0].label = "SET a;b #1 <x>".into();
    let text = mermaid(&trace, None);
    assert!(text.contains("SET a#59;b #35;1 #60;x#62;"), "{text}");
}
