//! Semantic checks of a parsed scenario: ranges, cross-references and options that do not fit
//! together. Each problem names the field's path and says what is allowed.

use std::collections::BTreeSet;

use super::{Fault, FaultKind, LockKind, Persistence, Scenario};
use crate::topology::{Role, participants};

/// One step of a field path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PathSeg {
    Key(String),
    Index(usize),
}

/// The first problem found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub path: Vec<PathSeg>,
    pub message: String,
}

/// A day of simulated time: the bound for every duration in a file.
pub const MAX_DURATION_MS: u64 = 86_400_000;
/// Bounds that keep a hostile file from making a run huge.
pub const MAX_WORKERS: usize = 256;
pub const MAX_FAULTS: usize = 256;
pub const MAX_PAYOUTS: u32 = 10_000;
pub const MAX_EVENTS: u64 = 1_000_000;
pub const MAX_REDLOCK_INSTANCES: u32 = 9;
pub const MAX_CONSENSUS_NODES: u32 = 7;

struct Checker {
    path: Vec<PathSeg>,
}

type Check = Result<(), Problem>;

impl Checker {
    fn at<T>(
        &mut self,
        key: &str,
        f: impl FnOnce(&mut Self) -> Result<T, Problem>,
    ) -> Result<T, Problem> {
        self.path.push(PathSeg::Key(key.to_string()));
        let out = f(self);
        self.path.pop();
        out
    }
    fn index<T>(
        &mut self,
        i: usize,
        f: impl FnOnce(&mut Self) -> Result<T, Problem>,
    ) -> Result<T, Problem> {
        self.path.push(PathSeg::Index(i));
        let out = f(self);
        self.path.pop();
        out
    }
    fn fail(&self, message: impl Into<String>) -> Check {
        Err(Problem {
            path: self.path.clone(),
            message: message.into(),
        })
    }
    fn fail_at(&mut self, key: &str, message: impl Into<String>) -> Check {
        let message = message.into();
        self.at(key, |c| c.fail(message))
    }
    fn range(&mut self, key: &str, value: u64, lo: u64, hi: u64) -> Check {
        if value < lo || value > hi {
            return self.fail_at(
                key,
                format!("{value} is out of range: allowed {lo} to {hi}"),
            );
        }
        Ok(())
    }
    fn opt_range(&mut self, key: &str, value: Option<u64>, lo: u64, hi: u64) -> Check {
        match value {
            Some(v) => self.range(key, v, lo, hi),
            None => Ok(()),
        }
    }
    fn text(&mut self, key: &str, value: &str, max: usize) -> Check {
        if value.trim().is_empty() {
            return self.fail_at(key, "must not be empty");
        }
        if value.chars().count() > max {
            return self.fail_at(key, format!("is longer than {max} characters"));
        }
        Ok(())
    }
}

fn is_kebab(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 64
        && s.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && !s.starts_with('-')
        && !s.ends_with('-')
}

/// Checks everything serde cannot.
pub fn validate(s: &Scenario) -> Result<(), Problem> {
    let mut c = Checker { path: Vec::new() };
    if !is_kebab(&s.name) {
        c.fail_at(
            "name",
            format!(
                "`{}` is not a kebab-case id (lowercase letters, digits and '-', at most 64)",
                s.name
            ),
        )?;
    }
    c.text("title", &s.title, 120)?;
    c.text("summary", &s.summary, 600)?;
    c.at("limits", |c| {
        c.range("max_time_ms", s.limits.max_time_ms, 1, MAX_DURATION_MS)?;
        c.range("max_events", s.limits.max_events, 1, MAX_EVENTS)
    })?;
    check_lock(&mut c, s)?;
    c.at("resource", |c| {
        c.text("batch", &s.resource.batch, 64)?;
        c.range(
            "payouts",
            u64::from(s.resource.payouts),
            1,
            u64::from(MAX_PAYOUTS),
        )?;
        c.range(
            "amount_cents",
            s.resource.amount_cents,
            1,
            1_000_000_000_000,
        )?;
        if s.resource.idempotency_retention_ms.is_some() && !s.resource.idempotency {
            c.fail_at(
                "idempotency_retention_ms",
                "the database keeps no idempotency keys; set resource.idempotency = true",
            )?;
        }
        c.opt_range(
            "idempotency_retention_ms",
            s.resource.idempotency_retention_ms,
            0,
            MAX_DURATION_MS,
        )
    })?;
    let nodes = participants_checked(&mut c, s)?;
    let names: BTreeSet<&str> = nodes.iter().map(|(n, _)| n.as_str()).collect();
    let known = |name: &str| names.contains(name);
    let list = nodes
        .iter()
        .map(|(n, _)| n.as_str())
        .collect::<Vec<_>>()
        .join(", ");
    c.at("network", |c| {
        c.range("latency_ms", s.network.latency_ms, 0, 60_000)?;
        c.at("links", |c| {
            for (i, link) in s.network.links.iter().enumerate() {
                c.index(i, |c| {
                    for name in &link.between {
                        if !known(name) {
                            c.fail_at(
                                "between",
                                format!("no node is called `{name}`; the nodes are {list}"),
                            )?;
                        }
                    }
                    if link.between[0] == link.between[1] {
                        c.fail_at("between", "a link joins two different nodes")?;
                    }
                    c.range("latency_ms", link.latency_ms, 0, 60_000)
                })?;
            }
            Ok(())
        })
    })?;
    check_workers(&mut c, s)?;
    c.at("faults", |c| {
        if s.faults.len() > MAX_FAULTS {
            return c.fail(format!("{} faults; at most {MAX_FAULTS}", s.faults.len()));
        }
        for (i, fault) in s.faults.iter().enumerate() {
            c.index(i, |c| check_fault(c, s, fault, &nodes, &list))?;
        }
        Ok(())
    })?;
    c.at("clocks", |c| {
        let mut seen = BTreeSet::new();
        for (i, clock) in s.clocks.iter().enumerate() {
            c.index(i, |c| {
                if !known(&clock.node) {
                    c.fail_at(
                        "node",
                        format!("no node is called `{}`; the nodes are {list}", clock.node),
                    )?;
                }
                if !seen.insert(clock.node.as_str()) {
                    c.fail_at(
                        "node",
                        format!("`{}` already has a [[clocks]] entry", clock.node),
                    )?;
                }
                if clock.drift_ppm.unsigned_abs() > 500_000 {
                    c.fail_at("drift_ppm", "allowed -500000 to 500000 (±50%)")?;
                }
                if clock.offset_ms.unsigned_abs() > MAX_DURATION_MS {
                    c.fail_at(
                        "offset_ms",
                        format!("allowed -{MAX_DURATION_MS} to {MAX_DURATION_MS}"),
                    )?;
                }
                Ok(())
            })?;
        }
        Ok(())
    })?;
    c.at("explain", |c| {
        for (i, e) in s.explain.iter().enumerate() {
            c.index(i, |c| {
                c.text("when", &e.when, 200)?;
                c.text("text", &e.text, 1000)?;
                if let Some(node) = &e.node
                    && !known(node)
                {
                    c.fail_at(
                        "node",
                        format!("no node is called `{node}`; the nodes are {list}"),
                    )?;
                }
                Ok(())
            })?;
        }
        Ok(())
    })?;
    check_orders(&mut c, s, &known, &list)
}

/// `[[order]]`: a known receiver, a known sender if given, a time within the run.
fn check_orders(c: &mut Checker, s: &Scenario, known: &dyn Fn(&str) -> bool, list: &str) -> Check {
    c.at("order", |c| {
        if s.order.len() > MAX_FAULTS {
            return c.fail(format!("{} entries; at most {MAX_FAULTS}", s.order.len()));
        }
        for (i, o) in s.order.iter().enumerate() {
            c.index(i, |c| {
                c.range("at_ms", o.at_ms, 0, s.limits.max_time_ms)?;
                for (field, name) in [("to", Some(&o.to)), ("from", o.from.as_ref())] {
                    if let Some(name) = name
                        && !known(name)
                    {
                        c.fail_at(
                            field,
                            format!("no node is called `{name}`; the nodes are {list}"),
                        )?;
                    }
                }
                if o.from.as_ref() == Some(&o.to) {
                    c.fail_at("from", "a node sends no message to itself")?;
                }
                if let Some(label) = &o.match_label {
                    c.text("match", label, 200)?;
                }
                if o.from.is_none() && o.match_label.is_none() {
                    c.fail_at(
                        "to",
                        "an order entry needs `from` or `match` to say which message goes first",
                    )?;
                }
                Ok(())
            })?;
        }
        Ok(())
    })
}

fn check_lock(c: &mut Checker, s: &Scenario) -> Check {
    let l = &s.lock;
    c.at("lock", |c| {
        c.range("ttl_ms", l.ttl_ms, 1, 3_600_000)?;
        if let Some(first) = l.first_token_set {
            c.range("first_token", first, 1, 1_000_000_000_000)?;
        }
        if let Some(key) = &l.key {
            c.text("key", key, 128)?;
        }
        let only = |c: &mut Checker, field: &str, present: bool, kind: &str| -> Check {
            if present && l.kind.as_str() != kind {
                return c.fail_at(
                    field,
                    format!(
                        "applies only to kind = \"{kind}\" (this lock is \"{}\")",
                        l.kind.as_str()
                    ),
                );
            }
            Ok(())
        };
        only(c, "replica_lag_ms", l.replica_lag_ms.is_some(), "redis")?;
        only(c, "instances", l.instances.is_some(), "redlock")?;
        only(c, "drift_factor", l.drift_factor.is_some(), "redlock")?;
        only(
            c,
            "instance_timeout_ms",
            l.instance_timeout_ms.is_some(),
            "redlock",
        )?;
        only(c, "retry_delay_ms", l.retry_delay_ms.is_some(), "redlock")?;
        if l.persistence.is_some() && !matches!(l.kind, LockKind::Redis | LockKind::Redlock) {
            c.fail_at(
                "persistence",
                format!(
                    "applies only to kind = \"redis\" or \"redlock\" (this lock is \"{}\")",
                    l.kind.as_str()
                ),
            )?;
        }
        if l.background_writes.is_some() && l.persistence != Some(Persistence::Everysec) {
            c.fail_at(
                "background_writes",
                "applies only with persistence = \"everysec\" (it says when the instances fsync)"
                    .to_string(),
            )?;
        }
        only(c, "parallel", l.parallel.is_some(), "redlock")?;
        only(c, "max_tries", l.max_tries.is_some(), "redlock")?;
        c.opt_range("max_tries", l.max_tries.map(u64::from), 1, 1000)?;
        only(c, "nodes", l.nodes.is_some(), "consensus")?;
        only(
            c,
            "election_timeout_ms",
            l.election_timeout_ms.is_some(),
            "consensus",
        )?;
        only(c, "lock_delay_ms", l.lock_delay_ms.is_some(), "consensus")?;
        only(c, "min_ttl_ms", l.min_ttl_ms.is_some(), "consensus")?;
        c.opt_range("min_ttl_ms", l.min_ttl_ms, 0, 3_600_000)?;
        c.opt_range("replica_lag_ms", l.replica_lag_ms, 1, 600_000)?;
        c.opt_range(
            "instances",
            l.instances.map(u64::from),
            1,
            u64::from(MAX_REDLOCK_INSTANCES),
        )?;
        if let Some(f) = l.drift_factor
            && !(0.0..=0.5).contains(&f)
        {
            c.fail_at(
                "drift_factor",
                if f.is_finite() {
                    format!(
                        "{f} is out of range: allowed 0 to 0.5 (the reference clients use 0.01)"
                    )
                } else {
                    "this is not a number: allowed 0 to 0.5 (the reference clients use 0.01)".into()
                },
            )?;
        }
        c.opt_range("instance_timeout_ms", l.instance_timeout_ms, 1, l.ttl_ms)?;
        c.opt_range("retry_delay_ms", l.retry_delay_ms, 1, 60_000)?;
        c.opt_range(
            "nodes",
            l.nodes.map(u64::from),
            1,
            u64::from(MAX_CONSENSUS_NODES),
        )?;
        c.opt_range("election_timeout_ms", l.election_timeout_ms, 10, 60_000)?;
        // Chubby bounds lock-delay at one minute (Burrows, OSDI 2006, §2.4).
        c.opt_range("lock_delay_ms", l.lock_delay_ms, 0, 60_000)
    })
}

fn participants_checked(c: &mut Checker, s: &Scenario) -> Result<Vec<(String, Role)>, Problem> {
    c.at("workers", |c| {
        if s.workers.is_empty() {
            c.fail("a scenario needs at least one [[workers]] entry")?;
        }
        if s.workers.len() > MAX_WORKERS {
            c.fail(format!(
                "{} workers; at most {MAX_WORKERS}",
                s.workers.len()
            ))?;
        }
        Ok(())
    })?;
    let nodes: Vec<(String, Role)> = participants(s)
        .into_iter()
        .map(|p| (p.name, p.role))
        .collect();
    for (i, w) in s.workers.iter().enumerate() {
        let clash = nodes
            .iter()
            .any(|(n, role)| *n == w.name && *role != Role::Worker);
        c.at("workers", |c| {
            c.index(i, |c| {
                let valid = !w.name.is_empty()
                    && w.name.len() <= 32
                    && w.name
                        .chars()
                        .all(|ch| ch.is_ascii_alphanumeric() || ch == '-' || ch == '_');
                if !valid {
                    c.fail_at(
                        "name",
                        "worker names are 1 to 32 letters, digits, '-' or '_'",
                    )?;
                }
                if let Some(first) = s.workers[..i].iter().position(|o| o.name == w.name) {
                    c.fail_at(
                        "name",
                        format!(
                            "the name `{}` is used twice: workers[{first}] is already called `{}`; give each worker its own name",
                            w.name, w.name
                        ),
                    )?;
                }
                if clash {
                    c.fail_at(
                        "name",
                        format!("`{}` is the name of a service node; pick another", w.name),
                    )?;
                }
                Ok(())
            })
        })?;
    }
    Ok(nodes)
}

fn check_workers(c: &mut Checker, s: &Scenario) -> Check {
    let kind = s.lock.kind;
    c.at("workers", |c| {
        for (i, w) in s.workers.iter().enumerate() {
            c.index(i, |c| {
                c.range("start_ms", w.start_ms, 0, MAX_DURATION_MS)?;
                c.range("work_ms", w.work_ms, 0, MAX_DURATION_MS)?;
                c.range("retry_ms", w.retry_ms, 1, 3_600_000)?;
                c.range("acquire_timeout_ms", w.acquire_timeout_ms, 0, MAX_DURATION_MS)?;
                c.range("request_timeout_ms", w.request_timeout_ms, 1, 3_600_000)?;
                if w.fencing && matches!(kind, LockKind::Redlock | LockKind::None) {
                    c.fail_at("fencing", format!(
                        "a {} lock issues no fencing token (Kleppmann 2016); use kind = \"redis\" or \"consensus\", or set fencing = false",
                        kind.as_str()
                    ))?;
                }
                if w.idempotency_keys && !s.resource.idempotency {
                    c.fail_at("idempotency_keys", "the database has no idempotency keys; set resource.idempotency = true")?;
                }
                if w.unsafe_release && kind != LockKind::Redis {
                    c.fail_at("unsafe_release", format!(
                        "a plain DEL release is modelled for kind = \"redis\", not for kind = \"{}\"",
                        kind.as_str()
                    ))?;
                }
                c.range("retry_writes", u64::from(w.retry_writes), 0, 100)?;
                if w.session.is_some() && kind != LockKind::Consensus {
                    c.fail_at("session", "sharing a session is modelled for kind = \"consensus\" (etcd's concurrency.Session)")?;
                }
                if let Some(other) = &w.session
                    && (other == &w.name || !s.workers.iter().any(|o| &o.name == other))
                {
                    c.fail_at("session", format!("\"{other}\" is not another worker of this scenario"))?;
                }
                if w.retry_unlock && kind != LockKind::Consensus {
                    c.fail_at("retry_unlock", "retrying an unlock is modelled for kind = \"consensus\" (etcd's Mutex.Unlock)")?;
                }
                if w.on_suspended.is_some() && kind != LockKind::Consensus {
                    c.fail_at("on_suspended", "a session is suspended only when a consensus keepalive goes unanswered: it needs kind = \"consensus\"")?;
                }
                c.opt_range("amount_cents", w.amount_cents, 1, 1_000_000_000_000)?;
                if w.check_lease_before_write && kind == LockKind::None {
                    c.fail_at("check_lease_before_write", "there is no lease to check without a lock")?;
                }
                if w.renew_every_ms > 0 {
                    if matches!(kind, LockKind::None | LockKind::Redlock) {
                        c.fail_at("renew_every_ms", format!(
                            "renewal is modelled for redis and consensus locks, not for kind = \"{}\"",
                            kind.as_str()
                        ))?;
                    }
                    if w.renew_every_ms >= s.lock.ttl_ms {
                        c.fail_at("renew_every_ms", format!(
                            "{} ms is not shorter than the TTL ({} ms): the lease would lapse between renewals",
                            w.renew_every_ms, s.lock.ttl_ms
                        ))?;
                    }
                }
                Ok(())
            })?;
        }
        Ok(())
    })
}

fn check_fault(
    c: &mut Checker,
    s: &Scenario,
    f: &Fault,
    nodes: &[(String, Role)],
    list: &str,
) -> Check {
    use FaultKind as K;
    let kind = f.kind;
    let uses = |field: &str| -> bool {
        match field {
            "at_ms" => true,
            "target" => matches!(
                kind,
                K::Pause | K::ClockJump | K::Crash | K::Restart | K::Failover
            ),
            "duration_ms" => matches!(kind, K::Pause | K::Delay),
            "by_ms" => kind == K::ClockJump,
            "persistent" => kind == K::Restart,
            "host" => kind == K::Crash,
            "groups" => kind == K::Partition,
            "after" => kind == K::Pause,
            "match" | "from" | "to" => matches!(kind, K::Delay | K::Drop),
            _ => false,
        }
    };
    let present = [
        ("at_ms", f.at_ms.is_some()),
        ("target", f.target.is_some()),
        ("duration_ms", f.duration_ms.is_some()),
        ("by_ms", f.by_ms.is_some()),
        ("persistent", f.persistent.is_some()),
        ("host", f.host.is_some()),
        ("groups", f.groups.is_some()),
        ("after", f.after.is_some()),
        ("match", f.match_label.is_some()),
        ("from", f.from.is_some()),
        ("to", f.to.is_some()),
    ];
    for (field, is_there) in present {
        if is_there && !uses(field) {
            c.fail_at(
                field,
                format!("does not apply to a {} fault", kind.as_str()),
            )?;
        }
    }
    let need = |c: &mut Checker, field: &str, is_there: bool, what: &str| -> Check {
        if !is_there {
            return c.at("kind", |c| {
                c.fail(format!(
                    "a {} fault needs `{field}` ({what})",
                    kind.as_str()
                ))
            });
        }
        Ok(())
    };
    let role_of = |name: &str| nodes.iter().find(|(n, _)| n == name).map(|(_, r)| *r);
    if let Some(at) = f.at_ms {
        c.range("at_ms", at, 0, s.limits.max_time_ms)?;
    }
    match kind {
        K::Pause => {
            need(c, "target", f.target.is_some(), "the node to pause")?;
            need(
                c,
                "duration_ms",
                f.duration_ms.is_some(),
                "how long the pause lasts",
            )?;
            if f.at_ms.is_none() == f.after.is_none() {
                c.at("kind", |c| c.fail("a pause fault needs exactly one of `at_ms` (a time) or `after` (the label of the target's event it follows)"))?;
            }
            if let Some(after) = &f.after {
                c.text("after", after, 200)?;
            }
            c.opt_range("duration_ms", f.duration_ms, 1, MAX_DURATION_MS)?;
        }
        K::ClockJump => {
            need(
                c,
                "target",
                f.target.is_some(),
                "the node whose clock jumps",
            )?;
            need(c, "by_ms", f.by_ms.is_some(), "how far the clock steps")?;
            need(c, "at_ms", f.at_ms.is_some(), "when")?;
            if f.by_ms
                .is_some_and(|b| b.unsigned_abs() > MAX_DURATION_MS || b == 0)
            {
                c.fail_at(
                    "by_ms",
                    format!("allowed -{MAX_DURATION_MS} to {MAX_DURATION_MS}, not 0"),
                )?;
            }
        }
        K::Crash | K::Restart | K::Failover | K::Partition | K::Heal => {
            need(c, "at_ms", f.at_ms.is_some(), "when")?;
        }
        K::Delay | K::Drop => {
            need(
                c,
                "match",
                f.match_label.is_some(),
                "the start of the label of the message it hits",
            )?;
            if let Some(m) = &f.match_label {
                c.text("match", m, 200)?;
            }
            if kind == K::Delay {
                need(c, "duration_ms", f.duration_ms.is_some(), "the extra delay")?;
                c.opt_range("duration_ms", f.duration_ms, 1, MAX_DURATION_MS)?;
            }
        }
    }
    for field in ["target", "from", "to"] {
        let name = match field {
            "target" => &f.target,
            "from" => &f.from,
            _ => &f.to,
        };
        if let Some(name) = name
            && role_of(name).is_none()
        {
            c.fail_at(
                field,
                format!("no node is called `{name}`; the nodes are {list}"),
            )?;
        }
    }
    let target_role = f.target.as_deref().and_then(role_of);
    match kind {
        K::Crash => {
            if target_role == Some(Role::Database) {
                c.fail_at("target", "the database does not crash in this model; crash a worker or a lock-service node")?;
            }
            need(c, "target", f.target.is_some(), "the node that crashes")?;
        }
        K::Restart => {
            need(
                c,
                "target",
                f.target.is_some(),
                "the lock-service node that restarts",
            )?;
            if !target_role.is_some_and(Role::is_lock_service) {
                c.fail_at(
                    "target",
                    "only lock-service nodes restart (redis, redis-N, node-N)",
                )?;
            }
        }
        K::Failover => {
            if !(s.lock.kind == LockKind::Redis && s.lock.replica_lag_ms.is_some()) {
                c.at("kind", |c| c.fail("failover needs lock.kind = \"redis\" with a replica (set lock.replica_lag_ms)"))?;
            }
            if f.target.as_deref().is_some_and(|t| t != "redis") {
                c.fail_at("target", "failover promotes redis-replica in place of `redis`; the target, if given, is \"redis\"")?;
            }
        }
        K::ClockJump if target_role == Some(Role::Database) => {
            c.fail_at(
                "target",
                "the database's clock plays no part; jump a worker's or a lock node's clock",
            )?;
        }
        K::Partition => {
            need(
                c,
                "groups",
                f.groups.is_some(),
                "the groups of nodes that can still talk",
            )?;
            let groups = f.groups.as_deref().unwrap_or_default();
            let mut seen = BTreeSet::new();
            c.at("groups", |c| {
                if groups.len() < 2 {
                    c.fail("a partition needs at least two groups")?;
                }
                for (gi, g) in groups.iter().enumerate() {
                    c.index(gi, |c| {
                        for name in g {
                            if role_of(name).is_none() {
                                c.fail(format!(
                                    "no node is called `{name}`; the nodes are {list}"
                                ))?;
                            }
                            if !seen.insert(name.as_str()) {
                                c.fail(format!("`{name}` is in two groups"))?;
                            }
                        }
                        Ok(())
                    })?;
                }
                Ok(())
            })?;
        }
        _ => {}
    }
    Ok(())
}
