//! A client's requests at a consensus node: the leader proposes a lock or unlock and touches a
//! keepalive's lease; a follower that hears from a leader forwards the request to it and passes
//! the answer back on the client's connection (ZooKeeper's FollowerRequestProcessor →
//! Learner.request; etcd raft's stepFollower sends a MsgProp on to the leader, and etcd's
//! LeaseRenew on a follower goes to the leader over the peer connection). A client is never
//! told to go elsewhere. A node that hears from no leader fails an etcd client's request and
//! closes a ZooKeeper client's connection.

use super::{Cluster, ConsensusCtx};
use crate::actors::Dest;
use crate::message::{Entry, Payload, SessionPacket};
use crate::topology::NodeId;
use crate::trace::Tag;

impl Cluster {
    /// A lock, unlock or etcd keepalive from `from` (a client, or a follower forwarding one), or
    /// a forwarded request's answer coming back.
    pub(super) fn client_request(
        &mut self,
        from: NodeId,
        payload: Payload,
        cx: &mut ConsensusCtx<'_>,
    ) {
        match payload {
            Payload::Forward { client, request } if self.leads(cx.me) => {
                let via = usize::from(from - self.base);
                self.request_at_leader(client, *request, Some(via), cx);
            }
            // The node it was sent to leads no more: the forward is dropped, and the client's
            // request fails when its server notices (ZooKeeper) or at its timeout (etcd).
            Payload::Forward { .. } => {}
            // A log that lacks a committed entry cannot apply the commit, so the watch the commit
            // would fire waits until the leader has sent the entry again (sim/watches.rs).
            Payload::Relayed { reply, .. }
                if reply.is_watch_event() && self.lacks_committed(cx.me) => {}
            Payload::Relayed { client, reply } if self.takes_requests(cx) => {
                cx.fx.send(Dest::Node(client), *reply);
            }
            // A server that stopped serving has closed the client's connection (ZooKeeper) or
            // failed its request (etcd): the answer has nowhere to go.
            Payload::Relayed { .. } => {}
            request if self.leads(cx.me) => self.request_at_leader(from, request, None, cx),
            Payload::LockReq { req, .. }
            | Payload::Unlock { req, .. }
            | Payload::KeepAlive { req, .. }
                if !self.takes_requests(cx) =>
            {
                if cx.from_zookeeper_client {
                    self.not_serving(from, req, cx);
                } else {
                    self.not_leader(from, req, cx);
                }
            }
            request @ (Payload::LockReq { .. }
            | Payload::Unlock { .. }
            | Payload::KeepAlive { .. }) => {
                cx.fx.send(
                    self.node(self.leader),
                    Payload::Forward {
                        client: from,
                        request: Box::new(request),
                    },
                );
            }
            _ => {}
        }
    }

    /// Whether node `me` takes a client's request, or passes its answer on: it leads, hears
    /// from a leader, or has not noticed yet that it hears from none. A ZooKeeper server also
    /// stops at once when its connection to the leader is reset; etcd raft keeps its leader
    /// until its election timeout.
    pub fn takes_client(&self, me: usize, zookeeper: bool, leader_ok: bool) -> bool {
        let node = &self.nodes[me];
        self.leads(me) || leader_ok || !(node.looking || (zookeeper && node.left_leader))
    }

    /// Whether this node serves a ZooKeeper-style client now.
    pub(super) fn serving(&self, cx: &ConsensusCtx<'_>) -> bool {
        self.takes_client(cx.me, true, cx.leader_ok)
    }

    /// The node hears from a leader again.
    pub(super) fn heard_leader(&mut self, me: usize) {
        self.nodes[me].looking = false;
        self.nodes[me].left_leader = false;
    }

    /// Whether this node takes the request (or passes the answer on) of the client at hand.
    fn takes_requests(&self, cx: &ConsensusCtx<'_>) -> bool {
        self.takes_client(cx.me, cx.from_zookeeper_client, cx.leader_ok)
    }

    /// The leader takes `client`'s request, which came straight from it or through follower
    /// `via`.
    pub(super) fn request_at_leader(
        &mut self,
        client: NodeId,
        payload: Payload,
        via: Option<usize>,
        cx: &mut ConsensusCtx<'_>,
    ) {
        // etcd's Mutex names its key after the session's lease, so every request of a chain
        // names the same key.
        let etcd_chain = match payload {
            Payload::LockReq { req, again, .. } if !cx.from_zookeeper_client => {
                let chain = (client, again.unwrap_or(req));
                Some((chain, req, self.made.get(&chain).copied()))
            }
            _ => None,
        };
        match payload {
            // An older request of the chain arrives after a later one made the key: its create
            // finds the key there (tryAcquire: the compare fails and it reads the key instead),
            // and its answer would go to a call the client gave up on.
            Payload::LockReq { .. }
                if etcd_chain.is_some_and(|(_, req, made)| made.is_some_and(|m| m > req)) =>
            {
                let who = cx.name(client);
                cx.fx.state(
                    format!("{who}'s earlier lock request changes nothing"),
                    format!("{who}'s lock request arrives after a later repeat of it, which the leader has taken already. It names the same key (the session's lease), so it makes no other (etcd's Mutex.tryAcquire: the transaction's compare fails and it reads the key instead); its answer would go to a call {who}'s client gave up on."),
                    None,
                );
            }
            // A repeat finds the key a request of its chain made.
            Payload::LockReq { req, .. }
                if etcd_chain
                    .and_then(|(_, _, made)| made)
                    .is_some_and(|m| self.lock_again(client, (m, req), via, cx)) => {}
            Payload::LockReq {
                req,
                again: Some(first),
                ..
            } if self.lock_again(client, (first, req), via, cx) => {}
            Payload::LockReq {
                req,
                ttl_ms,
                session,
                ..
            } => {
                // A Mutex of an existing session locks under that session's lease, so its key
                // has the same name (prefix + lease ID) as the session's earlier locks.
                let reused = session.and_then(|s| {
                    self.leases
                        .iter()
                        .find(|(id, l)| l.session == s && !self.revoking.contains(id))
                        .map(|(id, _)| *id)
                });
                let lease = reused.unwrap_or_else(|| {
                    self.next_lease += 1;
                    self.next_lease - 1
                });
                let asked = ttl_ms;
                // etcd's lease TTLs are whole seconds (clientv3's Grant takes an int64 of
                // seconds): the modelled client rounds a fraction of a second up before sending.
                let whole = asked.div_ceil(1000) * 1000;
                let ttl_ms = whole.max(self.min_ttl_ms);
                if ttl_ms > asked {
                    let seconds = if whole > asked {
                        format!(
                            " etcd lease TTLs are whole seconds (clientv3's Grant takes an int64 of seconds), so the client has to turn {asked} ms into a whole number before sending; this client rounds up, to {whole} ms."
                        )
                    } else {
                        String::new()
                    };
                    let minimum = if ttl_ms > whole {
                        format!(
                            " That is below the service's minimum lease TTL, so it is granted {ttl_ms} ms (etcd's lessor raises a TTL below its minimum, 1.5 election timeouts rounded up to whole seconds, which is 2 s with the default 1 s election timeout, and says so in the grant's answer)."
                        )
                    } else {
                        String::new()
                    };
                    cx.fx.state(
                    format!("lease TTL {ttl_ms} ms for {}", cx.name(client)),
                    format!("{} asked for a {asked} ms lease.{seconds}{minimum} The client counts with the TTL granted.", cx.name(client)),
                    None,
                );
                }
                if let Some((chain, _, _)) = etcd_chain {
                    self.made.insert(chain, req);
                }
                self.propose(
                    Entry::Lock {
                        lease,
                        owner: client,
                        ttl_ms,
                        req,
                    },
                    Some((client, req)),
                    via,
                    cx,
                );
            }
            Payload::Unlock { req, lease } => {
                self.propose(Entry::Unlock { lease }, Some((client, req)), via, cx);
            }
            // A new leader renews no lease before its own first entry commits: etcd's lessor is
            // promoted only then (server.go; Renew answers ErrNotPrimary until it is, and
            // LeaseRenew waits), and a ZooKeeper leader serves once a quorum has its NEWLEADER.
            keepalive @ Payload::KeepAlive { .. } if !self.term_committed => {
                self.held_renewals.push((client, via, keepalive));
            }
            Payload::KeepAlive { req, lease, packet } => {
                let ok = self.touch(lease, cx)
                    || (packet != SessionPacket::Keepalive && self.released.contains(&lease));
                let reply = Payload::KeepAliveReply { req, ok, packet };
                if !ok && self.awaits_revoke(lease, packet) {
                    self.hold_until_revoked(lease, (client, via, reply), cx);
                    return;
                }
                self.answer(client, via, reply, ok.then_some(Tag::Renewed), cx);
            }
            _ => {}
        }
    }

    /// Whether a keepalive for `lease` that renewed nothing waits for the lease's revocation:
    /// an etcd lease that has expired but is still there (its revocation not yet applied).
    fn awaits_revoke(&self, lease: u64, packet: SessionPacket) -> bool {
        packet == SessionPacket::Keepalive
            && self
                .leases
                .get(&lease)
                .is_some_and(|l| !self.zookeeper_sessions.contains(&l.session))
    }

    /// Holds the answer to a keepalive for the expired lease `lease` until its revocation is
    /// applied (see [`Cluster::renewals_awaiting_revoke`]).
    fn hold_until_revoked(
        &mut self,
        lease: u64,
        (client, via, reply): (NodeId, Option<usize>, Payload),
        cx: &mut ConsensusCtx<'_>,
    ) {
        let who = cx.name(client);
        let ago = self
            .leases
            .get(&lease)
            .map_or(0, |l| cx.now_local - l.expires_local);
        cx.fx.state(
            format!("{who}'s keepalive waits: lease {lease} expired"),
            format!("Lease {lease} ran out {ago} ms ago on the leader's clock, so this keepalive renews nothing. etcd's lessor does not answer it yet: a renewal of an expired lease waits until the lease's revocation is applied (lessor.go, Renew: \"renew request must wait for the deletion to complete\"), and then it is told the lease is not found."),
            None,
        );
        self.renewals_awaiting_revoke
            .push((lease, client, via, reply));
    }

    /// `lease` is revoked or released: the keepalives held for it get their answers.
    pub(super) fn answer_renewals_after_revoke(&mut self, lease: u64, cx: &mut ConsensusCtx<'_>) {
        let (now, later): (Vec<_>, Vec<_>) = std::mem::take(&mut self.renewals_awaiting_revoke)
            .into_iter()
            .partition(|(l, ..)| *l == lease);
        self.renewals_awaiting_revoke = later;
        for (_, client, via, reply) in now {
            self.answer(client, via, reply, None, cx);
        }
    }

    /// The leader's own first entry has committed: it answers the keepalives it held.
    pub(super) fn answer_held_renewals(&mut self, cx: &mut ConsensusCtx<'_>) {
        for (client, via, keepalive) in std::mem::take(&mut self.held_renewals) {
            self.request_at_leader(client, keepalive, via, cx);
        }
    }

    /// Sends `reply` to `client`: straight, or through the follower `via` that forwarded its
    /// request, which passes it on over the client's connection.
    pub(super) fn answer(
        &self,
        client: NodeId,
        via: Option<usize>,
        reply: Payload,
        tag: Option<Tag>,
        cx: &mut ConsensusCtx<'_>,
    ) {
        match via {
            Some(follower) if follower != cx.me => cx.fx.send_tagged(
                self.node(follower),
                Payload::Relayed {
                    client,
                    reply: Box::new(reply),
                },
                tag,
            ),
            _ => cx.fx.send_tagged(Dest::Node(client), reply, tag),
        }
    }
}
