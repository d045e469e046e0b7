//! The simulation: one deterministic event queue ordered by (time, sequence), the network with
//! its partitions and message faults, pauses and crashes, and dispatch to the actors.

mod explore;

use std::collections::BTreeMap;
use std::sync::Arc;

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};

use crate::actors::consensus::{Cluster, ConsensusCtx};
use crate::actors::db::{Database, DbCtx};
use crate::actors::redis::{RedisCtx, RedisInstance};
use crate::actors::worker::{LockParams, Worker, WorkerCtx};
use crate::actors::{Dest, Effect, Effects, Timer};
use crate::clock::Clock;
use crate::message::Payload;
use crate::scenario::{Fault, FaultKind, FencingMode, LockKind, Scenario, defaults};
use crate::topology::{NodeId, Participant, Role, participants};
use crate::trace::{EventKind, Tag, TraceEvent};

/// Everything about a run that never changes while it runs.
#[derive(Debug, Clone, PartialEq)]
pub struct Params {
    pub scenario: Scenario,
    pub participants: Vec<Participant>,
    pub names: Vec<String>,
    pub lock: LockParams,
    pub batch: String,
    pub first_service: NodeId,
    pub db: NodeId,
    latency_ms: u64,
    links: BTreeMap<(NodeId, NodeId), u64>,
}

impl Params {
    fn new(scenario: &Scenario) -> Self {
        let participants = participants(scenario);
        let names: Vec<String> = participants.iter().map(|p| p.name.clone()).collect();
        let id = |name: &str| names.iter().position(|n| n == name).map(|i| i as NodeId);
        let lock = &scenario.lock;
        let drift_factor = lock.drift_factor.unwrap_or(defaults::DRIFT_FACTOR);
        let links = scenario
            .network
            .links
            .iter()
            .filter_map(|l| {
                let (a, b) = (id(&l.between[0])?, id(&l.between[1])?);
                Some(((a.min(b), a.max(b)), l.latency_ms))
            })
            .collect();
        Params {
            lock: LockParams {
                kind: lock.kind,
                ttl_ms: lock.ttl_ms,
                key: scenario.lock_key(),
                instances: lock.instances.unwrap_or(defaults::REDLOCK_INSTANCES),
                // redlock-rb: (ttl * drift_factor).to_i + 2
                drift_ms: (lock.ttl_ms as f64 * drift_factor) as u64 + 2,
                instance_timeout_ms: lock
                    .instance_timeout_ms
                    .unwrap_or(defaults::INSTANCE_TIMEOUT_MS),
                retry_delay_ms: lock.retry_delay_ms.unwrap_or(defaults::RETRY_DELAY_MS),
                payouts: scenario.resource.payouts,
            },
            batch: scenario.resource.batch.clone(),
            first_service: scenario.workers.len() as NodeId,
            db: (participants.len() - 1) as NodeId,
            latency_ms: scenario.network.latency_ms,
            links,
            participants,
            names,
            scenario: scenario.clone(),
        }
    }

    /// The node with this name.
    pub fn node(&self, name: &str) -> Option<NodeId> {
        self.names
            .iter()
            .position(|n| n == name)
            .map(|i| i as NodeId)
    }

    pub fn role(&self, node: NodeId) -> Role {
        self.participants[usize::from(node)].role
    }
}

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
    pub alive: bool,
    pub paused_until: Option<u64>,
    backlog: Vec<Item>,
    /// Bumped on crash and restart, so that timers set before are void.
    epoch: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct MessageRule {
    drop: bool,
    extra_ms: u64,
    prefix: String,
    from: Option<NodeId>,
    to: Option<NodeId>,
    active_from: u64,
    used: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct PauseTrigger {
    node: NodeId,
    after: String,
    duration_ms: u64,
    used: bool,
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
    explained: Vec<bool>,
    redis_master: NodeId,
    next_msg: u64,
    in_flight: u64,
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
                alive: true,
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
        let counter = s.lock.first_token - 1;
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
                cluster = Some(Cluster::new(n, first, s.lock.first_token, timeout));
            }
            LockKind::None => {}
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
            workers: s.workers.iter().cloned().map(Worker::new).collect(),
            redis,
            cluster,
            db: Database::new(
                s.resource.fencing,
                s.resource.idempotency,
                s.resource.payouts,
                s.resource.amount_cents,
            ),
            rules,
            triggers,
            explained: vec![false; s.explain.len()],
            redis_master: first,
            next_msg: 1,
            in_flight: 0,
            emitted: 0,
            end: None,
            params: params.clone(),
        };
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
        self.dispatch(item, out);
        if self.in_flight == 0 && self.workers.iter().all(|w| w.phase.is_terminal()) {
            self.finish(End::Finished, out);
        } else if self.emitted >= max_events {
            self.finish(End::EventLimit, out);
        }
        true
    }

    fn finish(&mut self, end: End, out: &mut Vec<TraceEvent>) {
        self.end = Some(end);
        let (label, explanation) = match end {
            End::Finished => ("run complete", "Every worker has finished and no message is still in flight.".to_string()),
            End::Quiet => ("run stalled", "Nothing more can happen: the remaining workers wait for answers that will never come.".to_string()),
            End::TimeLimit => (
                "time limit reached",
                format!("The run stopped at its time limit of {} ms (limits.max_time_ms).", self.params.scenario.limits.max_time_ms),
            ),
            End::EventLimit => (
                "event limit reached",
                format!("The run stopped after {} events (limits.max_events).", self.params.scenario.limits.max_events),
            ),
        };
        let db = self.params.db;
        self.emit(
            out,
            TraceEvent {
                time_ms: self.now,
                kind: EventKind::Note,
                from: db,
                to: db,
                message: None,
                label: label.into(),
                explanation,
                tag: Some(Tag::RunEnds),
            },
        );
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
        out.push(ev);
        self.emitted += 1;
        if let Some(i) = trigger {
            self.triggers[i].used = true;
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
            Item::Timer { node, epoch, timer } => {
                let st = &mut self.nodes[usize::from(node)];
                if !st.alive || st.epoch != epoch {
                    return;
                }
                if st.paused_until.is_some() {
                    st.backlog.push(Item::Timer { node, epoch, timer });
                    return;
                }
                self.react(node, Stimulus::Timer(timer), out);
            }
            Item::Deliver {
                msg,
                from,
                to,
                payload,
                label,
                sent_at,
                announced,
            } => {
                let st = &self.nodes[usize::from(to)];
                if !st.alive {
                    self.in_flight -= 1;
                    let explanation = format!(
                        "{} is down, so the message is lost; {} will only notice when its timeout fires.",
                        self.name(to),
                        self.name(from)
                    );
                    self.emit(
                        out,
                        TraceEvent {
                            time_ms: self.now,
                            kind: EventKind::Lost,
                            from,
                            to,
                            message: Some(msg),
                            label: format!("lost: {label}"),
                            explanation,
                            tag: None,
                        },
                    );
                    return;
                }
                if st.paused_until.is_some() {
                    if !announced {
                        let explanation = format!(
                            "{to} is paused: the message waits in its socket buffer, and {to} will handle it when it resumes, as if no time had passed.",
                            to = self.name(to)
                        );
                        self.emit(
                            out,
                            TraceEvent {
                                time_ms: self.now,
                                kind: EventKind::Deliver,
                                from,
                                to,
                                message: Some(msg),
                                label: label.clone(),
                                explanation,
                                tag: None,
                            },
                        );
                    }
                    let item = Item::Deliver {
                        msg,
                        from,
                        to,
                        payload,
                        label,
                        sent_at,
                        announced: true,
                    };
                    self.nodes[usize::from(to)].backlog.push(item);
                    return;
                }
                self.in_flight -= 1;
                if !announced {
                    let explanation = format!(
                        "{} receives \"{label}\" from {}, {} ms after it was sent, and acts on it at once.",
                        self.name(to),
                        self.name(from),
                        self.now.saturating_sub(sent_at),
                    );
                    self.emit(
                        out,
                        TraceEvent {
                            time_ms: self.now,
                            kind: EventKind::Deliver,
                            from,
                            to,
                            message: Some(msg),
                            label,
                            explanation,
                            tag: None,
                        },
                    );
                }
                self.react(to, Stimulus::Message { from, payload }, out);
            }
        }
    }

    fn local_now(&self, node: NodeId) -> i64 {
        self.nodes[usize::from(node)].clock.local(self.now)
    }

    fn leader_ok(&self, me: NodeId) -> bool {
        let Some(cluster) = &self.cluster else {
            return false;
        };
        let leader = cluster.leader_node();
        let st = &self.nodes[usize::from(leader)];
        st.alive && st.paused_until.is_none() && self.reachable(leader, me)
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
                if let Some(cluster) = &mut self.cluster {
                    let mut cx = ConsensusCtx {
                        me: usize::from(node - cluster.base),
                        now_local,
                        key: &params.lock.key,
                        names: &params.names,
                        fx: &mut fx,
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
                        fx: &mut fx,
                    };
                    self.db.on_message(from, payload, &mut cx);
                }
            }
        }
        self.apply(node, fx, out);
    }

    fn resolve(&self, dest: Dest) -> NodeId {
        match dest {
            Dest::LockService => self.lock_service_node().unwrap_or(self.params.db),
            Dest::Instance(i) => self.params.first_service + i as NodeId,
            Dest::Node(n) => n,
            Dest::Db => self.params.db,
        }
    }

    fn apply(&mut self, node: NodeId, fx: Effects, out: &mut Vec<TraceEvent>) {
        for effect in fx.items {
            match effect {
                Effect::Send { to, payload, tag } => {
                    let to = self.resolve(to);
                    self.send(node, to, payload, tag, out);
                }
                Effect::After { after_ms, timer } => {
                    let st = &self.nodes[usize::from(node)];
                    let (at, epoch) = (st.clock.after_local(self.now, after_ms), st.epoch);
                    let key = self.push(at, Item::Timer { node, epoch, timer });
                    if let Timer::RequestTimeout(_) = timer
                        && let Some(slot) = self.pending_timeout.get_mut(usize::from(node))
                        && let Some(stale) = slot.replace(key)
                    {
                        self.queue.remove(&stale);
                    }
                }
                Effect::At { local_ms, timer } => {
                    let st = &self.nodes[usize::from(node)];
                    let (at, epoch) = (st.clock.true_time_at(local_ms, self.now), st.epoch);
                    self.push(at, Item::Timer { node, epoch, timer });
                }
                Effect::Event {
                    kind,
                    label,
                    explanation,
                    tag,
                } => {
                    self.emit(
                        out,
                        TraceEvent {
                            time_ms: self.now,
                            kind,
                            from: node,
                            to: node,
                            message: None,
                            label,
                            explanation,
                            tag,
                        },
                    );
                }
            }
        }
    }

    fn reachable(&self, a: NodeId, b: NodeId) -> bool {
        let (ga, gb) = (
            self.partition[usize::from(a)],
            self.partition[usize::from(b)],
        );
        ga == 0 || gb == 0 || ga == gb
    }

    fn latency(&self, a: NodeId, b: NodeId) -> u64 {
        let p = &self.params;
        p.links
            .get(&(a.min(b), a.max(b)))
            .copied()
            .unwrap_or(p.latency_ms)
    }

    fn send(
        &mut self,
        from: NodeId,
        to: NodeId,
        payload: Payload,
        tag: Option<Tag>,
        out: &mut Vec<TraceEvent>,
    ) {
        let params = self.params.clone();
        let label = payload.label(&params.lock.key, &params.batch);
        let mut explanation = payload.explain(self.name(from), self.name(to), &params.lock.key);
        let msg = self.next_msg;
        self.next_msg += 1;
        let now = self.now;
        let send = |explanation: String, tag: Option<Tag>| TraceEvent {
            time_ms: now,
            kind: EventKind::Send,
            from,
            to,
            message: Some(msg),
            label: label.clone(),
            explanation,
            tag,
        };
        let lost = |label: String, explanation: String| TraceEvent {
            time_ms: now,
            kind: EventKind::Lost,
            from,
            to,
            message: Some(msg),
            label,
            explanation,
            tag: None,
        };
        if !self.reachable(from, to) {
            self.emit(out, send(explanation, tag));
            let why = format!(
                "A partition separates {} from {}: the message never arrives.",
                self.name(from),
                self.name(to)
            );
            self.emit(out, lost(format!("lost: {label}"), why));
            return;
        }
        let rule = self.rules.iter().position(|r| {
            !r.used
                && now >= r.active_from
                && label.starts_with(&r.prefix)
                && r.from.is_none_or(|f| f == from)
                && r.to.is_none_or(|t| t == to)
        });
        let mut extra = 0;
        let mut tag = tag;
        if let Some(i) = rule {
            self.rules[i].used = true;
            if self.rules[i].drop {
                self.emit(out, send(explanation, tag));
                self.emit(
                    out,
                    lost(
                        format!("dropped: {label}"),
                        "The network drops this message (fault). The sender is not told.".into(),
                    ),
                );
                return;
            }
            extra = self.rules[i].extra_ms;
            explanation.push_str(&format!(" The network holds this message for an extra {extra} ms (fault): it arrives long after it was sent."));
            tag = tag.or(Some(Tag::Delayed { extra_ms: extra }));
        }
        let at = now + self.latency(from, to) + extra;
        self.emit(out, send(explanation, tag));
        self.in_flight += 1;
        self.push(
            at,
            Item::Deliver {
                msg,
                from,
                to,
                payload,
                label,
                sent_at: now,
                announced: false,
            },
        );
    }

    fn fault_event(
        &mut self,
        out: &mut Vec<TraceEvent>,
        node: NodeId,
        label: String,
        explanation: String,
        tag: Option<Tag>,
    ) {
        self.emit(
            out,
            TraceEvent {
                time_ms: self.now,
                kind: EventKind::Fault,
                from: node,
                to: node,
                message: None,
                label,
                explanation,
                tag,
            },
        );
    }

    fn apply_fault(&mut self, index: usize, out: &mut Vec<TraceEvent>) {
        let f = self.params.scenario.faults[index].clone();
        self.apply_fault_now(&f, out);
    }

    /// Injects a fault at the current time (a what-if). `at_ms` and `after` are ignored.
    pub fn inject(&mut self, f: &Fault, out: &mut Vec<TraceEvent>) {
        match f.kind {
            FaultKind::Delay | FaultKind::Drop => {
                let kind = if f.kind == FaultKind::Drop {
                    "drop"
                } else {
                    "delay"
                };
                self.rules.push(self.rule(f, self.now));
                let db = self.params.db;
                let what = f.match_label.clone().unwrap_or_default();
                self.fault_event(out, db, format!("what-if: {kind} the next \"{what}\""), format!("From now on, the next message whose label starts with \"{what}\" is hit by a {kind} fault."), None);
            }
            _ => self.apply_fault_now(f, out),
        }
    }

    /// Future locks are granted with this TTL (a what-if).
    pub fn set_ttl(&mut self, ttl_ms: u64, out: &mut Vec<TraceEvent>) {
        let params = Arc::make_mut(&mut self.params);
        params.lock.ttl_ms = ttl_ms;
        params.scenario.lock.ttl_ms = ttl_ms;
        let node = self.lock_service_node().unwrap_or(self.params.db);
        self.emit(out, TraceEvent { time_ms: self.now, kind: EventKind::Note, from: node, to: node, message: None, label: format!("what-if: TTL = {ttl_ms} ms"), explanation: format!("From now on, locks are requested with a {ttl_ms} ms TTL. Locks already granted keep theirs."), tag: None });
    }

    /// The database switches fencing mode (a what-if).
    pub fn set_fencing(&mut self, fencing: FencingMode, out: &mut Vec<TraceEvent>) {
        self.db.fencing = fencing;
        Arc::make_mut(&mut self.params).scenario.resource.fencing = fencing;
        let db = self.params.db;
        self.emit(
            out,
            TraceEvent {
                time_ms: self.now,
                kind: EventKind::Note,
                from: db,
                to: db,
                message: None,
                label: format!("what-if: fencing = {}", fencing.as_str()),
                explanation: format!(
                    "The database now checks fencing tokens in mode `{}`.",
                    fencing.as_str()
                ),
                tag: None,
            },
        );
    }

    fn rule(&self, f: &Fault, active_from: u64) -> MessageRule {
        MessageRule {
            drop: f.kind == FaultKind::Drop,
            extra_ms: f.duration_ms.unwrap_or(0),
            prefix: f.match_label.clone().unwrap_or_default(),
            from: f.from.as_deref().and_then(|n| self.params.node(n)),
            to: f.to.as_deref().and_then(|n| self.params.node(n)),
            active_from,
            used: false,
        }
    }

    fn apply_fault_now(&mut self, f: &Fault, out: &mut Vec<TraceEvent>) {
        let target = f.target.as_deref().and_then(|n| self.params.node(n));
        match f.kind {
            FaultKind::Pause => {
                if let Some(node) = target {
                    self.pause(node, f.duration_ms.unwrap_or(0), out);
                }
            }
            FaultKind::ClockJump => {
                let Some(node) = target else { return };
                let by = f.by_ms.unwrap_or(0);
                self.nodes[usize::from(node)].clock.offset_ms += by;
                let name = self.name(node).to_string();
                self.fault_event(
                    out,
                    node,
                    format!("{name}'s clock jumps {by:+} ms"),
                    format!("{name}'s wall clock steps by {by:+} ms (an NTP step or an operator). Everything {name} judges by its clock, such as TTLs, is judged on the new time at once."),
                    Some(Tag::ClockJumped { by_ms: by }),
                );
                self.clock_jumped(node, out);
            }
            FaultKind::Crash => {
                if let Some(node) = target {
                    self.crash(node, out);
                }
            }
            FaultKind::Restart => {
                if let Some(node) = target {
                    self.restart(node, f.persistent.unwrap_or(false), out);
                }
            }
            FaultKind::Failover => self.failover(out),
            FaultKind::Partition => {
                let groups = f.groups.clone().unwrap_or_default();
                self.partition = vec![0; self.nodes.len()];
                for (g, members) in groups.iter().enumerate() {
                    for name in members {
                        if let Some(n) = self.params.node(name) {
                            self.partition[usize::from(n)] = g as u16 + 1;
                        }
                    }
                }
                let text: Vec<String> = groups
                    .iter()
                    .map(|g| format!("{{{}}}", g.join(", ")))
                    .collect();
                let db = self.params.db;
                self.fault_event(
                    out,
                    db,
                    format!("partition {}", text.join(" | ")),
                    "The network splits: nodes in different groups cannot reach each other; nodes in no group still reach everyone.".into(),
                    Some(Tag::Partition { groups }),
                );
                self.schedule_elections();
            }
            FaultKind::Heal => {
                self.partition = vec![0; self.nodes.len()];
                let db = self.params.db;
                self.fault_event(
                    out,
                    db,
                    "partition healed".into(),
                    "Every node can reach every other node again.".into(),
                    Some(Tag::Healed),
                );
            }
            FaultKind::Delay | FaultKind::Drop => {}
        }
    }

    fn pause(&mut self, node: NodeId, duration: u64, out: &mut Vec<TraceEvent>) {
        let until = self.now + duration;
        let st = &mut self.nodes[usize::from(node)];
        if !st.alive {
            return;
        }
        let until = st.paused_until.map_or(until, |u| u.max(until));
        st.paused_until = Some(until);
        self.push(until, Item::Resume(node));
        let name = self.name(node).to_string();
        let finished = self.params.role(node) == Role::Worker
            && self.workers[usize::from(node)].phase.is_terminal();
        let what = if finished {
            format!("{name} has already finished its job, so this pause changes nothing.")
        } else if self.params.role(node) == Role::Worker {
            format!(
                "{name} stops the world (a long GC or a VM stall) for {duration} ms: it runs no code, and its timers and incoming messages wait. Its clock and everyone else's keep running."
            )
        } else {
            format!(
                "{name} freezes for {duration} ms: requests queue up and are answered when it resumes."
            )
        };
        self.fault_event(
            out,
            node,
            format!("{name} paused for {duration} ms"),
            what,
            Some(Tag::Paused { until_ms: until }),
        );
        if self
            .cluster
            .as_ref()
            .is_some_and(|c| c.leader_node() == node)
        {
            self.schedule_elections();
        }
    }

    fn resume(&mut self, node: NodeId, out: &mut Vec<TraceEvent>) {
        let st = &mut self.nodes[usize::from(node)];
        match st.paused_until {
            Some(until) if until <= self.now => {}
            _ => return,
        }
        st.paused_until = None;
        let backlog = std::mem::take(&mut st.backlog);
        let waiting = backlog
            .iter()
            .filter(|i| matches!(i, Item::Deliver { .. }))
            .count();
        for item in backlog {
            self.push(self.now, item);
        }
        let name = self.name(node).to_string();
        let belief = match self.params.role(node) {
            Role::Worker if self.workers[usize::from(node)].believes => {
                " It still believes it holds the lock."
            }
            _ => "",
        };
        self.emit(
            out,
            TraceEvent {
                time_ms: self.now,
                kind: EventKind::State,
                from: node,
                to: node,
                message: None,
                label: format!("{name} resumes"),
                explanation: format!(
                    "{name} runs again and carries on exactly where it stopped, unaware that time passed{}.{belief}",
                    match waiting {
                        0 => String::new(),
                        1 => "; one message has been waiting for it".to_string(),
                        n => format!("; {n} messages have been waiting for it"),
                    }
                ),
                tag: Some(Tag::Resumed),
            },
        );
    }

    fn clear_backlog(&mut self, node: NodeId) {
        let st = &mut self.nodes[usize::from(node)];
        let lost = st
            .backlog
            .iter()
            .filter(|i| matches!(i, Item::Deliver { .. }))
            .count() as u64;
        st.backlog.clear();
        st.paused_until = None;
        self.in_flight -= lost;
    }

    fn crash(&mut self, node: NodeId, out: &mut Vec<TraceEvent>) {
        if !self.nodes[usize::from(node)].alive {
            return;
        }
        self.clear_backlog(node);
        let st = &mut self.nodes[usize::from(node)];
        st.alive = false;
        st.epoch += 1;
        let name = self.name(node).to_string();
        let params = self.params.clone();
        let mut tag_after = None;
        match params.role(node) {
            Role::Worker => tag_after = self.workers[usize::from(node)].crash(),
            Role::Redis | Role::RedisReplica | Role::RedlockInstance => {
                self.redis[usize::from(node - params.first_service)].crash()
            }
            Role::ConsensusNode => {
                if let Some(c) = &mut self.cluster {
                    c.crash(usize::from(node - c.base));
                }
            }
            Role::Database => {}
        }
        self.fault_event(
            out,
            node,
            format!("{name} crashes"),
            format!("{name}'s process dies. Messages sent to it are lost until it restarts, and whatever it had not persisted or replicated is gone."),
            Some(Tag::Crashed),
        );
        if let Some(tag) = tag_after {
            self.emit(
                out,
                TraceEvent {
                    time_ms: self.now,
                    kind: EventKind::State,
                    from: node,
                    to: node,
                    message: None,
                    label: format!("{name} holds nothing"),
                    explanation: "A dead process holds no lock.".into(),
                    tag: Some(tag),
                },
            );
        }
        self.schedule_elections();
    }

    fn restart(&mut self, node: NodeId, persistent: bool, out: &mut Vec<TraceEvent>) {
        let st = &mut self.nodes[usize::from(node)];
        st.alive = true;
        st.epoch += 1;
        let name = self.name(node).to_string();
        let how = if persistent {
            "with its data (fsync always)"
        } else {
            "without persistence: empty"
        };
        self.fault_event(
            out,
            node,
            format!("{name} restarts {how}"),
            if persistent {
                format!("{name} comes back with every write it acknowledged.")
            } else {
                format!("{name} comes back immediately, with no data: the Redis docs recommend delaying a restart for longer than the maximum TTL for exactly this reason.")
            },
            Some(Tag::Restarted { persistent }),
        );
        if matches!(
            self.params.role(node),
            Role::Redis | Role::RedisReplica | Role::RedlockInstance
        ) {
            self.with_redis(node, out, |redis, cx| redis.restart(persistent, cx));
        }
    }

    fn failover(&mut self, out: &mut Vec<TraceEvent>) {
        let params = self.params.clone();
        let old = self.redis_master;
        let Some(replica) = self.redis.first().and_then(|m| m.replica) else {
            return;
        };
        if old == replica {
            self.fault_event(
                out,
                replica,
                "failover: no replica left".into(),
                format!("{} is already the master and has no replica of its own, so there is nothing to promote.", self.name(replica)),
                None,
            );
            return;
        }
        if self.nodes[usize::from(old)].alive {
            self.clear_backlog(old);
            let st = &mut self.nodes[usize::from(old)];
            st.alive = false;
            st.epoch += 1;
        }
        self.redis_master = replica;
        let (old_name, new_name) = (self.name(old).to_string(), self.name(replica).to_string());
        self.fault_event(
            out,
            replica,
            format!("failover: {new_name} replaces {old_name}"),
            format!("Sentinel promotes {new_name} to master; clients now send their commands to it. It has only what {old_name} had replicated before it went away."),
            Some(Tag::FailedOver),
        );
        let old_index = usize::from(old - params.first_service);
        let new_index = usize::from(replica - params.first_service);
        let lost_holder = match (self.redis[old_index].key, self.redis[new_index].key) {
            (Some(k), None) => Some(k.owner),
            _ => None,
        };
        if let Some(owner) = lost_holder {
            let holder = self.name(owner).to_string();
            self.emit(out, TraceEvent {
                time_ms: self.now,
                kind: EventKind::State,
                from: old,
                to: old,
                message: None,
                label: format!("{holder}'s lock is lost in the failover"),
                explanation: format!("{old_name} had granted the lock to {holder}, but the key never reached the replica: the service no longer knows {holder} holds it."),
                tag: Some(Tag::ServiceFrees { holder, reason: crate::trace::FreeReason::Forgotten }),
            });
        }
        self.with_redis(replica, out, |redis, cx| redis.promote(cx));
    }

    fn clock_jumped(&mut self, node: NodeId, out: &mut Vec<TraceEvent>) {
        match self.params.role(node) {
            Role::Redis | Role::RedisReplica | Role::RedlockInstance => {
                self.with_redis(node, out, |redis, cx| redis.clock_jumped(cx));
            }
            Role::ConsensusNode => {
                let mut fx = Effects::default();
                fx.after(0, Timer::LeaseCheck);
                self.apply(node, fx, out);
            }
            _ => {}
        }
    }

    /// Followers that cannot see a working leader start an election after a randomised timeout.
    fn schedule_elections(&mut self) {
        let Some(cluster) = &self.cluster else { return };
        let timeout = cluster.election_timeout_ms;
        let (base, n) = (cluster.base, cluster.nodes.len());
        let leader = cluster.leader_node();
        for i in 0..n {
            let node = base + i as NodeId;
            if node == leader || !self.nodes[usize::from(node)].alive || self.leader_ok(node) {
                continue;
            }
            // Raft randomises election timeouts in [T, 2T) so that candidates rarely collide.
            let jitter = self.rng.0.next_u64() % timeout.max(1);
            let st = &self.nodes[usize::from(node)];
            let (at, epoch) = (st.clock.after_local(self.now, timeout + jitter), st.epoch);
            self.push(
                at,
                Item::Timer {
                    node,
                    epoch,
                    timer: Timer::Election,
                },
            );
        }
    }
}
