//! The Redlock client: one acquisition round across N instances, in turn (the Redis
//! documentation) or all at once (node-redlock, redsync), the majority and validity rule, and
//! unlock-all-then-retry on failure, up to a number of tries.

use rand_core::Rng;

use super::{Phase, Worker, WorkerCtx};
use crate::actors::{Dest, Timer};
use crate::message::Payload;

impl Worker {
    pub(super) fn redlock_next(&mut self, cx: &mut WorkerCtx<'_>) {
        if self.redlock.next < cx.lock.instances {
            let (value, ttl_ms) = (self.lock_value, cx.lock.ttl_ms);
            let to = Dest::Instance(self.redlock.next);
            let timeout = cx.lock.instance_timeout_ms;
            self.request(
                cx,
                to,
                |req| Payload::Set {
                    req,
                    value,
                    ttl_ms,
                    with_token: false,
                },
                timeout,
            );
            return;
        }
        self.redlock_decide(cx);
    }

    /// A parallel round: the same SET goes to every instance at once, with one timeout for all.
    pub(super) fn redlock_send_all(&mut self, cx: &mut WorkerCtx<'_>) {
        let (value, ttl_ms) = (self.lock_value, cx.lock.ttl_ms);
        self.redlock.first_req = self.next_req;
        for i in 0..cx.lock.instances {
            let req = self.new_req();
            cx.fx.send(
                Dest::Instance(i),
                Payload::Set {
                    req,
                    value,
                    ttl_ms,
                    with_token: false,
                },
            );
        }
        let first = self.redlock.first_req;
        self.awaiting = Some(first);
        self.sent_local = cx.now_local;
        cx.fx
            .after(cx.lock.instance_timeout_ms, Timer::RequestTimeout(first));
    }

    /// Whether `req` is one of the current parallel round's requests, still awaited.
    pub(super) fn in_parallel_round(&self, req: u64, cx: &WorkerCtx<'_>) -> bool {
        let first = self.redlock.first_req;
        self.phase == Phase::Acquiring
            && self.awaiting == Some(first)
            && (first..first + u64::from(cx.lock.instances)).contains(&req)
    }

    pub(super) fn redlock_parallel_reply(&mut self, ok: bool, cx: &mut WorkerCtx<'_>) {
        self.redlock.replies += 1;
        if ok {
            self.redlock.successes += 1;
        }
        if self.redlock.replies == cx.lock.instances {
            self.awaiting = None;
            self.redlock_decide(cx);
        }
    }

    pub(super) fn redlock_round_timed_out(&mut self, cx: &mut WorkerCtx<'_>) {
        let n = cx.lock.instances;
        self.redlock.timeouts = n - self.redlock.replies;
        cx.fx.note(
            format!("{} of {n} answered in time", self.redlock.replies),
            format!(
                "{} instance(s) did not answer within the {} ms timeout; Redlock counts only the answers it has.",
                self.redlock.timeouts, cx.lock.instance_timeout_ms
            ),
        );
        self.redlock_decide(cx);
    }

    /// Every instance has answered or timed out: a majority and a positive validity, or failure.
    fn redlock_decide(&mut self, cx: &mut WorkerCtx<'_>) {
        let round = self.redlock;
        let n = cx.lock.instances;
        let quorum = n / 2 + 1;
        let elapsed = cx.now_local - round.start_local;
        let validity = cx.lock.ttl_ms as i64 - elapsed - cx.lock.drift_ms as i64;
        if round.successes >= quorum && validity > 0 {
            cx.fx.state(
                format!("{}/{n} locked, validity {validity} ms", round.successes),
                format!(
                    "Redlock: {} of {n} said OK ({quorum} needed) and only {elapsed} ms passed, so the lock is valid for TTL {} - elapsed {elapsed} - drift {} = {validity} ms on {}'s clock.",
                    round.successes, cx.lock.ttl_ms, cx.lock.drift_ms, cx.name
                ),
                None,
            );
            self.lease_until_local = Some(cx.now_local + validity);
            self.token = None;
            self.believe(cx);
            self.check(cx);
        } else {
            let why = if round.successes < quorum {
                format!(
                    "only {} of {n} instances said OK (needs {quorum})",
                    round.successes
                )
            } else {
                // The clients disagree at exactly 0: redsync and redlock-py refuse it, as this
                // model does; redlock-rb takes the lock (`validity >= 0`, client.rb).
                let zero = if validity == 0 {
                    " (redsync and redlock-py refuse a validity of exactly 0, as here; redlock-rb would take the lock, valid for 0 ms)"
                } else {
                    ""
                };
                format!("validity {validity} ms is not positive (elapsed {elapsed} ms){zero}")
            };
            let last_try = cx.lock.max_tries > 0 && self.redlock_tries >= cx.lock.max_tries;
            let next = if last_try {
                format!("and, after {}, gives up", tries(self.redlock_tries))
            } else {
                let bound = if cx.lock.max_tries > 0 {
                    format!(
                        "up to {} in all (this scenario's max_tries; redlock-rb stops after 4: 1 + its retry_count of 3; redsync after 32)",
                        tries(cx.lock.max_tries)
                    )
                } else {
                    "until its own acquire timeout, since this scenario sets no max_tries (redlock-rb stops after 4 tries, 1 + its retry_count of 3; redsync after 32)".to_string()
                };
                format!(
                    "and retries after a random delay, which is what breaks a tie between clients that split the votes; it tries {bound}"
                )
            };
            cx.fx.state(
                format!("Redlock failed: {}/{n}, unlock all", round.successes),
                format!("Redlock: {why}, so {} does not hold the lock; it unlocks every instance {next}.", cx.name),
                None,
            );
            for i in 0..n {
                let req = self.new_req();
                cx.fx.send(
                    Dest::Instance(i),
                    Payload::Del {
                        req,
                        value: self.lock_value,
                    },
                );
            }
            self.holds_something = false;
            self.last_failure_unreachable = round.timeouts >= quorum;
            if last_try {
                self.phase = Phase::GaveUp;
                cx.fx.state(
                    format!("{} gives up after {}", cx.name, tries(self.redlock_tries)),
                    format!("{} tried {} without getting the lock (a majority of instances within the lock's validity) and stops, as Redlock clients do after a bounded number of tries (redlock-rb: 4, 1 + its retry_count of 3; redsync: 32). It pays nothing.", cx.name, rounds(self.redlock_tries)),
                    None,
                );
                return;
            }
            let delay = cx.rng.next_u64() % cx.lock.retry_delay_ms.max(1);
            self.retry_after(cx, delay);
        }
    }
}

fn tries(n: u32) -> String {
    if n == 1 {
        "1 try".into()
    } else {
        format!("{n} tries")
    }
}

fn rounds(n: u32) -> String {
    if n == 1 {
        "1 round".into()
    } else {
        format!("{n} rounds")
    }
}
