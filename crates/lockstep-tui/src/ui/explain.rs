//! The explanation pane (what the current event means) and the verdict bar (what the run has
//! done to the payouts so far, and how it ended once it has).

use lockstep_core::actors::db::money;
use lockstep_core::{Outcome, Verdict};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Widget, Wrap};

use super::theme;
use crate::viewer::Viewer;

/// The explanation of the current step (or, before the first, the scenario's summary).
#[derive(Debug, Clone, Copy)]
pub struct Explanation<'a> {
    pub viewer: &'a Viewer,
}

impl Widget for Explanation<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let v = self.viewer;
        let layout = &v.layout;
        let (title, body) = match layout.current.and_then(|r| layout.rows.get(r)) {
            Some(row) => (
                format!(" step {}: {} ", row.step, row.label),
                row.explanation.clone(),
            ),
            None => (
                " before the first step ".to_string(),
                format!(
                    "{} Press → or l to step, Space to play, f to inject a fault, ? for every key.",
                    v.scenario.summary
                ),
            ),
        };
        let block = Block::default()
            .borders(Borders::TOP)
            .border_style(theme::frame())
            .title(Span::styled(title, theme::bold()))
            .style(theme::base());
        Paragraph::new(body)
            .style(theme::base())
            .block(block)
            .wrap(Wrap { trim: true })
            .render(area, buf);
    }
}

/// The outcome as a word with its own symbol.
pub fn outcome_badge(outcome: Outcome) -> (String, ratatui::style::Style) {
    match outcome {
        Outcome::Safe => ("✓ safe".into(), theme::ok()),
        Outcome::DoubleWrite => ("▲ double-write".into(), theme::danger()),
        Outcome::NotProcessed => ("… not-processed".into(), theme::bold()),
        Outcome::Inconclusive => ("? inconclusive".into(), theme::bold()),
    }
}

/// The verdict bar's two lines: the verdict so far, and the what-if or status line.
#[derive(Debug, Clone, Copy)]
pub struct VerdictBar<'a> {
    pub viewer: &'a Viewer,
    /// A message for the user (export written, change refused...).
    pub status: Option<&'a str>,
}

/// The verdict's figures, in words; `short` for narrow terminals.
pub fn figures(v: &Verdict, short: bool) -> String {
    if short {
        return format!(
            "applied {}/{} · twice {} ({}) · refused {}",
            v.payouts_applied,
            v.payouts,
            v.payouts_duplicated,
            money(v.money_paid_twice_cents),
            v.writes_rejected + v.reads_rejected,
        );
    }
    format!(
        "applied {}/{} · paid twice {} · money paid twice {} · refused by fencing {}",
        v.payouts_applied,
        v.payouts,
        v.payouts_duplicated,
        money(v.money_paid_twice_cents),
        v.writes_rejected + v.reads_rejected,
    )
}

impl VerdictBar<'_> {
    /// The verdict line: the verdict so far, or at the end the outcome against the expected one.
    fn first_line(v: &Viewer, verdict: &Verdict, short: bool) -> Line<'static> {
        let (badge, style) = outcome_badge(verdict.outcome);
        if v.at_end() {
            let matches = verdict.outcome == v.expect();
            Line::from(vec![
                Span::styled("verdict: ", theme::bold()),
                Span::styled(figures(verdict, short), theme::text()),
                Span::styled(" · outcome ", theme::text()),
                Span::styled(badge, style),
                Span::styled(
                    format!(
                        " (expected {}{})",
                        v.expect().as_str(),
                        if matches {
                            ""
                        } else {
                            "; the what-if changed it"
                        }
                    ),
                    theme::muted(),
                ),
            ])
        } else {
            Line::from(vec![
                Span::styled("so far: ", theme::bold()),
                Span::styled(figures(verdict, short), theme::text()),
                Span::styled(" · outcome so far ", theme::text()),
                Span::styled(badge, style),
            ])
        }
    }
}

impl Widget for VerdictBar<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let v = self.viewer;
        let verdict = v.verdict();
        let first = Self::first_line(v, verdict, false);
        let first = if first.width() > usize::from(area.width) {
            Self::first_line(v, verdict, true)
        } else {
            first
        };
        let second = if let Some(s) = self.status {
            Line::from(Span::styled(format!(" {s}"), theme::bold()))
        } else if let Some(at) = v.diverged_at {
            let changes: Vec<String> = v
                .whatifs()
                .iter()
                .map(|w| format!("step {}: {}", w.at_step, change_text(&w.change)))
                .collect();
            Line::from(vec![
                Span::styled(
                    format!(" ⑂ what-if branch from step {at}: "),
                    theme::diverged(),
                ),
                Span::styled(changes.join("; "), theme::text()),
                Span::styled("  (u: back to the original run)", theme::muted()),
            ])
        } else {
            Line::from(Span::styled(
                format!(
                    " {}: expected outcome {}",
                    v.scenario.name,
                    v.expect().as_str()
                ),
                theme::muted(),
            ))
        };
        // One line each, never wrapped: the what-if line must stay in view.
        Paragraph::new(vec![first, second])
            .style(theme::base())
            .render(area, buf);
    }
}

/// A what-if change in a few words.
pub fn change_text(change: &lockstep_core::Change) -> String {
    use lockstep_core::Change;
    use lockstep_core::scenario::FaultKind;
    match change {
        Change::Fault(f) => {
            let target = f.target.as_deref().unwrap_or("");
            let s = f.duration_ms.unwrap_or(0) / 1000;
            match f.kind {
                FaultKind::Pause => format!("pause {target} {s} s"),
                FaultKind::ClockJump => {
                    format!("{target}'s clock +{} s", f.by_ms.unwrap_or(0) / 1000)
                }
                FaultKind::Delay => format!(
                    "delay {}'s \"{}\" {s} s",
                    f.from.as_deref().unwrap_or("?"),
                    f.match_label.as_deref().unwrap_or("")
                ),
                FaultKind::Partition => format!(
                    "partition {}",
                    f.groups
                        .as_ref()
                        .and_then(|g| g.first())
                        .map_or(String::new(), |g| g.join(","))
                ),
                kind => format!("{} {target}", kind.as_str()),
            }
        }
        Change::SetTtl { ttl_ms } => format!("TTL {ttl_ms} ms"),
        Change::SetFencing { fencing } => format!("fencing {}", fencing.as_str()),
        Change::SetIdempotency { idempotency } => {
            format!("idempotency {}", if *idempotency { "on" } else { "off" })
        }
    }
}
