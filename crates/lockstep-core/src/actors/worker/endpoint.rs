//! Which consensus node a client talks to: it keeps one endpoint (a follower forwards its
//! requests to the leader), and changes it only when that node answers that it knows no leader,
//! its connection breaks, or a request goes unanswered (etcd's client balancer, ZooKeeper's
//! reconnect).

use super::{Phase, Worker, WorkerCtx};
use crate::actors::{Dest, Timer};
use crate::message::Payload;
use crate::trace::Tag;

/// How long an etcd client waits before it asks again to resume its watch.
const WATCH_RETRY_MS: u64 = 1000;

impl Worker {
    /// Where a consensus request goes: the client's current endpoint.
    pub(super) fn endpoint_dest(&self) -> Dest {
        Dest::Instance(self.endpoint)
    }

    /// An etcd client queued for the lock whose watch is not on its endpoint (it moved there)
    /// asks that node to resume it, and again a second later until one arrives (clientv3 keeps
    /// reopening a watch stream that failed, with gRPC's one-second reconnect backoff).
    pub(super) fn resume_watch(&mut self, cx: &mut WorkerCtx<'_>) {
        if self.zookeeper_style() || self.phase != Phase::Waiting {
            return;
        }
        if let Some(rev) = self
            .watch_rev
            .filter(|_| self.watch_at != Some(self.endpoint))
        {
            self.watch_at = None;
            let retry = self.watch_asked == Some(self.endpoint);
            self.watch_asked = Some(self.endpoint);
            cx.fx
                .send(self.endpoint_dest(), Payload::WatchResume { rev, retry });
            if !self.watch_retry_armed {
                self.watch_retry_armed = true;
                cx.fx.after(WATCH_RETRY_MS, Timer::WatchResume);
            }
        }
    }

    /// After a request to the current endpoint went unanswered, a consensus client moves on to
    /// the next endpoint in its list. Returns a sentence saying so (empty for other locks).
    pub(super) fn next_endpoint(&mut self, cx: &WorkerCtx<'_>) -> String {
        if cx.lock.kind != crate::scenario::LockKind::Consensus || cx.lock.nodes < 2 {
            return String::new();
        }
        let old = self.endpoint;
        self.endpoint = self.endpoint_after(old, cx.lock.nodes, false);
        format!(
            " Its client stops using node-{} and will try node-{} next. (This model gives a client one endpoint at a time, so that each arrow has one target; real clientv3 spreads its requests round-robin over every endpoint it has a working connection to.)",
            old + 1,
            self.endpoint + 1
        )
    }

    /// ZooKeeper's client stays on one server until its read timeout passes without a word, then
    /// drops the connection and tries the next server in its connect string (ClientCnxn). Returns
    /// a sentence saying so.
    /// `on_time`: the read timeout is checked as it passes; after a pause it is long past, and
    /// no ping went in between.
    pub(super) fn next_server_after_read_timeout(
        &mut self,
        on_time: bool,
        cx: &WorkerCtx<'_>,
    ) -> String {
        if cx.lock.nodes < 2 {
            return String::new();
        }
        let old = self.endpoint;
        self.endpoint = (old + 1) % cx.lock.nodes;
        let stayed = if on_time {
            format!(
                "; until now it had stayed on node-{}, however many pings went unanswered",
                old + 1
            )
        } else {
            String::new()
        };
        format!(
            " The client drops its connection to node-{} and tries node-{} next{stayed}.",
            old + 1,
            self.endpoint + 1,
        )
    }

    /// The endpoint after `from` in the client's list, passing over those whose machines refused
    /// a connection. When every other one did, the client stays on `from` if `keep_from` (it
    /// answers, only it knows no leader yet), else tries them all again: a node may have
    /// restarted since (gRPC keeps redialling a failed connection in the background).
    fn endpoint_after(&mut self, from: u32, nodes: u32, keep_from: bool) -> u32 {
        let nodes = nodes.max(1);
        let next = (1..nodes)
            .map(|k| (from + k) % nodes)
            .find(|&i| self.refused_endpoints & (1 << i) == 0);
        match next {
            Some(i) => i,
            None if keep_from => from,
            None => {
                self.refused_endpoints = 0;
                (from + 1) % nodes
            }
        }
    }

    /// The host of `instance` closed this client's connection because the node's process died
    /// (or `refused` a new one): an etcd client hears it at once and goes to another endpoint.
    /// Its keepalive stream is opened again there (clientv3 lease.go, recvKeepAliveLoop resets
    /// the stream on any receive error) and sends on its usual passes; its watch resumes there
    /// from its revision (watch.go). A lock or unlock request that never reached the node is
    /// sent again there at once: the request is idempotent by key name (concurrency/mutex.go).
    /// A ZooKeeper-style client has its own (reconnect.rs).
    pub(super) fn connection_closed(
        &mut self,
        instance: u32,
        refused: bool,
        cx: &mut WorkerCtx<'_>,
    ) {
        if cx.lock.kind != crate::scenario::LockKind::Consensus {
            return;
        }
        if self.zookeeper_style() {
            self.zookeeper_connection_closed(instance, refused, cx);
            return;
        }
        let connected = cx.lock.nodes >= 2
            && self.endpoint == instance
            && !self.phase.is_terminal()
            // A client that has not started has no connection to lose; its first request is
            // refused instead.
            && (refused || self.phase != Phase::Idle);
        if !connected {
            return;
        }
        let name = cx.name;
        let node = instance + 1;
        self.refused_endpoints |= 1 << instance;
        self.endpoint = self.endpoint_after(instance, cx.lock.nodes, false);
        let next = self.endpoint + 1;
        let resend =
            self.awaiting.is_some() && matches!(self.phase, Phase::Acquiring | Phase::Releasing);
        let what = if refused {
            format!(
                "node-{node}'s machine refused {name}'s connection: its process is down. {name}'s client learns it at once, not on a timeout, and goes to node-{next}"
            )
        } else {
            format!(
                "node-{node}'s process died and its machine closed {name}'s connection, so {name}'s client learns it at once, not on a timeout, and opens its streams on node-{next}: the lease's keepalives go there from the next one due (clientv3 lease.go resets a failed keepalive stream), and a watch resumes there from its revision"
            )
        };
        let then = if resend {
            format!(
                " The request it was waiting on goes again to node-{next} now; etcd's lock and unlock name the key by the session's lease, so a repeat changes nothing more."
            )
        } else {
            String::new()
        };
        cx.fx.note(
            format!("{name}'s client moves to node-{next}"),
            format!("{what}.{then}"),
        );
        self.resume_watch(cx);
        if resend {
            self.awaiting = None;
            match self.phase {
                Phase::Acquiring => self.acquire(cx),
                _ => self.send_unlock(None, cx),
            }
        }
    }

    /// Whether an etcd client's unlock has met no leader for its whole request timeout: an
    /// election is over well within it, a cluster without a quorum never ends it. A ZooKeeper
    /// request has no timeout of its own.
    fn no_leader_for_too_long(&self, cx: &WorkerCtx<'_>) -> bool {
        !self.zookeeper_style()
            && cx.now_local - self.release_started_local >= self.cfg.request_timeout_ms as i64
    }

    /// A node that hears from no leader failed one of our requests: go to the next endpoint.
    pub(super) fn no_leader(&mut self, req: u64, cx: &mut WorkerCtx<'_>) {
        let for_job = self.awaiting == Some(req);
        let for_renew = self.renew.is_some_and(|(r, _)| r == req);
        if !for_job && !for_renew {
            return;
        }
        self.endpoint = self.endpoint_after(self.endpoint, cx.lock.nodes, true);
        self.resume_watch(cx);
        if for_renew {
            // The next keepalive goes to the next endpoint on its usual schedule.
            self.renew = None;
            return;
        }
        self.awaiting = None;
        match self.phase {
            Phase::Acquiring => {
                self.last_failure_unreachable = true;
                let retry = self.cfg.retry_ms;
                self.retry_after(cx, retry);
            }
            Phase::Releasing if self.no_leader_for_too_long(cx) => {
                let (name, timeout) = (cx.name, self.cfg.request_timeout_ms);
                cx.fx.note(
                    format!("{name} gives up its unlock: no leader"),
                    format!("{name}'s unlock has found no leader for {timeout} ms or more. etcd's client returns the error (\"etcdserver: no leader\") to the caller rather than retry a write (client/v3/retry.go, isSafeRetryMutableRPC), and this application stops trying after its request timeout and finishes. Its key stays until its lease runs out on a leader, so a waiter waits that long."),
                );
                self.finish(cx, "done");
            }
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
            self.drop_unlock(tag, false, cx);
            return;
        }
        if self.disconnected() {
            self.queue_unlock(tag, cx);
            return;
        }
        // ZooKeeper's send loop checks its silence before it sends (ClientCnxn.SendThread):
        // after a pause the read timeout or the client's own expiry comes first, and the delete
        // waits in the client's queue for what follows (a reconnect, or LOST).
        if self.zookeeper_style() && self.send_loop_wakes(cx) {
            self.unlock_queued = true;
            return;
        }
        let req = self.new_req();
        self.awaiting = Some(req);
        self.unlock_sent_local = cx.now_local;
        let lease = self.lease.unwrap_or_default();
        let to = self.endpoint_dest();
        cx.fx.send_tagged(to, Payload::Unlock { req, lease }, tag);
        cx.fx
            .after(self.cfg.request_timeout_ms, Timer::RequestTimeout(req));
    }
}
