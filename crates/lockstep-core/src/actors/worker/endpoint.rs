//! Which consensus node a client talks to: it keeps one endpoint, and changes it only when a node
//! points it to the leader or a request goes unanswered (etcd's client balancer, ZooKeeper's
//! reconnect). A client never learns who leads without asking, nor across a partition.

use super::{Phase, Worker, WorkerCtx};
use crate::actors::{Dest, Timer};
use crate::message::Payload;
use crate::trace::Tag;

impl Worker {
    /// Where a consensus request goes: the client's current endpoint.
    pub(super) fn endpoint_dest(&self) -> Dest {
        Dest::Instance(self.endpoint)
    }

    /// After a request to the current endpoint went unanswered, a consensus client moves on to
    /// the next endpoint in its list. Returns a sentence saying so (empty for other locks).
    pub(super) fn next_endpoint(&mut self, cx: &WorkerCtx<'_>) -> String {
        if cx.lock.kind != crate::scenario::LockKind::Consensus || cx.lock.nodes < 2 {
            return String::new();
        }
        let old = self.endpoint;
        self.endpoint = (old + 1) % cx.lock.nodes;
        format!(
            " Its client stops using node-{} and will try node-{} next (etcd's client moves to another endpoint after a failure).",
            old + 1,
            self.endpoint + 1
        )
    }

    /// ZooKeeper's client stays on one server until its read timeout passes without a word, then
    /// drops the connection and tries the next server in its connect string (ClientCnxn). Returns
    /// a sentence saying so.
    pub(super) fn next_server_after_read_timeout(&mut self, cx: &WorkerCtx<'_>) -> String {
        if cx.lock.nodes < 2 {
            return String::new();
        }
        let old = self.endpoint;
        self.endpoint = (old + 1) % cx.lock.nodes;
        format!(
            " The client drops its connection to node-{} and tries node-{} next; until now it had stayed on node-{}, however many pings went unanswered.",
            old + 1,
            self.endpoint + 1,
            old + 1
        )
    }

    /// A node that does not lead answered one of our requests: go to the leader it named, or,
    /// if it knows none, to the next endpoint.
    pub(super) fn redirected(&mut self, req: u64, leader: Option<u32>, cx: &mut WorkerCtx<'_>) {
        let for_job = self.awaiting == Some(req);
        let for_renew = self.renew.is_some_and(|(r, _)| r == req);
        if !for_job && !for_renew {
            return;
        }
        match leader {
            Some(l) => self.endpoint = l,
            None => self.endpoint = (self.endpoint + 1) % cx.lock.nodes.max(1),
        }
        if for_renew {
            self.renew = None;
            // With a hint the keepalive goes again at once; without one, the next keepalive
            // goes to the next endpoint on its usual schedule.
            if leader.is_some() {
                self.resend_keepalive(cx);
            }
            return;
        }
        self.awaiting = None;
        match self.phase {
            Phase::Acquiring if leader.is_some() => self.acquire(cx),
            Phase::Acquiring => {
                self.last_failure_unreachable = true;
                let retry = self.cfg.retry_ms;
                self.retry_after(cx, retry);
            }
            Phase::Releasing if leader.is_some() => self.send_unlock(None, cx),
            // No node knows a leader yet (an election): ask the next one a little later rather
            // than go round the cluster at network speed.
            Phase::Releasing => cx.fx.after(self.cfg.retry_ms, Timer::Retry),
            _ => {}
        }
    }

    /// Sends the unlock to the current endpoint, with its timeout.
    pub(super) fn send_unlock(&mut self, tag: Option<Tag>, cx: &mut WorkerCtx<'_>) {
        // A ZooKeeper-style client with no connection queues it (reconnect.rs).
        if self.session_closed && self.zookeeper_style() {
            self.drop_unlock(tag, cx);
            return;
        }
        if self.disconnected() {
            self.queue_unlock(tag, cx);
            return;
        }
        let req = self.new_req();
        self.awaiting = Some(req);
        let lease = self.lease.unwrap_or_default();
        let to = self.endpoint_dest();
        cx.fx.send_tagged(to, Payload::Unlock { req, lease }, tag);
        cx.fx
            .after(self.cfg.request_timeout_ms, Timer::RequestTimeout(req));
    }

    /// Sends the keepalive again to the endpoint just learnt, timed from now.
    fn resend_keepalive(&mut self, cx: &mut WorkerCtx<'_>) {
        let req = self.new_req();
        self.renew = Some((req, cx.now_local));
        let lease = self.lease.unwrap_or_default();
        let to = self.endpoint_dest();
        let packet = self.session_packet();
        cx.fx.send(to, Payload::KeepAlive { req, lease, packet });
    }
}
