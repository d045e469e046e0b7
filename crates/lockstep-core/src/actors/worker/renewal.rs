//! What a worker learns from the answer to its renewal: the lease lives on (and a suspended
//! ZooKeeper session is reconnected), or it is gone.

use super::{Phase, Worker, WorkerCtx};
use crate::scenario::LockKind;

impl Worker {
    /// The answer to the renewal (a Redis extend, an etcd keepalive, a ZooKeeper ping or connect
    /// request) this worker is waiting for.
    pub(super) fn renew_answered(&mut self, ok: bool, cx: &mut WorkerCtx<'_>) {
        let name = cx.name;
        let (_, sent) = self.renew.take().unwrap_or_default();
        self.heard_from_cluster(cx);
        if ok {
            self.lease_from_local = sent;
            let ttl = if cx.lock.kind == LockKind::Consensus {
                self.granted_ttl_ms
            } else {
                cx.lock.ttl_ms
            };
            self.lease_until_local = Some(sent + ttl as i64);
            if self.suspended.take().is_some() {
                cx.fx.note(
                    format!("{name}'s session reconnected"),
                    format!("A server took {name}'s connect request and the leader still knows its session, so {name}'s lease is alive (ZooKeeper's SyncConnected, Curator's RECONNECTED): pings start again."),
                );
                // Pings count from this exchange, not from before the connection was lost.
                if !self.etcd_cadence(cx) {
                    self.schedule_renew(cx);
                }
                // After the lease above: a grant held back until now counts from this touch.
                self.send_queued(cx);
            }
            self.keepalive_answered(cx);
        } else if self.zookeeper_style() && !self.phase.is_terminal() {
            self.session_expired_on_reconnect(cx);
        } else if self.phase == Phase::Waiting {
            self.stop_keepalives();
            cx.fx.note(
                format!("{name}'s lease is gone"),
                format!("The leader no longer knows {name}'s lease: it was revoked, and {name}'s queued key with it. The session's Done channel closes, but etcd's Mutex.Lock does not watch it: {name} waits on until its predecessor's key goes, and only then finds its own key missing."),
            );
        } else if !self.phase.is_terminal() {
            self.stop_keepalives();
            // Said even after the job moved on: learning it now is the point of the story.
            let tag = self.stop_believing_tag();
            cx.fx.state(
                format!("{name} has lost the lock"),
                format!("The renewal failed, so {name} knows its lease is gone. If it had already sent its write, knowing this now is too late."),
                tag,
            );
            if self.phase == Phase::Working {
                self.release(cx);
            }
        }
    }
}
