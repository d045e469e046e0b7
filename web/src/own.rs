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
        #[serde(default)]
        warnings: Vec<String>,
        #[serde(default)]
        places: Vec<(String, usize, usize)>,
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
        Reply::Read {
            toml,
            scenario,
            warnings,
            places,
        } => Ok(Source::Own {
            file: file.to_string(),
            toml,
            scenario: Rc::new(*scenario),
            warnings,
            places,
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

/// The name a pasted scenario's errors give it (`pasted.toml:9:10: …`).
pub const PASTED: &str = "pasted.toml";

/// The line (from 1) an error in the pasted text names.
pub fn pasted_line(error: &str) -> Option<usize> {
    let rest = error.strip_prefix(PASTED)?.strip_prefix(':')?;
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok().filter(|&n| n > 0)
}

/// Where line `line` (from 1) of `text` starts and ends, in UTF-16 code units (as a textarea's
/// selection counts).
pub fn line_range(text: &str, line: usize) -> Option<(u32, u32)> {
    let mut start = 0usize;
    for (i, l) in text.split('\n').enumerate() {
        let len = l.encode_utf16().count();
        if i + 1 == line {
            return Some((start as u32, (start + len) as u32));
        }
        start += len + 1;
    }
    None
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

#[cfg(test)]
mod line_tests {
    use super::*;

    #[test]
    fn an_error_in_the_pasted_text_names_its_line() {
        assert_eq!(
            pasted_line("pasted.toml:9:10: (syntax): string values must be quoted"),
            Some(9)
        );
        assert_eq!(pasted_line("mine.toml:9:10: (syntax): …"), None);
        assert_eq!(pasted_line("pasted.toml: unreadable"), None);
    }

    #[test]
    fn a_line_is_found_in_utf16_units() {
        let text = "a = 1\nname = \"é\"\nx";
        assert_eq!(line_range(text, 1), Some((0, 5)));
        assert_eq!(line_range(text, 2), Some((6, 16)));
        assert_eq!(line_range(text, 3), Some((17, 18)));
        assert_eq!(line_range(text, 4), None);
    }
}
