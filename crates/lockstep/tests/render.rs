//! `lockstep render` and `lockstep run --format svg|mermaid`, run as a process.

use std::path::PathBuf;
use std::process::{Command, Output};

fn lockstep(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_lockstep"))
        .args(args)
        .output()
        .expect("the lockstep binary runs")
}

/// A fresh folder for this test's files.
fn scratch(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("lockstep-render-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp folder");
    dir
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn render_writes_a_parseable_svg() {
    let dir = scratch("svg");
    let out = dir.join("x.svg");
    let o = lockstep(&[
        "render",
        "fenced-gc-pause",
        "-o",
        out.to_str().expect("utf-8 path"),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let svg = std::fs::read_to_string(&out).expect("the file was written");
    let doc = roxmltree::Document::parse(&svg).expect("the SVG parses");
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    assert!(svg.contains("Fencing tokens stop the stale write"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn render_options_draw_different_pictures() {
    let dir = scratch("options");
    let path = |n: &str| dir.join(n).to_str().expect("utf-8 path").to_string();
    let runs: [(&str, &[&str]); 4] = [
        ("plain.svg", &[]),
        ("scale.svg", &["--to-scale"]),
        ("step.svg", &["--step", "10"]),
        ("lease.svg", &["--chart", "lease"]),
    ];
    let mut seen = Vec::new();
    for (name, extra) in runs {
        let p = path(name);
        let mut args = vec!["render", "naive-gc-pause", "-o", p.as_str()];
        args.extend_from_slice(extra);
        let o = lockstep(&args);
        assert!(o.status.success(), "{name}: {}", stderr(&o));
        let svg = std::fs::read_to_string(&p).expect("written");
        roxmltree::Document::parse(&svg).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(
            !seen.contains(&svg),
            "{name} is the same picture as another"
        );
        seen.push(svg);
    }
    assert!(seen[2].contains("Step 10 of 41"));
    assert!(seen[3].contains("Who holds the lock?"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_step_past_the_end_fails_with_exit_2() {
    let dir = scratch("step");
    let out = dir.join("x.svg");
    let o = lockstep(&[
        "render",
        "fenced-gc-pause",
        "-o",
        out.to_str().expect("utf-8 path"),
        "--step",
        "999999",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.contains("step 999999 is beyond the end of the run"),
        "{err}"
    );
    assert!(!out.exists(), "nothing is written on error");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_unwritable_output_is_a_clear_error() {
    let dir = scratch("io");
    let out = dir.join("missing-folder").join("x.svg");
    let o = lockstep(&[
        "render",
        "fenced-gc-pause",
        "-o",
        out.to_str().expect("utf-8 path"),
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.contains("cannot write") && err.contains("x.svg"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn run_prints_svg_and_mermaid() {
    let o = lockstep(&["run", "naive-gc-pause", "--format", "svg"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let svg = String::from_utf8(o.stdout).expect("utf-8");
    roxmltree::Document::parse(&svg).expect("SVG on stdout");

    let o = lockstep(&["run", "redlock-clock-jump", "--format", "mermaid"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = String::from_utf8(o.stdout).expect("utf-8");
    assert!(text.starts_with("sequenceDiagram\n"));
    assert_eq!(
        text.lines()
            .filter(|l| l.trim_start().starts_with("participant "))
            .count(),
        8
    );
    assert!(text.contains("-xp"), "lost messages use -x");
    assert!(text.contains("Note over"));

    // Replies are dashed (`-->>`), requests solid, and the verdict is the last note.
    let o = lockstep(&["run", "naive-gc-pause", "--format", "mermaid"]);
    let text = String::from_utf8(o.stdout).expect("utf-8");
    let body: Vec<&str> = text.lines().map(str::trim).collect();
    let set = body
        .iter()
        .position(|l| l.contains(": SET lock:batch-42 ") && l.ends_with(" NX PX 5000"))
        .expect("the first SET");
    assert!(
        body[set].contains("->>") && !body[set].contains("-->>"),
        "{}",
        body[set]
    );
    assert!(
        body[set + 1].contains("-->>") && body[set + 1].ends_with(": OK"),
        "{}",
        body[set + 1]
    );
    let last = body.last().expect("lines");
    assert!(
        last.starts_with("Note over ") && last.contains("Verdict (as expected): double-write"),
        "{last}"
    );
    assert!(
        last.contains("A and B both believed they held the lock from 6002 to 8006 ms"),
        "{last}"
    );
}
