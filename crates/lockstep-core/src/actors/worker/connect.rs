//! A ZooKeeper-style client opening a session: in this model its lock request opens the session
//! (the cluster makes the session's lease with the lock node), so until it is answered the request
//! is the client's connection attempt. A server with no leader closes it, a dead process's host
//! refuses or resets it, silence ends it at the connect timeout; each time the client tries the
//! next server after its pause (ClientCnxn, StaticHostProvider), as it does when it reconnects
//! (reconnect.rs). A repeat carries its first request's id, so a lock node the first made is
//! found rather than made twice (Curator's protected mode).

use rand_core::Rng;

use super::reconnect::{RECONNECT_JITTER_MS, SPIN_DELAY_MS};
use super::{Phase, Worker, WorkerCtx};

impl Worker {
    /// Whether this ZooKeeper-style client is opening a session: it asks for the lock and no
    /// answer has made its session yet.
    pub(super) fn connecting(&self) -> bool {
        self.zookeeper_style() && self.phase == Phase::Acquiring && self.lease.is_none()
    }

    /// How long a connection attempt waits for a word: ZooKeeper's connect timeout, the session
    /// timeout asked for ÷ the number of servers.
    pub(super) fn first_connect_timeout_ms(&self, cx: &WorkerCtx<'_>) -> u64 {
        (cx.lock.ttl_ms / u64::from(cx.lock.nodes.max(1))).max(1)
    }

    /// The lock request's connection to node `instance` ended without an answer (`label`, `why`):
    /// the request fails (CONNECTIONLOSS) and the client tries the next server after a random
    /// pause of up to a second, a second more when its list comes back round to the server it
    /// tried first. `maybe_done`: the request may have reached the cluster.
    pub(super) fn connect_attempt_failed(
        &mut self,
        instance: u32,
        label: String,
        why: &str,
        maybe_done: bool,
        cx: &mut WorkerCtx<'_>,
    ) {
        self.awaiting = None;
        self.last_failure_unreachable = true;
        let name = cx.name;
        let nodes = cx.lock.nodes.max(1);
        self.endpoint = (instance + 1) % nodes;
        let spin = if self.endpoint == self.connected_to {
            SPIN_DELAY_MS
        } else {
            0
        };
        let pause = cx.rng.next_u64() % RECONNECT_JITTER_MS + spin;
        let next = self.endpoint + 1;
        let round = if spin > 0 {
            " (a second more, as its list comes back round to the server it tried first: StaticHostProvider.next)"
        } else {
            ""
        };
        let found = if maybe_done {
            " If the request reached the cluster all the same, the next try finds the lock node it made rather than make another: Curator creates it in protected mode, a name prefix only this client knows, and after a connection loss looks for that prefix first (CreateBuilderImpl.findProtectedNodeInForeground).".to_string()
        } else {
            String::new()
        };
        cx.fx.note(
            label,
            format!(
                "{why}. {name}'s lock request fails with CONNECTIONLOSS, and Curator tries it again once its client has a connection: the client tries node-{next} after a random pause of up to a second{round}, {pause} ms this time (ClientCnxn, StaticHostProvider).{found}"
            ),
        );
        self.retry_after(cx, pause);
    }

    /// The connect timeout ran out with the lock request unanswered.
    pub(super) fn connect_timed_out_first(&mut self, cx: &mut WorkerCtx<'_>) {
        let (name, node) = (cx.name, self.endpoint + 1);
        let timeout = self.first_connect_timeout_ms(cx);
        let why = format!(
            "{name} heard nothing from node-{node} within its connect timeout of {timeout} ms (the {} ms session timeout ÷ {} servers); it cannot tell a dead or cut-off server from a slow one",
            cx.lock.ttl_ms,
            cx.lock.nodes.max(1)
        );
        self.connect_attempt_failed(
            self.endpoint,
            format!("{name}'s connection to node-{node} timed out"),
            &why,
            true,
            cx,
        );
    }
}
