//! The counterexample as a scenario file that `lockstep run`, the TUI and the web app open, with
//! each fault named in a comment.

use lockstep_core::Scenario;
use lockstep_core::scenario::{Fault, Outcome};

use super::bounds::describe_fault;
use super::shrink::with_faults;
use crate::duration::format_ms;

/// One line per fault: `pause A for 5s at 1.5s`.
pub fn describe_schedule(faults: &[Fault]) -> Vec<String> {
    faults
        .iter()
        .map(|f| {
            format!(
                "{} at {}",
                describe_fault(f),
                format_ms(f.at_ms.unwrap_or(0) as i64)
            )
        })
        .collect()
}

/// The counterexample scenario: the searched workload (`work`) with `faults`, named after
/// `original`.
pub fn counterexample_scenario(original: &Scenario, work: &Scenario, faults: &[Fault]) -> Scenario {
    let mut s = with_faults(work, faults);
    let what = describe_schedule(&s.faults);
    s.name = format!("{}-counterexample", original.name);
    s.title = format!("Counterexample to {}", original.name);
    s.summary = if what.is_empty() {
        format!(
            "Found by lockstep explore: {} pays a payout twice with no fault at all.",
            original.name
        )
    } else {
        format!(
            "Found by lockstep explore from {}: {}. Then a payout is applied twice.",
            original.name,
            what.join("; ")
        )
    };
    s.expect = Outcome::DoubleWrite;
    s
}

/// The counterexample as TOML, with a header and each fault named.
pub fn counterexample_toml(
    original: &Scenario,
    work: &Scenario,
    faults: &[Fault],
) -> Result<String, String> {
    let s = counterexample_scenario(original, work, faults);
    let body =
        toml::to_string(&s).map_err(|e| format!("cannot write the scenario as TOML: {e}"))?;
    let what = describe_schedule(&s.faults);
    let mut out = format!(
        "# A counterexample found by `lockstep explore {}`: the faults below make a payout apply twice.\n# Open it with `lockstep run FILE`.\n\n",
        original.name
    );
    let mut n = 0;
    for line in body.lines() {
        if line.trim() == "[[faults]]" {
            if let Some(w) = what.get(n) {
                out.push_str(&format!("# fault {}: {w}\n", n + 1));
            }
            n += 1;
        }
        out.push_str(line);
        out.push('\n');
    }
    Ok(out)
}
