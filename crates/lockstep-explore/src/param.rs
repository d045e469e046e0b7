//! The scenario parameters a sweep varies, and `--vary NAME=START..END/STEP` ranges over them.

use lockstep_core::Scenario;
use lockstep_core::scenario::{Fault, FaultKind};

use crate::duration::{format_ms, parse_ms};
use crate::error::ExploreError;

/// A parameter of a scenario that a sweep can vary.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Param {
    /// `lock.ttl_ms`.
    Ttl,
    /// The first pause fault's `duration_ms`.
    Pause,
    /// The first pause fault's `at_ms`.
    PauseAt,
    /// The first clock jump's `by_ms` (may be negative).
    Jump,
    /// The first clock jump's `at_ms`.
    JumpAt,
    /// The first failover's `at_ms`.
    FailoverAt,
    /// The first delay fault's extra `duration_ms`.
    Delay,
    /// The first delay fault's `at_ms` (from when it matches).
    DelayAt,
}

impl Param {
    /// Every parameter, in the order the help lists them.
    pub const ALL: [Param; 8] = [
        Param::Ttl,
        Param::Pause,
        Param::PauseAt,
        Param::Jump,
        Param::JumpAt,
        Param::FailoverAt,
        Param::Delay,
        Param::DelayAt,
    ];

    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Param::Ttl => "ttl",
            Param::Pause => "pause",
            Param::PauseAt => "pause-at",
            Param::Jump => "jump",
            Param::JumpAt => "jump-at",
            Param::FailoverAt => "failover-at",
            Param::Delay => "delay",
            Param::DelayAt => "delay-at",
        }
    }

    /// What the parameter is, for axis titles and help.
    pub fn describe(self) -> &'static str {
        match self {
            Param::Ttl => "lock TTL",
            Param::Pause => "pause length",
            Param::PauseAt => "pause start",
            Param::Jump => "clock jump",
            Param::JumpAt => "clock jump time",
            Param::FailoverAt => "failover time",
            Param::Delay => "message delay",
            Param::DelayAt => "delay start",
        }
    }

    /// Parses a name given on the command line.
    pub fn from_name(name: &str) -> Option<Param> {
        Param::ALL.into_iter().find(|p| p.name() == name)
    }

    fn fault_kind(self) -> Option<FaultKind> {
        match self {
            Param::Ttl => None,
            Param::Pause | Param::PauseAt => Some(FaultKind::Pause),
            Param::Jump | Param::JumpAt => Some(FaultKind::ClockJump),
            Param::FailoverAt => Some(FaultKind::Failover),
            Param::Delay | Param::DelayAt => Some(FaultKind::Delay),
        }
    }

    fn signed(self) -> bool {
        self == Param::Jump
    }

    fn fault_index(self, s: &Scenario) -> Option<usize> {
        let kind = self.fault_kind()?;
        s.faults.iter().position(|f| f.kind == kind)
    }

    /// Why this scenario has nothing to vary for the parameter, if so.
    pub fn check_applies(self, s: &Scenario) -> Result<(), String> {
        let Some(kind) = self.fault_kind() else {
            return Ok(());
        };
        let Some(i) = self.fault_index(s) else {
            return Err(format!(
                "scenario `{}` has no {} fault to vary; add one to a copy of the scenario file, or search with no --vary",
                s.name,
                kind.as_str()
            ));
        };
        if self == Param::PauseAt && s.faults[i].after.is_some() {
            return Err(format!(
                "the pause in scenario `{}` starts after an event (`after = \"{}\"`), not at a time; there is no start time to vary",
                s.name,
                s.faults[i].after.as_deref().unwrap_or_default()
            ));
        }
        Ok(())
    }

    /// The scenario's own value of the parameter, if it has one.
    pub fn value_in(self, s: &Scenario) -> Option<i64> {
        if self == Param::Ttl {
            return Some(s.lock.ttl_ms as i64);
        }
        let f: &Fault = &s.faults[self.fault_index(s)?];
        match self {
            Param::Pause | Param::Delay => f.duration_ms.map(|v| v as i64),
            Param::Jump => f.by_ms,
            _ => f.at_ms.map(|v| v as i64),
        }
    }

    /// Sets the parameter in `s` (which [`Param::check_applies`] accepted).
    pub fn apply(self, s: &mut Scenario, value: i64) {
        if self == Param::Ttl {
            s.lock.ttl_ms = value.max(0) as u64;
            return;
        }
        let Some(i) = self.fault_index(s) else { return };
        let f = &mut s.faults[i];
        let unsigned = value.max(0) as u64;
        match self {
            Param::Pause | Param::Delay => f.duration_ms = Some(unsigned),
            Param::Jump => f.by_ms = Some(value),
            _ => f.at_ms = Some(unsigned),
        }
    }
}

/// One `--vary`: a parameter and the values it takes, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Axis {
    pub param: Param,
    pub start: i64,
    pub end: i64,
    pub step: i64,
}

/// More values than this on one axis is surely a typo in the step.
pub const MAX_AXIS_VALUES: i64 = 100_000;

impl Axis {
    /// Parses `NAME=START..END/STEP` (end inclusive) or `NAME=VALUE`.
    pub fn parse(spec: &str) -> Result<Axis, ExploreError> {
        let bad = |message: String| ExploreError::BadRange {
            spec: spec.to_string(),
            message,
        };
        let names = || {
            Param::ALL
                .iter()
                .map(|p| p.name())
                .collect::<Vec<_>>()
                .join(", ")
        };
        let Some((name, range)) = spec.split_once('=') else {
            return Err(bad(format!(
                "write NAME=START..END/STEP, e.g. pause=0s..20s/500ms; NAME is one of {}",
                names()
            )));
        };
        let name = name.trim();
        let param = Param::from_name(name).ok_or_else(|| {
            bad(format!(
                "unknown parameter `{name}`; use one of {}",
                names()
            ))
        })?;
        let (start, end, step) = match range.split_once("..") {
            None if range.contains('/') => {
                return Err(bad(format!(
                    "`{range}` has a step but no range: write START..END/STEP"
                )));
            }
            None => {
                let v = parse_ms(range).map_err(bad)?;
                (v, v, 1)
            }
            Some((start, rest)) => {
                let Some((end, step)) = rest.split_once('/') else {
                    return Err(bad(format!(
                        "`{range}` has no step: write {start}..{rest}/STEP, e.g. /500ms"
                    )));
                };
                let start = parse_ms(start).map_err(&bad)?;
                let end = parse_ms(end).map_err(&bad)?;
                let step = parse_ms(step).map_err(&bad)?;
                if step <= 0 {
                    return Err(bad("the step must be greater than 0".into()));
                }
                if end < start {
                    return Err(bad(format!(
                        "the range runs backwards: {} is after {}",
                        format_ms(start),
                        format_ms(end)
                    )));
                }
                (start, end, step)
            }
        };
        if !param.signed() && start < 0 {
            return Err(bad(format!("{} cannot be negative", param.describe())));
        }
        if param == Param::Ttl && start == 0 {
            return Err(bad(
                "a TTL of 0 expires at once; start at 1ms or more".into()
            ));
        }
        let axis = Axis {
            param,
            start,
            end,
            step,
        };
        if axis.len() as i64 > MAX_AXIS_VALUES {
            return Err(bad(format!(
                "{} values on one axis; at most {MAX_AXIS_VALUES} (use a larger step)",
                axis.len()
            )));
        }
        Ok(axis)
    }

    /// How many values the axis takes.
    pub fn len(&self) -> usize {
        ((self.end - self.start) / self.step + 1) as usize
    }

    /// Always false: an axis has at least one value.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The `i`-th value.
    pub fn value(&self, i: usize) -> i64 {
        self.start + self.step * i as i64
    }

    /// `name=value`, as output names a combination.
    pub fn label(&self, value: i64) -> String {
        format!("{}={}", self.param.name(), format_ms(value))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_ranges_and_single_values() {
        let a = Axis::parse("pause=0s..20s/500ms").unwrap();
        assert_eq!(
            (a.param, a.start, a.end, a.step),
            (Param::Pause, 0, 20_000, 500)
        );
        assert_eq!(a.len(), 41);
        assert_eq!(a.value(40), 20_000);
        let b = Axis::parse("ttl=5s").unwrap();
        assert_eq!(b.len(), 1);
        let j = Axis::parse("jump=-10s..10s/5s").unwrap();
        assert_eq!(j.len(), 5);
        // An end that the step does not hit exactly is not passed.
        assert_eq!(Axis::parse("ttl=1s..10s/4s").unwrap().len(), 3);
    }

    #[test]
    fn malformed_ranges_say_what_is_wrong() {
        let msg = |s: &str| Axis::parse(s).unwrap_err().to_string();
        assert!(msg("pause").contains("write NAME=START..END/STEP"));
        assert!(msg("paws=1s..2s/1s").contains("unknown parameter `paws`"));
        assert!(msg("pause=1s..2s").contains("has no step"));
        assert!(msg("pause=1s/1s").contains("no range"));
        assert!(msg("pause=2s..1s/1s").contains("runs backwards"));
        assert!(msg("pause=0s..1s/0s").contains("greater than 0"));
        assert!(msg("pause=-1s..1s/1s").contains("cannot be negative"));
        assert!(msg("ttl=0s..1s/1s").contains("TTL of 0"));
        assert!(msg("pause=0ms..1000s/1ms").contains("at most"));
        assert!(msg("pause=1x..2s/1s").contains("unknown unit"));
    }
}
