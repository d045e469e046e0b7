//! Plainer words for two TOML syntax errors the parser words tersely: a key set twice ("duplicate
//! key", which names neither the key nor where it was set first) and a string left open on the
//! line before the error, which the parser reports at the next line as a key with no value.

use std::ops::Range;

/// `message` (the parser's, at `span` of `text`) with what it leaves out said.
pub(super) fn syntax_hint(text: &str, span: Range<usize>, message: String) -> String {
    if message == "duplicate key" {
        return duplicate_key(text, span).unwrap_or(message);
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
/// closes (an odd number of unescaped quotes, outside a comment).
fn open_string_before(text: &str, offset: usize) -> Option<usize> {
    let at_line = text.get(..offset)?.matches('\n').count();
    let previous = text.lines().nth(at_line.checked_sub(1)?)?;
    let mut quotes = 0;
    let mut escaped = false;
    for c in previous.chars() {
        match c {
            '#' if quotes % 2 == 0 => break,
            '\\' if !escaped => {
                escaped = true;
                continue;
            }
            '"' if !escaped => quotes += 1,
            _ => {}
        }
        escaped = false;
    }
    (quotes % 2 == 1).then_some(at_line)
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
