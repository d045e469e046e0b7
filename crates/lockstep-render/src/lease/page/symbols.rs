//! The rows' symbols of a lease chart: a dot at each instant of a worker's note (an X for a
//! lost message) and the marks, set side by side inside the plot, never on top of each other;
//! and where each stands, so a label sits by its own symbol, not at a time its symbol was
//! pushed away from.

use crate::layout::MarkKind;
use crate::lease::LeaseChart;
use crate::lease::nodes;
use lockstep_core::sort;

/// Half the width of a mark's symbol and of a note's dot.
pub(super) const MARK_HW: f64 = 11.0;
const DOT_HW: f64 = 5.0;
/// Room between a symbol and a "paid twice" band (the duplicate's white disc is 2 px wider
/// than its symbol).
const GAP: f64 = 4.0;

/// A symbol as drawn on its row: its instant, its x, the mark (None: a worker's note dot) and
/// the worker index (for a dot's colour).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Symbol {
    pub at_ms: u64,
    pub x: f64,
    pub kind: Option<MarkKind>,
    pub worker: usize,
}

/// Every row's symbols, side by side between `left` and `right`; `x` maps a time to its x.
pub(crate) fn symbols(
    chart: &LeaseChart,
    x: impl Fn(u64) -> f64,
    left: f64,
    right: f64,
) -> Vec<Vec<Symbol>> {
    // Per row: (wanted x, half width, symbol).
    let mut wanted: Vec<Vec<(f64, f64, Symbol)>> = vec![Vec::new(); chart.rows.len()];
    for note in &chart.notes {
        let Some(row) = wanted.get_mut(note.row) else {
            continue;
        };
        let worker = chart.rows[note.row].worker_index;
        for &t in &note.times {
            let (hw, kind) = if note.lost {
                (MARK_HW, Some(MarkKind::Lost))
            } else {
                (DOT_HW, None)
            };
            let s = Symbol {
                at_ms: t,
                x: x(t),
                kind,
                worker,
            };
            row.push((s.x, hw, s));
        }
    }
    for m in &chart.marks {
        if let Some(row) = wanted.get_mut(m.row) {
            let s = Symbol {
                at_ms: m.at_ms,
                x: x(m.at_ms),
                kind: Some(m.kind),
                worker: 0,
            };
            row.push((s.x, MARK_HW, s));
        }
    }
    // The stretches of the plot between "paid twice" bands, and the instants that cut them.
    let mut cuts: Vec<u64> = chart.harm.iter().map(|h| h.at_ms).collect();
    cuts.sort_unstable();
    cuts.dedup();
    let mut segments = Vec::new();
    let mut lo = left;
    for &t in &cuts {
        let band = x(t);
        segments.push((lo, band - super::HARM_HW - GAP));
        lo = band + super::HARM_HW + GAP;
    }
    segments.push((lo, right));
    wanted
        .into_iter()
        .map(|mut items| {
            // In time order within one x (a stable sort keeps the marks' own order).
            sort::sort_by(&mut items, |a, b| {
                a.0.total_cmp(&b.0).then(a.2.at_ms.cmp(&b.2.at_ms))
            });
            // Dots of one note closer than a dot's width are one dot; so are crosses of lost
            // messages (a worker's request to five Redlock instances lost at once is one X).
            items.dedup_by(|b, a| {
                matches!(a.2.kind, None | Some(MarkKind::Lost))
                    && a.2.kind == b.2.kind
                    && b.0 - a.0 < 2.0 * a.1
            });
            // The "paid twice" bands cut the row: a symbol stands wholly on the side of its
            // instant, never under a band (a renewal or the duplicate's warning at the write's
            // instant sits just before it).
            let mut xs = Vec::with_capacity(items.len());
            let mut from = 0;
            for (k, &(lo, hi)) in segments.iter().enumerate() {
                let until = segments.get(k + 1).map_or(u64::MAX, |_| cuts[k]);
                let to = from + items[from..].partition_point(|it| it.2.at_ms <= until);
                let spans: Vec<(f64, f64)> =
                    items[from..to].iter().map(|&(x, hw, _)| (x, hw)).collect();
                xs.extend(nodes::side_by_side(&spans, lo, hi));
                from = to;
            }
            items
                .into_iter()
                .zip(xs)
                .map(|((_, _, s), x)| Symbol { x, ..s })
                .collect()
        })
        .collect()
}

/// Where the label of something at `at_ms` (x `want`) on row `row` belongs: by its symbol as
/// drawn (a mark when `mark`, else a note's dot or X; a dot merged into a neighbour's is that
/// neighbour), or at its instant if it has none.
pub(crate) fn anchor(
    symbols: &[Vec<Symbol>],
    row: usize,
    at_ms: u64,
    want: f64,
    mark: bool,
) -> f64 {
    let Some(row) = symbols.get(row) else {
        return want;
    };
    let same = |s: &&Symbol| matches!(s.kind, Some(k) if k != MarkKind::Lost) == mark;
    row.iter()
        .filter(same)
        .find(|s| s.at_ms == at_ms)
        .or_else(|| {
            row.iter()
                .filter(same)
                .filter(|s| (s.x - want).abs() <= 2.0 * MARK_HW + 2.0)
                .min_by(|a, b| (a.x - want).abs().total_cmp(&(b.x - want).abs()))
        })
        .map_or(want, |s| s.x)
}
