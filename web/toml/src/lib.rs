//! The web app's TOML module: parses an uploaded, pasted or linked scenario file, and writes a
//! counterexample the search found as one. It is a wasm module of its own so that the page's main
//! module carries no TOML parser or writer; the page fetches it only when it needs it
//! (web/src/own.rs reads its replies).
//!
//! Each function answers with one JSON object: `{"toml": …, "scenario": …}` (the file and the
//! scenario it parsed to), `{"error": {"file", "line", "column", "field", "message"}}` (a located
//! error, as `lockstep run` prints it) or `{"failure": "…"}` (anything else).

use lockstep_core::Scenario;
use lockstep_core::scenario::ScenarioError;
use serde::Serialize;

#[derive(Serialize)]
#[serde(rename_all = "lowercase")]
enum Reply<'a> {
    Read {
        toml: &'a str,
        scenario: &'a Scenario,
        /// What is legal but odd in it, located, as `lockstep` prints it.
        warnings: Vec<String>,
        /// Where the fields a run can report as never applied are (path, line, column).
        places: Vec<(String, usize, usize)>,
    },
    Error(Located<'a>),
    Failure(String),
}

/// A [`ScenarioError`] as JSON (it has no `Serialize` of its own).
#[derive(Serialize)]
struct Located<'a> {
    file: &'a str,
    line: usize,
    column: usize,
    field: &'a str,
    message: &'a str,
}

fn answer(reply: &Reply<'_>) -> String {
    serde_json::to_string(reply).unwrap_or_else(|e| {
        // Only a scenario serde cannot write as JSON gets here (none can: tested below).
        format!(
            r#"{{"failure":{:?}}}"#,
            format!("cannot write the reply: {e}")
        )
    })
}

fn parsed(file: &str, toml: &str, result: Result<Scenario, ScenarioError>) -> String {
    match result {
        Ok(scenario) => answer(&Reply::Read {
            toml,
            scenario: &scenario,
            warnings: lockstep_core::scenario::warnings(file, toml, &scenario)
                .iter()
                .map(ToString::to_string)
                .collect(),
            places: lockstep_core::scenario::unapplied_places(toml, &scenario),
        }),
        Err(e) => answer(&Reply::Error(Located {
            file: &e.file,
            line: e.line,
            column: e.column,
            field: &e.field,
            message: &e.message,
        })),
    }
}

/// Parses and validates the scenario file `file` (its name, for error messages) with text `toml`.
pub fn read(file: &str, toml: &str) -> String {
    parsed(
        file,
        toml,
        lockstep_core::parse_scenario(file, toml.as_bytes()),
    )
}

/// Writes the counterexample scenario `scenario_json` (JSON of a `Scenario`, from
/// `counterexample_scenario`) of the scenario named `original` as the file `file`, then reads it
/// back as an upload is read (so what the page shows is what the file says).
pub fn counterexample(original: &str, file: &str, scenario_json: &str) -> String {
    let scenario: Scenario = match serde_json::from_str(scenario_json) {
        Ok(s) => s,
        Err(e) => return answer(&Reply::Failure(format!("cannot read the scenario: {e}"))),
    };
    match lockstep_explore::search::counterexample_text(original, &scenario) {
        Ok(toml) => parsed(
            file,
            &toml,
            lockstep_core::parse_scenario(file, toml.as_bytes()),
        ),
        Err(e) => answer(&Reply::Failure(e)),
    }
}

#[cfg(target_arch = "wasm32")]
mod exports {
    use wasm_bindgen::prelude::*;

    /// See [`crate::read`].
    #[wasm_bindgen]
    pub fn read(file: &str, toml: &str) -> String {
        crate::read(file, toml)
    }

    /// See [`crate::counterexample`].
    #[wasm_bindgen]
    pub fn counterexample(original: &str, file: &str, scenario_json: &str) -> String {
        crate::counterexample(original, file, scenario_json)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_good_file_comes_back_with_its_scenario_and_a_bad_one_with_where_and_what() {
        let text = lockstep_core::catalogue::source("fenced-gc-pause").unwrap();
        let reply: serde_json::Value = serde_json::from_str(&read("a.toml", text)).unwrap();
        assert_eq!(reply["read"]["toml"], text);
        assert_eq!(reply["read"]["scenario"]["name"], "fenced-gc-pause");
        let reply: serde_json::Value =
            serde_json::from_str(&read("mine.toml", "name = \"x\"\ntitle = 3\n")).unwrap();
        assert_eq!(reply["error"]["file"], "mine.toml");
        assert_eq!(reply["error"]["line"], 2);
        assert_eq!(reply["error"]["field"], "title");
    }

    #[test]
    fn a_counterexample_is_written_as_toml_and_read_back() {
        let s = lockstep_core::catalogue::load("naive-gc-pause")
            .unwrap()
            .unwrap();
        let json = serde_json::to_string(&s).unwrap();
        let reply: serde_json::Value =
            serde_json::from_str(&counterexample("naive", "c.toml", &json)).unwrap();
        let toml = reply["read"]["toml"].as_str().unwrap();
        assert!(toml.starts_with("# A counterexample found by `lockstep explore naive`"));
        assert_eq!(reply["read"]["scenario"]["name"], s.name.as_str());
        let reply: serde_json::Value =
            serde_json::from_str(&counterexample("naive", "c.toml", "{")).unwrap();
        assert!(reply["failure"].as_str().unwrap().contains("cannot read"));
    }
}
