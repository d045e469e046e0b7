//! A file with several problems: the others are found by blanking each problem's line and reading
//! the file again, so that the error reported is the first in the file and says where the rest are.

use super::ScenarioError;
use super::load::parse_text;
use crate::sort;

/// How many problems to look for in all: enough to point at the rest, cheap on a large file.
const MAX_PROBLEMS: usize = 6;

/// The problem earliest in the file among `first` and those found after it, with the others
/// named at the end of its message.
pub(super) fn earliest_problem(file: &str, text: &str, first: ScenarioError) -> ScenarioError {
    let mut found = vec![first];
    let mut lines: Vec<&str> = text.split('\n').collect();
    let mut blanked_keys: Vec<String> = Vec::new();
    while found.len() < MAX_PROBLEMS {
        let Some(line) = found.last().and_then(|p| blankable_line(p, &lines)) else {
            break;
        };
        let key = lines[line].split('=').next().unwrap_or_default().trim();
        blanked_keys.push(format!("`{}`", key.trim_matches('"')));
        lines[line] = "";
        let Err(next) = parse_text(file, &lines.join("\n")) else {
            break;
        };
        // Blanking a line can only uncover problems of other lines; a field now missing (serde's
        // "missing field", validation's "needs `duration_ms`") is of our own making.
        let own_making = next.message.contains("missing field")
            || blanked_keys
                .iter()
                .any(|k| next.message.contains(k.as_str()))
            || next.message.starts_with("the file has no")
            || found.iter().any(|p| p.line == next.line);
        if own_making || next.field.starts_with('(') {
            break;
        }
        found.push(next);
    }
    sort::sort_by_key(&mut found, |p| (p.line, p.column));
    let mut rest = found.split_off(1);
    let mut earliest = found.remove(0);
    if !rest.is_empty() {
        let places: Vec<String> = rest
            .drain(..)
            .map(|p| format!("line {} ({})", p.line, p.field))
            .collect();
        let more = if places.len() == 1 {
            "1 more problem".to_string()
        } else {
            format!("{} more problems", places.len())
        };
        earliest.message = format!(
            "{} (the file has {more}: {})",
            earliest.message,
            places.join(", ")
        );
    }
    earliest
}

/// The 0-based line of a problem with a field's value, when blanking it leaves valid TOML: not a
/// table header, not the whole document or file.
fn blankable_line(problem: &ScenarioError, lines: &[&str]) -> Option<usize> {
    if problem.field.starts_with('(') {
        return None;
    }
    let index = problem.line.checked_sub(1)?;
    let line = lines.get(index)?.trim_start();
    (!line.is_empty() && !line.starts_with('[') && line.contains('=')).then_some(index)
}
