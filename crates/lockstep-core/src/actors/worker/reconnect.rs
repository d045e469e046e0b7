//! A ZooKeeper-style client after its read timeout: it sends no pings while it has no
//! connection; it connects to the next server in its list with its session id, waits the connect
//! timeout (the session timeout ÷ the number of servers) for an answer, and moves on (ZooKeeper's
//! ClientCnxn.SendThread and StaticHostProvider).

use rand_core::Rng;

use super::{Worker, WorkerCtx};
use crate::actors::Timer;
use crate::message::Payload;

/// Before each new connection the client sleeps a random time below this (ClientCnxn:
/// `Thread.sleep(r.nextInt(1000))` unless it is the first connect)...
const RECONNECT_JITTER_MS: u64 = 1000;
/// ...and this long more when its host list comes back round to the server it was last
/// connected to (`hostProvider.next(1000)`).
const SPIN_DELAY_MS: u64 = 1000;

impl Worker {
    /// Whether this worker's client behaves as ZooKeeper's: it listens to its connection state.
    pub(super) fn zookeeper_style(&self) -> bool {
        self.cfg.on_suspended.is_some()
    }

    /// Whether the client is between connections (suspended, not yet lost): no pings go.
    pub(super) fn disconnected(&self) -> bool {
        self.zookeeper_style() && (self.suspended.is_some() || self.session_closed)
    }

    /// The read timeout has passed: the connection to `connected_to` is dropped; the first
    /// connect request goes after the random pause.
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
    }

    /// A connect request to the current endpoint (after the first, to the next one), and the
    /// next attempt timed for when this one's connect timeout runs out unanswered.
    pub(super) fn reconnect(&mut self, suspended_local: i64, cx: &mut WorkerCtx<'_>) {
        if self.suspended != Some(suspended_local)
            || self.session_closed
            || self.phase.is_terminal()
        {
            return;
        }
        let nodes = cx.lock.nodes.max(1);
        if self.reconnects > 0 {
            self.endpoint = (self.endpoint + 1) % nodes;
        }
        self.reconnects += 1;
        let req = self.new_req();
        self.renew = Some((req, cx.now_local));
        let lease = self.lease.unwrap_or_default();
        cx.fx.send(
            self.endpoint_dest(),
            Payload::KeepAlive {
                req,
                lease,
                reconnect: true,
            },
        );
        let connect_timeout = (self.granted_ttl_ms / u64::from(nodes)).max(1);
        let next = (self.endpoint + 1) % nodes;
        let spin = if next == self.connected_to {
            SPIN_DELAY_MS
        } else {
            0
        };
        let pause = cx.rng.next_u64() % RECONNECT_JITTER_MS;
        cx.fx.after(
            connect_timeout + pause + spin,
            Timer::Reconnect { suspended_local },
        );
    }
}
