//! The what-if menu as data: the same choices as the terminal UI's fault menu (pause a worker, jump
//! a clock, crash or restart a node, partition one off, heal, delay or drop the next message) and
//! its toggles (fencing mode, TTL), each turned into a [`Change`] for `Session::apply`.

use lockstep_core::Change;
use lockstep_core::scenario::{Fault, FaultKind, FencingMode};
use lockstep_core::topology::{Participant, Role};

/// One entry of the fault menu.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MenuFault {
    Pause,
    ClockJump,
    Crash,
    Restart,
    Partition,
    Heal,
    Delay,
    Drop,
}

impl MenuFault {
    pub const ALL: [MenuFault; 8] = [
        MenuFault::Pause,
        MenuFault::ClockJump,
        MenuFault::Crash,
        MenuFault::Restart,
        MenuFault::Partition,
        MenuFault::Heal,
        MenuFault::Delay,
        MenuFault::Drop,
    ];

    /// The id used in form values.
    pub fn id(self) -> &'static str {
        match self {
            MenuFault::Pause => "pause",
            MenuFault::ClockJump => "clock-jump",
            MenuFault::Crash => "crash",
            MenuFault::Restart => "restart",
            MenuFault::Partition => "partition",
            MenuFault::Heal => "heal",
            MenuFault::Delay => "delay",
            MenuFault::Drop => "drop",
        }
    }

    pub fn from_id(id: &str) -> Option<MenuFault> {
        MenuFault::ALL.into_iter().find(|f| f.id() == id)
    }

    /// What the menu says.
    pub fn label(self) -> &'static str {
        match self {
            MenuFault::Pause => "Pause a worker (GC, VM stall)",
            MenuFault::ClockJump => "Jump a node's clock",
            MenuFault::Crash => "Crash a node",
            MenuFault::Restart => "Restart a node",
            MenuFault::Partition => "Cut a node off (partition)",
            MenuFault::Heal => "Heal every partition",
            MenuFault::Delay => "Delay the next message",
            MenuFault::Drop => "Drop the next message",
        }
    }

    /// Whether the fault hits one node, and which nodes it may hit.
    pub fn needs_target(self) -> bool {
        !matches!(self, MenuFault::Heal | MenuFault::Delay | MenuFault::Drop)
    }

    /// Whether it takes an amount of time (seconds).
    pub fn needs_seconds(self) -> bool {
        matches!(
            self,
            MenuFault::Pause | MenuFault::ClockJump | MenuFault::Delay
        )
    }

    /// Whether it matches a message by the start of its label.
    pub fn needs_match(self) -> bool {
        matches!(self, MenuFault::Delay | MenuFault::Drop)
    }

    /// The nodes this fault may target, in lane order.
    pub fn targets(self, participants: &[Participant]) -> Vec<String> {
        participants
            .iter()
            .filter(|p| match self {
                MenuFault::Pause => p.role == Role::Worker,
                // A worker can crash (the holder dies, as in the TUI's menu), but only a lock
                // node restarts.
                MenuFault::Crash => p.role != Role::Database,
                MenuFault::Restart => p.role != Role::Worker && p.role != Role::Database,
                MenuFault::ClockJump | MenuFault::Partition => true,
                _ => false,
            })
            .map(|p| p.name.clone())
            .collect()
    }
}

/// What the user filled in.
#[derive(Debug, Clone, PartialEq)]
pub struct FaultForm {
    pub fault: MenuFault,
    pub target: String,
    /// Seconds as typed (pause length, clock jump, extra delay); may be negative for a jump.
    pub seconds: String,
    /// restart: whether the node kept its data.
    pub persistent: bool,
    /// delay/drop: the start of the message's label.
    pub match_label: String,
}

impl Default for FaultForm {
    fn default() -> Self {
        FaultForm {
            fault: MenuFault::Pause,
            target: String::new(),
            seconds: "10".into(),
            persistent: false,
            match_label: "write".into(),
        }
    }
}

fn empty_fault(kind: FaultKind) -> Fault {
    Fault::new(kind)
}

/// Reads seconds such as `10`, `2.5` or `-6` as milliseconds.
pub fn parse_seconds(text: &str) -> Result<i64, String> {
    let t = text.trim();
    let secs: f64 = t
        .parse()
        .map_err(|_| format!("“{t}” is not a number of seconds (for example 10 or 2.5)"))?;
    if !secs.is_finite() || secs.abs() > 86_400.0 {
        return Err(format!("“{t}” s is out of range (at most a day)"));
    }
    Ok((secs * 1000.0).round() as i64)
}

impl FaultForm {
    /// The change this form describes, or what is wrong with it.
    pub fn to_change(&self, participants: &[Participant]) -> Result<Change, String> {
        let mut f = empty_fault(match self.fault {
            MenuFault::Pause => FaultKind::Pause,
            MenuFault::ClockJump => FaultKind::ClockJump,
            MenuFault::Crash => FaultKind::Crash,
            MenuFault::Restart => FaultKind::Restart,
            MenuFault::Partition => FaultKind::Partition,
            MenuFault::Heal => FaultKind::Heal,
            MenuFault::Delay => FaultKind::Delay,
            MenuFault::Drop => FaultKind::Drop,
        });
        if self.fault.needs_target() {
            if !self.fault.targets(participants).contains(&self.target) {
                return Err(format!(
                    "choose which node to hit ({})",
                    self.fault.targets(participants).join(", ")
                ));
            }
            // A partition names its sides in `groups`, not a target (validation refuses one).
            if self.fault != MenuFault::Partition {
                f.target = Some(self.target.clone());
            }
        }
        let ms = if self.fault.needs_seconds() {
            parse_seconds(&self.seconds)?
        } else {
            0
        };
        match self.fault {
            MenuFault::Pause | MenuFault::Delay => {
                if ms <= 0 {
                    return Err("the length must be more than 0 s".into());
                }
                f.duration_ms = Some(ms as u64);
            }
            MenuFault::ClockJump => {
                if ms == 0 {
                    return Err("a clock jump of 0 s changes nothing".into());
                }
                f.by_ms = Some(ms);
            }
            MenuFault::Restart => f.persistent = Some(self.persistent),
            MenuFault::Partition => {
                let others = participants
                    .iter()
                    .map(|p| p.name.clone())
                    .filter(|n| *n != self.target)
                    .collect();
                f.groups = Some(vec![vec![self.target.clone()], others]);
            }
            _ => {}
        }
        if self.fault.needs_match() {
            let m = self.match_label.trim();
            if m.is_empty() {
                return Err("say which message: the start of its label, such as “write”".into());
            }
            f.match_label = Some(m.to_string());
        }
        Ok(Change::Fault(f))
    }
}

/// The fencing modes the toggle offers, with what each means.
pub const FENCING_MODES: [(FencingMode, &str); 4] = [
    (FencingMode::Off, "off: accept every access"),
    (FencingMode::Writes, "writes: refuse stale writes"),
    (FencingMode::Enforce, "enforce: check every access"),
    (
        FencingMode::Permissive,
        "permissive: tokenless accesses pass",
    ),
];

/// One line describing a change, for the branch list.
pub fn describe(change: &Change) -> String {
    match change {
        Change::Fault(f) => {
            let target = f.target.clone().unwrap_or_default();
            match f.kind {
                FaultKind::Pause => format!(
                    "pause {target} for {} s",
                    f.duration_ms.unwrap_or(0) as f64 / 1000.0
                ),
                FaultKind::ClockJump => format!(
                    "{target}'s clock jumps {:+} s",
                    f.by_ms.unwrap_or(0) as f64 / 1000.0
                ),
                FaultKind::Restart if f.persistent == Some(true) => {
                    format!("restart {target} (data kept)")
                }
                FaultKind::Restart => format!("restart {target} (data lost)"),
                // The menu's partition cuts one node (the first group) off from the rest.
                FaultKind::Partition => match f.groups.as_deref() {
                    Some([cut, _]) => format!("cut {} off", cut.join(", ")),
                    Some(groups) => format!(
                        "partition the network into {}",
                        groups
                            .iter()
                            .map(|g| format!("{{{}}}", g.join(", ")))
                            .collect::<Vec<_>>()
                            .join(" | ")
                    ),
                    None => "partition the network".to_string(),
                },
                FaultKind::Delay => format!(
                    "delay the next \"{}\" by {} s",
                    f.match_label.clone().unwrap_or_default(),
                    f.duration_ms.unwrap_or(0) as f64 / 1000.0
                ),
                FaultKind::Drop => format!(
                    "drop the next \"{}\"",
                    f.match_label.clone().unwrap_or_default()
                ),
                kind => format!("{} {target}", kind.as_str()).trim().to_string(),
            }
        }
        Change::SetTtl { ttl_ms } => format!("TTL = {ttl_ms} ms"),
        Change::SetFencing { fencing } => format!("fencing = {}", fencing.as_str()),
        Change::SetIdempotency { idempotency: true } => "idempotency keys on".into(),
        Change::SetIdempotency { idempotency: false } => "idempotency keys off".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn people() -> Vec<Participant> {
        [
            ("A", Role::Worker),
            ("redis", Role::Redis),
            ("B", Role::Worker),
            ("db", Role::Database),
        ]
        .into_iter()
        .map(|(n, role)| Participant {
            name: n.into(),
            role,
        })
        .collect()
    }

    #[test]
    fn a_pause_needs_a_worker_and_a_positive_length() {
        let mut form = FaultForm {
            target: "A".into(),
            ..FaultForm::default()
        };
        let Change::Fault(f) = form.to_change(&people()).unwrap() else {
            panic!("not a fault")
        };
        assert_eq!((f.kind, f.duration_ms), (FaultKind::Pause, Some(10_000)));
        form.target = "redis".into();
        assert!(form.to_change(&people()).unwrap_err().contains("A, B"));
        form.target = "A".into();
        form.seconds = "ten".into();
        assert!(
            form.to_change(&people())
                .unwrap_err()
                .contains("not a number")
        );
        form.seconds = "-1".into();
        assert!(form.to_change(&people()).is_err());
    }

    #[test]
    fn a_partition_cuts_one_node_off_from_all_others() {
        let form = FaultForm {
            fault: MenuFault::Partition,
            target: "redis".into(),
            ..FaultForm::default()
        };
        let Change::Fault(f) = form.to_change(&people()).unwrap() else {
            panic!("not a fault")
        };
        assert_eq!(
            f.groups,
            Some(vec![
                vec!["redis".to_string()],
                vec!["A".into(), "B".into(), "db".into()]
            ])
        );
    }

    #[test]
    fn every_fault_the_menu_offers_branches_a_catalogue_run() {
        use lockstep_core::session::Session;
        let scenario = lockstep_core::catalogue::load("fenced-gc-pause")
            .unwrap()
            .unwrap();
        for fault in MenuFault::ALL {
            let mut session = Session::new(&scenario);
            session.seek(5);
            let participants = session.trace().participants;
            let form = FaultForm {
                fault,
                target: fault
                    .targets(&participants)
                    .first()
                    .cloned()
                    .unwrap_or_default(),
                match_label: "write".into(),
                ..FaultForm::default()
            };
            let change = form.to_change(&participants).unwrap();
            session
                .apply(change)
                .unwrap_or_else(|e| panic!("{}: {e}", fault.label()));
            assert_eq!(session.whatifs().len(), 1, "{}", fault.label());
            // Its line in the branch list names the node it hits.
            let said = describe(&session.whatifs()[0].change);
            if fault.needs_target() {
                assert!(said.contains(&form.target), "{said}");
            }
        }
    }

    #[test]
    fn clock_jumps_may_go_back_and_seconds_may_be_fractional() {
        assert_eq!(parse_seconds("-6"), Ok(-6000));
        assert_eq!(parse_seconds(" 2.5 "), Ok(2500));
        assert!(parse_seconds("1e9").is_err());
        let form = FaultForm {
            fault: MenuFault::Delay,
            match_label: "  ".into(),
            ..FaultForm::default()
        };
        assert!(
            form.to_change(&people())
                .unwrap_err()
                .contains("which message")
        );
    }

    #[test]
    fn changes_read_as_one_line() {
        let form = FaultForm {
            target: "A".into(),
            ..FaultForm::default()
        };
        assert_eq!(
            describe(&form.to_change(&people()).unwrap()),
            "pause A for 10 s"
        );
        assert_eq!(
            describe(&Change::SetFencing {
                fencing: FencingMode::Enforce
            }),
            "fencing = enforce"
        );
        for f in MenuFault::ALL {
            assert_eq!(MenuFault::from_id(f.id()), Some(f));
        }
    }
}
