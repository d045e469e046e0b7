//! A ZooKeeper-style client opening a session (session 27's review, F3 and s4): its lock request,
//! which opens the session in this model, is a connection attempt until it is answered. A server
//! with no leader closes it, a dead process refuses or resets it, silence ends it at the connect
//! timeout, and a repeat finds the lock node the first made (Curator's protected mode). Golden
//! times and labels that only this behaviour produces.

mod common;

use common::explanation;
use lockstep_core::Run;

const HEAD: &str = "name = \"t\"\ntitle = \"t\"\nsummary = \"s\"\nexpect = \"safe\"\n";

/// Two Curator clients: A holds the lock for 4 s, B waits; both ping every second.
const ZK: &str = "seed = 1\n[lock]\nkind = \"consensus\"\nttl_ms = 6000\nfirst_token = 33\nnodes = 3\n\
    [[workers]]\nname = \"A\"\nwork_ms = 4000\nrenew_every_ms = 1000\non_suspended = \"stop\"\n\
    [[workers]]\nname = \"B\"\nstart_ms = 100\nwork_ms = 500\nrenew_every_ms = 1000\non_suspended = \"stop\"\n";

fn run_with_faults(faults: &[(u64, &str, &str)]) -> Run {
    let mut body = ZK.to_string();
    for (at, kind, rest) in faults {
        body.push_str(&format!(
            "[[faults]]\nat_ms = {at}\nkind = \"{kind}\"\n{rest}\n"
        ));
    }
    common::run_text(HEAD, &body)
}

fn check(r: &Run, expect: &[&str], absent: &[&str]) {
    common::check_in_order(&common::lines(r), expect, absent);
}

/// node-1 dies at 102 ms with B's lock request stored by both followers but not committed. The
/// host resets B's connection, so B's client hears at once (it used to wait out a 1 s request
/// timeout, as etcd's would); it asks node-2 after its pause, and the new leader, which committed
/// B's node at revision 34 in its term, answers with that node: B queues on it and holds the lock
/// when A's delete commits, at 1132 ms (A's unlock goes through its server node-3, which forwards
/// it to the leader). It used to queue behind its own orphan node and hold at 6712 ms.
#[test]
fn a_lock_request_cut_off_by_a_process_crash_is_asked_again_and_finds_its_node() {
    let r = run_with_faults(&[(102, "crash", "target = \"node-1\"")]);
    check(
        &r,
        &[
            "103 node-1 resets B's connection",
            "409 B's key committed, revision 34",
            "569 lock lock:batch-42 (lease 6 s)",
            "570 queued, revision=34",
            "1128 forward: unlock lock:batch-42/1",
            "1132 B holds the lock (token 34)",
        ],
        &["no answer from the lock service", "revision=35", "lease 3"],
    );
    // The repeat is narrated as one, not as a request that opens the session (review 28 F8).
    let repeat = explanation(&r, 569, "lock lock:batch-42 (lease 6 s)");
    assert!(repeat.contains("for the lock again"), "{repeat}");
    assert!(!repeat.contains("also opens"), "{repeat}");
    let reset = explanation(&r, 103, "node-1 resets B's connection");
    assert!(reset.contains("CONNECTIONLOSS"), "{reset}");
    assert!(reset.contains("findProtectedNodeInForeground"), "{reset}");
}

/// node-1 and node-2 die for good: B is LOST at 7501 ms and asks again on a new session. Its new
/// handle cycles connection attempts as the old one did: node-3, with no leader, closes each;
/// the dead processes' hosts refuse them; back round to node-3 it pauses a second more. It used
/// to be an etcd client: "etcdserver: no leader", then a 1 s request timeout.
#[test]
fn a_new_session_after_lost_cycles_connection_attempts() {
    let r = run_with_faults(&[
        (1500, "crash", "target = \"node-1\""),
        (1600, "crash", "target = \"node-2\""),
    ]);
    check(
        &r,
        &[
            "7501 B's session is lost",
            "7601 lock lock:batch-42 (lease 6 s)",
            "7602 connection closed: no leader",
            "7603 node-3 closes B's connection",
            "7894 refused: lock lock:batch-42 (lease 6 s)",
            "7895 node-1 refuses B's connection",
            "8165 node-2 refuses B's connection",
            "9266 node-3 closes B's connection",
        ],
        &[
            "etcdserver: no leader",
            "no answer from the lock service",
            "timed out",
        ],
    );
    let refused = explanation(&r, 8165, "node-2 refuses B's connection");
    assert!(
        refused.contains("a second more, as its list comes back round"),
        "{refused}"
    );
}

/// B cannot reach node-1 from the start: its first lock request is lost, and its client gives
/// the connection up at the connect timeout (6000 ms ÷ 3 servers), not at etcd's request
/// timeout.
#[test]
fn an_unanswered_first_lock_request_ends_at_the_connect_timeout() {
    let r = run_with_faults(&[(50, "partition", "groups = [[\"B\"], [\"node-1\"]]")]);
    check(
        &r,
        &[
            "100 lost: lock lock:batch-42 (lease 6 s)",
            "2100 B's connection to node-1 timed out",
            "2301 lock lock:batch-42 (lease 6 s)",
        ],
        &["no answer from the lock service"],
    );
    let timed_out = explanation(&r, 2100, "B's connection to node-1 timed out");
    assert!(
        timed_out.contains("connect timeout of 2000 ms"),
        "{timed_out}"
    );
}

/// node-1 dies, then node-2: node-3 keeps one election clock. Each fault used to arm another
/// timer beside the running one, and node-3 asked for pre-votes in two interleaved chains, some
/// 6–10 ms apart, while each said its timeout was drawn afresh from 300..600 ms (review 28 F6).
#[test]
fn a_node_keeps_one_election_clock_through_a_second_fault() {
    let r = run_with_faults(&[
        (1500, "crash", "target = \"node-1\""),
        (1600, "crash", "target = \"node-2\""),
    ]);
    let pre_votes: Vec<u64> = r
        .trace
        .events
        .iter()
        .filter(|e| e.label == "pre-vote for term 2")
        .map(|e| e.time_ms)
        .collect();
    assert!(pre_votes.len() > 10, "{pre_votes:?}");
    assert_eq!(pre_votes[0], 1895, "{pre_votes:?}");
    for pair in pre_votes.windows(2) {
        let gap = pair[1] - pair[0];
        assert!((300..600).contains(&gap), "{pre_votes:?}");
    }
}

/// node-1 dies at 101 ms with B's lock request on the wire. The request was sent on a connection
/// the death resets, and B hears of that reset: the request is lost with the connection, not
/// also "refused … never reached node-1" as if B had opened a new one (review 28 F4).
#[test]
fn a_request_on_the_wire_when_its_server_dies_goes_with_the_connection() {
    let r = run_with_faults(&[(101, "crash", "target = \"node-1\"")]);
    check(
        &r,
        &[
            "101 node-1 crashes",
            "101 lost: lock lock:batch-42 (lease 6 s)",
            "102 node-1 resets B's connection",
        ],
        &["refused: lock"],
    );
    let lost = explanation(&r, 101, "lost: lock lock:batch-42 (lease 6 s)");
    assert!(
        lost.contains("reset the connection it travelled on"),
        "{lost}"
    );
}
