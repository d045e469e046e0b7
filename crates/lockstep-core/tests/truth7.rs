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
            "4318 B's watch fires after its reconnect",
            "4480 B's session reconnected",
            "4481 B holds the lock (token 34)",
            "5036 A's session reconnected",
            "5041 NONODE: already deleted",
            "5042 A done",
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
    assert_eq!(unlocked, ["4486 unlocked", "4487 unlocked"]);
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

/// A is cut off from 1500 to 4500 ms; the answer to its ping of 5004 arrives at 5006, the very
/// millisecond its 4000 ms read timeout passes. The client has closed that connection and never
/// reads the answer: it reconnects to node-2 with a connect request. The answer used to count
/// as a reconnect, and A then pinged node-2 without ever connecting to it.
#[test]
fn a_ping_answer_at_the_read_timeout_is_not_a_reconnect() {
    let a_continues = ZK.replacen(
        "work_ms = 4000\nrenew_every_ms = 1000\non_suspended = \"stop\"",
        "work_ms = 9000\nrenew_every_ms = 1000\non_suspended = \"continue\"",
        1,
    );
    assert_ne!(a_continues, ZK);
    let r = run_body(
        &(a_continues
            + "[[faults]]\nat_ms = 1500\nkind = \"partition\"\ngroups = [[\"A\"], [\"node-1\", \"node-2\", \"node-3\"]]\n[[faults]]\nat_ms = 4500\nkind = \"heal\"\n"),
    );
    check(
        &r,
        &[
            "5004 ping session 1",
            "5006 A's session is suspended",
            "5006 ping answered",
            "5207 connect: session 1",
            "5211 A's session reconnected",
            "6211 ping session 1",
        ],
        &["5006 A's session reconnected"],
    );
}

/// node-1's machine dies at 1500 ms; B is granted the lock while it has no connection and acts
/// on it once it reconnects at 5841 ms. Its lease counts from that reconnect, not from its last
/// ping before the crash (1104 + 6000 = 7104 ms, as the sentence used to say).
#[test]
fn a_grant_acted_on_after_a_reconnect_counts_the_lease_from_it() {
    let r = run_body(&format!(
        "{ZK}[[faults]]\nat_ms = 1500\nkind = \"crash\"\ntarget = \"node-1\"\nhost = true\n"
    ));
    check(
        &r,
        &[
            "5841 B's session reconnected",
            "5842 B holds the lock (token 34)",
        ],
        &[],
    );
    let held = explanation(&r, "B holds the lock (token 34)");
    assert!(held.contains("good until 11839 ms"), "{held}");
}

/// node-1 and node-2 die: no quorum is left. A had written and was releasing when its session
/// was lost; its LOST note said "It had already stopped", true only of a worker that stopped at
/// SUSPENDED before writing.
#[test]
fn a_lost_session_while_releasing_says_so() {
    let r = run_body(&format!(
        "{ZK}[[faults]]\nat_ms = 1500\nkind = \"crash\"\ntarget = \"node-1\"\nhost = true\n\
         [[faults]]\nat_ms = 1600\nkind = \"crash\"\ntarget = \"node-2\"\nhost = true\n"
    ));
    check(
        &r,
        &["4006 write 3 payouts", "9375 A's session is lost"],
        &[],
    );
    let lost = explanation(&r, "A's session is lost");
    assert!(lost.ends_with("A was releasing the lock."), "{lost}");
    assert!(!lost.contains("already stopped"), "{lost}");
}

/// With seed 4, node-3 leads after node-1 dies; B holds the lock through follower node-2 when
/// node-3's process dies at 3500 ms. node-2's connection to its leader is reset, so it closes
/// every client connection (Learner.shutdown → closeAllConnections): B is SUSPENDED at once and,
/// as a `stop` worker, never writes. It used to ping node-2 on undisturbed and write at 5786 ms.
/// A connect request to a server with no leader is closed at once too: no SYN is resent to a
/// live host that took the connection, and no "no leader" reply, etcd's, reaches a Curator client.
#[test]
fn a_follower_that_loses_its_leader_drops_its_clients() {
    let both = ZK.replacen("seed = 1", "seed = 4", 1).replacen(
        "start_ms = 100\nwork_ms = 500",
        "start_ms = 100\nwork_ms = 3000",
        1,
    );
    let r = run_body(&format!(
        "{both}[[faults]]\nat_ms = 1500\nkind = \"crash\"\ntarget = \"node-1\"\n\
         [[faults]]\nat_ms = 3500\nkind = \"crash\"\ntarget = \"node-3\"\n"
    ));
    check(
        &r,
        &[
            "1775 connection closed: no leader",
            "1776 node-2 closes A's connection",
            "2106 B holds the lock (token 34)",
            "3500 node-3 crashes",
            "3500 connection closed: no leader",
            "3501 B's session is suspended",
            "3501 B stops working",
        ],
        &["write 3 payouts", "SYN resent", "etcdserver: no leader"],
    );
    let suspended = r
        .trace
        .events
        .iter()
        .find(|e| e.time_ms == 3501 && e.label == "B's session is suspended")
        .map_or("", |e| e.explanation.as_str());
    assert!(
        suspended.starts_with(
            "node-2's leader's process died, so node-2 stopped following, and closed B's connection"
        ),
        "{suspended}"
    );
}

/// node-1 crashes at 102 ms, after both followers stored B's lock request but before it
/// committed. The new leader commits it (B's key, revision 34), and B's repeated request names
/// the same key, as etcd's Mutex does (the key is the session's lease): B is answered with that
/// key and holds the lock once A's goes. The repeat used to make a second lease and key, queued
/// behind B's own orphan until its lease ran out (6712 ms). B's first repeat, at 103 ms, goes to
/// node-2, which still follows the dead node-1 (raft keeps its leader until its election
/// timeout) and forwards it there: it is lost, and B asks again after its request timeout.
#[test]
fn a_repeated_lock_request_finds_the_key_its_first_made() {
    let etcd =
        ZK.replace("on_suspended = \"stop\"\n", "")
            .replacen("renew_every_ms = 1000\n", "", 2);
    assert!(!etcd.contains("on_suspended"));
    let r = run_body(&format!(
        "{etcd}[[faults]]\nat_ms = 102\nkind = \"crash\"\ntarget = \"node-1\"\n"
    ));
    check(
        &r,
        &[
            "104 forward: lock lock:batch-42 (lease 6 s)",
            "105 lost: forward: lock lock:batch-42 (lease 6 s)",
            "409 B's key committed, revision 34",
            "1103 no answer from the lock service",
            "1206 queued, revision=34",
            "4013 B holds the lock (token 34)",
        ],
        &["lease 3", "revision=35"],
    );
}

/// node-1 and node-2 die; node-2 comes back at 9000 ms. A and B are LOST at 7501 ms, with no
/// leader to expire their sessions; B asks again on a new session (revision 35). Its old
/// session's watch, which fires when A's key goes, is not delivered: ZooKeeper drops a session's
/// watches with it, and the client has given that session up. It used to reach B as etcd's
/// "own key gone" verdict, saying B learned of its loss only then. A's dropped unlock says the
/// node goes only when a leader expires the session.
#[test]
fn a_given_up_sessions_watch_is_not_delivered() {
    let r = run_body(&format!(
        "{ZK}[[faults]]\nat_ms = 1500\nkind = \"crash\"\ntarget = \"node-1\"\n\
         [[faults]]\nat_ms = 1600\nkind = \"crash\"\ntarget = \"node-2\"\n\
         [[faults]]\nat_ms = 9000\nkind = \"restart\"\ntarget = \"node-2\"\n"
    ));
    check(
        &r,
        &[
            "7501 A's unlock is dropped",
            "7501 B's session is lost",
            "9267 queued, revision=35",
            // Sessions live from the new leader's promotion (its empty entry commits at 9092 ms).
            "15395 B holds the lock (token 35)",
        ],
        &["own key gone", "ErrSessionExpired"],
    );
    let dropped = explanation(&r, "A's unlock is dropped");
    assert!(
        dropped.contains("this model does not show that retry")
            && dropped.contains("FailedDeleteManager"),
        "{dropped}"
    );
}

/// The same failures with etcd clients: B is granted the lock at 9316 ms, after its own count of
/// its lease ran out (no keepalive answered since 1104 ms) while its key and lease are alive at
/// the new leader. etcd's Mutex.Lock returns once its own key is there (mutex.go), so B holds
/// the lock, and the sentence says its count had run out. It used to be told ErrSessionExpired
/// and queue behind its own key on a new session until 15618 ms.
#[test]
fn an_etcd_waiter_granted_after_its_own_count_ran_out_holds_the_lock() {
    // A waits up to 10 s for a leader to release, so its unlock commits once node-2 is back.
    let etcd = ZK.replace("on_suspended = \"stop\"\n", "").replacen(
        "work_ms = 4000\n",
        "work_ms = 4000\nrequest_timeout_ms = 10000\n",
        1,
    );
    let r = run_body(&format!(
        "{etcd}[[faults]]\nat_ms = 1500\nkind = \"crash\"\ntarget = \"node-1\"\n\
         [[faults]]\nat_ms = 1600\nkind = \"crash\"\ntarget = \"node-2\"\n\
         [[faults]]\nat_ms = 9000\nkind = \"restart\"\ntarget = \"node-2\"\n"
    ));
    check(
        &r,
        &["9316 B holds the lock (token 34)"],
        &[
            "ErrSessionExpired",
            "session expired",
            "gives up its unlock",
        ],
    );
    let held = explanation(&r, "B holds the lock (token 34)");
    assert!(
        held.contains("already ran out (at 7104 ms on its own clock)"),
        "{held}"
    );
}

/// The same failures with etcd clients and the default 1 s request timeout: A's unlock meets
/// "no leader" from 4008 ms on; clientv3 returns that error rather than retry a write, and A
/// gives up once its request timeout has passed. It used to ask every 100 ms up to the 600 s
/// limit when no leader came back, leaving the run inconclusive.
#[test]
fn an_etcd_unlock_that_finds_no_leader_gives_up_after_its_timeout() {
    let etcd = ZK.replace("on_suspended = \"stop\"\n", "");
    let r = run_body(&format!(
        "{etcd}[[faults]]\nat_ms = 1500\nkind = \"crash\"\ntarget = \"node-1\"\n\
         [[faults]]\nat_ms = 1600\nkind = \"crash\"\ntarget = \"node-2\"\n"
    ));
    check(
        &r,
        &[
            "4008 unlock lock:batch-42/1",
            "5030 A gives up its unlock: no leader",
        ],
        &[],
    );
    assert_ne!(r.verdict.outcome, lockstep_core::Outcome::Inconclusive);
}
