//! Asks the TOML module (web/toml, loaded by main.js's `lockstepToml` on first use) to read a
//! scenario file or write a counterexample, then hands the result to the app as a [`Source`].
//! Reading takes a moment (the module is fetched on first use): a run chosen meanwhile (a pick, a
//! newer link, another file) wins, and the late file is dropped.

use std::cell::Cell;

use lockstep_core::Scenario;
use wasm_bindgen::prelude::*;

use crate::own::source_from_reply;
use crate::viewer::{OpenError, Source};

#[wasm_bindgen]
extern "C" {
    /// main.js: loads lockstep_toml.js and its wasm once, then calls its function `call`.
    #[wasm_bindgen(catch, js_name = lockstepToml)]
    fn lockstep_toml(call: &str, a: &str, b: &str, c: &str) -> Result<js_sys::Promise, JsValue>;
}

async fn ask(call: &str, args: [&str; 3]) -> Result<String, OpenError> {
    let why = |e: JsValue| {
        OpenError::TomlModule(format!(
            "the page could not load its TOML reader ({})",
            e.as_string()
                .or_else(|| js_sys::Error::from(e).to_string().as_string())
                .unwrap_or_default()
        ))
    };
    let promise = lockstep_toml(call, args[0], args[1], args[2]).map_err(why)?;
    let answer = wasm_bindgen_futures::JsFuture::from(promise)
        .await
        .map_err(why)?;
    answer
        .as_string()
        .ok_or_else(|| OpenError::TomlModule("the TOML reader answered no text".into()))
}

thread_local! {
    /// The number of the latest choice of a run to show.
    static LATEST: Cell<u64> = const { Cell::new(0) };
}

/// Notes that the user chose a run to show (a pick, a link, a file): any file still being read
/// for an earlier choice is dropped when it arrives. Returns the choice's number.
pub fn new_choice() -> u64 {
    LATEST.with(|c| {
        c.set(c.get() + 1);
        c.get()
    })
}

fn still_latest(choice: u64) -> bool {
    LATEST.with(|c| c.get() == choice)
}

/// Reads the scenario file `file` with text `toml`, then calls `then` with it, unless another run
/// was chosen meanwhile.
pub fn read(file: String, toml: String, then: impl FnOnce(Result<Source, OpenError>) + 'static) {
    let choice = new_choice();
    wasm_bindgen_futures::spawn_local(async move {
        let reply = ask("read", [&file, &toml, ""]).await;
        if still_latest(choice) {
            then(reply.and_then(|r| source_from_reply(&file, &r)));
        }
    });
}

/// Writes `scenario` (a counterexample to the scenario named `original`) as the file `file` and
/// reads it back, then calls `then` with it.
pub fn counterexample(
    original: String,
    file: String,
    scenario: &Scenario,
    then: impl FnOnce(Result<Source, OpenError>) + 'static,
) {
    let choice = new_choice();
    let json = serde_json::to_string(scenario)
        .map_err(|e| OpenError::TomlModule(format!("cannot pass the scenario on: {e}")));
    wasm_bindgen_futures::spawn_local(async move {
        let reply = match json {
            Ok(json) => ask("counterexample", [&original, &file, &json]).await,
            Err(e) => Err(e),
        };
        if still_latest(choice) {
            then(reply.and_then(|r| source_from_reply(&file, &r)));
        }
    });
}
