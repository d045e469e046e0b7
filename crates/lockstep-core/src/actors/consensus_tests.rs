//! The consensus lock service's unit tests: commits, grants, elections and terms.

use super::*;
use crate::actors::Effect;
use rand_core::SeedableRng;

// Participants: A=0, B=1, node-1=2, node-2=3, node-3=4.
fn names() -> Vec<String> {
    ["A", "B", "node-1", "node-2", "node-3"]
        .iter()
        .map(|s| s.to_string())
        .collect()
}

fn on(c: &mut Cluster, me: usize, now_local: i64, from: NodeId, payload: Payload) -> Vec<Effect> {
    let names = names();
    let mut fx = Effects::default();
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    c.on_message(
        from,
        payload,
        &mut ConsensusCtx {
            me,
            now_local,
            key: "lock:k",
            names: &names,
            leader_ok: false,
            peers_ok: &[true; 3],
            rng: &mut rng,
            fx: &mut fx,
            from_zookeeper_client: false,
        },
    );
    fx.items
}

use crate::actors::sent_payloads as sent;

/// Asks the leader for the lock on behalf of `worker` and acks the first append once.
fn lock(c: &mut Cluster, worker: NodeId, now: i64) -> Vec<Payload> {
    let appends = sent(&on(
        c,
        0,
        now,
        worker,
        Payload::LockReq {
            req: 9,
            ttl_ms: 5000,
            session: None,
            again: None,
        },
    ));
    let Payload::Append { term, proposal, .. } = appends[0].clone() else {
        panic!("{appends:?}")
    };
    sent(&on(c, 0, now, 3, Payload::AppendAck { term, proposal }))
}

#[test]
fn a_lock_commits_with_a_majority_and_its_revision_is_the_token() {
    let mut c = Cluster::new(3, 2, 33, 300);
    let appends = sent(&on(
        &mut c,
        0,
        0,
        0,
        Payload::LockReq {
            req: 9,
            ttl_ms: 5000,
            session: None,
            again: None,
        },
    ));
    assert_eq!(appends.len(), 2, "appended to both followers");
    assert!(
        c.pending.len() == 1 && c.revision == 32,
        "nothing commits without a majority"
    );
    let Payload::Append { term, proposal, .. } = appends[0].clone() else {
        panic!()
    };
    let replies = sent(&on(&mut c, 0, 1, 3, Payload::AppendAck { term, proposal }));
    assert_eq!(
        replies,
        vec![Payload::LockReply {
            req: 9,
            lease: 1,
            rev: 33,
            owner_now: true,
            ttl_ms: 5000
        }]
    );
}

#[test]
fn a_second_holder_waits_and_is_granted_when_the_first_unlocks() {
    let mut c = Cluster::new(3, 2, 33, 300);
    lock(&mut c, 0, 0);
    assert_eq!(
        lock(&mut c, 1, 5),
        vec![Payload::LockReply {
            req: 9,
            lease: 2,
            rev: 34,
            owner_now: false,
            ttl_ms: 5000
        }]
    );
    let appends = sent(&on(&mut c, 0, 10, 0, Payload::Unlock { req: 4, lease: 1 }));
    let Payload::Append { term, proposal, .. } = appends[0].clone() else {
        panic!()
    };
    let out = sent(&on(&mut c, 0, 11, 3, Payload::AppendAck { term, proposal }));
    assert_eq!(
        out,
        vec![
            Payload::UnlockReply {
                req: 4,
                deleted: true,
                lease_alive: false
            },
            Payload::LockGranted { lease: 2, rev: 34 }
        ]
    );
    assert_eq!(c.revision, 35, "the delete is a revision too");
}

#[test]
fn a_new_leader_keeps_the_revision_and_extends_leases() {
    let mut c = Cluster::new(3, 2, 33, 300);
    lock(&mut c, 0, 0);
    c.crash(0);
    let names = names();
    let mut fx = Effects::default();
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    c.on_timer(
        Timer::Election(0),
        false,
        &mut ConsensusCtx {
            me: 1,
            now_local: 2000,
            key: "lock:k",
            names: &names,
            leader_ok: false,
            peers_ok: &[true; 3],
            rng: &mut rng,
            fx: &mut fx,
            from_zookeeper_client: false,
        },
    );
    // Pre-vote first: the term stays 1 until a majority says it would vote.
    assert_eq!(c.nodes[1].pre_campaign, Some((2, 1)));
    assert_eq!((c.nodes[1].term, c.nodes[1].campaign), (1, None));
    on(
        &mut c,
        1,
        2001,
        4,
        Payload::PreVoteReply {
            term: 2,
            granted: true,
            longer_log: false,
        },
    );
    assert_eq!(c.nodes[1].campaign, Some((2, 1)));
    let elected = sent(&on(
        &mut c,
        1,
        2001,
        4,
        Payload::Vote {
            term: 2,
            granted: true,
            longer_log: false,
        },
    ));
    assert_eq!((c.leader, c.term, c.revision), (1, 2, 33));
    // etcd promotes its lessor only once the leader has applied its own first entry.
    assert_eq!(c.leases[&1].expires_local, 5000);
    let Some(Payload::Append { term, proposal, .. }) = elected
        .iter()
        .find(|p| {
            matches!(
                p,
                Payload::Append {
                    entry: Entry::Empty,
                    ..
                }
            )
        })
        .cloned()
    else {
        panic!("no empty entry in {elected:?}")
    };
    on(&mut c, 1, 2003, 4, Payload::AppendAck { term, proposal });
    // etcd's lessor.Promote: now + election timeout + TTL.
    assert_eq!(c.leases[&1].expires_local, 2003 + 300 + 5000);
}

#[test]
fn an_old_term_cannot_commit() {
    let mut c = Cluster::new(3, 2, 1, 300);
    let appends = sent(&on(
        &mut c,
        0,
        0,
        0,
        Payload::LockReq {
            req: 1,
            ttl_ms: 5000,
            session: None,
            again: None,
        },
    ));
    let Payload::Append { proposal, .. } = appends[0].clone() else {
        panic!()
    };
    c.term = 3;
    assert!(
        sent(&on(
            &mut c,
            0,
            1,
            3,
            Payload::AppendAck { term: 1, proposal }
        ))
        .is_empty()
    );
    assert_eq!(c.revision, 0);
}

#[test]
fn votes_go_only_to_newer_terms() {
    let mut c = Cluster::new(3, 2, 1, 300);
    assert_eq!(
        sent(&on(&mut c, 2, 0, 3, Payload::RequestVote { term: 1 })),
        vec![Payload::Vote {
            term: 1,
            granted: false,
            longer_log: false,
        }]
    );
    assert_eq!(
        sent(&on(&mut c, 2, 0, 3, Payload::RequestVote { term: 2 })),
        vec![Payload::Vote {
            term: 2,
            granted: true,
            longer_log: false,
        }]
    );
    assert_eq!(
        sent(&on(&mut c, 2, 0, 4, Payload::RequestVote { term: 2 })),
        vec![Payload::Vote {
            term: 2,
            granted: false,
            longer_log: false,
        }]
    );
}

#[test]
fn a_leader_that_sees_a_higher_term_steps_down() {
    let mut c = Cluster::new(3, 2, 1, 300);
    assert!(c.leads(0));
    let out = on(&mut c, 0, 10, 4, Payload::RequestVote { term: 5 });
    assert_eq!(
        sent(&out),
        vec![Payload::Vote {
            term: 5,
            granted: true,
            longer_log: false,
        }]
    );
    assert!(!c.leads(0));
    assert_eq!(c.nodes[0].term, 5);
}

#[test]
fn pre_votes_go_only_to_a_later_term_when_no_leader_is_heard() {
    let mut c = Cluster::new(3, 2, 1, 300);
    // node-2 (index 1) is not the leader and, in `on`, hears from no leader.
    assert_eq!(
        sent(&on(&mut c, 1, 0, 4, Payload::PreVote { term: 2 })),
        vec![Payload::PreVoteReply {
            term: 2,
            granted: true,
            longer_log: false,
        }]
    );
    assert_eq!(c.nodes[1].term, 1, "a pre-vote changes no term");
    assert_eq!(
        sent(&on(&mut c, 1, 0, 4, Payload::PreVote { term: 1 })),
        vec![Payload::PreVoteReply {
            term: 1,
            granted: false,
            longer_log: false,
        }]
    );
    // The leader itself never grants one; its refusal carries its own term (etcd raft), so it
    // does not move the asker to term 2.
    assert_eq!(
        sent(&on(&mut c, 0, 0, 4, Payload::PreVote { term: 2 })),
        vec![Payload::PreVoteReply {
            term: 1,
            granted: false,
            longer_log: false,
        }]
    );
}

#[test]
fn a_follower_forwards_a_client_request_to_the_leader_it_hears_from() {
    let mut c = Cluster::new(3, 2, 1, 300);
    let names = names();
    let mut fx = Effects::default();
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    c.on_message(
        0,
        Payload::LockReq {
            req: 7,
            ttl_ms: 5000,
            session: None,
            again: None,
        },
        &mut ConsensusCtx {
            me: 1,
            now_local: 0,
            key: "lock:k",
            names: &names,
            leader_ok: true,
            peers_ok: &[true; 3],
            rng: &mut rng,
            fx: &mut fx,
            from_zookeeper_client: false,
        },
    );
    assert_eq!(
        sent(&fx.items),
        vec![Payload::Forward {
            client: 0,
            request: Box::new(Payload::LockReq {
                req: 7,
                ttl_ms: 5000,
                session: None,
                again: None,
            }),
        }]
    );
    // Once its election timeout has found no leader to hear from, it fails the request.
    c.nodes[1].looking = true;
    assert_eq!(
        sent(&on(
            &mut c,
            1,
            0,
            0,
            Payload::KeepAlive {
                req: 8,
                lease: 1,
                packet: crate::message::SessionPacket::Keepalive
            }
        )),
        vec![Payload::NotLeader { req: 8 }]
    );
}

#[test]
fn a_later_entry_never_commits_past_an_earlier_one() {
    let mut c = Cluster::new(3, 2, 33, 300);
    let ask = |c: &mut Cluster, worker: NodeId| {
        let appends = sent(&on(
            c,
            0,
            0,
            worker,
            Payload::LockReq {
                req: 1,
                ttl_ms: 5000,
                session: None,
                again: None,
            },
        ));
        let Payload::Append { term, proposal, .. } = appends.last().cloned().unwrap() else {
            panic!("{appends:?}")
        };
        (term, proposal, appends)
    };
    let (term, first, _) = ask(&mut c, 0);
    // The second append goes alone: the first is still on its way (no round trip has passed
    // since it was sent), and etcd raft does not send again what is in flight.
    let (_, second, appends) = ask(&mut c, 1);
    assert_eq!(appends.len(), 2, "{appends:?}");
    // node-3 acknowledges only the later entry: nothing commits yet.
    let out = sent(&on(
        &mut c,
        0,
        1,
        4,
        Payload::AppendAck {
            term,
            proposal: second,
        },
    ));
    assert!(out.is_empty(), "{out:?}");
    assert_eq!(c.revision, 32);
    // The earlier entry reaches a majority: both commit, in log order, at 33 then 34.
    let out = sent(&on(
        &mut c,
        0,
        2,
        4,
        Payload::AppendAck {
            term,
            proposal: first,
        },
    ));
    let revs: Vec<u64> = out
        .iter()
        .filter_map(|p| match p {
            Payload::LockReply { rev, .. } => Some(*rev),
            _ => None,
        })
        .collect();
    assert_eq!(revs, vec![33, 34]);
}
