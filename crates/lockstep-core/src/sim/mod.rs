//! The simulation: one deterministic event queue ordered by (time, sequence) and dispatch to the
//! actors. The network lives in [`network`], faults in [`faults`], fixed parameters in [`params`].

mod connections;
mod effects;
mod explore;
mod faults;
mod narrate;
mod network;
mod order;
mod params;
mod rollout;
mod watches;
mod whatif;

use faults::PauseTrigger;
use network::MessageRule;
pub use order::Contest;
pub use params::Params;

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;

use crate::actors::consensus::{Cluster, ConsensusCtx};
use crate::actors::db::{Database, DbCtx};
use crate::actors::redis::{RedisCtx, RedisInstance};
use crate::actors::worker::{Worker, WorkerCtx};
use crate::actors::{Effect, Effects, Timer};
use crate::clock::Clock;
use crate::message::{Closing, Payload};
use crate::scenario::{FaultKind, LockKind, Scenario, defaults};
use crate::topology::{NodeId, Role};
use crate::trace::TraceEvent;

/// The simulation's only source of randomness, seeded from the scenario.
#[derive(Debug, Clone)]
pub struct SimRng(pub ChaCha8Rng);

impl PartialEq for SimRng {
    fn eq(&self, other: &Self) -> bool {
        self.0.get_seed() == other.0.get_seed() && self.0.get_word_pos() == other.0.get_word_pos()
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Item {
    Deliver {
        msg: u64,
        from: NodeId,
        to: NodeId,
        payload: Payload,
        label: String,
        sent_at: u64,
        announced: bool,
    },
    Timer {
        node: NodeId,
        epoch: u32,
        timer: Timer,
    },
    Fault(usize),
    Resume(NodeId),
    /// Nothing happens, but the simulator looks again at what waits for a time to pass (a
    /// watch event waiting for the leader's next heartbeat, watches.rs).
    Wake,
    /// What a node had decided in a reaction when a pause froze it mid-way (`after`): carried
    /// out when it resumes, as if its thread stopped on that line.
    Rest {
        node: NodeId,
        epoch: u32,
        effects: Vec<Effect>,
    },
}

/// Queue position: items run in (time, sequence) order, so ties break by scheduling order.
type QueueKey = (u64, u64);

/// What wakes a node up.
#[derive(Debug)]
enum Stimulus {
    Timer(Timer),
    Message { from: NodeId, payload: Payload },
}

/// Per-node run state that every kind of node has.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct NodeState {
    pub clock: Clock,
    /// How far clock jumps have stepped this node's wall clock in total. Its monotonic clock,
    /// which etcd, ZooKeeper and the workers time leases with, is the wall clock minus this.
    pub jumped_ms: i64,
    pub alive: bool,
    /// Down with its machine (a host crash), not only its process: nothing answers for it, not
    /// even a connection refused.
    pub host_down: bool,
    /// Messages numbered below this were sent before the node last went down: they were on
    /// a connection its death reset, not a new one its machine refuses.
    pub down_after_msg: u64,
    pub paused_until: Option<u64>,
    backlog: Vec<Item>,
    /// Bumped on crash and restart, so that timers set before are void.
    epoch: u32,
}

/// Why a run stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum End {
    /// Every worker finished and no message is in flight.
    Finished,
    /// Nothing left to happen, though some worker had not finished.
    Quiet,
    /// `limits.max_time_ms` was reached.
    TimeLimit,
    /// `limits.max_events` was reached.
    EventLimit,
}

/// The whole state of a run. Cloning it is how stepping back and what-if branches work.
#[derive(Debug, Clone, PartialEq)]
pub struct Sim {
    pub params: Arc<Params>,
    now: u64,
    seq: u64,
    queue: BTreeMap<QueueKey, Item>,
    /// Each worker's pending request timeout: a new request's timeout replaces it, so stale
    /// timeouts do not pile up in the queue (and in every checkpoint).
    pending_timeout: Vec<Option<QueueKey>>,
    rng: SimRng,
    pub nodes: Vec<NodeState>,
    pub workers: Vec<Worker>,
    /// Redis or Redlock instances, in participant order after the workers.
    pub redis: Vec<RedisInstance>,
    pub cluster: Option<Cluster>,
    pub db: Database,
    /// Partition group per node; 0 = in no group (reaches everyone).
    partition: Vec<u16>,
    rules: Vec<MessageRule>,
    triggers: Vec<PauseTrigger>,
    /// Which message goes first where several are due at one node at once (`[[order]]`).
    orders: Vec<order::OrderRule>,
    explained: Vec<bool>,
    /// Every time a service let go of a holder's key, for answers that name the cause.
    freed: Vec<narrate::FreedKey>,
    /// Some worker wrote after the service had let go of its key.
    stale_write_seen: bool,
    /// The workers that believe they hold the lock, in the order they came to (narrate.rs).
    believers: Vec<NodeId>,
    /// Whether the database's fencing check has been told in a run migrating to fencing.
    rollout_told: bool,
    /// Which of the scenario's faults took effect (see [`crate::unapplied`]).
    fault_applied: Vec<bool>,
    redis_master: NodeId,
    /// A Redis master replaced by a failover while cut off, still answering whoever reaches it.
    deposed_master: Option<NodeId>,
    next_msg: u64,
    in_flight: u64,
    /// Watch events sent across a partition: TCP holds them on the watch's stream and delivers
    /// them when the two sides can reach each other again (see network.rs).
    held: Vec<Item>,
    /// Watch events for a ZooKeeper-style client with no connection, fired anew when it sets
    /// its watches again on reconnecting (see network.rs).
    unsent_watches: Vec<(NodeId, Payload)>,
    /// Watch events whose client's server cannot apply the commit yet (watches.rs).
    stalled_watches: Vec<watches::StalledWatch>,
    /// (worker, consensus node): connections that died with the node's machine (connections.rs).
    stale_connections: BTreeSet<(NodeId, NodeId)>,
    /// Delayed `commit:` messages for a watch whose news the leader's next heartbeat carried
    /// first: they change nothing when they arrive (watches.rs).
    superseded_relays: BTreeSet<u64>,
    emitted: u64,
    pub end: Option<End>,
}

impl Sim {
    /// A run of a validated scenario, at time 0 with nothing processed yet.
    pub fn new(scenario: &Scenario) -> Sim {
        let params = Arc::new(Params::new(scenario));
        let s = &params.scenario;
        let mut nodes: Vec<NodeState> = params
            .participants
            .iter()
            .map(|_| NodeState {
                clock: Clock::default(),
                jumped_ms: 0,
                alive: true,
                host_down: false,
                down_after_msg: 0,
                paused_until: None,
                backlog: Vec::new(),
                epoch: 0,
            })
            .collect();
        for c in &s.clocks {
            if let Some(id) = params.node(&c.node) {
                nodes[usize::from(id)].clock = Clock {
                    drift_ppm: c.drift_ppm,
                    offset_ms: c.offset_ms,
                };
            }
        }
        let first = params.first_service;
        let counter = s.lock.first_token() - 1;
        let mut redis = Vec::new();
        let mut cluster = None;
        match s.lock.kind {
            LockKind::Redis => {
                let mut master = RedisInstance::new(counter);
                if let Some(lag) = s.lock.replica_lag_ms {
                    master.replica = Some(first + 1);
                    master.replica_lag_ms = lag;
                    let mut replica = RedisInstance::new(counter);
                    replica.is_replica = true;
                    redis = vec![master, replica];
                } else {
                    redis = vec![master];
                }
            }
            LockKind::Redlock => {
                redis = (0..params.lock.instances)
                    .map(|_| RedisInstance::new(counter))
                    .collect();
            }
            LockKind::Consensus => {
                let n = s.lock.nodes.unwrap_or(defaults::CONSENSUS_NODES) as usize;
                let timeout = s
                    .lock
                    .election_timeout_ms
                    .unwrap_or(defaults::ELECTION_TIMEOUT_MS);
                let mut c = Cluster::new(n, first, s.lock.first_token(), timeout);
                c.lock_delay_ms = s.lock.lock_delay_ms.unwrap_or(0);
                c.shared_sessions = s
                    .workers
                    .iter()
                    .filter_map(|w| w.session.as_deref().and_then(|n| params.node(n)))
                    .collect();
                c.zookeeper_sessions = s
                    .workers
                    .iter()
                    .filter(|w| w.on_suspended.is_some())
                    .filter_map(|w| params.node(&w.name))
                    .collect();
                c.min_ttl_ms = s.lock.min_ttl_ms.unwrap_or(0);
                let node = |i: usize| first + i as NodeId;
                c.round_trip_ms = (0..n)
                    .map(|i| {
                        (0..n)
                            .map(|j| 2 * params.latency(node(i), node(j)))
                            .collect()
                    })
                    .collect();
                cluster = Some(c);
            }
            LockKind::None => {}
        }
        let busy = s.lock.background_writes.unwrap_or(false);
        for instance in &mut redis {
            instance.background_writes = busy;
        }
        let mut rules = Vec::new();
        let mut triggers = Vec::new();
        let mut initial = Vec::new();
        for (i, f) in s.faults.iter().enumerate() {
            match f.kind {
                FaultKind::Delay | FaultKind::Drop => rules.push(MessageRule {
                    drop: f.kind == FaultKind::Drop,
                    extra_ms: f.duration_ms.unwrap_or(0),
                    prefix: f.match_label.clone().unwrap_or_default(),
                    from: f.from.as_deref().and_then(|n| params.node(n)),
                    to: f.to.as_deref().and_then(|n| params.node(n)),
                    active_from: f.at_ms.unwrap_or(0),
                    used: false,
                    fault: Some(i),
                }),
                FaultKind::Pause if f.after.is_some() => triggers.push(PauseTrigger {
                    node: f
                        .target
                        .as_deref()
                        .and_then(|n| params.node(n))
                        .unwrap_or(0),
                    after: f.after.clone().unwrap_or_default(),
                    duration_ms: f.duration_ms.unwrap_or(0),
                    used: false,
                    fault: i,
                }),
                _ => initial.push((f.at_ms.unwrap_or(0), Item::Fault(i))),
            }
        }
        let mut sim = Sim {
            now: 0,
            seq: 0,
            queue: BTreeMap::new(),
            pending_timeout: vec![None; s.workers.len()],
            rng: SimRng(ChaCha8Rng::seed_from_u64(s.seed)),
            partition: vec![0; nodes.len()],
            nodes,
            workers: s
                .workers
                .iter()
                .cloned()
                .map(|cfg| {
                    let session_of = cfg.session.as_deref().and_then(|n| params.node(n));
                    Worker {
                        session_of,
                        ..Worker::new(cfg)
                    }
                })
                .collect(),
            redis,
            cluster,
            db: Database {
                conditional: s.resource.conditional_write,
                retention_ms: s.resource.idempotency_retention_ms,
                ..Database::new(
                    s.resource.fencing,
                    s.resource.idempotency,
                    s.resource.payouts,
                    s.resource.amount_cents,
                )
            },
            rules,
            triggers,
            orders: Vec::new(),
            explained: vec![false; s.explain.len()],
            freed: Vec::new(),
            stale_write_seen: false,
            believers: Vec::new(),
            rollout_told: false,
            fault_applied: vec![false; s.faults.len()],
            redis_master: first,
            deposed_master: None,
            next_msg: 1,
            in_flight: 0,
            held: Vec::new(),
            unsent_watches: Vec::new(),
            stalled_watches: Vec::new(),
            stale_connections: BTreeSet::new(),
            superseded_relays: BTreeSet::new(),
            emitted: 0,
            end: None,
            params: params.clone(),
        };
        sim.orders = sim.order_rules(&s.order);
        // Faults first: a fault at time t hits before anything else that happens at t.
        for (at, item) in initial {
            sim.push(at, item);
        }
        for (i, w) in s.workers.iter().enumerate() {
            sim.push(
                w.start_ms,
                Item::Timer {
                    node: i as NodeId,
                    epoch: 0,
                    timer: Timer::Start,
                },
            );
        }
        sim
    }

    /// Simulated true time of the last processed event.
    pub fn now(&self) -> u64 {
        self.now
    }

    /// The node a worker's `Dest::LockService` reaches now.
    pub fn lock_service_node(&self) -> Option<NodeId> {
        match self.params.lock.kind {
            LockKind::Redis => Some(self.redis_master),
            LockKind::Consensus => self.cluster.as_ref().map(Cluster::leader_node),
            _ => None,
        }
    }

    /// Whether the scenario's fault `index` has taken effect.
    pub(crate) fn fault_applied(&self, index: usize) -> bool {
        self.fault_applied.get(index).copied().unwrap_or(false)
    }

    /// Whether the scenario's `[[explain]]` entry `index` has been shown.
    pub(crate) fn explanation_shown(&self, index: usize) -> bool {
        self.explained.get(index).copied().unwrap_or(false)
    }

    /// Whether `node` is frozen by a pause now.
    pub fn is_paused(&self, node: NodeId) -> bool {
        self.nodes[usize::from(node)].paused_until.is_some()
    }

    fn push(&mut self, time: u64, item: Item) -> QueueKey {
        self.seq += 1;
        let key = (time, self.seq);
        self.queue.insert(key, item);
        key
    }

    /// Processes the next queued item, appending its events to `out`. False once the run has ended.
    pub fn advance(&mut self, out: &mut Vec<TraceEvent>) -> bool {
        if self.end.is_some() {
            return false;
        }
        let limits = &self.params.scenario.limits;
        let (max_time, max_events) = (limits.max_time_ms, limits.max_events);
        let Some((&(next_time, _), _)) = self.queue.first_key_value() else {
            self.finish(End::Quiet, out);
            return true;
        };
        if next_time > max_time {
            self.now = max_time;
            self.finish(End::TimeLimit, out);
            return true;
        }
        if !self.orders.is_empty() {
            self.apply_order_rules(out);
        }
        let Some(((time, seq), item)) = self.queue.pop_first() else {
            return false;
        };
        if let Item::Timer {
            node,
            timer: Timer::RequestTimeout(_),
            ..
        } = item
            && let Some(slot) = self.pending_timeout.get_mut(usize::from(node))
            && *slot == Some((time, seq))
        {
            *slot = None;
        }
        self.now = time;
        let knew_commits = self.leader_knows_commits();
        self.dispatch(item, out);
        // A leader that learns here which entries are committed tells its followers with its
        // next message: a follower's watch waits for that `commit:`.
        self.release_stalled_watches(!knew_commits && self.leader_knows_commits(), out);
        // A `commit:` a later heartbeat overtook changes nothing: the run need not wait for it.
        let in_flight = (self.in_flight).saturating_sub(self.superseded_relays.len() as u64);
        if in_flight == 0 && self.workers.iter().all(|w| w.phase.is_terminal()) {
            self.finish(End::Finished, out);
        } else if self.emitted >= max_events {
            self.finish(End::EventLimit, out);
        }
        true
    }

    fn emit(&mut self, out: &mut Vec<TraceEvent>, mut ev: TraceEvent) {
        let params = &self.params;
        if !params.scenario.explain.is_empty() {
            for (i, e) in params.scenario.explain.iter().enumerate() {
                let node_matches = e
                    .node
                    .as_deref()
                    .is_none_or(|n| params.names[usize::from(ev.from)] == n);
                if !self.explained[i] && node_matches && ev.label.starts_with(&e.when) {
                    self.explained[i] = true;
                    ev.explanation = e.text.clone();
                    break;
                }
            }
        }
        let trigger = self
            .triggers
            .iter()
            .position(|t| !t.used && t.node == ev.from && ev.label.starts_with(&t.after));
        let node = ev.from;
        self.follow(&mut ev);
        out.push(ev);
        self.emitted += 1;
        if let Some(i) = trigger {
            self.triggers[i].used = true;
            self.fault_applied[self.triggers[i].fault] = true;
            let duration = self.triggers[i].duration_ms;
            self.pause(node, duration, out);
        }
    }

    fn name(&self, node: NodeId) -> &str {
        &self.params.names[usize::from(node)]
    }

    fn dispatch(&mut self, item: Item, out: &mut Vec<TraceEvent>) {
        match item {
            Item::Fault(i) => self.apply_fault(i, out),
            Item::Resume(node) => self.resume(node, out),
            Item::Wake => {}
            Item::Timer { node, epoch, timer } => {
                let st = &mut self.nodes[usize::from(node)];
                if !st.alive || st.epoch != epoch {
                    return;
                }
                if st.paused_until.is_some() {
                    st.backlog.push(Item::Timer { node, epoch, timer });
                    return;
                }
                if timer == Timer::CheckQuorum {
                    self.check_quorum(node, out);
                    return;
                }
                if timer == Timer::Start {
                    self.tell_rollout(node, out);
                }
                self.reset_heard(node, &timer);
                self.react(node, Stimulus::Timer(timer), out);
            }
            item @ Item::Deliver { .. } => self.deliver(item, out),
            Item::Rest {
                node,
                epoch,
                effects,
            } => {
                let st = &mut self.nodes[usize::from(node)];
                if !st.alive || st.epoch != epoch {
                    return;
                }
                if st.paused_until.is_some() {
                    st.backlog.push(Item::Rest {
                        node,
                        epoch,
                        effects,
                    });
                    return;
                }
                self.apply(node, Effects { items: effects }, out);
            }
        }
    }

    /// What the clock `node` times things with reads now: Redis compares wall-clock
    /// milliseconds; etcd, ZooKeeper and the workers use a monotonic clock, which drift moves but
    /// a clock jump does not (REFERENCE.md, "Clocks").
    fn local_now(&self, node: NodeId) -> i64 {
        let st = &self.nodes[usize::from(node)];
        st.clock.local(self.now) - self.monotonic_shift(node)
    }

    /// How far `node`'s timing clock is behind its wall clock: 0 for a wall-clock reader.
    fn monotonic_shift(&self, node: NodeId) -> i64 {
        if self.params.role(node).reads_wall_clock() {
            0
        } else {
            self.nodes[usize::from(node)].jumped_ms
        }
    }

    /// Lets a Redis-like instance react with its context, then carries out its effects.
    fn with_redis(
        &mut self,
        node: NodeId,
        out: &mut Vec<TraceEvent>,
        react: impl FnOnce(&mut RedisInstance, &mut RedisCtx<'_>),
    ) {
        let params = self.params.clone();
        let mut fx = Effects::default();
        let mut cx = RedisCtx {
            name: &params.names[usize::from(node)],
            now_local: self.local_now(node),
            key: &params.lock.key,
            names: &params.names,
            fx: &mut fx,
        };
        react(
            &mut self.redis[usize::from(node - params.first_service)],
            &mut cx,
        );
        self.apply(node, fx, out);
    }

    /// A node wakes up for a timer or a message: the matching actor reacts, then its effects run.
    fn react(&mut self, node: NodeId, stimulus: Stimulus, out: &mut Vec<TraceEvent>) {
        let params = self.params.clone();
        let now_local = self.local_now(node);
        let name = &params.names[usize::from(node)];
        let mut fx = Effects::default();
        let mut was_suspended = false;
        // A consensus node's index, and whether it had noticed it hears from no leader.
        let mut now_looking: Option<(usize, bool)> = None;
        // A node that stops following on a vote request granted it: it gave its leader up.
        let voted = matches!(
            &stimulus,
            Stimulus::Message {
                payload: Payload::PreVote { .. } | Payload::RequestVote { .. },
                ..
            }
        );
        match params.role(node) {
            Role::Worker => {
                let mut cx = WorkerCtx {
                    name,
                    now_local,
                    lock: &params.lock,
                    rng: &mut self.rng.0,
                    fx: &mut fx,
                };
                let worker = &mut self.workers[usize::from(node)];
                was_suspended = worker.suspended.is_some();
                match stimulus {
                    Stimulus::Timer(timer) => worker.on_timer(timer, &mut cx),
                    Stimulus::Message { payload, .. } => worker.on_message(payload, &mut cx),
                }
            }
            Role::Redis | Role::RedisReplica | Role::RedlockInstance => {
                return self.with_redis(node, out, |redis, cx| match stimulus {
                    Stimulus::Timer(timer) => redis.on_timer(timer, cx),
                    Stimulus::Message { from, payload } => redis.on_message(from, payload, cx),
                });
            }
            Role::ConsensusNode => {
                let leader_ok = self.leader_ok(node);
                let peers_ok = self.peers_ok(node);
                // The client a request or a passed-on answer is for.
                let client = match &stimulus {
                    Stimulus::Message {
                        payload: Payload::Relayed { client, .. } | Payload::Forward { client, .. },
                        ..
                    } => Some(*client),
                    Stimulus::Message { from, .. } => Some(*from),
                    Stimulus::Timer(_) => None,
                };
                let from_zookeeper_client =
                    client.is_some_and(|c| self.zookeeper_client(c).is_some());
                now_looking = self.cluster.as_ref().map(|c| {
                    let i = usize::from(node - c.base);
                    (i, c.nodes[i].looking)
                });
                if let Some(cluster) = &mut self.cluster {
                    let mut cx = ConsensusCtx {
                        me: usize::from(node - cluster.base),
                        now_local,
                        key: &params.lock.key,
                        names: &params.names,
                        leader_ok,
                        peers_ok: &peers_ok,
                        rng: &mut self.rng.0,
                        fx: &mut fx,
                        from_zookeeper_client,
                    };
                    match stimulus {
                        Stimulus::Timer(timer) => cluster.on_timer(timer, leader_ok, &mut cx),
                        Stimulus::Message { from, payload } => {
                            cluster.on_message(from, payload, &mut cx)
                        }
                    }
                }
            }
            Role::Database => {
                if let Stimulus::Message { from, payload } = stimulus {
                    let mut cx = DbCtx {
                        from_name: &params.names[usize::from(from)],
                        now_local,
                        fx: &mut fx,
                    };
                    self.db.on_message(from, payload, &mut cx);
                }
            }
        }
        self.apply(node, fx, out);
        if was_suspended && self.workers[usize::from(node)].suspended.is_none() {
            self.fire_missed_watches(node, out);
        }
        // A follower that has just noticed its leader's silence stops following and drops its
        // clients (ZooKeeper's Learner.shutdown → closeAllConnections).
        if let Some((index, false)) = now_looking
            && self
                .cluster
                .as_ref()
                .is_some_and(|c| c.nodes[index].looking)
        {
            let why = if voted {
                Closing::Voted
            } else {
                Closing::LeaderSilent
            };
            self.drop_clients(node, why, out);
        }
    }
}
