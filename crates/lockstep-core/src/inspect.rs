//! The inspector's view of a run at one step: what each actor holds, believes and reads on its
//! own clock, as plain serialisable data for the terminal UI and the web app.
//!
//! Built from [`Sim`]'s public state only; it decides nothing about how the values are shown.

use serde::Serialize;

use crate::scenario::{FencingMode, LockKind};
use crate::sim::Sim;
use crate::topology::{NodeId, Role};

/// The whole state of a run at one step.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Inspection {
    /// True (simulated) time of the last processed event, in ms.
    pub time_ms: u64,
    /// The kind of lock service (`redis`, `redlock`, `consensus`, `none`).
    pub lock_kind: LockKind,
    /// The lock key on each node of the lock service that stores one (every Redis or Redlock
    /// instance; the consensus leader).
    pub locks: Vec<LockView>,
    /// Consensus only: the revision of the last committed change (the fencing token source).
    pub revision: Option<u64>,
    /// Consensus only: the current term and its leader.
    pub term: Option<u64>,
    pub leader: Option<String>,
    pub workers: Vec<WorkerView>,
    /// Every participant in lane order.
    pub nodes: Vec<NodeView>,
    pub db: DbView,
}

/// A lock key as one node of the lock service records it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LockView {
    /// The node storing the key.
    pub node: String,
    pub key: String,
    /// Who the node says holds the lock.
    pub holder: Option<String>,
    /// Time left before the key expires, on the node's own clock (may be zero or negative for
    /// an instant when the expiry has not been processed yet).
    pub ttl_left_ms: Option<i64>,
    /// Redis only: the `INCR` fencing counter on this node.
    pub counter: Option<u64>,
    /// The node's own clock reading, in ms.
    pub clock_ms: i64,
}

/// A worker's state and belief.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct WorkerView {
    pub name: String,
    /// Where it is in its job (`acquiring`, `working`, `done`...).
    pub state: &'static str,
    /// Whether it believes it holds the lock.
    pub believes: bool,
    /// The fencing token of its current acquisition.
    pub token: Option<u64>,
    /// Until when its lease is valid as far as it knows, on its own clock.
    pub lease_until_ms: Option<i64>,
    /// Its own clock reading, in ms.
    pub clock_ms: i64,
}

/// A participant's liveness.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NodeView {
    pub name: String,
    pub role: Role,
    pub alive: bool,
    /// Frozen until this true time, if paused.
    pub paused_until_ms: Option<u64>,
    pub clock_ms: i64,
}

/// The payouts database's records.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DbView {
    pub fencing: FencingMode,
    pub idempotency: bool,
    /// The highest fencing token it has seen.
    pub last_token: Option<u64>,
    /// Whether the batch is marked paid.
    pub paid: bool,
    /// How many times each payout row was applied.
    pub rows: Vec<u32>,
    /// Writes that applied at least one payout.
    pub writes_accepted: u32,
    /// Writes taken that applied nothing: every payout a repeat skipped by its idempotency key.
    pub writes_skipped: u32,
    pub writes_rejected: u32,
    pub reads_rejected: u32,
    /// Repeated payouts turned into no-ops by idempotency keys.
    pub noops: u32,
}

impl Inspection {
    /// What `sim` holds after its last processed event.
    pub fn of(sim: &Sim) -> Inspection {
        let now = sim.now();
        let p = &sim.params;
        let name = |node: NodeId| p.names.get(usize::from(node)).cloned().unwrap_or_default();
        let clock = |node: NodeId| {
            sim.nodes
                .get(usize::from(node))
                .map_or(0, |n| n.clock.local(now))
        };
        let mut locks: Vec<LockView> = sim
            .redis
            .iter()
            .enumerate()
            .map(|(i, r)| {
                let node = p.first_service + i as NodeId;
                let local = clock(node);
                // A crashed instance's key went with its memory: it records no holder until it
                // restarts (with persistence, the key may come back then).
                let alive = sim.nodes.get(usize::from(node)).is_some_and(|n| n.alive);
                let key = r.key.filter(|_| alive);
                LockView {
                    node: name(node),
                    key: p.lock.key.clone(),
                    holder: key.map(|k| name(k.owner)),
                    ttl_left_ms: key.map(|k| k.expires_local - local),
                    counter: Some(r.counter),
                    clock_ms: local,
                }
            })
            .collect();
        let (mut revision, mut term, mut leader) = (None, None, None);
        if let Some(c) = &sim.cluster {
            let node = c.leader_node();
            let local = clock(node);
            let owner = c.owner();
            locks.push(LockView {
                node: name(node),
                key: p.lock.key.clone(),
                holder: owner.map(|(_, lease)| name(lease.owner)),
                ttl_left_ms: owner.map(|(_, lease)| lease.expires_local - local),
                counter: None,
                clock_ms: local,
            });
            revision = Some(c.revision);
            term = Some(c.term);
            leader = Some(name(node));
        }
        let workers = sim
            .workers
            .iter()
            .enumerate()
            .map(|(i, w)| WorkerView {
                name: w.cfg.name.clone(),
                state: w.phase.as_str(),
                believes: w.believes,
                token: w.token,
                lease_until_ms: w.lease_until_local,
                clock_ms: clock(i as NodeId),
            })
            .collect();
        let nodes = sim
            .nodes
            .iter()
            .enumerate()
            .map(|(i, n)| NodeView {
                name: name(i as NodeId),
                role: p.role(i as NodeId),
                alive: n.alive,
                paused_until_ms: n.paused_until,
                clock_ms: n.clock.local(now),
            })
            .collect();
        let db = &sim.db;
        Inspection {
            time_ms: now,
            lock_kind: p.lock.kind,
            locks,
            revision,
            term,
            leader,
            workers,
            nodes,
            db: DbView {
                fencing: db.fencing,
                idempotency: db.idempotency,
                last_token: db.last_token,
                paid: db.paid,
                rows: db.applied.clone(),
                writes_accepted: db.writes_accepted,
                writes_skipped: db.writes_skipped,
                writes_rejected: db.writes_rejected,
                reads_rejected: db.reads_rejected,
                noops: db.noops,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalogue;
    use crate::session::Session;
    use crate::trace::Tag;

    fn session(id: &str) -> Session {
        let scenario = catalogue::load(id).unwrap().unwrap();
        Session::new(&scenario)
    }

    #[test]
    fn at_the_rejected_write_the_database_has_the_newer_token_and_one_rejection() {
        let mut s = session("fenced-gc-pause");
        s.run_until(|e| matches!(e.tag, Some(Tag::AccessRejected { .. })))
            .unwrap();
        let i = s.inspect();
        assert_eq!(i.lock_kind, LockKind::Redis);
        assert_eq!(i.db.fencing, FencingMode::Writes);
        assert_eq!(i.db.writes_rejected, 1);
        assert_eq!(i.db.writes_accepted, 1);
        assert_eq!(i.db.last_token, Some(34));
        let a = i.workers.iter().find(|w| w.name == "A").unwrap();
        assert_eq!(a.token, Some(33), "A's token is the stale one");
        let b = i.workers.iter().find(|w| w.name == "B").unwrap();
        assert_eq!(b.token, Some(34));
        assert_eq!(i.locks.len(), 1);
        assert_eq!(i.locks[0].node, "redis");
        assert_eq!(i.locks[0].counter, Some(34));
    }

    #[test]
    fn right_after_the_grant_the_lock_has_its_whole_ttl_left() {
        let mut s = session("naive-happy-path");
        s.run_until(|e| matches!(e.tag, Some(Tag::ServiceGrants { .. })))
            .unwrap();
        let i = s.inspect();
        let ttl = s.sim().params.lock.ttl_ms as i64;
        assert_eq!(i.locks[0].holder.as_deref(), Some("A"));
        assert_eq!(i.locks[0].ttl_left_ms, Some(ttl));
        assert_eq!(i.db.rows, vec![0; i.db.rows.len()]);
        assert!(
            i.nodes
                .iter()
                .all(|n| n.alive && n.paused_until_ms.is_none())
        );
    }

    #[test]
    fn consensus_shows_revision_term_and_leader() {
        let mut s = session("consensus-fenced-failover");
        s.run_until(|e| matches!(e.tag, Some(Tag::ServiceGrants { .. })))
            .unwrap();
        let i = s.inspect();
        assert_eq!(i.leader.as_deref(), Some("node-1"));
        assert_eq!(i.term, Some(1));
        assert!(i.revision.is_some());
        assert_eq!(i.locks.len(), 1);
        assert!(i.locks[0].holder.is_some());
    }

    #[test]
    fn the_idempotency_what_if_turns_the_second_payment_into_noops() {
        use crate::scenario::Outcome;
        use crate::session::Change;
        let mut s = session("naive-gc-pause");
        s.step();
        s.apply(Change::SetIdempotency { idempotency: true })
            .unwrap();
        assert!(s.inspect().db.idempotency);
        s.run_to_end();
        let v = s.verdict();
        assert_eq!(v.outcome, Outcome::Safe);
        assert_eq!(v.idempotent_noops, s.inspect().db.noops);
        assert!(v.idempotent_noops > 0);
    }

    #[test]
    fn serialises_to_json() {
        let s = session("naive-happy-path");
        let json = serde_json::to_string(&s.inspect()).unwrap();
        assert!(json.contains("\"lock_kind\":\"redis\""), "{json}");
        assert!(json.contains("\"last_token\":null"), "{json}");
    }
}
