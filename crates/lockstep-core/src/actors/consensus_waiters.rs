//! The queue behind the lock in the consensus service: a waiter's watch on the key before its
//! own, the lock handed to the lowest key when the one before it goes, and a waiter told its
//! session is gone when its own key went with its lease (etcd's Mutex, concurrency/mutex.go).

use super::{Cluster, ConsensusCtx, Watcher};
use crate::actors::{Dest, Timer};
use crate::message::{Entry, Payload};
use crate::topology::NodeId;
use crate::trace::Tag;

impl Cluster {
    /// A lock request repeated because the first got no answer: etcd's Mutex names its key after
    /// the session's lease, so the repeat finds what the first one made (tryAcquire: the create
    /// fails its compare and reads the existing key's revision instead, mutex.go); Curator finds
    /// its protected-mode node by its name's prefix. A first request
    /// still uncommitted is answered when it commits; a committed one is answered now. False when
    /// the first left nothing, and the request is a new one.
    pub(super) fn lock_again(
        &mut self,
        from: NodeId,
        (first_req, req): (u64, u64),
        via: Option<usize>,
        cx: &mut ConsensusCtx<'_>,
    ) -> bool {
        let who = cx.name(from);
        let first = self.pending.values_mut().find(|p| {
            matches!(p.entry, Entry::Lock { owner, req, .. } if owner == from && req == first_req)
        });
        if let Some(p) = first {
            p.client = Some((from, req));
            p.forwarded_by = via;
            p.asked_via = None;
            let why = if cx.from_zookeeper_client {
                format!(
                    "Curator creates its lock node in protected mode (a name prefix only this client knows) and, after a connection loss, looks for a node with that prefix before it creates another (CreateBuilderImpl.findProtectedNodeInForeground). A ZooKeeper leader commits what it carried over from the last leader before it serves any client (Zab's synchronisation), so the search finds this node: {who} is answered when that entry commits."
                )
            } else {
                format!(
                    "The repeat names the same key (the session's lease), so it is the same change: {who} is answered when that entry commits."
                )
            };
            cx.fx.state(
                format!("{who}'s repeated lock request waits for its first"),
                format!("{who}'s first lock request is in the log but not committed yet. {why}"),
                None,
            );
            return true;
        }
        let made = self.keys.iter().find(|(_, lease)| {
            self.leases
                .get(lease)
                .is_some_and(|l| l.owner == from && l.req == first_req)
                && !self.revoking.contains(lease)
        });
        let Some((&rev, &lease)) = made else {
            return false;
        };
        let ttl_ms = self.leases.get(&lease).map_or(0, |l| l.ttl_ms);
        let owner_now = self.holder_lease == Some(lease);
        let reply = Payload::LockReply {
            req,
            lease,
            rev,
            owner_now,
            ttl_ms,
        };
        self.answer(from, via, reply, None, cx);
        true
    }

    /// Whether Chubby-style lock-delay still keeps the lock from being granted.
    pub(super) fn delaying(&self, now_local: i64) -> bool {
        self.lock_delay_until.is_some_and(|until| now_local < until)
    }

    /// The key at `rev` was deleted: its watcher waits on for the next older key, is granted the
    /// lock by [`Self::grant_next`] if its key is now the lowest, or, if its own key went with its
    /// lease, is told so.
    pub(super) fn wake_watcher(&mut self, rev: u64, cx: &mut ConsensusCtx<'_>) {
        let Some(w) = self.watchers.remove(&rev) else {
            return;
        };
        if !self.keys.contains_key(&w.rev) {
            cx.fx.send(
                Dest::Node(w.owner),
                Payload::SessionGone {
                    lease: w.lease,
                    rev: Some(w.woken_by.unwrap_or(rev)),
                },
            );
        } else if let Some(&pred) = self.keys.range(..w.rev).next_back().map(|(r, _)| r) {
            self.watchers.insert(pred, w);
        } else if self.revoking.contains(&w.lease) {
            // No key before its own is left, but its own lease is being revoked: etcd's
            // Mutex.Lock, woken by this delete, reads its own key (concurrency/mutex.go) after the
            // revocation commits and finds it gone (ErrSessionExpired). grant_next does not grant
            // a lease being revoked, so it waits on its own key and is told when that goes.
            self.watchers.insert(
                w.rev,
                Watcher {
                    woken_by: Some(rev),
                    ..w
                },
            );
        }
    }

    /// The owner's key is gone: tell the owner of the next key, unless its own lease is being
    /// revoked or has already run out (it would be told "locked" on a lease that is about to
    /// vanish). Its revocation, once committed, grants the key after it.
    pub(super) fn grant_next(&mut self, cx: &mut ConsensusCtx<'_>) {
        if self.delaying(cx.now_local) {
            return;
        }
        let Some((&next_rev, &next_lease)) = self.keys.iter().next() else {
            return;
        };
        let Some(l) = self.leases.get(&next_lease) else {
            return;
        };
        if self.revoking.contains(&next_lease) {
            return;
        }
        if l.expires_local <= cx.now_local {
            cx.fx
                .at(self.expiry_found_at(l).max(cx.now_local), Timer::LeaseCheck);
            return;
        }
        self.holder_lease = Some(next_lease);
        let tag = Tag::ServiceGrants {
            holder: cx.name(l.owner),
            token: Some(next_rev),
        };
        cx.fx.send_tagged(
            Dest::Node(l.owner),
            Payload::LockGranted {
                lease: next_lease,
                rev: next_rev,
            },
            Some(tag),
        );
    }
}
