//! Text that fits the terminal: wrapped to its width with hanging indents, coloured only when it
//! should be, and repeated retries folded into one line with a count.

mod common;

use common::{
    builtin_ids, columns, lockstep, lockstep_env, retrying_scenario, scratch, stdout, write,
};

const ESC: char = '\u{1b}';

#[test]
fn every_timeline_fits_80_columns_when_not_a_terminal() {
    for id in builtin_ids() {
        for extra in [&[][..], &["--brief"][..]] {
            let mut args = vec!["run", id.as_str()];
            args.extend_from_slice(extra);
            let text = stdout(&lockstep(&args));
            for line in text.lines() {
                assert!(
                    columns(line) <= 80,
                    "{id} {extra:?}: {} columns:\n{line}",
                    columns(line)
                );
            }
        }
    }
}

#[test]
fn columns_sets_the_width() {
    for width in [60usize, 100, 140] {
        let w = width.to_string();
        let text = stdout(&lockstep_env(
            &["run", "redlock-clock-jump"],
            &[("COLUMNS", &w)],
        ));
        let widest = text.lines().map(columns).max().unwrap_or(0);
        assert!(widest <= width, "COLUMNS={width}: a line of {widest}");
        // The long explanations really use the room.
        assert!(
            widest > width - 10,
            "COLUMNS={width}: widest line only {widest}"
        );
    }
    // A silly width still gives readable lines (at least 40 columns).
    let text = stdout(&lockstep_env(
        &["run", "naive-gc-pause"],
        &[("COLUMNS", "10")],
    ));
    assert!(text.lines().all(|l| columns(l) <= 40));
    assert!(text.contains("verdict: double-write"));
}

#[test]
fn wrapped_explanations_hang_under_the_kind_column() {
    let text = stdout(&lockstep(&["run", "naive-gc-pause"]));
    let lines: Vec<&str> = text.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.contains("A paused for 10000 ms"))
        .expect("the pause");
    let kind_col = lines[at].find("fault").expect("kind column");
    // The explanation takes several lines, every one indented to the kind column.
    let explanation: Vec<&str> = lines[at + 1..]
        .iter()
        .take_while(|l| l.len() - l.trim_start().len() == kind_col)
        .map(|l| l.trim())
        .collect();
    assert!(explanation.len() >= 3, "{explanation:?}");
    assert!(
        explanation
            .join(" ")
            .contains("JVM pause monitors have logged pauses of minutes.")
    );
    // No word of an identifier is split at its hyphen.
    assert!(!text.contains("lock:batch-\n"), "{text}");
}

#[test]
fn long_labels_wrap_under_the_label_column() {
    let text = stdout(&lockstep_env(
        &["run", "naive-gc-pause", "--brief"],
        &[("COLUMNS", "60")],
    ));
    let lines: Vec<&str> = text.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.contains("DELEX lock:batch-42"))
        .expect("release");
    let label_col = lines[at].find("DELEX").expect("label");
    let next = lines[at + 1];
    assert_eq!(
        next.len() - next.trim_start().len(),
        label_col,
        "{}\n{next}",
        lines[at]
    );
    assert_eq!(next.trim_start(), "IFEQ 149406");
    // Too narrow for a label column: the label goes on its own line, indented.
    let text = stdout(&lockstep_env(
        &["run", "naive-gc-pause", "--brief"],
        &[("COLUMNS", "40")],
    ));
    let lines: Vec<&str> = text.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.trim_end().ends_with("send        A -> redis"))
        .expect("first send");
    let kind_col = lines[at].find("send").expect("kind column");
    let label: Vec<&str> = lines[at + 1..at + 3]
        .iter()
        .map(|l| l.trim_start())
        .collect();
    assert_eq!(label, ["SET lock:batch-42 67094c NX", "PX 5000"]);
    assert!(
        lines[at + 1..at + 3]
            .iter()
            .all(|l| l.len() - l.trim_start().len() == kind_col)
    );
}

#[test]
fn colour_follows_the_flag_and_the_environment() {
    let run = |args: &[&str], env: &[(&str, &str)]| {
        let mut all = vec!["run", "naive-gc-pause"];
        all.extend_from_slice(args);
        stdout(&lockstep_env(&all, env))
    };
    // Not a terminal: no colour unless asked for.
    assert!(!run(&[], &[]).contains(ESC));
    let always = run(&["--color", "always"], &[]);
    // The verdict is red when something was paid twice.
    assert!(always.contains("\u{1b}[31mdouble-write"), "{always}");
    // `--color` goes anywhere on the line.
    assert!(stdout(&lockstep(&["--color", "always", "list"])).contains(ESC));
    assert!(!run(&["--color", "never"], &[("CLICOLOR_FORCE", "1")]).contains(ESC));
    // CLICOLOR_FORCE asks for colour in a pipe; NO_COLOR wins over it; the flag wins over both.
    assert!(run(&[], &[("CLICOLOR_FORCE", "1")]).contains(ESC));
    assert!(!run(&[], &[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")]).contains(ESC));
    assert!(run(&["--color", "always"], &[("NO_COLOR", "1")]).contains(ESC));
    // Colour changes no character of the text.
    let plain: String = strip(&always);
    assert_eq!(plain, run(&[], &[]));
    // Errors go to stderr, coloured the same way.
    let o = lockstep(&["--color", "always", "run", "nope"]);
    assert!(common::stderr(&o).contains(ESC));
}

/// The text without its ANSI escape sequences.
fn strip(s: &str) -> String {
    let mut out = String::new();
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c == ESC {
            for c in chars.by_ref() {
                if c.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

#[test]
fn a_retrying_worker_folds_into_one_line_with_a_count() {
    let dir = scratch("retry");
    let path = write(&dir, "retry.toml", &retrying_scenario());
    // Wide, so that no sentence is split across lines.
    let wide = [("COLUMNS", "200")];
    let text = stdout(&lockstep_env(&["run", &path], &wide));
    let refusals = text
        .lines()
        .filter(|l| l.ends_with("(nil): key exists"))
        .count();
    assert_eq!(
        refusals, 2,
        "the first round only (its send and delivery):\n{text}"
    );
    let fold = text
        .lines()
        .find(|l| l.contains("more times"))
        .expect("a fold line");
    assert_eq!(
        fold.trim(),
        "… the same 4 events 34 more times (steps 15–150, 1602–4970 ms)"
    );
    // The explanation of the refusal is printed once.
    assert_eq!(text.matches("so NX refuses B").count(), 1);
    // The step after the fold keeps its number.
    assert!(
        text.lines()
            .any(|l| l.trim_start().starts_with("151 ") && l.contains("expired"))
    );

    let all = stdout(&lockstep_env(&["run", &path, "--no-fold"], &wide));
    assert_eq!(
        all.lines()
            .filter(|l| l.ends_with("(nil): key exists"))
            .count(),
        70
    );
    assert!(!all.contains("more times"));
    assert_eq!(all.matches("so NX refuses B").count(), 35);
}

#[test]
fn help_follows_the_colour_flag_too() {
    assert!(stdout(&lockstep(&["--color", "always", "--help"])).contains(ESC));
    assert!(stdout(&lockstep(&["run", "--help", "--color=always"])).contains(ESC));
    let forced = [("CLICOLOR_FORCE", "1")];
    assert!(stdout(&lockstep_env(&["--help"], &forced)).contains(ESC));
    assert!(!stdout(&lockstep_env(&["--color", "never", "--help"], &forced)).contains(ESC));
    // A usage error on stderr, too.
    let o = lockstep_env(&["--color", "never", "run"], &forced);
    assert_eq!(o.status.code(), Some(2));
    assert!(!common::stderr(&o).contains(ESC) && common::stderr(&o).contains("SCENARIO"));
}
