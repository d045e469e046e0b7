//! Mermaid `sequenceDiagram` text of a trace: participants, one arrow per message (`-x` when it was
//! lost), and `Note over` for state changes, faults and narration.

use std::collections::BTreeMap;
use std::fmt::Write;

use lockstep_core::Trace;
use lockstep_core::trace::EventKind;

use crate::layout::{LaneOrder, lane_order};

/// Makes text safe inside a Mermaid message or note: `#` and `;` (which start entity codes and end
/// statements), `<` and `>` (read as HTML) are written as Mermaid entity codes, and line breaks
/// become spaces.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '#' => out.push_str("#35;"),
            ';' => out.push_str("#59;"),
            '<' => out.push_str("#60;"),
            '>' => out.push_str("#62;"),
            '\n' | '\r' => out.push(' '),
            c => out.push(c),
        }
    }
    out.trim().to_string()
}

/// The Mermaid id of participant `i` (names such as `redis-1` are not valid ids, so each gets an
/// alias).
fn id(i: usize) -> String {
    format!("p{i}")
}

/// The trace as a Mermaid sequence diagram. Messages are drawn when they are sent (Mermaid arrows
/// are horizontal), with `-x` if the trace shows them lost; state changes, faults and notes become
/// `Note over` their participant (all participants for global events).
pub fn mermaid(trace: &Trace, title: Option<&str>) -> String {
    let mut s = String::from("sequenceDiagram\n");
    if let Some(t) = title.filter(|t| !t.trim().is_empty()) {
        let _ = writeln!(s, "    title {}", escape(t));
    }
    let order = lane_order(&trace.participants, LaneOrder::default());
    for &n in &order {
        let i = usize::from(n);
        let _ = writeln!(
            s,
            "    participant {} as {}",
            id(i),
            escape(&trace.participants[i].name)
        );
    }
    let known = |n: u16| usize::from(n) < trace.participants.len();
    // How each message ends.
    let mut lost: BTreeMap<u64, bool> = BTreeMap::new();
    for e in &trace.events {
        if let (Some(m), EventKind::Deliver | EventKind::Lost) = (e.message, e.kind) {
            lost.entry(m).or_insert(e.kind == EventKind::Lost);
        }
    }
    let mut sent: BTreeMap<u64, ()> = BTreeMap::new();
    let (first, last) = (order.first().copied(), order.last().copied());
    for e in &trace.events {
        match e.kind {
            EventKind::Send | EventKind::Deliver | EventKind::Lost => {
                // One arrow per message: at its send, or at its end if the send is not in the trace.
                let draw = match (e.kind, e.message) {
                    (EventKind::Send, Some(m)) => sent.insert(m, ()).is_none(),
                    (EventKind::Send, None) => true,
                    (_, Some(m)) => !sent.contains_key(&m) && sent.insert(m, ()).is_none(),
                    (_, None) => true,
                };
                if !draw || !known(e.from) || !known(e.to) {
                    continue;
                }
                let is_lost = e.kind == EventKind::Lost
                    || e.message
                        .and_then(|m| lost.get(&m).copied())
                        .unwrap_or(false);
                let arrow = if is_lost { "-x" } else { "->>" };
                let _ = writeln!(
                    s,
                    "    {}{arrow}{}: {}",
                    id(usize::from(e.from)),
                    id(usize::from(e.to)),
                    escape(&e.label)
                );
            }
            _ => {
                let over = if e.is_global() {
                    match (first, last) {
                        (Some(a), Some(b)) if a != b => {
                            format!("{},{}", id(usize::from(a)), id(usize::from(b)))
                        }
                        (Some(a), _) => id(usize::from(a)),
                        _ => continue,
                    }
                } else if known(e.from) {
                    id(usize::from(e.from))
                } else {
                    continue;
                };
                let _ = writeln!(s, "    Note over {over}: {}", escape(&e.label));
            }
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_what_mermaid_chokes_on() {
        assert_eq!(escape("a; b # c"), "a#59; b #35; c");
        assert_eq!(escape("33 < 34: no"), "33 #60; 34: no");
        assert_eq!(escape("line\nbreak"), "line break");
        // The entity codes themselves are not escaped twice.
        assert!(!escape("#;").contains("#35;59"));
    }
}
