//! Keeping a lease alive: a Redis compare-and-extend (`SET … IFEQ`) every `renew_every_ms`, or a consensus
//! keepalive, which etcd's `concurrency.Session` always sends (at etcd's own cadence, keepalive.rs,
//! unless the scenario sets an interval).

use super::keepalive::SEND_PASS_MS;
use super::{Phase, Worker, WorkerCtx};
use crate::actors::{Dest, Timer};
use crate::message::Payload;
use crate::scenario::{LockKind, OnSuspended};
use crate::trace::Tag;

/// What the cluster does with a session its client has lost: a leader expires it, with the
/// lock node; a cluster without a quorum expires nothing until it has a leader again.
const CLUSTER_EXPIRES: &str =
    "In the cluster the session ends only when a leader expires it, with its lock node.";

impl Worker {
    pub(super) fn schedule_renew(&mut self, cx: &mut WorkerCtx<'_>) {
        if self.etcd_cadence(cx) {
            self.start_keepalives(cx);
            return;
        }
        let every = self.renew_interval(cx);
        if every > 0 {
            self.next_renew_local = cx.now_local + every as i64;
            cx.fx.after(every, Timer::Renew);
        }
    }

    /// Whether keepalives follow etcd's own cadence (TTL/3 after each answer, 500 ms retries)
    /// rather than a fixed interval: the scenario's, or a ZooKeeper client's own, which pings
    /// once it has sent nothing for a third of the session timeout (see [`Self::renew_interval`]).
    pub(super) fn etcd_cadence(&self, cx: &WorkerCtx<'_>) -> bool {
        cx.lock.kind == LockKind::Consensus
            && self.cfg.renew_every_ms == 0
            && !self.zookeeper_style()
    }

    /// A keepalive was answered: etcd's client sends the next one TTL/3 later.
    pub(super) fn keepalive_answered(&mut self, cx: &mut WorkerCtx<'_>) {
        if self.etcd_cadence(cx) {
            self.etcd_keepalive_answered(cx);
        }
    }

    /// The lease is gone: etcd's client drops it from its keepalive loop.
    pub(super) fn stop_keepalives(&mut self) {
        self.next_renew_local = i64::MAX;
    }

    /// How often the lease is renewed: `renew_every_ms`, or for a consensus session, whose
    /// keepalives always run, a third of the TTL granted: clientv3's keepalive loop, and a
    /// ZooKeeper client's ping once it has sent nothing for that long (ClientCnxn: readTimeout/2
    /// with readTimeout 2/3 of the session timeout; each ping is a send, so they come a third
    /// of the timeout apart).
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
        // A queued consensus waiter keeps its lease alive too, as an etcd session does; and a
        // ZooKeeper client pings while its delete is on its way: ClientCnxn pings by the time
        // since it last sent anything, whatever it waits for.
        let waiting = self.phase == Phase::Waiting
            || (self.phase == Phase::Releasing && self.zookeeper_style() && !self.session_closed);
        // A retry tick that an answer overtook: the answer has scheduled the next keepalive (for a
        // ZooKeeper-style client, a reconnection restarted its pings).
        let overtaken = (self.etcd_cadence(cx) || self.zookeeper_style())
            && cx.now_local < self.next_renew_local;
        if !holding && !waiting {
            self.stop_keepalives();
            return;
        }
        if overtaken {
            return;
        }
        // A ZooKeeper-style client sends no pings while it has no connection (reconnect.rs):
        // the loop stops, and starts again if the session reconnects.
        if self.disconnected() {
            self.stop_keepalives();
            return;
        }
        // ZooKeeper's send loop checks the silence before it pings: after a pause, the read
        // timeout or the client's own expiry comes first, and no ping goes.
        if self.send_loop_wakes(cx) {
            return;
        }
        let req = self.new_req();
        self.renew = Some((req, cx.now_local));
        let payload = match cx.lock.kind {
            LockKind::Consensus => Payload::KeepAlive {
                req,
                lease: self.lease.unwrap_or_default(),
                packet: self.session_packet(),
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
        let next = if self.etcd_cadence(cx) {
            // One keepalive a pass: another tick due at this same instant sends nothing.
            self.next_renew_local = cx.now_local + SEND_PASS_MS;
            SEND_PASS_MS as u64
        } else {
            self.renew_interval(cx)
        };
        // An unanswered keepalive does not move the client: clientv3 sends every keepalive on one
        // gRPC stream and replaces it only when the stream breaks, which a silent partition does
        // not do (gRPC keepalive is off by default); ZooKeeper's client moves at its read timeout
        // (silence_check).
        cx.fx.after(next, Timer::Renew);
    }

    /// The cluster answered: a worker that listens to its connection state starts the clock
    /// ZooKeeper's client runs on every read (Disconnected after 2/3 of the session timeout
    /// without a word; ClientCnxn's readTimeout).
    pub(super) fn heard_from_cluster(&mut self, cx: &mut WorkerCtx<'_>) {
        self.heard_local = cx.now_local;
        if self.cfg.on_suspended.is_some() {
            cx.fx.after(
                self.silence_limit_ms(),
                Timer::SilenceCheck {
                    heard_local: cx.now_local,
                },
            );
        }
    }

    fn silence_limit_ms(&self) -> u64 {
        self.granted_ttl_ms * 2 / 3
    }

    /// Nothing heard from the cluster for 2/3 of the session timeout: ZooKeeper's client reports
    /// Disconnected and Curator SUSPENDED: the worker cannot be sure it still holds the lock.
    pub(super) fn silence_check(&mut self, heard_local: i64, cx: &mut WorkerCtx<'_>) {
        if self.heard_local != heard_local {
            return;
        }
        self.send_loop_wakes(cx);
    }

    /// ZooKeeper's send loop wakes (its read timeout is up, or a ping is due) and first checks
    /// how long it has heard nothing (ClientCnxn.SendThread.run): 4/3 of the session timeout
    /// expire the session on the client (3.9.3+, ZOOKEEPER-4508) and Curator reports LOST; 2/3
    /// (the read timeout) report Disconnected and Curator SUSPENDED. After a pause both can be
    /// long past. Returns whether either happened.
    pub(super) fn send_loop_wakes(&mut self, cx: &mut WorkerCtx<'_>) -> bool {
        if !self.zookeeper_style() || !self.may_suspend() {
            return false;
        }
        let silent = cx.now_local - self.heard_local;
        let limit = self.silence_limit_ms() as i64;
        if silent < limit {
            return false;
        }
        // Woken late, after a pause: the worker's own thread, resumed at the same instant, runs
        // on first (a write whose time came goes out), and ZooKeeper's event thread hands the
        // state change to Curator's listeners a moment later.
        if silent > limit && self.send_loop_late.is_none_or(|at| at > cx.now_local) {
            if self.send_loop_late.is_none() {
                self.send_loop_late = Some(cx.now_local + 1);
                cx.fx.after(
                    1,
                    Timer::SilenceCheck {
                        heard_local: self.heard_local,
                    },
                );
            }
            return true;
        }
        self.send_loop_late = None;
        if silent >= (self.granted_ttl_ms * 4 / 3) as i64 {
            self.session_lost(silent, false, cx);
            return true;
        }
        let name = cx.name;
        let connected_to = self.endpoint;
        let moves = self.next_server_after_read_timeout(silent == limit, cx);
        let late = if silent > limit {
            format!(
                " (its read timeout was up at {limit} ms; the client checks when its send loop wakes)"
            )
        } else {
            String::new()
        };
        let why = format!(
            "{name} has heard nothing from the cluster for {silent} ms, 2/3 of its {} ms session timeout or more{late}: ZooKeeper's client reports Disconnected and Curator SUSPENDED.{moves}",
            self.granted_ttl_ms
        );
        self.suspend(connected_to, &why, cx);
        true
    }

    /// A holder that treats SUSPENDED or LOST as lost stops working under the lock and releases
    /// it. A write already on its way cannot be called back.
    fn stop_working(&mut self, cx: &mut WorkerCtx<'_>) {
        let name = cx.name;
        let tag = self.stop_believing_tag();
        let what = if self.phase == Phase::Writing {
            format!(
                "{name} stops working under the lock, but its write has already gone to the database: stopping now cannot call it back. Only a check at the database (a fencing token) could refuse it."
            )
        } else {
            format!(
                "{name} abandons the job before writing: it will not act on a lock it may have lost."
            )
        };
        cx.fx.state(format!("{name} stops working"), what, tag);
        self.release(cx);
    }

    /// Whether losing the connection now suspends the client: it has a session (it has asked
    /// for the lock, and is not done), is connected, and the session is not over.
    pub(super) fn may_suspend(&self) -> bool {
        self.suspended.is_none()
            && !self.session_closed
            && self.lease.is_some()
            && !self.phase.is_terminal()
    }

    /// Whether the worker believes it holds the lock and works under it.
    fn holding(&self) -> bool {
        self.believes
            && matches!(
                self.phase,
                Phase::Checking | Phase::Working | Phase::Writing
            )
    }

    /// SUSPENDED (`why` says how the client lost its connection to `connected_to`): the client
    /// reconnects, and a holder either stops or carries on, as it is written to; a waiter waits
    /// on, and an unlock in flight waits in the client's queue.
    pub(super) fn suspend(&mut self, connected_to: u32, why: &str, cx: &mut WorkerCtx<'_>) {
        self.suspended = Some(cx.now_local);
        // The client closes the connection (ClientCnxn cleanup): an answer to a ping still on
        // its way, even one arriving this very millisecond, is never read.
        self.renew = None;
        let name = cx.name;
        self.start_reconnecting(connected_to, cx);
        if !self.holding() {
            let now = if self.phase == Phase::Releasing {
                // The delete it sent may never have arrived: Curator's guaranteed delete sends it
                // again once a server takes the session (FailedOperationManager).
                if self.awaiting.take().is_some() {
                    self.unlock_queued = true;
                }
                format!(
                    "{name} is releasing the lock: its delete fails with CONNECTIONLOSS, and Curator's guaranteed delete keeps it to send again once a server takes the session."
                )
            } else {
                format!(
                    "{name} does not hold the lock: Curator's lock recipe waits on, and its lock node stays while the session lives, so there is nothing to stop."
                )
            };
            cx.fx.state(
                format!("{name}'s session is suspended"),
                format!("{why} {now}"),
                Some(Tag::SessionSuspended),
            );
            return;
        }
        let stop = self.cfg.on_suspended == Some(OnSuspended::Stop);
        let choice = if stop {
            format!(
                "{name} stops working under the lock, as Curator's lock recipe advises: after SUSPENDED it cannot be certain that it still holds the lock until RECONNECTED, and only LOST says for certain that it does not."
            )
        } else {
            format!(
                "{name} carries on as if nothing happened, as code that ignores its connection state does."
            )
        };
        cx.fx.state(
            format!("{name}'s session is suspended"),
            format!(
                "{why} {name} cannot be sure it still holds the lock. (etcd's client has no such state: its Session.Done() closes once no keepalive has been answered for a whole TTL, or when an answer says the lease is gone: a notification, not a warning.) {choice}"
            ),
            Some(Tag::SessionSuspended),
        );
        // ZooKeeper 3.9.3+ expires the session on the client once 4/3 of the session timeout
        // have passed without a word (ZOOKEEPER-4508), checked when a connection attempt ends
        // (reconnect.rs). Curator then reports LOST.
        if stop {
            self.stop_working(cx);
        }
    }

    /// LOST while waiting for the lock: Curator's acquire fails with the session (its lock node
    /// goes with it); the job opens a new session (a new ZooKeeper handle) and asks again.
    fn new_session_after_lost(&mut self, what: &str, cx: &mut WorkerCtx<'_>) {
        let name = cx.name;
        cx.fx.tagged_note(
            format!("{name}'s session is lost"),
            format!("For {name}, {what} {name} was waiting for the lock: Curator's acquire fails (SESSIONEXPIRED), and {name} asks again on a new session."),
            Some(Tag::SessionLost),
        );
        self.ask_again_on_a_new_session(cx);
    }

    /// A new session (etcd's, or a new ZooKeeper handle): none of the old one's state is kept,
    /// and the job asks for the lock again.
    pub(super) fn ask_again_on_a_new_session(&mut self, cx: &mut WorkerCtx<'_>) {
        self.session_closed = false;
        self.first_lock_req = None;
        self.suspended = None;
        self.unlock_queued = false;
        self.grant_held = None;
        self.lease = None;
        self.token = None;
        self.holds_something = false;
        self.renew = None;
        self.awaiting = None;
        self.last_failure_unreachable = false;
        self.phase = Phase::Acquiring;
        // A new ZooKeeper handle starts its host list at the server it tries first.
        self.connected_to = self.endpoint;
        let retry = self.cfg.retry_ms;
        self.retry_after(cx, retry);
    }

    /// LOST: `silent` ms without a word from the cluster, found by ZooKeeper's client (4/3 of the
    /// session timeout or more, when its send loop wakes) or by Curator (`by_curator`: a whole
    /// session timeout SUSPENDED), whichever comes first.
    pub(super) fn session_lost(&mut self, silent: i64, by_curator: bool, cx: &mut WorkerCtx<'_>) {
        self.session_closed = true;
        let name = cx.name;
        let ttl = self.granted_ttl_ms;
        let what = if by_curator {
            format!(
                "the client has been SUSPENDED for a whole {ttl} ms session timeout, so Curator injects the session's expiry and reports LOST (ConnectionStateManager.checkSessionExpiration), before ZooKeeper's client noticed: it checks its own 4/3 limit only when its send loop wakes. {CLUSTER_EXPIRES}"
            )
        } else {
            format!(
                "{silent} ms have passed since the client last heard from the cluster, at least 4/3 of the {ttl} ms session timeout, so ZooKeeper's client (3.9.3 and later) expires the session itself and Curator reports LOST. The client checks this when its send loop wakes, not at the 4/3 mark itself; Curator's own check would have come a whole session timeout after SUSPENDED. {CLUSTER_EXPIRES}"
            )
        };
        if matches!(self.phase, Phase::Acquiring | Phase::Waiting) {
            self.new_session_after_lost(&what, cx);
            return;
        }
        // LOST with no SUSPENDED before it (the client's own 4/3 check after a pause): a holder
        // written to stop stops now.
        if self.cfg.on_suspended == Some(OnSuspended::Stop) && self.holding() {
            cx.fx.tagged_note(
                format!("{name}'s session is lost"),
                format!("For {name}, {what} {name} treats LOST as the end of its lock, as it would SUSPENDED."),
                Some(Tag::SessionLost),
            );
            self.stop_working(cx);
            self.drop_queued(false, cx);
            return;
        }
        // A worker that finished, or stopped at SUSPENDED, is releasing: "stopped" would not be
        // true of the one that finished.
        if self.cfg.on_suspended == Some(OnSuspended::Stop) && self.phase != Phase::Releasing {
            cx.fx.tagged_note(
                format!("{name}'s session is lost"),
                format!("For {name}, {what} It had already stopped."),
                Some(Tag::SessionLost),
            );
            self.drop_queued(false, cx);
            return;
        }
        let then = if self.phase == Phase::Releasing {
            format!("{name} was releasing the lock.")
        } else {
            format!(
                "But {name} ignores its session and keeps working as if it still held the lock."
            )
        };
        cx.fx.tagged_note(
            format!("{name}'s session is lost"),
            format!("For {name}, {what} {then}"),
            Some(Tag::SessionLost),
        );
        self.drop_queued(false, cx);
    }
}
