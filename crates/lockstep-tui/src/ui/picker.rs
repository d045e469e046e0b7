//! The picker screen: the catalogue in teaching order with each expected outcome, the filter
//! being typed, and the highlighted scenario's summary.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Widget, Wrap};

use super::explain::outcome_badge;
use super::theme;
use super::timeline::fit;
use crate::picker::Picker;

/// Lines above the list: title and filter.
pub const LIST_TOP: u16 = 3;

/// The picker screen.
#[derive(Debug, Clone, Copy)]
pub struct PickerScreen<'a> {
    pub picker: &'a Picker,
}

/// The list's area within the screen, for mouse clicks.
pub fn list_area(area: Rect) -> Rect {
    split(area)[1]
}

fn split(area: Rect) -> [Rect; 3] {
    let detail = if area.height >= 30 { 6 } else { 4 };
    Layout::vertical([
        Constraint::Length(LIST_TOP),
        Constraint::Min(3),
        Constraint::Length(detail),
    ])
    .areas(area)
}

/// The first entry shown when `selected` must be visible in `height` lines.
pub fn first_shown(selected: usize, height: usize) -> usize {
    (selected + 1).saturating_sub(height)
}

impl Widget for PickerScreen<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        buf.set_style(area, theme::base());
        let [top, list, detail] = split(area);
        let p = self.picker;
        let visible = p.visible();
        let header = vec![
            Line::from(vec![
                Span::styled(" lockstep ", theme::bold()),
                Span::styled(
                    "— pick a scenario. Teaching order: naive → fencing → Redlock → failover → consensus → migration → idempotency",
                    theme::muted(),
                ),
            ]),
            Line::from(vec![
                Span::styled(" filter: ", theme::bold()),
                Span::styled(format!("{}▏", p.filter), theme::text()),
                Span::styled(
                    format!(
                        "   {} of {} · type to filter · ↑↓ choose · Enter open · Esc {}",
                        visible.len(),
                        p.entries.len(),
                        if p.filter.is_empty() { "quit" } else { "clear" }
                    ),
                    theme::muted(),
                ),
            ]),
        ];
        Paragraph::new(header).render(top, buf);
        let id_w = p.entries.iter().map(|e| e.id.len()).max().unwrap_or(0);
        let height = usize::from(list.height);
        let first = first_shown(p.selected, height);
        for (i, e) in visible.iter().enumerate().skip(first).take(height) {
            let y = list.y + (i - first) as u16;
            let selected = i == p.selected;
            let (badge, badge_style) = outcome_badge(e.expect);
            let line = Line::from(vec![
                Span::styled(if selected { " ▶ " } else { "   " }, theme::bold()),
                Span::styled(format!("{:<id_w$}  ", e.id), theme::bold()),
                Span::styled(format!("{badge:<16}"), badge_style),
                Span::styled(
                    fit(&e.title, usize::from(list.width).saturating_sub(id_w + 23)),
                    theme::text(),
                ),
            ]);
            let row = Rect::new(list.x, y, list.width, 1);
            let style = if selected {
                theme::current()
            } else {
                theme::base()
            };
            buf.set_style(row, style);
            line.render(row, buf);
        }
        // Say that the list goes on, above and below, so no scenario hides without a sign.
        let right = list.x + list.width.saturating_sub(12);
        if first > 0 && list.height > 0 {
            buf.set_string(right, list.y, format!("↑ {first} more"), theme::muted());
        }
        let below = visible.len().saturating_sub(first + height);
        if below > 0 && list.height > 1 {
            buf.set_string(
                right,
                list.y + list.height - 1,
                format!("↓ {below} more"),
                theme::muted(),
            );
        }
        if visible.is_empty() {
            Paragraph::new(Span::styled(
                "   no scenario matches the filter (Backspace or Esc)",
                theme::muted(),
            ))
            .render(list, buf);
        }
        let summary = p
            .current()
            .map_or(String::new(), |e| format!("{}: {}", e.title, e.summary));
        Paragraph::new(summary)
            .style(theme::base())
            .block(
                Block::default()
                    .borders(Borders::TOP)
                    .border_style(theme::frame()),
            )
            .wrap(Wrap { trim: true })
            .render(detail, buf);
    }
}
