//! Reading a scenario file: bytes -> UTF-8 -> TOML -> [`Scenario`] -> validated, with every error
//! pointing at a file, line, column and field.

use std::ops::Range;

use toml::de::{DeTable, DeValue};

use super::Scenario;
use super::validate::{PathSeg, validate};

/// Files larger than this are refused before parsing (no catalogue scenario is over 8 KiB).
pub const MAX_FILE_BYTES: usize = 256 * 1024;

/// A scenario file that cannot be used, and exactly where and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}:{column}: {field}: {message}")]
pub struct ScenarioError {
    /// The file name as given by the caller (or `<built-in>/<id>.toml`).
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
    /// The dotted path of the field (`faults[2].target`), or `(syntax)` / `(file)`.
    pub field: String,
    /// What is wrong and what is allowed.
    pub message: String,
}

/// An error at byte `offset` of `text`.
fn located(file: &str, text: &str, offset: usize, field: String, message: String) -> ScenarioError {
    let (line, column) = line_column(text, offset);
    ScenarioError {
        file: file.to_string(),
        line,
        column,
        field,
        message,
    }
}

/// Parses and validates a scenario. `file` is only used in error messages.
pub fn parse_scenario(file: &str, bytes: &[u8]) -> Result<Scenario, ScenarioError> {
    let error_at = |text: &str, offset: usize, field: String, message: String| {
        located(file, text, offset, field, message)
    };
    if bytes.len() > MAX_FILE_BYTES {
        return Err(error_at(
            "",
            0,
            "(file)".into(),
            format!(
                "the file is {} bytes; scenario files may be at most {MAX_FILE_BYTES} bytes",
                bytes.len()
            ),
        ));
    }
    let text = match std::str::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) => {
            let valid = &bytes[..e.valid_up_to()];
            // The prefix is valid UTF-8 by construction.
            let prefix = std::str::from_utf8(valid).unwrap_or_default();
            return Err(error_at(
                prefix,
                prefix.len(),
                "(file)".into(),
                "the file is not UTF-8 text (a scenario is a TOML file)".into(),
            ));
        }
    };
    if let Some(offset) = text.find('\0') {
        return Err(error_at(
            text,
            offset,
            "(file)".into(),
            "the file contains a NUL byte; a scenario is a TOML text file".into(),
        ));
    }
    parse_text(file, text).map_err(|first| super::more::earliest_problem(file, text, first))
}

/// Parses and validates a scenario's text: the first problem serde or validation meets.
pub(super) fn parse_text(file: &str, text: &str) -> Result<Scenario, ScenarioError> {
    let error_at = |text: &str, offset: usize, field: String, message: String| {
        located(file, text, offset, field, message)
    };
    let document = DeTable::parse(text).ok();
    let scenario: Scenario = match toml::from_str(text) {
        Ok(scenario) => scenario,
        Err(e) => {
            let span = e.span().unwrap_or(0..0);
            // A missing top-level field has an empty span: the whole document is at fault.
            let field = match &document {
                None => "(syntax)".to_string(),
                Some(_) if span.is_empty() => "(document)".to_string(),
                Some(doc) => {
                    path_at(doc.get_ref(), span.start).unwrap_or_else(|| "(document)".into())
                }
            };
            let written = text.get(span.clone()).unwrap_or_default().trim();
            let mut message = explain_serde(&field, &tidy(e.message()), text, written);
            if field == "(syntax)" {
                message = super::syntax_hint::syntax_hint(text, span.clone(), message);
            }
            if (message.contains("` is negative: ") || message.contains("` is too large: "))
                && let Some(allowed) = allowed_range(text, span.clone(), &field)
            {
                message.push_str(&format!(", {allowed}"));
            }
            return Err(error_at(text, span.start, field, message));
        }
    };
    if let Err(problem) = validate(&scenario) {
        let span = document
            .as_ref()
            .map(|doc| span_of(doc, &problem.path))
            .unwrap_or(0..0);
        return Err(error_at(
            text,
            span.start,
            render_path(&problem.path),
            problem.message,
        ));
    }
    Ok(scenario)
}

/// The range validation allows for the number field at `span` (path `field`), as "from 1 to
/// 3600000": found by putting the largest number each integer type holds in the file there and
/// reading validation's complaint about this field. None when no such number gets a complaint.
fn allowed_range(text: &str, span: std::ops::Range<usize>, field: &str) -> Option<String> {
    let (before, after) = (text.get(..span.start)?, text.get(span.end..)?);
    ["9223372036854775807", "4294967295", "65535", "255"]
        .iter()
        .find_map(|largest| {
            let scenario: Scenario = toml::from_str(&format!("{before}{largest}{after}")).ok()?;
            let problem = validate(&scenario).err()?;
            let (lo, hi) = problem
                .message
                .strip_prefix(&format!("{largest} is out of range: allowed "))?
                .split_once(" to ")?;
            (render_path(&problem.path) == field).then(|| format!("from {lo} to {hi}"))
        })
}

/// The allowed values of each field that takes one of a few words, by path without indices.
const CHOICES: &[(&str, &str)] = &[
    (
        "expect",
        "`safe`, `double-write`, `not-processed` or `inconclusive`",
    ),
    ("lock.kind", "`redis`, `redlock`, `consensus` or `none`"),
    (
        "resource.fencing",
        "`off`, `writes`, `enforce` or `permissive`",
    ),
    (
        "workers.on_lock_unavailable",
        "`fail-closed` or `fail-open`",
    ),
    (
        "faults.kind",
        "`pause`, `clock-jump`, `crash`, `restart`, `failover`, `partition`, `heal`, `delay` or `drop`",
    ),
];

/// Turns serde's wording into what a newcomer needs: an empty file or a missing top-level field
/// said plainly, and a wrongly typed choice listed with its allowed values.
fn explain_serde(field: &str, message: &str, text: &str, written: &str) -> String {
    let meaningful = text
        .lines()
        .any(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'));
    if !meaningful {
        return "the file is empty: a scenario needs at least `name`, `title`, `summary`, `expect`, a `[lock]` table and one `[[workers]]` entry (see docs/scenario-format.md for a complete example)".into();
    }
    if field == "(document)"
        && let Some(rest) = message.strip_prefix("missing field `")
        && let Some(name) = rest.strip_suffix('`')
    {
        return format!(
            "the file has no `{name}`: every scenario needs `name`, `title`, `summary`, `expect`, `[lock]` and `[[workers]]` (see docs/scenario-format.md)"
        );
    }
    if let Some(plain) = explain_number(field, message, written) {
        return plain;
    }
    let plain: String = field
        .split('.')
        .map(|part| part.split('[').next().unwrap_or(part))
        .collect::<Vec<_>>()
        .join(".");
    match CHOICES.iter().find(|(path, _)| *path == plain) {
        Some((_, allowed)) if message.starts_with("wanted ") => {
            format!("expected one of {allowed}, as a quoted word")
        }
        Some((_, allowed)) if !message.contains("expected one of") => {
            format!("{message}; allowed: {allowed}")
        }
        _ => message.to_string(),
    }
}

/// serde's and toml's words for a number field given the wrong kind of value ("invalid value:
/// integer `-5`, expected u64", "floating-point number overflowed"), said as what the field takes
/// and echoing what the file says (`written`), not serde's rewriting of it (`5e3` is `5000.0`).
fn explain_number(field: &str, message: &str, written: &str) -> Option<String> {
    // The one field that takes a fraction; toml's overflow message does not say what was expected.
    let float_field = message.ends_with("expected f64") || field.ends_with("drift_factor");
    let overflow = message.contains("number overflowed");
    let integer_field = ["expected i64", "expected u64", "expected u32"]
        .iter()
        .any(|end| message.ends_with(end));
    if !(float_field || integer_field || overflow) {
        return None;
    }
    let takes = if float_field {
        "this field takes a number, such as 0.01".to_string()
    } else {
        let unit = if field.ends_with("_ms") {
            " of milliseconds"
        } else {
            ""
        };
        format!("this field takes a whole number{unit}")
    };
    let what = message.split(", expected").next().unwrap_or(message);
    let value = what
        .split_once('`')
        .and_then(|(_, rest)| rest.split_once('`'))
        .map_or_else(|| written.to_string(), |(v, _)| v.to_string());
    let shown = if written.is_empty() { &value } else { written };
    let said = if overflow {
        format!("`{shown}` is too large to be any number")
    } else if let Some(text) = what.strip_prefix("invalid type: string ") {
        format!("{text} is text; write the number without quotes")
    } else if what.contains("as i128") {
        format!("`{value}` is far too large")
    } else if what.starts_with("invalid value: integer `-") {
        format!("`{value}` is negative")
    } else if what.starts_with("invalid value: integer `") {
        // A positive whole number that does not fit the field's type (`payouts = 99999999999`).
        format!("`{value}` is too large")
    } else if what.starts_with("invalid type: floating point") {
        float_for_integer(shown)
    } else if what.starts_with("invalid type: sequence") {
        format!("`{shown}` is a list, not one number")
    } else if what.starts_with("invalid type: map") {
        format!("`{shown}` is a table, not a number")
    } else if what.starts_with("invalid type: boolean") {
        format!("`{shown}` is a yes/no value, not a number")
    } else {
        what.to_string()
    };
    Some(format!("{said}: {takes}"))
}

/// Why a floating-point value does not do for a whole-number field, with the whole number to
/// write when there is one (`5e3` -> 5000).
fn float_for_integer(written: &str) -> String {
    let plain = written.replace('_', "");
    match plain.parse::<f64>() {
        Ok(f) if !f.is_finite() => format!("`{written}` is not a number"),
        Ok(f) if f.fract() == 0.0 && f.abs() < 1e15 => format!(
            "`{written}` is a floating-point number in TOML (it has a point or an exponent); write {}",
            f as i64
        ),
        _ => format!("`{written}` has a fraction"),
    }
}

/// serde's messages end with a full stop or a newline here and there; keep them one line.
fn tidy(message: &str) -> String {
    message.trim().replace('\n', " ")
}

fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let before = &text[..floor_char_boundary(text, offset)];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = before[line_start..].chars().count() + 1;
    (line, column)
}

fn floor_char_boundary(text: &str, mut offset: usize) -> usize {
    while offset > 0 && !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

/// The dotted path of the deepest key, value or table header that contains `offset`.
///
/// toml gives a table's value only the span of its header, so every branch is searched, not just
/// the ones whose span contains the offset.
fn path_at(table: &DeTable<'_>, offset: usize) -> Option<String> {
    find_in_table(table, offset, "")
}

fn contains(span: &Range<usize>, offset: usize) -> bool {
    span.start <= offset && offset < span.end.max(span.start + 1)
}

fn find_in_table(table: &DeTable<'_>, offset: usize, prefix: &str) -> Option<String> {
    for (key, value) in table.iter() {
        let path = if prefix.is_empty() {
            key.get_ref().to_string()
        } else {
            format!("{prefix}.{}", key.get_ref())
        };
        if let Some(deeper) = find_in_value(value.get_ref(), offset, &path) {
            return Some(deeper);
        }
        if contains(&key.span(), offset) || contains(&value.span(), offset) {
            return Some(path);
        }
    }
    None
}

fn find_in_value(value: &DeValue<'_>, offset: usize, path: &str) -> Option<String> {
    match value {
        DeValue::Table(table) => find_in_table(table, offset, path),
        DeValue::Array(items) => items.iter().enumerate().find_map(|(index, item)| {
            let item_path = format!("{path}[{index}]");
            find_in_value(item.get_ref(), offset, &item_path)
                .or_else(|| contains(&item.span(), offset).then_some(item_path))
        }),
        _ => None,
    }
}

/// Where a field is in `text`, for each of many paths (`text` is parsed once): line, column and
/// the dotted path of the deepest part of it the file has (a field left to its default is placed
/// at its table).
pub(super) fn locator(text: &str) -> impl Fn(&[PathSeg]) -> (usize, usize, String) + '_ {
    let doc = DeTable::parse(text).ok();
    move |path| {
        let Some(doc) = &doc else {
            return (1, 1, render_path(path));
        };
        let (span, depth) = span_and_depth(doc, path);
        let (line, column) = line_column(text, span.start);
        (line, column, render_path(&path[..depth]))
    }
}

/// The span of the value at `path`, or of the nearest enclosing thing that exists.
fn span_of(root: &toml::Spanned<DeTable<'_>>, path: &[PathSeg]) -> Range<usize> {
    span_and_depth(root, path).0
}

/// The span of the deepest thing along `path` that exists, and how many segments deep it is.
fn span_and_depth(root: &toml::Spanned<DeTable<'_>>, path: &[PathSeg]) -> (Range<usize>, usize) {
    let mut depth = 0;
    let mut span = root.span();
    let mut current: Option<&DeValue<'_>> = None;
    let mut table: Option<&DeTable<'_>> = Some(root.get_ref());
    for seg in path {
        let next = match (seg, table, current) {
            (PathSeg::Key(name), Some(t), _) => {
                t.iter().find(|(k, _)| k.get_ref() == name).map(|(_, v)| v)
            }
            (PathSeg::Index(i), _, Some(DeValue::Array(items))) => items.get(*i),
            _ => None,
        };
        let Some(next) = next else { break };
        depth += 1;
        span = next.span();
        current = Some(next.get_ref());
        table = match next.get_ref() {
            DeValue::Table(t) => Some(t),
            _ => None,
        };
    }
    (span, depth)
}

fn render_path(path: &[PathSeg]) -> String {
    let mut out = String::new();
    for seg in path {
        match seg {
            PathSeg::Key(k) => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(k);
            }
            PathSeg::Index(i) => out.push_str(&format!("[{i}]")),
        }
    }
    if out.is_empty() {
        "(document)".into()
    } else {
        out
    }
}
