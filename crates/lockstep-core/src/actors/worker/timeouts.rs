//! What a worker does when a request gets no answer within its timeout: Redlock moves on to the
//! next instance, an acquisition is retried elsewhere, a write may be sent again, an unlock may
//! be retried (etcd issue #22082).

use super::{Phase, Worker, WorkerCtx};
use crate::actors::{Dest, Timer};
use crate::message::Payload;
use crate::scenario::LockKind;

impl Worker {
    /// Sends a request the job waits on, with its timeout.
    pub(super) fn request(
        &mut self,
        cx: &mut WorkerCtx<'_>,
        to: Dest,
        make: impl FnOnce(u64) -> Payload,
        timeout_ms: u64,
    ) {
        let req = self.new_req();
        self.awaiting = Some(req);
        self.sent_local = cx.now_local;
        cx.fx.send(to, make(req));
        cx.fx.after(timeout_ms, Timer::RequestTimeout(req));
    }

    pub(super) fn timed_out(&mut self, cx: &mut WorkerCtx<'_>) {
        // A ZooKeeper request has no timeout of its own: it waits for its answer until the
        // client's read timeout drops the connection (then Curator's guaranteed delete keeps the
        // unlock, reconnect.rs).
        if self.zookeeper_style() && self.phase == Phase::Releasing {
            return;
        }
        self.awaiting = None;
        let name = cx.name;
        match self.phase {
            Phase::Acquiring if cx.lock.kind == LockKind::Redlock && cx.lock.parallel => {
                self.redlock_round_timed_out(cx);
            }
            Phase::Acquiring if cx.lock.kind == LockKind::Redlock => {
                self.redlock.timeouts += 1;
                cx.fx.note(
                    format!("redis-{} timed out", self.redlock.next + 1),
                    format!("No answer within the per-instance timeout of {} ms; Redlock moves on to the next instance rather than wait.", cx.lock.instance_timeout_ms),
                );
                self.redlock.next += 1;
                self.redlock_next(cx);
            }
            Phase::Acquiring if self.connecting() => self.connect_timed_out_first(cx),
            Phase::Acquiring => {
                self.last_failure_unreachable = true;
                let next = self.next_endpoint(cx);
                cx.fx.note(
                    "no answer from the lock service",
                    format!("{name} got no answer within {} ms. It cannot tell whether the request was lost, the service is down, or the answer is late.{next}", self.cfg.request_timeout_ms),
                );
                let retry = self.cfg.retry_ms;
                self.retry_after(cx, retry);
            }
            Phase::Writing if self.write_retries < self.cfg.retry_writes => {
                self.write_retries += 1;
                let keys = if self.cfg.idempotency_keys {
                    "The payouts carry idempotency keys, so if the first write was applied the database will recognise them."
                } else {
                    "The payouts carry no idempotency keys: if the first write was applied, this one pays again."
                };
                cx.fx.note(
                    format!(
                        "no answer to the write: retry {} of {}",
                        self.write_retries, self.cfg.retry_writes
                    ),
                    format!("{name}'s write got no answer within {} ms. It cannot know whether the database applied it, so it sends the same write again. {keys}", self.cfg.request_timeout_ms),
                );
                self.write(cx);
            }
            Phase::Checking | Phase::Writing => {
                let what = if self.phase == Phase::Checking {
                    "read"
                } else {
                    "write"
                };
                cx.fx.note(
                    format!("no answer to the {what}"),
                    format!("{name}'s {what} got no answer within {} ms; it cannot know whether the database applied it, so it stops and releases.", self.cfg.request_timeout_ms),
                );
                self.release(cx);
            }
            Phase::Releasing if self.cfg.retry_unlock && !self.unlock_retried => {
                self.unlock_retried = true;
                cx.fx.note(
                    format!("{name} retries its unlock"),
                    format!("{name}'s unlock got no answer within {} ms, so it sends the same delete again. etcd's Mutex.Unlock deletes by key name (the prefix and the session's lease ID), not by the revision it created, so if another Mutex of the same session holds the lock under that name now, this deletes its key (etcd issue #22082).", self.cfg.request_timeout_ms),
                );
                self.send_unlock(None, cx);
            }
            Phase::Releasing => {
                // The unlock may have been lost or only its answer: either way the worker
                // cannot tell, and whoever waits for the lock now waits on the service's
                // own expiry (review s6-9: a lost unlock went unmentioned).
                let until = match cx.lock.kind {
                    LockKind::Consensus => format!(
                        "If the delete was lost, {name}'s key stays until its lease runs out on the leader (a TTL of {} s, and no keepalives are coming), so a waiter waits that long.",
                        cx.lock.ttl_ms.div_ceil(1000)
                    ),
                    _ => format!(
                        "If the delete was lost, the key stays until its TTL of {} ms runs out, so another worker waits that long.",
                        cx.lock.ttl_ms
                    ),
                };
                cx.fx.note(
                    "no answer to the unlock",
                    format!("{name}'s unlock got no answer within {} ms. {name} gives up on it and finishes. {until}", self.cfg.request_timeout_ms),
                );
                self.finish(cx, "done");
            }
            _ => {}
        }
    }
}
