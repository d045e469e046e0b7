//! The inspector pane: each lock key with its holder and TTL left on the service's own clock,
//! the token counter or revision, each worker's state, belief, token and clock, each node's
//! liveness and the database's records. Values that changed at this step are highlighted (and
//! starred, so the change does not rest on colour alone).

use std::collections::HashMap;

use lockstep_core::inspect::Inspection;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Widget, Wrap};

use super::theme;

/// One value: a stable key (to compare with the previous step), a label and the value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Field {
    pub key: String,
    pub label: String,
    pub value: String,
}

/// A line of fields, or a section heading.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Item {
    Heading(String),
    Fields(Vec<Field>),
}

fn field(key: impl Into<String>, label: &str, value: impl Into<String>) -> Field {
    Field {
        key: key.into(),
        label: label.into(),
        value: value.into(),
    }
}

/// `1234` ms as `1.234 s`.
pub fn seconds(ms: i64) -> String {
    let sign = if ms < 0 { "-" } else { "" };
    let ms = ms.unsigned_abs();
    format!("{sign}{}.{:03} s", ms / 1000, ms % 1000)
}

/// Time left on a key or lease. Past its expiry a Redis key is already gone for every client
/// (PTTL answers -2) even before the server removes it, so a negative value reads "expired".
fn ttl_left(ms: i64) -> String {
    if ms < 0 {
        "expired".into()
    } else {
        seconds(ms)
    }
}

fn opt<T: ToString>(v: Option<T>) -> String {
    v.map_or_else(|| "-".into(), |v| v.to_string())
}

/// The inspector's lines for one state.
pub fn items(i: &Inspection) -> Vec<Item> {
    let mut out = vec![Item::Fields(vec![field(
        "time",
        "time",
        seconds(i.time_ms as i64),
    )])];
    out.push(Item::Heading(format!(
        "lock service ({})",
        i.lock_kind.as_str()
    )));
    if let (Some(rev), Some(term), Some(leader)) = (i.revision, i.term, &i.leader) {
        out.push(Item::Fields(vec![
            field("revision", "revision", rev.to_string()),
            field("term", "term", term.to_string()),
            field("leader", "leader", leader.clone()),
        ]));
    }
    if i.locks.is_empty() {
        out.push(Item::Fields(vec![field(
            "nolock",
            "",
            "no lock in this run",
        )]));
    }
    for l in &i.locks {
        let k = format!("lock/{}", l.node);
        out.push(Item::Fields(vec![
            field(format!("{k}/key"), &l.node, l.key.clone()),
            field(format!("{k}/holder"), "holder", opt(l.holder.clone())),
        ]));
        let mut second = vec![field(
            format!("{k}/ttl"),
            "  ttl",
            l.ttl_left_ms.map_or_else(|| "-".into(), ttl_left),
        )];
        // A lock whose counter was never incremented issues no tokens: no counter to show.
        if let Some(c) = l.counter.filter(|&c| c > 0) {
            second.push(field(format!("{k}/counter"), "counter", c.to_string()));
        }
        second.push(field(format!("{k}/clock"), "clock", seconds(l.clock_ms)));
        out.push(Item::Fields(second));
    }
    // The database comes right after the lock service: its last_token is what every fencing
    // story turns on, and on a small terminal the end of the pane is what gets cut.
    let db = &i.db;
    out.push(Item::Heading("database".into()));
    out.push(Item::Fields(vec![
        field("db/fencing", "fencing", db.fencing.as_str()),
        field(
            "db/idem",
            "idempotency",
            if db.idempotency { "on" } else { "off" },
        ),
    ]));
    out.push(Item::Fields(vec![
        field("db/last", "last_token", opt(db.last_token)),
        field("db/paid", "batch", if db.paid { "paid" } else { "unpaid" }),
    ]));
    let rows: Vec<String> = db.rows.iter().map(u32::to_string).collect();
    out.push(Item::Fields(vec![field(
        "db/rows",
        "rows (times paid)",
        format!("[{}]", rows.join(" ")),
    )]));
    out.push(Item::Fields(vec![
        field("db/acc", "writes accepted", db.writes_accepted.to_string()),
        field("db/rej", "rejected", db.writes_rejected.to_string()),
    ]));
    out.push(Item::Fields(vec![
        field("db/rrej", "reads rejected", db.reads_rejected.to_string()),
        // Repeats the keys skipped, and the writes that applied nothing because of them (not
        // counted as accepted).
        field(
            "db/noops",
            "no-ops",
            match db.writes_skipped {
                0 => db.noops.to_string(),
                1 => format!("{} (1 write skipped)", db.noops),
                n => format!("{} ({n} writes skipped)", db.noops),
            },
        ),
    ]));
    out.push(Item::Heading("workers".into()));
    for w in &i.workers {
        let k = format!("worker/{}", w.name);
        out.push(Item::Fields(vec![
            field(format!("{k}/state"), &w.name, w.state),
            field(
                format!("{k}/belief"),
                "",
                if w.believes {
                    "believes it holds"
                } else {
                    "no lock"
                },
            ),
        ]));
        out.push(Item::Fields(vec![
            field(format!("{k}/token"), "  token", opt(w.token)),
            field(format!("{k}/clock"), "clock", seconds(w.clock_ms)),
        ]));
    }
    out.push(Item::Heading("nodes".into()));
    let mut line = Vec::new();
    for n in &i.nodes {
        let state = match (n.alive, n.paused_until_ms) {
            (false, _) => "down".to_string(),
            (true, Some(until)) => format!("paused until {}", seconds(until as i64)),
            (true, None) => "up".to_string(),
        };
        line.push(field(format!("node/{}", n.name), &n.name, state));
        if line.len() == 2 {
            out.push(Item::Fields(std::mem::take(&mut line)));
        }
    }
    if !line.is_empty() {
        out.push(Item::Fields(line));
    }
    out
}

/// The keys whose values differ between `before` and `now`.
pub fn changed_keys(before: &[Item], now: &[Item]) -> Vec<String> {
    let old: HashMap<&str, &str> = before
        .iter()
        .filter_map(|i| match i {
            Item::Fields(f) => Some(f),
            Item::Heading(_) => None,
        })
        .flatten()
        .map(|f| (f.key.as_str(), f.value.as_str()))
        .collect();
    now.iter()
        .filter_map(|i| match i {
            Item::Fields(f) => Some(f),
            Item::Heading(_) => None,
        })
        .flatten()
        // The clock moves at almost every step; highlighting it would drown the rest.
        .filter(|f| f.key != "time" && !f.key.ends_with("/clock"))
        .filter(|f| old.get(f.key.as_str()) != Some(&f.value.as_str()))
        .map(|f| f.key.clone())
        .collect()
}

/// The inspector pane (`ttl` is the time left before the key expires, on the node's clock).
#[derive(Debug, Clone, Copy)]
pub struct Inspector<'a> {
    pub now: &'a Inspection,
    pub before: Option<&'a Inspection>,
}

impl Widget for Inspector<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let now = items(self.now);
        let changed = self
            .before
            .map(|b| changed_keys(&items(b), &now))
            .unwrap_or_default();
        let lines: Vec<Line> = now
            .iter()
            .map(|item| match item {
                Item::Heading(h) => Line::from(Span::styled(h.clone(), theme::bold())),
                Item::Fields(fields) => {
                    let mut spans = Vec::new();
                    for (n, f) in fields.iter().enumerate() {
                        if n > 0 {
                            spans.push(Span::raw("  "));
                        }
                        if !f.label.is_empty() {
                            spans.push(Span::styled(format!("{} ", f.label), theme::muted()));
                        }
                        if changed.contains(&f.key) {
                            spans.push(Span::styled(format!("*{}", f.value), theme::changed()));
                        } else {
                            // The star's column is kept, so a change does not push the line
                            // past the pane's width and make everything below it jump.
                            spans.push(Span::styled(format!(" {}", f.value), theme::text()));
                        }
                    }
                    Line::from(spans)
                }
            })
            .collect();
        let block = Block::default()
            .borders(Borders::LEFT)
            .border_style(theme::frame())
            .title(Span::styled(" inspector (*changed) ", theme::muted()))
            .style(theme::base());
        Paragraph::new(lines)
            .block(block)
            .wrap(Wrap { trim: false })
            .render(area, buf);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lockstep_core::{Session, catalogue};

    #[test]
    fn the_grant_changes_the_holder_and_nothing_on_the_database() {
        let scenario = catalogue::load("naive-happy-path").unwrap().unwrap();
        let mut s = Session::new(&scenario);
        let mut before = items(&s.inspect());
        while s.step().is_some() && s.inspect().locks[0].holder.is_none() {
            before = items(&s.inspect());
        }
        let now = items(&s.inspect());
        let changed = changed_keys(&before, &now);
        assert!(
            changed.contains(&"lock/redis/holder".to_string()),
            "{changed:?}"
        );
        assert!(changed.iter().all(|k| !k.starts_with("db/")), "{changed:?}");
    }

    #[test]
    fn a_ttl_past_its_expiry_reads_expired() {
        assert_eq!(ttl_left(-5003), "expired");
        assert_eq!(ttl_left(0), "0.000 s");
    }

    #[test]
    fn seconds_keep_the_sign_and_three_decimals() {
        assert_eq!(seconds(5002), "5.002 s");
        assert_eq!(seconds(-30), "-0.030 s");
    }
}
