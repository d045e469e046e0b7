//! The colours of the text timeline. Colour only repeats what the words say (the kind column, the
//! verdict), so nothing is lost when it is off.

use anstyle::{AnsiColor, Style};
use lockstep_core::{EventKind, Outcome, Tag, TraceEvent};

fn fg(c: AnsiColor) -> Style {
    Style::new().fg_color(Some(c.into()))
}

/// Step numbers, times and the fold lines: there for reference, not for reading first.
pub fn quiet() -> Style {
    Style::new().dimmed()
}

pub fn heading() -> Style {
    Style::new().bold()
}

/// The kind column.
pub fn kind(kind: EventKind) -> Style {
    match kind {
        EventKind::Send | EventKind::Deliver => Style::new(),
        EventKind::Lost => fg(AnsiColor::Red),
        EventKind::State => fg(AnsiColor::Cyan),
        EventKind::Fault => fg(AnsiColor::Magenta).bold(),
        EventKind::Note => quiet(),
    }
}

/// The label: bold for the events the story turns on.
pub fn label(e: &TraceEvent) -> Style {
    match &e.tag {
        Some(Tag::Duplicate { .. }) => fg(AnsiColor::Red).bold(),
        Some(Tag::AccessRejected { .. }) => fg(AnsiColor::Yellow).bold(),
        Some(Tag::Believes { .. } | Tag::StopsBelieving | Tag::ServiceGrants { .. }) => {
            fg(AnsiColor::Cyan)
        }
        Some(Tag::ServiceFrees { .. }) => fg(AnsiColor::Yellow),
        _ if e.kind == EventKind::Fault => fg(AnsiColor::Magenta).bold(),
        _ if e.kind == EventKind::Lost => fg(AnsiColor::Red),
        _ => Style::new(),
    }
}

/// The verdict's outcome: green when nothing was paid twice, red when something was.
pub fn outcome(outcome: Outcome) -> Style {
    match outcome {
        Outcome::Safe => fg(AnsiColor::Green).bold(),
        Outcome::DoubleWrite => fg(AnsiColor::Red).bold(),
        Outcome::NotProcessed => fg(AnsiColor::Yellow).bold(),
        Outcome::Inconclusive => fg(AnsiColor::Yellow),
    }
}

/// `check`'s status words.
pub fn passed() -> Style {
    fg(AnsiColor::Green)
}

pub fn failed() -> Style {
    fg(AnsiColor::Red).bold()
}
