//! A Redis-like instance holding the lock key: `SET NX PX` judged on its own clock,
//! compare-and-delete, compare-and-extend, an `INCR` fencing counter, and asynchronous replication.

use super::{Dest, Effects, Timer};
use crate::message::{Payload, ReplOp};
use crate::scenario::Persistence;
use crate::topology::NodeId;
use crate::trace::{FreeReason, Tag};

/// The lock key as the instance stores it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct LockKey {
    /// The holder's random value.
    pub value: u64,
    pub owner: NodeId,
    /// Absolute expiry on the instance's clock (Redis stores absolute unix ms).
    pub expires_local: i64,
}

/// One instance.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct RedisInstance {
    pub key: Option<LockKey>,
    /// The fencing counter; `INCR` returns `counter + 1`.
    pub counter: u64,
    /// A replica applies what its master ships and never expires keys itself.
    pub is_replica: bool,
    /// The replica this master ships to.
    pub replica: Option<NodeId>,
    pub replica_lag_ms: u64,
    pub backlog: Vec<ReplOp>,
    pub ship_pending: bool,
    /// Bumped whenever the key changes, so that stale expiry checks do nothing.
    pub generation: u64,
    /// The counter a fresh instance starts from (`first_token - 1`). A restart without
    /// persistence does not return to it: an empty Redis has no counter key, so INCR returns 1.
    pub initial_counter: u64,
    /// How far the instance's clock has stepped (net, ms) since the key's expiry was last set:
    /// a step forward expires the key early, a step back keeps it past its TTL.
    pub clock_step_since_set: i64,
    /// When (instance clock) the instance last reacted, for the every-second fsync.
    pub last_touch_local: i64,
    /// The key and counter as of the last fsync (`appendfsync everysec`).
    pub fsynced: (Option<LockKey>, u64),
    /// When (instance clock) the last fsync was (aof.c's `aof_last_fsync`, set as the server
    /// starts).
    pub last_fsync_local: i64,
    /// The key and counter as the instance's last reaction found them: it wrote if they changed.
    pub before_reaction: (Option<LockKey>, u64),
    /// Other clients write to the instance all the time (`lock.background_writes`): its
    /// everysec fsyncs come a second apart whatever the workers do.
    pub background_writes: bool,
    /// The last crash took the machine down, not only the process: the kernel's unflushed
    /// pages are gone, so `everysec` loses up to the last second.
    pub host_crashed: bool,
}

/// What an instance sees while it reacts.
#[derive(Debug)]
pub struct RedisCtx<'a> {
    pub name: &'a str,
    pub now_local: i64,
    pub key: &'a str,
    pub names: &'a [String],
    pub fx: &'a mut Effects,
}

impl RedisCtx<'_> {
    fn owner(&self, node: NodeId) -> String {
        self.names
            .get(usize::from(node))
            .cloned()
            .unwrap_or_default()
    }
}

impl RedisInstance {
    pub fn new(counter: u64) -> Self {
        RedisInstance {
            key: None,
            counter,
            is_replica: false,
            replica: None,
            replica_lag_ms: 0,
            backlog: Vec::new(),
            ship_pending: false,
            generation: 0,
            initial_counter: counter,
            clock_step_since_set: 0,
            last_touch_local: 0,
            fsynced: (None, counter),
            last_fsync_local: 0,
            before_reaction: (None, counter),
            background_writes: false,
            host_crashed: false,
        }
    }

    /// Brings the `appendfsync everysec` file up to `now_local`, at the start of a reaction:
    /// nothing changed since the last one, so each fsync in between wrote the current state.
    /// Redis fsyncs as it flushes a write to the file, before replying, when a second or more
    /// passed since the last fsync, and otherwise a second after the last fsync, checked on every
    /// turn of its event loop even with no new write (aof.c `flushAppendOnlyFile`, called from
    /// `beforeSleep`; the loop turns at least every 100 ms): an idle instance's first write is on
    /// disk at once, and a write less than a second after an fsync waits up to a second. With
    /// other clients writing all the time, an fsync comes every second.
    fn touch(&mut self, now_local: i64) {
        let state = (self.key, self.counter);
        let last = self.last_touch_local;
        if self.background_writes {
            if now_local >= self.last_fsync_local + 1000 {
                self.fsynced = state;
                self.last_fsync_local +=
                    (now_local - self.last_fsync_local).div_euclid(1000) * 1000;
            }
        } else {
            // The last reaction's write, flushed as it replied.
            if state != self.before_reaction && last - self.last_fsync_local >= 1000 {
                self.fsynced = state;
                self.last_fsync_local = last;
            }
            // What waited, a second after the last fsync.
            if state != self.fsynced && now_local >= self.last_fsync_local + 1000 {
                self.fsynced = state;
                self.last_fsync_local += 1000;
            }
        }
        self.before_reaction = state;
        self.last_touch_local = now_local;
    }

    fn replicate(&mut self, op: ReplOp, cx: &mut RedisCtx<'_>) {
        if self.replica.is_none() {
            return;
        }
        self.backlog.push(op);
        if !self.ship_pending {
            self.ship_pending = true;
            cx.fx.after(self.replica_lag_ms, Timer::Ship);
        }
    }

    fn arm_expiry(&mut self, cx: &mut RedisCtx<'_>) {
        self.generation += 1;
        self.clock_step_since_set = 0;
        if let Some(k) = self.key
            && !self.is_replica
        {
            // Alive at the expiry millisecond itself, gone at the next one.
            cx.fx
                .at(k.expires_local + 1, Timer::Expire(self.generation));
        }
    }

    /// Redis also expires lazily on access: a key past its time is gone for every command.
    /// `expireIfNeeded` in db.c keeps a key while `mstime() <= when`.
    fn expire_if_due(&mut self, cx: &mut RedisCtx<'_>) {
        if let Some(k) = self.key
            && !self.is_replica
            && cx.now_local > k.expires_local
        {
            self.expire(cx);
        }
    }

    fn expire(&mut self, cx: &mut RedisCtx<'_>) {
        let Some(k) = self.key.take() else { return };
        self.generation += 1;
        let holder = cx.owner(k.owner);
        let step = self.clock_step_since_set;
        let (label, why) = if step < 0 {
            (
                format!(
                    "{} expired late (clock stepped back on {})",
                    cx.key, cx.name
                ),
                format!(
                    "Expired late: {name}'s clock was stepped back by {back} ms, so the key outlived its TTL by that much in real time: Redis stores an expiry as absolute wall-clock milliseconds (Redis docs, EXPIRE).",
                    name = cx.name,
                    back = -step
                ),
            )
        } else if step > 0 {
            (
                format!("{} expired (clock jump on {})", cx.key, cx.name),
                format!(
                    "{name}'s wall clock jumped forward past the key's expiry time, so the key is gone before its TTL could have run out in real time: Redis stores an expiry as absolute wall-clock milliseconds (Redis docs, EXPIRE).",
                    name = cx.name
                ),
            )
        } else {
            (
                format!("{} expired ({holder}'s TTL ran out)", cx.key),
                format!(
                    "{name}'s clock passed the key's expiry time, so {name} deletes it.",
                    name = cx.name
                ),
            )
        };
        cx.fx.state(
            label,
            format!("{why} The lock is free, whatever {holder} believes: Redis tells nobody."),
            Some(Tag::ServiceFrees {
                holder,
                reason: FreeReason::Expired,
            }),
        );
        self.replicate(ReplOp::DelKey, cx);
    }

    pub fn on_timer(&mut self, timer: Timer, cx: &mut RedisCtx<'_>) {
        self.touch(cx.now_local);
        match timer {
            Timer::Expire(generation) if generation == self.generation => match self.key {
                Some(k) if cx.now_local > k.expires_local => self.expire(cx),
                Some(k) => cx
                    .fx
                    .at(k.expires_local + 1, Timer::Expire(self.generation)),
                None => {}
            },
            Timer::Ship => {
                self.ship_pending = false;
                if let Some(replica) = self.replica
                    && !self.backlog.is_empty()
                {
                    let ops = std::mem::take(&mut self.backlog);
                    cx.fx.send(Dest::Node(replica), Payload::Replicate { ops });
                }
            }
            _ => {}
        }
    }

    pub fn on_message(&mut self, from: NodeId, payload: Payload, cx: &mut RedisCtx<'_>) {
        self.touch(cx.now_local);
        self.expire_if_due(cx);
        match payload {
            Payload::Set {
                req,
                value,
                ttl_ms,
                with_token,
            } => {
                if self.key.is_some() {
                    cx.fx.send(
                        Dest::Node(from),
                        Payload::SetReply {
                            req,
                            ok: false,
                            token: None,
                        },
                    );
                    return;
                }
                let key = LockKey {
                    value,
                    owner: from,
                    expires_local: cx.now_local + ttl_ms as i64,
                };
                self.key = Some(key);
                self.arm_expiry(cx);
                self.replicate(
                    ReplOp::SetKey {
                        value,
                        owner: from,
                        expires_local: key.expires_local,
                    },
                    cx,
                );
                let token = if with_token {
                    self.counter += 1;
                    self.replicate(ReplOp::Counter(self.counter), cx);
                    Some(self.counter)
                } else {
                    None
                };
                let tag = Tag::ServiceGrants {
                    holder: cx.owner(from),
                    token,
                };
                cx.fx.send_tagged(
                    Dest::Node(from),
                    Payload::SetReply {
                        req,
                        ok: true,
                        token,
                    },
                    Some(tag),
                );
            }
            Payload::Del { req, value } => {
                let deleted = self.key.is_some_and(|k| k.value == value);
                let mut tag = None;
                if deleted {
                    self.key = None;
                    self.generation += 1;
                    self.replicate(ReplOp::DelKey, cx);
                    tag = Some(Tag::ServiceFrees {
                        holder: cx.owner(from),
                        reason: FreeReason::Released,
                    });
                }
                cx.fx
                    .send_tagged(Dest::Node(from), Payload::DelReply { req, deleted }, tag);
            }
            Payload::DelPlain { req } => {
                let mut tag = None;
                let deleted = self.key.take();
                if let Some(k) = deleted {
                    self.generation += 1;
                    self.replicate(ReplOp::DelKey, cx);
                    let holder = cx.owner(k.owner);
                    if k.owner != from {
                        cx.fx.state(
                            format!("{}'s DEL deleted {holder}'s lock", cx.owner(from)),
                            format!(
                                "The key held {holder}'s value, not {sender}'s: {sender}'s lease had run out and {holder} had taken the lock. A plain DEL does not check, so {holder}'s lock is gone while {holder} still works under it.",
                                sender = cx.owner(from)
                            ),
                            None,
                        );
                    }
                    tag = Some(Tag::ServiceFrees {
                        holder,
                        reason: FreeReason::Released,
                    });
                }
                let deleted = deleted.is_some();
                cx.fx.send_tagged(
                    Dest::Node(from),
                    Payload::DelPlainReply { req, deleted },
                    tag,
                );
            }
            Payload::Extend { req, value, ttl_ms } => {
                let ok = self.key.is_some_and(|k| k.value == value);
                if let Some(k) = self.key.as_mut().filter(|_| ok) {
                    k.expires_local = cx.now_local + ttl_ms as i64;
                    let k = *k;
                    self.arm_expiry(cx);
                    self.replicate(
                        ReplOp::SetKey {
                            value,
                            owner: from,
                            expires_local: k.expires_local,
                        },
                        cx,
                    );
                }
                let tag = ok.then_some(Tag::Renewed);
                cx.fx
                    .send_tagged(Dest::Node(from), Payload::ExtendReply { req, ok }, tag);
            }
            Payload::Replicate { ops } => {
                for op in ops {
                    match op {
                        ReplOp::SetKey {
                            value,
                            owner,
                            expires_local,
                        } => {
                            self.key = Some(LockKey {
                                value,
                                owner,
                                expires_local,
                            });
                        }
                        ReplOp::DelKey => self.key = None,
                        ReplOp::Counter(c) => self.counter = c,
                    }
                }
            }
            _ => {}
        }
    }

    /// The node process stops at `now_local`: what was not yet shipped to the replica is lost.
    pub fn crash(&mut self, now_local: i64, host: bool) {
        self.touch(now_local);
        self.host_crashed = host;
        self.backlog.clear();
        self.ship_pending = false;
    }

    /// The node comes back with what its persistence kept: nothing, the last second's fsync, or
    /// everything it acknowledged.
    pub fn restart(&mut self, persistence: Persistence, cx: &mut RedisCtx<'_>) {
        // Redis write(2)s the AOF to the kernel before it replies: a process crash leaves every
        // acknowledged write in the page cache, which the OS flushes. Only a host crash loses
        // what was not yet fsynced (redis.conf, APPEND ONLY MODE).
        if persistence == Persistence::Everysec && self.host_crashed {
            self.reload_fsynced(cx);
        }
        self.host_crashed = false;
        // A fresh server's last fsync is its start, in whole seconds (`time(NULL) * 1000`).
        self.last_fsync_local = cx.now_local.div_euclid(1000) * 1000;
        self.fsynced = (self.key, self.counter);
        self.before_reaction = self.fsynced;
        self.last_touch_local = cx.now_local;
        if persistence == Persistence::None {
            // Nothing was kept, so there is no key left to expire, whatever its time was.
            self.come_back_empty(cx);
        } else {
            // A kept key whose time passed while the instance was down is expired, not forgotten.
            self.expire_if_due(cx);
        }
        self.arm_expiry(cx);
    }

    fn come_back_empty(&mut self, cx: &mut RedisCtx<'_>) {
        if let Some(k) = self.key.take() {
            let holder = cx.owner(k.owner);
            // The key went with the process's memory when it went down; say so where that no
            // longer matters (its TTL ran out meanwhile) rather than suggest a loss now.
            let (label, why) = if cx.now_local > k.expires_local {
                (
                    format!("{} came back without {}", cx.name, cx.key),
                    format!(
                        "{holder}'s key went with {}'s memory when it went down, and its TTL has run out since: coming back empty loses nothing a holder could still count on.",
                        cx.name
                    ),
                )
            } else {
                (
                    format!("{} forgot {}", cx.name, cx.key),
                    format!(
                        "{} restarted without persistence and came back empty: the key that said {holder} holds the lock is gone.",
                        cx.name
                    ),
                )
            };
            cx.fx.state(
                label,
                why,
                Some(Tag::ServiceFrees {
                    holder,
                    reason: FreeReason::Forgotten,
                }),
            );
        }
        if self.counter > 0 {
            cx.fx.state(
                format!("{} forgot the fencing counter (was {})", cx.name, self.counter),
                format!("The counter key went with everything else, so the next INCR returns 1. A database that has seen token {c} refuses every later holder until the counter climbs back to {c}; then it hands out {c} a second time, which the database accepts as the same holder carrying on. The repair is to set the counter above {c}, not to wait for it. The acquire function went too (Redis keeps functions with its data, so FCALL answers \"Function not found\" until the library is loaded again): this model has it loaded as the instance starts, as a deployment script or a client that runs FUNCTION LOAD on that error would; a client using EVAL sends the script every time.", c = self.counter),
                None,
            );
        }
        self.counter = 0;
    }

    /// `appendfsync everysec`: the append-only file has what was written up to the last fsync
    /// before the crash; anything acknowledged after it is gone.
    fn reload_fsynced(&mut self, cx: &mut RedisCtx<'_>) {
        let (key, counter) = self.fsynced;
        let fsync = self.last_fsync_local;
        if let Some(k) = self.key
            && key.is_none_or(|old| old.value != k.value)
        {
            let holder = cx.owner(k.owner);
            cx.fx.state(
                format!("{} lost {holder}'s key (written after the last fsync)", cx.name),
                format!("{} reloads its append-only file, fsynced every second (appendfsync everysec, Redis's default for AOF): {holder}'s key was acknowledged after the last fsync at {fsync} ms on its clock, and the power loss took the kernel's unflushed pages with it, so it is gone.", cx.name),
                Some(Tag::ServiceFrees { holder, reason: FreeReason::Forgotten }),
            );
        }
        // A release (or an expiry) after the last fsync is lost too: the file brings the key back.
        if let Some(k) = key
            && self.key.is_none_or(|now| now.value != k.value)
        {
            let holder = cx.owner(k.owner);
            cx.fx.state(
                format!("{} has {holder}'s key again (its deletion was after the last fsync)", cx.name),
                format!("The append-only file, as of the fsync at {fsync} ms on {}'s clock, still holds {holder}'s key: its deletion (a release, or an expiry, which Redis writes to the file as a DEL) came after that fsync and was lost with the kernel's unflushed pages. The key is back with its old expiry time (the file keeps the absolute time), so nobody else can take the lock until it runs out.", cx.name),
                None,
            );
        }
        if counter < self.counter {
            cx.fx.state(
                format!("{}'s fencing counter is back at {counter} (was {})", cx.name, self.counter),
                format!("The INCRs after the last fsync are lost too: the next token will be {}, a number already handed out.", counter + 1),
                None,
            );
        }
        self.key = key;
        self.counter = counter;
        self.generation += 1;
    }

    /// The replica becomes the master, with only what had been replicated.
    /// `tokens_in_use`: some worker takes a fencing token with its lock, so the counter matters.
    pub fn promote(&mut self, tokens_in_use: bool, cx: &mut RedisCtx<'_>) {
        self.is_replica = false;
        if let Some(k) = self.key {
            let holder = cx.owner(k.owner);
            cx.fx.state(
                format!("{} is master; it has {holder}'s key", cx.name),
                format!("The promoted replica had received {holder}'s key, so it keeps honouring that lock (its counter is at {}).", self.counter),
                Some(Tag::ServiceGrants { holder, token: None }),
            );
        } else {
            cx.fx.state(
                format!("{} is master, without the lock key", cx.name),
                if tokens_in_use {
                    format!(
                        "The promoted replica never received the lock key, and its fencing counter is at {}: it will grant the lock again and reissue tokens.",
                        self.counter
                    )
                } else {
                    "The promoted replica never received the lock key: it will grant the lock again to whoever asks.".into()
                },
                None,
            );
        }
        self.arm_expiry(cx);
    }

    /// The clock stepped: re-judge the key now.
    pub fn clock_jumped(&mut self, by_ms: i64, cx: &mut RedisCtx<'_>) {
        if self.key.is_some() && !self.is_replica {
            self.clock_step_since_set += by_ms;
            cx.fx.after(0, Timer::Expire(self.generation));
        }
    }
}

#[cfg(test)]
#[path = "redis_tests.rs"]
mod tests;
