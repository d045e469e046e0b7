//! The parts of a lease chart's story beyond holding and believing: what happened to nodes and
//! the network (crashes, restarts, failovers, clock jumps, partitions, elections, step-downs)
//! and what a worker said on its own lane (no answer, gave up, refused). Runs of the same
//! happening with only numbers changed ("pre-vote for term 2" seven times) become one entry.

use lockstep_core::Trace;
use lockstep_core::topology::Role;
use lockstep_core::trace::{EventKind, Tag, TraceEvent};

/// What kind of thing happened to a node or the network.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum IncidentKind {
    /// The node stopped; `to_ms` is its restart (or None: down to the end).
    Crash,
    Restart,
    /// The replica replaced the master.
    Failover,
    /// The node's clock stepped by this much; drawn as an arrow that long on the time axis.
    ClockJump {
        by_ms: i64,
    },
    /// A consensus node became leader.
    Leader,
    /// The network split; `to_ms` is when it healed (or None: to the end).
    Partition,
    /// Something else a lock-service node or the database did: an election, a pre-vote, a
    /// step-down, idempotency keys forgotten.
    Service,
    /// A message the node sent was lost (a Redis master's replication, a database's answer):
    /// an X.
    Lost,
}

/// Something that happened to a node or the network.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Incident {
    pub at_ms: u64,
    /// The end of what it began (a partition's healing, a crash's restart), if it has one.
    pub to_ms: Option<u64>,
    /// The node it happened to ("network" for partitions).
    pub node: String,
    pub kind: IncidentKind,
    /// "redis-2 crashes", "redis-3 clock +9000 ms", "node-1 pre-vote for term 2 ×7", ...
    pub text: String,
    /// Every instant it happened (more than one for a folded run of the same happening).
    pub times: Vec<u64>,
}

/// What a worker noted or decided on its own lane, without a lock to show for it: "no answer
/// from the lock service", "A refuses: no lock, no payouts", "Redlock failed: 2/5".
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct WorkerNote {
    /// The worker's participant index.
    pub worker: usize,
    /// The chart row it is drawn on (the worker's belief row), set by the chart.
    pub row: usize,
    pub text: String,
    /// Every instant it happened (more than one for a folded run of the same note).
    pub times: Vec<u64>,
    /// A message the worker sent that was lost: drawn as an X, not a dot.
    pub lost: bool,
    /// About the worker itself, not its lock (whether it is upgraded to send tokens): stays on
    /// its belief row whether or not it believes then.
    pub about_worker: bool,
}

/// The network's "node" name for partitions.
pub const NETWORK: &str = "network";

/// `label` with every run of digits replaced by `#`: labels that differ only in numbers have
/// the same shape.
fn shape(label: &str) -> String {
    let mut out = String::with_capacity(label.len());
    let mut in_digits = false;
    for c in label.chars() {
        if c.is_ascii_digit() {
            if !in_digits {
                out.push('#');
            }
            in_digits = true;
        } else {
            out.push(c);
            in_digits = false;
        }
    }
    out
}

/// Splits `label` into text and numbers.
fn pieces(label: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let bytes = label.as_bytes();
    for i in 1..=bytes.len() {
        let boundary =
            i == bytes.len() || bytes[i].is_ascii_digit() != bytes[i - 1].is_ascii_digit();
        if boundary {
            out.push(&label[start..i]);
            start = i;
        }
    }
    out
}

/// One label for a run of labels of one shape: numbers that changed become ranges ("term 3–10"),
/// and more than one happening says how many ("×8").
pub fn fold_label(first: &str, last: &str, count: usize) -> String {
    let (a, b) = (pieces(first), pieces(last));
    let mut out = String::new();
    let mut i = 0;
    while i < a.len().min(b.len()) {
        let (x, y) = (a[i], b[i]);
        out.push_str(x);
        // A count out of a total that changed reads in words: "2/5–0/5" or "2–0/5" would
        // be cryptic, "2/5 down to 0/5" is not.
        let total = (a.get(i + 1) == Some(&"/") && b.get(i + 1) == Some(&"/"))
            .then(|| a.get(i + 2).filter(|d| b.get(i + 2) == Some(d)))
            .flatten();
        match total {
            Some(d) if x != y => {
                let way = match (x.parse::<u64>(), y.parse::<u64>()) {
                    (Ok(p), Ok(q)) if q < p => "down",
                    _ => "up",
                };
                out.push_str(&format!("/{d} {way} to {y}/{d}"));
                i += 3;
                continue;
            }
            _ if x != y => {
                out.push('–');
                out.push_str(y);
            }
            _ => {}
        }
        i += 1;
    }
    if count > 1 {
        out.push_str(&format!(" ×{count}"));
    }
    out
}

/// What a tagged event tells about a node or the network, if anything.
fn tagged(e: &TraceEvent, who: &str) -> Option<(IncidentKind, String, String)> {
    let (kind, node, text) = match &e.tag {
        Some(Tag::Crashed) => (IncidentKind::Crash, who, format!("{who} crashes")),
        Some(Tag::Restarted { persistent }) => (
            IncidentKind::Restart,
            who,
            if *persistent {
                format!("{who} restarts")
            } else {
                format!("{who} restarts empty")
            },
        ),
        Some(Tag::FailedOver) => (IncidentKind::Failover, who, format!("{who} becomes master")),
        // A migration to fencing: the database's check, on its lane.
        Some(Tag::DbFencing { .. }) => (IncidentKind::Service, who, e.label.clone()),
        Some(Tag::ClockJumped { by_ms }) => (
            IncidentKind::ClockJump { by_ms: *by_ms },
            who,
            format!("{who} clock {by_ms:+} ms"),
        ),
        Some(Tag::Leader { term }) => (
            IncidentKind::Leader,
            who,
            format!("{who} leader (term {term})"),
        ),
        Some(Tag::Partition { groups }) => {
            let sides: Vec<String> = groups
                .iter()
                .map(|g| format!("{{{}}}", g.join(", ")))
                .collect();
            (
                IncidentKind::Partition,
                NETWORK,
                format!("partition {}", sides.join(" | ")),
            )
        }
        _ => return None,
    };
    Some((kind, node.to_string(), text))
}

/// Incidents and workers' notes in `events` (the steps shown), runs of one shape folded.
pub fn story(trace: &Trace, events: &[TraceEvent]) -> (Vec<Incident>, Vec<WorkerNote>) {
    let ps = &trace.participants;
    let role = |i: usize| ps.get(i).map(|p| p.role);
    let mut incidents: Vec<Incident> = Vec::new();
    let mut notes: Vec<WorkerNote> = Vec::new();
    // Index of the last folded entry per node, with its shape and first label.
    let mut last_service: std::collections::BTreeMap<String, (usize, String, String)> =
        Default::default();
    let mut last_note: std::collections::BTreeMap<(usize, String), (usize, String)> =
        Default::default();
    for e in events {
        let from = usize::from(e.from);
        let who = trace.name(e.from).to_string();
        if let Some((kind, node, text)) = tagged(e, &who) {
            last_service.remove(&node);
            if kind == IncidentKind::Partition {
                // A new partition replaces the one before: that one ends here.
                close_partition(&mut incidents, e.time_ms);
            }
            incidents.push(Incident {
                at_ms: e.time_ms,
                to_ms: None,
                node,
                kind,
                text,
                times: vec![e.time_ms],
            });
            continue;
        }
        match &e.tag {
            Some(Tag::Healed) => {
                close_partition(&mut incidents, e.time_ms);
                continue;
            }
            // A migration to fencing: whether the worker is upgraded, on its own row.
            Some(Tag::WorkerFencing { .. }) => {}
            Some(_) => continue,
            None => {}
        }
        // A message lost matters to the story when a worker sent it to its lock service (its
        // keepalive, its unlock) or a Redis master shipped it to its replica (the write a
        // failover forgets). Consensus nodes' lost votes and appends are told by the partition
        // or crash itself, and a Redlock request lost at one instance by the round's note.
        let lost = e.kind == EventKind::Lost
            && match role(from) {
                Some(Role::Worker) => role(usize::from(e.to)) != Some(Role::RedlockInstance),
                // A database's lost answer is why its writer retries ("dropped: applied 3").
                Some(Role::Redis | Role::RedisReplica | Role::Database) => true,
                _ => false,
            };
        if !matches!(e.kind, EventKind::State | EventKind::Note) && !lost {
            continue;
        }
        // A lost request's label without its details: "lost: lock lock:batch-42", not
        // "(lease 5000 ms)" too, so that a worker's crowded row keeps room for its notes.
        let label = if lost {
            e.label.split(" (").next().unwrap_or(&e.label).to_string()
        } else {
            e.label.clone()
        };
        let s = shape(&label);
        // The database's own lane tells what it did beyond the marks: answers lost, idempotency
        // keys forgotten (a payout paid twice is a mark on the writer's row).
        if role(from).is_some_and(|r| r.is_lock_service() || r == Role::Database) {
            // What a node says about another ("node-1's 1 uncommitted entry will be
            // overwritten", said by the new leader) goes on the lane of the node it is about.
            let who = about_node(trace, &label).unwrap_or(who);
            match last_service.get(&who) {
                Some((k, sh, first)) if *sh == s => {
                    let inc = &mut incidents[*k];
                    inc.times.push(e.time_ms);
                    inc.text = fold_label(
                        &prefixed(&who, first),
                        &prefixed(&who, &label),
                        inc.times.len(),
                    );
                }
                _ => {
                    last_service.insert(who.clone(), (incidents.len(), s, label.clone()));
                    incidents.push(Incident {
                        at_ms: e.time_ms,
                        to_ms: None,
                        node: who.clone(),
                        kind: if lost {
                            IncidentKind::Lost
                        } else {
                            IncidentKind::Service
                        },
                        text: prefixed(&who, &label),
                        times: vec![e.time_ms],
                    });
                }
            }
        } else if role(from) == Some(Role::Worker) {
            // A worker's notes of one shape fold over the whole run: retries alternate
            // "timed out" and "failed", and each kind is one label with a dot per instant.
            match last_note.get(&(from, s.clone())) {
                Some((k, first)) => {
                    let note = &mut notes[*k];
                    note.times.push(e.time_ms);
                    note.text = fold_label(first, &label, note.times.len());
                }
                _ => {
                    last_note.insert((from, s), (notes.len(), label.clone()));
                    notes.push(WorkerNote {
                        worker: from,
                        row: 0,
                        about_worker: matches!(e.tag, Some(Tag::WorkerFencing { .. })),
                        lost,
                        text: label.clone(),
                        times: vec![e.time_ms],
                    });
                }
            }
        }
    }
    // A crash lasts until the node's restart.
    for i in 0..incidents.len() {
        if incidents[i].kind == IncidentKind::Crash {
            let restart = incidents[i + 1..]
                .iter()
                .find(|r| r.kind == IncidentKind::Restart && r.node == incidents[i].node)
                .map(|r| r.at_ms);
            incidents[i].to_ms = restart;
        }
    }
    (incidents, notes)
}

/// The lock-service node or database a label is about when it begins with that node's name
/// ("node-1's 1 uncommitted entry …", "node-1 steps down").
fn about_node(trace: &Trace, label: &str) -> Option<String> {
    trace
        .participants
        .iter()
        .filter(|p| p.role.is_lock_service() || p.role == Role::Database)
        .find(|p| {
            label
                .strip_prefix(p.name.as_str())
                .is_some_and(|rest| rest.starts_with("'s ") || rest.starts_with(' '))
        })
        .map(|p| p.name.clone())
}

/// Ends the partition still open, if there is one, at `at_ms`.
fn close_partition(incidents: &mut [Incident], at_ms: u64) {
    if let Some(p) = incidents
        .iter_mut()
        .rev()
        .find(|i| i.kind == IncidentKind::Partition && i.to_ms.is_none())
    {
        p.to_ms = Some(at_ms);
    }
}

/// "node-1 steps down" stays as it is; "pre-vote for term 2" on node-2 becomes
/// "node-2 pre-vote for term 2".
fn prefixed(who: &str, label: &str) -> String {
    if label.starts_with(who) {
        label.to_string()
    } else {
        format!("{who} {label}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_of_one_shape_fold_into_a_range() {
        assert_eq!(shape("term 3, 10 ms"), "term #, # ms");
        assert_eq!(
            fold_label("election for term 3", "election for term 10", 8),
            "election for term 3–10 ×8"
        );
        assert_eq!(fold_label("no answer", "no answer", 1), "no answer");
        assert_eq!(
            fold_label(
                "Redlock failed: 2/5, unlock all",
                "Redlock failed: 0/5, unlock all",
                4
            ),
            "Redlock failed: 2/5 down to 0/5, unlock all ×4"
        );
        assert_eq!(
            fold_label("1/5 locked", "3/5 locked", 2),
            "1/5 up to 3/5 locked ×2"
        );
    }
}
