//! Where a watch event comes from: the server the client is connected to fires it as it applies
//! the leader's commit (an etcd member's watchableStore.notify after apply; a ZooKeeper
//! follower's COMMIT → DataTree), so an event for a client on a follower goes to that follower
//! first, and waits while that follower cannot hear the leader.

use super::Sim;
use crate::message::Payload;
use crate::topology::{NodeId, Role};
use crate::trace::{EventKind, Tag, TraceEvent};

/// How a watch event the leader's commit fired reaches its client.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum WatchRoute {
    /// The client is connected to the leader, or is no consensus client.
    Direct,
    /// The client's server, a follower that hears the leader, learns of the commit and fires.
    Via(NodeId),
    /// The client's server is down or cut off from the leader: it cannot apply the commit.
    Stalled(NodeId),
}

impl Sim {
    /// The server a consensus client's watch is registered with: a ZooKeeper client's connected
    /// server, an etcd client's endpoint (its watch moves with it).
    fn watch_holder(&self, client: NodeId) -> Option<NodeId> {
        let base = self.cluster.as_ref()?.base;
        if self.params.role(client) != Role::Worker {
            return None;
        }
        let w = self.workers.get(usize::from(client))?;
        let connected = self.zookeeper_client(client).is_none() || w.has_connection_to(w.endpoint);
        connected.then_some(base + w.endpoint as NodeId)
    }

    pub(super) fn watch_route(&self, leader: NodeId, client: NodeId) -> WatchRoute {
        match self.watch_holder(client) {
            Some(server) if server != leader => {
                let st = &self.nodes[usize::from(server)];
                if st.alive && st.paused_until.is_none() && self.leader_ok(server) {
                    WatchRoute::Via(server)
                } else {
                    WatchRoute::Stalled(server)
                }
            }
            _ => WatchRoute::Direct,
        }
    }

    /// The commit fired `client`'s watch, but its server `server` cannot apply it now.
    pub(super) fn watch_stalls(
        &mut self,
        leader: NodeId,
        client: NodeId,
        server: NodeId,
        event: (Payload, Option<Tag>),
        out: &mut Vec<TraceEvent>,
    ) {
        let (who, at) = (self.name(client).to_string(), self.name(server).to_string());
        let why = if self.nodes[usize::from(server)].alive {
            format!("{at} hears nothing from the leader")
        } else {
            format!("{at} is down")
        };
        let ev = TraceEvent {
            time_ms: self.now,
            kind: EventKind::State,
            from: leader,
            to: leader,
            message: None,
            label: format!("{who}'s watch waits for {at}"),
            explanation: format!(
                "The change {who} watches is committed, but {who}'s watch is with {at}, and {why}. A server fires a watch only as it applies the change (etcd: watchableStore.notify after apply; ZooKeeper: a follower applies the leader's COMMIT), so nothing reaches {who} now. The event comes once {at} hears the leader again, or once {who}'s client moves to a server that does (ZooKeeper's client sets its watches anew on reconnect, SetWatches; etcd's watch resumes from the last revision it saw)."
            ),
            tag: None,
        };
        self.emit(out, ev);
        self.stalled_watches.push((client, event.0, event.1));
    }

    /// Sends each stalled watch event whose client now has a server that hears the leader.
    /// A ZooKeeper client with no connection gets it on its reconnect instead.
    pub(super) fn release_stalled_watches(&mut self, out: &mut Vec<TraceEvent>) {
        if self.stalled_watches.is_empty() {
            return;
        }
        let Some(leader) = self
            .cluster
            .as_ref()
            .filter(|c| c.leading)
            .map(|c| c.leader_node())
        else {
            return;
        };
        for (client, payload, tag) in std::mem::take(&mut self.stalled_watches) {
            if self.has_no_connection(client) {
                self.unsent_watches.push((client, payload));
                continue;
            }
            match self.watch_route(leader, client) {
                WatchRoute::Stalled(_) => self.stalled_watches.push((client, payload, tag)),
                _ => self.send(leader, client, payload, tag, out),
            }
        }
    }
}
