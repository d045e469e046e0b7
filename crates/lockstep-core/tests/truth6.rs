//! Session 13's correction to the model: a ZooKeeper client that lost its connection (Curator's
//! SUSPENDED) sends no pings; it connects to the next server in its list with its session id,
//! waits the connect timeout (session timeout ÷ servers) for an answer, pauses at random up to a
//! second, and tries the next (ClientCnxn.SendThread, StaticHostProvider.next).

use lockstep_core::trace::{EventKind, Trace};
use lockstep_core::{parse_scenario, run};

mod built_in;
use built_in::{run_id, time_of};

/// `worker`'s sends whose label starts with `prefix`: (time, receiver).
fn sends(trace: &Trace, worker: &str, prefix: &str) -> Vec<(u64, String)> {
    let name = |i: u16| trace.participants[usize::from(i)].name.clone();
    trace
        .events
        .iter()
        .filter(|e| e.kind == EventKind::Send && e.label.starts_with(prefix))
        .filter(|e| name(e.from) == worker)
        .map(|e| (e.time_ms, name(e.to)))
        .collect()
}

/// consensus-session-suspended: 5 s sessions on 3 servers, so a 1666 ms connect timeout.
#[test]
fn a_suspended_zookeeper_client_sends_connect_requests_server_by_server() {
    let r = run_id("consensus-session-suspended");
    let suspended = time_of(&r, "A's session is suspended");
    let lost = time_of(&r, "A's session is lost");
    let pings = sends(&r.trace, "A", "keepalive");
    assert!(pings.iter().all(|(t, _)| *t < suspended), "{pings:?}");
    let connects = sends(&r.trace, "A", "connect: session 1");
    let servers: Vec<&str> = connects.iter().map(|(_, to)| to.as_str()).collect();
    assert_eq!(servers, ["node-2", "node-3"], "{connects:?}");
    // The first after a pause below a second; the next a connect timeout and a pause later.
    assert!(connects[0].0 >= suspended && connects[0].0 < suspended + 1000);
    let gap = connects[1].0 - connects[0].0;
    assert!((1666..1666 + 1000).contains(&gap), "{connects:?}");
    assert!(
        connects.iter().all(|(t, _)| *t < lost),
        "{connects:?} lost at {lost}"
    );
    // The golden numbers of this seed.
    assert_eq!((connects[0].0, connects[1].0, lost), (4540, 7001, 7672));
}

/// The partition heals before the first connect request: it reaches node-2, which points the
/// client to the leader; the leader still knows the session, so the client is connected again
/// (RECONNECTED) and its pings start again, to the leader.
#[test]
fn a_connect_request_that_gets_through_reconnects_the_session() {
    let text = catalogue_text("consensus-session-suspended").replace(
        "[[explain]]",
        "[[faults]]\nat_ms = 4400\nkind = \"heal\"\n\n[[explain]]",
    );
    let scenario = parse_scenario("healed.toml", text.as_bytes()).expect("parses");
    let r = run(&scenario);
    let reconnected = time_of(&r, "A's session reconnected");
    let connects = sends(&r.trace, "A", "connect: session 1");
    assert_eq!(
        connects.len(),
        2,
        "to node-2, then to the leader it named: {connects:?}"
    );
    assert_eq!(connects[1].1, "node-1");
    let pings_after: Vec<_> = sends(&r.trace, "A", "keepalive")
        .into_iter()
        .filter(|(t, _)| *t > reconnected)
        .collect();
    assert!(!pings_after.is_empty(), "pings start again");
    assert!(
        pings_after.iter().all(|(_, to)| to == "node-1"),
        "{pings_after:?}"
    );
    assert!(
        r.trace
            .events
            .iter()
            .all(|e| e.label != "A's session is lost"),
        "a reconnected session is not lost"
    );
}

fn catalogue_text(id: &str) -> String {
    lockstep_core::catalogue::source(id).expect(id).to_string()
}
