//! Every built-in scenario reaches its expected outcome, with the golden numbers that tell its story.

use lockstep_core::catalogue;
use lockstep_core::scenario::Outcome;
use lockstep_tests::{builtin, labels, run_builtin};

/// DESIGN §5's 19 scenarios and those added for issue 9.
const CATALOGUE_SIZE: usize = 40;

#[test]
fn every_builtin_reaches_its_expected_outcome() {
    let mut checked = 0;
    for id in catalogue::ids() {
        let s = builtin(id);
        assert_eq!(s.name, id, "the file name and `name` agree");
        let run = lockstep_core::run(&s);
        assert_eq!(run.verdict.outcome, s.expect, "{id}: outcome");
        assert_eq!(
            run.end,
            lockstep_core::sim::End::Finished,
            "{id}: every worker finished"
        );
        checked += 1;
    }
    assert_eq!(checked, CATALOGUE_SIZE, "the catalogue's size");
}

/// (id, payouts paid twice, writes rejected by fencing, reads rejected, workers believed at once, labels that must appear)
type Golden = (&'static str, u32, u32, u32, bool, &'static [&'static str]);

const GOLDEN: &[Golden] = &[
    ("naive-happy-path", 0, 0, 0, false, &["OK", "applied 3"]),
    (
        "naive-gc-pause",
        3,
        0,
        0,
        true,
        &[
            "A paused for 10000 ms",
            "lock:batch-42 expired (A's TTL ran out)",
            "DUPLICATE: 3 payouts paid twice",
        ],
    ),
    (
        "naive-network-delay",
        3,
        0,
        0,
        true,
        &[
            "lock:batch-42 expired (A's TTL ran out)",
            "DUPLICATE: 3 payouts paid twice",
        ],
    ),
    (
        "careful-worker-still-loses",
        3,
        0,
        0,
        true,
        &["lease check: 2996 ms left, write", "A paused for 10000 ms"],
    ),
    (
        "heartbeat-does-not-help",
        3,
        0,
        0,
        true,
        &["OK: extended", "A has lost the lock", "(nil): lock lost"],
    ),
    (
        "fenced-gc-pause",
        0,
        1,
        0,
        true,
        &[
            "(integer) 33: the token",
            "(integer) 34: the token",
            "rejected — 33 < last_token 34",
        ],
    ),
    (
        "fenced-writes-only-stale-first",
        3,
        0,
        0,
        true,
        &[
            "(integer) 33: the token",
            "(integer) 34: the token",
            "write 3 payouts token=33",
            "DUPLICATE: 3 payouts paid twice",
        ],
    ),
    (
        "fenced-every-access",
        0,
        1,
        0,
        true,
        &[
            "read status batch-42 token=34",
            "rejected — 33 < last_token 34",
        ],
    ),
    (
        "redlock-happy-path",
        0,
        0,
        0,
        false,
        &[
            "5/5 locked, validity 9888 ms",
            "Redlock failed: 0/5, unlock all",
        ],
    ),
    (
        "redlock-gc-pause",
        3,
        0,
        0,
        true,
        &["A paused for 12000 ms", "DUPLICATE: 3 payouts paid twice"],
    ),
    (
        "redlock-clock-jump",
        3,
        0,
        0,
        true,
        &[
            "3/5 locked, validity 9792 ms",
            "redis-3's clock jumps +20000 ms",
            "lock:batch-42 expired (clock jump on redis-3)",
        ],
    ),
    (
        "redlock-restart-without-persistence",
        3,
        0,
        0,
        true,
        &["redis-3 crashes", "redis-3 forgot lock:batch-42"],
    ),
    (
        "redis-failover-token-rollback",
        3,
        0,
        0,
        true,
        &[
            "failover: redis-replica replaces redis",
            "redis-replica is master, without the lock key",
        ],
    ),
    (
        "consensus-fenced-failover",
        0,
        1,
        0,
        true,
        &[
            "locked, revision=33",
            "node-1 crashes",
            "leader of term 2, revision 33",
            "queued, revision=34",
            "locked, revision=34",
            "rejected — 33 < last_token 34",
        ],
    ),
    (
        "consensus-quorum-loss-fail-closed",
        0,
        0,
        0,
        false,
        &[
            "A refuses: no lock, no payouts (fail-closed)",
            "B refuses: no lock, no payouts (fail-closed)",
        ],
    ),
    (
        "consensus-quorum-loss-fail-open",
        3,
        0,
        0,
        false,
        &["A proceeds without the lock (fail-open)"],
    ),
    (
        "migration-wrong-order",
        3,
        0,
        0,
        true,
        &[
            "write 3 payouts",
            "DUPLICATE: 3 payouts paid twice",
            "db still takes accesses without a token",
        ],
    ),
    (
        "migration-right-order",
        0,
        0,
        1,
        false,
        &[
            "rejected — no fencing token",
            // The migration's state is drawn: the database's check, who is upgraded.
            "db enforces fencing tokens",
            "A not upgraded: sends no token",
            "B upgraded: sends fencing tokens",
        ],
    ),
    (
        "idempotency-keys",
        0,
        0,
        0,
        false,
        &["already applied: keys batch-42/1–3 used (3 no-ops)"],
    ),
    (
        "redlock-delayed-restart",
        0,
        0,
        0,
        false,
        &[
            "redis-3 restarts without persistence: empty",
            "redis-3 came back without lock:batch-42",
            "B: already paid, nothing to do",
        ],
    ),
    (
        "redis-restart-counter-reset",
        0,
        0,
        1,
        true,
        &[
            "redis forgot the fencing counter (was 33)",
            "(integer) 1: the token",
            "rejected — 1 < last_token 33",
        ],
    ),
    (
        "consensus-clock-jump-harmless",
        0,
        0,
        0,
        false,
        &[
            "node-1's clock jumps +10000 ms",
            "B: already paid, nothing to do",
        ],
    ),
    (
        "consensus-waiter-session-expired",
        0,
        0,
        0,
        false,
        &[
            "lease 2 (B) expired",
            "watch: revision 33 deleted · get: own key gone",
            "B's session expired while waiting",
            "B holds the lock (token 37)",
            "applied 3",
        ],
    ),
    (
        "consensus-lock-delay",
        0,
        0,
        0,
        false,
        &[
            "lease of A revoked, revision 35",
            "lock-delay: free, but not grantable for 10000 ms",
            "B holds the lock (token 34)",
            "B: already paid, nothing to do",
        ],
    ),
    (
        "redlock-split-votes",
        0,
        0,
        0,
        false,
        &[
            "Redlock failed: 2/5, unlock all",
            "Redlock failed: 1/5, unlock all",
            "C holds the lock",
            "A gives up after 5 tries",
            "applied 3",
        ],
    ),
    (
        "redlock-split-votes-one-try",
        0,
        0,
        0,
        false,
        &[
            "A gives up after 1 try",
            "B gives up after 1 try",
            "C gives up after 1 try",
        ],
    ),
    (
        "redis-everysec-restart",
        3,
        0,
        0,
        true,
        &[
            "redis restarts from its AOF (fsync every second)",
            "redis lost A's key (written after the last fsync)",
            "redis's fencing counter is back at 32 (was 33)",
            "(integer) 33: the token",
            "DUPLICATE: 3 payouts paid twice",
        ],
    ),
    (
        "consensus-isolated-leader",
        0,
        0,
        0,
        false,
        &[
            "node-1 steps down: no quorum",
            "leader of term 2, revision 32",
            "B holds the lock (token 33)",
            "A refuses: no lock, no payouts (fail-closed)",
        ],
    ),
    (
        "consensus-uncommitted-entry-commits",
        0,
        0,
        0,
        false,
        &[
            "node-1 steps down: no quorum",
            "A refuses: no lock, no payouts (fail-closed)",
            "1 uncommitted entry sent again in term 2",
            "locked, revision=33",
            "A ignores a late answer",
            "lease 1 (A) expired",
            "B holds the lock (token 34)",
            "applied 3",
        ],
    ),
    (
        "consensus-retried-stale-unlock",
        3,
        0,
        0,
        true,
        &[
            "dropped: unlocked",
            "A2 holds the lock (token 35)",
            "A retries its unlock",
            "B holds the lock (token 36)",
            "nothing to delete: no such key",
        ],
    ),
    (
        "consensus-session-suspended",
        3,
        0,
        0,
        true,
        &[
            "A's session is suspended",
            "session 1 (A) expired",
            "append: close session 1",
            "session of A closed, revision 35",
            "DUPLICATE: 3 payouts paid twice",
        ],
    ),
    (
        "consensus-session-suspended-stop",
        0,
        0,
        0,
        false,
        &[
            "A's session is suspended",
            "A stops working",
            "ping session 2",
            "session 1 (A) expired",
            "B holds the lock (token 34)",
            "applied 3",
        ],
    ),
    (
        "redis-sentinel-split-brain",
        3,
        0,
        0,
        true,
        &[
            "failover: redis-replica replaces redis",
            "redis-replica is master, without the lock key",
            "OK: extended",
            "redis becomes a replica of redis-replica",
            "DUPLICATE: 3 payouts paid twice",
        ],
    ),
    (
        "consensus-min-lease-ttl",
        0,
        0,
        0,
        false,
        &[
            "lease TTL 2000 ms for A",
            "lease check: 904 ms left, write",
            "B: already paid, nothing to do",
        ],
    ),
    (
        "redis-unsafe-del-release",
        3,
        0,
        0,
        true,
        &[
            "lease check: expired 1004 ms ago, abandon",
            "A's DEL deleted B's lock",
            "C holds the lock",
            "DUPLICATE: 3 payouts paid twice",
        ],
    ),
    (
        "conditional-write",
        0,
        0,
        0,
        true,
        &["0 rows updated: status is paid", "A: nothing to update"],
    ),
    (
        "write-retry-duplicates",
        3,
        0,
        0,
        false,
        &[
            "dropped: applied 3",
            "no answer to the write: retry 1 of 1",
            "DUPLICATE: 3 payouts paid twice",
        ],
    ),
    (
        "write-retry-idempotent",
        0,
        0,
        0,
        false,
        &[
            "dropped: applied 3",
            "no answer to the write: retry 1 of 1",
            "already applied: keys batch-42/1–3 used (3 no-ops)",
        ],
    ),
    (
        "idempotency-key-expired",
        3,
        0,
        0,
        false,
        &[
            "3 idempotency keys forgotten",
            "DUPLICATE: 3 payouts paid twice",
        ],
    ),
    (
        "idempotency-key-reused",
        0,
        0,
        0,
        false,
        &[
            "error: idempotency key reused with other parameters",
            "B's write is refused",
        ],
    ),
];

#[test]
fn builtins_tell_their_story() {
    assert_eq!(
        GOLDEN.len(),
        catalogue::ids().count(),
        "every built-in has a golden row"
    );
    for &(id, duplicated, writes_rejected, reads_rejected, overlap, must_appear) in GOLDEN {
        let run = run_builtin(id);
        let v = &run.verdict;
        assert_eq!(v.payouts_duplicated, duplicated, "{id}: payouts paid twice");
        assert_eq!(v.writes_rejected, writes_rejected, "{id}: writes rejected");
        assert_eq!(v.reads_rejected, reads_rejected, "{id}: reads rejected");
        assert_eq!(
            !v.overlaps.is_empty(),
            overlap,
            "{id}: overlapping beliefs {:?}",
            v.overlaps
        );
        let all = labels(&run);
        for label in must_appear {
            assert!(
                all.contains(label),
                "{id}: no event labelled {label:?}; labels: {all:#?}"
            );
        }
    }
}

#[test]
fn fenced_gc_pause_uses_the_articles_numbers() {
    let s = builtin("fenced-gc-pause");
    assert_eq!((s.lock.ttl_ms, s.lock.first_token()), (5000, 33));
    let pause = s
        .faults
        .iter()
        .find(|f| f.target.as_deref() == Some("A"))
        .expect("A pauses");
    assert_eq!(pause.duration_ms, Some(10_000));
    let run = run_builtin("fenced-gc-pause");
    let all = labels(&run);
    let pos = |l: &str| {
        all.iter()
            .position(|x| *x == l)
            .unwrap_or_else(|| panic!("{l}"))
    };
    // The article's third diagram, in order.
    assert!(pos("(integer) 33: the token") < pos("A paused for 10000 ms"));
    assert!(pos("A paused for 10000 ms") < pos("(integer) 34: the token"));
    assert!(pos("applied 3") < pos("A resumes"));
    assert!(pos("A resumes") < pos("rejected — 33 < last_token 34"));
    assert_eq!(run.verdict.money_paid_twice_cents, 0);
}

#[test]
fn a_repeat_its_idempotency_keys_skipped_is_not_an_accepted_write() {
    // The database took B's retry but applied nothing: one write accepted, one skipped.
    let v = run_builtin("idempotency-keys").verdict;
    assert_eq!(
        (v.writes_accepted, v.writes_skipped, v.idempotent_noops),
        (1, 1, 3)
    );
    let v = run_builtin("write-retry-idempotent").verdict;
    assert_eq!((v.writes_accepted, v.writes_skipped), (1, 1));
}

#[test]
fn only_a_run_migrating_to_fencing_tells_its_rollout() {
    use lockstep_core::Tag;
    for id in catalogue::ids() {
        let run = run_builtin(id);
        let told = run
            .trace
            .events
            .iter()
            .filter(|e| {
                matches!(
                    e.tag,
                    Some(Tag::DbFencing { .. } | Tag::WorkerFencing { .. })
                )
            })
            .count();
        let mixed = {
            let s = builtin(id);
            s.workers.iter().any(|w| w.fencing) && s.workers.iter().any(|w| !w.fencing)
        };
        // The database's check once, then each worker as it starts.
        let expected = if mixed {
            1 + builtin(id).workers.len()
        } else {
            0
        };
        assert_eq!(told, expected, "{id}");
    }
}

#[test]
fn money_paid_twice_is_counted_from_the_database() {
    let run = run_builtin("naive-gc-pause");
    assert_eq!(run.verdict.money_paid_twice_cents, 3 * 125_000);
    assert_eq!(run.sim.db.applied, vec![2, 2, 2]);
}

#[test]
fn fencing_only_writes_versus_every_access_differs_only_in_the_mode() {
    let mut writes_only = builtin("fenced-writes-only-stale-first");
    let every = builtin("fenced-every-access");
    assert_eq!(writes_only.workers, every.workers);
    assert_eq!(writes_only.faults, every.faults);
    writes_only.resource.fencing = every.resource.fencing;
    assert_eq!(
        lockstep_core::run(&writes_only).verdict.outcome,
        Outcome::Safe
    );
}
