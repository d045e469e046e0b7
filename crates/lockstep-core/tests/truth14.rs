//! What session 35's expert review found: under `appendfsync everysec` Redis fsyncs a write at
//! once when a second has passed since its last fsync, and otherwise a second after it (aof.c
//! `flushAppendOnlyFile`), not on whole seconds of its clock; with other clients writing all the
//! time (`background_writes`) its fsyncs come a second apart. Golden times and labels that only
//! the true behaviour produces.

mod common;

use lockstep_core::{Outcome, Run};

const HEAD: &str = "name = \"t\"\ntitle = \"t\"\nsummary = \"s\"\nexpect = \"safe\"\n";

fn run_body(body: &str) -> Run {
    common::run_text(HEAD, body)
}

fn check(r: &Run, expect: &[&str], absent: &[&str]) {
    common::check_in_order(&common::lines(r), expect, absent);
}

/// A lock taken by A at `start` ms on an everysec Redis whose machine fails at `crash` ms and
/// restarts 100 ms later; B asks at `crash + 200` ms.
fn power_loss(start: u64, crash: u64, extra: &str) -> Run {
    run_body(&format!(
        "[lock]\nkind = \"redis\"\nttl_ms = 5000\nfirst_token = 33\npersistence = \"everysec\"\n{extra}[resource]\nfencing = \"enforce\"\n[[workers]]\nname = \"A\"\nstart_ms = {start}\nwork_ms = 1000\nfencing = true\n[[workers]]\nname = \"B\"\nstart_ms = {b}\nwork_ms = 1000\nfencing = true\n[[faults]]\nat_ms = {crash}\nkind = \"crash\"\ntarget = \"redis\"\nhost = true\n[[faults]]\nat_ms = {restart}\nkind = \"restart\"\ntarget = \"redis\"\n",
        b = crash + 200,
        restart = crash + 100,
    ))
}

/// An idle Redis started at 0: A's write at 1501 ms is its first in over a second, so it is
/// fsynced as it is written, and the power loss at 1800 ms loses nothing: B is refused.
#[test]
fn an_idle_redis_fsyncs_a_write_a_second_after_its_last_fsync_at_once() {
    let r = power_loss(1500, 1800, "");
    check(
        &r,
        &[
            "1501 (integer) 33: the token",
            "1800 redis's machine fails",
            "1900 redis restarts from its AOF (fsync every second)",
            "2001 (nil): key exists",
        ],
        &["lost A's key", "fencing counter is back"],
    );
    assert_eq!(r.verdict.outcome, Outcome::Safe);
}

/// A write less than a second after the last fsync (here the server's start, at 0) waits for
/// the fsync a second after it: a power loss at 800 ms loses A's key and token.
#[test]
fn a_write_within_a_second_of_the_last_fsync_waits_for_the_next() {
    let r = power_loss(500, 800, "");
    check(
        &r,
        &[
            "501 (integer) 33: the token",
            "800 redis's machine fails",
            "900 redis lost A's key (written after the last fsync)",
            "900 redis's fencing counter is back at 32 (was 33)",
            "1001 (integer) 33: the token",
        ],
        &[],
    );
    let lost = r
        .trace
        .events
        .iter()
        .find(|e| e.label.starts_with("redis lost A's key"))
        .unwrap();
    assert!(
        lost.explanation.contains("after the last fsync at 0 ms"),
        "{}",
        lost.explanation
    );
    assert_eq!(r.verdict.outcome, Outcome::DoubleWrite);
}

/// With other clients writing all the time the fsyncs come a second apart (1000, 2000 ms): A's
/// write at 1501 ms waits for the one at 2000, and the power loss at 1800 ms loses it.
#[test]
fn a_busy_redis_fsyncs_once_a_second() {
    let r = power_loss(1500, 1800, "background_writes = true\n");
    check(
        &r,
        &[
            "1501 (integer) 33: the token",
            "1900 redis lost A's key (written after the last fsync)",
            "2001 (integer) 33: the token",
        ],
        &[],
    );
    assert_eq!(r.verdict.outcome, Outcome::DoubleWrite);
    // The fsync at 2000 has A's key and token: a power loss at 2400 keeps them, and B, after
    // A's release, gets the next token.
    let r = power_loss(1500, 2400, "background_writes = true\n");
    check(&r, &["2601 (integer) 34: the token"], &["lost A's key"]);
    assert_eq!(r.verdict.outcome, Outcome::Safe);
}

/// A release less than a second after the fsync that saved the key is lost with a power loss:
/// the key comes back from the file, and B waits for it to expire.
#[test]
fn a_release_lost_with_the_unflushed_pages_brings_the_key_back() {
    let r = run_body(
        "[lock]\nkind = \"redis\"\nttl_ms = 5000\nfirst_token = 33\npersistence = \"everysec\"\n[resource]\nfencing = \"enforce\"\n[[workers]]\nname = \"A\"\nstart_ms = 1500\nwork_ms = 100\nfencing = true\n[[workers]]\nname = \"B\"\nstart_ms = 2000\nwork_ms = 100\nfencing = true\n[[faults]]\nat_ms = 1800\nkind = \"crash\"\ntarget = \"redis\"\nhost = true\n[[faults]]\nat_ms = 1900\nkind = \"restart\"\ntarget = \"redis\"\n",
    );
    check(
        &r,
        &[
            "1501 (integer) 33: the token",
            "1900 redis has A's key again (its deletion was after the last fsync)",
            "2001 (nil): key exists",
            "6502 lock:batch-42 expired (A's TTL ran out)",
            "6591 (integer) 34: the token",
        ],
        &["lost A's key", "fencing counter is back"],
    );
}

/// `background_writes` says when an everysec instance fsyncs: without everysec it is refused,
/// at its field.
#[test]
fn background_writes_needs_everysec() {
    let text = format!(
        "{HEAD}[lock]\nkind = \"redis\"\nbackground_writes = true\n[[workers]]\nname = \"A\"\n"
    );
    let e = lockstep_core::parse_scenario("t.toml", text.as_bytes())
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with(
            "t.toml:7:21: lock.background_writes: applies only with persistence = \"everysec\""
        ),
        "{e}"
    );
}
