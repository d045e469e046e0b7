//! Running the `lockstep` binary as a user would, in a known environment.

#![allow(dead_code)] // each test file uses its own subset

use std::path::PathBuf;
use std::process::{Command, Output};

/// The binary with none of the variables that change its output (width, colour) set.
pub fn command(args: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_lockstep"));
    cmd.args(args);
    for var in ["COLUMNS", "NO_COLOR", "CLICOLOR", "CLICOLOR_FORCE"] {
        cmd.env_remove(var);
    }
    cmd
}

pub fn lockstep(args: &[&str]) -> Output {
    command(args).output().expect("the binary runs")
}

pub fn lockstep_env(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut cmd = command(args);
    cmd.envs(env.iter().copied());
    cmd.output().expect("the binary runs")
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("UTF-8 output")
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).expect("UTF-8 output")
}

/// A fresh folder for one test's files.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("lockstep-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp folder");
    dir
}

/// Writes `text` to `dir/name` and returns the path as a string.
pub fn write(dir: &std::path::Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write temp file");
    path.to_str().expect("utf-8 path").to_string()
}

/// The TOML source of a built-in scenario.
pub fn builtin_source(id: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../assets/scenarios")
        .join(format!("{id}.toml"));
    std::fs::read_to_string(path).expect("built-in source")
}

/// The ids `lockstep list` prints (lines that do not start with a space).
pub fn builtin_ids() -> Vec<String> {
    stdout(&lockstep(&["list"]))
        .lines()
        .filter(|l| !l.starts_with(' '))
        .filter_map(|l| l.split_whitespace().next())
        .map(String::from)
        .collect()
}

/// A scenario with a lock held for 5 s while a second worker retries every 100 ms.
pub fn retrying_scenario() -> String {
    builtin_source("naive-gc-pause").replace("start_ms = 6000", "start_ms = 1500")
}

/// A line's width as a terminal shows it.
pub fn columns(line: &str) -> usize {
    line.chars().count()
}
