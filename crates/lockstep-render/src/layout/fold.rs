//! Finds repeated retries: a cycle of events (a SET and its "nil" answer, or a whole Redlock
//! round to five instances and its unlock) repeated three times or more in a row, identically.
//! The first cycle is drawn; the rest fold into one line ("B retried 47 more times, 102 ms
//! apart") that interactive front ends can unfold.

use lockstep_core::sort;
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use lockstep_core::Trace;
use lockstep_core::topology::Role;
use lockstep_core::trace::{EventKind, Tag, TraceEvent};

/// Longest cycle looked for, in events: a Redlock round to five instances and its unlock is 32
/// to 40 events; 60 workers retrying against one Redis make a round of 236 (as `lockstep run`).
const MAX_PERIOD: usize = 256;
/// A cycle must repeat at least this often (the first included) to fold.
const MIN_REPEATS: usize = 3;

/// A stretch of repeated cycles folded into one line.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Fold {
    /// First and last folded event (the first cycle, drawn, comes before `first`).
    pub first: usize,
    pub last: usize,
    /// How many rounds ran, the drawn ones included (a cycle may hold several rounds).
    pub repeats: usize,
    /// Average time from one round's start to the next.
    pub period_ms: u64,
    /// What the folded line says.
    pub text: String,
    /// Every folded event: all of `first..=last` for rounds back to back; only the actor's
    /// events for rounds other actors' events interleave (those stay drawn).
    pub events: Vec<usize>,
}

/// A hash of an event's shape: its kind between its lanes, its label and explanation with
/// every run of digits as one character (times, terms, back-off and tokens aside), and its tag
/// but for its numbers. Rounds of a retry with random back-off hash alike.
/// A lock service's answers count as alike whatever they say ("OK", "nil (key exists)"): a
/// retry round is the same round whichever instances said yes; what changed shows in the
/// worker's own verdict ("Redlock failed: 1–2/5").
fn shape_hash(e: &TraceEvent, answer: bool) -> u64 {
    let mut h = DefaultHasher::new();
    e.kind.hash(&mut h);
    e.from.hash(&mut h);
    e.to.hash(&mut h);
    if !answer {
        // The label, not the explanation: explanations name which instances said yes.
        hash_digits_as_one(&e.label, &mut h);
        match &e.tag {
            Some(Tag::ServiceGrants { holder, .. }) => {
                0u8.hash(&mut h);
                holder.hash(&mut h);
            }
            other => other.hash(&mut h),
        }
    }
    h.finish()
}

/// An event's shape, mixed for summing: see [`shape_hash`].
fn shape_of(trace: &Trace, e: &TraceEvent) -> u64 {
    let role = |n: u16| trace.participants.get(usize::from(n)).map(|p| p.role);
    let answer = e.message.is_some()
        && role(e.from).is_some_and(Role::is_lock_service)
        && role(e.to) == Some(Role::Worker);
    mix(shape_hash(e, answer))
}

/// Feeds `text` to `h` with every run of digits as one `#`.
fn hash_digits_as_one(text: &str, h: &mut DefaultHasher) {
    let mut in_digits = false;
    for b in text.bytes() {
        let digit = b.is_ascii_digit();
        if !(digit && in_digits) {
            h.write_u8(if digit { b'#' } else { b });
        }
        in_digits = digit;
    }
    h.write_u8(0xFF);
}

/// SplitMix64's finaliser: spreads a hash so that sums of them rarely collide.
fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// Texts equal once every run of digits counts as one character.
fn alike(a: &str, b: &str) -> bool {
    let (mut x, mut y) = (a.bytes().peekable(), b.bytes().peekable());
    loop {
        match (x.next(), y.next()) {
            (None, None) => return true,
            (Some(c), Some(d)) if c.is_ascii_digit() && d.is_ascii_digit() => {
                while x.next_if(u8::is_ascii_digit).is_some() {}
                while y.next_if(u8::is_ascii_digit).is_some() {}
            }
            (Some(c), Some(d)) if c == d => {}
            _ => return false,
        }
    }
}

/// What changed between the first and the last round: each label of the first round whose
/// numbers differ in the last, with the numbers as ranges ("vote for me, term 3–10").
fn changed(first: &[TraceEvent], last: &[TraceEvent]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for (a, b) in first.iter().zip(last) {
        if a.label != b.label && alike(&a.label, &b.label) {
            let text = crate::lease::story::fold_label(&a.label, &b.label, 1);
            if !out.contains(&text) {
                out.push(text);
            }
        }
    }
    out
}

/// Whether event `e` may be part of a folded cycle: messages, plain state changes and the lock
/// service granting and freeing the key (a failed round's bookkeeping, the same every round), so
/// no fault, belief, mark or verdict-relevant tag disappears.
fn foldable(e: &TraceEvent) -> bool {
    !matches!(e.kind, EventKind::Fault)
        && matches!(
            e.tag,
            None | Some(Tag::ServiceGrants { .. } | Tag::ServiceFrees { .. })
        )
}

/// The folds of `trace`, in order: first runs of whole rounds back to back; then, among the
/// events left, one actor's rounds that other actors' events interleave (three Redlock
/// clients retrying at once, an isolated node's pre-votes between workers' requests).
pub fn folds(trace: &Trace) -> Vec<Fold> {
    let events = &trace.events;
    let all: Vec<usize> = (0..events.len()).collect();
    let shapes: Vec<u64> = events.iter().map(|e| shape_of(trace, e)).collect();
    let mut out = fold_in(trace, &shapes, &all, None);
    let mut folded = vec![false; events.len()];
    for f in &out {
        for &i in &f.events {
            folded[i] = true;
        }
    }
    // Workers' retries, and lock-service nodes' rounds they start by deciding something
    // (a pre-vote, an election); a node's heartbeats are not retries.
    for (actor, p) in trace.participants.iter().enumerate() {
        let Ok(actor) = u16::try_from(actor) else {
            break;
        };
        if p.role != Role::Worker && !p.role.is_lock_service() {
            continue;
        }
        let involves = |i: usize| events[i].from == actor || events[i].to == actor;
        let mine: Vec<usize> = (0..events.len())
            .filter(|&i| !folded[i] && involves(i))
            .collect();
        // Only worth a look if the actor's events are interleaved with others'.
        if mine.len() < 2 * MIN_REPEATS || mine.last().map(|l| l + 1 - mine[0]) == Some(mine.len())
        {
            continue;
        }
        // A fold never reaches across one already made of this actor's rounds: its rounds would
        // not be next to each other, and its rows would run back in time.
        let mut found: Vec<Fold> = split_at_folds(&mine, |j| folded[j] && involves(j))
            .iter()
            .flat_map(|part| fold_in(trace, &shapes, part, Some(actor)))
            .collect();
        // A lock-service node's rounds (an isolated node's pre-votes) are what it sends and
        // what becomes of those messages: others' requests to it (a worker's lock request, the
        // new leader's appends, all lost) fall between its rounds and would break them up.
        if p.role.is_lock_service() {
            let own = own_events(events, actor, &folded);
            let other = fold_in(trace, &shapes, &own, Some(actor));
            let count = |fs: &[Fold]| fs.iter().map(|f| f.events.len()).sum::<usize>();
            if count(&other) > count(&found) {
                found = other;
            }
        }
        for f in found {
            if !whole_messages(events, &f.events, &folded) {
                continue;
            }
            for &i in &f.events {
                folded[i] = true;
            }
            out.push(f);
        }
    }
    sort::sort_by_key(&mut out, |f| f.first);
    out
}

/// `idx` (in order) cut wherever an event between two of them `is_fold` says is folded already.
fn split_at_folds(idx: &[usize], is_fold: impl Fn(usize) -> bool) -> Vec<Vec<usize>> {
    let mut parts: Vec<Vec<usize>> = vec![Vec::new()];
    for (k, &i) in idx.iter().enumerate() {
        if let Some(&prev) = k.checked_sub(1).and_then(|p| idx.get(p))
            && (prev + 1..i).any(&is_fold)
        {
            parts.push(Vec::new());
        }
        if let Some(part) = parts.last_mut() {
            part.push(i);
        }
    }
    parts
}

/// The events `actor` does (sends, state changes, notes) and the deliveries and losses of the
/// messages it sent, not yet folded.
fn own_events(events: &[TraceEvent], actor: u16, folded: &[bool]) -> Vec<usize> {
    let mut sent = std::collections::BTreeSet::new();
    let mut out = Vec::new();
    for (i, e) in events.iter().enumerate() {
        let own = if e.from == actor && e.kind == EventKind::Send {
            if let Some(m) = e.message {
                sent.insert(m);
            }
            true
        } else {
            match e.kind {
                EventKind::Deliver | EventKind::Lost => {
                    e.message.is_some_and(|m| sent.contains(&m))
                }
                _ => e.from == actor,
            }
        };
        if own && !folded[i] {
            out.push(i);
        }
    }
    out
}

/// Whether every message sent, delivered or lost in `fold` has all its events in it (or
/// already folded): a fold never leaves half an arrow behind.
fn whole_messages(events: &[TraceEvent], fold: &[usize], folded: &[bool]) -> bool {
    let ids: std::collections::BTreeSet<u64> =
        fold.iter().filter_map(|&i| events[i].message).collect();
    if ids.is_empty() {
        return true;
    }
    let inside: std::collections::BTreeSet<usize> = fold.iter().copied().collect();
    events.iter().enumerate().all(|(i, e)| {
        e.message
            .is_none_or(|m| !ids.contains(&m) || inside.contains(&i) || folded[i])
    })
}

/// Most runs of steps a fold's note lists one by one.
const MAX_RUNS: usize = 4;

/// The steps a fold holds, as its note says them: "steps 30-85" when they follow each other;
/// where other actors' steps between them stay drawn, each run ("steps 30-34, 38-49, 51-57"),
/// or with too many runs how many of the range it holds ("123 of steps 131-313, the rest
/// drawn"): a range never claims a step drawn on a row of its own.
fn step_runs(events: &[usize]) -> String {
    let mut runs: Vec<(usize, usize)> = Vec::new();
    for &i in events {
        match runs.last_mut() {
            Some((_, b)) if *b + 1 == i => *b = i,
            _ => runs.push((i, i)),
        }
    }
    let run = |&(a, b): &(usize, usize)| {
        if a == b {
            format!("{}", a + 1)
        } else {
            format!("{}-{}", a + 1, b + 1)
        }
    };
    match runs.as_slice() {
        [] => String::new(),
        [one] => format!("steps {}", run(one)),
        some if some.len() <= MAX_RUNS => {
            let list: Vec<String> = some.iter().map(run).collect();
            format!("steps {}", list.join(", "))
        }
        [(a, _), .., (_, b)] => format!(
            "{} of steps {}-{}, the rest drawn",
            events.len(),
            a + 1,
            b + 1
        ),
    }
}

/// The folds among the events `idx` (indices into the trace, in order), each a cycle repeated
/// back to back within `idx`; `actor` names whose rounds they are when `idx` is one actor's.
/// `shapes`: each trace event's [`shape_of`].
fn fold_in(trace: &Trace, shapes: &[u64], idx: &[usize], actor: Option<u16>) -> Vec<Fold> {
    let events = &trace.events;
    let ev = |k: usize| &events[idx[k]];
    let n = idx.len();
    let role = |n: u16| trace.participants.get(usize::from(n)).map(|p| p.role);
    // Prefix sums of two mixes of each event's shape and of events that may not fold: a
    // window's sums say which shapes it holds (in any order), so comparing two rounds is
    // O(1). Rounds whose replies arrive in a different order (random delays) are alike.
    let mut sum1 = vec![0u64; n + 1];
    let mut sum2 = vec![0u64; n + 1];
    let mut stuck = vec![0usize; n + 1];
    for k in 0..n {
        let h = shapes[idx[k]];
        sum1[k + 1] = sum1[k].wrapping_add(h);
        sum2[k + 1] = sum2[k].wrapping_add(mix(h ^ 0x9E37_79B9_7F4A_7C15));
        stuck[k + 1] = stuck[k] + usize::from(!foldable(ev(k)));
    }
    let sig = |from: usize, len: usize| {
        (
            sum1[from + len].wrapping_sub(sum1[from]),
            sum2[from + len].wrapping_sub(sum2[from]),
        )
    };
    let mut out = Vec::new();
    let mut i = 0;
    while i < n {
        let mut best: Option<(usize, usize)> = None;
        for p in 2..=MAX_PERIOD {
            if i + p * MIN_REPEATS > n {
                break;
            }
            if stuck[i + p] > stuck[i] {
                // Every longer round holds this event that may not fold too.
                break;
            }
            let first = sig(i, p);
            let mut r = 1;
            while i + (r + 1) * p <= n
                && sig(i + r * p, p) == first
                && stuck[i + (r + 1) * p] == stuck[i]
            {
                r += 1;
            }
            // The cycle that folds the most events wins (the shortest on a tie).
            if r >= MIN_REPEATS && best.is_none_or(|(bp, br)| r * p > bp * br) {
                best = Some((p, r));
            }
        }
        let Some((p, r)) = best else {
            i += 1;
            continue;
        };
        // One actor's rounds must be its own doing: it sends or decides something in each,
        // not only receives (another node's messages to it are that node's rounds).
        let starts_it = |a: u16, k: usize| {
            let e = ev(k);
            let worker = role(a) == Some(Role::Worker);
            e.from == a
                && match e.kind {
                    EventKind::State => true,
                    EventKind::Deliver => false,
                    _ => worker,
                }
        };
        if let Some(a) = actor
            && !(i..i + p).any(|k| starts_it(a, k))
        {
            i += 1;
            continue;
        }
        // A cycle may hold several rounds (rounds of different shapes that repeat as a group):
        // the rounds are counted, and timed, by the event the cycle starts with.
        let opener = shapes[idx[i]];
        let starts: Vec<u64> = (i..i + r * p)
            .filter(|&k| shapes[idx[k]] == opener)
            .map(|k| ev(k).time_ms)
            .collect();
        let per_cycle = starts.len() / r;
        let rounds = starts.len();
        let gaps: Vec<u64> = starts.windows(2).map(|w| w[1] - w[0]).collect();
        let period_ms = (starts[rounds - 1] - starts[0]) / (rounds as u64 - 1);
        let (least, most) = (
            gaps.iter().copied().min().unwrap_or(0),
            gaps.iter().copied().max().unwrap_or(0),
        );
        let apart = if least == most {
            format!("{period_ms} ms apart")
        } else {
            format!("{least}–{most} ms apart")
        };
        let round = |k: usize| -> Vec<TraceEvent> {
            (i + k * p..i + (k + 1) * p)
                .map(|j| ev(j).clone())
                .collect()
        };
        // Whose round it is: the one node every event of it involves.
        let involved = |who: u16| (i..i + p).all(|k| ev(k).from == who || ev(k).to == who);
        let who = actor
            .into_iter()
            .chain([ev(i).from, ev(i).to])
            .find(|&w| involved(w));
        let what = match who {
            Some(who) => format!("{} retried", trace.name(who)),
            None => format!("the same {p} events again"),
        };
        let mut differs = changed(&round(0), &round(r - 1));
        differs.truncate(2);
        let differs = if differs.is_empty() {
            String::new()
        } else {
            format!("; {}", differs.join("; "))
        };
        let folded: Vec<usize> = (i + p..i + r * p).map(|k| idx[k]).collect();
        let (first, last) = (folded[0], folded[folded.len() - 1]);
        let steps = step_runs(&folded);
        out.push(Fold {
            first,
            last,
            repeats: rounds,
            period_ms,
            text: format!(
                "{what} {} more times, {apart}{differs} ({steps})",
                rounds - per_cycle
            ),
            events: folded,
        });
        i += r * p;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use lockstep_core::topology::{Participant, Role};

    fn ev(t: u64, kind: EventKind, from: u16, to: u16, label: &str) -> TraceEvent {
        TraceEvent {
            time_ms: t,
            kind,
            from,
            to,
            message: None,
            label: label.into(),
            explanation: String::new(),
            tag: None,
        }
    }

    #[test]
    fn retries_fold_after_the_first() {
        let mut events = vec![ev(0, EventKind::Note, 0, 0, "start")];
        for k in 0..5 {
            events.push(ev(100 * k, EventKind::Send, 0, 1, "SET"));
            events.push(ev(100 * k + 1, EventKind::Send, 1, 0, "nil"));
        }
        events.push(ev(900, EventKind::Note, 0, 0, "end"));
        let trace = Trace {
            participants: vec![
                Participant {
                    name: "B".into(),
                    role: Role::Worker,
                },
                Participant {
                    name: "redis".into(),
                    role: Role::Redis,
                },
            ],
            events,
        };
        let f = folds(&trace);
        assert_eq!(f.len(), 1);
        assert_eq!((f[0].first, f[0].last, f[0].repeats), (3, 10, 5));
        assert_eq!(f[0].period_ms, 100);
        assert!(
            f[0].text
                .starts_with("B retried 4 more times, 100 ms apart")
        );
        // Two repeats are not enough.
        let short = Trace {
            events: trace.events[..5].to_vec(),
            ..trace.clone()
        };
        assert!(folds(&short).is_empty());
    }
}
