//! A fault or an `[[explain]]` that never applied is reported, with the field it came from, so that
//! a scenario cannot pass because its fault never fired (issue 11, point 1).

use lockstep_core::{Unapplied, catalogue, run};
use lockstep_tests::{builtin, scenario};

const HEAD: &str = "name = \"u\"\ntitle = \"t\"\nsummary = \"s\"\nexpect = \"safe\"\n[lock]\nkind = \"redis\"\n[[workers]]\nname = \"A\"\nwork_ms = 100\ncheck_lease_before_write = true\n";

fn unapplied(body: &str) -> Vec<String> {
    run(&scenario(&format!("{HEAD}{body}")))
        .unapplied()
        .iter()
        .map(Unapplied::to_string)
        .collect()
}

#[test]
fn every_builtin_fault_and_explanation_applies() {
    for id in catalogue::ids() {
        let r = run(&builtin(id));
        assert_eq!(r.unapplied(), vec![], "{id}");
    }
}

#[test]
fn a_pause_after_an_event_that_never_happens_is_reported() {
    let body = "[[faults]]\nkind = \"pause\"\ntarget = \"A\"\nafter = \"leese check\"\nduration_ms = 100\n";
    assert_eq!(
        unapplied(body),
        [
            "faults[0].after: A never had an event whose label starts with \"leese check\", so this pause never happened"
        ]
    );
    let spelt_right = body.replace("leese", "lease");
    assert_eq!(unapplied(&spelt_right), Vec::<String>::new());
}

#[test]
fn a_delay_or_drop_that_matches_no_message_is_reported() {
    let body = "[[faults]]\nkind = \"drop\"\nmatch = \"WRITE\"\nfrom = \"A\"\n[[faults]]\nkind = \"delay\"\nat_ms = 50\nmatch = \"write\"\nduration_ms = 10\n";
    assert_eq!(
        unapplied(body),
        [
            "faults[0].match: no message from A sent has a label starting with \"WRITE\", so this drop never happened"
        ]
    );
    let late = "[[faults]]\nkind = \"delay\"\nat_ms = 5000\nmatch = \"write\"\nduration_ms = 10\n";
    assert_eq!(
        unapplied(late),
        [
            "faults[0].match: no message sent at or after 5000 ms has a label starting with \"write\", so this delay never happened"
        ]
    );
}

#[test]
fn an_explanation_whose_event_never_occurs_is_reported() {
    let body = "[[explain]]\nwhen = \"DUPLICATE\"\ntext = \"x\"\n[[explain]]\nwhen = \"OK\"\nnode = \"A\"\ntext = \"y\"\n[[explain]]\nwhen = \"OK\"\ntext = \"z\"\n";
    assert_eq!(
        unapplied(body),
        [
            "explain[0].when: no event has a label starting with \"DUPLICATE\", so this explanation was never shown",
            "explain[1].when: no event of A's has a label starting with \"OK\", so this explanation was never shown",
        ]
    );
}

#[test]
fn a_fault_timed_after_the_run_ended_is_reported() {
    let body = "[[faults]]\nkind = \"crash\"\ntarget = \"redis\"\nat_ms = 90000\n";
    let found = run(&scenario(&format!("{HEAD}{body}"))).unapplied();
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].path, "faults[0].at_ms");
    assert!(
        found[0]
            .message
            .ends_with("before this crash at 90000 ms, so it never happened"),
        "{}",
        found[0].message
    );
}

/// The complete example in docs/scenario-format.md parses, reaches its `expect`, and every fault
/// and explanation in it applies.
#[test]
fn the_documented_example_runs_as_written() {
    let doc = include_str!("../docs/scenario-format.md");
    let start = doc.find("```toml\n").expect("a TOML example") + "```toml\n".len();
    let end = start + doc[start..].find("```").expect("its end");
    let s = scenario(&doc[start..end]);
    let r = run(&s);
    assert_eq!(r.verdict.outcome, s.expect);
    assert_eq!(r.verdict.writes_rejected, 1, "A's late write is refused");
    assert_eq!(r.unapplied(), vec![]);
}
