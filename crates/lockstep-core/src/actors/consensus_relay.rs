//! A ZooKeeper server takes a client's connection whether it leads or not: a follower answers a
//! ZooKeeper-style client's pings itself and reports them to the leader (LearnerSessionTracker,
//! Learner.ping), and checks a reconnecting client's session with the leader before it answers
//! (ZooKeeperServer.reopenSession → Learner.validateSession). A server with no leader closes
//! the connection instead.

use super::{Cluster, ConsensusCtx};
use crate::actors::{Dest, Timer};
use crate::message::{Closing, Payload, SessionPacket};
use crate::topology::NodeId;
use crate::trace::Tag;

/// A client's request a follower is checking with the leader.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Relay {
    /// The follower (by index) that took the request.
    pub via: usize,
    pub client: NodeId,
    pub req: u64,
    pub packet: SessionPacket,
}

impl Cluster {
    /// What keeps a session alive, at any node: the leader touches the lease; a follower answers
    /// a ZooKeeper-style client's ping itself and checks its reconnect with the leader, and
    /// forwards an etcd client's keepalive to the leader.
    pub(super) fn session_message(
        &mut self,
        from: NodeId,
        payload: Payload,
        cx: &mut ConsensusCtx<'_>,
    ) {
        let is_leader = self.leads(cx.me);
        match payload {
            Payload::KeepAlive {
                req,
                lease,
                packet: SessionPacket::Ping,
            } if !is_leader => self.ping_at_follower(from, req, lease, cx),
            Payload::KeepAlive {
                req,
                lease,
                packet: packet @ (SessionPacket::Connect | SessionPacket::ConnectResent),
            } if !is_leader => self.relay(from, (req, lease, packet), cx),
            // Any keepalive at the leader; an etcd client's at a follower, which forwards it.
            keepalive @ Payload::KeepAlive { .. } => self.client_request(from, keepalive, cx),
            Payload::SessionTouch { lease } if is_leader => {
                self.touch(lease, cx);
            }
            Payload::Revalidate { relay, lease } if is_leader => {
                let ok = self.touch(lease, cx) || self.released.contains(&lease);
                cx.fx
                    .send(Dest::Node(from), Payload::RevalidateReply { relay, ok });
            }
            Payload::RevalidateReply { relay, ok } => self.relayed_answer(relay, ok, cx),
            _ => {}
        }
    }

    /// The leader touches `lease`: it lives a full TTL from now, unless it has expired already.
    /// etcd's lessor refuses to renew a lease that has expired, even while its revocation is
    /// still going through the log (ErrLeaseNotFound).
    pub(super) fn touch(&mut self, lease: u64, cx: &mut ConsensusCtx<'_>) -> bool {
        let alive = !self.revoking.contains(&lease);
        match self.leases.get_mut(&lease) {
            Some(l) if alive && l.expires_local > cx.now_local => {
                l.expires_local = cx.now_local + l.ttl_ms as i64;
                let l = *l;
                cx.fx.at(self.expiry_found_at(&l), Timer::LeaseCheck);
                true
            }
            _ => false,
        }
    }

    /// A follower takes a client's ping or connect request and asks the leader about the
    /// session. A follower that hears from no leader serves no client: it closes the connection.
    pub(super) fn relay(
        &mut self,
        client: NodeId,
        (req, lease, packet): (u64, u64, SessionPacket),
        cx: &mut ConsensusCtx<'_>,
    ) {
        if !self.serving(cx) {
            self.not_serving(client, req, cx);
            return;
        }
        let id = self.next_relay;
        self.next_relay += 1;
        self.relays.insert(
            id,
            Relay {
                via: cx.me,
                client,
                req,
                packet,
            },
        );
        cx.fx.send(
            self.node(self.leader),
            Payload::Revalidate { relay: id, lease },
        );
    }

    /// A follower answers a client's ping itself, from the sessions it knows (it has applied the
    /// leader's closes of expired ones), and reports the touch to the leader (LearnerSessionTracker,
    /// Learner.ping). A follower that hears from no leader serves no client: it closes the
    /// connection.
    pub(super) fn ping_at_follower(
        &mut self,
        client: NodeId,
        req: u64,
        lease: u64,
        cx: &mut ConsensusCtx<'_>,
    ) {
        if !self.serving(cx) {
            self.not_serving(client, req, cx);
            return;
        }
        let ok = (self.leases.contains_key(&lease) && !self.revoking.contains(&lease))
            || self.released.contains(&lease);
        cx.fx.send_tagged(
            Dest::Node(client),
            Payload::KeepAliveReply {
                req,
                ok,
                packet: SessionPacket::Ping,
            },
            ok.then_some(Tag::Renewed),
        );
        if ok {
            cx.fx
                .send(self.node(self.leader), Payload::SessionTouch { lease });
        }
    }

    /// A server with no leader closes the connection a ZooKeeper-style client's request came on
    /// (ZooKeeper's NIOServerCnxn refuses every request while the server is not running).
    pub(super) fn not_serving(&self, client: NodeId, req: u64, cx: &mut ConsensusCtx<'_>) {
        cx.fx.send(
            Dest::Node(client),
            Payload::NotServing {
                closing: Closing::Request(req),
                instance: cx.me as u32,
            },
        );
    }

    /// The leader's answer about a session: the follower passes it on to its client.
    pub(super) fn relayed_answer(&mut self, relay: u64, ok: bool, cx: &mut ConsensusCtx<'_>) {
        let Some(r) = self.relays.remove(&relay) else {
            return;
        };
        if r.via != cx.me {
            self.relays.insert(relay, r);
            return;
        }
        cx.fx.send_tagged(
            Dest::Node(r.client),
            Payload::KeepAliveReply {
                req: r.req,
                ok,
                packet: r.packet,
            },
            ok.then_some(Tag::Renewed),
        );
    }
}
