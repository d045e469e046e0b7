//! Converts the built-in scenarios (lockstep-core's catalogue, TOML) to JSON at build time, so
//! the browser's main module needs no TOML parser (web/src/catalogue.rs reads the result).

use std::fmt::Write as _;
use std::path::PathBuf;

fn main() {
    println!("cargo::rerun-if-changed=../assets/scenarios");
    let mut out = String::from(
        "/// Every built-in scenario as (id, JSON of its parsed `Scenario`), in teaching order.\n",
    );
    out.push_str("pub const BUILTIN: &[(&str, &str)] = &[\n");
    for (id, text) in lockstep_core::catalogue::BUILTIN {
        // The catalogue's own tests keep every built-in valid; a broken one stops the build here
        // with its located error.
        let scenario =
            lockstep_core::parse_scenario(&format!("assets/scenarios/{id}.toml"), text.as_bytes())
                .unwrap_or_else(|e| panic!("{e}"));
        let json = serde_json::to_string(&scenario).unwrap_or_else(|e| panic!("{id}: {e}"));
        let _ = writeln!(out, "    ({id:?}, {json:?}),");
    }
    out.push_str("];\n");
    let dir = PathBuf::from(std::env::var_os("OUT_DIR").unwrap_or_default());
    std::fs::write(dir.join("catalogue.rs"), out)
        .unwrap_or_else(|e| panic!("cannot write the catalogue to {}: {e}", dir.display()));
}
