//! The conventions of good command-line tools: "did you mean", help that fits, completions and a
//! man page, `-o -`, quiet exit on a closed pipe, options that do not go together, big files.

mod common;

use std::io::Read;
use std::process::Stdio;
use std::time::{Duration, Instant};

use common::{columns, command, lockstep, lockstep_env, scratch, stderr, stdout, write};

#[test]
fn a_misspelt_id_gets_a_suggestion() {
    let o = lockstep(&["run", "fenced-gc-pase"]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("did you mean `fenced-gc-pause`?"), "{err}");
    // A path is not an id: no such file, and the built-in it may have meant.
    let o = lockstep(&["run", "scenarios/naive-gc-pause.toml"]);
    let err = stderr(&o);
    assert!(
        err.contains("scenarios/naive-gc-pause.toml: no such file")
            && err.contains("`naive-gc-pause`"),
        "{err}"
    );
    // Nothing close: just where to look.
    let err = stderr(&lockstep(&["run", "zookeeper"]));
    assert!(
        !err.contains("did you mean") && err.contains("`lockstep list` shows the built-ins"),
        "{err}"
    );
}

#[test]
fn help_lines_fit_100_columns() {
    let mut pages = vec![vec!["--help"], vec!["-h"]];
    for sub in ["list", "run", "check", "render", "completions", "man"] {
        pages.push(vec![sub, "--help"]);
        pages.push(vec!["help", sub]);
    }
    for width in [None, Some("300")] {
        for args in &pages {
            let env: Vec<(&str, &str)> = width.map(|w| ("COLUMNS", w)).into_iter().collect();
            let o = lockstep_env(args, &env);
            assert!(o.status.success(), "{args:?}");
            for line in stdout(&o).lines() {
                assert!(
                    columns(line) <= 100,
                    "{args:?}: {} columns: {line}",
                    columns(line)
                );
            }
        }
    }
}

#[test]
fn completions_for_bash_zsh_and_fish() {
    for (shell, marker) in [
        ("bash", "complete -F"),
        ("zsh", "#compdef lockstep"),
        ("fish", "complete -c lockstep"),
    ] {
        let o = lockstep(&["completions", shell]);
        assert!(o.status.success(), "{shell}");
        let text = stdout(&o);
        assert!(text.contains(marker), "{shell}: {text}");
        assert!(
            text.contains("render") && text.contains("format"),
            "{shell}"
        );
    }
    assert_eq!(lockstep(&["completions", "tcsh"]).status.code(), Some(2));
}

#[test]
fn a_man_page_on_stdout_or_in_a_folder() {
    let o = lockstep(&["man"]);
    assert!(o.status.success());
    let page = stdout(&o);
    assert!(
        page.starts_with(".ie") || page.contains(".TH lockstep 1"),
        "{page}"
    );
    assert!(page.contains(".TH lockstep 1") && page.contains("check"));
    // What --help has no room for: the exit status and the environment.
    for section in [
        ".SH \"EXIT STATUS\"",
        ".SH ENVIRONMENT",
        "NO_COLOR",
        "COLUMNS",
    ] {
        assert!(page.contains(section), "{section} missing from {page}");
    }
    // The folder is made if it is missing, as `man1` folders often are.
    let dir = scratch("man").join("share/man/man1");
    let o = lockstep(&["man", "--dir", dir.to_str().expect("utf-8")]);
    assert!(o.status.success(), "{}", stderr(&o));
    for page in [
        "lockstep.1",
        "lockstep-run.1",
        "lockstep-check.1",
        "lockstep-render.1",
    ] {
        let text =
            std::fs::read_to_string(dir.join(page)).unwrap_or_else(|e| panic!("{page}: {e}"));
        assert!(text.contains(".TH"), "{page}");
    }
    let top = std::fs::read_to_string(dir.join("lockstep.1")).expect("lockstep.1");
    assert!(top.contains(".SH \"EXIT STATUS\""), "{top}");
}

#[test]
fn render_to_dash_writes_the_svg_to_stdout() {
    let dir = scratch("dash");
    let o = command(&["render", "fenced-gc-pause", "-o", "-"])
        .current_dir(&dir)
        .output()
        .expect("runs");
    assert!(o.status.success(), "{}", stderr(&o));
    let svg = stdout(&o);
    assert!(
        svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"),
        "{}",
        &svg[..80.min(svg.len())]
    );
    assert!(!dir.join("-").exists(), "no file named -");
}

/// Reads a little of the output, closes the pipe, and returns how the command ended.
fn close_early(args: &[&str]) -> (Option<i32>, String) {
    let mut child = command(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawns");
    let mut first = [0u8; 64];
    let mut out = child.stdout.take().expect("stdout");
    out.read_exact(&mut first).expect("some output");
    drop(out);
    let o = child.wait_with_output().expect("ends");
    (o.status.code(), stderr(&o))
}

#[test]
fn a_closed_pipe_ends_quietly() {
    // Each prints far more than a pipe holds, so the writes after the reader left fail.
    for args in [
        &["run", "redlock-happy-path", "--format", "svg"][..],
        &["run", "redlock-happy-path", "--format", "json"][..],
        &["run", "redlock-happy-path", "--no-fold"][..],
    ] {
        let (code, err) = close_early(args);
        assert_eq!(code, Some(0), "{args:?}: {err}");
        assert_eq!(err, "", "{args:?}");
    }
    // `lockstep list | head -1`, through a real shell pipe.
    let o = std::process::Command::new("bash")
        .args([
            "-c",
            &format!(
                "set -o pipefail; {} list | head -1",
                env!("CARGO_BIN_EXE_lockstep")
            ),
        ])
        .output()
        .expect("bash runs");
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o).lines().count(), 1);
    assert_eq!(stderr(&o), "");
}

#[test]
fn options_that_change_nothing_say_why() {
    let o = lockstep(&["run", "naive-gc-pause", "--format", "json", "--brief"]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.contains("--brief only shapes the text timeline")
            && err.contains("JSON document always holds every event"),
        "{err}"
    );
    assert_eq!(stdout(&o), "");
    let o = lockstep(&["run", "naive-gc-pause", "--format", "mermaid", "--no-fold"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--no-fold only shapes the text timeline"));

    let dir = scratch("lease");
    let out = dir.join("lease.svg");
    let o = lockstep(&[
        "render",
        "naive-gc-pause",
        "--chart",
        "lease",
        "--to-scale",
        "-o",
        out.to_str().expect("utf-8"),
    ]);
    assert!(o.status.success());
    assert!(stderr(&o).contains("warning: --to-scale changes nothing with --chart lease: the lease chart's time axis is always to scale"), "{}", stderr(&o));
    assert!(out.exists());
}

#[test]
fn a_huge_file_is_refused_by_its_size() {
    let dir = scratch("huge");
    let path = dir.join("huge.toml");
    // 150 MB without writing 150 MB: a sparse file.
    let file = std::fs::File::create(&path).expect("create");
    file.set_len(150 * 1024 * 1024).expect("set_len");
    let arg = path.to_str().expect("utf-8");
    let started = Instant::now();
    let o = lockstep(&["run", arg]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.contains("huge.toml: the file is 150.0 MiB; scenario files may be at most 256 KiB"),
        "{err}"
    );
    assert!(started.elapsed() < Duration::from_secs(5));
    // A file that does not know its size is read no further than the limit.
    let mut child = command(&["run", "/dev/zero"])
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawns");
    let deadline = Instant::now() + Duration::from_secs(20);
    while child.try_wait().expect("wait").is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("reading /dev/zero did not stop at the limit");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let o = child.wait_with_output().expect("ends");
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("larger than 256 KiB"), "{}", stderr(&o));
    // Just under the limit is read and parsed (and fails as TOML, not by size).
    let under = write(&dir, "under.toml", &"#".repeat(256 * 1024));
    let err = stderr(&lockstep(&["run", &under]));
    assert!(!err.contains("at most 256 KiB"), "{err}");
}
