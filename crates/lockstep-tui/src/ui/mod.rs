//! Drawing the app: one module per pane, each an `impl Widget`; this module splits the screen
//! between them and says when the terminal is too small.

pub mod explain;
pub mod inspector;
pub mod overlay;
pub mod picker;
pub mod theme;
pub mod timeline;

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget, Wrap};
use unicode_width::UnicodeWidthStr;

use crate::app::{App, Overlay, Screen};
use crate::viewer::Viewer;

/// The smallest terminal the UI is usable in.
pub const MIN_WIDTH: u16 = 80;
pub const MIN_HEIGHT: u16 = 24;
/// The size it is designed for.
pub const GOOD_WIDTH: u16 = 120;
pub const GOOD_HEIGHT: u16 = 40;

/// Where each pane of the viewer goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Areas {
    pub header: Rect,
    pub timeline: Rect,
    pub inspector: Rect,
    pub explanation: Rect,
    pub verdict: Rect,
    pub keys: Rect,
}

/// Splits the screen for the viewer.
pub fn areas(area: Rect) -> Areas {
    let explanation = if area.height >= GOOD_HEIGHT { 5 } else { 4 };
    let [header, body, explanation, verdict, keys] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(6),
        Constraint::Length(explanation),
        Constraint::Length(2),
        Constraint::Length(1),
    ])
    .areas(area);
    let inspector_w = if area.width >= GOOD_WIDTH { 42 } else { 33 };
    let [timeline, inspector] =
        Layout::horizontal([Constraint::Min(20), Constraint::Length(inspector_w)]).areas(body);
    Areas {
        header,
        timeline,
        inspector,
        explanation,
        verdict,
        keys,
    }
}

/// Whether the terminal is big enough to draw anything useful.
pub fn fits(area: Rect) -> bool {
    area.width >= MIN_WIDTH && area.height >= MIN_HEIGHT
}

/// Shown instead of the UI below the minimum size.
#[derive(Debug, Clone, Copy)]
pub struct TooSmall;

impl Widget for TooSmall {
    fn render(self, area: Rect, buf: &mut Buffer) {
        buf.set_style(area, theme::base());
        let text = vec![
            Line::from(Span::styled("terminal too small", theme::danger())),
            Line::from(Span::styled(
                format!(
                    "it is {}x{}; lockstep needs at least {MIN_WIDTH}x{MIN_HEIGHT} ({GOOD_WIDTH}x{GOOD_HEIGHT} reads best)",
                    area.width, area.height
                ),
                theme::text(),
            )),
            Line::from(Span::styled(
                "enlarge the window, or Ctrl-C to quit",
                theme::muted(),
            )),
        ];
        Paragraph::new(text)
            .wrap(Wrap { trim: true })
            .render(area, buf);
    }
}

/// The viewer's top line: scenario, step, time, mode, play state.
fn header(v: &Viewer, area: Rect, buf: &mut Buffer) {
    let pos = v.pos();
    let time = v.inspection.time_ms;
    let mode = match v.time_mode {
        lockstep_render::TimeMode::Logical => "logical",
        lockstep_render::TimeMode::ToScale => "to scale",
    };
    let play = if v.playing {
        "▶ playing"
    } else {
        "❚❚ paused"
    };
    let right = format!(
        "step {pos}/{} · {} · {mode} · {play} {}/s ",
        v.total(),
        inspector::seconds(time as i64),
        v.steps_per_second()
    );
    let branch = if v.branch.is_some() {
        " ⑂ what-if"
    } else {
        ""
    };
    let left_w = usize::from(area.width).saturating_sub(right.width());
    let left = timeline::fit(
        &format!(" {} — {}{branch}", v.scenario.name, v.scenario.title),
        left_w.saturating_sub(2),
    );
    buf.set_style(area, theme::current());
    Line::from(vec![
        Span::styled(left.clone(), theme::bold()),
        Span::raw(" ".repeat(left_w.saturating_sub(left.width()))),
        Span::styled(right, theme::text()),
    ])
    .render(area, buf);
}

const KEYS: &str = " ←/→ step · Space play · +/- speed · f what-if · x search · u original · t time · e SVG · s scenarios · ? help · q quit";

impl Widget for &App {
    fn render(self, area: Rect, buf: &mut Buffer) {
        if !fits(area) {
            TooSmall.render(area, buf);
            return;
        }
        buf.set_style(area, theme::base());
        match (self.screen, &self.viewer) {
            (Screen::Viewer, Some(v)) => {
                let a = areas(area);
                header(v, a.header, buf);
                timeline::Timeline {
                    layout: &v.layout,
                    scroll: v.scroll,
                    diverged: v.diverged_at,
                }
                .render(a.timeline, buf);
                inspector::Inspector {
                    now: &v.inspection,
                    before: v.previous.as_ref(),
                }
                .render(a.inspector, buf);
                explain::Explanation { viewer: v }.render(a.explanation, buf);
                explain::VerdictBar {
                    viewer: v,
                    status: self.status.as_deref().or(self.found_line()),
                }
                .render(a.verdict, buf);
                Line::from(Span::styled(
                    timeline::fit(KEYS, usize::from(a.keys.width)),
                    theme::muted(),
                ))
                .render(a.keys, buf);
                match &self.overlay {
                    Overlay::Help => overlay::Help.render(area, buf),
                    Overlay::NothingFound(lines) => {
                        overlay::NothingFound { lines }.render(area, buf)
                    }
                    Overlay::Faults(menu) => overlay::Faults {
                        menu,
                        step: v.pos(),
                    }
                    .render(area, buf),
                    Overlay::None => {}
                }
                if let Some(search) = &self.search {
                    overlay::Searching { search }.render(area, buf);
                }
            }
            _ => picker::PickerScreen {
                picker: &self.picker,
            }
            .render(area, buf),
        }
    }
}
