//! The built-in scenarios (DESIGN §5), compiled in from assets/scenarios.

use crate::scenario::{Scenario, ScenarioError, parse_scenario};

macro_rules! catalogue {
    ($($id:literal),* $(,)?) => {
        /// Every built-in scenario as (id, TOML source), in teaching order.
        pub const BUILTIN: &[(&str, &str)] = &[
            $(($id, include_str!(concat!("../../../assets/scenarios/", $id, ".toml")))),*
        ];
    };
}

catalogue![
    "naive-happy-path",
    "naive-gc-pause",
    "naive-network-delay",
    "careful-worker-still-loses",
    "heartbeat-does-not-help",
    "redis-unsafe-del-release",
    "fenced-gc-pause",
    "fenced-writes-only-stale-first",
    "fenced-every-access",
    "conditional-write",
    "redlock-happy-path",
    "redlock-split-votes",
    "redlock-split-votes-one-try",
    "redlock-gc-pause",
    "redlock-clock-jump",
    "redlock-restart-without-persistence",
    "redlock-delayed-restart",
    "redis-failover-token-rollback",
    "redis-restart-counter-reset",
    "redis-everysec-restart",
    "redis-sentinel-split-brain",
    "consensus-fenced-failover",
    "consensus-clock-jump-harmless",
    "consensus-waiter-session-expired",
    "consensus-session-suspended",
    "consensus-session-suspended-stop",
    "consensus-lock-delay",
    "consensus-min-lease-ttl",
    "consensus-isolated-leader",
    "consensus-uncommitted-entry-commits",
    "consensus-retried-stale-unlock",
    "consensus-quorum-loss-fail-closed",
    "consensus-quorum-loss-fail-open",
    "migration-wrong-order",
    "migration-right-order",
    "idempotency-keys",
    "write-retry-duplicates",
    "write-retry-idempotent",
    "idempotency-key-expired",
    "idempotency-key-reused",
];

/// The ids of the built-in scenarios.
pub fn ids() -> impl Iterator<Item = &'static str> {
    BUILTIN.iter().map(|(id, _)| *id)
}

/// The TOML source of a built-in scenario.
pub fn source(id: &str) -> Option<&'static str> {
    BUILTIN.iter().find(|(i, _)| *i == id).map(|(_, s)| *s)
}

/// Parses a built-in scenario. None if no built-in has that id.
pub fn load(id: &str) -> Option<Result<Scenario, ScenarioError>> {
    source(id).map(|text| parse_scenario(&format!("assets/scenarios/{id}.toml"), text.as_bytes()))
}
