//! Mermaid `sequenceDiagram` text of a trace: participants, one arrow per message (`->>` for a
//! request, `-->>` for a reply, `-x` when it was lost), `Note over` for state changes, faults and
//! narration, and (for a scenario's run) the verdict as the last note.

use std::collections::BTreeMap;
use std::fmt::Write;

use lockstep_core::topology::NodeId;
use lockstep_core::trace::EventKind;
use lockstep_core::{Run, Scenario, Trace};

use crate::layout::{LaneOrder, lane_order};
use crate::svg::verdict_text;

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

/// A scenario's run as a Mermaid sequence diagram: its title, the trace, and the verdict (with
/// whether it is the one the scenario expects) as a note across every participant at the end.
pub fn run_mermaid(scenario: &Scenario, run: &Run) -> String {
    let (headline, _, _, details) = verdict_text(&run.verdict);
    let expected = if run.verdict.outcome == scenario.expect {
        "(as expected)".to_string()
    } else {
        format!("(EXPECTED {})", scenario.expect)
    };
    // Whether the outcome is the expected one belongs next to the outcome, not after the
    // headline's sentence ("Verdict (as expected): safe. Every payout ..."), and the picture's
    // detail lines join several facts with "; ": a note has room for one fact per line.
    let mut lines = vec![headline.replacen("Verdict:", &format!("Verdict {expected}:"), 1)];
    lines.extend(details.iter().flat_map(|d| d.split("; ")).map(String::from));
    let verdict = lines
        .iter()
        .map(|l| escape(l))
        .collect::<Vec<_>>()
        .join("<br/>");
    let mut s = mermaid(&run.trace, Some(&scenario.title));
    if let Some(over) = across_all(&run.trace) {
        let _ = writeln!(s, "    Note over {over}: {verdict}");
    }
    s
}

/// The `Note over` target that spans every participant, in drawing order.
fn across_all(trace: &Trace) -> Option<String> {
    let order = lane_order(&trace.participants, LaneOrder::default());
    match (order.first(), order.last()) {
        (Some(a), Some(b)) if a != b => {
            Some(format!("{},{}", id(usize::from(*a)), id(usize::from(*b))))
        }
        (Some(a), _) => Some(id(usize::from(*a))),
        _ => None,
    }
}

/// Tells requests from replies, from the trace alone (so live traces work too): a message from
/// `b` to `a` is a reply when a message from `a` to `b` reached `b` earlier and has not been
/// answered yet.
#[derive(Debug, Default)]
struct Replies {
    /// Delivered, unanswered requests per (requester, responder).
    open: BTreeMap<(NodeId, NodeId), usize>,
    /// Messages that were drawn as requests, so that their delivery opens one.
    requests: BTreeMap<u64, ()>,
}

impl Replies {
    /// Whether the message sent now from `from` to `to` answers an open request.
    fn is_reply(&mut self, from: NodeId, to: NodeId, message: Option<u64>) -> bool {
        if let Some(n) = self.open.get_mut(&(to, from)).filter(|n| **n > 0) {
            *n -= 1;
            return true;
        }
        if let Some(m) = message {
            self.requests.insert(m, ());
        }
        false
    }

    /// A message arrived: if it was a request, it now waits for an answer.
    fn delivered(&mut self, from: NodeId, to: NodeId, message: Option<u64>) {
        if message.is_some_and(|m| self.requests.remove(&m).is_some()) {
            *self.open.entry((from, to)).or_default() += 1;
        }
    }
}

/// The trace as a Mermaid sequence diagram. Messages are drawn when they are sent (Mermaid arrows
/// are horizontal): `->>` for a request, `-->>` for a reply (Mermaid's convention for a dashed
/// return arrow), `-x` if the trace shows them lost; state changes, faults and notes become
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
    let mut replies = Replies::default();
    let all = across_all(trace);
    for e in &trace.events {
        if e.kind == EventKind::Deliver {
            replies.delivered(e.from, e.to, e.message);
        }
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
                let is_reply = replies.is_reply(e.from, e.to, e.message);
                let arrow = match (is_lost, is_reply) {
                    (true, true) => "--x",
                    (true, false) => "-x",
                    (false, true) => "-->>",
                    (false, false) => "->>",
                };
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
                    match &all {
                        Some(all) => all.clone(),
                        None => continue,
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

    fn run_of(id: &str) -> (Scenario, Run) {
        let scenario = lockstep_core::catalogue::load(id)
            .expect("a built-in")
            .expect("valid");
        let run = lockstep_core::run(&scenario);
        (scenario, run)
    }

    #[test]
    fn replies_are_dashed_and_requests_solid() {
        let (_, run) = run_of("fenced-gc-pause");
        let text = mermaid(&run.trace, None);
        let arrows: Vec<&str> = text
            .lines()
            .map(str::trim)
            .filter(|l| l.contains(">>") || l.contains("-x"))
            .collect();
        let requests = arrows
            .iter()
            .filter(|l| l.contains("->>") && !l.contains("-->>"));
        let replies = arrows.iter().filter(|l| l.contains("-->>"));
        // Every worker request (SET, status read, write, DEL) gets exactly one reply.
        assert_eq!(requests.count(), replies.count(), "{text}");
        assert!(
            arrows
                .iter()
                .any(|l| l.contains("-->>") && l.ends_with("rejected — 33 #60; last_token 34")),
            "{text}"
        );
    }

    #[test]
    fn a_run_ends_with_its_verdict() {
        let (scenario, run) = run_of("fenced-gc-pause");
        let text = run_mermaid(&scenario, &run);
        let last = text.lines().last().expect("lines").trim();
        assert!(
            last.starts_with(
                "Note over p0,p3: Verdict (as expected): safe. Every payout was paid exactly once.<br/>"
            ),
            "{last}"
        );
        // One fact per line: nothing joined with "; " (written `#59;`).
        assert!(!last.contains("#59;"), "{last}");
        let mut wrong = scenario.clone();
        wrong.expect = lockstep_core::Outcome::DoubleWrite;
        let text = run_mermaid(&wrong, &run);
        assert!(
            text.contains("Verdict (EXPECTED double-write): safe."),
            "{text}"
        );
    }
}
