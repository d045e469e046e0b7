//! `lockstep explore` driven as a user would: a sweep with its map, a search with its
//! counterexample file that `lockstep run` opens, and the messages for bad input.

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

fn temp_dir() -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("lockstep-explore-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

#[test]
fn a_sweep_counts_outcomes_names_double_writes_and_draws_the_map() {
    let map = temp_dir().join("map.svg");
    let o = lockstep(&[
        "explore",
        "naive-gc-pause",
        "--vary",
        "pause=1s..12s/1s",
        "--vary",
        "ttl=2s..8s/2s",
        "--map",
        map.to_str().unwrap(),
    ]);
    let text = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "a double write exits 1: {text}");
    assert!(text.contains("48 runs (12 x 4)"), "{text}");
    assert!(text.contains("outcomes: safe "), "{text}");
    assert!(
        text.contains("double-writing combinations:\n  pause=6s ttl=2s..6s"),
        "{text}"
    );
    let svg = std::fs::read_to_string(&map).expect("map written");
    let doc = roxmltree::Document::parse(&svg).expect("well-formed SVG");
    let texts: Vec<&str> = doc.descendants().filter_map(|n| n.text()).collect();
    assert!(
        texts.iter().any(|t| t.contains("pause length (pause)")),
        "{texts:?}"
    );
    assert!(
        texts.iter().any(|t| t.contains("double-write: ")),
        "{texts:?}"
    );
    assert!(
        texts.iter().any(|t| t.contains("pause=10s ttl=5s")),
        "{texts:?}"
    );
}

#[test]
fn a_search_finds_shrinks_and_writes_a_counterexample_that_run_opens() {
    let cex = temp_dir().join("cex.toml");
    let o = lockstep(&["explore", "naive-happy-path", "-o", cex.to_str().unwrap()]);
    let text = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{text}{}", stderr(&o));
    assert!(text.contains("bounds:\n  at most 2 fault(s)"), "{text}");
    assert!(text.contains("workers A, B"), "{text}");
    assert!(
        text.contains("distinct states (") && text.contains("simulator steps, replays included"),
        "{text}"
    );
    assert!(text.contains("double write with 1 fault(s)"), "{text}");
    assert!(text.contains("shrunk"), "{text}");
    let file = std::fs::read_to_string(&cex).expect("written");
    assert!(file.contains("# fault 1: pause A for"), "{file}");
    let run = lockstep(&["run", cex.to_str().unwrap(), "--brief"]);
    assert!(run.status.success(), "{}", stderr(&run));
    assert!(stdout(&run).contains("double-write"), "{}", stdout(&run));
}

#[test]
fn a_delivery_order_alone_is_found_written_as_an_order_entry_and_replayed_by_run() {
    let dir = temp_dir();
    let cex = dir.join("order-cex.toml");
    let scenario = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../lockstep-explore/tests/scenarios/same-instant-writes.toml"
    );
    // In the order the messages were sent, the file is safe.
    let plain = lockstep(&["run", scenario, "--brief"]);
    assert!(
        stdout(&plain).contains("verdict: safe"),
        "{}",
        stdout(&plain)
    );
    let o = lockstep(&["explore", scenario, "-o", cex.to_str().unwrap()]);
    let text = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{text}{}", stderr(&o));
    assert!(
        text.contains("delivery order: up to 1 time(s) per schedule"),
        "{text}"
    );
    assert!(text.contains("double write with 0 fault(s)"), "{text}");
    assert!(
        text.contains("at 3005ms, db handles \"write 3 payouts token=33\" from A first"),
        "{text}"
    );
    let file = std::fs::read_to_string(&cex).expect("written");
    assert!(file.contains("# order 1: "), "{file}");
    assert!(
        file.contains("[[order]]\nat_ms = 3005\nto = \"db\"\nfrom = \"A\""),
        "{file}"
    );
    assert!(!file.contains("[[faults]]"), "{file}");
    let run = lockstep(&["run", cex.to_str().unwrap(), "--brief"]);
    assert!(run.status.success(), "{}", stderr(&run));
    assert!(
        stdout(&run).contains("verdict: double-write (as expected)"),
        "{}",
        stdout(&run)
    );
    assert!(
        stderr(&run).is_empty(),
        "every entry applies: {}",
        stderr(&run)
    );
    // With the order search off, nothing breaks it without a fault.
    let off = lockstep(&["explore", scenario, "--reorders", "0", "--max-faults", "0"]);
    assert_eq!(off.status.code(), Some(0), "{}", stdout(&off));
}

#[test]
fn a_search_within_bounds_can_prove_nothing_breaks() {
    let o = lockstep(&[
        "explore",
        "fenced-every-access",
        "--faults",
        "pause",
        "--max-faults",
        "1",
    ]);
    assert_eq!(o.status.code(), Some(0));
    assert!(
        stdout(&o).contains("no double write within these bounds"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn bad_input_gets_a_clear_message_and_exit_2() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["explore", "naive-gc-pause", "--vary", "pause=1s..2s"],
            "has no step",
        ),
        (
            &["explore", "naive-gc-pause", "--vary", "pause=3s..1s/1s"],
            "runs backwards",
        ),
        (
            &["explore", "naive-gc-pause", "--vary", "nap=1s..2s/1s"],
            "unknown parameter `nap`",
        ),
        (
            &["explore", "naive-happy-path", "--vary", "pause=1s..2s/1s"],
            "has no pause fault",
        ),
        (
            &[
                "explore",
                "naive-gc-pause",
                "--vary",
                "ttl=1s..2s/1s",
                "--map",
                "x.svg",
            ],
            "two parameters",
        ),
        (
            &["explore", "naive-gc-pause", "--map", "x.svg"],
            "--map draws a sweep",
        ),
        (
            &["explore", "naive-gc-pause", "--faults", "pause,nap"],
            "unknown fault kind `nap`",
        ),
        (
            &["explore", "naive-gc-pause", "--step", "0ms"],
            "step must be greater than 0",
        ),
        (
            &["explore", "naive-gc-pause", "--pauses", "5"],
            "has no unit",
        ),
        (
            &[
                "explore",
                "naive-happy-path",
                "-o",
                "/nonexistent-lockstep-dir/x.toml",
            ],
            "the directory /nonexistent-lockstep-dir does not exist",
        ),
        (
            &["explore", "no-such-scenario"],
            "neither a built-in scenario nor a file",
        ),
    ];
    for (args, message) in cases {
        let o = lockstep(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stdout(&o));
        assert!(stderr(&o).contains(message), "{args:?}: {}", stderr(&o));
    }
}

#[test]
fn a_search_stopped_by_its_state_limit_is_inconclusive_exit_3_and_states_the_limit() {
    let o = lockstep(&["explore", "fenced-every-access", "--max-states", "100"]);
    let text = stdout(&o);
    assert_eq!(o.status.code(), Some(3), "{text}");
    assert!(text.contains("state limit: 100 distinct states"), "{text}");
    assert!(
        text.contains("inconclusive: stopped at the state limit"),
        "{text}"
    );
    // The default limit is in the bounds too.
    let o = lockstep(&[
        "explore",
        "fenced-every-access",
        "--faults",
        "pause",
        "--max-faults",
        "1",
    ]);
    assert!(
        stdout(&o).contains("state limit: 20000000 distinct states;"),
        "{}",
        stdout(&o)
    );
}

/// Runs lockstep with its stdout a pipe that is closed before it writes anything.
fn with_closed_stdout(args: &[&str]) -> Option<i32> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_lockstep"))
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("the binary runs");
    drop(child.stdout.take());
    child.wait().expect("it ends").code()
}

#[test]
fn a_closed_output_pipe_keeps_the_exit_status_of_the_result() {
    assert_eq!(
        with_closed_stdout(&["explore", "naive-happy-path"]),
        Some(1)
    );
    assert_eq!(
        with_closed_stdout(&["explore", "naive-gc-pause", "--vary", "pause=1s..8s/1s"]),
        Some(1)
    );
    assert_eq!(
        with_closed_stdout(&["explore", "fenced-every-access", "--max-states", "100"]),
        Some(3)
    );
}

#[test]
fn requested_fault_kinds_that_cannot_apply_are_named_with_how_to_enable_them() {
    let o = lockstep(&[
        "explore",
        "fenced-every-access",
        "--faults",
        "pause,failover",
        "--max-faults",
        "1",
    ]);
    let err = stderr(&o);
    assert!(
        err.contains("--faults failover left out: the scenario has no lagging replica; set lock.replica_lag_ms"),
        "{err}"
    );
    let o = lockstep(&[
        "explore",
        "consensus-fenced-failover",
        "--faults",
        "clock-jump",
        "--max-faults",
        "1",
    ]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "nothing left to search: {err}");
    assert!(
        err.contains("none of the fault kinds given to --faults can hit"),
        "{err}"
    );
    assert!(err.contains("--faults clock-jump left out: "), "{err}");
    assert!(err.contains("\"consensus\""), "{err}");
}

#[test]
fn the_scenarios_own_faults_and_orders_set_aside_are_named_and_unsearched_kinds_stated() {
    let o = lockstep(&["explore", "consensus-isolated-leader", "--max-faults", "1"]);
    let err = stderr(&o);
    assert!(
        err.contains("the scenario's own partition at ")
            && err.contains(
                "is set aside: the search picks its own faults (and it never partitions the network, delays or drops a message itself)"
            ),
        "{err}"
    );
    assert!(
        stdout(&o).contains("not searched: partitions, message delays and drops"),
        "{}",
        stdout(&o)
    );
    let scenario = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../lockstep-explore/tests/scenarios/same-instant-writes.toml"
    );
    let text = std::fs::read_to_string(scenario).expect("test scenario");
    let with_order = temp_dir().join("with-order.toml");
    std::fs::write(
        &with_order,
        format!("{text}\n[[order]]\nat_ms = 3005\nto = \"db\"\nfrom = \"A\"\n"),
    )
    .expect("written");
    let o = lockstep(&["explore", with_order.to_str().unwrap(), "--max-faults", "0"]);
    assert!(
        stderr(&o).contains("[[order]] entry at 3005ms (to db) is set aside"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_sweep_refuses_search_only_options() {
    for flag in [
        &["--faults", "bogus"][..],
        &["--max-faults", "3"],
        &["--reorders", "5"],
        &["--max-states", "10"],
    ] {
        let mut args = vec!["explore", "naive-gc-pause", "--vary", "pause=1s..2s/1s"];
        args.extend_from_slice(flag);
        let o = lockstep(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stdout(&o));
        assert!(
            stderr(&o).contains(&format!("{} only apply to a search", flag[0])),
            "{args:?}: {}",
            stderr(&o)
        );
    }
}

#[test]
fn the_help_describes_the_command_its_defaults_and_exit_statuses() {
    let top = stdout(&lockstep(&["--help"]));
    let line = top
        .lines()
        .find(|l| l.trim_start().starts_with("explore"))
        .expect("an explore line");
    assert!(line.contains("Search for fault schedules"), "{line}");
    let help = stdout(&lockstep(&["explore", "--help"]));
    // The help wraps to the terminal's width: compare with single spaces.
    let flat = help.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        help.starts_with("Search for fault schedules that make a payout apply twice"),
        "{help}"
    );
    use lockstep_explore::search::{DEFAULT_MAX_FAULTS, DEFAULT_MAX_STATES, DEFAULT_REORDERS};
    // The defaults the help states are the library's.
    for (flag, default) in [
        ("--max-faults", DEFAULT_MAX_FAULTS as u64),
        ("--reorders", DEFAULT_REORDERS as u64),
        ("--max-states", DEFAULT_MAX_STATES),
    ] {
        let entry = &flat[flat.find(&format!("{flag} <N>")).expect(flag)..];
        let end = entry[2..].find(" --").map_or(entry.len(), |i| i + 2);
        assert!(
            entry[..end].contains(&format!("[default: {default}]")),
            "{flag}: {}",
            &entry[..end]
        );
    }
    for expected in [
        "[default: every kind that applies",
        "[default: ½, 1 and 2 × the lock's TTL]",
        "[default: the end of the fault-free run]",
        "rounded up to 50ms]",
        "3 inconclusive",
        "1 a double write found",
    ] {
        assert!(flat.contains(expected), "{expected}: {help}");
    }
}

#[test]
fn a_step_longer_than_the_window_is_warned_about() {
    let o = lockstep(&[
        "explore",
        "naive-happy-path",
        "--step",
        "10s",
        "--until",
        "5s",
    ]);
    assert!(
        stderr(&o).contains("warning: the step 10s is longer than the window 0ms..5s"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_double_write_in_a_built_in_that_expects_safe_says_so() {
    let o = lockstep(&["explore", "fenced-gc-pause"]);
    assert_eq!(o.status.code(), Some(1));
    let text = stdout(&o);
    assert!(
        text.contains(
            "note: fenced-gc-pause expects safe, which holds only for its own faults and timing"
        ),
        "{text}"
    );
    assert!(text.contains("its fencing checks writes only"), "{text}");
}

#[test]
fn a_search_that_finds_nothing_says_it_wrote_no_file() {
    let path = temp_dir().join("never.toml");
    let o = lockstep(&[
        "explore",
        "fenced-every-access",
        "--faults",
        "pause",
        "--max-faults",
        "1",
        "-o",
        path.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0));
    assert!(
        stderr(&o).contains("no counterexample, so nothing was written to"),
        "{}",
        stderr(&o)
    );
    assert!(!path.exists());
}
