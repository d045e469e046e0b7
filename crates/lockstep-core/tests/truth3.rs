//! What a Redis/etcd expert's review of the catalogue found (review-s9-truth.md): commands as
//! Redis really takes them, replies as the systems send them, and narration that holds in the
//! run where it is said. Each test runs catalogue scenarios and checks the labels and texts.

use lockstep_core::trace::{EventKind, TraceEvent};
use lockstep_core::{Run, catalogue, run};

fn run_id(id: &str) -> Run {
    match catalogue::load(id) {
        Some(Ok(s)) => run(&s),
        other => panic!("{id}: {other:?}"),
    }
}

fn all_runs() -> Vec<(String, Run)> {
    catalogue::ids()
        .map(|id| (id.to_string(), run_id(id)))
        .collect()
}

fn sends(r: &Run) -> impl Iterator<Item = &TraceEvent> {
    r.trace.events.iter().filter(|e| e.kind == EventKind::Send)
}

/// Finding 1: `SET key NX PX ttl` would store "NX" unconditionally. Every acquire carries the
/// worker's random value, and every compare-and-delete names the value of an earlier SET.
#[test]
fn a_redis_acquire_carries_its_value_and_a_release_names_it() {
    let mut seen = 0;
    for (id, r) in all_runs() {
        let mut values = Vec::new();
        for e in sends(&r) {
            let words: Vec<&str> = e.label.split(' ').collect();
            let is_value = |w: &str| w.len() == 6 && w.chars().all(|c| c.is_ascii_hexdigit());
            match words.as_slice() {
                // An acquire: SET key value NX PX ttl.
                ["SET", _, value, "NX", "PX", _] => {
                    assert!(is_value(value), "{id}: {}", e.label);
                    values.push(value.to_string());
                    seen += 1;
                }
                // A renewal (Redis 8.4): SET key value IFEQ value PX ttl, of a value set before.
                ["SET", _, value, "IFEQ", same, "PX", _] => {
                    assert_eq!(value, same, "{id}: {}", e.label);
                    assert!(values.iter().any(|v| v == value), "{id}: {}", e.label);
                }
                // A fenced acquire: the function that runs SET NX PX and INCR fence at once.
                ["FCALL", "acquire", "2", _, "fence", value, _] => {
                    assert!(is_value(value), "{id}: {}", e.label);
                    values.push(value.to_string());
                    seen += 1;
                }
                ["SET", ..] | ["FCALL", ..] => panic!("{id}: {}", e.label),
                _ => {}
            }
            assert!(!e.label.contains("PEXPIRE"), "{id}: {}", e.label);
            if words.first() == Some(&"DELEX") {
                assert_eq!(words[2], "IFEQ", "{id}: {}", e.label);
                assert!(
                    values.iter().any(|v| v == words[3]),
                    "{id}: {} names no SET's value",
                    e.label
                );
            }
            assert!(!e.label.contains("if value matches"), "{id}: {}", e.label);
        }
    }
    assert!(seen > 300, "only {seen} SETs in the catalogue");
}

/// Findings 11 and 12: replies as Redis and etcd send them.
#[test]
fn replies_are_what_the_systems_send() {
    let labels: Vec<String> = all_runs()
        .iter()
        .flat_map(|(_, r)| sends(r).map(|e| e.label.clone()).collect::<Vec<_>>())
        .collect();
    for made_up in [
        "nil (key exists)",
        "deleted",
        "extended",
        "not deleted (not the holder)",
        "lease not found",
    ] {
        assert!(
            !labels.iter().any(|l| l == made_up),
            "{made_up:?} is still a reply"
        );
    }
    for real in [
        "(nil): key exists",
        "(integer) 1: deleted",
        "OK: extended",
        "(nil): lock lost",
        "(integer) 33: the token",
        "TTL=0: lease not found",
    ] {
        assert!(labels.iter().any(|l| l == real), "{real:?} never appears");
    }
}

/// Finding 12: etcd takes a lease TTL in whole seconds; the wire label shows what is sent.
#[test]
fn a_lease_request_shows_the_seconds_sent() {
    let r = run_id("consensus-min-lease-ttl");
    let first = sends(&r).next().map(|e| e.label.clone());
    assert_eq!(first.as_deref(), Some("lock lock:batch-42 (lease 1 s)"));
    let why = &sends(&r).next().unwrap().explanation;
    assert!(why.contains("A wanted 500 ms"), "{why}");
}

/// Finding 2: an instance that restarts empty has no key left to expire.
#[test]
fn an_empty_restart_is_not_followed_by_an_expiry() {
    let r = run_id("redlock-delayed-restart");
    let events = &r.trace.events;
    let restart = events
        .iter()
        .position(|e| e.label.contains("restarts without persistence"))
        .expect("redis-3 restarts");
    let redis3 = events[restart].to;
    let expired_after = events[restart..]
        .iter()
        .filter(|e| e.from == redis3 && e.kind == EventKind::State && e.label.contains("expired"))
        .count();
    assert_eq!(expired_after, 0, "an empty redis-3 expired a key");
}

/// Finding 3: the failover scenarios say their timing is compressed against Sentinel's.
#[test]
fn a_failover_says_its_timing_is_compressed() {
    for id in [
        "redis-failover-token-rollback",
        "redis-sentinel-split-brain",
    ] {
        let r = run_id(id);
        let failover = r
            .trace
            .events
            .iter()
            .find(|e| e.kind == EventKind::Fault && e.label.contains("failover"))
            .unwrap_or_else(|| panic!("{id}: no failover"));
        assert!(
            failover.explanation.contains("down-after-milliseconds"),
            "{id}: {}",
            failover.explanation
        );
    }
}

/// Finding 5: no generic sentence that this run makes untrue.
#[test]
fn narration_holds_in_its_own_run() {
    for (id, r) in all_runs() {
        for e in &r.trace.events {
            let x = &e.explanation;
            assert!(!x.contains("stale holder's write"), "{id} {}: {x}", e.label);
            assert!(
                !x.contains("right to assume nothing happened"),
                "{id} {}: {x}",
                e.label
            );
            assert!(!x.contains("REFERENCE"), "{id} {}: {x}", e.label);
            assert!(!x.contains("cannot help while"), "{id} {}: {x}", e.label);
            // A's key went with its revoked lease long before: nobody waits for a lost delete.
            let key_gone = ["consensus-fenced-failover", "consensus-session-suspended"];
            if e.label == "no answer to the unlock" && key_gone.contains(&id.as_str()) {
                assert!(x.contains("nobody waits"), "{id}: {x}");
                assert!(!x.contains("a waiter waits"), "{id}: {x}");
            }
        }
    }
}

/// Finding 7: a scenario's own keepalive interval is the one the text gives.
#[test]
fn keepalives_say_the_interval_they_are_sent_at() {
    let r = run_id("consensus-fenced-failover");
    let keepalive = sends(&r)
        .find(|e| e.label.starts_with("keepalive") && r.trace.name(e.from) == "B")
        .expect("B keeps its lease alive");
    assert!(
        keepalive
            .explanation
            .contains("every 1600 ms in this scenario"),
        "{}",
        keepalive.explanation
    );
}

/// Finding 13: a round where every instance agreed says so.
#[test]
fn a_redlock_round_counts_its_own_answers() {
    let r = run_id("redlock-happy-path");
    let said: Vec<&TraceEvent> = r
        .trace
        .events
        .iter()
        .filter(|e| e.label.starts_with("5/5 locked") && e.explanation.contains("said OK"))
        .collect();
    assert!(!said.is_empty(), "no 5/5 round explains its count");
    for e in said {
        assert!(
            e.explanation.contains("5 of 5 said OK (3 needed)"),
            "{}",
            e.explanation
        );
    }
}

/// "Belief after LOST" (s9) and Curator's timing (s10 review, finding 1): the client reports
/// SUSPENDED after 2/3 of the session timeout without a word from the cluster (ZooKeeper's read
/// timeout), and LOST at 4/3 of it (ZooKeeper 3.9.3+ expires the session itself), not at the first
/// unanswered keepalive and the lease's end. A worker that carries on after the warning acted as
/// a holder without knowing it was one, and the verdict says so.
#[test]
fn a_worker_that_carries_on_through_suspended_acted_without_knowing_it_held() {
    use lockstep_core::trace::Tag;
    let r = run_id("consensus-session-suspended");
    let at = |tag: Tag| {
        r.trace
            .events
            .iter()
            .find(|e| e.tag.as_ref() == Some(&tag))
            .map(|e| (r.trace.name(e.from).to_string(), e.time_ms))
    };
    // The last keepalive answer reached A at 1006 ms; 2/3 of 5000 ms later:
    assert_eq!(at(Tag::SessionSuspended), Some(("A".into(), 1006 + 3333)));
    // LOST once 4/3 of the session timeout have passed without a word (ZooKeeper 3.9.3+), when
    // the connection attempt on node-3 (7001 ms) times out: after A's write, while its unlock
    // waits for a connection.
    assert_eq!(at(Tag::SessionLost), Some(("A".into(), 7001 + 1666)));
    let [o] = r.verdict.overlaps.as_slice() else {
        panic!("{:?}", r.verdict.overlaps)
    };
    assert_eq!(
        o.sentence(),
        "A and B both acted as lock holders from 6008 to 6512 ms (A carried on after its own \
         client reported its session suspended at 4339 ms)"
    );
    // A worker whose client never said so still believed.
    let gc = run_id("naive-gc-pause");
    assert!(
        gc.verdict.overlaps[0]
            .sentence()
            .starts_with("A and B both believed they held the lock from "),
        "{:?}",
        gc.verdict.overlaps
    );
}

/// LOST once 4/3 of the session timeout have passed without a word, at the end of the
/// connection attempt in progress then (8667 ms), for a worker still working then.
#[test]
fn curator_reports_lost_at_four_thirds_of_the_session_timeout() {
    let text = catalogue::source("consensus-session-suspended")
        .expect("built in")
        .replace("work_ms = 7000", "work_ms = 12000");
    let s = lockstep_core::parse_scenario("variant.toml", text.as_bytes()).expect("valid");
    let r = run(&s);
    let times: Vec<(u64, &str)> = r
        .trace
        .events
        .iter()
        .filter(|e| e.label.starts_with("A's session is"))
        .map(|e| (e.time_ms, e.label.as_str()))
        .collect();
    assert_eq!(
        times,
        [
            (4339, "A's session is suspended"),
            (8667, "A's session is lost")
        ]
    );
}
