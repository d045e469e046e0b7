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
            self.delete_lost_before(sent, cx);
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

    /// A ZooKeeper client hears the answer to a ping it sent at `ping_sent`, after its delete,
    /// but not the delete's own: a server answers one connection's requests in order, so the
    /// delete or its answer was lost on the way (a partition the model lets lose it, where TCP
    /// would have sent it again). The client sends the delete again; one that finds the node
    /// gone succeeds all the same (Curator's guaranteed delete).
    fn delete_lost_before(&mut self, ping_sent: i64, cx: &mut WorkerCtx<'_>) {
        let waiting_on_delete = self.zookeeper_style()
            && self.phase == Phase::Releasing
            && self.awaiting.is_some()
            && ping_sent > self.unlock_sent_local;
        if !waiting_on_delete {
            return;
        }
        let name = cx.name;
        cx.fx.note(
            format!("{name}'s delete goes again"),
            format!("The answer to a ping {name} sent after its delete has come, but not the delete's: a ZooKeeper server answers a connection's requests in order, so the delete or its answer was lost on the way, where TCP would have sent it again. {name}'s client sends it again; a delete that finds its node gone succeeds all the same (Curator's guaranteed delete)."),
        );
        self.awaiting = None;
        self.send_unlock(None, cx);
    }
}
