//! The consensus lock client (etcd's `concurrency.Session` and `Mutex`): queueing behind the
//! holder, counting the lease from what the client can know, and noticing that the session
//! expired while it waited (ErrSessionExpired, etcd #11456).

use super::{Phase, Worker, WorkerCtx};
use crate::actors::Timer;

impl Worker {
    /// The service committed our key: we own the lock now, or we queue behind an older key.
    pub(super) fn lock_reply(
        &mut self,
        lease: u64,
        rev: u64,
        owner_now: bool,
        cx: &mut WorkerCtx<'_>,
    ) {
        self.lease = Some(lease);
        self.holds_something = true;
        // The lease was granted some time after the request left; the client can only count
        // from the send time, which errs on the safe side.
        self.lease_from_local = self.sent_local;
        self.lease_until_local = Some(self.lease_end());
        self.heard_from_cluster(cx);
        if owner_now {
            self.token = Some(rev);
            self.believe(cx);
            self.check(cx);
        } else {
            self.phase = Phase::Waiting;
            // The waiter's watch is set on the node that answered, from its own key's revision.
            self.watch_rev = Some(rev);
            self.watch_at = Some(self.endpoint);
            cx.fx
                .at(self.acquire_deadline_local, Timer::AcquireDeadline);
        }
        self.schedule_renew(cx);
    }

    /// The predecessor's key is gone and ours is the lowest. Being granted the lock does not renew
    /// the lease: it still ends where the last answered keepalive (or the request) put it. etcd's
    /// Mutex.Lock returns once its own key is there (mutex.go reads it when its predecessor goes),
    /// without looking at the client's own count of the lease: a count already run out is only
    /// said (believe).
    pub(super) fn lock_granted(&mut self, rev: u64, cx: &mut WorkerCtx<'_>) {
        self.token = Some(rev);
        self.heard_from_cluster(cx);
        self.lease_until_local = Some(self.lease_end());
        self.believe(cx);
        self.check(cx);
    }

    /// The service answers a lock request this client stopped waiting for (it timed out): the
    /// key exists all the same, under a lease nobody keeps alive.
    pub(super) fn late_lock_reply(&mut self, rev: u64, owner_now: bool, cx: &mut WorkerCtx<'_>) {
        let name = cx.name;
        let what = if owner_now {
            format!(
                "the service now says {name} holds the lock, while {name} believes it never got it"
            )
        } else {
            format!("{name}'s key queues for the lock while {name} believes it never asked")
        };
        // etcd drops the waiter of a request whose client went away (gRPC cancels the server's
        // context), so the answer drawn here would never be sent; the model draws it so that
        // the commit shows on the client's lane, and says so.
        let unsent = if cx.lock.kind == crate::scenario::LockKind::Consensus
            && !self.zookeeper_style()
        {
            format!(
                " (Real etcd sends no such answer: when {name}'s client gave up, gRPC cancelled the request on the server, which dropped its wait for the commit. {name} is never told, and would find the key only by looking; this model draws the answer so that the commit shows.)"
            )
        } else {
            String::new()
        };
        cx.fx.note(
            format!("{name} ignores a late answer"),
            format!("The request {name} gave up on was committed after all, at revision {rev}: {what}. Nobody keeps that lease alive, so the key stays until its TTL runs out and holds up everyone queued behind it. A client cannot tell \"not done\" from \"not answered yet\".{unsent}"),
        );
    }

    pub(super) fn lease_end(&self) -> i64 {
        self.lease_from_local + self.ttl_ms() as i64
    }

    fn ttl_ms(&self) -> u64 {
        self.granted_ttl_ms
    }

    /// The leader says our predecessor's key is deleted and ours went with our lease.
    pub(super) fn session_gone(&mut self, rev: Option<u64>, cx: &mut WorkerCtx<'_>) {
        let waited_on = rev.map_or(String::new(), |r| format!(" (revision {r})"));
        let why = format!(
            "The key {name} waited on{waited_on} is deleted, and when {name} reads its own key it is gone too: its lease was revoked while it waited, because no keepalive of its reached the leader within the TTL",
            name = cx.name
        );
        self.session_expired(&why, cx);
    }

    /// Our own lease ran out while we waited: our key is (or will be) deleted with it, so waiting
    /// on would wait for nothing. A fixed etcd client returns ErrSessionExpired; the job opens a
    /// new session and asks again.
    fn session_expired(&mut self, why: &str, cx: &mut WorkerCtx<'_>) {
        let name = cx.name;
        let client = if self.zookeeper_style() {
            format!(
                "Curator's lock loop reads the lock's children before it holds (LockInternals.internalLockLoop, getSortedChildren), and on an expired session that read fails (SESSIONEXPIRED): Curator reports LOST, and {name} opens a new session and asks again."
            )
        } else {
            format!(
                "etcd's fixed client (3.5 and later) returns ErrSessionExpired here instead of holding a lock on a dead lease (etcd issue #11456; a 3.4 client still grants it); {name} opens a new session and asks again."
            )
        };
        cx.fx.state(
            format!("{name}'s session expired while waiting"),
            format!("{why}. {client}"),
            None,
        );
        self.ask_again_on_a_new_session(cx);
    }
}
