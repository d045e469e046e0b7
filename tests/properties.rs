//! Invariants over random fault schedules (proptest).
//!
//! 1. With fencing on every access (`enforce`) and a lock whose tokens never go back (a consensus
//!    lock, or one Redis instance without failover or amnesia), no payout is ever applied twice.
//! 2. A naive lock (no fencing) whose holder pauses past its TTL after its check always produces a
//!    double write.

use std::fmt::Write;

use lockstep_core::Outcome;
use lockstep_tests::scenario;
use proptest::prelude::*;

const WORKERS: [&str; 4] = ["A", "B", "C", "D"];

#[derive(Debug, Clone)]
enum FaultSpec {
    Pause { target: usize, at: u64, ms: u64 },
    ClockJump { target: usize, at: u64, by: i64 },
    Crash { target: usize, at: u64 },
    Restart { target: usize, at: u64 },
    Partition { at: u64, mask: u8 },
    Heal { at: u64 },
    Delay { at: u64, what: usize, ms: u64 },
    Drop { at: u64, what: usize },
}

fn fault() -> impl Strategy<Value = FaultSpec> {
    let at = 0u64..20_000;
    prop_oneof![
        (0usize..8, at.clone(), 1u64..15_000).prop_map(|(target, at, ms)| FaultSpec::Pause {
            target,
            at,
            ms
        }),
        (0usize..8, at.clone(), -8_000i64..8_000).prop_map(|(target, at, by)| {
            FaultSpec::ClockJump {
                target,
                at,
                by: if by == 0 { 1 } else { by },
            }
        }),
        (0usize..8, at.clone()).prop_map(|(target, at)| FaultSpec::Crash { target, at }),
        (0usize..8, at.clone()).prop_map(|(target, at)| FaultSpec::Restart { target, at }),
        (at.clone(), any::<u8>()).prop_map(|(at, mask)| FaultSpec::Partition { at, mask }),
        at.clone().prop_map(|at| FaultSpec::Heal { at }),
        (at.clone(), 0usize..4, 1u64..12_000).prop_map(|(at, what, ms)| FaultSpec::Delay {
            at,
            what,
            ms
        }),
        (at, 0usize..4).prop_map(|(at, what)| FaultSpec::Drop { at, what }),
    ]
}

#[derive(Debug, Clone)]
struct WorkerSpec {
    start: u64,
    work: u64,
    renew: bool,
    fail_open: bool,
    lease_check: bool,
}

fn worker() -> impl Strategy<Value = WorkerSpec> {
    (
        0u64..10_000,
        0u64..6_000,
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(start, work, renew, fail_open, lease_check)| WorkerSpec {
            start,
            work,
            renew,
            fail_open,
            lease_check,
        })
}

/// A fenced (`enforce`) scenario with a lock whose tokens are monotonic, and arbitrary faults.
fn fenced_toml(
    consensus: bool,
    ttl: u64,
    seed: u64,
    workers: &[WorkerSpec],
    faults: &[FaultSpec],
) -> String {
    let lock_nodes: Vec<String> = if consensus {
        (1..=3).map(|i| format!("node-{i}")).collect()
    } else {
        vec!["redis".into()]
    };
    let mut t = String::new();
    let _ = writeln!(
        t,
        "name = \"prop\"\ntitle = \"t\"\nsummary = \"s\"\nseed = {seed}\nexpect = \"safe\""
    );
    let _ = writeln!(t, "[limits]\nmax_time_ms = 120000");
    let _ = writeln!(
        t,
        "[lock]\nkind = \"{}\"\nttl_ms = {ttl}\nfirst_token = 33",
        if consensus { "consensus" } else { "redis" }
    );
    let _ = writeln!(t, "[resource]\nfencing = \"enforce\"");
    for (i, w) in workers.iter().enumerate() {
        let renew = if w.renew { ttl / 3 } else { 0 };
        let _ = writeln!(
            t,
            "[[workers]]\nname = \"{}\"\nstart_ms = {}\nwork_ms = {}\nfencing = true\nrenew_every_ms = {renew}\ncheck_lease_before_write = {}\non_lock_unavailable = \"{}\"\nacquire_timeout_ms = 10000",
            WORKERS[i],
            w.start,
            w.work,
            w.lease_check,
            if w.fail_open {
                "fail-open"
            } else {
                "fail-closed"
            }
        );
    }
    let mut nodes: Vec<String> = WORKERS[..workers.len()]
        .iter()
        .map(|s| s.to_string())
        .collect();
    nodes.extend(lock_nodes.iter().cloned());
    let pick = |i: usize| nodes[i % nodes.len()].clone();
    let lock_node = |i: usize| lock_nodes[i % lock_nodes.len()].clone();
    for f in faults {
        match f {
            FaultSpec::Pause { target, at, ms } => {
                let _ = writeln!(
                    t,
                    "[[faults]]\nkind = \"pause\"\nat_ms = {at}\ntarget = \"{}\"\nduration_ms = {ms}",
                    pick(*target)
                );
            }
            FaultSpec::ClockJump { target, at, by } => {
                let _ = writeln!(
                    t,
                    "[[faults]]\nkind = \"clock-jump\"\nat_ms = {at}\ntarget = \"{}\"\nby_ms = {by}",
                    pick(*target)
                );
            }
            FaultSpec::Crash { target, at } => {
                let _ = writeln!(
                    t,
                    "[[faults]]\nkind = \"crash\"\nat_ms = {at}\ntarget = \"{}\"",
                    pick(*target)
                );
            }
            // Only restarts that keep their data: an amnesiac counter reissues tokens (that is
            // the redis-failover-token-rollback hazard, which this property excludes by design).
            FaultSpec::Restart { target, at } => {
                let _ = writeln!(
                    t,
                    "[[faults]]\nkind = \"restart\"\nat_ms = {at}\ntarget = \"{}\"\npersistent = true",
                    lock_node(*target)
                );
            }
            FaultSpec::Partition { at, mask } => {
                let (mut a, mut b) = (Vec::new(), Vec::new());
                for (i, n) in nodes.iter().enumerate() {
                    if mask & (1 << (i % 8)) != 0 {
                        a.push(format!("\"{n}\""))
                    } else {
                        b.push(format!("\"{n}\""))
                    }
                }
                if !a.is_empty() && !b.is_empty() {
                    let _ = writeln!(
                        t,
                        "[[faults]]\nkind = \"partition\"\nat_ms = {at}\ngroups = [[{}], [{}]]",
                        a.join(", "),
                        b.join(", ")
                    );
                }
            }
            FaultSpec::Heal { at } => {
                let _ = writeln!(t, "[[faults]]\nkind = \"heal\"\nat_ms = {at}");
            }
            FaultSpec::Delay { at, what, ms } => {
                let m = ["write", "read", "SET", "lock"][*what];
                let _ = writeln!(
                    t,
                    "[[faults]]\nkind = \"delay\"\nat_ms = {at}\nmatch = \"{m}\"\nduration_ms = {ms}"
                );
            }
            FaultSpec::Drop { at, what } => {
                let m = ["write", "read", "OK", "locked"][*what];
                let _ = writeln!(
                    t,
                    "[[faults]]\nkind = \"drop\"\nat_ms = {at}\nmatch = \"{m}\""
                );
            }
        }
    }
    t
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn fencing_every_access_never_pays_twice(
        consensus in any::<bool>(),
        ttl in 1_000u64..8_000,
        seed in any::<u64>(),
        workers in prop::collection::vec(worker(), 2..=4),
        faults in prop::collection::vec(fault(), 0..8),
    ) {
        let text = fenced_toml(consensus, ttl, seed, &workers, &faults);
        let run = lockstep_core::run(&scenario(&text));
        prop_assert_eq!(run.verdict.payouts_duplicated, 0, "paid twice:\n{}", text);
        prop_assert_ne!(run.verdict.outcome, Outcome::DoubleWrite);
    }

    #[test]
    fn a_naive_holder_pausing_past_its_ttl_after_its_check_always_pays_twice(
        ttl in 1_000u64..10_000,
        work in 200u64..5_000,
        pause_into_work in 0u64..1_000,
        extra in 50u64..10_000,
        b_offset in 0u64..1_000,
    ) {
        // A checks at about 4 ms and then works; the pause starts during the work and lasts past
        // the TTL; B starts after A's key expired and checks while A is still frozen.
        let pause_at = 10 + pause_into_work.min(work.saturating_sub(20));
        let pause_ms = ttl + extra + 1_200;
        let b_start = ttl + 20 + b_offset.min(extra);
        let text = format!(
            "name = \"naive\"\ntitle = \"t\"\nsummary = \"s\"\nexpect = \"double-write\"\n\
             [lock]\nkind = \"redis\"\nttl_ms = {ttl}\n[resource]\nfencing = \"off\"\n\
             [[workers]]\nname = \"A\"\nwork_ms = {work}\n\
             [[workers]]\nname = \"B\"\nstart_ms = {b_start}\nwork_ms = 100\n\
             [[faults]]\nkind = \"pause\"\ntarget = \"A\"\nat_ms = {pause_at}\nduration_ms = {pause_ms}\n"
        );
        let run = lockstep_core::run(&scenario(&text));
        prop_assert_eq!(run.verdict.outcome, Outcome::DoubleWrite, "{}", text);
        prop_assert_eq!(run.verdict.payouts_duplicated, 3);
    }
}

/// The safety property above is only meaningful if the same schedules break an unfenced run.
#[test]
fn the_same_schedules_break_runs_without_fencing() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::{Config, TestRunner};
    let strategy = (
        any::<bool>(),
        1_000u64..8_000,
        any::<u64>(),
        prop::collection::vec(worker(), 2..=4),
        prop::collection::vec(fault(), 0..8),
    );
    let mut runner = TestRunner::new_with_rng(
        Config::default(),
        proptest::test_runner::TestRng::deterministic_rng(
            proptest::test_runner::RngAlgorithm::ChaCha,
        ),
    );
    let (mut doubles, cases) = (0, 300);
    for _ in 0..cases {
        let (consensus, ttl, seed, workers, faults) =
            strategy.new_tree(&mut runner).expect("a case").current();
        let text = fenced_toml(consensus, ttl, seed, &workers, &faults)
            .replace("fencing = \"enforce\"", "fencing = \"off\"")
            .replace("fencing = true", "fencing = false");
        if lockstep_core::run(&scenario(&text)).verdict.outcome == Outcome::DoubleWrite {
            doubles += 1;
        }
    }
    eprintln!("{doubles} of {cases} unfenced runs paid twice");
    // At least 1 in 25 (12 of 300; 14 today). Consensus sessions keep their leases alive with
    // keepalives every TTL/3, as etcd's do, so fewer random schedules break them than when a
    // consensus worker could run without keepalives (that bar was 1 in 20).
    assert!(
        doubles * 25 >= cases,
        "only {doubles} of {cases} unfenced runs paid twice"
    );
}
