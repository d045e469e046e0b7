//! A ZooKeeper-style client after its read timeout: it sends no pings while it has no
//! connection; it opens one to the next server in its list (the kernel resending the SYN), sends
//! its session id once it is open, waits the connect timeout (the session timeout ÷ the number of
//! servers), and moves on; at the end of an attempt, 4/3 of the session timeout without a word
//! expire the session on the client (ZooKeeper's ClientCnxn.SendThread, StaticHostProvider,
//! ZOOKEEPER-4508). Requests made meanwhile wait in its queue.

use rand_core::Rng;

use super::{Phase, Worker, WorkerCtx};
use crate::actors::Timer;
use crate::message::{Closing, Payload, SessionPacket};
use crate::trace::Tag;

/// Before each new connection the client sleeps a random time below this (ClientCnxn:
/// `Thread.sleep(r.nextInt(1000))` unless it is the first connect)...
pub(super) const RECONNECT_JITTER_MS: u64 = 1000;
/// ...and this long more when its host list comes back round to the server it was last
/// connected to (`hostProvider.next(1000)`).
pub(super) const SPIN_DELAY_MS: u64 = 1000;
/// When the kernel sends an unanswered SYN again, from the start of the attempt (Linux: an
/// initial retransmission timeout of 1 s, doubling).
const SYN_RETRIES_MS: [u64; 3] = [1000, 3000, 7000];

impl Worker {
    /// Whether this worker's client behaves as ZooKeeper's: it listens to its connection state.
    pub(super) fn zookeeper_style(&self) -> bool {
        self.cfg.on_suspended.is_some()
    }

    /// What keeps this client's session alive just now.
    pub(super) fn session_packet(&self) -> SessionPacket {
        match (self.zookeeper_style(), self.disconnected()) {
            (false, _) => SessionPacket::Keepalive,
            (true, false) => SessionPacket::Ping,
            (true, true) => SessionPacket::Connect,
        }
    }

    /// Whether this ZooKeeper-style client has a connection open to node `instance`: connected
    /// with a session, with its lock request (which opens the session) in flight, or in a
    /// connection attempt.
    pub fn has_connection_to(&self, instance: u32) -> bool {
        self.zookeeper_style()
            && self.endpoint == instance
            && !self.session_closed
            && !self.phase.is_terminal()
            && match self.suspended {
                None => self.lease.is_some() || self.awaiting.is_some(),
                Some(_) => self.renew.is_some(),
            }
    }

    /// Whether the client is between connections (suspended, or its session over): no pings go.
    pub(super) fn disconnected(&self) -> bool {
        self.zookeeper_style() && (self.suspended.is_some() || self.session_closed)
    }

    /// The read timeout has passed: the connection to `connected_to` is dropped; the first
    /// connection attempt starts after the random pause.
    pub(super) fn start_reconnecting(&mut self, connected_to: u32, cx: &mut WorkerCtx<'_>) {
        self.reconnects = 0;
        self.connected_to = connected_to;
        let pause = cx.rng.next_u64() % RECONNECT_JITTER_MS;
        cx.fx.after(
            pause,
            Timer::Reconnect {
                suspended_local: cx.now_local,
            },
        );
        // Curator's own check: SUSPENDED for a whole session timeout means LOST, whatever the
        // client does (ConnectionStateManager.checkSessionExpiration).
        cx.fx.after(
            self.granted_ttl_ms,
            Timer::CuratorExpiry {
                suspended_local: cx.now_local,
            },
        );
    }

    /// A whole session timeout SUSPENDED: Curator injects the session's expiry (LOST).
    pub(super) fn curator_expiry(&mut self, suspended_local: i64, cx: &mut WorkerCtx<'_>) {
        if self.reconnecting(suspended_local) {
            let silent = cx.now_local - self.heard_local;
            self.session_lost(silent, true, cx);
        }
    }

    /// ZooKeeper 3.9.3+'s own check, made whenever its send loop wakes: 4/3 of the session timeout
    /// without a word from the cluster expire the session (LOST). Returns whether it did.
    fn expired_on_client(&mut self, cx: &mut WorkerCtx<'_>) -> bool {
        let silent = cx.now_local - self.heard_local;
        let expired = silent >= (self.granted_ttl_ms * 4 / 3) as i64;
        if expired {
            self.session_lost(silent, false, cx);
        }
        expired
    }

    fn reconnecting(&self, suspended_local: i64) -> bool {
        self.suspended == Some(suspended_local) && !self.session_closed && !self.phase.is_terminal()
    }

    /// A connection attempt to the current endpoint (after the first, to the next one): its
    /// connect request, the SYN's resends and its connect timeout.
    pub(super) fn reconnect(&mut self, suspended_local: i64, cx: &mut WorkerCtx<'_>) {
        if !self.reconnecting(suspended_local) {
            return;
        }
        let nodes = cx.lock.nodes.max(1);
        if self.reconnects > 0 {
            self.endpoint = (self.endpoint + 1) % nodes;
        }
        // The send loop checks the client's own expiry each time it wakes, a new attempt too.
        if self.expired_on_client(cx) {
            return;
        }
        self.reconnects += 1;
        let attempt = self.reconnects;
        self.send_connect(SessionPacket::Connect, cx);
        let connect_timeout = self.connect_timeout_ms(cx);
        for at in SYN_RETRIES_MS
            .into_iter()
            .filter(|&at| at < connect_timeout)
        {
            cx.fx.after(
                at,
                Timer::SynRetry {
                    suspended_local,
                    attempt,
                },
            );
        }
        cx.fx.after(
            connect_timeout,
            Timer::ConnectTimeout {
                suspended_local,
                attempt,
            },
        );
    }

    fn connect_timeout_ms(&self, cx: &WorkerCtx<'_>) -> u64 {
        (self.granted_ttl_ms / u64::from(cx.lock.nodes.max(1))).max(1)
    }

    fn send_connect(&mut self, packet: SessionPacket, cx: &mut WorkerCtx<'_>) {
        let req = self.new_req();
        self.renew = Some((req, cx.now_local));
        let lease = self.lease.unwrap_or_default();
        cx.fx.send(
            self.endpoint_dest(),
            Payload::KeepAlive { req, lease, packet },
        );
    }

    /// The SYN goes again: the attempt's connect request, if it is still unanswered.
    pub(super) fn syn_retry(&mut self, suspended_local: i64, attempt: u32, cx: &mut WorkerCtx<'_>) {
        if self.reconnecting(suspended_local) && self.reconnects == attempt {
            self.send_connect(SessionPacket::ConnectResent, cx);
        }
    }

    /// The attempt's connect timeout ran out with no answer: the client, awake again, expires
    /// its session if 4/3 of the session timeout have passed since it last heard from the cluster
    /// (ZooKeeper 3.9.3+), else tries the next server after its pause.
    pub(super) fn connect_timed_out(
        &mut self,
        suspended_local: i64,
        attempt: u32,
        cx: &mut WorkerCtx<'_>,
    ) {
        if !self.reconnecting(suspended_local) || self.reconnects != attempt {
            return;
        }
        self.attempt_over(suspended_local, cx);
    }

    /// A connection attempt has ended without a connection (its connect timeout, or a refusal):
    /// the client expires its session if 4/3 of the session timeout have passed since it last
    /// heard from the cluster, else tries the next server after its pause.
    fn attempt_over(&mut self, suspended_local: i64, cx: &mut WorkerCtx<'_>) {
        self.renew = None;
        if self.expired_on_client(cx) {
            return;
        }
        let next = (self.endpoint + 1) % cx.lock.nodes.max(1);
        let spin = if next == self.connected_to {
            SPIN_DELAY_MS
        } else {
            0
        };
        let pause = cx.rng.next_u64() % RECONNECT_JITTER_MS;
        cx.fx
            .after(pause + spin, Timer::Reconnect { suspended_local });
    }

    /// The machine of node `instance` reset this client's connection, or refused a new one
    /// (`refused`), because the node's process is down. ZooKeeper's client sees the socket close
    /// at once (ClientCnxn's SendThread: an EndOfStreamException, or the refused connect), not at
    /// its read or connect timeout: connected, it reports Disconnected (Curator SUSPENDED) and
    /// tries the next server after its pause; reconnecting, that attempt ends now.
    pub(super) fn zookeeper_connection_closed(
        &mut self,
        instance: u32,
        refused: bool,
        cx: &mut WorkerCtx<'_>,
    ) {
        let nodes = cx.lock.nodes;
        if nodes < 2 || self.endpoint != instance || self.session_closed || self.phase.is_terminal()
        {
            return;
        }
        let (name, node) = (cx.name, instance + 1);
        if self.connecting() {
            if self.awaiting.is_some() {
                let (label, why) = if refused {
                    (
                        format!("node-{node} refuses {name}'s connection"),
                        format!(
                            "node-{node}'s process is down, so its machine refuses {name}'s connection at once"
                        ),
                    )
                } else {
                    (
                        format!("node-{node} resets {name}'s connection"),
                        format!(
                            "node-{node}'s process died with {name}'s lock request in flight, and its machine closed the connection: ZooKeeper's client sees the socket close at once and Curator reports SUSPENDED ({name} holds nothing yet, so there is nothing to stop)"
                        ),
                    )
                };
                self.connect_attempt_failed(instance, label, &why, !refused, cx);
            }
            return;
        }
        match self.suspended {
            Some(suspended_local) if refused && self.renew.is_some() => {
                let why = format!(
                    "node-{node}'s process is down, so its machine refuses the connection at once"
                );
                self.attempt_ends_now(
                    suspended_local,
                    format!("node-{node} refuses {name}'s connection"),
                    &why,
                    instance,
                    cx,
                );
            }
            None if self.may_suspend() => {
                let how = if refused {
                    format!(
                        "node-{node}'s machine refused {name}'s request: the node's process is down and the connection is gone"
                    )
                } else {
                    format!("node-{node}'s process died and its machine closed {name}'s connection")
                };
                self.suspend_on_close(instance, &how, cx);
            }
            _ => {}
        }
    }

    /// A server with no leader closed this client's connection (`closing` says why): on reading
    /// its lock or connect request, which ends that attempt now, or dropping every client as it
    /// stops following or leading, which a connected client reports as Disconnected (Curator
    /// SUSPENDED).
    pub(super) fn not_serving(&mut self, instance: u32, closing: Closing, cx: &mut WorkerCtx<'_>) {
        if !self.zookeeper_style()
            || self.endpoint != instance
            || self.session_closed
            || self.phase.is_terminal()
        {
            return;
        }
        let (name, node) = (cx.name, instance + 1);
        let req = closing.request();
        let how = match closing {
            Closing::Request(_) => format!("node-{node} has no leader"),
            Closing::LeaderDied => {
                format!("node-{node}'s leader's process died, so node-{node} stopped following")
            }
            Closing::LeaderSilent => format!(
                "node-{node} heard nothing from its leader for its timeout and stopped following"
            ),
            Closing::Voted => format!(
                "node-{node} heard nothing from its leader, voted to elect another and stopped following"
            ),
            Closing::SteppedDown => {
                format!("node-{node}, which led, lost its quorum and stepped down")
            }
        };
        if self.connecting() {
            let on_request = req.is_some() && req == self.awaiting;
            let dropped = req.is_none() && self.awaiting.is_some();
            if on_request || dropped {
                let why = if on_request {
                    format!(
                        "{how} (it is electing one), so it takes no session and closes {name}'s connection as soon as it reads the request (NIOServerCnxn: \"ZooKeeperServer not running\")"
                    )
                } else {
                    format!(
                        "{how}, and closed every client connection, {name}'s with its lock request in flight (closeAllConnections)"
                    )
                };
                let label = format!("node-{node} closes {name}'s connection");
                self.connect_attempt_failed(instance, label, &why, dropped, cx);
            }
            return;
        }
        match self.suspended {
            Some(suspended_local)
                if self.renew.is_some() && (req.is_none() || self.renew.map(|(r, _)| r) == req) =>
            {
                let why = format!("{how}, so it takes no session");
                self.attempt_ends_now(
                    suspended_local,
                    format!("node-{node} closes {name}'s connection"),
                    &why,
                    instance,
                    cx,
                );
            }
            None if self.may_suspend() => {
                let how = format!("{how}, and closed {name}'s connection");
                self.suspend_on_close(instance, &how, cx);
            }
            _ => {}
        }
    }

    /// A connection attempt to node `instance` ends before its connect timeout (`why`): the
    /// client tries the next node after its pause.
    fn attempt_ends_now(
        &mut self,
        suspended_local: i64,
        label: String,
        why: &str,
        instance: u32,
        cx: &mut WorkerCtx<'_>,
    ) {
        let name = cx.name;
        let next = (instance + 1) % cx.lock.nodes.max(1) + 1;
        cx.fx.note(
            label,
            format!("{why}: {name}'s client ends this attempt now rather than at its connect timeout, and tries node-{next} after its pause (ClientCnxn, StaticHostProvider)."),
        );
        // The attempt's SYN resends and connect timeout no longer apply.
        self.reconnects += 1;
        self.attempt_over(suspended_local, cx);
    }

    /// Node `instance` closed (or refused, `how` says) the connection of this connected client:
    /// it sees the socket close at once and is suspended, to try the next node.
    fn suspend_on_close(&mut self, instance: u32, how: &str, cx: &mut WorkerCtx<'_>) {
        self.endpoint = (instance + 1) % cx.lock.nodes.max(1);
        let why = format!(
            "{how}. ZooKeeper's client sees the socket close at once, not at its read timeout, reports Disconnected and Curator SUSPENDED. It tries node-{} next, after a random pause; if a server takes the session before it expires, Curator reports RECONNECTED, and the session keeps its lock node, if it has one.",
            self.endpoint + 1
        );
        self.suspend(instance, &why, cx);
    }

    /// The unlock while the client has no connection: it waits in the client's queue (Curator's
    /// guaranteed delete tries it again after a reconnect).
    pub(super) fn queue_unlock(&mut self, tag: Option<Tag>, cx: &mut WorkerCtx<'_>) {
        self.unlock_queued = true;
        let name = cx.name;
        cx.fx.state(
            format!("{name}'s unlock waits for a connection"),
            format!("{name} deletes its lock node, but its client has no connection. ZooKeeper's client fails the request (CONNECTIONLOSS) when the connection attempt fails; Curator keeps it (InterProcessMutex.release uses a guaranteed delete, FailedOperationManager) and sends it once a server accepts the session again. If the session expires first, ZooKeeper deletes the session's ephemeral lock node itself."),
            tag,
        );
    }

    /// The session reconnected: what waited in the queue goes now, and a grant that came while
    /// the client had no connection is acted on.
    pub(super) fn send_queued(&mut self, cx: &mut WorkerCtx<'_>) {
        if std::mem::take(&mut self.unlock_queued) && self.phase == Phase::Releasing {
            self.send_unlock(None, cx);
        }
        if let Some(rev) = self.grant_held.take()
            && self.phase == Phase::Waiting
        {
            self.lock_granted(rev, cx);
        }
    }

    /// The lock is the client's now; if it has no connection, a real server cannot tell it
    /// so until a server takes the session again, when the client sets its watches anew and the
    /// server fires those whose node changed meanwhile (ZooKeeper's SetWatches on reconnect).
    pub(super) fn granted_or_held(&mut self, rev: u64, cx: &mut WorkerCtx<'_>) {
        if !self.disconnected() {
            self.lock_granted(rev, cx);
            return;
        }
        self.grant_held = Some(rev);
        let name = cx.name;
        cx.fx.note(
            format!("{name} hears of it only after reconnecting"),
            format!("{name}'s predecessor is gone and its lock node is now the lowest, but {name}'s client has no connection: the watch fires for {name} once a server takes its session again (the client sets its watches anew on reconnect, and the server fires those whose node changed). Until then {name} does not know it holds the lock."),
        );
    }

    /// The session is over with an unlock still queued: told so by a server (`expired_there`),
    /// the ephemeral lock node went with it; after the client's own LOST, it goes when the
    /// cluster expires the session.
    pub(super) fn drop_queued(&mut self, expired_there: bool, cx: &mut WorkerCtx<'_>) {
        if std::mem::take(&mut self.unlock_queued) && self.phase == Phase::Releasing {
            self.drop_unlock(None, expired_there, cx);
        }
    }

    /// An unlock after the session is over: the delete fails. If a server said the session had
    /// expired, the node went with it; otherwise the cluster may not have expired it yet (it
    /// cannot without a quorum), and Curator would try the delete again on its new session.
    pub(super) fn drop_unlock(
        &mut self,
        tag: Option<Tag>,
        expired_there: bool,
        cx: &mut WorkerCtx<'_>,
    ) {
        let name = cx.name;
        let why = if expired_there {
            format!(
                "The cluster has expired the session, so the delete fails (SESSIONEXPIRED); the ephemeral lock node went with the session, so a retry on a new session finds nothing of {name}'s to delete."
            )
        } else {
            format!(
                "{name}'s client gave the session up, so the delete fails (SESSIONEXPIRED). Curator retries a guaranteed delete in the background once its new session connects (FailedDeleteManager), which would take the node away within moments; this model does not show that retry, so here the node goes only when a leader expires the old session, and a waiter may wait that much longer than with Curator."
            )
        };
        cx.fx.state(format!("{name}'s unlock is dropped"), why, tag);
        self.finish(cx, "done");
    }

    /// A server answered the ping or connect request with "session expired": the client reports
    /// Expired and Curator LOST, so the worker knows it has lost the lock.
    pub(super) fn session_expired_on_reconnect(&mut self, cx: &mut WorkerCtx<'_>) {
        self.stop_keepalives();
        self.session_closed = true;
        let name = cx.name;
        if matches!(self.phase, Phase::Acquiring | Phase::Waiting) {
            cx.fx.state(
                format!("{name}'s session has expired"),
                format!("A server reached at last says {name}'s session has expired: its client reports Expired and Curator LOST. {name} was waiting for the lock: its lock node went with the session, Curator's acquire fails, and {name} asks again on a new session."),
                Some(Tag::SessionLost),
            );
            self.ask_again_on_a_new_session(cx);
            return;
        }
        let tag = self.stop_believing_tag().or(Some(Tag::SessionLost));
        cx.fx.state(
            format!("{name}'s session has expired"),
            format!("A server reached at last says {name}'s session has expired: its client reports Expired and Curator LOST, so {name} knows it has lost the lock. If it had already sent its write, knowing this now is too late."),
            tag,
        );
        if self.phase == Phase::Working {
            self.release(cx);
        }
        self.drop_queued(true, cx);
    }
}
