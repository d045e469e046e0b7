//! The worker: a check-then-act payout job behind a lock (acquire -> read status -> work -> write
//! -> release), with the lock client for each kind of lock service.

mod acquire;
mod connect;
mod endpoint;
mod fencing;
mod keepalive;
mod lease;
mod reconnect;
mod redlock;
mod renewal;
mod session;
mod timeouts;

use rand_chacha::ChaCha8Rng;

use super::{Dest, Effects, Timer};
use crate::message::{Payload, ReadResult, WriteResult};
use crate::scenario::{LockKind, WorkerConfig};
use crate::trace::Tag;

/// What every worker knows about the lock service it uses.
#[derive(Debug, Clone, PartialEq)]
pub struct LockParams {
    pub kind: LockKind,
    pub ttl_ms: u64,
    pub key: String,
    pub instances: u32,
    /// Redlock's drift allowance: `ttl * drift_factor + 2 ms`, as redlock-rb computes it.
    pub drift_ms: u64,
    pub instance_timeout_ms: u64,
    pub retry_delay_ms: u64,
    /// Redlock: ask every instance at once rather than in turn.
    pub parallel: bool,
    /// Redlock: rounds before giving up (0: until the acquire timeout).
    pub max_tries: u32,
    pub payouts: u32,
    /// Consensus: how many nodes the client may talk to (its endpoints).
    pub nodes: u32,
}

/// Where a worker is in its job.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Phase {
    Idle,
    Acquiring,
    /// Queued behind another holder (consensus lock).
    Waiting,
    Checking,
    Working,
    Writing,
    Releasing,
    Done,
    /// Fail-closed: would not process without the lock.
    Refused,
    /// Could not get the lock before its acquire timeout.
    GaveUp,
    Crashed,
}

impl Phase {
    /// The lower-case name shown in inspectors.
    pub fn as_str(self) -> &'static str {
        match self {
            Phase::Idle => "idle",
            Phase::Acquiring => "acquiring",
            Phase::Waiting => "waiting",
            Phase::Checking => "checking",
            Phase::Working => "working",
            Phase::Writing => "writing",
            Phase::Releasing => "releasing",
            Phase::Done => "done",
            Phase::Refused => "refused",
            Phase::GaveUp => "gave-up",
            Phase::Crashed => "crashed",
        }
    }

    /// True once the worker will do nothing more.
    pub fn is_terminal(self) -> bool {
        matches!(
            self,
            Phase::Done | Phase::Refused | Phase::GaveUp | Phase::Crashed
        )
    }
}

/// Progress of one Redlock acquisition round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct RedlockRound {
    pub start_local: i64,
    pub next: u32,
    pub successes: u32,
    pub timeouts: u32,
    /// Parallel rounds: the request id sent to instance 0 (instance i got `first_req + i`).
    pub first_req: u64,
    /// Parallel rounds: answers received so far.
    pub replies: u32,
}

/// A worker's state.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Worker {
    pub cfg: WorkerConfig,
    pub phase: Phase,
    /// The fencing token of the current acquisition.
    pub token: Option<u64>,
    /// Whether the worker believes it holds the lock.
    pub believes: bool,
    /// Until when, on its own clock, the worker's lease is valid as far as it knows.
    pub lease_until_local: Option<i64>,
    /// This acquisition's random value (Redis) — only its holder can delete or extend the key.
    pub lock_value: u64,
    /// Whether it holds (or may hold) something at the lock service that it should release.
    pub holds_something: bool,
    /// Processing without the lock's protection (no lock, or fail-open).
    pub unprotected: bool,
    pub acquire_deadline_local: i64,
    /// The last failed acquisition was for want of an answer, not because the lock was taken.
    pub last_failure_unreachable: bool,
    /// The request whose answer the job waits for.
    pub awaiting: Option<u64>,
    pub sent_local: i64,
    pub renew: Option<(u64, i64)>,
    /// When, on its own clock, the next renewal is due: a tick before it (a 500 ms etcd retry an
    /// answer overtook) sends nothing.
    pub next_renew_local: i64,
    /// Consensus, etcd's cadence: when the client's keepalive loops started, on its own clock
    /// (their passes fall on a grid from here).
    pub keepalive_epoch_local: Option<i64>,
    /// Consensus, etcd's cadence: when the client gives its lease up unless an answer comes.
    pub keepalive_deadline_local: i64,
    /// Consensus, etcd's cadence: whether any keepalive of this lease has been answered (until
    /// then the deadline is the first-answer timeout, not a TTL).
    pub keepalive_answered: bool,
    pub next_req: u64,
    pub redlock: RedlockRound,
    /// Consensus: the lease the lock key lives under.
    pub lease: Option<u64>,
    /// Consensus: when the lease began as far as the client can know, on its own clock: the send
    /// time of the grant request or of the last keepalive that was answered (etcd's
    /// `concurrency.Session`), never the time the lock was granted.
    pub lease_from_local: i64,
    /// Consensus: the lease's TTL as the service granted it (raised to its minimum if lower).
    pub granted_ttl_ms: u64,
    /// How many times the current write has been sent again.
    pub write_retries: u32,
    /// Redlock rounds tried so far.
    pub redlock_tries: u32,
    /// Consensus, for a worker that listens to its connection state (`on_suspended`): when it
    /// was suspended (no word from the cluster for 2/3 of the session timeout), on its clock.
    pub suspended: Option<i64>,
    /// Consensus, ZooKeeper-style: connect requests sent since the connection was lost, and the
    /// server it was connected to then (the host list pauses when it comes back round to it).
    pub reconnects: u32,
    pub connected_to: u32,
    /// Consensus, ZooKeeper-style: the client has expired its session itself (LOST).
    pub session_closed: bool,
    /// Consensus, ZooKeeper-style: the unlock waits in the client's queue for a connection.
    pub unlock_queued: bool,
    /// Consensus, ZooKeeper-style: a grant's revision kept for after a reconnect (reconnect.rs).
    pub grant_held: Option<u64>,
    /// Consensus: when the client last heard from the cluster (the answer to its lock request
    /// or to a keepalive), on its own clock.
    pub heard_local: i64,
    /// Consensus: the worker whose etcd session (lease, key name) this one locks with.
    pub session_of: Option<crate::topology::NodeId>,
    /// Consensus: the unlock has been sent a second time (`retry_unlock`).
    pub unlock_retried: bool,
    /// Consensus: the node (0-based) this client sends its requests to. It changes only when the
    /// node knows no leader, the connection breaks or a request goes unanswered, never by magic.
    pub endpoint: u32,
    /// The consensus endpoints whose machines refused this client's connection (bit i = node
    /// i+1): gRPC's balancer leaves a connection that failed out of its picks, so the client
    /// does not try them again while another endpoint remains.
    pub refused_endpoints: u32,
    /// Consensus, etcd: while queued, the revision its watch started from (its own key's), and
    /// the node that holds the watch (none while a resume is on its way to a new endpoint; the
    /// simulator sets it as the resume arrives).
    pub watch_rev: Option<u64>,
    pub watch_at: Option<u32>,
    /// A retry of the watch resume is scheduled.
    pub watch_retry_armed: bool,
    /// The endpoint the last request to resume the watch went to.
    pub watch_asked: Option<u32>,
    /// ZooKeeper-style: when (own clock) the send loop woke late, after a pause, and left its
    /// checks to the next millisecond so that the worker's own thread runs first.
    pub send_loop_late: Option<i64>,
    /// Consensus: the first of this session's lock requests, while none has been answered.
    pub first_lock_req: Option<u64>,
    /// When, on its own clock, the worker last sent its unlock.
    pub unlock_sent_local: i64,
    /// When, on its own clock, the worker began to release the lock.
    pub release_started_local: i64,
}

/// What a worker sees while it reacts.
#[derive(Debug)]
pub struct WorkerCtx<'a> {
    pub name: &'a str,
    pub now_local: i64,
    pub lock: &'a LockParams,
    pub rng: &'a mut ChaCha8Rng,
    pub fx: &'a mut Effects,
}

impl Worker {
    pub fn new(cfg: WorkerConfig) -> Self {
        Worker {
            cfg,
            phase: Phase::Idle,
            token: None,
            believes: false,
            lease_until_local: None,
            lock_value: 0,
            holds_something: false,
            unprotected: false,
            acquire_deadline_local: 0,
            last_failure_unreachable: false,
            awaiting: None,
            sent_local: 0,
            renew: None,
            next_renew_local: 0,
            keepalive_epoch_local: None,
            keepalive_deadline_local: 0,
            keepalive_answered: false,
            next_req: 1,
            redlock: RedlockRound::default(),
            lease: None,
            lease_from_local: 0,
            granted_ttl_ms: 0,
            write_retries: 0,
            redlock_tries: 0,
            suspended: None,
            reconnects: 0,
            connected_to: 0,
            session_closed: false,
            unlock_queued: false,
            grant_held: None,
            heard_local: 0,
            endpoint: 0,
            refused_endpoints: 0,
            session_of: None,
            unlock_retried: false,
            first_lock_req: None,
            watch_rev: None,
            watch_at: None,
            watch_retry_armed: false,
            watch_asked: None,
            send_loop_late: None,
            unlock_sent_local: 0,
            release_started_local: 0,
        }
    }

    fn new_req(&mut self) -> u64 {
        let req = self.next_req;
        self.next_req += 1;
        req
    }

    /// The token the worker attaches to database accesses.
    fn db_token(&self) -> Option<u64> {
        if self.cfg.fencing && !self.unprotected {
            self.token
        } else {
            None
        }
    }

    pub fn on_timer(&mut self, timer: Timer, cx: &mut WorkerCtx<'_>) {
        match timer {
            Timer::Start => self.start(cx),
            Timer::Retry if self.phase == Phase::Acquiring => self.acquire(cx),
            Timer::Retry if self.phase == Phase::Releasing && self.awaiting.is_none() => {
                self.send_unlock(None, cx)
            }
            Timer::RequestTimeout(req) if self.awaiting == Some(req) => self.timed_out(cx),
            Timer::AcquireDeadline if self.phase == Phase::Waiting => {
                self.last_failure_unreachable = false;
                self.give_up(cx);
            }
            Timer::WorkDone if self.phase == Phase::Working => self.work_done(cx),
            Timer::SendWrite if self.phase == Phase::Working => self.write(cx),
            Timer::Renew => self.renew(cx),
            Timer::WatchResume => {
                self.watch_retry_armed = false;
                self.resume_watch(cx);
            }
            Timer::KeepAliveDeadline { deadline_local } => {
                self.keepalive_deadline(deadline_local, cx)
            }
            Timer::SilenceCheck { heard_local } => self.silence_check(heard_local, cx),
            Timer::Reconnect { suspended_local } => self.reconnect(suspended_local, cx),
            Timer::SynRetry {
                suspended_local,
                attempt,
            } => self.syn_retry(suspended_local, attempt, cx),
            Timer::ConnectTimeout {
                suspended_local,
                attempt,
            } => self.connect_timed_out(suspended_local, attempt, cx),
            Timer::CuratorExpiry { suspended_local } => self.curator_expiry(suspended_local, cx),
            Timer::ConnectionClosed { instance, refused } => {
                self.connection_closed(instance, refused, cx)
            }
            _ => {}
        }
    }

    fn start(&mut self, cx: &mut WorkerCtx<'_>) {
        self.acquire_deadline_local = cx.now_local + self.cfg.acquire_timeout_ms as i64;
        if cx.lock.kind == LockKind::None {
            self.unprotected = true;
            cx.fx.note(
                format!("{} starts the job (no lock)", cx.name),
                format!("{} runs the payout job without any lock: nothing stops another worker from running it at the same time.", cx.name),
            );
            self.check(cx);
            return;
        }
        self.phase = Phase::Acquiring;
        // A ZooKeeper-style client's host list pauses when it comes back round to the first.
        self.connected_to = self.endpoint;
        self.acquire(cx);
    }

    fn believe(&mut self, cx: &mut WorkerCtx<'_>) {
        self.believes = true;
        let name = cx.name;
        let (label, token_text) = match self.token {
            Some(t) => (
                format!("{name} holds the lock (token {t})"),
                format!(" with fencing token {t}"),
            ),
            None => (format!("{name} holds the lock"), String::new()),
        };
        let now = cx.now_local;
        let until = self.lease_until_local.map_or(String::new(), |u| {
            if now > u {
                // Counted from the send, the lease was over before the answer arrived.
                format!(" But {name} receives the grant {} ms after its lease, counted from when it asked, already ran out (at {u} ms on its own clock); a plain client carries on all the same, and will not look at a clock again unless it is told to.", now - u)
            } else {
                format!(" Its lease is good until {u} ms on its own clock, but it will not look at a clock again unless it is told to.")
            }
        });
        cx.fx.state(
            label,
            format!("From here {name} acts as the only holder{token_text}.{until}"),
            Some(Tag::Believes { token: self.token }),
        );
    }

    pub(super) fn stop_believing_tag(&mut self) -> Option<Tag> {
        if self.believes {
            self.believes = false;
            Some(Tag::StopsBelieving)
        } else {
            None
        }
    }

    fn check(&mut self, cx: &mut WorkerCtx<'_>) {
        self.phase = Phase::Checking;
        let token = self.db_token();
        let timeout = self.cfg.request_timeout_ms;
        self.request(cx, Dest::Db, |req| Payload::Read { req, token }, timeout);
    }

    pub fn on_message(&mut self, payload: Payload, cx: &mut WorkerCtx<'_>) {
        let name = cx.name;
        // ZooKeeper's send loop checks its silence before it reads what the connection holds
        // (ClientCnxn.SendThread.run): after a pause, an answer that waited is never read if
        // the read timeout or the session's expiry comes first. A grant is not lost with it:
        // the server fires the watch again when the session reconnects (SetWatches).
        let from_cluster = matches!(
            payload,
            Payload::LockReply { .. }
                | Payload::LockGranted { .. }
                | Payload::SessionGone { .. }
                | Payload::KeepAliveReply { .. }
                | Payload::UnlockReply { .. }
        );
        if from_cluster && self.zookeeper_style() && self.send_loop_wakes(cx) {
            if let Payload::LockGranted { lease, rev } = payload
                && self.phase == Phase::Waiting
                && self.lease == Some(lease)
            {
                self.grant_held = Some(rev);
            }
            return;
        }
        match payload {
            Payload::SetReply { req, ok, .. }
                if cx.lock.parallel && self.in_parallel_round(req, cx) =>
            {
                self.redlock_parallel_reply(ok, cx);
            }
            Payload::SetReply { req, ok, token } if self.awaiting == Some(req) => {
                self.awaiting = None;
                if cx.lock.kind == LockKind::Redlock {
                    if ok {
                        self.redlock.successes += 1;
                    }
                    self.redlock.next += 1;
                    self.redlock_next(cx);
                } else if ok {
                    self.token = token;
                    self.lease_until_local = Some(self.sent_local + cx.lock.ttl_ms as i64);
                    self.believe(cx);
                    self.check(cx);
                } else {
                    self.holds_something = false;
                    self.last_failure_unreachable = false;
                    let retry = self.cfg.retry_ms;
                    self.retry_after(cx, retry);
                }
            }
            Payload::LockReply {
                req,
                lease,
                rev,
                owner_now,
                ttl_ms,
            } if self.awaiting == Some(req) => {
                self.awaiting = None;
                self.first_lock_req = None;
                self.granted_ttl_ms = ttl_ms;
                self.lock_reply(lease, rev, owner_now, cx);
            }
            Payload::LockReply { rev, owner_now, .. } => self.late_lock_reply(rev, owner_now, cx),
            Payload::LockGranted { lease, rev }
                if self.phase == Phase::Waiting && self.lease == Some(lease) =>
            {
                self.granted_or_held(rev, cx);
            }
            Payload::ReadReply { req, result } if self.awaiting == Some(req) => {
                self.awaiting = None;
                match result {
                    ReadResult::Unpaid => {
                        self.phase = Phase::Working;
                        cx.fx.after(self.cfg.work_ms, Timer::WorkDone);
                        if cx.lock.kind == LockKind::Redis {
                            self.schedule_renew(cx);
                        }
                    }
                    ReadResult::Paid => {
                        cx.fx.note(
                            format!("{name}: already paid, nothing to do"),
                            format!("The check found the batch paid, so {name} skips the work. This is the check that a stale holder skipped: it had checked earlier."),
                        );
                        self.release(cx);
                    }
                    ReadResult::Rejected(why) => {
                        self.fenced_off(
                            &why,
                            "Its check was refused before it wrote anything.",
                            cx,
                        );
                        self.release(cx);
                    }
                }
            }
            // It stopped working (SUSPENDED) while its write was on its way, and is releasing
            // already: the answer changes nothing, and its queued delete still waits.
            Payload::WriteReply { req, .. }
                if self.awaiting == Some(req) && self.phase == Phase::Releasing =>
            {
                self.awaiting = None;
            }
            Payload::WriteReply { req, result } if self.awaiting == Some(req) => {
                self.awaiting = None;
                match result {
                    WriteResult::Rejected(why) => self.fenced_off(&why, "Its payouts were never applied.", cx),
                    WriteResult::NothingToUpdate => cx.fx.note(
                        format!("{name}: nothing to update"),
                        format!("{name}'s conditional write found the batch already paid, so it paid nothing. Whatever {name} believed about its lock, the database kept the batch paid once."),
                    ),
                    WriteResult::KeyReused => cx.fx.note(
                        format!("{name}'s write is refused"),
                        format!("{name} sent the same idempotency keys with a different amount; the database refuses the whole write instead of paying either amount twice."),
                    ),
                    WriteResult::Applied { .. } => {}
                }
                self.release(cx);
            }
            Payload::KeepAliveReply { .. }
                if self.keepalive_deadline_local == keepalive::GAVE_UP
                    && !self.phase.is_terminal() =>
            {
                self.answer_after_giving_up(cx);
            }
            Payload::ExtendReply { req, ok } | Payload::KeepAliveReply { req, ok, .. }
                if self.renew.is_some_and(|(r, _)| r == req) =>
            {
                self.renew_answered(ok, cx);
            }
            Payload::NotLeader { req } => self.no_leader(req, cx),
            Payload::NotServing { closing, instance } => self.not_serving(instance, closing, cx),
            Payload::SessionGone { lease, rev }
                if self.phase == Phase::Waiting && self.lease == Some(lease) =>
            {
                self.session_gone(rev, cx);
            }
            Payload::DelReply { req, .. }
            | Payload::DelPlainReply { req, .. }
            | Payload::UnlockReply { req, .. }
                if self.awaiting == Some(req) =>
            {
                self.awaiting = None;
                self.finish(cx, "done");
            }
            _ => {}
        }
    }

    fn work_done(&mut self, cx: &mut WorkerCtx<'_>) {
        let name = cx.name;
        if self.cfg.check_lease_before_write && !self.unprotected {
            let remaining = self.lease_until_local.map_or(0, |u| u - cx.now_local);
            if remaining <= 0 || !self.believes {
                let tag = self.stop_believing_tag();
                cx.fx.state(
                    format!("lease check: expired {} ms ago, abandon", -remaining),
                    format!("{name} looks at its clock before writing: the lease has run out, so it does not write."),
                    tag,
                );
                self.release(cx);
                return;
            }
            cx.fx.state(
                format!("lease check: {remaining} ms left, write"),
                format!("{name} checks its lease right before writing: {remaining} ms left, so writing looks safe. But nothing stops a pause between this check and the write."),
                None,
            );
            cx.fx.after(0, Timer::SendWrite);
            return;
        }
        self.write(cx);
    }

    fn write(&mut self, cx: &mut WorkerCtx<'_>) {
        self.phase = Phase::Writing;
        let token = self.db_token();
        let keys = self.cfg.idempotency_keys;
        let payouts = cx.lock.payouts;
        let amount_cents = self.cfg.amount_cents;
        let timeout = self.cfg.request_timeout_ms;
        self.request(
            cx,
            Dest::Db,
            |req| Payload::Write {
                req,
                token,
                keys,
                payouts,
                amount_cents,
            },
            timeout,
        );
    }

    pub(super) fn release(&mut self, cx: &mut WorkerCtx<'_>) {
        let tag = self.stop_believing_tag();
        if !self.holds_something || self.unprotected {
            if tag.is_some() {
                cx.fx.state(format!("{} stops", cx.name), "", tag);
            }
            self.finish(cx, "done");
            return;
        }
        self.holds_something = false;
        self.phase = Phase::Releasing;
        self.release_started_local = cx.now_local;
        let timeout = self.cfg.request_timeout_ms;
        match cx.lock.kind {
            LockKind::Redis => {
                let req = self.new_req();
                self.awaiting = Some(req);
                let release = if self.cfg.unsafe_release {
                    Payload::DelPlain { req }
                } else {
                    Payload::Del {
                        req,
                        value: self.lock_value,
                    }
                };
                cx.fx.send_tagged(Dest::LockService, release, tag);
                cx.fx.after(timeout, Timer::RequestTimeout(req));
            }
            LockKind::Redlock => {
                for i in 0..cx.lock.instances {
                    let req = self.new_req();
                    let t = if i == 0 { tag.clone() } else { None };
                    cx.fx.send_tagged(
                        Dest::Instance(i),
                        Payload::Del {
                            req,
                            value: self.lock_value,
                        },
                        t,
                    );
                }
                // The model's Redlock client does not wait for the unlocks' answers: nothing it
                // does next depends on them. Say so, since the answers arrive after "done".
                self.phase = Phase::Done;
                self.awaiting = None;
                cx.fx.state(
                    format!("{} done", cx.name),
                    format!(
                        "{} has sent its unlock to every instance and finished its job. It does not wait for their answers here; real Redlock clients do, but ignore failures: a key an instance did not delete expires at its TTL.",
                        cx.name
                    ),
                    None,
                );
            }
            LockKind::Consensus => self.send_unlock(tag, cx),
            LockKind::None => self.finish(cx, "done"),
        }
    }

    pub(super) fn finish(&mut self, cx: &mut WorkerCtx<'_>, what: &str) {
        self.phase = Phase::Done;
        self.awaiting = None;
        cx.fx.state(
            format!("{} {what}", cx.name),
            format!("{} has finished its job.", cx.name),
            None,
        );
    }

    /// The worker's process dies.
    pub fn crash(&mut self) -> Option<Tag> {
        self.phase = Phase::Crashed;
        self.awaiting = None;
        self.stop_believing_tag()
    }
}

#[cfg(test)]
mod tests;
