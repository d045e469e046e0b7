//! The core gives the same trace natively and in wasm: every built-in scenario's JSON document,
//! produced by the same code compiled for wasm32-wasip1 and run under Node, is byte-identical to
//! the native one. (`cargo xtask ci` installs the target; Node ships with the machine image.)

use std::path::PathBuf;
use std::process::Command;

const TARGET: &str = "wasm32-wasip1";

#[test]
fn native_and_wasm_traces_are_byte_identical() {
    let native = lockstep_tests::all_traces_json();
    let target_dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("wasm-determinism");
    let build = Command::new(env!("CARGO"))
        .args([
            "build",
            "--quiet",
            "--release",
            "-p",
            "lockstep-tests",
            "--bin",
            "trace-dump",
            "--target",
            TARGET,
            "--target-dir",
        ])
        .arg(&target_dir)
        .status()
        .expect("cargo runs");
    assert!(
        build.success(),
        "building for {TARGET} failed: is the target installed? (`rustup target add {TARGET}`, which `cargo xtask ci` does)"
    );
    let program = target_dir
        .join(TARGET)
        .join("release")
        .join("trace-dump.wasm");
    let runner = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("wasm")
        .join("run-wasi.mjs");
    let out = Command::new("node")
        .arg("--no-warnings")
        .arg(&runner)
        .arg(&program)
        .output()
        .expect("node runs (it is on the machine image)");
    assert!(
        out.status.success(),
        "the wasm run failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let wasm = String::from_utf8(out.stdout).expect("UTF-8 output");
    assert_eq!(
        wasm.lines().count(),
        lockstep_core::catalogue::ids().count(),
        "one document per built-in"
    );
    for (i, (n, w)) in native.lines().zip(wasm.lines()).enumerate() {
        assert!(n == w, "built-in #{i}: native and wasm traces differ");
    }
    assert_eq!(native, wasm);
}
