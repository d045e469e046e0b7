//! Text metrics without font measurement: every label is set in a monospace face whose advance is
//! a fixed fraction of the font size, so widths are known exactly and the layout is deterministic
//! (natively and in wasm, where plotters would otherwise measure text through the DOM).

use crate::geom::{Point, Rect};

/// The font stack of every label: monospace faces whose advance is 0.6 em.
pub const MONO: &str = "DejaVu Sans Mono, Liberation Mono, Menlo, Consolas, monospace";

/// Advance of one character, in em.
pub const CHAR_EM: f64 = 0.6;

/// Height of a line box, in em.
pub const LINE_EM: f64 = 1.25;

/// How the text sits on its anchor point horizontally.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Align {
    Left,
    Center,
    Right,
}

/// The width of `text` set at `size` px: its widest line (a label may hold a line break).
pub fn width(text: &str, size: f64) -> f64 {
    text.split('\n')
        .map(|line| line.chars().count())
        .max()
        .unwrap_or(0) as f64
        * size
        * CHAR_EM
}

/// How many lines `text` is set on.
pub fn line_count(text: &str) -> usize {
    text.split('\n').count()
}

/// The height of `text` set at `size` px: one line height per line.
pub fn height(text: &str, size: f64) -> f64 {
    line_count(text) as f64 * line_height(size)
}

/// The height of one line at `size` px.
pub fn line_height(size: f64) -> f64 {
    size * LINE_EM
}

/// A label and the box it occupies: the text is drawn at `anchor` (vertically centred on it, aligned
/// horizontally as `align` says); `rect` is the text's extent plus padding, the box labels must not share.
/// A `\n` in the text starts another line, each aligned alike, the block centred on `anchor`.
#[derive(Debug, Clone, PartialEq)]
pub struct TextBox {
    pub text: String,
    pub size: f64,
    pub bold: bool,
    pub align: Align,
    pub anchor: Point,
    pub rect: Rect,
    /// The distance between the middles of its lines, in em ([`LINE_EM`] unless set tighter).
    pub leading: f64,
}

impl TextBox {
    /// A label anchored at `anchor`, padded by `pad` px on every side.
    pub fn new(text: impl Into<String>, size: f64, align: Align, anchor: Point, pad: f64) -> Self {
        let text = text.into();
        let w = width(&text, size);
        let h = height(&text, size);
        let x0 = match align {
            Align::Left => anchor.x,
            Align::Center => anchor.x - w / 2.0,
            Align::Right => anchor.x - w,
        };
        let rect = Rect::new(x0, anchor.y - h / 2.0, x0 + w, anchor.y + h / 2.0).inflate(pad);
        TextBox {
            text,
            size,
            bold: false,
            align,
            anchor,
            rect,
            leading: LINE_EM,
        }
    }

    /// The same label with its lines `leading` em apart (its box as tall as that makes it, its
    /// padding kept).
    pub fn with_leading(mut self, leading: f64) -> Self {
        let lines = line_count(&self.text) as f64;
        let pad = (self.rect.height() - lines * self.size * self.leading) / 2.0;
        let h = lines * self.size * leading;
        self.rect.y0 = self.anchor.y - h / 2.0 - pad;
        self.rect.y1 = self.anchor.y + h / 2.0 + pad;
        self.leading = leading;
        self
    }

    /// The top and bottom of its letters (without the padding): what another drawing must keep
    /// off for the words to stay readable. A line's letters reach about half an em either side
    /// of its middle (capitals above, the step column's `│` and descenders below).
    pub fn ink(&self) -> (f64, f64) {
        let half = (line_count(&self.text) as f64 - 1.0) * self.leading * self.size / 2.0
            + 0.5 * self.size;
        (self.anchor.y - half, self.anchor.y + half)
    }

    /// Other words in the same place: the same anchor, alignment, size, padding and leading
    /// (a round's label naming only its members so far, inside the box of the whole round's).
    pub fn with_text(&self, text: impl Into<String>) -> TextBox {
        let lines = line_count(&self.text) as f64;
        let pad = (self.rect.height() - lines * self.size * self.leading) / 2.0;
        let mut out = TextBox::new(text, self.size, self.align, self.anchor, pad.max(0.0))
            .with_leading(self.leading);
        out.bold = self.bold;
        out
    }

    /// No text, taking no room (for rows and arrows that share another's label).
    pub fn empty(anchor: Point) -> Self {
        TextBox {
            text: String::new(),
            size: 0.0,
            bold: false,
            align: Align::Left,
            anchor,
            rect: Rect::new(anchor.x, anchor.y, anchor.x, anchor.y),
            leading: LINE_EM,
        }
    }

    /// The same label in bold (monospace bold keeps the advance, so the box is unchanged).
    pub fn bold(mut self) -> Self {
        self.bold = true;
        self
    }

    /// The text on one line (for a terminal, or to compare with words written on one line).
    pub fn one_line(&self) -> String {
        self.text.replace('\n', " ")
    }

    /// Each line's text and the y of its middle, top to bottom.
    pub fn lines(&self) -> impl Iterator<Item = (&str, f64)> {
        let lh = self.size * self.leading;
        let first = self.anchor.y - (line_count(&self.text) - 1) as f64 * lh / 2.0;
        self.text
            .split('\n')
            .enumerate()
            .map(move |(k, line)| (line, first + k as f64 * lh))
    }

    /// The label moved by (dx, dy).
    pub fn shifted(&self, dx: f64, dy: f64) -> TextBox {
        TextBox {
            anchor: self.anchor.shifted(dx, dy),
            rect: self.rect.shifted(dx, dy),
            ..self.clone()
        }
    }
}

/// Breaks `text` into lines of at most `max_chars` characters, at spaces where possible.
pub fn wrap(text: &str, max_chars: usize) -> Vec<String> {
    let max = max_chars.max(8);
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        let mut word = word.to_string();
        loop {
            let len = line.chars().count();
            let wlen = word.chars().count();
            let needed = if len == 0 { wlen } else { len + 1 + wlen };
            if needed <= max {
                if len > 0 {
                    line.push(' ');
                }
                line.push_str(&word);
                break;
            }
            if len > 0 {
                lines.push(std::mem::take(&mut line));
                continue;
            }
            // A single word longer than a line: cut it.
            let head: String = word.chars().take(max).collect();
            let tail: String = word.chars().skip(max).collect();
            lines.push(head);
            word = tail;
            if word.is_empty() {
                break;
            }
        }
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// `text` on two lines, broken at the space that leaves the longer line shortest (unchanged
/// if it has no space).
pub fn two_lines(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let best = chars
        .iter()
        .enumerate()
        .filter(|(_, c)| **c == ' ')
        .map(|(i, _)| (i.max(chars.len() - i - 1), i))
        .min();
    match best {
        Some((_, i)) => {
            let (a, b) = chars.split_at(i);
            format!(
                "{}\n{}",
                a.iter().collect::<String>(),
                b[1..].iter().collect::<String>()
            )
        }
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn width_is_chars_times_advance() {
        assert_eq!(width("abcd", 10.0), 24.0);
        assert_eq!(width("rejected — 33", 10.0), 78.0);
    }

    #[test]
    fn boxes_follow_alignment() {
        let l = TextBox::new("abc", 10.0, Align::Left, Point::new(100.0, 50.0), 0.0);
        assert_eq!((l.rect.x0, l.rect.x1), (100.0, 118.0));
        let r = TextBox::new("abc", 10.0, Align::Right, Point::new(100.0, 50.0), 0.0);
        assert_eq!((r.rect.x0, r.rect.x1), (82.0, 100.0));
        let c = TextBox::new("abc", 10.0, Align::Center, Point::new(100.0, 50.0), 2.0);
        assert_eq!((c.rect.x0, c.rect.x1), (89.0, 111.0));
        assert!((c.rect.height() - 16.5).abs() < 1e-9);
    }

    #[test]
    fn a_block_of_lines_is_as_wide_as_its_widest_and_centred_on_its_anchor() {
        assert_eq!(width("ab\nabcd", 10.0), 24.0);
        let b = TextBox::new("ab\nabcd", 10.0, Align::Left, Point::new(0.0, 50.0), 0.0);
        assert_eq!(b.rect.height(), 25.0);
        assert_eq!((b.rect.y0, b.rect.y1), (37.5, 62.5));
        let lines: Vec<(&str, f64)> = b.lines().collect();
        assert_eq!(lines, [("ab", 43.75), ("abcd", 56.25)]);
    }

    #[test]
    fn a_tighter_leading_brings_the_lines_closer_and_keeps_the_padding() {
        let b = TextBox::new("ab\ncd", 10.0, Align::Center, Point::new(0.0, 50.0), 1.0)
            .with_leading(1.0);
        assert_eq!((b.rect.y0, b.rect.y1), (39.0, 61.0));
        let lines: Vec<(&str, f64)> = b.lines().collect();
        assert_eq!(lines, [("ab", 45.0), ("cd", 55.0)]);
    }

    #[test]
    fn two_lines_breaks_nearest_the_middle() {
        assert_eq!(
            two_lines("lock:batch-42 expired (A's TTL ran out)"),
            "lock:batch-42 expired\n(A's TTL ran out)"
        );
        assert_eq!(two_lines("a bb ccc dddd"), "a bb\nccc dddd");
        assert_eq!(two_lines("unbroken"), "unbroken");
    }

    #[test]
    fn wrap_respects_width_and_keeps_words() {
        let lines = wrap("the quick brown fox jumps over the lazy dog", 12);
        assert_eq!(
            lines,
            ["the quick", "brown fox", "jumps over", "the lazy dog"]
        );
        assert!(lines.iter().all(|l| l.chars().count() <= 12));
        assert_eq!(
            wrap("abcdefghijklmnopqrst", 8),
            ["abcdefgh", "ijklmnop", "qrst"]
        );
        assert!(wrap("", 10).is_empty());
    }
}
