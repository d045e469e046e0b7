//! The consensus log keeps its order (review s6-9 findings 1-3): a leader re-sends an entry
//! whose append was lost, a later entry never commits past an earlier one, every voter and
//! pre-voter refuses a candidate whose log lacks an entry it holds, and a refusal names its real
//! reason. Each test runs the reviewer's scenario and checks golden times and labels.

use lockstep_core::trace::EventKind;
mod common;

use lockstep_core::{Run, parse_scenario, run};

const HEAD: &str = "name = \"t\"\ntitle = \"t\"\nsummary = \"s\"\nexpect = \"safe\"\nseed = 1\n";
const CONSENSUS: &str = "[lock]\nkind = \"consensus\"\nttl_ms = 5000\nfirst_token = 33\n[resource]\nfencing = \"enforce\"\n";

fn run_body(body: &str) -> Run {
    common::run_text(&format!("{HEAD}{CONSENSUS}"), body)
}

/// The run's sends as "time from -> to label".
fn sends(r: &Run) -> Vec<String> {
    r.trace
        .events
        .iter()
        .filter(|e| e.kind == EventKind::Send)
        .map(|e| {
            format!(
                "{} {} -> {} {}",
                e.time_ms,
                r.trace.name(e.from),
                r.trace.name(e.to),
                e.label
            )
        })
        .collect()
}

/// `expect` appears in order among the run's sends; no send contains any of `absent`.
fn check(r: &Run, expect: &[&str], absent: &[&str]) {
    common::check_in_order(&sends(r), expect, absent);
}

/// s16: a 190 ms partition cuts node-1 off as it appends A's entry, and heals before
/// CheckQuorum. The leader's heartbeat round after the heal (every 30 ms here, a tenth of the
/// 300 ms election timeout) sends the entry again; it commits at revision 33, and B, who asks
/// later, queues behind it at 34 and gets the lock only when A unlocks.
#[test]
fn a_lost_append_is_sent_again_and_commits_before_later_entries() {
    let r = run_body(
        "[[workers]]\nname = \"A\"\nstart_ms = 50\nwork_ms = 500\nfencing = true\n\
         [[workers]]\nname = \"B\"\nstart_ms = 400\nwork_ms = 500\nfencing = true\n\
         [[faults]]\nat_ms = 10\nkind = \"partition\"\ngroups = [[\"A\", \"node-1\"], [\"B\", \"node-2\", \"node-3\", \"db\"]]\n\
         [[faults]]\nat_ms = 200\nkind = \"heal\"\n",
    );
    check(
        &r,
        &[
            "51 node-1 -> node-2 append: put lock:batch-42/1 (lease 1)",
            "201 node-1 -> node-2 append again: put lock:batch-42/1 (lease 1)",
            "201 node-1 -> node-3 append again: put lock:batch-42/1 (lease 1)",
            "203 node-1 -> A locked, revision=33",
            "403 node-1 -> B queued, revision=34",
            "711 node-1 -> B locked, revision=34",
        ],
        &["B locked, revision=33"],
    );
    // While the partition lasts nobody answers node-1's heartbeats, so nothing is sent again
    // until the round after the heal: exactly one re-send to each follower.
    let again = sends(&r)
        .iter()
        .filter(|l| l.contains("append again"))
        .count();
    assert_eq!(again, 2);
}

/// s13: both appends of A's entry are dropped, everything else is healthy. The next heartbeat
/// round (81 ms) sends it again and A is answered at 83 ms; A never needs a second lease.
#[test]
fn a_dropped_append_is_repaired_by_the_next_heartbeat_round() {
    let r = run_body(
        "[[workers]]\nname = \"A\"\nstart_ms = 50\nwork_ms = 300\nfencing = true\n\
         [[faults]]\nkind = \"drop\"\nmatch = \"append\"\nto = \"node-2\"\n\
         [[faults]]\nkind = \"drop\"\nmatch = \"append\"\nto = \"node-3\"\n",
    );
    check(
        &r,
        &[
            "81 node-1 -> node-2 append again: put lock:batch-42/1 (lease 1)",
            "81 node-1 -> node-3 append again: put lock:batch-42/1 (lease 1)",
            "83 node-1 -> A locked, revision=33",
            "389 node-1 -> node-2 append: delete lock:batch-42/1",
        ],
        &["lease 2", "no answer"],
    );
}

/// s12-1: five nodes; node-2 acknowledged A's entry before it moved to the majority side. It
/// refuses node-3's pre-vote and vote for its longer log (its refusal carries its own term 1),
/// node-3 wins with node-4 and node-5 (the entry was on 2 of 5 logs, never committed), and the
/// entry is discarded.
#[test]
fn a_follower_holding_an_entry_refuses_a_candidate_that_lacks_it() {
    let text = format!(
        "{HEAD}[lock]\nkind = \"consensus\"\nttl_ms = 5000\nfirst_token = 33\nnodes = 5\n[resource]\nfencing = \"enforce\"\n\
         [[workers]]\nname = \"A\"\nstart_ms = 50\nwork_ms = 300\nfencing = true\nacquire_timeout_ms = 1500\n\
         [[workers]]\nname = \"B\"\nstart_ms = 2000\nwork_ms = 300\nfencing = true\n\
         [[faults]]\nat_ms = 10\nkind = \"partition\"\ngroups = [[\"A\", \"node-1\", \"node-2\"], [\"B\", \"node-3\", \"node-4\", \"node-5\", \"db\"]]\n\
         [[faults]]\nat_ms = 200\nkind = \"partition\"\ngroups = [[\"A\", \"node-1\"], [\"B\", \"node-2\", \"node-3\", \"node-4\", \"node-5\", \"db\"]]\n"
    );
    let r = run(&parse_scenario("s12.toml", text.as_bytes()).unwrap());
    check(
        &r,
        &[
            "52 node-2 -> node-1 ack",
            "312 node-2 -> node-3 pre-vote refused, term 1",
            "312 node-4 -> node-3 pre-vote granted, term 2",
            "314 node-2 -> node-3 vote refused, term 2",
            "314 node-4 -> node-3 vote granted, term 2",
            "3101 node-2 -> node-3 forward: lock lock:batch-42 (lease 5 s)",
            "3105 node-2 -> B locked, revision=33",
        ],
        &[
            "node-2 -> node-3 vote granted",
            "node-2 -> node-3 pre-vote granted",
        ],
    );
    // node-3 wins before any lease was committed, and says so in words, not "all 0 lease(s)".
    let won = r
        .trace
        .events
        .iter()
        .find(|e| e.label == "leader of term 2, revision 32")
        .unwrap();
    assert!(
        won.explanation.ends_with("There is no lease to refresh."),
        "{}",
        won.explanation
    );
    let refusal = r
        .trace
        .events
        .iter()
        .find(|e| e.kind == EventKind::Send && e.label == "vote refused, term 2")
        .unwrap();
    assert!(
        refusal
            .explanation
            .starts_with("node-2's log holds an entry that node-3's lacks"),
        "{}",
        refusal.explanation
    );
}

/// s1: the partition heals mid-election. node-1, still in term 1 (pre-vote kept it there),
/// refuses node-2's term-2 vote because its log holds A's entry, and the narration says so
/// rather than blaming terms.
#[test]
fn a_vote_refused_for_a_longer_log_names_that_reason() {
    let r = run_body(
        "[[workers]]\nname = \"A\"\nstart_ms = 50\nwork_ms = 500\nfencing = true\n\
         [[workers]]\nname = \"B\"\nstart_ms = 400\nwork_ms = 500\nfencing = true\n\
         [[faults]]\nat_ms = 10\nkind = \"partition\"\ngroups = [[\"A\", \"node-1\"], [\"B\", \"node-2\", \"node-3\", \"db\"]]\n\
         [[faults]]\nat_ms = 312\nkind = \"heal\"\n",
    );
    check(
        &r,
        &[
            "314 node-1 -> node-2 vote refused, term 2",
            "314 node-3 -> node-2 vote granted, term 2",
        ],
        &[],
    );
    let refusal = r
        .trace
        .events
        .iter()
        .find(|e| e.kind == EventKind::Send && e.label == "vote refused, term 2")
        .unwrap();
    assert!(
        refusal
            .explanation
            .starts_with("node-1's log holds an entry that node-2's lacks, so it refuses"),
        "{}",
        refusal.explanation
    );
}
