//! Sweeps: every combination of the `--vary` ranges runs, natively on every core, and the outcomes
//! land in a grid that the summary and the safety map read.

use std::collections::BTreeMap;

use lockstep_core::Scenario;
use lockstep_core::sim::Sim;

use crate::error::ExploreError;
use crate::outcome::{RunOutcome, run_to_outcome};
use crate::param::Axis;

/// One run's outcome, with the validation problem of an invalid combination.
pub type CellResult = (RunOutcome, Option<String>);

/// The most combinations one sweep may run.
pub const MAX_COMBINATIONS: u64 = 2_000_000;

/// A sweep ready to run: the scenario and its axes, checked.
#[derive(Debug, Clone)]
pub struct Sweep {
    scenario: Scenario,
    axes: Vec<Axis>,
    total: usize,
}

/// What a sweep found: one outcome per combination.
#[derive(Debug, Clone, PartialEq)]
pub struct SweepResult {
    pub axes: Vec<Axis>,
    /// Row-major: the first axis varies slowest.
    pub outcomes: Vec<RunOutcome>,
    /// The scenario's own value on each axis (None if it lies outside the range or has none).
    pub own_point: Vec<Option<i64>>,
    /// The first validation problem among the invalid combinations, for the summary.
    pub first_invalid: Option<(usize, String)>,
}

impl Sweep {
    /// Checks the axes against the scenario: each parameter once, each present in the scenario.
    pub fn new(scenario: &Scenario, axes: Vec<Axis>) -> Result<Sweep, ExploreError> {
        for (i, a) in axes.iter().enumerate() {
            if axes[..i].iter().any(|b| b.param == a.param) {
                return Err(ExploreError::Duplicate {
                    name: a.param.name().to_string(),
                });
            }
            a.param
                .check_applies(scenario)
                .map_err(|message| ExploreError::NotInScenario {
                    spec: a.param.name().to_string(),
                    message,
                })?;
        }
        let total: u128 = axes.iter().map(|a| a.len() as u128).product();
        if total > u128::from(MAX_COMBINATIONS) {
            return Err(ExploreError::TooLarge {
                combinations: total,
                max: MAX_COMBINATIONS,
            });
        }
        Ok(Sweep {
            scenario: scenario.clone(),
            axes,
            total: total as usize,
        })
    }

    /// How many runs the sweep makes.
    pub fn len(&self) -> usize {
        self.total
    }

    /// True if the sweep has no combination (never: an axis has at least one value).
    pub fn is_empty(&self) -> bool {
        self.total == 0
    }

    /// The axis values of combination `index` (row-major, first axis slowest).
    pub fn values(&self, index: usize) -> Vec<i64> {
        let mut rest = index;
        let mut values = vec![0; self.axes.len()];
        for (k, axis) in self.axes.iter().enumerate().rev() {
            values[k] = axis.value(rest % axis.len());
            rest /= axis.len();
        }
        values
    }

    /// The scenario of combination `index`.
    pub fn scenario_at(&self, index: usize) -> Scenario {
        let mut s = self.scenario.clone();
        for (axis, value) in self.axes.iter().zip(self.values(index)) {
            axis.param.apply(&mut s, value);
        }
        s
    }

    /// Runs combination `index`; an invalid combination comes back with its problem.
    pub fn run_one(&self, index: usize) -> CellResult {
        let s = self.scenario_at(index);
        if let Err(p) = lockstep_core::scenario::check(&s) {
            return (RunOutcome::Invalid, Some(describe_problem(&p)));
        }
        let mut sim = Sim::new(&s);
        let mut scratch = Vec::new();
        (run_to_outcome(&mut sim, &mut scratch).0, None)
    }

    /// Runs the combinations in `range` in order (the browser runs a sweep in such chunks
    /// between frames).
    pub fn run_range(&self, range: std::ops::Range<usize>) -> Vec<CellResult> {
        range.map(|i| self.run_one(i)).collect()
    }

    /// Runs every combination: natively on every core, in wasm on the calling thread.
    pub fn run(&self) -> SweepResult {
        let results = self.run_all();
        let first_invalid = results
            .iter()
            .enumerate()
            .find_map(|(i, (_, p))| p.clone().map(|p| (i, p)));
        self.result(results.into_iter().map(|(o, _)| o).collect(), first_invalid)
    }

    /// Wraps outcomes computed elsewhere (for example chunk by chunk) into a result.
    pub fn result(
        &self,
        outcomes: Vec<RunOutcome>,
        first_invalid: Option<(usize, String)>,
    ) -> SweepResult {
        let own_point = self
            .axes
            .iter()
            .map(|a| {
                a.param
                    .value_in(&self.scenario)
                    .filter(|v| (a.start..=a.end).contains(v))
            })
            .collect();
        SweepResult {
            axes: self.axes.clone(),
            outcomes,
            own_point,
            first_invalid,
        }
    }

    #[cfg(target_arch = "wasm32")]
    fn run_all(&self) -> Vec<CellResult> {
        self.run_range(0..self.total)
    }

    #[cfg(not(target_arch = "wasm32"))]
    fn run_all(&self) -> Vec<CellResult> {
        use std::sync::atomic::{AtomicUsize, Ordering};
        const CHUNK: usize = 32;
        let threads = std::thread::available_parallelism()
            .map_or(1, |n| n.get())
            .min(self.total.div_ceil(CHUNK))
            .max(1);
        let next = AtomicUsize::new(0);
        let mut results = vec![(RunOutcome::Invalid, None); self.total];
        let parts: Vec<Vec<(usize, CellResult)>> = std::thread::scope(|scope| {
            let workers: Vec<_> = (0..threads)
                .map(|_| {
                    scope.spawn(|| {
                        let mut mine = Vec::new();
                        loop {
                            let start = next.fetch_add(CHUNK, Ordering::Relaxed);
                            if start >= self.total {
                                break mine;
                            }
                            let end = (start + CHUNK).min(self.total);
                            mine.extend((start..end).map(|i| (i, self.run_one(i))));
                        }
                    })
                })
                .collect();
            workers
                .into_iter()
                // A panic in a run is a simulator bug; surface it rather than hide it.
                .map(|w| w.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
                .collect()
        });
        for (i, r) in parts.into_iter().flatten() {
            results[i] = r;
        }
        results
    }
}

fn describe_problem(p: &lockstep_core::scenario::Problem) -> String {
    use lockstep_core::scenario::PathSeg;
    let mut path = String::new();
    for seg in &p.path {
        match seg {
            PathSeg::Key(k) if path.is_empty() => path.push_str(k),
            PathSeg::Key(k) => {
                path.push('.');
                path.push_str(k);
            }
            PathSeg::Index(i) => path.push_str(&format!("[{i}]")),
        }
    }
    format!("{path}: {}", p.message)
}

impl SweepResult {
    /// How many combinations came to each outcome.
    pub fn counts(&self) -> BTreeMap<RunOutcome, usize> {
        let mut counts = BTreeMap::new();
        for &o in &self.outcomes {
            *counts.entry(o).or_insert(0) += 1;
        }
        counts
    }

    /// The axis values of combination `index`.
    pub fn values(&self, index: usize) -> Vec<i64> {
        let mut rest = index;
        let mut values = vec![0; self.axes.len()];
        for (k, axis) in self.axes.iter().enumerate().rev() {
            values[k] = axis.value(rest % axis.len());
            rest /= axis.len();
        }
        values
    }

    /// The outcome at axis indices `at` (one index per axis).
    pub fn outcome_at(&self, at: &[usize]) -> RunOutcome {
        let index = self
            .axes
            .iter()
            .zip(at)
            .fold(0, |acc, (axis, &i)| acc * axis.len() + i);
        self.outcomes[index]
    }

    /// The combinations with a given outcome, compressed: for each setting of all axes but the
    /// last, the runs of consecutive last-axis values (`ttl=5s pause=5.5s..20s`).
    pub fn describe(&self, outcome: RunOutcome) -> Vec<String> {
        let Some(last) = self.axes.last() else {
            return Vec::new();
        };
        let inner = last.len();
        let mut lines = Vec::new();
        for (row, cells) in self.outcomes.chunks(inner).enumerate() {
            let prefix: Vec<String> = self.axes[..self.axes.len() - 1]
                .iter()
                .zip(self.values(row * inner))
                .map(|(a, v)| a.label(v))
                .collect();
            let mut i = 0;
            while i < inner {
                if cells[i] != outcome {
                    i += 1;
                    continue;
                }
                let start = i;
                while i + 1 < inner && cells[i + 1] == outcome {
                    i += 1;
                }
                let (a, b) = (last.value(start), last.value(i));
                let range = if start == i {
                    last.label(a)
                } else {
                    format!("{}..{}", last.label(a), crate::duration::format_ms(b))
                };
                let mut parts = prefix.clone();
                parts.push(range);
                lines.push(parts.join(" "));
                i += 1;
            }
        }
        lines
    }
}
