//! Who takes part in a run: the fixed node names DESIGN §3 gives each role, in lane order.

use serde::{Deserialize, Serialize};

use crate::scenario::{LockKind, Scenario, defaults};

/// Index of a node in the run's participant list.
pub type NodeId = u16;

/// What a participant is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Role {
    /// Runs the payout job.
    Worker,
    /// The single Redis instance (master).
    Redis,
    /// The asynchronous replica of the single Redis instance.
    RedisReplica,
    /// One of the Redlock instances.
    RedlockInstance,
    /// One node of the consensus lock service.
    ConsensusNode,
    /// The payouts database.
    Database,
}

impl Role {
    /// True for every node of the lock service.
    pub fn is_lock_service(self) -> bool {
        matches!(
            self,
            Role::Redis | Role::RedisReplica | Role::RedlockInstance | Role::ConsensusNode
        )
    }

    /// True for nodes that time expiries on the wall clock, so that a clock jump moves them:
    /// Redis (`mstime()` in `expireIfNeeded`) and the database. etcd's lessor and ZooKeeper's
    /// sessions use a monotonic clock, and so do the workers' own lease checks.
    pub fn reads_wall_clock(self) -> bool {
        matches!(
            self,
            Role::Redis | Role::RedisReplica | Role::RedlockInstance | Role::Database
        )
    }
}

/// One lane of the timeline.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Participant {
    pub name: String,
    pub role: Role,
}

/// The database's fixed name.
pub const DB: &str = "db";

/// Participants in lane order: workers, then the lock service, then the database.
///
/// Assumes the lock options are in range (validation checks them first).
pub fn participants(scenario: &Scenario) -> Vec<Participant> {
    let mut out: Vec<Participant> = scenario
        .workers
        .iter()
        .map(|w| Participant {
            name: w.name.clone(),
            role: Role::Worker,
        })
        .collect();
    let lock = &scenario.lock;
    match lock.kind {
        LockKind::Redis => {
            out.push(Participant {
                name: "redis".into(),
                role: Role::Redis,
            });
            if lock.replica_lag_ms.is_some() {
                out.push(Participant {
                    name: "redis-replica".into(),
                    role: Role::RedisReplica,
                });
            }
        }
        LockKind::Redlock => {
            let n = lock.instances.unwrap_or(defaults::REDLOCK_INSTANCES);
            for i in 1..=n {
                out.push(Participant {
                    name: format!("redis-{i}"),
                    role: Role::RedlockInstance,
                });
            }
        }
        LockKind::Consensus => {
            let n = lock.nodes.unwrap_or(defaults::CONSENSUS_NODES);
            for i in 1..=n {
                out.push(Participant {
                    name: format!("node-{i}"),
                    role: Role::ConsensusNode,
                });
            }
        }
        LockKind::None => {}
    }
    out.push(Participant {
        name: DB.into(),
        role: Role::Database,
    });
    out
}
