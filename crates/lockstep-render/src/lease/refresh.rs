//! Why a consensus lock's lease outlives its TTL: a new leader refreshes every lease as it takes
//! over (etcd's lessor on promotion: now + election timeout + TTL), so a 5 s lease granted at
//! 0 s can last past 7 s. Written under the holder's "service says" bar at the takeover.

use lockstep_core::trace::{Tag, TraceEvent};

use super::{LeaseChart, LeaseRowKind};

/// A lease refreshed by a new leader: the "service says" row it lies on, when, and the words.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Refresh {
    pub row: usize,
    pub at_ms: u64,
    pub text: String,
}

/// Every lease a new leader refreshed among `events`: each leader taking over while a
/// "service says" bar runs across that instant.
pub(super) fn refreshes(chart: &LeaseChart, events: &[TraceEvent]) -> Vec<Refresh> {
    let mut out = Vec::new();
    for e in events {
        if !matches!(e.tag, Some(Tag::Leader { .. })) {
            continue;
        }
        let t = e.time_ms;
        let leader = chart
            .names
            .get(usize::from(e.from))
            .map_or("the new leader", String::as_str);
        for (row, r) in chart.rows.iter().enumerate() {
            let held_across = r.kind == LeaseRowKind::ServiceHolds
                && r.intervals.iter().any(|iv| iv.from_ms < t && t < iv.to_ms);
            if held_across {
                out.push(Refresh {
                    row,
                    at_ms: t,
                    text: format!(
                        "{leader} leads: lease refreshed to now + election timeout + TTL"
                    ),
                });
            }
        }
    }
    out
}
