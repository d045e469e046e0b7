//! Narration is true in every run (the Redis/etcd review of issue 9): each text that the reviewer
//! found untrue in some run is checked against a run where it used to be wrong.

use lockstep_core::{Run, run};
use lockstep_tests::{run_builtin, scenario};

const HEAD: &str = "name = \"t\"\ntitle = \"t\"\nsummary = \"s\"\nexpect = \"safe\"\n";

fn run_body(body: &str) -> Run {
    run(&scenario(&format!("{HEAD}{body}")))
}

/// Every label and explanation of the run, one "time label — explanation" line per event.
fn text(r: &Run) -> String {
    r.trace
        .events
        .iter()
        .map(|e| format!("{} {} — {}", e.time_ms, e.label, e.explanation))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The explanation of the first event at `time_ms` whose label is `label`.
fn explanation<'a>(r: &'a Run, time_ms: u64, label: &str) -> &'a str {
    r.trace
        .events
        .iter()
        .find(|e| e.time_ms == time_ms && e.label == label)
        .map(|e| e.explanation.as_str())
        .unwrap_or_else(|| panic!("no {time_ms} {label:?} in:\n{}", text(r)))
}

fn assert_absent(r: &Run, not: &str) {
    let all = text(r);
    assert!(!all.contains(not), "unexpected {not:?} in:\n{all}");
}

/// Finding 1: a backward step on Redis keeps the key 3 s past its TTL; the text says so and
/// does not speak of a forward jump.
#[test]
fn a_backward_clock_step_on_redis_is_told_as_a_late_expiry() {
    let r = run_body(
        "[lock]\nkind = \"redis\"\nttl_ms = 5000\n[resource]\nfencing = \"off\"\n[[workers]]\nname = \"A\"\nwork_ms = 8000\n[[workers]]\nname = \"B\"\nstart_ms = 6000\n[[faults]]\nat_ms = 1000\nkind = \"clock-jump\"\ntarget = \"redis\"\nby_ms = -3000\n",
    );
    let why = explanation(
        &r,
        8002,
        "lock:batch-42 expired late (clock stepped back on redis)",
    );
    assert!(
        why.contains("expired late: redis's clock was stepped back by 3000 ms")
            || why.contains("Expired late: redis's clock was stepped back by 3000 ms"),
        "{why}"
    );
    assert_absent(&r, "jumped forward");
}

/// The explanation of every event whose label starts with `label`.
fn explanations<'a>(r: &'a Run, label: &str) -> Vec<&'a str> {
    r.trace
        .events
        .iter()
        .filter(|e| e.label.starts_with(label))
        .map(|e| e.explanation.as_str())
        .collect()
}

/// Finding 6: in the Sentinel split brain nobody is paused and nobody takes a token, so neither
/// the pause sentence nor the fencing-counter sentence is said; with a pause fault, it is.
#[test]
fn sentinel_split_brain_says_nothing_about_pauses_or_counters_it_does_not_have() {
    let r = run_builtin("redis-sentinel-split-brain");
    assert!(
        !explanations(&r, "SET lock:batch-42 67094c IFEQ").is_empty(),
        "{}",
        text(&r)
    );
    assert_absent(&r, "cannot help while");
    assert_absent(&r, "fencing counter is at");
    let promoted = explanations(&r, "redis-replica is master, without the lock key");
    assert_eq!(
        promoted,
        [
            "The promoted replica never received the lock key: it will grant the lock again to whoever asks."
        ]
    );

    let paused = run_body(
        "[lock]\nkind = \"redis\"\nttl_ms = 3000\n[[workers]]\nname = \"A\"\nwork_ms = 5000\nrenew_every_ms = 1000\n[[faults]]\nat_ms = 2500\nkind = \"pause\"\ntarget = \"A\"\nduration_ms = 100\n",
    );
    let renewals: Vec<&str> = explanations(&paused, "SET lock:batch-42 67094c IFEQ")
        .into_iter()
        .filter(|e| e.starts_with("A renews"))
        .collect();
    assert!(!renewals.is_empty(), "{}", text(&paused));
    assert!(
        renewals
            .iter()
            .all(|e| e.ends_with("Renewals help only while A runs: a paused process sends none.")),
        "{renewals:?}"
    );
}

/// Finding 7: A's compare-and-delete on the promoted replica fails because the failover lost
/// A's key, not because it expired; the answer says so.
#[test]
fn a_failed_compare_and_delete_names_the_failover_that_lost_the_key() {
    let r = run_builtin("redis-failover-token-rollback");
    let answers: Vec<&str> = r
        .trace
        .events
        .iter()
        .filter(|e| e.explanation.contains("so nothing is deleted"))
        .map(|e| e.explanation.as_str())
        .collect();
    assert!(!answers.is_empty(), "{}", text(&r));
    for a in answers {
        assert!(!a.contains("it expired"), "{a}");
        assert!(
            a.contains("(it did not expire but was lost at 200 ms: A's lock is lost in the failover; perhaps someone else took the lock since)"),
            "{a}"
        );
    }
}

/// Finding 10: "the check that a stale holder skipped" only in a run where a stale holder wrote.
#[test]
fn the_stale_holder_sentence_needs_a_stale_write() {
    let clean = run_builtin("consensus-min-lease-ttl");
    assert!(
        !explanations(&clean, "B: already paid").is_empty(),
        "{}",
        text(&clean)
    );
    assert_absent(&clean, "stale holder skipped");
}

/// Finding 8: redis's clock runs 20 % fast, so A's 5 s key goes after about 4.2 s of real time,
/// and the expiry says why.
#[test]
fn an_expiry_on_a_drifting_redis_clock_names_the_drift() {
    let r = run_body(
        "[lock]\nkind = \"redis\"\nttl_ms = 5000\n[resource]\nfencing = \"off\"\n[[workers]]\nname = \"A\"\nwork_ms = 4500\n[[workers]]\nname = \"B\"\nstart_ms = 4200\n[[clocks]]\nnode = \"redis\"\ndrift_ppm = 200000\n",
    );
    let why = explanation(&r, 4169, "lock:batch-42 expired (A's TTL ran out)");
    assert!(
        why.ends_with("redis's clock runs 20 % fast, so the 5000 ms TTL ran out after about 4167 ms of real time."),
        "{why}"
    );
}

/// Finding 10, the other side: where a holder wrote twice-paid batches, the sentence stays.
#[test]
fn the_stale_holder_sentence_stays_after_a_double_write() {
    let r = run_builtin("redis-sentinel-split-brain");
    let notes = explanations(&r, "C: already paid");
    assert_eq!(notes.len(), 1, "{}", text(&r));
    assert!(notes[0].contains("stale holder skipped"), "{}", notes[0]);
}

/// Finding 12: A's late unlock reaches the leader after A's lease was revoked: nothing is
/// deleted and no revision is created; the answer says so.
#[test]
fn a_late_unlock_of_a_revoked_lease_deletes_nothing() {
    let r = run_body(
        "[lock]\nkind = \"consensus\"\nttl_ms = 5000\nfirst_token = 33\n[resource]\nfencing = \"enforce\"\n[[workers]]\nname = \"A\"\nwork_ms = 2000\nfencing = true\n[[workers]]\nname = \"B\"\nstart_ms = 5500\nwork_ms = 500\nfencing = true\n[[faults]]\nat_ms = 1000\nkind = \"pause\"\ntarget = \"A\"\nduration_ms = 7000\n",
    );
    let answers = explanations(&r, "nothing to delete: the key went with the lease");
    // Sent by the leader, then delivered to A.
    assert_eq!(answers.len(), 2, "{}", text(&r));
    assert!(
        answers[0].contains("creates no new revision"),
        "{}",
        answers[0]
    );
    assert!(explanation(&r, 8001, "TTL=0: lease not found").contains("lease is gone"));
}

/// Finding 13: a paused Redis reads its clock afresh when it resumes.
#[test]
fn a_resumed_redis_knows_that_time_passed() {
    let r = run_body(
        "[lock]\nkind = \"redis\"\nttl_ms = 5000\n[resource]\nfencing = \"off\"\n[[workers]]\nname = \"A\"\nwork_ms = 1000\n[[workers]]\nname = \"B\"\nstart_ms = 100\nretry_ms = 500\n[[faults]]\nat_ms = 50\nkind = \"pause\"\ntarget = \"redis\"\nduration_ms = 8000\n",
    );
    let why = explanation(&r, 8050, "redis resumes");
    assert!(
        why.starts_with("redis runs again and reads its wall clock afresh"),
        "{why}"
    );
    assert!(!why.contains("unaware"), "{why}");
}

/// Finding 9: A's OK arrives 500 ms after its 2000 ms lease, counted from the SET, ran out.
#[test]
fn a_grant_received_after_the_lease_ran_out_says_so() {
    let r = run_body(
        "[lock]\nkind = \"redis\"\nttl_ms = 2000\n[resource]\nfencing = \"off\"\n[[workers]]\nname = \"A\"\nwork_ms = 500\ncheck_lease_before_write = true\n[[workers]]\nname = \"B\"\nstart_ms = 2500\n[[faults]]\nkind = \"pause\"\ntarget = \"A\"\nafter = \"SET\"\nduration_ms = 2500\n",
    );
    let holds = explanations(&r, "A holds the lock");
    assert_eq!(holds.len(), 1, "{}", text(&r));
    assert!(
        holds[0].contains("receives the grant 500 ms after its lease, counted from when it asked, already ran out (at 2000 ms on its own clock)"),
        "{}",
        holds[0]
    );
    assert!(!holds[0].contains("good until"), "{}", holds[0]);
}

/// Finding 5: an etcd session always keeps its lease alive whether or not its worker holds the
/// lock: B, queued behind A for 7 s with a 3 s lease and no renew_every_ms, sends its first
/// keepalive at once and each next one TTL/3 after the answer, on the client's 500 ms send
/// passes (1000 ms after an answer at 506 is 1506, just past the pass at 1504: every 1500 ms),
/// and never loses its session (clientv3 lease.go, sendKeepAliveLoop).
#[test]
fn a_waiter_keeps_its_session_alive_every_third_of_its_ttl() {
    let r = run_body(
        "[lock]\nkind = \"consensus\"\nttl_ms = 3000\nfirst_token = 33\n[resource]\nfencing = \"enforce\"\n[[workers]]\nname = \"A\"\nfencing = true\nwork_ms = 8000\nrenew_every_ms = 1000\n[[workers]]\nname = \"B\"\nfencing = true\nstart_ms = 500\n",
    );
    let b_keepalives: Vec<u64> = r
        .trace
        .events
        .iter()
        .filter(|e| {
            e.kind == lockstep_core::trace::EventKind::Send && e.label == "keepalive lease 2"
        })
        .map(|e| e.time_ms)
        .take(4)
        .collect();
    assert_eq!(b_keepalives, [504, 2004, 3504, 5004], "{}", text(&r));
    assert_absent(&r, "session expired");
    assert_absent(&r, "sent no keepalives");
    let builtin = run_builtin("consensus-waiter-session-expired");
    assert_absent(&builtin, "sent no keepalives");
}
