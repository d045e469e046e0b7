//! A ZooKeeper-style client's connection as the cluster's side sees it: a watch event waits for
//! the client's reconnect and is fired then by the server it reaches, a given-up session's
//! watches go with it, and a server that stops following or leading drops its clients.

use super::Sim;
use crate::actors::Timer;
use crate::actors::worker::{Phase, Worker};
use crate::message::{Closing, Payload};
use crate::topology::{NodeId, Role};
use crate::trace::{EventKind, Tag, TraceEvent};

impl Sim {
    /// Worker `node`, if it is a ZooKeeper-style client (it listens to its connection state).
    pub(super) fn zookeeper_client(&self, node: NodeId) -> Option<&Worker> {
        if self.params.role(node) != Role::Worker {
            return None;
        }
        self.workers
            .get(usize::from(node))
            .filter(|w| w.cfg.on_suspended.is_some())
    }

    /// A watch event for a ZooKeeper-style client that is not sent now: its session is given up
    /// (nothing is sent), or it has no connection (the event waits for its reconnect). True when
    /// it was handled here.
    pub(super) fn watch_not_sent(
        &mut self,
        from: NodeId,
        to: NodeId,
        payload: &Payload,
        tag: &Option<Tag>,
        out: &mut Vec<TraceEvent>,
    ) -> bool {
        // A ZooKeeper session's watches go with it: a client that gave the session up (LOST)
        // and works on a new one is sent nothing for the old one's.
        if self.session_given_up(to, payload) {
            return true;
        }
        if self.has_no_connection(to) {
            self.watch_waits_for_reconnect(from, to, payload.clone(), tag.clone(), out);
            return true;
        }
        false
    }

    /// The leader's process died: each live follower's connection to it is reset at once, so the
    /// follower stops following and closes every client connection it has (ZooKeeper's
    /// Learner.shutdown → closeAllConnections).
    pub(super) fn followers_drop_their_clients(
        &mut self,
        leader: NodeId,
        out: &mut Vec<TraceEvent>,
    ) {
        let Some((base, nodes)) = self
            .cluster
            .as_ref()
            .map(|c| (c.base, c.nodes.len() as u32))
        else {
            return;
        };
        for instance in 0..nodes {
            let follower = base + instance as NodeId;
            if follower != leader && self.nodes[usize::from(follower)].alive {
                if let Some(c) = &mut self.cluster {
                    c.nodes[instance as usize].left_leader = true;
                }
                self.drop_clients(follower, Closing::LeaderDied, out);
            }
        }
    }

    /// Consensus node `node` stops serving (`closing` says why): it closes the connection of each
    /// ZooKeeper-style client that has one to it. An etcd client's stream stays open.
    pub(super) fn drop_clients(
        &mut self,
        node: NodeId,
        closing: Closing,
        out: &mut Vec<TraceEvent>,
    ) {
        let Some(instance) = self.cluster.as_ref().map(|c| u32::from(node - c.base)) else {
            return;
        };
        for worker in 0..self.params.first_service {
            let connected = self
                .zookeeper_client(worker)
                .is_some_and(|w| w.has_connection_to(instance));
            if connected {
                let payload = Payload::NotServing { closing, instance };
                self.send(node, worker, payload, None, out);
            }
        }
    }

    /// Whether a watch event `payload` is for a session that ZooKeeper-style client `node` has
    /// given up (LOST): its session is closed or a new one has replaced it.
    fn session_given_up(&self, node: NodeId, payload: &Payload) -> bool {
        let (Payload::LockGranted { lease, .. } | Payload::SessionGone { lease, .. }) = payload
        else {
            return false;
        };
        self.params.role(node) == Role::Worker && {
            let w = &self.workers[usize::from(node)];
            w.cfg.on_suspended.is_some() && (w.session_closed || w.lease != Some(*lease))
        }
    }

    /// Whether `node` is a ZooKeeper-style client between connections (suspended, its session
    /// not over).
    pub(super) fn has_no_connection(&self, node: NodeId) -> bool {
        self.zookeeper_client(node)
            .is_some_and(|w| w.suspended.is_some() && !w.session_closed)
    }

    /// A watch fires for a client with no connection: the server has nowhere to send the event
    /// and does not queue it. The client sets its watches anew once a server takes its session
    /// (ClientCnxn primeConnection sends SetWatches with the last zxid it saw), and that server
    /// fires every watch whose node changed since (DataTree.setWatches).
    fn watch_waits_for_reconnect(
        &mut self,
        from: NodeId,
        to: NodeId,
        payload: Payload,
        tag: Option<Tag>,
        out: &mut Vec<TraceEvent>,
    ) {
        let client = self.name(to).to_string();
        let ev = TraceEvent {
            time_ms: self.now,
            kind: EventKind::State,
            from,
            to: from,
            message: None,
            label: format!("{client}'s watch fires after its reconnect"),
            explanation: format!(
                "The node {client} watches has changed, so its watch fires, but {client}'s client has no connection and a ZooKeeper server sends a watch event only on the session's connection: nothing goes out now. When a server takes {client}'s session again, the client sets its watches anew with the last change it saw (SetWatches), and that server fires at once each watch whose node changed since (DataTree.setWatches). Until then {client} does not know."
            ),
            tag,
        };
        self.emit(out, ev);
        self.unsent_watches.push((to, payload));
    }

    /// `worker` has a connection again: on a reconnect, the server it reached fires the watches
    /// that fired while it had none; on a new session, they went with the old one.
    pub(super) fn fire_missed_watches(&mut self, worker: NodeId, out: &mut Vec<TraceEvent>) {
        let (mine, others): (Vec<_>, Vec<_>) = std::mem::take(&mut self.unsent_watches)
            .into_iter()
            .partition(|(w, _)| *w == worker);
        self.unsent_watches = others;
        let w = &self.workers[usize::from(worker)];
        let Some(base) = self.cluster.as_ref().map(|c| c.base) else {
            return;
        };
        if w.session_closed || w.lease.is_none() {
            return;
        }
        let server = base + w.endpoint as NodeId;
        for (_, payload) in mine {
            self.send(server, worker, payload, None, out);
        }
    }

    /// Consensus node `node`'s machine fails: the connections clients have open to it die with
    /// it, unknown to the clients, which still count on them.
    pub(super) fn host_fails(&mut self, node: NodeId) {
        let Some(instance) = node.checked_sub(self.params.first_service) else {
            return;
        };
        let instance = u32::from(instance);
        for (i, w) in self.workers.iter().enumerate() {
            let open = if w.cfg.on_suspended.is_some() {
                w.has_connection_to(instance)
            } else {
                w.endpoint == instance
                    && !w.phase.is_terminal()
                    && (w.lease.is_some() || w.awaiting.is_some())
            };
            if open && self.params.role(i as NodeId) == Role::Worker {
                self.stale_connections.insert((i as NodeId, node));
            }
        }
    }

    /// A worker sends to `to`: a connection it had elsewhere that a machine failure killed is
    /// one it has left (an etcd or ZooKeeper client talks to one server at a time).
    pub(super) fn leave_stale_connections(&mut self, worker: NodeId, to: NodeId) {
        self.stale_connections
            .retain(|&(w, node)| w != worker || node == to);
    }

    /// The worker hears its connection was reset: the one that died with a machine is gone,
    /// and a connection it opens to that node again is a new one.
    pub(super) fn reset_heard(&mut self, worker: NodeId, timer: &Timer) {
        if let Timer::ConnectionClosed {
            instance,
            refused: true,
        } = *timer
        {
            let node = self.params.first_service + instance as NodeId;
            self.stale_connections.remove(&(worker, node));
        }
    }

    /// Whether `worker`'s connection to `node` died with `node`'s machine and is not yet reset.
    pub(super) fn stale_connection(&self, worker: NodeId, node: NodeId) -> bool {
        self.stale_connections.contains(&(worker, node))
    }

    /// A worker's message reaches `to`, whose machine failed and restarted since the worker's
    /// connection was opened: the new process knows no such connection and the machine answers
    /// with a reset, which the client hears at once. True when the message ended here.
    pub(super) fn reset_by_restarted_host(
        &mut self,
        (msg, from, to): (u64, NodeId, NodeId),
        label: &str,
        out: &mut Vec<TraceEvent>,
    ) -> bool {
        if !self.stale_connection(from, to) {
            return false;
        }
        let (server, client) = (self.name(to).to_string(), self.name(from).to_string());
        self.emit(
            out,
            TraceEvent {
                time_ms: self.now,
                kind: EventKind::Lost,
                from,
                to,
                message: Some(msg),
                label: format!("refused: {label}"),
                explanation: format!(
                    "{server}'s machine failed and restarted since {client}'s client opened this connection: the new {server} process knows no such connection, so the machine answers with a reset (TCP RST), and {client}'s client hears so at once. Until this first packet, nothing told {client} that the connection had died: a machine that is down sends nothing. {client} reconnects{}.",
                    if self.workers.get(usize::from(from)).is_some_and(|w| w.phase == Phase::Waiting) {
                        ", and sets its watch anew where it reconnects"
                    } else {
                        ""
                    }
                ),
                tag: None,
            },
        );
        self.connection_closed(to, from, true);
        true
    }
}
