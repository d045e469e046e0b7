//! Keeping a lease alive: Redis `PEXPIRE`-style extension every `renew_every_ms`, or a consensus
//! keepalive, which etcd's `concurrency.Session` always sends (every TTL/3 unless told otherwise).

use super::{Phase, Worker, WorkerCtx};
use crate::actors::{Dest, Timer};
use crate::message::Payload;
use crate::scenario::{LockKind, OnSuspended};
use crate::trace::Tag;

impl Worker {
    pub(super) fn schedule_renew(&mut self, cx: &mut WorkerCtx<'_>) {
        let every = self.renew_interval(cx);
        if every > 0 {
            cx.fx.after(every, Timer::Renew);
        }
    }

    /// How often the lease is renewed: `renew_every_ms`, or for a consensus session, whose
    /// keepalives always run, a third of the TTL granted (clientv3's keepalive loop).
    fn renew_interval(&self, cx: &WorkerCtx<'_>) -> u64 {
        if self.cfg.renew_every_ms > 0 {
            self.cfg.renew_every_ms
        } else if cx.lock.kind == LockKind::Consensus {
            (self.granted_ttl_ms / 3).max(1)
        } else {
            0
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
        let to = if cx.lock.kind == LockKind::Consensus {
            self.endpoint_dest()
        } else {
            Dest::LockService
        };
        cx.fx.send(to, payload);
        let every = self.renew_interval(cx);
        cx.fx.after(every, Timer::Renew);
        if cx.lock.kind == LockKind::Consensus {
            let sent_local = cx.now_local;
            cx.fx.after(
                self.cfg.request_timeout_ms,
                Timer::KeepAliveDue { sent_local },
            );
        }
    }

    /// A keepalive went unanswered for a request timeout: unless a later one was answered, the
    /// session is SUSPENDED (Curator): the client cannot be sure it still holds the lock.
    pub(super) fn keepalive_due(&mut self, sent_local: i64, cx: &mut WorkerCtx<'_>) {
        if self.lease_from_local < sent_local && self.renew.is_some() {
            // Unanswered: the client moves to its next endpoint for the next keepalive.
            self.next_endpoint(cx);
        }
        let holding = self.believes
            && matches!(
                self.phase,
                Phase::Checking | Phase::Working | Phase::Writing
            );
        if self.suspended || self.lease_from_local >= sent_local || !holding {
            return;
        }
        self.suspended = true;
        let name = cx.name;
        let until = self.lease_end();
        let stop = self.cfg.on_suspended == Some(OnSuspended::Stop);
        let choice = if stop {
            format!(
                "{name} treats SUSPENDED as lost, as Curator's documentation advises for locks, and stops working under the lock."
            )
        } else {
            format!(
                "{name} carries on as if nothing happened, as code that ignores its session does; its lease, as far as it can know, ends at {until} ms on its clock."
            )
        };
        cx.fx.state(
            format!("{name}'s session is suspended"),
            format!("No answer to {name}'s keepalive within {} ms: {name} cannot be sure it still holds the lock (Curator's SUSPENDED; etcd's session sees its keepalives fail). {choice}", self.cfg.request_timeout_ms),
            None,
        );
        cx.fx.at(until, Timer::SessionLost);
        if stop {
            let tag = self.stop_believing_tag();
            cx.fx.state(format!("{name} stops working"), format!("{name} abandons the job before writing: it will not act on a lock it may have lost."), tag);
            self.release(cx);
        }
    }

    /// The lease surely ran out with no keepalive answered: the session is LOST (Curator).
    pub(super) fn session_lost(&mut self, cx: &mut WorkerCtx<'_>) {
        if !self.suspended || self.phase.is_terminal() {
            return;
        }
        let name = cx.name;
        let what = "its lease has surely run out by its own clock with no keepalive answered: it certainly no longer holds the lock (Curator's LOST).";
        if self.cfg.on_suspended == Some(OnSuspended::Stop) {
            cx.fx.tagged_note(
                format!("{name}'s session is lost"),
                format!("For {name}, {what} It had already stopped."),
                Some(Tag::SessionLost),
            );
            return;
        }
        cx.fx.tagged_note(
            format!("{name}'s session is lost"),
            format!("For {name}, {what} But {name} ignores its session and keeps working as if it still held the lock."),
            Some(Tag::SessionLost),
        );
    }
}
