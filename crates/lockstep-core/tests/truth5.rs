//! Session 12's corrections to the model: an unanswered keepalive does not move a client to
//! another node (clientv3 keeps its one keepalive stream; ZooKeeper's client moves only at its
//! read timeout), the client's deadline says which timeout it was and discards later answers, a
//! watch event outlives a partition, and a ZooKeeper session is lost at 4/3 of its timeout.

use lockstep_core::trace::{EventKind, Trace};
use lockstep_core::{catalogue, parse_scenario, run};

mod built_in;
use built_in::{run_id, sends, time_of};

/// The node each of `worker`'s keepalives was sent to, with the time.
fn keepalive_targets(trace: &Trace, worker: &str) -> Vec<(u64, String)> {
    sends(trace, worker, "keepalive")
}

/// clientv3 writes every keepalive to one gRPC stream and replaces the stream only when it breaks
/// (lease.go: sendKeepAliveLoop, resetRecv); a partition that drops them silently breaks nothing.
#[test]
fn unanswered_etcd_keepalives_stay_on_one_node() {
    let r = run_id("consensus-waiter-session-expired");
    let sent = keepalive_targets(&r.trace, "B");
    assert!(sent.len() >= 8, "{sent:?}");
    assert!(sent.iter().all(|(_, to)| to == "node-1"), "{sent:?}");
}

/// ZooKeeper's client stays on its server until the read timeout (2/3 of the session timeout)
/// passes without a word (ClientCnxn): A's pings all go to node-1, until SUSPENDED at 4339 ms
/// (after it the client sends connect requests, not pings: truth6.rs).
#[test]
fn a_zookeeper_client_moves_only_at_its_read_timeout() {
    let r = run_id("consensus-session-suspended");
    let suspended = r
        .trace
        .events
        .iter()
        .find(|e| e.label == "A's session is suspended")
        .map(|e| e.time_ms)
        .expect("suspended");
    assert_eq!(suspended, 4339);
    let sent: Vec<(u64, String)> = r
        .trace
        .events
        .iter()
        .filter(|e| e.kind == EventKind::Send && e.label.starts_with("ping"))
        .filter(|e| r.trace.participants[usize::from(e.from)].name == "A")
        .map(|e| {
            (
                e.time_ms,
                r.trace.participants[usize::from(e.to)].name.clone(),
            )
        })
        .collect();
    assert!(sent.len() >= 4, "{sent:?}");
    for (t, to) in &sent {
        assert!(*t < suspended && to == "node-1", "{sent:?}");
    }
}

/// Until a keepalive is answered, clientv3's deadline is its first-answer timeout (5 s without a
/// dial timeout), not the TTL; the note says which.
#[test]
fn a_first_keepalive_never_answered_gives_up_on_the_first_answer_timeout() {
    let text = r#"name = "first-keepalive-lost"
title = "t"
summary = "s"
expect = "safe"

[lock]
kind = "consensus"
ttl_ms = 10000

[resource]
fencing = "enforce"

[[workers]]
name = "A"
work_ms = 9000
fencing = true

[[faults]]
kind = "drop"
match = "keepalive"
from = "A"

[[faults]]
at_ms = 100
kind = "partition"
groups = [["A"], ["node-1", "node-2", "node-3"]]
"#;
    let s = parse_scenario("first.toml", text.as_bytes()).expect("valid");
    let r = run(&s);
    let gave_up = r
        .trace
        .events
        .iter()
        .find(|e| e.label == "A's client gives up its lease")
        .expect("A gives up");
    // The first keepalive went at 4 ms: deadline 5004, on the deadline loop's pass at 6004.
    assert_eq!(gave_up.time_ms, 6004);
    assert!(
        gave_up
            .explanation
            .starts_with("The first keepalive has had no answer within 5000 ms"),
        "{}",
        gave_up.explanation
    );
    // That timeout does not depend on the 10 s TTL: the leader still keeps the lease.
    assert!(
        gave_up
            .explanation
            .contains("This timeout does not depend on the TTL: with a 10000 ms TTL the leader keeps the lease"),
        "{}",
        gave_up.explanation
    );
    // With an answer, the deadline counts a TTL from it.
    let r = run_id("consensus-waiter-session-expired");
    let b = r
        .trace
        .events
        .iter()
        .find(|e| e.label == "B's client gives up its lease")
        .expect("B gives up");
    assert!(
        b.explanation
            .starts_with("No keepalive has been answered for 5000 ms or more"),
        "{}",
        b.explanation
    );
}

/// A watch is one long-lived stream: an event that fires while a partition cuts the waiter off
/// waits, and is not lost: it goes when the partition heals (etcd's watch guarantees: no event is
/// missed; clientv3 watch.go resumes a broken watch from the last revision it saw).
#[test]
fn a_watch_event_sent_across_a_partition_arrives_when_it_heals() {
    let text = catalogue::source("consensus-waiter-session-expired")
        .expect("source")
        .replacen(
            "at_ms = 6000\nkind = \"heal\"",
            "at_ms = 8000\nkind = \"heal\"",
            1,
        );
    assert!(text.contains("at_ms = 8000"), "the heal moved");
    let s = parse_scenario("late-heal.toml", text.as_bytes()).expect("valid");
    let r = run(&s);
    let events = &r.trace.events;
    let waits = events
        .iter()
        .find(|e| e.label == "B's watch waits for node-1")
        .expect("the watch waits");
    assert!(waits.time_ms < 8000, "it fired during the partition");
    let watch = events
        .iter()
        .find(|e| e.kind == EventKind::Send && e.label.starts_with("watch:"))
        .expect("the watch event");
    assert_eq!(watch.time_ms, 8000, "sent as the partition heals");
    assert!(
        !events
            .iter()
            .any(|e| e.kind == EventKind::Lost && e.message == watch.message),
        "the watch event is not lost"
    );
    let delivered = events
        .iter()
        .find(|e| e.kind == EventKind::Deliver && e.message == watch.message)
        .expect("delivered");
    assert_eq!(delivered.time_ms, 8001, "one latency after the heal");
    assert_eq!(
        r.verdict.outcome,
        lockstep_core::Outcome::Safe,
        "B learns its session is gone, starts again and gets the lock"
    );
}

/// Once the client's deadline has given the lease up, an answer to a keepalive still on its way
/// is thrown away (lease.go recvKeepAlive: the lease is no longer in l.keepAlives): the program
/// does not learn from it that the lease is gone.
#[test]
fn an_answer_after_the_client_gave_the_lease_up_is_discarded() {
    let r = run_id("consensus-lock-delay");
    let labels: Vec<&str> = r.trace.events.iter().map(|e| e.label.as_str()).collect();
    let gave_up = labels
        .iter()
        .position(|l| *l == "A's client gives up its lease")
        .expect("A gives up");
    let discarded = labels
        .iter()
        .position(|l| *l == "A's client discards the answer")
        .expect("the late answer is discarded");
    assert!(discarded > gave_up);
    assert!(
        !labels.contains(&"A has lost the lock"),
        "A's program never hears of it"
    );
}

/// ZooKeeper 3.9.3+ expires the session on the client once 4/3 of the session timeout pass
/// without a word (ZOOKEEPER-4508, ClientCnxn), and Curator reports LOST: A last heard from the
/// cluster at 1006 ms, so LOST comes after 1006 + 6666 ms (at the end of the connection attempt
/// in progress then: truth6.rs), well before a whole timeout after SUSPENDED (9339 ms).
#[test]
fn a_zookeeper_session_is_lost_at_four_thirds_of_its_timeout() {
    let r = run_id("consensus-session-suspended");
    let at = |label: &str| time_of(&r, label);
    let suspended = at("A's session is suspended");
    let lost = at("A's session is lost");
    assert_eq!(suspended, 1006 + 5000 * 2 / 3);
    assert!(
        lost >= 1006 + 5000 * 4 / 3 && lost < suspended + 5000,
        "{lost}"
    );
}
