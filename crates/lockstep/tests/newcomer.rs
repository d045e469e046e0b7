//! What a newcomer following only the README met after issue 11, each driven through the binary:
//! warnings that stay next to the verdict, ids typed in the wrong case, `check` and `list` on
//! narrow terminals, `render` to a name or folder that cannot be right, the Mermaid verdict, and
//! the trace document's rule for `inconclusive`.

mod common;

use std::process::Stdio;

use common::{builtin_source, lockstep, lockstep_env, scratch, stderr, stdout, write};

/// stdout and stderr of one run interleaved as a terminal shows them (both go to one file).
fn as_on_a_terminal(args: &[&str], name: &str) -> String {
    let dir = scratch(name);
    let path = dir.join("both.txt");
    let file = std::fs::File::create(&path).expect("output file");
    let status = common::command(args)
        .stdout(Stdio::from(file.try_clone().expect("clone")))
        .stderr(Stdio::from(file))
        .status()
        .expect("the binary runs");
    assert!(status.success());
    std::fs::read_to_string(path).expect("UTF-8 output")
}

#[test]
fn the_never_applied_warning_comes_after_the_timeline() {
    let dir = scratch("warn-after");
    let typo = builtin_source("naive-gc-pause").replace(
        "at_ms = 1000\nkind = \"pause\"",
        "after = \"leese check\"\nkind = \"pause\"",
    );
    let path = write(&dir, "typo.toml", &typo);
    let both = as_on_a_terminal(&["run", &path, "--brief"], "warn-after-out");
    let verdict = both.find("verdict:").expect("a verdict");
    let warning = both
        .find("warning: ")
        .unwrap_or_else(|| panic!("a warning in {both}"));
    assert!(
        warning > verdict,
        "the warning scrolls away above the timeline:\n{both}"
    );
    assert!(
        both.lines()
            .last()
            .is_some_and(|l| l.starts_with("warning: ")),
        "{both}"
    );
}

#[test]
fn an_id_in_the_wrong_case_gets_a_suggestion() {
    let o = lockstep(&["run", "Fenced-GC-Pause"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("did you mean `fenced-gc-pause`?"),
        "{}",
        stderr(&o)
    );
}

const INVALID: &str = "name = \"bad\"\ntitle = \"t\"\nsummary = \"s\"\nexpect = \"safe\"\n[lock]\nkind = \"redis\"\nttl_ms = -1\n[[workers]]\nname = \"A\"\n";

#[test]
fn check_names_the_file_once() {
    let dir = scratch("check-once");
    let bad = write(&dir, "bad.toml", INVALID);
    let o = lockstep_env(&["check", &bad], &[("COLUMNS", "300")]);
    let text = stdout(&o);
    assert_eq!(text.matches("bad.toml").count(), 1, "{text}");
    assert!(
        text.starts_with(&format!(
            "error  {bad}  7:10: lock.ttl_ms: `-1` is negative"
        )),
        "{text}"
    );
}

#[test]
fn check_puts_long_messages_under_long_paths_on_narrow_terminals() {
    // A relative path, as typed: long enough to take half of 60 columns.
    let dir = scratch("check-narrow");
    std::fs::create_dir_all(dir.join("my-scenarios-folder")).expect("folder");
    write(&dir, "my-scenarios-folder/bad-file.toml", INVALID);
    let bad = "my-scenarios-folder/bad-file.toml";
    let o = common::command(&["check", bad, "fenced-gc-pause"])
        .env("COLUMNS", "60")
        .current_dir(&dir)
        .output()
        .expect("the binary runs");
    let text = stdout(&o);
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.iter().all(|l| common::columns(l) <= 60), "{text}");
    // The label alone, then the message on full-width lines under it.
    assert_eq!(lines[0], format!("error  {bad}"), "{text}");
    assert!(lines[1].starts_with("       7:10: lock.ttl_ms"), "{text}");
    let message_lines = lines[1..]
        .iter()
        .take_while(|l| l.starts_with("       "))
        .count();
    assert!(message_lines <= 3, "a strip a few words wide:\n{text}");
    // A short result still fits beside its label.
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("ok     fenced-gc-pause") && l.ends_with("safe")),
        "{text}"
    );
}

#[test]
fn list_fits_40_columns() {
    let o = lockstep_env(&["list"], &[("COLUMNS", "40")]);
    let text = stdout(&o);
    assert!(text.lines().all(|l| common::columns(l) <= 40), "{text}");
    // Every id still starts a line of its own, followed by its outcome and title.
    let lines: Vec<&str> = text.lines().collect();
    let i = lines
        .iter()
        .position(|l| *l == "redlock-restart-without-persistence")
        .unwrap_or_else(|| panic!("the longest id alone on a line:\n{text}"));
    assert!(
        lines[i + 1].starts_with("    double-write  Redlock"),
        "{text}"
    );
    assert!(common::builtin_ids().len() >= 30);
}

#[test]
fn render_says_when_the_name_or_the_folder_cannot_be_right() {
    let dir = scratch("render-names");
    let png = dir.join("picture.png");
    let png = png.to_str().expect("utf-8");
    let o = lockstep(&["render", "naive-gc-pause", "-o", png]);
    assert!(o.status.success());
    assert!(
        stderr(&o).starts_with(&format!(
            "warning: {png} will hold SVG whatever its name says"
        )),
        "{}",
        stderr(&o)
    );
    let svg = dir.join("picture.svg");
    let o = lockstep(&[
        "render",
        "naive-gc-pause",
        "-o",
        svg.to_str().expect("utf-8"),
    ]);
    assert_eq!(stderr(&o), "");

    let missing = dir.join("no-such-folder").join("gc.svg");
    let missing = missing.to_str().expect("utf-8");
    let o = lockstep(&["render", "naive-gc-pause", "-o", missing]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains(&format!(
            "cannot write {missing}: there is no folder {}",
            dir.join("no-such-folder").display()
        )),
        "{}",
        stderr(&o)
    );
}

#[test]
fn the_mermaid_verdict_has_one_fact_per_line() {
    let o = lockstep(&["run", "naive-gc-pause", "--format", "mermaid"]);
    let text = stdout(&o);
    let last = text.lines().last().expect("lines").trim();
    let (_, note) = last.split_once(": ").expect("a note");
    let lines: Vec<&str> = note.split("<br/>").collect();
    assert_eq!(
        lines[0], "Verdict (as expected): double-write. $3,750.00 paid twice.",
        "{last}"
    );
    assert!(lines.contains(&"payouts applied: 3 of 3"), "{last}");
    assert!(
        lines.contains(&"applied more than once: 3 ($3,750.00 paid twice)"),
        "{last}"
    );
    assert!(!note.contains("#59;"), "facts joined with `;`: {last}");
}

#[test]
fn the_trace_document_explains_inconclusive_as_it_is() {
    let doc = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/trace-format.md"),
    )
    .expect("docs/trace-format.md");
    let rule = doc
        .split("`outcome` is ")
        .nth(1)
        .expect("the outcome rule")
        .split("\n\n")
        .next()
        .expect("a paragraph");
    assert!(rule.contains("else `inconclusive` when a limit"), "{rule}");
    // What it says is what a cut-off run's document holds.
    let dir = scratch("inconclusive-doc");
    let cut = format!(
        "{}\n[limits]\nmax_events = 20\n",
        builtin_source("naive-gc-pause")
    );
    let path = write(&dir, "cut.toml", &cut);
    let o = lockstep(&["run", &path, "--format", "json"]);
    let json: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("JSON");
    assert_eq!(json["verdict"]["outcome"], "inconclusive");
    let last = json["events"]
        .as_array()
        .expect("events")
        .last()
        .expect("an event");
    assert_eq!(last["tag"]["tag"], "run-ends");
    assert_eq!(last["label"], "event limit reached");
    assert!(rule.contains("`event limit reached`"), "{rule}");
}

#[test]
fn run_help_gives_the_exit_status_and_the_warnings() {
    let o = lockstep_env(&["run", "--help"], &[("COLUMNS", "200")]);
    let help = stdout(&o);
    assert!(
        help.contains("Exit status 0, or 2 for invalid input"),
        "{help}"
    );
    assert!(
        help.contains("gets a warning on stderr, after the timeline"),
        "{help}"
    );
}

#[test]
fn every_timeline_fits_40_columns() {
    for id in common::builtin_ids() {
        for brief in [false, true] {
            let mut args = vec!["run", id.as_str()];
            if brief {
                args.push("--brief");
            }
            let text = stdout(&lockstep_env(&args, &[("COLUMNS", "40")]));
            let wide: Vec<&str> = text.lines().filter(|l| common::columns(l) > 40).collect();
            assert!(wide.is_empty(), "{id} (brief: {brief}): {wide:#?}");
        }
    }
}

#[test]
fn run_writes_to_a_file_with_dash_o_and_reads_stdin_from_dash() {
    let dir = scratch("run-o");
    let file = dir.join("gc.txt");
    let file = file.to_str().expect("utf-8");
    // The file gets plain text at 80 columns, whatever the colour flag says.
    let o = lockstep(&["run", "naive-gc-pause", "-o", file, "--color", "always"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains(&format!("wrote {file} (")),
        "{}",
        stdout(&o)
    );
    let text = std::fs::read_to_string(file).expect("the file");
    assert!(!text.contains('\u{1b}'), "colour codes in a file");
    assert!(
        text.contains("verdict: double-write (as expected)"),
        "{text}"
    );
    assert!(text.lines().all(|l| common::columns(l) <= 80));
    // `-o -` is stdout, as for render.
    let o = lockstep(&["run", "naive-gc-pause", "--format", "json", "-o", "-"]);
    assert!(stdout(&o).starts_with('{'), "{}", stdout(&o));
    // A missing folder is named.
    let o = lockstep(&["run", "naive-gc-pause", "-o", "/no-such-folder/x.txt"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("there is no folder /no-such-folder"),
        "{}",
        stderr(&o)
    );

    // `-` reads the scenario from stdin; messages call it <stdin>.
    let typo = builtin_source("naive-gc-pause").replace(
        "at_ms = 1000\nkind = \"pause\"",
        "after = \"leese check\"\nkind = \"pause\"",
    );
    let src = write(&dir, "typo.toml", &typo);
    let o = common::command(&["run", "-", "--brief"])
        .stdin(std::fs::File::open(&src).expect("source"))
        .output()
        .expect("the binary runs");
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).starts_with("naive-gc-pause — "),
        "{}",
        stdout(&o)
    );
    assert!(
        stderr(&o).starts_with("warning: <stdin>:27:9: faults[0].after"),
        "{}",
        stderr(&o)
    );
    let bad = write(&dir, "bad.toml", INVALID);
    let o = common::command(&["check", "-"])
        .stdin(std::fs::File::open(&bad).expect("bad"))
        .env("COLUMNS", "200")
        .output()
        .expect("the binary runs");
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stdout(&o).starts_with("error  <stdin>  7:10: lock.ttl_ms"),
        "{}",
        stdout(&o)
    );
}
