//! What each event draws, before rows have heights: which sends and deliveries belong to one
//! message, and whether an event starts an arrow, ends one or is a note.

use std::collections::BTreeMap;

use lockstep_core::Trace;
use lockstep_core::topology::{NodeId, Role};
use lockstep_core::trace::{EventKind, FreeReason, Tag, TraceEvent};

use super::{MarkKind, NoteKind};
use crate::{style, text};

/// How an event links to a message arrow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Link {
    /// Starts an arrow; the event that ends it, if any.
    Start(Option<usize>),
    /// Ends the arrow started by this event (None: its send is not in the trace).
    End(Option<usize>),
    None,
}

/// Pairs every send with its delivery or loss, by message id.
pub(super) fn link_messages(events: &[TraceEvent]) -> Vec<Link> {
    let mut links = vec![Link::None; events.len()];
    let mut open: BTreeMap<u64, usize> = BTreeMap::new();
    for (i, e) in events.iter().enumerate() {
        match e.kind {
            EventKind::Send => {
                links[i] = Link::Start(None);
                if let Some(m) = e.message {
                    open.insert(m, i);
                }
            }
            EventKind::Deliver | EventKind::Lost => {
                let start = e.message.and_then(|m| open.remove(&m));
                if let Some(s) = start {
                    links[s] = Link::Start(Some(i));
                }
                links[i] = Link::End(start);
            }
            _ => {}
        }
    }
    links
}

/// What one event draws.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Piece {
    /// An arrow starts here, from lane to lane, with this label.
    Arrow {
        from: usize,
        to: usize,
        /// Empty for all but the first send of a group.
        label: String,
        /// The first send of its fan-out or fan-in, if it belongs to one.
        group: Option<usize>,
    },
    /// An arrow ends here (it has no label of its own).
    ArrowEnd,
    /// A note over lanes `lanes.0..=lanes.1`.
    Note {
        lanes: (usize, usize),
        kind: NoteKind,
        text: String,
        icon: Option<MarkKind>,
    },
    Nothing,
}

/// The symbol inside a note, for the events that have one.
fn note_icon(e: &TraceEvent) -> Option<MarkKind> {
    match &e.tag {
        Some(Tag::Duplicate { .. }) => Some(MarkKind::Duplicate),
        Some(Tag::ServiceFrees {
            reason: FreeReason::Expired,
            ..
        }) => Some(MarkKind::Expired),
        Some(Tag::Paused { .. }) => Some(MarkKind::Paused),
        _ => None,
    }
}

/// A send's label; a message the network holds up says how long it flies and where it lands
/// ("write 3 payouts — in flight 8001 ms, arrives #30"): it is drawn as one long arrow, labelled
/// once at its start.
fn flight_label(events: &[TraceEvent], links: &[Link], i: usize) -> String {
    let e = &events[i];
    match (&e.tag, links.get(i)) {
        (Some(Tag::Delayed { .. }), Some(Link::Start(Some(end)))) => {
            let took = events[*end].time_ms.saturating_sub(e.time_ms);
            format!("{} — in flight {took} ms, arrives #{}", e.label, end + 1)
        }
        _ => arrow_label(e),
    }
}

/// A send's own label, with its delay if the network holds it up.
fn arrow_label(e: &TraceEvent) -> String {
    match e.tag {
        Some(Tag::Delayed { extra_ms }) => format!("{} (delayed +{extra_ms} ms)", e.label),
        _ => e.label.clone(),
    }
}

/// Fan-outs and fan-ins: sends with one label at one instant, from one node to several (or from
/// several to one), with nothing but deliveries between them. Returns each send's group leader
/// (the group's first send) for groups of two or more.
pub(super) fn groups(events: &[TraceEvent]) -> Vec<Option<usize>> {
    let mut leader: Vec<Option<usize>> = vec![None; events.len()];
    // (leader, last member, fan-out?) of the group that may still grow.
    let mut open: Option<(usize, usize, Option<bool>)> = None;
    for (i, e) in events.iter().enumerate() {
        match e.kind {
            EventKind::Deliver | EventKind::Lost => continue,
            EventKind::Send => {}
            _ => {
                open = None;
                continue;
            }
        }
        if let Some((l, _, out)) = open {
            let first = &events[l];
            let fan_out = first.from == e.from && first.to != e.to;
            let fan_in = first.to == e.to && first.from != e.from;
            // Replies of one round gather whatever each says ("OK" from two instances, "nil"
            // from a third): one row, labelled per answer.
            // The database's answer to an access is its own step, never one of a round's
            // (a keepalive's and a write's answers reaching a worker in one millisecond).
            let answers = fan_in
                && is_reply(events, l)
                && is_reply(events, i)
                && !answers_an_access(&events[l])
                && !answers_an_access(&events[i]);
            let same = first.time_ms == e.time_ms && (first.label == e.label || answers);
            let joins = same
                && match out {
                    None => fan_out || fan_in,
                    Some(true) => fan_out,
                    Some(false) => fan_in,
                };
            if joins {
                leader[l] = Some(l);
                leader[i] = Some(l);
                open = Some((l, i, Some(fan_out)));
                continue;
            }
        }
        open = Some((i, i, None));
    }
    leader
}

/// Whether a send is the database's answer to a read or a write (its tag says how it went).
fn answers_an_access(e: &TraceEvent) -> bool {
    matches!(
        e.tag,
        Some(Tag::AccessRejected { .. } | Tag::WriteAccepted { .. } | Tag::ReadRaisedToken { .. })
    )
}

/// Whether send `i` answers a request delivered to its sender just before, from its receiver.
fn is_reply(events: &[TraceEvent], i: usize) -> bool {
    let e = &events[i];
    i.checked_sub(1).is_some_and(|j| {
        let d = &events[j];
        d.kind == EventKind::Deliver && d.from == e.to && d.to == e.from
    })
}

/// Names of a group's members: all of them up to three, else (or, if `compact`, from two) the
/// count and the first and last.
fn who(names: &[&str], compact: bool) -> String {
    if names.len() > 3 || (compact && names.len() > 1) {
        format!("{} ({}…{})", names.len(), names[0], names[names.len() - 1])
    } else {
        names.join(", ")
    }
}

/// The one label of a group of sends led by `lead`: the label, the count and who takes part;
/// on two lines if it is long and `narrow` (see [`WRAP_CHARS`]).
fn group_label(trace: &Trace, leader: &[Option<usize>], lead: usize, narrow: bool) -> String {
    let members: Vec<&TraceEvent> = leader
        .iter()
        .enumerate()
        .filter(|(_, l)| **l == Some(lead))
        .map(|(i, _)| &trace.events[i])
        .collect();
    label_of(trace, &members, fans_out(&members), (narrow, false), false)
}

/// Whether a group's sends all leave one node (a fan-out), rather than arrive at one.
fn fans_out(members: &[&TraceEvent]) -> bool {
    members.iter().all(|m| m.from == members[0].from)
}

/// The label of a round (`round`: its sends' events, its leader first; laid out with `whole`,
/// the whole round's label) at a step before its last send: only the members sent before event
/// `shown`, so the picture never names an answer still to come. In the whole label's lines (one
/// or two), and no wider than it: it is drawn in that label's box.
pub(super) fn label_so_far(trace: &Trace, round: &[usize], shown: usize, whole: &str) -> String {
    let all: Vec<&TraceEvent> = round.iter().map(|&i| &trace.events[i]).collect();
    // Which way the round goes is the whole round's (one member sent reads as a fan-out).
    let fan_out = fans_out(&all);
    let members: Vec<&TraceEvent> = round
        .iter()
        .zip(&all)
        .filter(|(i, _)| **i < shown)
        .map(|(_, e)| *e)
        .collect();
    let narrow = whole.contains('\n');
    let text = label_of(trace, &members, fan_out, (narrow, narrow), false);
    if text::width(&text, style::LABEL_SIZE) <= text::width(whole, style::LABEL_SIZE) {
        text
    } else {
        // Three names listed can be wider than five counted ("redis-1…redis-5"): counted too.
        label_of(trace, &members, fan_out, (narrow, narrow), true)
    }
}

/// The one label of a group of sends (`members`, its leader first): the label, the count and
/// who takes part; on two lines if it is long and `narrow` (see [`WRAP_CHARS`]), or whenever
/// `narrow` if `always` (a label so far keeps the whole label's lines); two or more members
/// named by the first and last only if `compact`.
fn label_of(
    trace: &Trace,
    members: &[&TraceEvent],
    fan_out: bool,
    (narrow, always): (bool, bool),
    compact: bool,
) -> String {
    let who = |names: &[&str]| who(names, compact);
    let Some(&first) = members.first() else {
        return String::new();
    };
    let names: Vec<&str> = members
        .iter()
        .map(|m| trace.name(if fan_out { m.to } else { m.from }))
        .collect();
    if !fan_out && members.iter().any(|m| m.label != first.label) {
        // Replies saying different things: each answer with who gave it, in order of first
        // appearance.
        let mut answers: Vec<(String, Vec<&str>)> = Vec::new();
        for m in members {
            let text = arrow_label(m);
            let name = trace.name(m.from);
            match answers.iter_mut().find(|(t, _)| *t == text) {
                Some((_, names)) => names.push(name),
                None => answers.push((text, vec![name])),
            }
        }
        let text = answers
            .iter()
            .map(|(text, names)| format!("{text} from {}", who(names)))
            .collect::<Vec<_>>();
        return if narrow && (always || text.join(" · ").chars().count() > WRAP_CHARS) {
            // The separator kept at the end of the first line: joined again, it reads as one.
            text.join(" ·\n")
        } else {
            text.join(" · ")
        };
    }
    let (what, whom) = if fan_out {
        (arrow_label(first), format!("→ {}", who(&names)))
    } else if names.len() == 1 {
        // One answer so far: whose, without a count.
        (arrow_label(first), format!("from {}", names[0]))
    } else if names.len() > 3 || compact {
        // "×5 from redis-1…redis-5": the count once ("×5 from 5 (redis-1…redis-5)" said it twice).
        let (a, z) = (names[0], names[names.len() - 1]);
        (arrow_label(first), format!("×{} from {a}…{z}", names.len()))
    } else {
        (
            arrow_label(first),
            format!("×{} from {}", names.len(), who(&names)),
        )
    };
    // Long and `narrow` (its head on the next lane), the message on one line and who takes
    // part on the next: the lanes either side need be only as far apart as the longer of the two.
    if narrow && (always || what.chars().count() + 1 + whom.chars().count() > WRAP_CHARS) {
        format!("{what}\n{whom}")
    } else {
        format!("{what} {whom}")
    }
}

/// Labels and one-lane notes longer than this many characters are set on two lines: lanes are
/// spaced for their labels, and a picture narrow enough to follow on a projector matters more
/// than one line per row (a two-line label takes a line more where it needs one).
pub(super) const WRAP_CHARS: usize = 28;

/// The sends of writes the database took without a token: the request the database answered
/// with an accepted write carrying no token (the delivery to it just before the reply).
fn tokenless_writes(events: &[TraceEvent], links: &[Link]) -> Vec<bool> {
    let mut out = vec![false; events.len()];
    for (i, e) in events.iter().enumerate() {
        if !matches!(e.tag, Some(Tag::WriteAccepted { token: None, .. })) {
            continue;
        }
        let request = (0..i).rev().find(|&j| {
            events[j].kind == EventKind::Deliver && events[j].to == e.from && events[j].from == e.to
        });
        if let Some(Link::End(Some(send))) = request.map(|j| links[j]) {
            out[send] = true;
        }
    }
    out
}

/// Marks a write a permissive database took without a fencing token.
pub(crate) const NO_TOKEN: &str = "NO TOKEN";

/// What each event of `trace` draws; `lane_of` maps a node to its lane. A permissive database's
/// reply to a write it took without a token says so ("no token"): that is the hole the story
/// shows. With `two_lines`, a long label of a round goes on two lines before a near head.
pub(super) fn pieces(
    trace: &Trace,
    links: &[Link],
    lane_of: &[Option<usize>],
    (permissive_db, two_lines): (bool, bool),
) -> Vec<Piece> {
    let leader = groups(&trace.events);
    let tokens = last_tokens(&trace.events);
    let tokenless = if permissive_db {
        tokenless_writes(&trace.events, links)
    } else {
        vec![false; trace.events.len()]
    };
    let lane_for = |node: NodeId| lane_of.get(usize::from(node)).copied().flatten();
    let lanes = lane_of.iter().flatten().count();
    trace
        .events
        .iter()
        .zip(links)
        .enumerate()
        .map(|(i, (e, link))| match (e.kind, link) {
            (EventKind::Send, _) | (_, Link::End(None)) => {
                match (lane_for(e.from), lane_for(e.to)) {
                    (Some(from), Some(to)) => Piece::Arrow {
                        from,
                        to,
                        label: match leader[i] {
                            Some(l) if l == i => {
                                // The label must fit before the round's nearest head: between
                                // neighbouring lanes, a long one goes on two lines.
                                let from_lane = lane_for(e.from);
                                let nearest = leader
                                    .iter()
                                    .enumerate()
                                    .filter(|(_, g)| **g == Some(l))
                                    .filter_map(|(m, _)| {
                                        let to = lane_for(trace.events[m].to)?;
                                        Some(to.abs_diff(from_lane?))
                                    })
                                    .min();
                                group_label(
                                    trace,
                                    &leader,
                                    l,
                                    two_lines && nearest.is_some_and(|d| d <= 1),
                                )
                            }
                            Some(_) => String::new(),
                            None => {
                                let own = flight_label(&trace.events, links, i);
                                match tokens[i] {
                                    Some(t) => format!("{own} · db last_token={t}"),
                                    None if tokenless[i] => format!("{own} · {NO_TOKEN}"),
                                    None => own,
                                }
                            }
                        },
                        group: leader[i],
                    },
                    _ => Piece::Nothing,
                }
            }
            (_, Link::End(Some(_))) => Piece::ArrowEnd,
            _ if e.is_global() && lanes > 0 => Piece::Note {
                lanes: (0, lanes - 1),
                kind: NoteKind::Global,
                text: e.label.clone(),
                icon: None,
            },
            _ => match lane_for(e.from) {
                Some(lane) => Piece::Note {
                    lanes: (lane, lane),
                    kind: match e.kind {
                        EventKind::Fault => NoteKind::Fault,
                        EventKind::Note => NoteKind::Note,
                        _ => NoteKind::State,
                    },
                    text: e.label.clone(),
                    icon: note_icon(e),
                },
                None => Piece::Nothing,
            },
        })
        .collect()
}

/// The worker's index (trace order) of every node that is a worker.
pub(super) fn worker_indices(trace: &Trace) -> Vec<Option<usize>> {
    let mut next = 0;
    trace
        .participants
        .iter()
        .map(|p| {
            (p.role == Role::Worker).then(|| {
                next += 1;
                next - 1
            })
        })
        .collect()
}

/// For each event: whether it is the database's reply to a write that paid payouts a second time
/// (a duplicate event from the same node at the same instant comes first).
pub(super) fn duplicate_replies(events: &[TraceEvent]) -> Vec<bool> {
    let mut out = vec![false; events.len()];
    let mut duplicate: Option<(NodeId, u64)> = None;
    for (i, e) in events.iter().enumerate() {
        match e.tag {
            Some(Tag::Duplicate { .. }) => duplicate = Some((e.from, e.time_ms)),
            Some(Tag::WriteAccepted { .. }) => {
                out[i] = duplicate == Some((e.from, e.time_ms));
                duplicate = None;
            }
            _ => {}
        }
    }
    out
}

/// For each event: whether it is a consensus node's reply renewing a worker's session lease
/// while the worker neither is recorded as the holder nor believes it holds the lock (an etcd
/// keepalive of a waiting or refused worker). A renewal while it holds keeps the lock's lease
/// alive, as a Redis PEXPIRE does; the lease chart draws the two apart the same way.
pub(super) fn session_keepalives(trace: &Trace, events: &[TraceEvent]) -> Vec<bool> {
    let role = |n: NodeId| trace.participants.get(usize::from(n)).map(|p| p.role);
    let name = |n: NodeId| {
        trace
            .participants
            .get(usize::from(n))
            .map_or("", |p| p.name.as_str())
    };
    let mut holders: Vec<&str> = Vec::new();
    let mut believers: Vec<NodeId> = Vec::new();
    events
        .iter()
        .map(|e| match &e.tag {
            Some(Tag::Believes { .. }) => {
                believers.push(e.from);
                false
            }
            Some(Tag::StopsBelieving) => {
                believers.retain(|&w| w != e.from);
                false
            }
            Some(Tag::ServiceGrants { holder, .. }) => {
                holders.push(holder.as_str());
                false
            }
            Some(Tag::ServiceFrees { holder, .. }) => {
                holders.retain(|h| h != holder);
                false
            }
            Some(Tag::Renewed) => {
                role(e.from) == Some(Role::ConsensusNode)
                    && !holders.contains(&name(e.to))
                    && !believers.contains(&e.to)
            }
            _ => false,
        })
        .collect()
}

/// For each database reply accepting a write with a token, or to a read that raised its
/// `last_token` (fencing every access), the database's `last_token` after it: a reader sees why
/// a later token is refused (it is below) or passes (it is not).
pub(super) fn last_tokens(events: &[TraceEvent]) -> Vec<Option<u64>> {
    let mut last: BTreeMap<NodeId, u64> = BTreeMap::new();
    events
        .iter()
        .map(|e| match e.tag {
            Some(Tag::WriteAccepted { token: Some(t), .. }) => {
                let now = t.max(last.get(&e.from).copied().unwrap_or(0));
                last.insert(e.from, now);
                Some(now)
            }
            Some(Tag::ReadRaisedToken { last_token: t }) => {
                last.insert(e.from, t);
                Some(t)
            }
            Some(Tag::AccessRejected {
                last_token: Some(t),
                ..
            }) => {
                last.insert(e.from, t);
                None
            }
            _ => None,
        })
        .collect()
}
