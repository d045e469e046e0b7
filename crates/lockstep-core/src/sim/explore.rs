//! Hooks for the explorer (lockstep-explore): a fingerprint of the run's state, so that a search
//! can skip states it has seen, and fault injection at an exact instant, as a scenario fault would.

use std::hash::{Hash, Hasher};

use super::{Item, Sim};
use crate::scenario::Fault;
use crate::trace::TraceEvent;

impl Sim {
    /// Feeds everything that decides what the run does next into `h`: queue (in order, by time;
    /// sequence numbers only order it), actors, clocks, network, PRNG position. Left out: the
    /// current instant (between events it only matters where a fault is injected, so the caller
    /// hashes the instant it stands at), message ids, send times and the count of emitted events,
    /// which only number and narrate the trace (the count matters only at `limits.max_events`).
    pub fn hash_state<H: Hasher>(&self, h: &mut H) {
        self.queue.len().hash(h);
        for (&(time, _), item) in &self.queue {
            time.hash(h);
            hash_item(item, h);
        }
        for slot in &self.pending_timeout {
            slot.map(|key| self.queue.range(..key).count()).hash(h);
        }
        self.rng.0.get_word_pos().hash(h);
        for node in &self.nodes {
            node.clock.hash(h);
            node.jumped_ms.hash(h);
            node.alive.hash(h);
            node.paused_until.hash(h);
            node.epoch.hash(h);
            node.backlog.len().hash(h);
            for item in &node.backlog {
                hash_item(item, h);
            }
        }
        self.workers.hash(h);
        self.redis.hash(h);
        self.cluster.hash(h);
        self.db.hash(h);
        self.partition.hash(h);
        self.rules.hash(h);
        self.triggers.hash(h);
        self.hash_pending_orders(h);
        self.explained.hash(h);
        self.redis_master.hash(h);
        self.deposed_master.hash(h);
        self.in_flight.hash(h);
        self.held.hash(h);
        self.unsent_watches.hash(h);
        self.stalled_watches.hash(h);
        self.stale_connections.hash(h);
        self.superseded_relays.hash(h);
    }

    /// True time of the next queued item, if any.
    pub fn next_time(&self) -> Option<u64> {
        self.queue.first_key_value().map(|(&(time, _), _)| time)
    }

    /// Applies `fault` at true time `at_ms`, exactly as a scenario fault with that `at_ms` would
    /// hit: after everything before `at_ms`, before anything queued at `at_ms`. False (and nothing
    /// happens) if the run has ended, `at_ms` lies before the last processed event or after the
    /// next queued one. `at_ms` of the fault itself and `after` are ignored.
    pub fn inject_at(&mut self, at_ms: u64, fault: &Fault, out: &mut Vec<TraceEvent>) -> bool {
        if self.end.is_some() || at_ms < self.now || self.next_time().is_some_and(|t| at_ms > t) {
            return false;
        }
        self.now = at_ms;
        self.apply_fault_now(fault, out);
        true
    }
}

fn hash_item<H: Hasher>(item: &Item, h: &mut H) {
    match item {
        Item::Deliver {
            from,
            to,
            payload,
            announced,
            ..
        } => {
            0u8.hash(h);
            (from, to, payload, announced).hash(h);
        }
        Item::Timer { node, epoch, timer } => {
            1u8.hash(h);
            (node, epoch, timer).hash(h);
        }
        Item::Fault(i) => {
            2u8.hash(h);
            i.hash(h);
        }
        Item::Resume(node) => {
            3u8.hash(h);
            node.hash(h);
        }
        Item::Wake => 5u8.hash(h),
        Item::Rest {
            node,
            epoch,
            effects,
        } => {
            4u8.hash(h);
            (node, epoch, effects).hash(h);
        }
    }
}
