//! Plainer words for TOML syntax errors the parser words tersely: a key set twice ("duplicate
//! key", which names neither the key nor where it was set first) and a string left open, which
//! the parser reports at its line's end ("invalid basic string") or, when a line break is typed
//! into it, at the next line as a key with no value.

use std::ops::Range;

/// `message` (the parser's, at `span` of `text`) with what it leaves out said.
pub(super) fn syntax_hint(text: &str, span: Range<usize>, message: String) -> String {
    if message == "duplicate key" {
        return duplicate_key(text, span).unwrap_or(message);
    }
    if message.starts_with("invalid basic string")
        && let Some(column) = open_string_on_line(text, span.start)
    {
        return format!(
            "{message}: the string opened at column {column} does not close on its line (a `\"` \
             string ends on the line it starts on; `\"\"\"` starts one that may span lines)"
        );
    }
    match open_string_before(text, span.start) {
        Some(line) => format!(
            "{message}; line {line} leaves a string open (a `\"` with no closing `\"` on its line)"
        ),
        None => message,
    }
}

/// "duplicate key `ttl_ms`: it is set already on line 8; a key may be set once in a table".
fn duplicate_key(text: &str, span: Range<usize>) -> Option<String> {
    let key = text
        .get(span.clone())?
        .trim()
        .trim_matches('"')
        .trim_matches('\'');
    if key.is_empty() {
        return None;
    }
    let before = text.get(..span.start)?;
    let lines: Vec<&str> = before.lines().collect();
    // A key set before in the same table, or a table whose header came before (`[lock]` twice).
    let header = format!("[{key}]");
    let first = lines.iter().rposition(|line| {
        let line = line.trim_start();
        line.trim_end() == header
            || line
                .strip_prefix(key)
                .is_some_and(|rest| rest.trim_start().starts_with('='))
    });
    Some(match first {
        Some(i) => format!(
            "duplicate key `{key}`: it is set already on line {}; a key may be set once in a table",
            i + 1
        ),
        None => format!("duplicate key `{key}`: a key may be set once in a table"),
    })
}

/// The line (from 1) just before the one holding `offset`, when it holds a `"` string that never
/// closes.
fn open_string_before(text: &str, offset: usize) -> Option<usize> {
    let at_line = text.get(..offset)?.matches('\n').count();
    let previous = text.lines().nth(at_line.checked_sub(1)?)?;
    unclosed_quote(previous).map(|_| at_line)
}

/// The column (from 1, in characters) of the `"` that opens a string left open on the line
/// holding `offset`.
fn open_string_on_line(text: &str, offset: usize) -> Option<usize> {
    let at_line = text.get(..offset)?.matches('\n').count();
    unclosed_quote(text.lines().nth(at_line)?).map(|at| at + 1)
}

/// Where in `line` (in characters, from 0) the `"` opening a string that never closes is: an odd
/// number of unescaped quotes, outside a comment.
fn unclosed_quote(line: &str) -> Option<usize> {
    let mut opened = None;
    let mut escaped = false;
    for (i, c) in line.chars().enumerate() {
        match c {
            '#' if opened.is_none() => break,
            '\\' if !escaped => {
                escaped = true;
                continue;
            }
            '"' if !escaped => opened = if opened.is_none() { Some(i) } else { None },
            _ => {}
        }
        escaped = false;
    }
    opened
}

#[cfg(test)]
mod tests {
    use crate::parse_scenario;

    fn error(text: &str) -> String {
        parse_scenario("t.toml", text.as_bytes())
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default()
    }

    #[test]
    fn a_key_set_twice_is_named_with_the_line_it_was_set_on() {
        let text = "name = \"t\"\n[lock]\nkind = \"redis\"\nttl_ms = 5000\nttl_ms = 6000\n";
        assert_eq!(
            error(text),
            "t.toml:5:1: (syntax): duplicate key `ttl_ms`: it is set already on line 4; a key may be set once in a table"
        );
    }

    #[test]
    fn a_table_declared_twice_is_named_with_the_line_of_its_first_header() {
        let text = "name = \"t\"\n[lock]\nkind = \"redis\"\n[lock]\nttl_ms = 5000\n";
        let said = error(text);
        assert!(
            said.ends_with("duplicate key `lock`: it is set already on line 2; a key may be set once in a table"),
            "{said}"
        );
    }

    #[test]
    fn a_string_left_open_at_its_lines_end_names_where_it_opens() {
        let text = "name = \"t\"\ntitle = \"A Redis lock\n[lock]\n";
        assert_eq!(
            error(text),
            "t.toml:2:22: (syntax): invalid basic string, expected `\"`: the string opened at \
             column 9 does not close on its line (a `\"` string ends on the line it starts on; \
             `\"\"\"` starts one that may span lines)"
        );
    }

    #[test]
    fn a_string_left_open_is_named_on_its_own_line() {
        // A line break typed into a title: the parser reports the line after it.
        let text = "name = \"t\"\ntitle = \"A Redis lock\n that expires\"\nsummary = \"s\"\n";
        let said = error(text);
        assert!(
            said.ends_with("line 2 leaves a string open (a `\"` with no closing `\"` on its line)"),
            "{said}"
        );
    }
}
