//! Unit tests of one Redis instance: SET NX, compare-and-delete, expiry, restarts.

use super::*;
use crate::actors::Effect;

const NAMES: [&str; 3] = ["A", "B", "redis"];

fn react(r: &mut RedisInstance, now_local: i64, from: NodeId, payload: Payload) -> Vec<Effect> {
    let names: Vec<String> = NAMES.iter().map(|s| s.to_string()).collect();
    let mut fx = Effects::default();
    let mut cx = RedisCtx {
        name: "redis",
        now_local,
        key: "lock:k",
        names: &names,
        fx: &mut fx,
    };
    r.on_message(from, payload, &mut cx);
    fx.items
}

fn reply(effects: &[Effect]) -> &Payload {
    effects
        .iter()
        .find_map(|e| match e {
            Effect::Send { payload, .. } => Some(payload),
            _ => None,
        })
        .expect("a reply")
}

fn set(value: u64) -> Payload {
    Payload::Set {
        req: 1,
        value,
        ttl_ms: 5000,
        with_token: true,
    }
}

#[test]
fn set_nx_grants_once_and_increments_the_counter() {
    let mut r = RedisInstance::new(32);
    assert_eq!(
        reply(&react(&mut r, 0, 0, set(7))),
        &Payload::SetReply {
            req: 1,
            ok: true,
            token: Some(33)
        }
    );
    assert_eq!(
        reply(&react(&mut r, 10, 1, set(8))),
        &Payload::SetReply {
            req: 1,
            ok: false,
            token: None
        }
    );
    assert_eq!(r.counter, 33, "a refused SET does not consume a token");
}

#[test]
fn only_the_holders_value_deletes_or_extends() {
    let mut r = RedisInstance::new(0);
    react(&mut r, 0, 0, set(7));
    let stale = react(&mut r, 1, 1, Payload::Del { req: 2, value: 8 });
    assert_eq!(
        reply(&stale),
        &Payload::DelReply {
            req: 2,
            deleted: false
        }
    );
    let extend = react(
        &mut r,
        2,
        0,
        Payload::Extend {
            req: 3,
            value: 7,
            ttl_ms: 9000,
        },
    );
    assert_eq!(reply(&extend), &Payload::ExtendReply { req: 3, ok: true });
    assert_eq!(r.key.map(|k| k.expires_local), Some(9002));
    let own = react(&mut r, 3, 0, Payload::Del { req: 4, value: 7 });
    assert_eq!(
        reply(&own),
        &Payload::DelReply {
            req: 4,
            deleted: true
        }
    );
    assert_eq!(r.key, None);
}

#[test]
fn the_ttl_is_judged_on_the_instances_clock() {
    let mut r = RedisInstance::new(0);
    react(&mut r, 100, 0, set(7));
    // B asks at the key's expiry millisecond on redis's clock (still alive: Redis keeps a
    // key while now <= expiry), then one millisecond later.
    assert_eq!(
        reply(&react(&mut r, 5100, 1, set(8))),
        &Payload::SetReply {
            req: 1,
            ok: false,
            token: None
        }
    );
    let effects = react(&mut r, 5101, 1, set(8));
    assert!(matches!(
        reply(&effects),
        Payload::SetReply {
            ok: true,
            token: Some(2),
            ..
        }
    ));
    assert!(effects.iter().any(|e| matches!(
        e,
        Effect::Event {
            tag: Some(Tag::ServiceFrees {
                reason: FreeReason::Expired,
                ..
            }),
            ..
        }
    )));
}

#[test]
fn a_replica_keeps_keys_until_told_and_a_promotion_keeps_what_arrived() {
    let mut replica = RedisInstance::new(32);
    replica.is_replica = true;
    let ops = vec![
        ReplOp::SetKey {
            value: 7,
            owner: 0,
            expires_local: 5000,
        },
        ReplOp::Counter(33),
    ];
    react(&mut replica, 0, 2, Payload::Replicate { ops });
    // Long past the expiry: a replica does not expire keys on its own.
    assert_eq!(
        reply(&react(&mut replica, 9000, 1, set(8))),
        &Payload::SetReply {
            req: 1,
            ok: false,
            token: None
        }
    );
    assert_eq!(replica.counter, 33);
}

/// Restarts `r` at `now_local` with `persistence`; the effects it asked for.
fn restart(r: &mut RedisInstance, persistence: Persistence, now_local: i64) -> Effects {
    let names: Vec<String> = NAMES.iter().map(|s| s.to_string()).collect();
    let mut fx = Effects::default();
    r.restart(
        persistence,
        &mut RedisCtx {
            name: "redis",
            now_local,
            key: "lock:k",
            names: &names,
            fx: &mut fx,
        },
    );
    fx
}

#[test]
fn a_restart_without_persistence_forgets_the_key_and_the_counter() {
    let mut r = RedisInstance::new(32);
    react(&mut r, 0, 0, set(7));
    restart(&mut r, Persistence::None, 10);
    // An empty Redis has no counter key: the next INCR returns 1, not first_token.
    assert_eq!((r.key, r.counter), (None, 0));
    let after = react(&mut r, 20, 1, set(8));
    assert!(matches!(
        reply(&after),
        Payload::SetReply {
            ok: true,
            token: Some(1),
            ..
        }
    ));
    let mut kept = RedisInstance::new(32);
    react(&mut kept, 0, 0, set(7));
    restart(&mut kept, Persistence::Always, 10);
    assert_eq!((kept.key.map(|k| k.value), kept.counter), (Some(7), 33));
}

#[test]
fn an_empty_restart_after_the_ttl_comes_back_without_the_key_and_does_not_expire_it() {
    let mut r = RedisInstance::new(32);
    react(&mut r, 0, 0, set(7));
    let fx = restart(&mut r, Persistence::None, 12_000);
    let labels: Vec<String> = fx
        .items
        .iter()
        .filter_map(|e| match e {
            Effect::Event { label, .. } => Some(label.clone()),
            _ => None,
        })
        .collect();
    assert!(
        labels.iter().any(|l| l == "redis came back without lock:k"),
        "{labels:?}"
    );
    assert!(!labels.iter().any(|l| l.contains("expired")), "{labels:?}");
    // Before the TTL ran out, the same restart loses a key a holder still counts on.
    let mut r = RedisInstance::new(32);
    react(&mut r, 0, 0, set(7));
    let fx = restart(&mut r, Persistence::None, 3_000);
    assert!(
        fx.items
            .iter()
            .any(|e| matches!(e, Effect::Event { label, .. } if label == "redis forgot lock:k")),
        "{:?}",
        fx.items
    );
}
