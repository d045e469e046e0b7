//! Asking the lock service for the lock: one attempt per kind of lock service, its timeout
//! bounded by the acquire deadline, the retries, and giving up (fail-closed or fail-open) when
//! the deadline comes.

use rand_core::Rng;

use super::{Phase, RedlockRound, Worker, WorkerCtx};
use crate::actors::{Dest, Timer};
use crate::message::Payload;
use crate::scenario::{LockKind, OnUnavailable};

impl Worker {
    /// An acquisition attempt waits for its answer no longer than the acquire deadline allows.
    pub(super) fn acquire_timeout(&self, cx: &WorkerCtx<'_>) -> u64 {
        let left = (self.acquire_deadline_local - cx.now_local).max(1) as u64;
        // A ZooKeeper-style client's lock request opens its session: its connect timeout.
        let timeout = if self.connecting() {
            self.first_connect_timeout_ms(cx)
        } else {
            self.cfg.request_timeout_ms
        };
        timeout.min(left)
    }

    pub(super) fn acquire(&mut self, cx: &mut WorkerCtx<'_>) {
        let timeout = self.acquire_timeout(cx);
        if matches!(cx.lock.kind, LockKind::Redis | LockKind::Redlock) {
            // One random value per acquisition, kept across its retries, as Redis clients do
            // (redis-py's Lock, redlock-rb and redsync draw it once before their retry loop).
            // Every try still draws, so that a seed gives the retry delays it always gave.
            let drawn = cx.rng.next_u64();
            if self.lock_value == 0 {
                self.lock_value = drawn;
            }
        }
        match cx.lock.kind {
            LockKind::Redis => {
                let (value, ttl_ms, with_token) =
                    (self.lock_value, cx.lock.ttl_ms, self.cfg.fencing);
                self.holds_something = true;
                self.request(
                    cx,
                    Dest::LockService,
                    |req| Payload::Set {
                        req,
                        value,
                        ttl_ms,
                        with_token,
                    },
                    timeout,
                );
            }
            LockKind::Redlock => {
                self.holds_something = true;
                self.redlock = RedlockRound {
                    start_local: cx.now_local,
                    ..RedlockRound::default()
                };
                self.redlock_tries += 1;
                if cx.lock.parallel {
                    self.redlock_send_all(cx);
                } else {
                    self.redlock_next(cx);
                }
            }
            LockKind::Consensus => {
                let ttl_ms = cx.lock.ttl_ms;
                let to = self.endpoint_dest();
                let (session, again) = (self.session_of, self.first_lock_req);
                self.request(
                    cx,
                    to,
                    |req| Payload::LockReq {
                        req,
                        ttl_ms,
                        session,
                        again,
                    },
                    timeout,
                );
                self.first_lock_req = again.or(self.awaiting);
            }
            LockKind::None => {}
        }
    }

    pub(super) fn retry_after(&mut self, cx: &mut WorkerCtx<'_>, delay_ms: u64) {
        if cx.now_local + delay_ms as i64 > self.acquire_deadline_local {
            self.give_up(cx);
        } else {
            cx.fx.after(delay_ms, Timer::Retry);
        }
    }

    pub(super) fn give_up(&mut self, cx: &mut WorkerCtx<'_>) {
        let name = cx.name;
        let waited = self.cfg.acquire_timeout_ms;
        // It may stop short of the deadline: when its next try could only come after it.
        let left = (self.acquire_deadline_local - cx.now_local).max(0) as u64;
        let tried = waited.saturating_sub(left);
        let early = if left > 0 {
            format!(
                " It has tried for {tried} ms; its next try could only come after the timeout runs out, so it stops now."
            )
        } else {
            String::new()
        };
        if !self.last_failure_unreachable {
            self.phase = Phase::GaveUp;
            cx.fx.state(
                format!("{name} gives up: lock busy for {tried} ms"),
                format!("{name} could not get the lock within its acquire timeout of {waited} ms and gives up; the batch is left to whoever holds the lock.{early}"),
                None,
            );
            return;
        }
        let unanswered = if left > 0 {
            format!(
                "The lock service has not given {name} the lock, and its acquire timeout of {waited} ms is about to run out.{early}"
            )
        } else {
            format!(
                "The lock service did not answer within {name}'s acquire timeout of {waited} ms."
            )
        };
        match self.cfg.on_lock_unavailable {
            OnUnavailable::FailClosed => {
                self.phase = Phase::Refused;
                cx.fx.state(
                    format!("{name} refuses: no lock, no payouts (fail-closed)"),
                    format!("{unanswered} Fail-closed: {name} will not pay without the lock. Safe, but the batch stays unpaid."),
                    None,
                );
            }
            OnUnavailable::FailOpen => {
                self.unprotected = true;
                cx.fx.state(
                    format!("{name} proceeds without the lock (fail-open)"),
                    format!("{unanswered} Fail-open: {name} processes anyway, and nothing stops another worker from doing the same."),
                    None,
                );
                self.check(cx);
            }
        }
    }
}
