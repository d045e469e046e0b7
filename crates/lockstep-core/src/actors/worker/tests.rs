//! The worker's unit tests: each lock client and the job, driven message by message.

use rand_core::SeedableRng;

use super::*;
use crate::actors::Effect;
use crate::scenario::{OnUnavailable, defaults};

fn config() -> WorkerConfig {
    WorkerConfig {
        name: "A".into(),
        start_ms: 0,
        fencing: true,
        idempotency_keys: false,
        on_lock_unavailable: OnUnavailable::FailClosed,
        work_ms: 2000,
        check_lease_before_write: false,
        renew_every_ms: 0,
        retry_ms: 100,
        acquire_timeout_ms: 1000,
        request_timeout_ms: 500,
        unsafe_release: false,
        retry_writes: 0,
        amount_cents: None,
        on_suspended: None,
        session: None,
        retry_unlock: false,
    }
}

fn params(kind: LockKind) -> LockParams {
    LockParams {
        kind,
        ttl_ms: 10_000,
        key: "lock:k".into(),
        instances: 5,
        drift_ms: 102,
        instance_timeout_ms: 50,
        retry_delay_ms: defaults::RETRY_DELAY_MS,
        parallel: false,
        max_tries: 0,
        payouts: 3,
        nodes: 3,
    }
}

struct Harness {
    worker: Worker,
    lock: LockParams,
    rng: ChaCha8Rng,
}

impl Harness {
    fn new(kind: LockKind, cfg: WorkerConfig) -> Self {
        Harness {
            worker: Worker::new(cfg),
            lock: params(kind),
            rng: ChaCha8Rng::seed_from_u64(1),
        }
    }
    fn react(
        &mut self,
        now_local: i64,
        f: impl FnOnce(&mut Worker, &mut WorkerCtx<'_>),
    ) -> Vec<Effect> {
        let mut fx = Effects::default();
        let mut cx = WorkerCtx {
            name: "A",
            now_local,
            lock: &self.lock,
            rng: &mut self.rng,
            fx: &mut fx,
        };
        f(&mut self.worker, &mut cx);
        fx.items
    }
    fn timer(&mut self, now_local: i64, timer: Timer) -> Vec<Effect> {
        self.react(now_local, |w, cx| w.on_timer(timer, cx))
    }
    fn message(&mut self, now_local: i64, payload: Payload) -> Vec<Effect> {
        self.react(now_local, |w, cx| w.on_message(payload, cx))
    }
    fn req(&self) -> u64 {
        self.worker.awaiting.expect("waiting for an answer")
    }
    /// Start, get the lock (token 1) at 2 ms, read "unpaid" at 4 ms: the worker is working.
    fn start_working(&mut self) {
        self.timer(0, Timer::Start);
        let req = self.req();
        self.message(
            2,
            Payload::SetReply {
                req,
                ok: true,
                token: Some(1),
            },
        );
        let req = self.req();
        self.message(
            4,
            Payload::ReadReply {
                req,
                result: ReadResult::Unpaid,
            },
        );
        assert_eq!(self.worker.phase, Phase::Working);
    }
}

use crate::actors::sent_payloads as sends;

fn labels(effects: &[Effect]) -> Vec<String> {
    effects
        .iter()
        .filter_map(|e| match e {
            Effect::Event { label, .. } => Some(label.clone()),
            _ => None,
        })
        .collect()
}

#[test]
fn a_granted_lock_is_believed_and_the_check_carries_the_token() {
    let mut h = Harness::new(LockKind::Redis, config());
    let start = h.timer(0, Timer::Start);
    assert!(matches!(
        sends(&start)[..],
        [Payload::Set {
            ttl_ms: 10_000,
            with_token: true,
            ..
        }]
    ));
    assert!(start.contains(&Effect::After {
        after_ms: 500,
        timer: Timer::RequestTimeout(1)
    }));
    let req = h.req();
    let granted = h.message(
        2,
        Payload::SetReply {
            req,
            ok: true,
            token: Some(33),
        },
    );
    assert_eq!(labels(&granted), ["A holds the lock (token 33)"]);
    assert!(matches!(
        sends(&granted)[..],
        [Payload::Read {
            token: Some(33),
            ..
        }]
    ));
    assert_eq!(
        (h.worker.believes, h.worker.lease_until_local),
        (true, Some(10_000))
    );
}

#[test]
fn a_taken_lock_is_retried_until_the_acquire_timeout_then_given_up() {
    let mut h = Harness::new(LockKind::Redis, config());
    h.timer(0, Timer::Start);
    let req = h.req();
    let refused = h.message(
        1,
        Payload::SetReply {
            req,
            ok: false,
            token: None,
        },
    );
    assert!(refused.contains(&Effect::After {
        after_ms: 100,
        timer: Timer::Retry
    }));
    h.timer(950, Timer::Retry);
    let req = h.req();
    let out = h.message(
        951,
        Payload::SetReply {
            req,
            ok: false,
            token: None,
        },
    );
    // Its next try (at 1051 ms) would come after its 1000 ms acquire timeout: it stops now,
    // and says how long it tried.
    assert_eq!(labels(&out), ["A gives up: lock busy for 951 ms"]);
    assert_eq!(h.worker.phase, Phase::GaveUp);
}

#[test]
fn an_unreachable_service_means_refused_when_fail_closed_and_unprotected_when_fail_open() {
    for (policy, phase, token) in [
        (OnUnavailable::FailClosed, Phase::Refused, None),
        (OnUnavailable::FailOpen, Phase::Checking, None),
    ] {
        let mut h = Harness::new(
            LockKind::Consensus,
            WorkerConfig {
                on_lock_unavailable: policy,
                ..config()
            },
        );
        h.timer(0, Timer::Start);
        let req = h.req();
        h.timer(500, Timer::RequestTimeout(req));
        h.timer(600, Timer::Retry);
        let req = h.req();
        let out = h.timer(1100, Timer::RequestTimeout(req));
        assert_eq!(h.worker.phase, phase, "{policy:?}");
        if policy == OnUnavailable::FailOpen {
            assert!(
                matches!(sends(&out)[..], [Payload::Read { token: None, .. }]),
                "fail-open reads without a token: {out:?}"
            );
        }
        assert_eq!(h.worker.token, token);
    }
}

#[test]
fn redlock_needs_a_majority_and_a_positive_validity() {
    let mut h = Harness::new(
        LockKind::Redlock,
        WorkerConfig {
            fencing: false,
            ..config()
        },
    );
    h.timer(0, Timer::Start);
    for (i, ok) in [true, false, true, true, false].into_iter().enumerate() {
        let req = h.req();
        let out = h.message(
            i as i64 * 2 + 2,
            Payload::SetReply {
                req,
                ok,
                token: None,
            },
        );
        if i == 4 {
            // elapsed 10 ms: validity = 10000 - 10 - 102.
            assert_eq!(labels(&out)[0], "3/5 locked, validity 9888 ms");
        }
    }
    assert_eq!(
        (h.worker.believes, h.worker.lease_until_local),
        (true, Some(10 + 9888))
    );

    let mut slow = Harness::new(
        LockKind::Redlock,
        WorkerConfig {
            fencing: false,
            ..config()
        },
    );
    slow.timer(0, Timer::Start);
    for i in 0..5 {
        let req = slow.req();
        // The replies trickle in over 10 s (a pause while they were in flight).
        let out = slow.message(
            2_000 * (i + 1),
            Payload::SetReply {
                req,
                ok: true,
                token: None,
            },
        );
        if i == 4 {
            assert_eq!(labels(&out)[0], "Redlock failed: 5/5, unlock all");
            assert_eq!(
                sends(&out)
                    .iter()
                    .filter(|p| matches!(p, Payload::Del { .. }))
                    .count(),
                5
            );
        }
    }
    assert!(!slow.worker.believes);
}

#[test]
fn the_lease_check_abandons_an_expired_lease_and_splits_check_from_write() {
    let cfg = WorkerConfig {
        check_lease_before_write: true,
        ..config()
    };
    let mut h = Harness::new(LockKind::Redis, cfg.clone());
    h.start_working();
    let ok = h.timer(2004, Timer::WorkDone);
    assert_eq!(labels(&ok), ["lease check: 7996 ms left, write"]);
    assert_eq!(sends(&ok), vec![], "the write is a separate step");
    assert!(ok.contains(&Effect::After {
        after_ms: 0,
        timer: Timer::SendWrite
    }));

    let mut late = Harness::new(LockKind::Redis, cfg);
    late.start_working();
    let out = late.timer(12_000, Timer::WorkDone);
    assert_eq!(labels(&out)[0], "lease check: expired 2000 ms ago, abandon");
    assert!(matches!(sends(&out)[..], [Payload::Del { .. }]));
}

#[test]
fn a_failed_renewal_while_working_abandons_the_job() {
    let mut h = Harness::new(
        LockKind::Redis,
        WorkerConfig {
            renew_every_ms: 1000,
            ..config()
        },
    );
    h.start_working();
    let renew = h.timer(1004, Timer::Renew);
    let Payload::Extend { req, .. } = sends(&renew)[0] else {
        panic!("{renew:?}")
    };
    let out = h.message(1005, Payload::ExtendReply { req, ok: false });
    assert_eq!(labels(&out)[0], "A has lost the lock");
    assert_eq!(h.worker.phase, Phase::Releasing);
    assert!(
        h.timer(2004, Timer::WorkDone).is_empty(),
        "the abandoned job never writes"
    );
}
