//! What a follower can know, and how an etcd client's watch resume reads (session 30's review,
//! finding 5a; its second review, N3): a follower learns that an entry committed from a leader's
//! message, never from the leader's own count of acks; a repeated request to resume a watch is
//! labelled as a retry. Golden times and labels that only this behaviour produces.

mod common;

use common::{HEAD, explanation, lines, two};

/// A's delete never reaches node-2 (B's server), node-3's ack commits it at 4011 ms and node-1's
/// machine fails at 4012 ms. node-3 wins term 2 at 4411 ms and sends node-2 the delete it lacks;
/// node-3 learns the delete committed when node-2's ack commits its own empty entry (4413 ms).
/// node-2 learns it from node-3's next message, the `commit:` at 4413 ms, and fires B's watch as
/// it arrives (4414 ms). It used to send B `locked` at 4413 ms, in the instant node-3 counted
/// the ack, with no message from node-3 to tell it.
#[test]
fn a_follower_learns_of_a_commit_from_the_leaders_message() {
    let faults = "[[faults]]\nkind = \"drop\"\nmatch = \"append: delete lock:batch-42/1\"\nto = \"node-2\"\n\
                  [[faults]]\nat_ms = 4012\nkind = \"crash\"\ntarget = \"node-1\"\nhost = true\n";
    let r = common::run_text(HEAD, &two("", faults));
    common::check_in_order(
        &lines(&r),
        &[
            "4411 leader of term 2, revision 35",
            "4412 append again: delete lock:batch-42/1",
            "4413 ack",
            "4413 commit: locked, revision=34",
            "4414 commit: locked, revision=34",
            "4414 locked, revision=34",
            "4415 B holds the lock (token 34)",
        ],
        &["4413 locked, revision=34"],
    );
}

/// B's keepalive to node-3 at 5306 ms gets "no leader" (node-3 won a term it could not commit,
/// node-2's machine having failed, and stepped down), so B moves to node-1, whose machine is down: its request to resume
/// the watch there is lost, and it asks again a second later, labelled as a retry, with the
/// model's one-endpoint simplification and clientv3's own backoff told in the explanation.
#[test]
fn a_repeated_watch_resume_is_a_retry() {
    let body = common::leader_without_quorum("[limits]\nmax_time_ms = 8000\n");
    let r = common::run_text(HEAD, &body);
    let l = lines(&r);
    let first = l
        .iter()
        .position(|x| x.ends_with(" watch again from revision 34"))
        .unwrap_or_else(|| panic!("no watch resume in:\n{}", l.join("\n")));
    let retry = l
        .iter()
        .position(|x| x.ends_with(" watch again from revision 34 (retry)"))
        .unwrap_or_else(|| panic!("no retry in:\n{}", l.join("\n")));
    assert!(first < retry, "{}", l.join("\n"));
    let time = |i: usize| l[i].split(' ').next().unwrap_or_default().to_string();
    let first_time: u64 = time(first).parse().unwrap_or_default();
    let retry_time: u64 = time(retry).parse().unwrap_or_default();
    assert_eq!(retry_time, first_time + 1000, "{}", l.join("\n"));
    let said = explanation(&r, first_time, "watch again from revision 34");
    assert!(said.contains("one endpoint for everything"), "{said}");
    let again = explanation(&r, retry_time, "watch again from revision 34 (retry)");
    assert!(again.contains("backoffIfUnavailable"), "{again}");
}

/// B's ZooKeeper client sends its delete to node-1 just after node-1's machine failed: the
/// explanation of the loss says B hears of it through its connection (read timeout or a ping's
/// reset), not from a request timeout, which a ZooKeeper request does not have.
#[test]
fn a_zookeeper_request_lost_to_a_dead_server_has_no_timeout_of_its_own() {
    let r = common::run_text(HEAD, &common::zk_delete_to_failed_host());
    let lost = explanation(&r, 4015, "lost: unlock lock:batch-42/2");
    assert!(
        lost.contains("read timeout") && lost.contains("no timeout of its own"),
        "{lost}"
    );
    assert!(!lost.contains("when its timeout fires"), "{lost}");
}

/// A Curator client written to stop on SUSPENDED is paused for 8 s with a 5 s session (review
/// 31 F1). When the pause ends, its own thread runs first and sends the write whose time came;
/// ZooKeeper's send loop, waking with it, finds 4/3 of the session timeout long past and expires
/// the session on the client: LOST, with no SUSPENDED before it, and no ping. The worker stops,
/// but its write has gone. It used to report SUSPENDED after "3333 ms" of silence, say it
/// abandoned the job before writing after the write had gone, and ping the dead session.
#[test]
fn a_paused_curator_client_is_lost_after_its_write_has_gone() {
    let body = paused_curator(8000);
    let head = HEAD.replace("expect = \"safe\"", "expect = \"double-write\"");
    let r = common::run_text(&head, &body);
    common::check_in_order(
        &lines(&r),
        &[
            "9000 A resumes",
            "9000 write 3 payouts",
            "9001 A's session is lost",
            "9001 A stops working",
            "9001 DUPLICATE: 3 payouts paid twice",
        ],
        &["A's session is suspended", "9000 ping session 1"],
    );
    let lost = explanation(&r, 9001, "A's session is lost");
    assert!(lost.contains("8997 ms") && lost.contains("4/3"), "{lost}");
    let stops = explanation(&r, 9001, "A stops working");
    assert!(stops.contains("already gone"), "{stops}");
    assert_eq!(r.verdict.outcome, lockstep_core::Outcome::DoubleWrite);
}

/// The same client paused 4 s: less than 4/3 of its session timeout, more than its read
/// timeout. Its write goes as it resumes, and SUSPENDED comes a moment later, with the silence
/// it really had and no talk of unanswered pings (none went during the pause). The write's
/// answer does not end its release (review 31b N4): its delete waits for the reconnect, which
/// finds the session expired, and only then is it dropped. It used to finish "done" on the
/// write's answer with its delete still queued.
#[test]
fn a_paused_curator_client_is_suspended_after_its_write_has_gone() {
    let body = paused_curator(4000);
    let r = common::run_text(HEAD, &body);
    common::check_in_order(
        &lines(&r),
        &[
            "5000 A resumes",
            "5000 write 3 payouts",
            "5001 A's session is suspended",
            "5001 A stops working",
            "5001 A's unlock waits for a connection",
            "5002 applied 3",
            "5206 A's session has expired",
            "5206 A's unlock is dropped",
            "5206 A done",
        ],
        &["5000 ping session 1", "5002 A done"],
    );
    let suspended = explanation(&r, 5001, "A's session is suspended");
    assert!(
        suspended.contains("4997 ms") && suspended.contains("read timeout was up at 3333 ms"),
        "{suspended}"
    );
    assert!(!suspended.contains("pings went unanswered"), "{suspended}");
}

/// A Curator client that stops on SUSPENDED holds the lock with a 5 s session and is paused
/// for `pause_ms` at 1000 ms, with fencing off; B waits for the lock.
fn paused_curator(pause_ms: u64) -> String {
    format!(
        "seed = 1\n[lock]\nkind = \"consensus\"\nttl_ms = 5000\nfirst_token = 33\nnodes = 3\n\
         [resource]\nfencing = \"off\"\n\
         [[workers]]\nname = \"A\"\nwork_ms = 3000\nrenew_every_ms = 1000\non_suspended = \"stop\"\n\
         [[workers]]\nname = \"B\"\nstart_ms = 100\nwork_ms = 500\nrenew_every_ms = 1000\n\
         [[faults]]\nkind = \"pause\"\ntarget = \"A\"\nat_ms = 1000\nduration_ms = {pause_ms}\n"
    )
}

/// A waits for the lock behind B, whose write is lost, and is paused 8 s with a 5 s session;
/// its grant reaches it during the pause, after which the cluster revokes A's lease and C takes
/// the lock (review 31b N1). When A resumes, etcd's Mutex reads its own key before it holds the
/// lock and finds it gone (ErrSessionExpired); ZooKeeper's client expires the session before it
/// reads the grant (LOST). Either way A asks again on a new session. It used to hold the lock on
/// the stale grant and pay a second time beside C.
#[test]
fn a_grant_read_after_a_pause_finds_the_waiters_key_gone() {
    for client in ["", "on_suspended = \"stop\"\n"] {
        let body = format!(
            "seed = 1\n[lock]\nkind = \"consensus\"\nttl_ms = 5000\nfirst_token = 33\nnodes = 3\n\
             [resource]\nfencing = \"off\"\n\
             [[workers]]\nname = \"B\"\nwork_ms = 2000\nrenew_every_ms = 1000\n{client}\
             [[workers]]\nname = \"A\"\nstart_ms = 100\nwork_ms = 500\nrenew_every_ms = 1000\n{client}\
             [[workers]]\nname = \"C\"\nstart_ms = 6000\nwork_ms = 500\nrenew_every_ms = 1000\n{client}\
             [[faults]]\nkind = \"drop\"\nmatch = \"write\"\nfrom = \"B\"\n\
             [[faults]]\nkind = \"pause\"\ntarget = \"A\"\nat_ms = 1000\nduration_ms = 8000\n"
        );
        let r = common::run_text(HEAD, &body);
        // etcd: the Mutex's read of its own key finds nothing. ZooKeeper: the client's send
        // loop expires the session before it reads the grant that waited (3.9.3+).
        let (line, cite) = if client.is_empty() {
            (
                "9000 A's session expired while waiting",
                "ErrSessionExpired",
            )
        } else {
            ("9001 A's session is lost", "4/3")
        };
        common::check_in_order(
            &lines(&r),
            &["9000 A resumes", line],
            &["A holds the lock (token 34)", "DUPLICATE"],
        );
        let (time, label) = line.split_once(' ').unwrap_or_default();
        let said = explanation(&r, time.parse().unwrap_or_default(), label);
        assert!(said.contains(cite), "{said}");
        assert_eq!(r.verdict.outcome, lockstep_core::Outcome::Safe);
    }
}

/// A Curator client paused 8 s (5 s session) after its write, with a ping's answer waiting
/// (review 31b N2): as it resumes its delete and its ping do not go out, for ZooKeeper's send
/// loop expires the session first (LOST) and never reads the answer; Curator's guaranteed delete
/// is dropped with the session. It used to send both on the dead connection and be told
/// "session expired" in answer to the ping.
#[test]
fn a_curator_client_paused_before_its_delete_sends_nothing_on_the_dead_session() {
    let zk = "on_suspended = \"stop\"\n";
    let body = format!(
        "seed = 1\n[lock]\nkind = \"consensus\"\nttl_ms = 5000\nfirst_token = 33\nnodes = 3\n\
         [resource]\nfencing = \"off\"\n\
         [[workers]]\nname = \"A\"\nwork_ms = 1000\nrenew_every_ms = 1000\n{zk}\
         [[workers]]\nname = \"B\"\nstart_ms = 100\nwork_ms = 500\nrenew_every_ms = 1000\n{zk}\
         [[faults]]\nkind = \"pause\"\ntarget = \"A\"\nafter = \"write\"\nduration_ms = 8000\n"
    );
    let r = common::run_text(HEAD, &body);
    common::check_in_order(
        &lines(&r),
        &[
            "9006 A resumes",
            "9007 A's session is lost",
            "9007 A's unlock is dropped",
        ],
        &[
            "9006 unlock lock:batch-42/1",
            "9006 ping session 1",
            "session expired",
        ],
    );
}
