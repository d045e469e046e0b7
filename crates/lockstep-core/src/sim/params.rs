//! What a run is made of that never changes while it runs: participants, lock parameters, links.

use std::collections::BTreeMap;

use crate::actors::worker::LockParams;
use crate::scenario::{Scenario, defaults};
use crate::topology::{NodeId, Participant, Role, participants};

/// Everything about a run that never changes while it runs.
#[derive(Debug, Clone, PartialEq)]
pub struct Params {
    pub scenario: Scenario,
    pub participants: Vec<Participant>,
    pub names: Vec<String>,
    pub lock: LockParams,
    pub batch: String,
    pub first_service: NodeId,
    pub db: NodeId,
    pub(super) latency_ms: u64,
    pub(super) links: BTreeMap<(NodeId, NodeId), u64>,
}

impl Params {
    /// The one-way latency between two participants: their link's, or the network's.
    pub(super) fn latency(&self, a: NodeId, b: NodeId) -> u64 {
        self.links
            .get(&(a.min(b), a.max(b)))
            .copied()
            .unwrap_or(self.latency_ms)
    }

    pub(super) fn new(scenario: &Scenario) -> Self {
        let participants = participants(scenario);
        let names: Vec<String> = participants.iter().map(|p| p.name.clone()).collect();
        let id = |name: &str| names.iter().position(|n| n == name).map(|i| i as NodeId);
        let lock = &scenario.lock;
        let drift_factor = lock.drift_factor.unwrap_or(defaults::DRIFT_FACTOR);
        let links = scenario
            .network
            .links
            .iter()
            .filter_map(|l| {
                let (a, b) = (id(&l.between[0])?, id(&l.between[1])?);
                Some(((a.min(b), a.max(b)), l.latency_ms))
            })
            .collect();
        Params {
            lock: LockParams {
                kind: lock.kind,
                ttl_ms: lock.ttl_ms,
                key: scenario.lock_key(),
                instances: lock.instances.unwrap_or(defaults::REDLOCK_INSTANCES),
                // redlock-rb: (ttl * drift_factor).to_i + 2
                drift_ms: (lock.ttl_ms as f64 * drift_factor) as u64 + 2,
                instance_timeout_ms: lock
                    .instance_timeout_ms
                    .unwrap_or(defaults::INSTANCE_TIMEOUT_MS),
                retry_delay_ms: lock.retry_delay_ms.unwrap_or(defaults::RETRY_DELAY_MS),
                parallel: lock.parallel.unwrap_or(false),
                max_tries: lock.max_tries.unwrap_or(0),
                payouts: scenario.resource.payouts,
                nodes: lock.nodes.unwrap_or(defaults::CONSENSUS_NODES),
            },
            batch: scenario.resource.batch.clone(),
            first_service: scenario.workers.len() as NodeId,
            db: (participants.len() - 1) as NodeId,
            latency_ms: scenario.network.latency_ms,
            links,
            participants,
            names,
            scenario: scenario.clone(),
        }
    }

    /// The node with this name.
    pub fn node(&self, name: &str) -> Option<NodeId> {
        self.names
            .iter()
            .position(|n| n == name)
            .map(|i| i as NodeId)
    }

    pub fn role(&self, node: NodeId) -> Role {
        self.participants[usize::from(node)].role
    }
}
