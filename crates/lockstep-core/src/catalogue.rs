//! The built-in scenarios (DESIGN §5), compiled in from assets/scenarios.

use crate::scenario::{Scenario, ScenarioError, parse_scenario};
use crate::sort;

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

/// The built-in ids closest to `typed` (at most three, best first): those containing it, and
/// those within a small Jaro-Winkler distance (typos, swapped or missing letters). Case does not
/// count: the ids are lower case, and `Fenced-GC-Pause` means `fenced-gc-pause`.
pub fn did_you_mean(typed: &str) -> Vec<&'static str> {
    closest(typed, ids())
}

/// "did you mean `a` or `b`?" for suggestions as [`did_you_mean`] gives them, each id written
/// by `quote` (the CLI's backticks, the page's quotation marks); None when there are none.
pub fn did_you_mean_phrase(ids: &[&str], quote: impl Fn(&str) -> String) -> Option<String> {
    (!ids.is_empty()).then(|| {
        let named: Vec<String> = ids.iter().map(|id| quote(id)).collect();
        format!("did you mean {}?", named.join(" or "))
    })
}

/// [`did_you_mean`] among `ids` (the web page keeps its own list of the same ids, without the
/// scenarios' TOML).
pub fn closest<'a>(typed: &str, ids: impl Iterator<Item = &'a str>) -> Vec<&'a str> {
    const THRESHOLD: f64 = 0.85;
    let typed = typed.to_lowercase();
    let typed = typed.as_str();
    let mut scored: Vec<(f64, &'a str)> = ids
        .map(|id| {
            let score = if typed.len() >= 3 && id.contains(typed) {
                1.0
            } else {
                strsim::jaro_winkler(typed, id)
            };
            (score, id)
        })
        .filter(|&(score, _)| score >= THRESHOLD)
        .collect();
    sort::sort_by(&mut scored, |a, b| b.0.total_cmp(&a.0));
    // Only the ones about as close as the closest: one clear match is named alone.
    let best = scored.first().map_or(0.0, |s| s.0);
    scored
        .into_iter()
        .take_while(|&(score, _)| score >= best - 0.05)
        .take(3)
        .map(|(_, id)| id)
        .collect()
}

/// The TOML source of a built-in scenario.
pub fn source(id: &str) -> Option<&'static str> {
    BUILTIN.iter().find(|(i, _)| *i == id).map(|(_, s)| *s)
}

/// Parses a built-in scenario. None if no built-in has that id.
pub fn load(id: &str) -> Option<Result<Scenario, ScenarioError>> {
    source(id).map(|text| parse_scenario(&format!("assets/scenarios/{id}.toml"), text.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggests_the_closest_builtins() {
        assert_eq!(did_you_mean("fenced-gc-pase"), ["fenced-gc-pause"]);
        assert_eq!(
            did_you_mean("naive-gc-puase").first(),
            Some(&"naive-gc-pause")
        );
        let gc = did_you_mean("gc-pause");
        assert!(
            gc.contains(&"naive-gc-pause") && gc.contains(&"fenced-gc-pause"),
            "{gc:?}"
        );
        assert!(did_you_mean("zookeeper").is_empty());
        assert_eq!(did_you_mean("Fenced-GC-Pause"), ["fenced-gc-pause"]);
    }
}
