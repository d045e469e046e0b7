//! Warnings for scenarios that are legal but unlike any real deployment (a 2-node etcd cluster, a
//! one-instance Redlock, a lease that one lost renewal lets lapse): the run goes ahead, and the
//! front ends say what is odd, where in the file, and why it matters.

use super::load::locator;
use super::validate::PathSeg;
use super::{FencingMode, LockKind, Scenario, defaults};

/// One odd-but-legal setting, located in its file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}:{column}: {field}: {message}")]
pub struct ScenarioWarning {
    pub file: String,
    /// 1-based line of the field (or of the table it would be in, when it is left to its default).
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
    /// The dotted path of the field (`lock.nodes`, `workers[1].renew_every_ms`).
    pub field: String,
    /// What is odd and what it does to the run.
    pub message: String,
}

/// The warnings for a scenario read from `text` (an already validated file).
pub fn warnings(file: &str, text: &str, s: &Scenario) -> Vec<ScenarioWarning> {
    let locate = locator(text);
    advice(s)
        .into_iter()
        .map(|(path, message)| {
            let (line, column, field) = locate(&path);
            ScenarioWarning {
                file: file.to_string(),
                line,
                column,
                field,
                message,
            }
        })
        .collect()
}

/// Where in `text` each field a run can report as never applied is (see `Run::unapplied`: a
/// fault's `after`, `match` or `at_ms`, an explanation's `when`, an `[[order]]`): its dotted path
/// as the report names it, line and column. The web app's main module has no TOML parser: the
/// module that reads the file finds these, and the report is located with them.
pub fn unapplied_places(text: &str, s: &Scenario) -> Vec<(String, usize, usize)> {
    let locate = locator(text);
    let entry = |table: &str, i: usize, field: Option<&str>| {
        let mut path = vec![key(table), PathSeg::Index(i)];
        path.extend(field.map(key));
        let (line, column, _) = locate(&path);
        let dotted = match field {
            Some(f) => format!("{table}[{i}].{f}"),
            None => format!("{table}[{i}]"),
        };
        (dotted, line, column)
    };
    let mut places = Vec::new();
    for i in 0..s.faults.len() {
        for field in ["after", "match", "at_ms"] {
            places.push(entry("faults", i, Some(field)));
        }
    }
    places.extend((0..s.explain.len()).map(|i| entry("explain", i, Some("when"))));
    places.extend((0..s.order.len()).map(|i| entry("order", i, None)));
    places
}

fn key(name: &str) -> PathSeg {
    PathSeg::Key(name.to_string())
}

/// "1 node", "3 nodes".
fn count(n: u32, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// An even number of members tolerates no more failures than one fewer: "4 nodes need 3 for a
/// quorum: they tolerate 1 failed node, the same as 3 nodes".
fn even(n: u32, noun: &str, needed: &str, advice: &str) -> String {
    let tolerate = match n - majority(n) {
        0 => "no failure".to_string(),
        f => count(f, &format!("failed {noun}")),
    };
    format!(
        "{} need {} for {needed}: they tolerate {tolerate}, the same as {}{advice}",
        count(n, noun),
        majority(n),
        count(n - 1, noun)
    )
}

/// A majority of `n`: what Redlock and Raft both need.
fn majority(n: u32) -> u32 {
    n / 2 + 1
}

/// A consensus cluster serving ZooKeeper clients (`on_suspended`: Curator's connection states)
/// beside etcd clients (none): no real cluster is both, and the run would mix ZooKeeper sessions
/// with etcd leases in one log. Named at the first worker unlike the first one.
fn mixed_clients(s: &Scenario) -> Option<(Vec<PathSeg>, String)> {
    let zookeeper = |i: usize| s.workers[i].on_suspended.is_some();
    let first = s.workers.first()?;
    let (i, other) = s
        .workers
        .iter()
        .enumerate()
        .find(|&(i, _)| zookeeper(i) != zookeeper(0))?;
    let (zk, etcd) = if zookeeper(0) {
        (first, other)
    } else {
        (other, first)
    };
    Some((
        vec![key("workers"), PathSeg::Index(i), key("on_suspended")],
        format!(
            "{} is a ZooKeeper client (`on_suspended`, Curator's connection states) and {} an etcd client (no `on_suspended`): no real cluster serves both, and this run would mix ZooKeeper sessions and etcd leases in one log. Give every worker `on_suspended` for a ZooKeeper cluster, or none for etcd",
            zk.name, etcd.name
        ),
    ))
}

/// What is odd about the scenario, by field path.
fn advice(s: &Scenario) -> Vec<(Vec<PathSeg>, String)> {
    let mut out = Vec::new();
    let lock = &s.lock;
    match lock.kind {
        LockKind::Redlock => {
            let n = lock.instances.unwrap_or(defaults::REDLOCK_INSTANCES);
            let path = vec![key("lock"), key("instances")];
            if n == 1 {
                out.push((path, "Redlock over 1 instance is the single-instance lock: no fault tolerance, since that instance down stops every lock; Redlock is described for 5 independent masters (redis.io, Distributed Locks with Redis)".to_string()));
            } else if n == 2 {
                out.push((path, "with 2 instances a majority is both of them: either one down stops every lock, so 2 tolerate no more failures than 1; Redlock is described for 5 independent masters (redis.io, Distributed Locks with Redis)".to_string()));
            } else if n.is_multiple_of(2) {
                out.push((
                    path,
                    even(
                        n,
                        "instance",
                        "a majority",
                        ": Redlock deployments use an odd number, usually 5",
                    ),
                ));
            }
            let timeout = lock
                .instance_timeout_ms
                .unwrap_or(defaults::INSTANCE_TIMEOUT_MS);
            // Redlock's description: 5–50 ms for a 10 s TTL, i.e. at most half a percent.
            // redlock-rb's drift allowance plus one round trip to each instance in turn: what a
            // client must spend before it can hold the lock at all. A TTL with no validity left
            // gets that warning alone; the timeout is beside the point then.
            let drift = (lock.ttl_ms as f64 * lock.drift_factor.unwrap_or(0.01)) as u64 + 2;
            let trips = 2 * s.network.latency_ms * u64::from(n);
            let no_validity = lock.ttl_ms <= drift + trips;
            if timeout * 100 > lock.ttl_ms && !no_validity {
                // Asked one after another, every instance down costs a whole timeout; a client that
                // still gets a majority can have waited on all the others.
                let spare = n - majority(n);
                let in_turn = if lock.parallel.unwrap_or(false) || spare == 0 {
                    String::new()
                } else {
                    format!(
                        "; asking the instances one after another, a client that gets the lock with {} of the {n} down has spent {} ms of its {} ms validity waiting",
                        spare,
                        u64::from(spare) * timeout,
                        lock.ttl_ms
                    )
                };
                out.push((vec![key("lock"), key("instance_timeout_ms")], format!(
                    "a per-instance timeout of {timeout} ms is not small next to the {} ms TTL: Redlock asks for a timeout far below the TTL (5–50 ms for a 10 s TTL), so that a client does not spend its lock's validity waiting for an instance that is down{in_turn}",
                    lock.ttl_ms
                )));
            }
            if no_validity {
                out.push((vec![key("lock"), key("ttl_ms")], format!(
                    "a TTL of {} ms leaves no validity: the clock-drift allowance ({drift} ms) and the round trips to {n} instances (about {trips} ms) use it all, so no client ever holds the lock",
                    lock.ttl_ms
                )));
            }
        }
        LockKind::Consensus => {
            let election = lock
                .election_timeout_ms
                .unwrap_or(defaults::ELECTION_TIMEOUT_MS);
            // etcd's lessor: minLeaseTTL = 1.5 election timeouts rounded up to whole seconds
            // (server.go), so that a lease outlives an election.
            let etcd_min_s = (3 * election).div_ceil(2).div_ceil(1000);
            if lock.min_ttl_ms.is_none() && lock.ttl_ms < etcd_min_s * 1000 {
                out.push((vec![key("lock"), key("ttl_ms")], format!(
                    "a TTL of {} ms is shorter than etcd would grant with a {election} ms election timeout: its lessor raises every lease to at least 1.5 election timeouts, in whole seconds ({etcd_min_s} s), so that a lease outlives an election; this run grants what is asked: set `min_ttl_ms = {}` to run as etcd would",
                    lock.ttl_ms,
                    etcd_min_s * 1000
                )));
            }
            let n = lock.nodes.unwrap_or(defaults::CONSENSUS_NODES);
            let path = vec![key("lock"), key("nodes")];
            if n == 1 {
                out.push((path, "a single node is no consensus cluster: when it fails there is no lock service at all, and no other node can take over; etcd and ZooKeeper run 3 or 5 members".to_string()));
            } else if n.is_multiple_of(2) {
                out.push((
                    path,
                    even(
                        n,
                        "node",
                        "a quorum",
                        "; etcd and ZooKeeper recommend an odd number of members (3 or 5)",
                    ),
                ));
            }
        }
        LockKind::Redis | LockKind::None => {}
    }
    if lock.kind == LockKind::Consensus {
        out.extend(mixed_clients(s));
    }
    if matches!(lock.kind, LockKind::Redis | LockKind::Consensus) {
        for (i, w) in s.workers.iter().enumerate() {
            // Validation refuses an interval of a TTL or more; past half, one lost renewal is fatal.
            if w.renew_every_ms * 2 >= lock.ttl_ms {
                out.push((
                    vec![key("workers"), PathSeg::Index(i), key("renew_every_ms")],
                    format!(
                        "{} renews every {} ms a lease of {} ms: if one renewal is lost the lease runs out before the next (Redisson's watchdog renews every third of the lease, etcd's client every TTL/3)",
                        w.name, w.renew_every_ms, lock.ttl_ms
                    ),
                ));
            }
        }
    }
    let checks = s.resource.fencing != FencingMode::Off;
    for (i, w) in s.workers.iter().enumerate() {
        if w.fencing && !checks {
            out.push((
                vec![key("workers"), PathSeg::Index(i), key("fencing")],
                format!(
                    "{} sends fencing tokens, but the database checks none (resource.fencing is `off`): the tokens protect nothing",
                    w.name
                ),
            ));
        }
    }
    for (i, c) in s.clocks.iter().enumerate() {
        // Quartz drifts by tens of ppm; NTP will not slew faster than 500 ppm.
        if c.drift_ppm.abs() > 1000 {
            out.push((
                vec![key("clocks"), PathSeg::Index(i), key("drift_ppm")],
                format!(
                    "{}'s clock drifts by {} ppm ({} ms a second): real clocks drift by tens of ppm and NTP slews them by at most 500 ppm; a jump is a `clock-jump` fault",
                    c.node,
                    c.drift_ppm,
                    c.drift_ppm as f64 / 1000.0
                ),
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::parse_scenario;

    /// Runs the advice on a scenario made of `lock` and `workers` and compares the warnings, one
    /// per line, with `expect`.
    fn check(lock: &str, workers: &str, expect: &str) {
        let text = format!(
            "name = \"odd\"\ntitle = \"t\"\nsummary = \"s\"\nexpect = \"safe\"\n\n[lock]\n{lock}\n{workers}"
        );
        let s = parse_scenario("odd.toml", text.as_bytes()).expect("valid scenario");
        let got: Vec<String> = warnings("odd.toml", &text, &s)
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(got.join("\n"), expect.trim());
    }

    const TWO: &str = "[[workers]]\nname = \"A\"\n\n[[workers]]\nname = \"B\"\n";

    #[test]
    fn a_usual_deployment_gets_no_warning() {
        check("kind = \"redlock\"\ninstances = 5", TWO, "");
        check("kind = \"consensus\"\nnodes = 3", TWO, "");
        check("kind = \"redis\"", TWO, "");
    }

    #[test]
    fn a_redlock_of_one_or_an_even_number_is_named() {
        check(
            "kind = \"redlock\"\ninstances = 1",
            TWO,
            "odd.toml:8:13: lock.instances: Redlock over 1 instance is the single-instance lock: no fault tolerance, since that instance down stops every lock; Redlock is described for 5 independent masters (redis.io, Distributed Locks with Redis)",
        );
        check(
            "kind = \"redlock\"\ninstances = 4",
            TWO,
            "odd.toml:8:13: lock.instances: 4 instances need 3 for a majority: they tolerate 1 failed instance, the same as 3 instances: Redlock deployments use an odd number, usually 5",
        );
    }

    #[test]
    fn zookeeper_and_etcd_clients_of_one_cluster_are_named() {
        check(
            "kind = \"consensus\"",
            "[[workers]]\nname = \"A\"\non_suspended = \"stop\"\n\n[[workers]]\nname = \"B\"\n",
            "odd.toml:12:1: workers[1]: A is a ZooKeeper client (`on_suspended`, Curator's connection states) and B an etcd client (no `on_suspended`): no real cluster serves both, and this run would mix ZooKeeper sessions and etcd leases in one log. Give every worker `on_suspended` for a ZooKeeper cluster, or none for etcd",
        );
        check(
            "kind = \"consensus\"",
            "[[workers]]\nname = \"A\"\non_suspended = \"stop\"\n\n[[workers]]\nname = \"B\"\non_suspended = \"continue\"\n",
            "",
        );
    }

    #[test]
    fn an_even_or_single_node_cluster_is_named() {
        check(
            "kind = \"consensus\"\nnodes = 2",
            TWO,
            "odd.toml:8:9: lock.nodes: 2 nodes need 2 for a quorum: they tolerate no failure, the same as 1 node; etcd and ZooKeeper recommend an odd number of members (3 or 5)",
        );
        check(
            "kind = \"consensus\"\nnodes = 1",
            TWO,
            "odd.toml:8:9: lock.nodes: a single node is no consensus cluster: when it fails there is no lock service at all, and no other node can take over; etcd and ZooKeeper run 3 or 5 members",
        );
    }

    #[test]
    fn a_slow_instance_timeout_is_named_even_when_left_to_its_default() {
        check(
            "kind = \"redlock\"\ninstance_timeout_ms = 500\nttl_ms = 10000",
            TWO,
            "odd.toml:8:23: lock.instance_timeout_ms: a per-instance timeout of 500 ms is not small next to the 10000 ms TTL: Redlock asks for a timeout far below the TTL (5–50 ms for a 10 s TTL), so that a client does not spend its lock's validity waiting for an instance that is down; asking the instances one after another, a client that gets the lock with 2 of the 5 down has spent 1000 ms of its 10000 ms validity waiting",
        );
        check(
            "kind = \"redlock\"\ninstance_timeout_ms = 500\nttl_ms = 10000\nparallel = true",
            TWO,
            "odd.toml:8:23: lock.instance_timeout_ms: a per-instance timeout of 500 ms is not small next to the 10000 ms TTL: Redlock asks for a timeout far below the TTL (5–50 ms for a 10 s TTL), so that a client does not spend its lock's validity waiting for an instance that is down",
        );
        // The default 50 ms timeout is too slow for a 1 s TTL; the table is named.
        check(
            "kind = \"redlock\"\nttl_ms = 1000",
            TWO,
            "odd.toml:6:1: lock: a per-instance timeout of 50 ms is not small next to the 1000 ms TTL: Redlock asks for a timeout far below the TTL (5–50 ms for a 10 s TTL), so that a client does not spend its lock's validity waiting for an instance that is down; asking the instances one after another, a client that gets the lock with 2 of the 5 down has spent 100 ms of its 1000 ms validity waiting",
        );
    }

    #[test]
    fn a_lease_etcd_would_lengthen_is_named() {
        check(
            "kind = \"consensus\"\nttl_ms = 5000\nelection_timeout_ms = 10000",
            TWO,
            "odd.toml:8:10: lock.ttl_ms: a TTL of 5000 ms is shorter than etcd would grant with a 10000 ms election timeout: its lessor raises every lease to at least 1.5 election timeouts, in whole seconds (15 s), so that a lease outlives an election; this run grants what is asked: set `min_ttl_ms = 15000` to run as etcd would",
        );
        // Setting the minimum is the author's choice, and etcd's default needs no more than 1 s.
        check(
            "kind = \"consensus\"\nttl_ms = 5000\nelection_timeout_ms = 10000\nmin_ttl_ms = 1000",
            TWO,
            "",
        );
        check("kind = \"consensus\"\nttl_ms = 1000", TWO, "");
    }

    #[test]
    fn a_renewal_that_cannot_survive_one_loss_is_named() {
        check(
            "kind = \"redis\"\nttl_ms = 2000",
            "[[workers]]\nname = \"A\"\nrenew_every_ms = 1500\n",
            "odd.toml:11:18: workers[0].renew_every_ms: A renews every 1500 ms a lease of 2000 ms: if one renewal is lost the lease runs out before the next (Redisson's watchdog renews every third of the lease, etcd's client every TTL/3)",
        );
    }

    #[test]
    fn a_ttl_the_drift_allowance_eats_is_named() {
        check(
            "kind = \"redlock\"\nttl_ms = 8\ninstances = 3",
            "[[workers]]\nname = \"A\"\n",
            "odd.toml:8:10: lock.ttl_ms: a TTL of 8 ms leaves no validity: the clock-drift allowance (2 ms) and the round trips to 3 instances (about 6 ms) use it all, so no client ever holds the lock",
        );
    }

    #[test]
    fn tokens_nobody_checks_and_a_racing_clock_are_named() {
        check(
            "kind = \"redis\"",
            "[[workers]]\nname = \"A\"\nfencing = true\n\n[[clocks]]\nnode = \"A\"\ndrift_ppm = 200000\n",
            "odd.toml:10:11: workers[0].fencing: A sends fencing tokens, but the database checks none (resource.fencing is `off`): the tokens protect nothing\nodd.toml:14:13: clocks[0].drift_ppm: A's clock drifts by 200000 ppm (200 ms a second): real clocks drift by tens of ppm and NTP slews them by at most 500 ppm; a jump is a `clock-jump` fault",
        );
    }
}
