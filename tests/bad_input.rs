//! Bad scenario files give an error naming file, line, column and field — never a panic.

use lockstep_core::parse_scenario;
use proptest::prelude::*;

const VALID: &str = r#"name = "ok"
title = "A valid scenario"
summary = "Used as the base of the bad-input cases."
expect = "safe"

[lock]
kind = "redis"
ttl_ms = 5000

[[workers]]
name = "A"

[[faults]]
at_ms = 100
kind = "pause"
target = "A"
duration_ms = 1000
"#;

/// Parses `input` and compares the error's "line:column: field: message" with `expect`
/// (the message may be a prefix).
fn check(input: &[u8], expect: &str) {
    let err = parse_scenario("bad.toml", input).expect_err("the input is invalid");
    let got = format!(
        "{}:{}: {}: {}",
        err.line, err.column, err.field, err.message
    );
    assert!(got.starts_with(expect), "\n got: {got}\nwant: {expect}…");
    assert_eq!(err.to_string(), format!("bad.toml:{got}"));
}

fn edited(from: &str, to: &str) -> Vec<u8> {
    assert!(VALID.contains(from), "{from}");
    VALID.replacen(from, to, 1).into_bytes()
}

#[test]
fn the_base_is_valid() {
    parse_scenario("ok.toml", VALID.as_bytes()).expect("valid");
}

#[test]
fn broken_syntax() {
    check(&edited("ttl_ms = 5000", "ttl_ms = "), "8:10: (syntax): ");
    check(&edited("[lock]", "[lock"), "6:6: (syntax): ");
}

#[test]
fn unknown_fields() {
    check(
        &edited("expect = \"safe\"", "expect = \"safe\"\ncolour = \"red\""),
        "5:1: colour: unknown field `colour`, expected one of",
    );
    check(
        &edited("name = \"A\"", "name = \"A\"\nspeed = 3"),
        "12:1: workers[0].speed: unknown field `speed`",
    );
}

/// A negative number says the field's range, as an out-of-range one does.
#[test]
fn negative_numbers_state_the_range() {
    check(
        &edited("ttl_ms = 5000", "ttl_ms = -5"),
        "8:10: lock.ttl_ms: `-5` is negative: this field takes a whole number of milliseconds, from 1 to 3600000",
    );
    check(
        &edited(
            "kind = \"redis\"\nttl_ms = 5000",
            "kind = \"consensus\"\nttl_ms = 5000\nnodes = -3",
        ),
        "9:9: lock.nodes: `-3` is negative: this field takes a whole number, from 1 to 7",
    );
    check(
        &edited("name = \"A\"", "name = \"A\"\nretry_writes = -2"),
        "12:16: workers[0].retry_writes: `-2` is negative: this field takes a whole number, from 0 to 100",
    );
    // A field with no upper bound but its type's: no range to state.
    let text =
        String::from_utf8(edited("expect = \"safe\"", "expect = \"safe\"\nseed = -3")).unwrap();
    let err = parse_scenario("bad.toml", text.as_bytes()).expect_err("negative seed");
    assert!(
        err.to_string()
            .ends_with("`-3` is negative: this field takes a whole number"),
        "{err}"
    );
}

#[test]
fn numbers_too_large_for_their_field_state_the_range() {
    // 99999999999 does not fit `payouts`' u32: serde refuses it before validation could give
    // the range, so the range is found and added (it said only "invalid value: integer").
    check(
        &edited("[lock]", "[resource]\npayouts = 99999999999\n\n[lock]"),
        "7:11: resource.payouts: `99999999999` is too large: this field takes a whole number, from 1 to 10000",
    );
    check(
        &edited(
            "kind = \"redis\"\nttl_ms = 5000",
            "kind = \"consensus\"\nttl_ms = 5000\nnodes = 99999999999",
        ),
        "9:9: lock.nodes: `99999999999` is too large: this field takes a whole number, from 1 to 7",
    );
}

#[test]
fn wrong_types_and_values() {
    check(
        &edited("ttl_ms = 5000", "ttl_ms = -5"),
        "8:10: lock.ttl_ms: `-5` is negative: this field takes a whole number of milliseconds",
    );
    check(
        &edited("ttl_ms = 5000", "ttl_ms = \"5 s\""),
        "8:10: lock.ttl_ms: \"5 s\" is text; write the number without quotes: this field takes a whole number of milliseconds",
    );
    check(
        &edited("ttl_ms = 5000", "ttl_ms = 5e3"),
        "8:10: lock.ttl_ms: `5e3` is a floating-point number in TOML (it has a point or an exponent); write 5000: this field takes a whole number of milliseconds",
    );
    check(
        &edited("ttl_ms = 5000", "ttl_ms = 1.5"),
        "8:10: lock.ttl_ms: `1.5` has a fraction: this field takes a whole number of milliseconds",
    );
    for odd in ["nan", "inf"] {
        check(
            &edited("ttl_ms = 5000", &format!("ttl_ms = {odd}")),
            &format!(
                "8:10: lock.ttl_ms: `{odd}` is not a number: this field takes a whole number of milliseconds"
            ),
        );
    }
    check(
        &edited("ttl_ms = 5000", "ttl_ms = 1e400"),
        "8:10: lock.ttl_ms: `1e400` is too large to be any number: this field takes a whole number of milliseconds",
    );
    check(
        &edited("ttl_ms = 5000", "ttl_ms = 5000\ndrift_factor = \"x\""),
        "9:16: lock.drift_factor: \"x\" is text; write the number without quotes: this field takes a number, such as 0.01",
    );
    check(
        &edited("ttl_ms = 5000", "ttl_ms = 5000\ndrift_factor = 1e400"),
        "9:16: lock.drift_factor: `1e400` is too large to be any number: this field takes a number, such as 0.01",
    );
    check(
        &edited("ttl_ms = 5000", "ttl_ms = [5000]"),
        "8:10: lock.ttl_ms: `[5000]` is a list, not one number: this field takes a whole number of milliseconds",
    );
    check(
        &edited(
            "kind = \"redis\"\nttl_ms = 5000",
            "kind = \"redlock\"\nttl_ms = 5000\ndrift_factor = nan",
        ),
        "9:16: lock.drift_factor: this is not a number: allowed 0 to 0.5",
    );
    check(
        &edited("ttl_ms = 5000", "ttl_ms = true"),
        "8:10: lock.ttl_ms: `true` is a yes/no value, not a number: this field takes a whole number of milliseconds",
    );
    check(
        &edited("kind = \"redis\"", "kind = \"zookeeper\""),
        "7:8: lock.kind: unknown variant `zookeeper`, expected one of",
    );
    check(
        &edited("expect = \"safe\"", "expect = \"fine\""),
        "4:10: expect: unknown variant `fine`",
    );
}

#[test]
fn missing_fields() {
    check(
        &edited("expect = \"safe\"\n", ""),
        "1:1: (document): the file has no `expect`: every scenario needs `name`, `title`, `summary`, `expect`, `[lock]` and `[[workers]]`",
    );
}

#[test]
fn an_empty_file_says_it_is_empty() {
    for empty in ["", "\n\n", "# only a comment\n"] {
        check(
            empty.as_bytes(),
            "1:1: (document): the file is empty: a scenario needs at least `name`, `title`, `summary`, `expect`, a `[lock]` table and one `[[workers]]` entry",
        );
    }
}

#[test]
fn a_worker_name_used_twice_says_so_at_the_second() {
    check(
        &edited(
            "[[workers]]\nname = \"A\"\n",
            "[[workers]]\nname = \"A\"\n[[workers]]\nname = \"A\"\n",
        ),
        "13:8: workers[1].name: the name `A` is used twice: workers[0] is already called `A`; give each worker its own name",
    );
    check(
        &edited("name = \"A\"", "name = \"redis\""),
        "11:8: workers[0].name: `redis` is the name of a service node; pick another",
    );
}

#[test]
fn a_choice_of_the_wrong_type_lists_the_allowed_words() {
    check(
        &edited("[lock]", "[resource]\nfencing = true\n\n[lock]"),
        "7:11: resource.fencing: expected one of `off`, `writes`, `enforce` or `permissive`, as a quoted word",
    );
    check(
        &edited("kind = \"pause\"", "kind = 7"),
        "15:8: faults[0].kind: expected one of `pause`, `clock-jump`,",
    );
}

#[test]
fn absurd_numbers() {
    check(
        &edited("ttl_ms = 5000", "ttl_ms = 99999999999"),
        "8:10: lock.ttl_ms: 99999999999 is out of range: allowed 1 to 3600000",
    );
    check(
        &edited("duration_ms = 1000", "duration_ms = 0"),
        "17:15: faults[0].duration_ms: 0 is out of range",
    );
    check(
        &edited(
            "[[workers]]",
            "[limits]\nmax_events = 100000000\n\n[[workers]]",
        ),
        "11:14: limits.max_events: 100000000 is out of range",
    );
}

#[test]
fn references_to_nodes_that_do_not_exist() {
    check(
        &edited("target = \"A\"", "target = \"Z\""),
        "16:10: faults[0].target: no node is called `Z`; the nodes are A, redis, db",
    );
    check(
        &edited(
            "kind = \"pause\"\ntarget = \"A\"\nduration_ms = 1000",
            "kind = \"failover\"",
        ),
        "15:8: faults[0].kind: failover needs lock.kind = \"redis\" with a replica",
    );
}

#[test]
fn options_that_do_not_fit() {
    check(
        &edited("ttl_ms = 5000", "ttl_ms = 5000\ninstances = 5"),
        "9:13: lock.instances: applies only to kind = \"redlock\"",
    );
    check(
        &edited("name = \"A\"", "name = \"A\"\nrenew_every_ms = 6000"),
        "12:18: workers[0].renew_every_ms: 6000 ms is not shorter than the TTL",
    );
    check(
        &edited("duration_ms = 1000", "duration_ms = 1000\nby_ms = 5"),
        "18:9: faults[0].by_ms: does not apply to a pause fault",
    );
}

#[test]
fn too_many_workers() {
    let mut text = VALID.replace("[[workers]]\nname = \"A\"\n", "");
    for i in 0..300 {
        text.push_str(&format!("[[workers]]\nname = \"w{i}\"\n"));
    }
    let text = text.replace("target = \"A\"", "target = \"w0\"");
    let err = parse_scenario("big.toml", text.as_bytes()).expect_err("too many");
    assert_eq!(err.field, "workers");
    assert!(err.message.contains("at most 256"), "{err}");
}

#[test]
fn binary_garbage() {
    check(
        b"\xff\xfe\x00garbage",
        "1:1: (file): the file is not UTF-8 text",
    );
    check(
        b"name = \"x\"\n\x00\x01",
        "2:1: (file): the file contains a NUL byte",
    );
    check(
        &vec![b'#'; 300 * 1024],
        "1:1: (file): the file is 307200 bytes; scenario files may be at most",
    );
}

proptest! {
    #[test]
    fn random_text_never_panics(text in ".{0,400}") {
        if let Err(e) = parse_scenario("fuzz.toml", text.as_bytes()) {
            prop_assert!(e.line >= 1 && e.column >= 1);
            prop_assert!(!e.field.is_empty() && !e.message.is_empty());
        }
    }

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        if let Err(e) = parse_scenario("fuzz.toml", &bytes) {
            prop_assert!(e.line >= 1 && e.column >= 1);
        }
    }

    #[test]
    fn damaged_builtins_never_panic(index in 0usize..19, at in any::<prop::sample::Index>(), junk in "[\\[\\]=\"a-z0-9 \n.-]{0,12}", cut in 0usize..20) {
        let (_, source) = lockstep_core::catalogue::BUILTIN[index];
        let mut text = source.to_string();
        let mut pos = at.index(text.len() + 1);
        while !text.is_char_boundary(pos) {
            pos -= 1;
        }
        let mut end = (pos + cut).min(text.len());
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        text.replace_range(pos..end, &junk);
        match parse_scenario("damaged.toml", text.as_bytes()) {
            Ok(s) => {
                // Whatever still parses must also run to an end without panicking.
                let run = lockstep_core::run(&s);
                prop_assert!(run.sim.end.is_some());
            }
            Err(e) => prop_assert!(e.line >= 1 && e.column >= 1),
        }
    }
}

/// Two bad fields: the first in the file is reported, and the other is named, whichever serde
/// happened to meet first.
#[test]
fn the_first_of_several_problems_is_reported_and_the_rest_are_named() {
    let text = VALID.replacen("ttl_ms = 5000", "ttl_ms = -5", 1).replacen(
        "duration_ms = 1000",
        "duration_ms = \"long\"",
        1,
    );
    let err = parse_scenario("bad.toml", text.as_bytes()).expect_err("invalid");
    assert_eq!((err.line, err.field.as_str()), (8, "lock.ttl_ms"), "{err}");
    assert!(
        err.message
            .ends_with("(the file has 1 more problem: line 17 (faults[0].duration_ms))"),
        "{err}"
    );
    // A problem that blanking its line would only replace by a missing field stays alone.
    let err = parse_scenario(
        "bad.toml",
        VALID
            .replacen("kind = \"pause\"", "kind = \"nap\"", 1)
            .as_bytes(),
    )
    .expect_err("invalid");
    assert!(!err.message.contains("more problem"), "{err}");
}
