//! What the ZooKeeper/Curator review of session 26 left open: an entry a majority stored
//! outlives its leader, a reply goes back only on the connection its request came in on, and
//! the client's connection states at the edges. Golden times and labels that only the true
//! behaviour produces.

mod common;

use lockstep_core::Run;

const HEAD: &str = "name = \"t\"\ntitle = \"t\"\nsummary = \"s\"\nexpect = \"safe\"\n";

/// Two Curator clients: A holds the lock for 4 s, B waits; both ping every second.
const ZK: &str = "seed = 1\n[lock]\nkind = \"consensus\"\nttl_ms = 6000\nfirst_token = 33\nnodes = 3\n\
    [[workers]]\nname = \"A\"\nwork_ms = 4000\nrenew_every_ms = 1000\non_suspended = \"stop\"\n\
    [[workers]]\nname = \"B\"\nstart_ms = 100\nwork_ms = 500\nrenew_every_ms = 1000\non_suspended = \"stop\"\n";

fn run_body(body: &str) -> Run {
    common::run_text(HEAD, body)
}

fn lines(r: &Run) -> Vec<String> {
    r.trace
        .events
        .iter()
        .map(|e| format!("{} {}", e.time_ms, e.label))
        .collect()
}

fn check(r: &Run, expect: &[&str], absent: &[&str]) {
    common::check_in_order(&lines(r), expect, absent);
}

fn explanation<'r>(r: &'r Run, label: &str) -> &'r str {
    r.trace
        .events
        .iter()
        .find(|e| e.label == label)
        .map_or("", |e| e.explanation.as_str())
}

/// A's delete reached both followers' logs, but the leader crashed before their acks came back.
/// The new leader holds it, so Raft's leader completeness commits it in the new term at once
/// (B holds the lock as soon as it reconnects); it used to be declared lost, and B waited for A's
/// retried delete. Nobody answers A on node-2: it asked over its connection to node-1. Its
/// guaranteed delete, sent again after reconnecting, finds nothing: NONODE.
#[test]
fn a_delete_a_majority_stored_commits_after_its_leader_dies() {
    let r = run_body(&format!(
        "{ZK}[[faults]]\nat_ms = 4011\nkind = \"crash\"\ntarget = \"node-1\"\n"
    ));
    check(
        &r,
        &[
            "4010 ack",
            "4011 node-1 crashes",
            "4011 lost: ack",
            "4316 1 uncommitted entry sent again in term 2",
            "4318 A's unlock committed, revision 35",
            "4318 locked, revision=34",
            "4480 B holds the lock (token 34)",
            "5299 A's session reconnected",
            "5302 NONODE: already deleted",
            "5303 A done",
        ],
        &[
            "will be overwritten",
            "session expired",
            "unlock is dropped",
        ],
    );
    // The only "unlocked" is B's own.
    let unlocked: Vec<String> = lines(&r)
        .into_iter()
        .filter(|l| l.ends_with(" unlocked"))
        .collect();
    assert_eq!(unlocked, ["4485 unlocked", "4486 unlocked"]);
    assert!(
        explanation(&r, "A's unlock committed, revision 35")
            .contains("an answer goes back only on the connection a request came in on"),
        "{}",
        explanation(&r, "A's unlock committed, revision 35")
    );
    assert!(
        explanation(&r, "NONODE: already deleted").contains("applied after all, at 4318 ms"),
        "{}",
        explanation(&r, "NONODE: already deleted")
    );
}
