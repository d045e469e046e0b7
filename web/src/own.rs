//! A user's own scenario file in the browser: the replies of the TOML module (web/toml, a second
//! wasm module the page loads only when it needs it) read back into a [`Source`], so that the
//! page's main module carries no TOML parser. Browser-free, so it is tested natively.

use std::rc::Rc;

use lockstep_core::Scenario;
use lockstep_core::scenario::ScenarioError;
use serde::Deserialize;

use crate::viewer::{OpenError, Source};

/// What the TOML module answers (see web/toml/src/lib.rs).
#[derive(Deserialize)]
#[serde(rename_all = "lowercase")]
enum Reply {
    Read {
        toml: String,
        scenario: Box<Scenario>,
    },
    Error(Located),
    Failure(String),
}

#[derive(Deserialize)]
struct Located {
    file: String,
    line: usize,
    column: usize,
    field: String,
    message: String,
}

/// The source a reply of the TOML module describes, for the file named `file`: the scenario it
/// parsed to, or where and what is wrong with it.
pub fn source_from_reply(file: &str, reply: &str) -> Result<Source, OpenError> {
    let reply: Reply = serde_json::from_str(reply)
        .map_err(|e| OpenError::TomlModule(format!("its answer is unreadable: {e}")))?;
    match reply {
        Reply::Read { toml, scenario } => Ok(Source::Own {
            file: file.to_string(),
            toml,
            scenario: Rc::new(*scenario),
        }),
        Reply::Error(l) => Err(OpenError::Scenario(ScenarioError {
            file: l.file,
            line: l.line,
            column: l.column,
            field: l.field,
            message: l.message,
        })),
        Reply::Failure(why) => Err(OpenError::TomlModule(why)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_read_file_opens_as_the_scenario_the_native_parser_gives() {
        let text = lockstep_core::catalogue::source("naive-gc-pause").unwrap();
        let reply = lockstep_toml::read("mine.toml", text);
        let source = source_from_reply("mine.toml", &reply).unwrap();
        assert_eq!(source, Source::own("mine.toml", text).unwrap());
    }

    #[test]
    fn a_bad_file_keeps_its_file_line_column_and_field() {
        let bad = "name = \"x\"\ntitle = 3\n";
        let reply = lockstep_toml::read("mine.toml", bad);
        let e = source_from_reply("mine.toml", &reply).unwrap_err();
        let native = Source::own("mine.toml", bad).unwrap_err();
        assert_eq!(e, OpenError::Scenario(native));
        assert!(e.to_string().starts_with("mine.toml:2:"), "{e}");
    }

    #[test]
    fn a_counterexample_reads_back_as_written() {
        let s = crate::catalogue::load("naive-gc-pause").unwrap();
        let json = serde_json::to_string(&s).unwrap();
        let reply = lockstep_toml::counterexample("naive-gc-pause", "c.toml", &json);
        let Source::Own { toml, scenario, .. } = source_from_reply("c.toml", &reply).unwrap()
        else {
            panic!("an own source");
        };
        assert_eq!(*scenario, s);
        assert!(toml.contains("lockstep explore naive-gc-pause"));
    }

    #[test]
    fn an_unreadable_answer_or_a_failure_says_so() {
        let e = source_from_reply("x.toml", "{").unwrap_err();
        assert!(e.to_string().contains("unreadable"), "{e}");
        let e = source_from_reply("x.toml", r#"{"failure":"boom"}"#).unwrap_err();
        assert!(e.to_string().contains("boom"), "{e}");
    }
}
