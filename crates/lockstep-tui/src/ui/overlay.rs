//! The overlays drawn over the viewer: the help (every key and every mark), the what-if
//! menu and the progress of a running search.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Flex, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Widget, Wrap};

use super::theme;
use crate::action::HELP;
use crate::explore::Running;
use crate::whatif::FaultMenu;

/// A box of at most `w` x `h` centred in `area`.
fn centred(area: Rect, w: u16, h: u16) -> Rect {
    let [row] = Layout::vertical([Constraint::Length(h.min(area.height))])
        .flex(Flex::Center)
        .areas(area);
    let [cell] = Layout::horizontal([Constraint::Length(w.min(area.width))])
        .flex(Flex::Center)
        .areas(row);
    cell
}

fn boxed(title: &str) -> Block<'static> {
    Block::default()
        .borders(Borders::ALL)
        .border_style(theme::bold())
        .title(Span::styled(format!(" {title} "), theme::bold()))
        .style(theme::base())
}

/// Every key, and what each mark and bar on the timeline means.
#[derive(Debug, Clone, Copy)]
pub struct Help;

impl Widget for Help {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let mut lines: Vec<Line> = HELP
            .iter()
            .map(|(keys, what)| {
                Line::from(vec![
                    Span::styled(format!("{keys:>18}  "), theme::bold()),
                    Span::styled(*what, theme::text()),
                ])
            })
            .collect();
        lines.push(Line::from(""));
        let mut marks = Vec::new();
        for kind in theme::MARKS {
            marks.push(Span::styled(
                format!("{} ", theme::mark_glyph(kind)),
                theme::fg(theme::mark_color(kind)),
            ));
            marks.push(Span::styled(
                format!("{}   ", theme::mark_meaning(kind)),
                theme::text(),
            ));
        }
        lines.push(Line::from(marks));
        lines.push(Line::from(vec![
            Span::styled(format!("{} ", theme::BAR), theme::bold()),
            Span::styled(
                "beside a worker: it believes it holds the lock; beside the lock service: the holder it records   ",
                theme::text(),
            ),
            Span::styled(format!("{} ", theme::PAUSED), theme::paused()),
            Span::styled("paused   ", theme::text()),
            Span::styled(format!("{} ", theme::DOWN), theme::down()),
            Span::styled("crashed   ", theme::text()),
            Span::styled(format!("{} ", theme::DANGER_GUTTER), theme::danger()),
            Span::styled(
                "red band: two workers both believe they hold the lock",
                theme::text(),
            ),
        ]));
        let rect = centred(area, 100, lines.len() as u16 + 4);
        Clear.render(rect, buf);
        Paragraph::new(lines)
            .block(boxed("help — any key closes"))
            .wrap(Wrap { trim: false })
            .render(rect, buf);
    }
}

/// The what-if menu.
#[derive(Debug, Clone, Copy)]
pub struct Faults<'a> {
    pub menu: &'a FaultMenu,
    /// The step the change would be made at.
    pub step: usize,
}

impl Widget for Faults<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let m = self.menu;
        let width = m
            .choices
            .iter()
            .map(|c| m.describe(c).chars().count() as u16 + 4)
            .max()
            .unwrap_or(0)
            .max(76);
        let rect = centred(area, width, m.choices.len() as u16 + 4);
        Clear.render(rect, buf);
        let block = boxed(&format!("what-if at step {}", self.step));
        let inner = block.inner(rect);
        block.render(rect, buf);
        let [hint, list] =
            Layout::vertical([Constraint::Length(2), Constraint::Min(1)]).areas(inner);
        Paragraph::new(vec![
            Line::from(vec![
                Span::styled("duration ", theme::muted()),
                Span::styled(format!("{} s", m.seconds), theme::bold()),
                Span::styled(
                    "  (+/- or ←/→)  ↑↓ choose  Enter apply  Esc close",
                    theme::muted(),
                ),
            ]),
            Line::from(Span::styled(
                "The run branches here; u goes back to the original.",
                theme::muted(),
            )),
        ])
        .render(hint, buf);
        let height = usize::from(list.height);
        let first = (m.selected + 1).saturating_sub(height);
        for (i, c) in m.choices.iter().enumerate().skip(first).take(height) {
            let y = list.y + (i - first) as u16;
            let row = Rect::new(list.x, y, list.width, 1);
            let selected = i == m.selected;
            let style = if selected {
                theme::current()
            } else {
                theme::base()
            };
            buf.set_style(row, style);
            Line::from(vec![
                Span::styled(if selected { "▶ " } else { "  " }, theme::bold()),
                Span::styled(m.describe(c), theme::text()),
            ])
            .render(row, buf);
        }
    }
}

/// A search that found no double write, and the bounds it covered.
#[derive(Debug, Clone, Copy)]
pub struct NothingFound<'a> {
    pub lines: &'a [String],
}

impl Widget for NothingFound<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let mut lines: Vec<Line> = self
            .lines
            .iter()
            .enumerate()
            .map(|(i, l)| {
                let style = if i == 0 { theme::bold() } else { theme::text() };
                Line::from(Span::styled(
                    if i == 0 { l.clone() } else { format!("  {l}") },
                    style,
                ))
            })
            .collect();
        lines.push(Line::from(""));
        lines.push(Line::from(Span::styled(
            "Try a wider search with `lockstep explore`; any key closes.",
            theme::muted(),
        )));
        let width = area.width.min(116);
        let inner = usize::from(width.saturating_sub(2)).max(1);
        let height: usize = lines.iter().map(|l| l.width().max(1).div_ceil(inner)).sum();
        let rect = centred(area, width, height as u16 + 2);
        Clear.render(rect, buf);
        Paragraph::new(lines)
            .block(boxed("search: nothing found"))
            .wrap(Wrap { trim: false })
            .render(rect, buf);
    }
}

/// A running search: its bounds, how far it has come and how to stop it.
#[derive(Debug, Clone, Copy)]
pub struct Searching<'a> {
    pub search: &'a Running,
}

impl Widget for Searching<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let s = self.search;
        let figure = |label: &str, value: String| {
            Line::from(vec![
                Span::styled(format!("{label:>19}  "), theme::bold()),
                Span::styled(value, theme::text()),
            ])
        };
        let mut lines = vec![
            Line::from(Span::styled(
                format!(
                    "Looking for fault schedules that make {} apply a payout twice, fewest faults first.",
                    s.from
                ),
                theme::text(),
            )),
            Line::from(""),
            Line::from(Span::styled("within these bounds:", theme::bold())),
        ];
        lines.extend(
            s.bounds
                .iter()
                .map(|b| Line::from(Span::styled(format!("  {b}"), theme::text()))),
        );
        lines.push(Line::from(""));
        lines.push(figure("states explored", s.stats.states.to_string()));
        lines.push(figure("states/s", s.rate.to_string()));
        lines.push(figure("schedules run", s.stats.schedules.to_string()));
        lines.push(figure("faults per schedule", s.stats.faults.to_string()));
        lines.push(Line::from(""));
        lines.push(Line::from(Span::styled(
            "Esc cancels the search",
            theme::muted(),
        )));
        // Long bounds wrap: count the lines they take at the box's width.
        let width = area.width.min(116);
        let inner = usize::from(width.saturating_sub(2)).max(1);
        let height: usize = lines.iter().map(|l| l.width().max(1).div_ceil(inner)).sum();
        let rect = centred(area, width, height as u16 + 2);
        Clear.render(rect, buf);
        Paragraph::new(lines)
            .block(boxed(&format!("searching from {}", s.from)))
            .wrap(Wrap { trim: false })
            .render(rect, buf);
    }
}
