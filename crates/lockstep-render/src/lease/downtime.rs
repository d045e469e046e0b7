//! What a crashed lock-service node records while it is down: nothing. A Redis process keeps its
//! keys in memory, so a crashed instance answers no one and says no one holds anything; a
//! restart with persistence (AOF or RDB) brings the keys back, and the core then frees at once
//! any that expired or were not yet on disk. The chart reads all of this from the trace's
//! `Crashed` and `Restarted` tags and never guesses a persistence mode.

use std::collections::BTreeMap;

use lockstep_core::topology::Role;

/// Whether a node's records of holders go down with it: a Redis process's keys live in its
/// memory. A consensus node's do not: the record is the cluster's replicated log, which the
/// surviving majority still holds (its leader row ends at the crash on its own).
pub fn records_go_down_with(role: Role) -> bool {
    matches!(
        role,
        Role::Redis | Role::RedisReplica | Role::RedlockInstance
    )
}

/// The records each crashed node held when it went down, until its restart says whether they
/// come back.
#[derive(Debug)]
pub struct Down<T> {
    kept: BTreeMap<usize, Vec<T>>,
}

impl<T> Default for Down<T> {
    fn default() -> Self {
        Self {
            kept: BTreeMap::new(),
        }
    }
}

impl<T> Down<T> {
    /// `node` crashed holding `records`: they stop counting now.
    pub fn crash(&mut self, node: usize, records: Vec<T>) {
        self.kept.insert(node, records);
    }

    /// `node` restarted: what it had when it crashed, if persistence kept it (the core frees
    /// right after the restart what expired meanwhile or was not yet fsynced); nothing without
    /// persistence.
    pub fn restart(&mut self, node: usize, persistent: bool) -> Vec<T> {
        let records = self.kept.remove(&node).unwrap_or_default();
        if persistent { records } else { Vec::new() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_come_back_only_with_persistence() {
        let mut down = Down::default();
        down.crash(3, vec!["A"]);
        assert_eq!(down.restart(3, false), Vec::<&str>::new());
        down.crash(3, vec!["A"]);
        assert_eq!(down.restart(3, true), vec!["A"]);
        assert_eq!(down.restart(3, true), Vec::<&str>::new(), "already back");
    }

    #[test]
    fn only_redis_processes_lose_their_records() {
        assert!(records_go_down_with(Role::RedlockInstance));
        assert!(records_go_down_with(Role::Redis));
        assert!(!records_go_down_with(Role::ConsensusNode));
    }
}
