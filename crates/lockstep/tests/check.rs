//! `lockstep check`: every scenario gets a line whatever happens to the others, folders stand for
//! their `.toml` files, and the exit status is the worst of them.

mod common;

use common::{builtin_source, lockstep, lockstep_env, scratch, stdout, write};

fn mismatch() -> String {
    builtin_source("naive-gc-pause").replace("expect = \"double-write\"", "expect = \"safe\"")
}

const INVALID: &str = "name = \"bad\"\ntitle = \"t\"\nsummary = \"s\"\nexpect = \"safe\"\n[lock]\nkind = \"redis\"\nttl_ms = -1\n[[workers]]\nname = \"A\"\n";

#[test]
fn an_invalid_file_does_not_hide_the_others() {
    let dir = scratch("check-all");
    let bad = write(&dir, "bad.toml", INVALID);
    let wrong = write(&dir, "wrong.toml", &mismatch());
    let o = lockstep_env(
        &["check", "naive-gc-pause", &bad, "fenced-gc-pause", &wrong],
        &[("COLUMNS", "200")],
    );
    let text = stdout(&o);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 5, "{text}");
    assert!(lines[0].starts_with("ok ") && lines[0].contains("naive-gc-pause"));
    assert!(
        lines[1].starts_with("error ")
            && lines[1].contains("bad.toml ")
            && lines[1].contains("  7:10: lock.ttl_ms")
    );
    assert!(lines[2].starts_with("ok ") && lines[2].contains("fenced-gc-pause"));
    assert!(lines[3].starts_with("FAIL ") && lines[3].ends_with("expected safe, got double-write"));
    assert_eq!(lines[4], "2 passed, 1 failed, 1 invalid");
    // The worst status wins: invalid input (2) over a mismatch (1).
    assert_eq!(o.status.code(), Some(2));
    // Without the invalid file, the mismatch decides.
    let o = lockstep(&["check", "naive-gc-pause", &wrong]);
    assert_eq!(o.status.code(), Some(1));
    // Missing files are reported the same way.
    let o = lockstep(&["check", "fenced-gc-pause", "missing.toml"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stdout(&o).contains("missing.toml ") && stdout(&o).contains("  no such file;"),
        "{}",
        stdout(&o)
    );
    assert!(stdout(&o).ends_with("1 passed, 0 failed, 1 invalid\n"));
}

#[test]
fn a_folder_means_every_toml_file_in_it() {
    let dir = scratch("check-folder");
    write(&dir, "b-fenced.toml", &builtin_source("fenced-gc-pause"));
    write(&dir, "a-naive.toml", &builtin_source("naive-gc-pause"));
    write(&dir, "notes.txt", "not a scenario");
    std::fs::create_dir_all(dir.join("sub.toml")).expect("a folder named like a file");
    let folder = dir.to_str().expect("utf-8");
    let o = lockstep_env(&["check", folder], &[("COLUMNS", "200")]);
    assert!(o.status.success(), "{}", stdout(&o));
    let text = stdout(&o);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert!(lines[0].contains("a-naive.toml") && lines[0].ends_with("double-write"));
    assert!(lines[1].contains("b-fenced.toml") && lines[1].ends_with("safe"));
    assert_eq!(lines[2], "2 passed, 0 failed");

    let empty = scratch("check-empty");
    let o = lockstep(&["check", empty.to_str().expect("utf-8")]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stdout(&o).contains("the folder has no .toml files"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn a_folder_given_to_run_says_to_use_check() {
    let dir = scratch("run-folder");
    let folder = dir.to_str().expect("utf-8");
    let o = lockstep(&["run", folder]);
    assert_eq!(o.status.code(), Some(2));
    let err = common::stderr(&o);
    assert!(
        err.contains("is a folder, not a scenario file") && err.contains("lockstep check"),
        "{err}"
    );
}

#[test]
fn long_messages_wrap_under_their_column() {
    let dir = scratch("check-wrap");
    let bad = write(&dir, "bad.toml", INVALID);
    let text = stdout(&lockstep_env(&["check", &bad], &[("COLUMNS", "60")]));
    assert!(text.lines().all(|l| common::columns(l) <= 60), "{text}");
    let lines: Vec<&str> = text.lines().collect();
    // The message continues on indented lines, never at column 0.
    assert!(lines.len() >= 3, "{text}");
    let (report, summary) = lines.split_at(lines.len() - 1);
    assert!(report[0].starts_with("error "));
    assert!(
        report[1..].iter().all(|l| l.starts_with("       ")),
        "{text}"
    );
    let joined: Vec<&str> = report.iter().flat_map(|l| l.split_whitespace()).collect();
    assert!(
        joined.join(" ").contains(
            " 7:10: lock.ttl_ms: `-1` is negative: this field takes a whole number of milliseconds"
        ),
        "{text}"
    );
    assert_eq!(summary, ["0 passed, 0 failed, 1 invalid"]);
}

/// naive-gc-pause with a typo in its pause's `after` and in one explanation's `when`.
fn typo() -> String {
    builtin_source("naive-gc-pause")
        .replace(
            "at_ms = 1000\nkind = \"pause\"",
            "after = \"leese check\"\nkind = \"pause\"",
        )
        .replace("when = \"DUPLICATE\"", "when = \"DUPLICATES\"")
        .replace("expect = \"double-write\"", "expect = \"safe\"")
}

#[test]
fn a_fault_that_never_applied_fails_check_and_warns_in_run() {
    let dir = scratch("unapplied");
    let path = write(&dir, "typo.toml", &typo());
    // The outcome matches `expect` (without its pause nothing goes wrong), but the scenario
    // proves nothing: check fails it, naming the fault.
    let o = lockstep_env(&["check", &path, "fenced-gc-pause"], &[("COLUMNS", "300")]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    let text = stdout(&o);
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[0].starts_with("FAIL ") && lines[0].contains("typo.toml"),
        "{text}"
    );
    assert!(
        // Located as a scenario error is: the `after` value is on line 27 of the file.
        lines[0].ends_with("never applied: 27:9: faults[0].after: A never had an event whose label starts with \"leese check\", so this pause never happened"),
        "{text}"
    );
    assert!(
        text.contains(
            "never applied: 45:8: explain[3].when: no event has a label starting with \"DUPLICATES\""
        ),
        "{text}"
    );
    assert!(text.ends_with("1 passed, 1 failed\n"), "{text}");

    // `run` still runs it, and says on stderr which file and what never applied.
    let o = lockstep(&["run", &path, "--brief"]);
    assert!(o.status.success());
    assert!(
        stdout(&o).contains("verdict: safe (as expected)"),
        "{}",
        stdout(&o)
    );
    let err = common::stderr(&o);
    let warnings: Vec<&str> = err.lines().filter(|l| l.starts_with("warning: ")).collect();
    assert!(
        warnings[0].starts_with(&format!(
            "warning: {path}:27:9: faults[0].after: A never had an event"
        )),
        "{err}"
    );
    assert!(
        warnings.iter().any(|w| w.contains("explain[3].when")),
        "{err}"
    );
    // The built-ins have none.
    for id in common::builtin_ids() {
        let o = lockstep(&["run", &id, "--brief"]);
        assert_eq!(common::stderr(&o), "", "{id}");
    }
}
