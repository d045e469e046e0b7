//! The counterexample as a scenario file that `lockstep run`, the TUI and the web app open, with
//! each fault and each delivery-order choice named in a comment.

use lockstep_core::Scenario;
use lockstep_core::scenario::{Order, Outcome};

use super::bounds::describe_fault;
use super::shrink::{Schedule, with_schedule};
use crate::duration::format_ms;

/// One line for a delivery-order choice: `at 3.005s, db handles "write …" from A first`.
pub fn describe_order(o: &Order) -> String {
    let what = match (&o.match_label, &o.from) {
        (Some(label), Some(from)) => format!("\"{label}\" from {from}"),
        (Some(label), None) => format!("\"{label}\""),
        (None, Some(from)) => format!("the message from {from}"),
        (None, None) => "the message sent first".to_string(),
    };
    format!(
        "at {}, {} handles {what} first",
        format_ms(o.at_ms as i64),
        o.to
    )
}

/// One line per fault (`pause A for 5s at 1.5s`), then one per delivery-order choice.
pub fn describe_schedule(schedule: &Schedule) -> Vec<String> {
    let faults = schedule.faults.iter().map(|f| {
        format!(
            "{} at {}",
            describe_fault(f),
            format_ms(f.at_ms.unwrap_or(0) as i64)
        )
    });
    faults
        .chain(schedule.orders.iter().map(describe_order))
        .collect()
}

/// The counterexample scenario: the searched workload (`work`) with `schedule`, named after
/// `original`.
pub fn counterexample_scenario(
    original: &Scenario,
    work: &Scenario,
    schedule: &Schedule,
) -> Scenario {
    let mut s = with_schedule(work, schedule);
    let what = describe_schedule(&Schedule {
        faults: s.faults.clone(),
        orders: s.order.clone(),
    });
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

/// The counterexample as TOML, with a header and each fault and order choice named.
pub fn counterexample_toml(
    original: &Scenario,
    work: &Scenario,
    schedule: &Schedule,
) -> Result<String, String> {
    counterexample_text(
        &original.name,
        &counterexample_scenario(original, work, schedule),
    )
}

/// A counterexample scenario (from [`counterexample_scenario`]) of the scenario named
/// `original_name` as TOML, with a header and each fault and order choice named. Apart from
/// [`counterexample_toml`] so that a caller holding the scenario (the web app, which writes the
/// TOML in a separate, lazily loaded module) can write it.
pub fn counterexample_text(original_name: &str, s: &Scenario) -> Result<String, String> {
    let body =
        toml::to_string(&s).map_err(|e| format!("cannot write the scenario as TOML: {e}"))?;
    let faults = describe_schedule(&Schedule::faults(&s.faults));
    let orders: Vec<String> = s.order.iter().map(describe_order).collect();
    let mut out = format!(
        "# A counterexample found by `lockstep explore {}`: the faults and delivery orders below make a payout apply twice.\n# Open it with `lockstep run FILE`.\n\n",
        original_name
    );
    let (mut f, mut o) = (0, 0);
    for line in body.lines() {
        match line.trim() {
            "[[faults]]" => {
                if let Some(w) = faults.get(f) {
                    out.push_str(&format!("# fault {}: {w}\n", f + 1));
                }
                f += 1;
            }
            "[[order]]" => {
                if let Some(w) = orders.get(o) {
                    out.push_str(&format!(
                        "# order {}: where several messages are due at once, {w}\n",
                        o + 1
                    ));
                }
                o += 1;
            }
            _ => {}
        }
        out.push_str(line);
        out.push('\n');
    }
    Ok(out)
}
