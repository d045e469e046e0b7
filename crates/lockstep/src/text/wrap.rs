//! Wrapping text to the terminal's width with hanging indents, so a long label or explanation
//! continues under itself instead of at column 0.

use anstyle::Style;

/// A text column narrower than this is unreadable; the text then starts on its own line.
const MIN_TEXT: usize = 20;

/// `text` wrapped to `width` columns (words longer than a line are broken).
pub fn lines(text: &str, width: usize) -> Vec<String> {
    let options = textwrap::Options::new(width.max(1))
        .break_words(true)
        .word_splitter(textwrap::WordSplitter::NoHyphenation);
    textwrap::wrap(text, options)
        .into_iter()
        .map(|l| l.into_owned())
        .collect()
}

/// Appends `prefix` (already painted; `prefix_width` visible columns) and `text` (painted with
/// `style`) wrapped so that no line passes `width`. Continuation lines are indented to the column
/// the text started at; if that leaves fewer than [`MIN_TEXT`] columns and the text does not fit
/// in them, the text starts on the next line, indented by `fallback`.
pub fn hanging(
    out: &mut String,
    prefix: &str,
    prefix_width: usize,
    text: &str,
    style: Style,
    width: usize,
    fallback: usize,
) {
    hang(out, prefix, prefix_width, text, style, width, fallback, 0);
}

/// Like [`hanging`], with continuation lines two columns deeper than the text's first line, so
/// that items printed one under the other stay apart.
pub fn hanging_deeper(
    out: &mut String,
    prefix: &str,
    prefix_width: usize,
    text: &str,
    style: Style,
    width: usize,
    fallback: usize,
) {
    hang(out, prefix, prefix_width, text, style, width, fallback, 2);
}

#[allow(clippy::too_many_arguments)] // the two public forms above name them
fn hang(
    out: &mut String,
    prefix: &str,
    prefix_width: usize,
    text: &str,
    style: Style,
    width: usize,
    fallback: usize,
    deeper: usize,
) {
    let room = width.saturating_sub(prefix_width);
    let fits = textwrap::core::display_width(text) <= room;
    let col = if fits || room >= MIN_TEXT + deeper {
        prefix_width
    } else {
        fallback
    };
    if col == prefix_width {
        out.push_str(prefix);
    } else {
        out.push_str(prefix.trim_end());
        out.push('\n');
        push_indent(out, col);
    }
    let indent = " ".repeat(deeper);
    let options = textwrap::Options::new(width.saturating_sub(col).max(1))
        .break_words(true)
        .word_splitter(textwrap::WordSplitter::NoHyphenation)
        .subsequent_indent(&indent);
    let wrapped = textwrap::wrap(text, options);
    for (i, line) in wrapped.iter().enumerate() {
        if i > 0 {
            push_indent(out, col + deeper);
        }
        out.push_str(&paint(style, line.trim_start()));
        out.push('\n');
    }
    if wrapped.is_empty() {
        out.push('\n');
    }
}

/// `text` in `style` (the output stream strips the codes when colour is off).
pub fn paint(style: Style, text: &str) -> String {
    if style == Style::new() || text.is_empty() {
        text.to_string()
    } else {
        format!("{style}{text}{style:#}")
    }
}

fn push_indent(out: &mut String, n: usize) {
    out.extend(std::iter::repeat_n(' ', n));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn continuation_lines_hang_under_the_text() {
        let mut s = String::new();
        let text = "one two three four five six seven eight nine ten eleven twelve";
        hanging(&mut s, "  12  ", 6, text, Style::new(), 30, 2);
        let got: Vec<&str> = s.lines().collect();
        assert_eq!(got[0], "  12  one two three four five");
        assert!(
            got[1..]
                .iter()
                .all(|l| l.starts_with("      ") && l.len() <= 30),
            "{got:?}"
        );
    }

    #[test]
    fn deeper_continuations_set_items_apart() {
        let mut s = String::new();
        let text = "one two three four five six seven eight nine ten";
        hanging_deeper(&mut s, "ab  ", 4, text, Style::new(), 30, 2);
        let got: Vec<&str> = s.lines().collect();
        assert_eq!(
            got,
            [
                "ab  one two three four five",
                // 30 columns exactly.
                "      six seven eight nine ten",
            ]
        );
    }

    #[test]
    fn a_prefix_too_wide_moves_the_text_to_its_own_line() {
        let mut s = String::new();
        hanging(
            &mut s,
            &"x".repeat(35),
            35,
            "short text here",
            Style::new(),
            40,
            4,
        );
        let got: Vec<&str> = s.lines().collect();
        assert_eq!(got, [&"x".repeat(35) as &str, "    short text here"]);
        // Unless it fits.
        let mut s = String::new();
        hanging(&mut s, &"x".repeat(35), 35, "ok", Style::new(), 40, 4);
        assert_eq!(s, format!("{}ok\n", "x".repeat(35)));
    }
}
