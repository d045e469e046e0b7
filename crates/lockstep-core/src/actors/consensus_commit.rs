//! Applying a committed entry: the key and lease it makes or deletes, the revision it takes,
//! the answer to its client, and the waiters its deletion wakes.

use super::{Cluster, ConsensusCtx, Lease, Timer, Watcher};
use crate::message::{Entry, Payload};
use crate::trace::{FreeReason, Tag};

impl Cluster {
    /// The new leader has applied its first entry of the term, and every older one: its lessor
    /// becomes primary and extends every lease to now + election timeout + TTL (etcd
    /// server.go: "promote lessor when the local member is leader and finished applying all
    /// entries from the last term"; lessor.go Promote). Only now does it expire leases again.
    fn promote_leases(&mut self, cx: &mut ConsensusCtx<'_>) {
        let extend = self.election_timeout_ms as i64;
        for lease in self.leases.values_mut() {
            lease.expires_local = cx.now_local + extend + lease.ttl_ms as i64;
        }
        if let Some(first) = self.leases.values().map(|l| self.expiry_found_at(l)).min() {
            cx.fx.at(first, Timer::LeaseCheck);
        }
    }

    pub(super) fn commit(&mut self, proposal: u64, cx: &mut ConsensusCtx<'_>) {
        let Some(p) = self.pending.remove(&proposal) else {
            return;
        };
        self.remember_lagging(proposal, &p);
        // An entry of the leader's own term commits, and every entry before it with it: the
        // leader now knows all that is committed (an entry carried over from an older term does
        // not tell it that, Raft §5.4.2).
        if !p.carried && p.term == self.term && !self.term_committed {
            self.term_committed = true;
            self.promote_leases(cx);
            self.answer_held_renewals(cx);
        }
        // etcd's Delete of a missing key deletes nothing and creates no revision (mvcc): a late
        // unlock of a lease that was already revoked changes nothing.
        let changes = match p.entry {
            // A shared session's lease outlives its keys: only an existing key makes a change.
            Entry::Unlock { lease } if self.leases.get(&lease).is_some_and(|l| l.shared) => {
                self.keys.values().any(|l| *l == lease)
            }
            Entry::Unlock { lease } | Entry::Revoke { lease, .. } => {
                self.leases.contains_key(&lease)
            }
            Entry::Lock { .. } => true,
            Entry::Empty => false,
        };
        if changes {
            self.revision += 1;
        }
        let rev = self.revision;
        match p.entry {
            Entry::Empty => {}
            Entry::Lock {
                lease,
                owner,
                ttl_ms,
                req: asked,
            } => {
                let promoted = if p.carried {
                    self.election_timeout_ms as i64
                } else {
                    0
                };
                let expires_local = cx.now_local + promoted + ttl_ms as i64;
                let session = self.leases.get(&lease).map_or(owner, |l| l.session);
                self.leases.insert(
                    lease,
                    Lease {
                        owner,
                        session,
                        req: asked,
                        shared: self.shared_sessions.contains(&session),
                        ttl_ms,
                        expires_local,
                    },
                );
                self.keys.insert(rev, lease);
                if let Some(l) = self.leases.get(&lease) {
                    cx.fx.at(self.expiry_found_at(l), Timer::LeaseCheck);
                }
                let owner_now =
                    self.keys.keys().next() == Some(&rev) && !self.delaying(cx.now_local);
                if owner_now {
                    self.holder_lease = Some(lease);
                } else if let Some(&pred) = self.keys.range(..rev).next_back().map(|(r, _)| r) {
                    self.watchers.insert(
                        pred,
                        Watcher {
                            owner,
                            lease,
                            rev,
                            woken_by: None,
                        },
                    );
                }
                let tag = owner_now.then(|| Tag::ServiceGrants {
                    holder: cx.name(owner),
                    token: Some(rev),
                });
                if let (Some(_), Some(via)) = (p.client, p.asked_via) {
                    let who = cx.name(owner);
                    cx.fx.state(
                        format!("{who}'s key committed, revision {rev}"),
                        format!("The lock request {who} sent to node-{} commits in this term: {who}'s key exists at revision {rev}{}. {who} is not told: it sent the request over its connection to node-{}, and an answer goes back only on the connection a request came in on. Its client saw that request fail and cannot tell that it took effect.", via + 1, if owner_now { " and is the lowest" } else { "" }, via + 1),
                        tag,
                    );
                } else if let Some((client, req)) = p.client {
                    let reply = Payload::LockReply {
                        req,
                        lease,
                        rev,
                        owner_now,
                        ttl_ms,
                    };
                    self.answer(client, p.forwarded_by, reply, tag, cx);
                }
            }
            Entry::Unlock { lease } | Entry::Revoke { lease, .. } => {
                let expired = matches!(p.entry, Entry::Revoke { .. });
                self.revoking.remove(&lease);
                let was_owner = self.keys.values().next() == Some(&lease);
                let keep_lease = !expired && self.leases.get(&lease).is_some_and(|l| l.shared);
                let holder = if keep_lease {
                    // The session lives on for its other Mutex: only the key goes.
                    self.leases
                        .get(&lease)
                        .filter(|_| self.keys.values().any(|l| *l == lease))
                        .map(|l| cx.name(l.owner))
                } else {
                    let removed = self.leases.remove(&lease);
                    if removed.is_some() && !expired {
                        self.released.insert(lease);
                    }
                    removed.map(|l| cx.name(l.owner))
                };
                let gone: Vec<u64> = self
                    .keys
                    .iter()
                    .filter(|(_, l)| **l == lease)
                    .map(|(r, _)| *r)
                    .collect();
                self.keys.retain(|_, l| *l != lease);
                // Keepalives held for the lease (see `renewals_awaiting_revoke`) are answered
                // once the revocation is told.
                let held = !keep_lease
                    && self
                        .renewals_awaiting_revoke
                        .iter()
                        .any(|(l, ..)| *l == lease);
                for rev in gone {
                    self.wake_watcher(rev, cx);
                }
                let reason = if expired {
                    FreeReason::Expired
                } else {
                    FreeReason::Released
                };
                let free_tag = holder
                    .clone()
                    .filter(|_| was_owner)
                    .map(|holder| Tag::ServiceFrees { holder, reason });
                match p.client {
                    Some(_) if p.asked_via.is_some() => {
                        let via = p.asked_via.unwrap_or_default() + 1;
                        let who = holder.unwrap_or_else(|| cx.name(p.client.map_or(0, |c| c.0)));
                        cx.fx.state(
                            format!("{who}'s unlock committed, revision {rev}"),
                            format!("The delete {who} sent to node-{via} commits in this term, and its key is gone at revision {rev}. {who} is not told: it sent the delete over its connection to node-{via}, and an answer goes back only on the connection a request came in on. Its client saw the delete fail and cannot tell that it took effect: it must not assume either way."),
                            free_tag,
                        );
                    }
                    Some((client, req)) => {
                        let reply = Payload::UnlockReply {
                            req,
                            deleted: holder.is_some(),
                            lease_alive: keep_lease,
                        };
                        self.answer(client, p.forwarded_by, reply, free_tag, cx);
                    }
                    None if matches!(p.entry, Entry::Revoke { session: true, .. }) => {
                        let who = holder.unwrap_or_else(|| "?".into());
                        cx.fx.state(
                            format!("session of {who} closed, revision {rev}"),
                            format!("A majority committed the closeSession: {who}'s session is over, and its ephemeral lock node is deleted at revision {rev} (ZooKeeper's zxid). {who}'s client is not told now: it learns the session expired when it next reaches a server, which answers its reconnect with a session timeout of 0 (Expired; Curator reports LOST), or, from ZooKeeper 3.9.3, on its own once 4/3 of the session timeout pass without a word."),
                            free_tag,
                        );
                    }
                    None => {
                        let who = holder.unwrap_or_else(|| "?".into());
                        let told = if held {
                            format!(
                                "The keepalive {who} sent after the lease ran out, held until now, is answered: the lease is not found. Without it, {who} would not be told now."
                            )
                        } else {
                            format!("{who} is not told.")
                        };
                        cx.fx.state(
                            format!("lease of {who} revoked, revision {rev}"),
                            format!("A majority committed the revocation: {who}'s key is deleted at revision {rev}. {told} Its client's Session.Done() closes on its own once no keepalive has been answered for a whole TTL, counted from when the last answer arrived and checked once a second (client/v3/lease.go, deadlineLoop). With one leader throughout, that is never before the lease ran out on the leader, though it can be before this revocation, which the leader's lessor proposes on its first 500 ms pass after that; after a change of leader, which extends every lease by an election timeout (lessor.go, Promote), it can come before the lease runs out on the new leader. Otherwise it finds out when it next talks to the cluster."),
                            free_tag,
                        );
                    }
                }
                if held {
                    self.answer_renewals_after_revoke(lease, cx);
                }
                let was_holder = self.holder_lease == Some(lease);
                if was_holder {
                    self.holder_lease = None;
                }
                if was_holder && expired && self.lock_delay_ms > 0 {
                    let until = cx.now_local + self.lock_delay_ms as i64;
                    self.lock_delay_until = Some(until);
                    cx.fx.at(until, Timer::LockDelayOver);
                    cx.fx.state(
                        format!("lock-delay: free, but not grantable for {} ms", self.lock_delay_ms),
                        format!("The holder's lease expired rather than being released, so, like Chubby's lock-delay, the service lets nobody take the lock for {} ms: a holder that is only slow gets time to finish or fail before anyone else starts. It helps resources that check no fencing token, but it only narrows the window.", self.lock_delay_ms),
                        None,
                    );
                } else if was_owner {
                    self.grant_next(cx);
                }
            }
        }
    }
}
