//! The `lockstep` binary driven as a user would: list, run (text and JSON), check, bad input.

mod common;

use common::{builtin_ids, builtin_source, lockstep, scratch, stderr, stdout, write};

#[test]
fn list_shows_every_builtin_with_its_expected_outcome() {
    let o = lockstep(&["list"]);
    assert!(o.status.success());
    let text = stdout(&o);
    let count = lockstep_core::catalogue::ids().count();
    assert_eq!(
        builtin_ids(),
        lockstep_core::catalogue::ids().collect::<Vec<_>>()
    );
    // At 80 columns the titles do not fit beside the ids: each goes on its own indented line.
    let lines: Vec<&str> = text.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.starts_with("fenced-gc-pause "))
        .expect("listed");
    assert!(lines[at].ends_with(" safe"), "{}", lines[at]);
    assert_eq!(lines[at + 1], "    Fencing tokens stop the stale write");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("consensus-quorum-loss-fail-closed")
                && l.contains("not-processed"))
    );
    // Wide enough, one line each.
    let wide = stdout(&common::lockstep_env(&["list"], &[("COLUMNS", "140")]));
    assert_eq!(wide.lines().count(), count);
    assert!(wide.lines().any(|l| l.starts_with("fenced-gc-pause ")
        && l.contains(" safe ")
        && l.ends_with("Fencing tokens stop the stale write")));
}

#[test]
fn run_prints_a_timeline_and_verdict_for_every_builtin() {
    for id in builtin_ids() {
        let o = lockstep(&["run", &id]);
        assert!(o.status.success(), "{id}: {}", stderr(&o));
        insta::assert_snapshot!(id.as_str(), stdout(&o));
    }
}

#[test]
fn run_fenced_gc_pause_tells_the_articles_story() {
    let text = stdout(&lockstep(&["run", "fenced-gc-pause", "--brief"]));
    for needle in [
        "redis -> A      (integer) 33: the token",
        "A           A paused for 10000 ms",
        "redis -> B      (integer) 34: the token",
        "db -> A      rejected — 33 < last_token 34",
        "verdict: safe (as expected)",
    ] {
        assert!(text.contains(needle), "missing {needle:?} in\n{text}");
    }
}

#[test]
fn run_json_is_the_documented_schema() {
    let o = lockstep(&["run", "naive-gc-pause", "--format", "json"]);
    assert!(o.status.success());
    let doc: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("valid JSON");
    assert_eq!(doc["schema"], "lockstep-trace/1");
    assert_eq!(doc["scenario"]["name"], "naive-gc-pause");
    assert_eq!(doc["verdict"]["outcome"], "double-write");
    assert_eq!(doc["verdict"]["money_paid_twice_cents"], 375_000);
    let first = &doc["events"][0];
    assert_eq!(
        (
            first["step"].as_u64(),
            first["kind"].as_str(),
            first["from"].as_str(),
            first["to"].as_str()
        ),
        (Some(1), Some("send"), Some("A"), Some("redis"))
    );
    let participants: Vec<&str> = doc["participants"]
        .as_array()
        .expect("array")
        .iter()
        .filter_map(|p| p["name"].as_str())
        .collect();
    // Workers, then the lock service, then the database (docs/trace-format.md).
    assert_eq!(participants, ["A", "B", "redis", "db"]);
    // Events about the whole system name the database as from and to.
    let last = doc["events"].as_array().expect("events").last().cloned();
    let last = last.expect("an event");
    assert_eq!(last["tag"]["tag"], "run-ends");
    assert_eq!(
        (last["from"].as_str(), last["to"].as_str()),
        (Some("db"), Some("db"))
    );
}

#[test]
fn check_passes_on_the_catalogue() {
    let o = lockstep(&["check"]);
    assert!(o.status.success(), "{}", stdout(&o));
    let count = lockstep_core::catalogue::ids().count();
    assert!(stdout(&o).ends_with(&format!("{count} passed, 0 failed\n")));
}

#[test]
fn check_exits_1_on_a_mismatch() {
    let dir = scratch("mismatch");
    let source =
        builtin_source("naive-gc-pause").replace("expect = \"double-write\"", "expect = \"safe\"");
    let path = write(&dir, "mismatch.toml", &source);
    let o = common::lockstep_env(&["check", "fenced-gc-pause", &path], &[("COLUMNS", "200")]);
    assert_eq!(o.status.code(), Some(1));
    let text = stdout(&o);
    assert!(
        text.lines().any(|l| l.starts_with("FAIL ")
            && l.contains(&path)
            && l.ends_with("expected safe, got double-write")),
        "{text}"
    );
    assert!(text.contains("1 passed, 1 failed"));
}

#[test]
fn invalid_input_exits_2_with_a_located_message() {
    let dir = scratch("invalid");
    let path = write(
        &dir,
        "bad.toml",
        "name = \"bad\"\ntitle = \"t\"\nsummary = \"s\"\nexpect = \"safe\"\n[lock]\nkind = \"redis\"\nttl_ms = -1\n[[workers]]\nname = \"A\"\n",
    );
    let message = "bad.toml:7:10: lock.ttl_ms: `-1` is negative: this field takes a whole number of milliseconds";
    let o = lockstep(&["run", &path]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains(message), "{}", stderr(&o));
    // `check` reports it with the others, on stdout (wide enough to keep it on one line), the
    // file in the label column and the place beside it.
    let o = common::lockstep_env(&["check", &path], &[("COLUMNS", "200")]);
    assert_eq!(o.status.code(), Some(2));
    let place = message.trim_start_matches("bad.toml:");
    assert!(
        stdout(&o).contains(&format!("{path}  {place}")),
        "{}",
        stdout(&o)
    );
    let o = lockstep(&["run", "no-such-scenario"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("`no-such-scenario` is neither a built-in scenario nor a file; `lockstep list` shows the built-ins"));
}

#[test]
fn no_arguments_prints_help() {
    let o = lockstep(&[]);
    assert!(o.status.success());
    let text = stdout(&o);
    assert!(
        text.contains("Usage: lockstep") && text.contains("check"),
        "{text}"
    );
}

#[test]
fn scenario_mistakes_are_explained_with_what_is_allowed() {
    let dir = scratch("mistakes");
    let naive = builtin_source("naive-gc-pause");
    let cases = [
        ("empty.toml", String::new(), vec!["empty.toml:1:1", "empty"]),
        (
            "twice.toml",
            naive.replace("name = \"B\"", "name = \"A\""),
            vec!["workers[1].name", "`A`", "twice"],
        ),
        (
            "fencing.toml",
            naive.replace("fencing = \"off\"", "fencing = true"),
            vec![
                "resource.fencing",
                "`off`",
                "`writes`",
                "`enforce`",
                "`permissive`",
            ],
        ),
    ];
    for (name, text, needles) in cases {
        let path = write(&dir, name, &text);
        let o = lockstep(&["run", &path]);
        assert_eq!(o.status.code(), Some(2), "{name}");
        let err = stderr(&o);
        for n in needles {
            assert!(err.contains(n), "{name}: missing {n:?} in {err}");
        }
    }
}

/// Every `lockstep` command the README shows (those that need no file of yours and no shell
/// redirection) works as written.
#[test]
fn the_readme_commands_work() {
    let readme = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../README.md"),
    )
    .expect("README.md");
    let dir = scratch("readme");
    let mut ran = 0;
    let mut in_code = false;
    let commands = readme.lines().filter(|l| {
        if l.starts_with("```") {
            in_code = l.trim() == "```sh";
            return false;
        }
        in_code && l.starts_with("lockstep ")
    });
    for line in commands {
        let command = line.split(" #").next().unwrap_or(line).trim();
        if command.contains(['>', '|']) || command.contains("my-") {
            continue;
        }
        let args: Vec<&str> = command.split_whitespace().skip(1).collect();
        let o = common::command(&args)
            .current_dir(&dir)
            .output()
            .expect("runs");
        assert!(o.status.success(), "{command}: {}", stderr(&o));
        ran += 1;
    }
    assert!(ran >= 8, "only {ran} commands found in the README");
    assert!(readme.contains("cargo install --path crates/lockstep"));
}

/// A legal but odd file runs, and stderr says what is odd and where; a usual file says nothing.
#[test]
fn an_odd_but_legal_file_runs_with_a_located_warning() {
    let dir = scratch("odd");
    let path = write(
        &dir,
        "two-nodes.toml",
        "name = \"two-nodes\"\ntitle = \"t\"\nsummary = \"s\"\nexpect = \"safe\"\n[lock]\nkind = \"consensus\"\nnodes = 2\n[[workers]]\nname = \"A\"\n",
    );
    let o = lockstep(&["run", &path]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("warning: ")
            && stderr(&o).contains(
                "two-nodes.toml:7:9: lock.nodes: 2 nodes need 2 for a quorum: they tolerate no failure"
            ),
        "{}",
        stderr(&o)
    );
    assert!(stdout(&o).contains("verdict: safe"), "{}", stdout(&o));
    let usual = write(&dir, "usual.toml", &builtin_source("fenced-gc-pause"));
    let o = lockstep(&["run", &usual]);
    assert!(!stderr(&o).contains("warning"), "{}", stderr(&o));
}
