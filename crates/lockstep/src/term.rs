//! The terminal the output goes to: how wide it is and whether to colour it.

use std::io::{IsTerminal, Write};

use anstyle::{AnsiColor, Style};

/// Narrower than this, wrapped text would be mostly indentation; narrower terminals get lines
/// this long.
pub const MIN_WIDTH: usize = 40;
/// The width when stdout is not a terminal and `COLUMNS` is not set.
pub const DEFAULT_WIDTH: usize = 80;

/// What the commands know about where their output goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Term {
    /// Columns to wrap text to.
    pub width: usize,
}

impl Term {
    /// The width of stdout: `COLUMNS` if it holds a number, else the terminal's width, else 80.
    pub fn detect() -> Self {
        let columns = std::env::var("COLUMNS").ok();
        let stdout = std::io::stdout();
        let terminal = if stdout.is_terminal() {
            terminal_size::terminal_size_of(&stdout).map(|(w, _)| usize::from(w.0))
        } else {
            None
        };
        Term {
            width: choose_width(columns.as_deref(), terminal),
        }
    }
}

/// `COLUMNS` wins (it is how a user or a script asks for a width), then the terminal's own width,
/// then [`DEFAULT_WIDTH`]; never below [`MIN_WIDTH`].
pub fn choose_width(columns: Option<&str>, terminal: Option<usize>) -> usize {
    let asked = columns
        .and_then(|c| c.trim().parse::<usize>().ok())
        .filter(|&w| w > 0);
    asked
        .or(terminal.filter(|&w| w > 0))
        .unwrap_or(DEFAULT_WIDTH)
        .max(MIN_WIDTH)
}

/// Writes `error: message` (red) on `err`; the stream drops the colour when it should.
pub fn error(err: &mut dyn Write, message: &dyn std::fmt::Display) {
    let style = Style::new().bold().fg_color(Some(AnsiColor::Red.into()));
    // Nothing more can be done if stderr itself is gone.
    let _ = writeln!(err, "{style}error:{style:#} {message}");
}

/// Writes `warning: message` (yellow) on `err`.
pub fn warning(err: &mut dyn Write, message: &dyn std::fmt::Display) {
    let style = Style::new().bold().fg_color(Some(AnsiColor::Yellow.into()));
    let _ = writeln!(err, "{style}warning:{style:#} {message}");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_wins_then_the_terminal_then_80() {
        assert_eq!(choose_width(Some("120"), Some(90)), 120);
        assert_eq!(choose_width(None, Some(90)), 90);
        assert_eq!(choose_width(None, None), 80);
        assert_eq!(choose_width(Some("wide"), None), 80);
        assert_eq!(choose_width(Some("0"), Some(100)), 100);
        assert_eq!(choose_width(Some("12"), None), MIN_WIDTH);
    }
}
