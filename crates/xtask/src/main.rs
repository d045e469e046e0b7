//! Build and CI automation: `cargo xtask ci` runs every check CI runs, installing what it needs.

use std::process::{Command, ExitCode};

mod web;

const WASM_TARGET: &str = "wasm32-unknown-unknown";
/// The native-vs-wasm determinism test runs the core under Node's WASI.
const WASI_TARGET: &str = "wasm32-wasip1";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("ci") => ci(),
        Some("wasm") => wasm_target().and_then(|()| build_core_for_wasm()),
        Some("web") => web::main(&args[1..]),
        _ => {
            eprintln!(
                "usage: cargo xtask <command>\n\n  ci     format, lint, test, and build the core for wasm (what CI runs)\n  wasm   build lockstep-core and lockstep-render for {WASM_TARGET}\n  web build | test | [--port P]   build web/dist, run its browser tests, or build and serve it on 127.0.0.1"
            );
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xtask: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Runs a command, echoing it; an error names the command that failed.
fn run(program: &str, args: &[&str]) -> Result<(), String> {
    eprintln!("$ {program} {}", args.join(" "));
    let status = Command::new(program)
        .args(args)
        .status()
        .map_err(|e| format!("cannot start {program}: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("`{program} {}` failed ({status})", args.join(" ")))
    }
}

fn cargo(args: &[&str]) -> Result<(), String> {
    run(
        &std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()),
        args,
    )
}

fn wasm_target() -> Result<(), String> {
    let installed = Command::new("rustup")
        .args(["target", "list", "--installed"])
        .output()
        .map_err(|e| format!("cannot run rustup: {e}"))?;
    let installed = String::from_utf8_lossy(&installed.stdout);
    for target in [WASM_TARGET, WASI_TARGET] {
        if !installed.lines().any(|l| l.trim() == target) {
            run("rustup", &["target", "add", target])?;
        }
    }
    Ok(())
}

fn build_core_for_wasm() -> Result<(), String> {
    // The render crate too: the browser app will draw with it.
    cargo(&[
        "build",
        "-p",
        "lockstep-core",
        "-p",
        "lockstep-render",
        "--target",
        WASM_TARGET,
        "--release",
    ])
}

fn ci() -> Result<(), String> {
    wasm_target()?;
    cargo(&["fmt", "--all", "--check"])?;
    cargo(&[
        "clippy",
        "--workspace",
        "--all-targets",
        "--",
        "-D",
        "warnings",
    ])?;
    cargo(&["test", "--workspace"])?;
    build_core_for_wasm()?;
    // The browser app's UI only compiles for wasm: lint it there.
    cargo(&[
        "clippy",
        "-p",
        "lockstep-web",
        "-p",
        "lockstep-web-toml",
        "--target",
        WASM_TARGET,
        "--",
        "-D",
        "warnings",
    ])?;
    cargo(&["run", "--quiet", "-p", "lockstep", "--", "check"])?;
    web::main(&["test".to_string()])?;
    Ok(())
}
