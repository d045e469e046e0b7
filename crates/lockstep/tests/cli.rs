//! The `lockstep` binary driven as a user would: list, run (text and JSON), check, bad input.

use std::process::{Command, Output};

fn lockstep(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_lockstep"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("UTF-8 output")
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).expect("UTF-8 output")
}

fn temp_file(name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("lockstep-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write temp file");
    path
}

#[test]
fn list_shows_every_builtin_with_its_expected_outcome() {
    let o = lockstep(&["list"]);
    assert!(o.status.success());
    let text = stdout(&o);
    assert_eq!(text.lines().count(), 19);
    let line = text
        .lines()
        .find(|l| l.starts_with("fenced-gc-pause "))
        .expect("listed");
    assert!(
        line.contains("safe") && line.contains("Fencing tokens stop the stale write"),
        "{line}"
    );
    assert!(
        text.lines()
            .any(|l| l.starts_with("consensus-quorum-loss-fail-closed")
                && l.contains("not-processed"))
    );
}

#[test]
fn run_prints_a_timeline_and_verdict_for_every_builtin() {
    let ids = stdout(&lockstep(&["list"]));
    for id in ids.lines().filter_map(|l| l.split_whitespace().next()) {
        let o = lockstep(&["run", id]);
        assert!(o.status.success(), "{id}: {}", stderr(&o));
        insta::assert_snapshot!(id, stdout(&o));
    }
}

#[test]
fn run_fenced_gc_pause_tells_the_articles_story() {
    let text = stdout(&lockstep(&["run", "fenced-gc-pause", "--brief"]));
    for needle in [
        "redis -> A      OK token=33",
        "A           A paused for 10000 ms",
        "redis -> B      OK token=34",
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
    assert_eq!(participants, ["A", "B", "redis", "db"]);
}

#[test]
fn check_passes_on_the_catalogue() {
    let o = lockstep(&["check"]);
    assert!(o.status.success(), "{}", stdout(&o));
    assert!(stdout(&o).ends_with("19 passed, 0 failed\n"));
}

#[test]
fn check_exits_1_on_a_mismatch() {
    let source = lockstep_core_source("naive-gc-pause")
        .replace("expect = \"double-write\"", "expect = \"safe\"");
    let path = temp_file("mismatch.toml", &source);
    let o = lockstep(&[
        "check",
        "fenced-gc-pause",
        path.to_str().expect("utf-8 path"),
    ]);
    assert_eq!(o.status.code(), Some(1));
    let text = stdout(&o);
    assert!(
        text.contains("FAIL  naive-gc-pause   expected safe, got double-write"),
        "{text}"
    );
    assert!(text.contains("1 passed, 1 failed"));
}

#[test]
fn invalid_input_exits_2_with_a_located_message() {
    let path = temp_file(
        "bad.toml",
        "name = \"bad\"\ntitle = \"t\"\nsummary = \"s\"\nexpect = \"safe\"\n[lock]\nkind = \"redis\"\nttl_ms = -1\n[[workers]]\nname = \"A\"\n",
    );
    let arg = path.to_str().expect("utf-8 path");
    for args in [vec!["check", arg], vec!["run", arg]] {
        let o = lockstep(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = stderr(&o);
        assert!(
            err.contains("bad.toml:7:10: lock.ttl_ms: invalid value: integer `-1`, expected u64"),
            "{err}"
        );
    }
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

fn lockstep_core_source(id: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../assets/scenarios")
        .join(format!("{id}.toml"));
    std::fs::read_to_string(path).expect("built-in source")
}
