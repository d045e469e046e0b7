//! The scenario file format (DESIGN §4): what a run is made of, as plain data.
//!
//! Parsing with located errors lives in [`load`]; the semantic checks in [`validate`].

mod advice;
mod load;
mod more;
mod syntax_hint;
mod validate;

pub use advice::{ScenarioWarning, unapplied_places, warnings};
pub use load::{ScenarioError, parse_scenario};
pub use validate::{PathSeg, Problem, validate as check};

use serde::{Deserialize, Serialize};

/// What a scenario demonstrates; also the verdict's outcome.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Outcome {
    /// Every payout applied exactly once.
    Safe,
    /// At least one payout applied more than once.
    DoubleWrite,
    /// No payout applied more than once, but the batch was not (fully) paid.
    NotProcessed,
    /// The run was cut off by `limits.max_time_ms` or `limits.max_events` before it finished,
    /// with no payout applied twice so far: it says nothing about safety.
    Inconclusive,
}

impl Outcome {
    /// The kebab-case name used in files and output.
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Safe => "safe",
            Outcome::DoubleWrite => "double-write",
            Outcome::NotProcessed => "not-processed",
            Outcome::Inconclusive => "inconclusive",
        }
    }
}

impl std::fmt::Display for Outcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A whole scenario file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// Kebab-case id, unique in the catalogue.
    pub name: String,
    /// One line for pickers and headings.
    pub title: String,
    /// One or two sentences: what happens and why it matters.
    pub summary: String,
    /// Seed of the simulation's only PRNG.
    #[serde(default = "defaults::seed")]
    pub seed: u64,
    /// The outcome this scenario demonstrates; `lockstep check` compares against it.
    pub expect: Outcome,
    /// The lock service.
    pub lock: LockConfig,
    /// Latencies between nodes.
    #[serde(default)]
    pub network: NetworkConfig,
    /// The payouts database.
    #[serde(default)]
    pub resource: ResourceConfig,
    /// The workers that run the payout job.
    pub workers: Vec<WorkerConfig>,
    /// Faults injected during the run.
    #[serde(default)]
    pub faults: Vec<Fault>,
    /// Clock drift and offset per node.
    #[serde(default)]
    pub clocks: Vec<ClockConfig>,
    /// Scenario-specific narration that replaces the model's generic explanation of an event.
    #[serde(default)]
    pub explain: Vec<Explain>,
    /// Which of several messages due at one node at the same instant is handled first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub order: Vec<Order>,
    /// Bounds on the run, so that no file can make the simulator run forever.
    #[serde(default)]
    pub limits: Limits,
}

/// Which lock service protects the job.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LockKind {
    /// A single Redis instance (optionally with an asynchronous replica).
    Redis,
    /// Redlock across N independent Redis instances.
    Redlock,
    /// An etcd/ZooKeeper-like consensus lock service.
    Consensus,
    /// No lock at all.
    None,
}

impl LockKind {
    /// The kebab-case name used in files.
    pub fn as_str(self) -> &'static str {
        match self {
            LockKind::Redis => "redis",
            LockKind::Redlock => "redlock",
            LockKind::Consensus => "consensus",
            LockKind::None => "none",
        }
    }
}

/// `[lock]`: the kind and its options. Options of other kinds are rejected by validation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LockConfig {
    pub kind: LockKind,
    /// Lease / key time to live.
    #[serde(default = "defaults::ttl_ms")]
    pub ttl_ms: u64,
    /// The first fencing token the service issues; see [`LockConfig::first_token`].
    #[serde(default, rename = "first_token")]
    pub first_token_set: Option<u64>,
    /// The lock key; defaults to `lock:<batch>`.
    pub key: Option<String>,
    /// redis: an asynchronous replica that receives writes this long after the master.
    pub replica_lag_ms: Option<u64>,
    /// redis, redlock: what an instance keeps across a restart whose fault does not say
    /// `persistent`: `none` (comes back empty), `everysec` (AOF fsynced at most a second apart:
    /// a host crash loses the writes since the last fsync) or `always` (every acknowledged write
    /// is kept).
    pub persistence: Option<Persistence>,
    /// redis, redlock with `persistence = "everysec"`: other clients write to the instances all
    /// the time (a shared Redis), so they fsync once a second; without it an instance is idle
    /// but for the workers, and fsyncs a write at once when a second has passed since its last
    /// fsync.
    pub background_writes: Option<bool>,
    /// redlock: number of independent instances.
    pub instances: Option<u32>,
    /// redlock: clock drift factor in the validity formula.
    pub drift_factor: Option<f64>,
    /// redlock: per-instance request timeout.
    pub instance_timeout_ms: Option<u64>,
    /// redlock: upper bound of the random retry delay.
    pub retry_delay_ms: Option<u64>,
    /// redlock: send to every instance at once (node-redlock, redsync) instead of in turn.
    pub parallel: Option<bool>,
    /// redlock: give up after this many rounds (redlock-rb: 4, that is 1 + retry_count 3; redsync: 32); default: until
    /// the worker's acquire timeout.
    pub max_tries: Option<u32>,
    /// consensus: number of nodes.
    pub nodes: Option<u32>,
    /// consensus: how long followers wait without a leader before an election.
    pub election_timeout_ms: Option<u64>,
    /// consensus: Chubby's lock-delay: after a holder's lease expires, nobody may take the lock
    /// for this long (a release by the holder is not delayed).
    pub lock_delay_ms: Option<u64>,
    /// consensus: the shortest lease the service grants; a shorter TTL is raised to it.
    pub min_ttl_ms: Option<u64>,
}

/// How a Redis instance persists its data (`appendfsync`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Persistence {
    /// No persistence: a restart comes back empty.
    None,
    /// `appendfsync everysec`: a host crash loses what was written since the last fsync.
    Everysec,
    /// `appendfsync always`: nothing acknowledged is lost.
    Always,
}

impl LockConfig {
    /// The first fencing token: as set, else what a fresh service issues first. A fresh Redis
    /// has no counter key, so INCR returns 1; a fresh etcd store starts at revision 1 and its
    /// first write makes revision 2 (mvcc's kvstore: `currentRev: 1`, each txn `beginRev + 1`).
    pub fn first_token(&self) -> u64 {
        self.first_token_set.unwrap_or(match self.kind {
            LockKind::Consensus => 2,
            _ => 1,
        })
    }
}

impl Persistence {
    /// The kebab-case name used in files.
    pub fn as_str(self) -> &'static str {
        match self {
            Persistence::None => "none",
            Persistence::Everysec => "everysec",
            Persistence::Always => "always",
        }
    }
}

/// `[network]`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NetworkConfig {
    /// One-way latency of every link unless a `[[network.links]]` entry says otherwise.
    #[serde(default = "defaults::latency_ms")]
    pub latency_ms: u64,
    #[serde(default)]
    pub links: Vec<LinkConfig>,
}

impl Default for NetworkConfig {
    fn default() -> Self {
        NetworkConfig {
            latency_ms: defaults::latency_ms(),
            links: Vec::new(),
        }
    }
}

/// `[[network.links]]`: the one-way latency between two nodes (both directions).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LinkConfig {
    pub between: [String; 2],
    pub latency_ms: u64,
}

/// How the database uses fencing tokens (DESIGN §3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FencingMode {
    /// Accepts every access.
    Off,
    /// Writes need a token greater than `last_token`; reads are not checked.
    Writes,
    /// Every access carries a token; lower than `last_token` is rejected, higher raises it.
    Enforce,
    /// Like `enforce`, but accesses without a token are accepted.
    Permissive,
}

impl FencingMode {
    /// The kebab-case name used in files.
    pub fn as_str(self) -> &'static str {
        match self {
            FencingMode::Off => "off",
            FencingMode::Writes => "writes",
            FencingMode::Enforce => "enforce",
            FencingMode::Permissive => "permissive",
        }
    }
}

/// `[resource]`: the payouts database.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResourceConfig {
    #[serde(default = "defaults::fencing")]
    pub fencing: FencingMode,
    #[serde(default)]
    pub idempotency: bool,
    #[serde(default = "defaults::batch")]
    pub batch: String,
    #[serde(default = "defaults::payouts")]
    pub payouts: u32,
    #[serde(default = "defaults::amount_cents")]
    pub amount_cents: u64,
    /// The write is `UPDATE ... WHERE status = 'unpaid'`: a second writer finds nothing to update.
    #[serde(default)]
    pub conditional_write: bool,
    /// How long the database remembers an idempotency key; unset = for the whole run.
    pub idempotency_retention_ms: Option<u64>,
}

impl Default for ResourceConfig {
    fn default() -> Self {
        ResourceConfig {
            fencing: defaults::fencing(),
            idempotency: false,
            batch: defaults::batch(),
            payouts: defaults::payouts(),
            amount_cents: defaults::amount_cents(),
            conditional_write: false,
            idempotency_retention_ms: None,
        }
    }
}

/// What a worker does when the lock service cannot be reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum OnUnavailable {
    /// Refuse to process without the lock.
    FailClosed,
    /// Process without the lock's protection.
    FailOpen,
}

/// What a consensus client does when its session is suspended (a keepalive went unanswered).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum OnSuspended {
    /// Carry on as if it still held the lock (what code that ignores the session does).
    Continue,
    /// Stop working under the lock at once (Curator's advice: after SUSPENDED you cannot be sure you hold it).
    Stop,
}

/// `[[workers]]`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WorkerConfig {
    pub name: String,
    #[serde(default)]
    pub start_ms: u64,
    /// Sends its fencing token with every database access.
    #[serde(default)]
    pub fencing: bool,
    /// Sends an idempotency key with each payout.
    #[serde(default)]
    pub idempotency_keys: bool,
    #[serde(default = "defaults::on_unavailable")]
    pub on_lock_unavailable: OnUnavailable,
    /// Processing time between the status check and the batch write, on the worker's clock.
    #[serde(default = "defaults::work_ms")]
    pub work_ms: u64,
    /// Check the remaining lease right before writing (and give up if it ran out).
    #[serde(default)]
    pub check_lease_before_write: bool,
    /// Renew (heartbeat) the lease this often; 0 = never.
    #[serde(default)]
    pub renew_every_ms: u64,
    /// Wait this long before trying again while the lock is taken.
    #[serde(default = "defaults::retry_ms")]
    pub retry_ms: u64,
    /// Give up acquiring after this long.
    #[serde(default = "defaults::acquire_timeout_ms")]
    pub acquire_timeout_ms: u64,
    /// A request without an answer after this long has failed.
    #[serde(default = "defaults::request_timeout_ms")]
    pub request_timeout_ms: u64,
    /// redis: release with a plain `DEL` instead of compare-and-delete (unsafe: it deletes
    /// whoever's lock is there).
    #[serde(default)]
    pub unsafe_release: bool,
    /// Send a write again this many times when its answer does not come.
    #[serde(default)]
    pub retry_writes: u32,
    /// The amount this worker pays per payout, if it computes its own (default: the batch's).
    pub amount_cents: Option<u64>,
    /// consensus: listen to the connection state as a Curator client does, and what to do on
    /// SUSPENDED (no word from the cluster for 2/3 of the session timeout). None: no listener.
    pub on_suspended: Option<OnSuspended>,
    /// consensus: lock with the named worker's etcd session (the same lease, so the same key
    /// name), as two Mutexes made from one `concurrency.Session` do.
    pub session: Option<String>,
    /// consensus: when an unlock gets no answer, send it once more (by key name, as
    /// `Mutex.Unlock` deletes), the retry of etcd issue #22082.
    #[serde(default)]
    pub retry_unlock: bool,
}

/// The kinds of fault.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FaultKind {
    Pause,
    ClockJump,
    Crash,
    Restart,
    Failover,
    Partition,
    Heal,
    Delay,
    Drop,
}

impl FaultKind {
    /// The kebab-case name used in files.
    pub fn as_str(self) -> &'static str {
        match self {
            FaultKind::Pause => "pause",
            FaultKind::ClockJump => "clock-jump",
            FaultKind::Crash => "crash",
            FaultKind::Restart => "restart",
            FaultKind::Failover => "failover",
            FaultKind::Partition => "partition",
            FaultKind::Heal => "heal",
            FaultKind::Delay => "delay",
            FaultKind::Drop => "drop",
        }
    }
}

/// `[[faults]]`. Which fields a kind takes is checked by validation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Fault {
    /// When the fault happens (true time). For `pause` it may be replaced by `after`;
    /// for `delay`/`drop` it is when the rule starts to match.
    pub at_ms: Option<u64>,
    pub kind: FaultKind,
    /// The node the fault hits.
    pub target: Option<String>,
    /// pause: how long; delay: the extra delay.
    pub duration_ms: Option<u64>,
    /// clock-jump: how far the clock steps (negative steps back).
    pub by_ms: Option<i64>,
    /// restart: whether the instance kept its data.
    pub persistent: Option<bool>,
    /// crash: the whole machine fails (power loss, kernel panic, a VM killed), not only the
    /// process; what the kernel had not yet written to disk is lost with it.
    pub host: Option<bool>,
    /// partition: the groups of nodes that can still talk among themselves.
    pub groups: Option<Vec<Vec<String>>>,
    /// pause: start the pause right after the target's event whose label starts with this.
    pub after: Option<String>,
    /// delay/drop: the first message whose label starts with this.
    #[serde(rename = "match")]
    pub match_label: Option<String>,
    /// delay/drop: only messages from this node.
    pub from: Option<String>,
    /// delay/drop: only messages to this node.
    pub to: Option<String>,
}

impl Fault {
    /// A fault of `kind` with every option unset: front ends and the explorer fill in what their
    /// choice needs (`Fault { target: Some(..), ..Fault::new(kind) }`).
    pub fn new(kind: FaultKind) -> Fault {
        Fault {
            at_ms: None,
            kind,
            target: None,
            duration_ms: None,
            by_ms: None,
            persistent: None,
            host: None,
            groups: None,
            after: None,
            match_label: None,
            from: None,
            to: None,
        }
    }
}

/// `[[clocks]]`: a node's clock is `true * (1 + drift_ppm / 1e6) + offset_ms`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClockConfig {
    pub node: String,
    #[serde(default)]
    pub drift_ppm: i64,
    #[serde(default)]
    pub offset_ms: i64,
}

/// `[[explain]]`: narration for the first event (from `node`, if given) whose label starts with `when`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Explain {
    pub when: String,
    pub node: Option<String>,
    pub text: String,
}

/// `[[order]]`: at `at_ms`, where several messages are due at `to` at once, the first of them
/// sent by `from` whose label starts with `match` is handled before the others (which keep their
/// order). Entries for one instant and node apply in file order, one per such choice.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Order {
    pub at_ms: u64,
    /// The receiving node.
    pub to: String,
    /// Only a message from this node.
    pub from: Option<String>,
    /// Only a message whose label starts with this.
    #[serde(rename = "match")]
    pub match_label: Option<String>,
}

/// `[limits]`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Limits {
    /// The run stops at this simulated time.
    #[serde(default = "defaults::max_time_ms")]
    pub max_time_ms: u64,
    /// The run stops after this many trace events.
    #[serde(default = "defaults::max_events")]
    pub max_events: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_time_ms: defaults::max_time_ms(),
            max_events: defaults::max_events(),
        }
    }
}

/// Defaults of optional fields; also used by validation's messages.
pub mod defaults {
    use super::{FencingMode, OnUnavailable};

    pub fn seed() -> u64 {
        1
    }
    pub fn ttl_ms() -> u64 {
        5000
    }
    pub fn latency_ms() -> u64 {
        1
    }
    pub fn fencing() -> FencingMode {
        FencingMode::Off
    }
    pub fn batch() -> String {
        "batch-42".to_string()
    }
    pub fn payouts() -> u32 {
        3
    }
    pub fn amount_cents() -> u64 {
        125_000
    }
    pub fn on_unavailable() -> OnUnavailable {
        OnUnavailable::FailClosed
    }
    pub fn work_ms() -> u64 {
        2000
    }
    pub fn retry_ms() -> u64 {
        100
    }
    pub fn acquire_timeout_ms() -> u64 {
        30_000
    }
    pub fn request_timeout_ms() -> u64 {
        1000
    }
    pub fn max_time_ms() -> u64 {
        600_000
    }
    pub fn max_events() -> u64 {
        200_000
    }
    pub const REDLOCK_INSTANCES: u32 = 5;
    pub const DRIFT_FACTOR: f64 = 0.01;
    pub const INSTANCE_TIMEOUT_MS: u64 = 50;
    pub const RETRY_DELAY_MS: u64 = 200;
    pub const CONSENSUS_NODES: u32 = 3;
    pub const ELECTION_TIMEOUT_MS: u64 = 300;
}

impl Scenario {
    /// The lock key, `lock:<batch>` unless the file names one.
    pub fn lock_key(&self) -> String {
        self.lock
            .key
            .clone()
            .unwrap_or_else(|| format!("lock:{}", self.resource.batch))
    }
}
