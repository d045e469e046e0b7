//! Prints the JSON trace document of every built-in scenario, one per line. Built for
//! wasm32-wasip1 and run under Node's WASI by tests/wasm_determinism.rs, which compares the output
//! with a native run.

fn main() {
    print!("{}", lockstep_tests::all_traces_json());
}
