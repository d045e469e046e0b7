//! Where a watch event comes from: the server the client is connected to fires it as it applies
//! the leader's commit (an etcd member's watchableStore.notify after apply; a ZooKeeper
//! follower's COMMIT → DataTree), so an event for a client on a follower goes to that follower
//! first, and waits while that follower cannot hear the leader.

use super::Sim;
use crate::actors::worker::Phase;
use crate::message::Payload;
use crate::topology::{NodeId, Role};
use crate::trace::{EventKind, Tag, TraceEvent};

/// A watch event its client's server could not fire when the commit came.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(super) struct StalledWatch {
    client: NodeId,
    event: Payload,
    tag: Option<Tag>,
    /// The server the client's watch was with, and that server's life (its epoch) then.
    server: NodeId,
    epoch: u32,
    /// The server's log lacked the change (the leader's append that sends it again carries the
    /// commit index), or the client's watch was on its way to it: the server fires as soon as it
    /// has the entry and the watch.
    fires_at_server: bool,
    /// Not before this time: a `commit:` for it was lost or held up, and the leader repeats its
    /// commit index with its next heartbeat.
    not_before: u64,
}

/// How a watch event the leader's commit fired reaches its client.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum WatchRoute {
    /// The sender is the client's server, or the client is no consensus client.
    Direct,
    /// The client's server, a follower that hears the leader, learns of the commit and fires.
    Via(NodeId),
    /// The client's server is down, paused, cut off from the leader or from the client: it
    /// cannot fire the watch now.
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

    /// Whether `server`'s log lacks a committed entry (an append to it was lost): it cannot
    /// apply the change until the leader sends it again.
    fn lacks_entry(&self, server: NodeId) -> bool {
        self.cluster.as_ref().is_some_and(|c| {
            server
                .checked_sub(c.base)
                .is_some_and(|i| c.lacks_committed(usize::from(i)))
        })
    }

    /// Whether `client` is an etcd client whose watch is on its way to its new endpoint: it
    /// moved there while queued, and its request to resume the watch has not arrived yet.
    fn watch_moving(&self, client: NodeId) -> bool {
        self.params.role(client) == Role::Worker
            && self.zookeeper_client(client).is_none()
            && self.workers.get(usize::from(client)).is_some_and(|w| {
                w.phase == Phase::Waiting && w.watch_rev.is_some() && w.watch_at != Some(w.endpoint)
            })
    }

    /// An etcd client's request to resume its watch reaches consensus node `server`: the watch
    /// is set there, and a change it missed fires from there (watchableStore's unsynced
    /// watchers catch up from the store).
    pub(super) fn watch_resumed(&mut self, client: NodeId, server: NodeId, payload: &Payload) {
        let Some(base) = self.cluster.as_ref().map(|c| c.base) else {
            return;
        };
        if let (Payload::WatchResume { .. }, Some(instance)) = (payload, server.checked_sub(base))
            && self.params.role(client) == Role::Worker
            && let Some(w) = self.workers.get_mut(usize::from(client))
        {
            w.watch_at = Some(u32::from(instance));
            w.watch_asked = None;
            self.overtake_relays_elsewhere(client, server);
        }
    }

    /// `client`'s watch is now on `server`: a `commit:` for it still on its way to the node it
    /// left changes nothing there, and `server` fires the event from its own store at once.
    fn overtake_relays_elsewhere(&mut self, client: NodeId, server: NodeId) {
        let relays: Vec<(u64, NodeId, Payload)> = self
            .queue
            .values()
            .filter_map(|item| match item {
                super::Item::Deliver {
                    msg,
                    to,
                    payload: Payload::Relayed { client: c, reply },
                    ..
                } if *c == client && *to != server && reply.is_watch_event() => {
                    Some((*msg, *to, (**reply).clone()))
                }
                _ => None,
            })
            .collect();
        for (msg, old, event) in relays {
            self.superseded_relays.insert(msg);
            self.stall(client, old, (event, None), 0);
        }
    }

    /// Whether `server` is up and can reach `client`.
    fn serves(&self, server: NodeId, client: NodeId) -> bool {
        let st = &self.nodes[usize::from(server)];
        st.alive
            && st.paused_until.is_none()
            && self.reachable(server, client)
            && !self.stale_connection(client, server)
    }

    pub(super) fn watch_route(&self, from: NodeId, client: NodeId) -> WatchRoute {
        match self.watch_holder(client) {
            None => WatchRoute::Direct,
            Some(server) if !self.serves(server, client) => WatchRoute::Stalled(server),
            Some(server) if self.watch_moving(client) => WatchRoute::Stalled(server),
            Some(server) if server == from => WatchRoute::Direct,
            Some(server) if self.leader_ok(server) => WatchRoute::Via(server),
            Some(server) => WatchRoute::Stalled(server),
        }
    }

    /// The commit fired `client`'s watch, but its server `server` cannot fire it now.
    pub(super) fn watch_stalls(
        &mut self,
        leader: NodeId,
        client: NodeId,
        server: NodeId,
        event: (Payload, Option<Tag>),
        out: &mut Vec<TraceEvent>,
    ) {
        let (who, at) = (self.name(client).to_string(), self.name(server).to_string());
        let st = &self.nodes[usize::from(server)];
        let lacking = self.lacks_entry(server) && self.serves(server, client);
        let why = if self.watch_moving(client) && self.serves(server, client) {
            format!(
                "{who}'s client has just moved to {at}, and its watch is set there only once its request to resume it arrives"
            )
        } else if self.stale_connection(client, server) && st.alive {
            format!(
                "{at}'s machine failed and restarted since {who}'s client connected: the new process has no watch of {who}'s and no connection to send on, and {who}'s client does not know it yet"
            )
        } else if lacking {
            format!(
                "{at}'s log lacks the change: the leader's append of it did not arrive, so {at} cannot apply the commit. A Raft leader sends the entry again with its next append or heartbeat round"
            )
        } else if !st.alive {
            format!("{at} is down")
        } else if st.paused_until.is_some() {
            format!("{at} is paused")
        } else if !self.reachable(server, client) {
            format!("a partition separates {at} from {who}")
        } else {
            format!("{at} hears nothing from the leader")
        };
        let ev = TraceEvent {
            time_ms: self.now,
            kind: EventKind::State,
            from: leader,
            to: leader,
            message: None,
            label: if lacking {
                format!("{who}'s watch waits: {at} lacks the entry")
            } else {
                format!("{who}'s watch waits for {at}")
            },
            explanation: format!(
                "The change {who} watches is committed, but {who}'s watch is with {at}, and {why}. A server fires a watch only as it applies the change (etcd: watchableStore.notify after apply; ZooKeeper: a follower applies the leader's COMMIT), on the client's own stream, so nothing reaches {who} now. The event comes once {at} can fire it, or once {who}'s client moves to a server that can (ZooKeeper's client sets its watches anew on reconnect, SetWatches; etcd's watch resumes from the last revision it saw)."
            ),
            tag: None,
        };
        self.emit(out, ev);
        self.stall(client, server, event, 0);
    }

    /// Keeps `event` for `client` until `server` (or another it reaches) can fire it, and not
    /// before `not_before`.
    fn stall(
        &mut self,
        client: NodeId,
        server: NodeId,
        (event, tag): (Payload, Option<Tag>),
        not_before: u64,
    ) {
        let epoch = self.nodes[usize::from(server)].epoch;
        let fires_at_server = self.lacks_entry(server) || self.watch_moving(client);
        self.stalled_watches.push(StalledWatch {
            client,
            event,
            tag,
            server,
            epoch,
            fires_at_server,
            not_before,
        });
    }

    /// A leader's `commit:` for a client's watch was lost on its way to the client's server
    /// `server`: the event waits, and goes again once that server (or another the client
    /// reaches) can fire it, as Raft repeats the commit index with every append and heartbeat.
    pub(super) fn watch_relay_lost(&mut self, server: NodeId, payload: &Payload) {
        if let Payload::Relayed { client, reply } = payload
            && reply.is_watch_event()
        {
            let heartbeat = self.cluster.as_ref().map_or(1, |c| c.heartbeat_ms());
            let at = self.now + heartbeat;
            self.stall(*client, server, ((**reply).clone(), None), at);
            self.push(at, super::Item::Wake);
        }
    }

    /// A leader's `commit:` for a client's watch to `server` is held up on the way: the next
    /// heartbeat carries the commit index, so the event waits at `server` as if the message
    /// were lost, and the message changes nothing when it arrives. True when it was such a one.
    pub(super) fn commit_overtaken(&mut self, msg: u64, server: NodeId, payload: &Payload) -> bool {
        let relay = matches!(payload, Payload::Relayed { reply, .. } if reply.is_watch_event());
        if relay {
            self.superseded_relays.insert(msg);
            self.watch_relay_lost(server, payload);
        }
        relay
    }

    /// A held-up `commit:` arrives after a later heartbeat told its server the news: nothing
    /// happens. True when it was such a one.
    pub(super) fn late_commit(
        &mut self,
        (msg, from, to): (u64, NodeId, NodeId),
        label: &str,
        sent_at: u64,
        out: &mut Vec<TraceEvent>,
    ) -> bool {
        if !self.superseded_relays.remove(&msg) {
            return false;
        }
        let (server, leader) = (self.name(to).to_string(), self.name(from).to_string());
        let ev = TraceEvent {
            time_ms: self.now,
            kind: EventKind::Deliver,
            from,
            to,
            message: Some(msg),
            label: label.to_string(),
            explanation: format!(
                "{server} receives this {} ms after {leader} sent it. It learned of the commit long ago from a later heartbeat, which carries the leader's commit index (and a message from a term since ended is ignored): it changes nothing.",
                self.now.saturating_sub(sent_at)
            ),
            tag: None,
        };
        self.emit(out, ev);
        true
    }

    /// A leader's `commit:` for a client's watch reaches `server`, which drops it if it has
    /// stopped serving since, or cannot apply it because its log lacks the entry
    /// (consensus_requests.rs): the event waits for a server that can fire it.
    pub(super) fn watch_relay_arrives(
        &mut self,
        server: NodeId,
        payload: &Payload,
        out: &mut Vec<TraceEvent>,
    ) {
        let Payload::Relayed { client, reply } = payload else {
            return;
        };
        if reply.is_watch_event() && self.lacks_entry(server) {
            let event = ((**reply).clone(), None);
            self.watch_stalls(server, *client, server, event, out);
            return;
        }
        let Some((c, index)) = self
            .cluster
            .as_ref()
            .and_then(|c| Some((c, usize::from(server.checked_sub(c.base)?))))
        else {
            return;
        };
        let zookeeper = self.zookeeper_client(*client).is_some();
        if !c.takes_client(index, zookeeper, self.leader_ok(server)) {
            self.watch_relay_lost(server, payload);
        }
    }

    /// Whether the cluster has a leader that knows which entries are committed: an entry of its
    /// own term has committed (Raft §5.4.2).
    pub(super) fn leader_knows_commits(&self) -> bool {
        self.cluster
            .as_ref()
            .is_some_and(|c| c.leading && c.term_committed)
    }

    /// Sends each stalled watch event whose client now has a server that can fire it. A
    /// ZooKeeper client with no connection gets it on its reconnect instead. When the leader has
    /// only now learned that the change is committed (`leader_just_learned`), a follower holding
    /// the entry does not know it yet: the leader's next message, a `commit:`, tells it (etcd
    /// raft's bcastAppend after maybeCommit carries the new commit index).
    pub(super) fn release_stalled_watches(
        &mut self,
        leader_just_learned: bool,
        out: &mut Vec<TraceEvent>,
    ) {
        if self.stalled_watches.is_empty() {
            return;
        }
        // A new leader knows which entries are committed only once its own first entry is.
        let Some(leader) = self
            .cluster
            .as_ref()
            .filter(|c| c.leading && c.term_committed)
            .map(|c| c.leader_node())
        else {
            return;
        };
        for w in std::mem::take(&mut self.stalled_watches) {
            if self.now < w.not_before {
                self.stalled_watches.push(w);
                continue;
            }
            if self.has_no_connection(w.client) {
                self.unsent_watches.push((w.client, w.event));
                continue;
            }
            let Some(server) = self.watch_holder(w.client) else {
                self.stalled_watches.push(w);
                continue;
            };
            // A server that restarted since has the commit from the leader once it hears it;
            // the client's watch is set on it anew (this model does not show the reset of the
            // old connection and the client's reconnect to the same server).
            let restarted = self.nodes[usize::from(server)].epoch != w.epoch;
            let can_fire = self.serves(server, w.client)
                && (server == leader || self.leader_ok(server))
                && !self.lacks_entry(server)
                && !self.watch_moving(w.client);
            if !can_fire {
                self.stalled_watches.push(w);
                continue;
            }
            let event = self.still_true(w.event);
            let told_by_leader = leader_just_learned && server != leader;
            if !told_by_leader && (server != w.server || restarted || w.fires_at_server) {
                // The watch resumes on a server that has the commit already (or has just been
                // sent the entry with the commit index): it fires there.
                self.send(server, w.client, event, w.tag, out);
            } else {
                self.send(leader, w.client, event, w.tag, out);
            }
        }
    }

    /// A grant that waited may find the client's key gone by now (its lease revoked): etcd's
    /// Mutex, woken by its predecessor's delete, reads its own key and finds nothing.
    pub(super) fn still_true(&self, event: Payload) -> Payload {
        match event {
            Payload::LockGranted { lease, rev }
                if self
                    .cluster
                    .as_ref()
                    .is_some_and(|c| !c.keys.contains_key(&rev)) =>
            {
                Payload::SessionGone { lease, rev: None }
            }
            event => event,
        }
    }
}
