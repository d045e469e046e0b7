//! Session 11's corrections to the model: a fenced-off worker stops acting as a holder when the
//! database refuses it, etcd's client re-sends an unanswered keepalive every 500 ms, and the
//! catalogue itself draws no warning for odd-but-legal settings.

use lockstep_core::catalogue;
use lockstep_core::scenario::warnings;
use lockstep_core::trace::{EventKind, Tag};

mod built_in;
use built_in::{run_id, time_of};

/// The refusal is where the worker learns its lock is stale: its belief ends on "is fenced off",
/// not on the release it sends afterwards (the lease chart and the sequence view agree).
#[test]
fn a_fenced_off_worker_stops_believing_at_the_refusal() {
    for id in [
        "fenced-gc-pause",
        "fenced-every-access",
        "redis-restart-counter-reset",
        "consensus-fenced-failover",
        "migration-right-order",
    ] {
        let r = run_id(id);
        let fenced = r
            .trace
            .events
            .iter()
            .find(|e| e.label.ends_with("is fenced off"))
            .unwrap_or_else(|| panic!("{id}: no refusal"));
        assert_eq!(fenced.tag, Some(Tag::StopsBelieving), "{id}");
        // Nothing the same worker does afterwards carries a second end of belief.
        let worker = fenced.from;
        let later = r
            .trace
            .events
            .iter()
            .skip_while(|e| !std::ptr::eq(*e, fenced))
            .skip(1)
            .filter(|e| e.from == worker && e.tag == Some(Tag::StopsBelieving))
            .count();
        assert_eq!(later, 0, "{id}");
    }
    // The verdict's overlap still ends where it did.
    let r = run_id("fenced-gc-pause");
    let o = &r.verdict.overlaps[0];
    assert_eq!((o.from_ms, o.to_ms), (6002, 8006));
}

/// clientv3's keepalive loop wakes every 500 ms and sends for every lease whose next keepalive is
/// due; only an answer moves that time on by TTL/3 (lease.go, sendKeepAliveLoop).
#[test]
fn an_unanswered_etcd_keepalive_is_resent_every_500_ms() {
    let r = run_id("consensus-waiter-session-expired");
    let b = r
        .trace
        .participants
        .iter()
        .position(|p| p.name == "B")
        .expect("B") as u16;
    let lost: Vec<u64> = r
        .trace
        .events
        .iter()
        .filter(|e| e.kind == EventKind::Lost && e.from == b && e.label.contains("keepalive"))
        .map(|e| e.time_ms)
        .collect();
    assert!(lost.len() >= 4, "{lost:?}");
    for pair in lost.windows(2) {
        assert_eq!(pair[1] - pair[0], 500, "{lost:?}");
    }
    // Answered keepalives keep the TTL/3 cadence (A's lease is 5000 ms, renewed every 1000 ms by
    // the scenario; B's default is TTL/3 = 1666 ms after each answer).
    let answered: Vec<u64> = r
        .trace
        .events
        .iter()
        .filter(|e| e.kind == EventKind::Send && e.from == b && e.label.contains("keepalive"))
        .map(|e| e.time_ms)
        .take_while(|t| *t < lost[0])
        .collect();
    for pair in answered.windows(2) {
        assert!(pair[1] - pair[0] >= 1666, "{answered:?}");
    }
}

/// The catalogue is made of deployments an engineer would recognise: none draws a warning.
#[test]
fn no_catalogue_scenario_draws_a_warning() {
    for id in catalogue::ids() {
        let text = catalogue::source(id).expect("source");
        let s = lockstep_core::parse_scenario(id, text.as_bytes()).expect("valid");
        assert_eq!(warnings(id, text, &s), vec![], "{id}");
    }
}

/// clientv3 sends the first keepalive at once, later ones on its send loop's 500 ms passes (a
/// 5 s lease is renewed every 2 s: TTL/3 rounded up to a pass), and gives the lease up on its own
/// deadline — no answer for a TTL, checked once a second — which never comes before the leader's
/// expiry (lease.go: KeepAlive, sendKeepAliveLoop, deadlineLoop).
#[test]
fn etcd_keepalives_start_at_once_fall_on_passes_and_end_on_the_client_deadline() {
    let r = run_id("consensus-waiter-session-expired");
    let at = |label: &str| time_of(&r, label);
    let b_keepalives: Vec<u64> = r
        .trace
        .events
        .iter()
        .filter(|e| e.kind == EventKind::Send && e.label == "keepalive lease 2")
        .map(|e| e.time_ms)
        .collect();
    // B's key is granted at 103 ms; its first keepalive follows at once.
    assert_eq!(b_keepalives[0], 104, "{b_keepalives:?}");
    // Answered at 106: next due at 106 + 1666, sent on the pass at 104 + 2000.
    assert_eq!(b_keepalives[1], 2104, "{b_keepalives:?}");
    let revoked = at("lease of B revoked, revision 35");
    let gave_up = at("B's client gives up its lease");
    // The last answer came at 106: deadline 5106, on the deadline loop's next pass (6104).
    assert_eq!(gave_up, 6104);
    assert!(gave_up >= revoked, "{gave_up} < {revoked}");
    // No keepalive for lease 2 after the client gave it up.
    assert!(
        b_keepalives.iter().all(|t| *t < gave_up),
        "{b_keepalives:?}"
    );
}

/// A worker refused inside its own lease is told the counter went back, not that its lock is stale.
#[test]
fn a_refusal_within_the_lease_blames_the_counter_not_the_lock() {
    let r = run_id("redis-restart-counter-reset");
    let fenced = r
        .trace
        .events
        .iter()
        .find(|e| e.label == "B is fenced off")
        .expect("B is fenced off");
    assert!(
        fenced
            .explanation
            .contains("the counter behind the tokens went backwards, not the lock"),
        "{}",
        fenced.explanation
    );
    assert!(
        !fenced.explanation.contains("stale"),
        "{}",
        fenced.explanation
    );
    let counter = r
        .trace
        .events
        .iter()
        .find(|e| e.label == "rejected — 1 < last_token 33")
        .expect("the refusal");
    assert!(
        counter
            .explanation
            .contains("33 is handed out a second time"),
        "{}",
        counter.explanation
    );
}
