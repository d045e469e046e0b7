//! Colours and glyphs of the terminal UI. Colours come from lockstep-render's palette (drawn on
//! its white "paper", like the SVG); every mark also has its own glyph, so nothing is told by
//! colour alone.

use lockstep_render::layout::{MarkKind, Tone};
use lockstep_render::style::{self, Rgb};
use ratatui::style::{Color, Modifier, Style};

/// A palette colour as a terminal colour.
pub fn color(c: Rgb) -> Color {
    Color::Rgb(c.0, c.1, c.2)
}

/// The colour of a tone.
pub fn tone(t: Tone) -> Color {
    color(style::tone(t))
}

/// Body text on the paper.
pub fn base() -> Style {
    Style::default()
        .fg(color(style::TEXT))
        .bg(color(style::BACKGROUND))
}

/// Secondary text. Like every text style below, it sets no background, so it can be written
/// over the current step's band or the danger band.
pub fn muted() -> Style {
    Style::default().fg(color(style::MUTED))
}

pub fn text() -> Style {
    Style::default().fg(color(style::TEXT))
}

pub fn bold() -> Style {
    text().add_modifier(Modifier::BOLD)
}

/// The current step's band.
pub fn current() -> Style {
    Style::default()
        .fg(color(style::TEXT))
        .bg(color(style::CURRENT))
}

/// The band where two workers both believe they hold the lock.
pub fn danger_band() -> Style {
    Style::default()
        .fg(color(style::TEXT))
        .bg(color(style::DANGER_FILL))
}

/// Text that warns.
pub fn danger() -> Style {
    bold().fg(color(style::DANGER))
}

pub fn ok() -> Style {
    bold().fg(color(style::OK))
}

/// A value that changed at this step.
pub fn changed() -> Style {
    current().add_modifier(Modifier::BOLD)
}

/// Borders and titles of panes.
pub fn frame() -> Style {
    base().fg(color(style::NOTE_BORDER))
}

/// A colour as a foreground-only style.
pub fn fg(c: Color) -> Style {
    Style::default().fg(c)
}

/// The glyph of a mark: one shape per kind.
pub fn mark_glyph(kind: MarkKind) -> char {
    match kind {
        MarkKind::WriteAccepted => '✓',
        MarkKind::AccessRejected => '⊘',
        MarkKind::Duplicate => '▲',
        MarkKind::Expired => '⧗',
        MarkKind::Renewed => '◆',
        MarkKind::Lost => '✕',
        MarkKind::Delayed => '◔',
        MarkKind::Paused => '‖',
        MarkKind::InFlight => '•',
        MarkKind::Sender => '●',
    }
}

/// The colour of a mark.
pub fn mark_color(kind: MarkKind) -> Color {
    color(match kind {
        MarkKind::WriteAccepted => style::OK,
        MarkKind::AccessRejected | MarkKind::Duplicate | MarkKind::Lost => style::DANGER,
        MarkKind::Expired | MarkKind::Delayed | MarkKind::InFlight => style::TIMER,
        MarkKind::Renewed => style::RENEW,
        MarkKind::Paused => style::FROZEN_HATCH,
        MarkKind::Sender => style::INFRA,
    })
}

/// What a mark means, for the help overlay's legend.
pub fn mark_meaning(kind: MarkKind) -> &'static str {
    match kind {
        MarkKind::WriteAccepted => "write applied",
        MarkKind::AccessRejected => "access refused (stale fencing token)",
        MarkKind::Duplicate => "payouts paid twice",
        MarkKind::Expired => "TTL / lease ran out",
        MarkKind::Renewed => "lease renewed",
        MarkKind::Lost => "message lost",
        MarkKind::Delayed => "message delayed",
        MarkKind::Paused => "node froze",
        MarkKind::InFlight => "message in flight",
        MarkKind::Sender => "sends to several nodes at once",
    }
}

/// Every mark kind, for the legend.
pub const MARKS: [MarkKind; 10] = [
    MarkKind::WriteAccepted,
    MarkKind::AccessRejected,
    MarkKind::Duplicate,
    MarkKind::Expired,
    MarkKind::Renewed,
    MarkKind::Lost,
    MarkKind::Delayed,
    MarkKind::Paused,
    MarkKind::InFlight,
    MarkKind::Sender,
];

/// A lane's lifeline.
pub const LIFELINE: char = '│';
/// A frozen (paused) stretch of a lifeline.
pub const PAUSED: char = '▒';
/// A crashed stretch of a lifeline.
pub const DOWN: char = '╳';
/// A belief or a service record, beside the lifeline.
pub const BAR: char = '┃';
/// Marks a row of the danger band in the gutter.
pub const DANGER_GUTTER: char = '!';
/// Marks the current row in the gutter.
pub const CURRENT_GUTTER: char = '▶';

pub fn lifeline() -> Style {
    Style::default().fg(color(style::LIFELINE))
}

pub fn paused() -> Style {
    Style::default().fg(color(style::FROZEN_HATCH))
}

pub fn down() -> Style {
    Style::default().fg(color(style::DOWN_HATCH))
}

pub fn fault_note() -> Style {
    Style::default()
        .fg(color(style::TEXT))
        .bg(color(style::FAULT_FILL))
}

pub fn global_note() -> Style {
    Style::default()
        .fg(color(style::GLOBAL_BORDER))
        .bg(color(style::GLOBAL_FILL))
        .add_modifier(Modifier::BOLD)
}

pub fn note() -> Style {
    Style::default()
        .fg(color(style::TEXT))
        .bg(color(style::NOTE_FILL))
}

/// The line where a what-if branch leaves the original run.
pub fn diverged() -> Style {
    bold().fg(color(style::CURRENT_POINTER))
}
