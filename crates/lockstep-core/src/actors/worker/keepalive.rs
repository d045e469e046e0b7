//! etcd's client-side keepalive loop, for a consensus worker left to etcd's own cadence: the first
//! keepalive goes at once, later ones on the loop's 500 ms passes, TTL/3 after each answer (every
//! pass while unanswered), and the lease is given up on the client's own deadline (clientv3
//! lease.go: KeepAlive, sendKeepAliveLoop, deadlineLoop).

use super::{Phase, Worker, WorkerCtx};
use crate::actors::{Timer, next_pass};

/// The send loop's pass: `retryConnWait`. An unanswered keepalive is sent again on every pass.
pub(super) const SEND_PASS_MS: i64 = 500;
/// How long the client waits for the first answer before giving the lease up
/// (`firstKeepAliveTimeout`: the dial timeout + 1 s, or `defaultTTL`, 5 s, when none is set).
const FIRST_ANSWER_TIMEOUT_MS: i64 = 5000;
/// How often `deadlineLoop` looks for leases whose deadline has passed.
const DEADLINE_PASS_MS: i64 = 1000;

impl Worker {
    /// `KeepAlive()` for a new lease: the next pass of the send loop sends at once, and the
    /// deadline starts at the first-answer timeout.
    pub(super) fn start_keepalives(&mut self, cx: &mut WorkerCtx<'_>) {
        self.renew_on_pass(cx.now_local, cx);
        self.keepalive_answered = false;
        self.set_keepalive_deadline(cx.now_local + FIRST_ANSWER_TIMEOUT_MS, cx);
    }

    /// An answer: the next keepalive is due TTL/3 from now, sent on the first pass after that, and
    /// the deadline moves to now + TTL (the time the answer arrived, not when the leader wrote it).
    pub(super) fn etcd_keepalive_answered(&mut self, cx: &mut WorkerCtx<'_>) {
        let ttl = self.granted_ttl_ms as i64;
        self.keepalive_answered = true;
        self.renew_on_pass(cx.now_local + ttl / 3, cx);
        self.set_keepalive_deadline(cx.now_local + ttl, cx);
    }

    /// The next keepalive is due at `due`: the send loop sends it on its first pass from then.
    fn renew_on_pass(&mut self, due: i64, cx: &mut WorkerCtx<'_>) {
        let epoch = *self.keepalive_epoch_local.get_or_insert(cx.now_local);
        self.next_renew_local = due;
        let at = next_pass(epoch, due, SEND_PASS_MS);
        cx.fx.after((at - cx.now_local) as u64, Timer::Renew);
    }

    fn set_keepalive_deadline(&mut self, deadline_local: i64, cx: &mut WorkerCtx<'_>) {
        self.keepalive_deadline_local = deadline_local;
        let epoch = self.keepalive_epoch_local.unwrap_or(cx.now_local);
        // The deadline loop closes a lease on its first pass after the deadline.
        let at = next_pass(epoch, deadline_local + 1, DEADLINE_PASS_MS);
        cx.fx.after(
            (at - cx.now_local).max(0) as u64,
            Timer::KeepAliveDeadline { deadline_local },
        );
    }

    /// A deadline pass: if no answer moved the deadline, the client gives the lease up.
    pub(super) fn keepalive_deadline(&mut self, deadline_local: i64, cx: &mut WorkerCtx<'_>) {
        let live = self.next_renew_local != i64::MAX;
        if self.keepalive_deadline_local != deadline_local || !live || self.phase.is_terminal() {
            return;
        }
        self.stop_keepalives();
        // The client deletes the lease from its keepalives: an answer still on its way is
        // discarded (lease.go recvKeepAlive returns when the lease is not in l.keepAlives).
        self.renew = None;
        self.keepalive_deadline_local = GAVE_UP;
        let name = cx.name;
        let ttl = self.granted_ttl_ms;
        let then = if self.phase == Phase::Waiting {
            format!(
                "etcd's Mutex.Lock does not watch it: {name} waits on until its predecessor's key goes."
            )
        } else {
            format!("Nothing in {name}'s code watches Done(), so {name} carries on as before.")
        };
        let (silence, when) = if self.keepalive_answered {
            (
                format!(
                    "No keepalive has been answered for {ttl} ms or more (the lease's TTL, counted from the last answer)"
                ),
                "With one leader throughout, this comes no earlier than the leader's own expiry, which counts from when it last renewed the lease; a new leader extends every lease by an election timeout (lessor.go, Promote), so after a failover the client can give up while the leader still keeps the lease".to_string(),
            )
        } else {
            let leader = if ttl as i64 > FIRST_ANSWER_TIMEOUT_MS {
                format!(
                    "with a {ttl} ms TTL the leader keeps the lease, and the key under it, for a while yet, holding up any waiter"
                )
            } else {
                format!("with a {ttl} ms TTL the leader has already expired the lease")
            };
            (
                format!(
                    "The first keepalive has had no answer within {FIRST_ANSWER_TIMEOUT_MS} ms (clientv3's first-answer timeout: the dial timeout + 1 s, or 5 s when none is set)"
                ),
                format!("This timeout does not depend on the TTL: {leader}"),
            )
        };
        cx.fx.note(
            format!("{name}'s client gives up its lease"),
            format!(
                "{silence}, so etcd's client closes the lease's keepalive channel and stops sending (lease.go, deadlineLoop, which looks once a second) and the session's Done() closes. {when}. It is a notification, not a safety margin, and cannot stop a write already under way. {then}"
            ),
        );
    }
}

/// `keepalive_deadline_local` once the client has given its lease up: no deadline pass matches it.
pub(super) const GAVE_UP: i64 = i64::MAX;

impl Worker {
    /// An answer to a keepalive of a lease the client has already given up: clientv3 no longer
    /// has the lease in its keepalives and discards it, so the program learns nothing from it.
    pub(super) fn answer_after_giving_up(&self, cx: &mut WorkerCtx<'_>) {
        let name = cx.name;
        cx.fx.note(
            format!("{name}'s client discards the answer"),
            format!(
                "{name}'s client gave this lease up on its own deadline and dropped it from its keepalives, so it throws the answer away (lease.go, recvKeepAlive): nothing in {name}'s program hears that the lease is gone."
            ),
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::actors::next_pass;

    #[test]
    fn passes_fall_on_the_loop_grid() {
        assert_eq!(next_pass(100, 100, 500), 100);
        assert_eq!(next_pass(100, 101, 500), 600);
        assert_eq!(next_pass(100, 1767, 500), 2100);
        assert_eq!(next_pass(100, 50, 500), 100);
    }
}
