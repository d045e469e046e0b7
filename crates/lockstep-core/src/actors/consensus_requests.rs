//! A client's lock and unlock requests at a consensus node: the leader proposes them; a node
//! that does not lead points an etcd client to the leader it hears from, and forwards a
//! ZooKeeper-style client's to the leader itself, passing the answer back on the client's
//! connection (ZooKeeper's FollowerRequestProcessor → Learner.request; a ZooKeeper client has one
//! connection and is never sent elsewhere). A ZooKeeper server with no leader closes the
//! connection instead.

use super::{Cluster, ConsensusCtx};
use crate::actors::Dest;
use crate::message::{Entry, Payload};
use crate::topology::NodeId;
use crate::trace::Tag;

impl Cluster {
    /// A lock or unlock request from `from` (a client, or a follower forwarding one), or a
    /// forwarded request's answer coming back.
    pub(super) fn client_request(
        &mut self,
        from: NodeId,
        payload: Payload,
        cx: &mut ConsensusCtx<'_>,
    ) {
        let is_leader = self.leads(cx.me);
        match payload {
            Payload::Forward { client, request } if is_leader => {
                let via = usize::from(from - self.base);
                self.request_at_leader(client, *request, Some(via), cx);
            }
            // The node it was sent to leads no more: the forward is dropped, and the follower
            // closes its clients' connections once it notices.
            Payload::Forward { .. } => {}
            Payload::Relayed { client, reply } if self.serving(cx) => {
                cx.fx.send(Dest::Node(client), *reply);
            }
            // A server that stopped serving has closed the client's connection: the answer
            // has nowhere to go.
            Payload::Relayed { .. } => {}
            request if is_leader => self.request_at_leader(from, request, None, cx),
            Payload::LockReq { req, .. } | Payload::Unlock { req, .. }
                if cx.from_zookeeper_client && !self.serving(cx) =>
            {
                self.not_serving(from, req, cx);
            }
            request @ (Payload::LockReq { .. } | Payload::Unlock { .. })
                if cx.from_zookeeper_client =>
            {
                cx.fx.send(
                    self.node(self.leader),
                    Payload::Forward {
                        client: from,
                        request: Box::new(request),
                    },
                );
            }
            Payload::LockReq { req, .. } | Payload::Unlock { req, .. } => {
                self.not_leader(from, req, cx);
            }
            _ => {}
        }
    }

    /// The leader takes `client`'s request, which came straight from it or through follower
    /// `via`.
    fn request_at_leader(
        &mut self,
        client: NodeId,
        payload: Payload,
        via: Option<usize>,
        cx: &mut ConsensusCtx<'_>,
    ) {
        match payload {
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
            _ => {}
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
