//! Workers' messages that spend long in the network (naive-network-delay's write is in flight
//! from 2 s to 10 s): the lease chart draws each on its sender's belief row.

use std::collections::BTreeMap;

use lockstep_core::trace::{EventKind, TraceEvent};

/// A worker's message that spent a long time in the network (at least [`LONG_FLIGHT_MS`]).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Flight {
    pub worker_index: usize,
    /// The row it is drawn on (the worker's belief row).
    pub row: usize,
    pub from_ms: u64,
    /// None while still in the network at the last step shown.
    pub to_ms: Option<u64>,
    pub label: String,
}

/// Messages in the network at least this long are drawn on the chart.
pub const LONG_FLIGHT_MS: u64 = 100;

/// The workers' (participant indices) messages among `events` that spent at least
/// [`LONG_FLIGHT_MS`] in the network, or are still in it at `end_ms`; `row_of` gives each
/// worker's belief row under the key (worker, 1).
pub(super) fn long_flights(
    events: &[TraceEvent],
    workers: &[usize],
    row_of: &BTreeMap<(usize, u8), usize>,
    end_ms: u64,
) -> Vec<Flight> {
    let mut flights = Vec::new();
    let mut sent: BTreeMap<u64, usize> = BTreeMap::new();
    for (i, e) in events.iter().enumerate() {
        match (e.kind, e.message) {
            (EventKind::Send, Some(m)) => {
                sent.insert(m, i);
            }
            (EventKind::Deliver | EventKind::Lost, Some(m)) => {
                if let Some(s) = sent.remove(&m) {
                    let send = &events[s];
                    if e.time_ms - send.time_ms >= LONG_FLIGHT_MS {
                        flights.push((s, Some(e.time_ms)));
                    }
                }
            }
            _ => {}
        }
    }
    flights.extend(sent.values().map(|&s| (s, None)));
    flights
        .into_iter()
        .filter_map(|(s, to_ms)| {
            let send = &events[s];
            let w = usize::from(send.from);
            let k = workers.iter().position(|&x| x == w)?;
            let row = *row_of.get(&(w, 1))?;
            let long = to_ms.unwrap_or(end_ms).saturating_sub(send.time_ms) >= LONG_FLIGHT_MS;
            long.then(|| Flight {
                worker_index: k,
                row,
                from_ms: send.time_ms,
                to_ms,
                label: format!("{} in flight", send.label),
            })
        })
        .collect()
}
