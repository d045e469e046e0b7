//! Keeping a lease alive: Redis `PEXPIRE`-style extension or a consensus keepalive, every
//! `renew_every_ms` on the worker's clock.

use super::{Phase, Worker, WorkerCtx};
use crate::actors::{Dest, Timer};
use crate::message::Payload;
use crate::scenario::LockKind;

impl Worker {
    pub(super) fn schedule_renew(&mut self, cx: &mut WorkerCtx<'_>) {
        if self.cfg.renew_every_ms > 0 {
            cx.fx.after(self.cfg.renew_every_ms, Timer::Renew);
        }
    }

    pub(super) fn renew(&mut self, cx: &mut WorkerCtx<'_>) {
        let holding = matches!(
            self.phase,
            Phase::Checking | Phase::Working | Phase::Writing
        ) && self.believes;
        // A queued consensus waiter keeps its lease alive too, as an etcd session does.
        let waiting = self.phase == Phase::Waiting;
        if !holding && !waiting {
            return;
        }
        let req = self.new_req();
        self.renew = Some((req, cx.now_local));
        let payload = match cx.lock.kind {
            LockKind::Consensus => Payload::KeepAlive {
                req,
                lease: self.lease.unwrap_or_default(),
            },
            _ => Payload::Extend {
                req,
                value: self.lock_value,
                ttl_ms: cx.lock.ttl_ms,
            },
        };
        cx.fx.send(Dest::LockService, payload);
        cx.fx.after(self.cfg.renew_every_ms, Timer::Renew);
    }
}
