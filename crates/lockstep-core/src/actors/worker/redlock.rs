//! The Redlock client: one acquisition round across N instances, the majority and validity rule
//! of the Redis documentation, and unlock-all-then-retry on failure.

use rand_core::Rng;

use super::{Worker, WorkerCtx};
use crate::actors::Dest;
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
        let round = self.redlock;
        let n = cx.lock.instances;
        let quorum = n / 2 + 1;
        let elapsed = cx.now_local - round.start_local;
        let validity = cx.lock.ttl_ms as i64 - elapsed - cx.lock.drift_ms as i64;
        if round.successes >= quorum && validity > 0 {
            cx.fx.state(
                format!("{}/{n} locked, validity {validity} ms", round.successes),
                format!(
                    "Redlock: a majority ({quorum} of {n}) said OK and only {elapsed} ms passed, so the lock is valid for TTL {} - elapsed {elapsed} - drift {} = {validity} ms on {}'s clock.",
                    cx.lock.ttl_ms, cx.lock.drift_ms, cx.name
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
                format!("validity {validity} ms is not positive (elapsed {elapsed} ms)")
            };
            cx.fx.state(
                format!("Redlock failed: {}/{n}, unlock all", round.successes),
                format!("Redlock: {why}, so {} does not hold the lock; it unlocks every instance and retries after a random delay.", cx.name),
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
            let delay = cx.rng.next_u64() % cx.lock.retry_delay_ms.max(1);
            self.retry_after(cx, delay);
        }
    }
}
