//! The labels under a lease chart's bars and lanes: each note, long flight or incident keeps a
//! label of its own (close ones are never merged into one long label), set at its instant in the
//! first level under the bar where it meets no other, so every label lies in its own row's band
//! and the row is only as tall as its labels need.

use crate::geom::Rect;
use crate::layout::Tone;
use crate::lease::{Interval, LeaseChart, LeaseRow, LeaseRowKind, nodes};
use crate::style::{self, Rgb};
use crate::text;
use lockstep_core::sort;

/// Space between two labels on one level: wide enough that two labels never read as one line
/// of text ("lost: keepalive lease 1    A done").
pub(crate) const LABEL_GAP: f64 = 40.0;
/// Space between two levels of labels.
pub(crate) const LEVEL_GAP: f64 = 2.0;

/// The size of the chart's small text (labels under bars, tokens, ticks, legend): 16 px on a
/// 1600 px page, 19 px when it fills a 1920 px screen.
pub(crate) const SMALL: f64 = 16.0;

/// The height of one level of labels under a bar.
pub(crate) fn level_h() -> f64 {
    text::line_height(SMALL) + LEVEL_GAP
}

/// The colour of a row's name and labels: its worker's, or plain text for a node's row.
pub(crate) fn row_color(r: &LeaseRow) -> Rgb {
    match r.kind {
        LeaseRowKind::ServiceHolds
        | LeaseRowKind::Believes
        | LeaseRowKind::Paused
        | LeaseRowKind::Activity => style::tone(Tone::Worker(r.worker_index)),
        LeaseRowKind::Instance | LeaseRowKind::Leader | LeaseRowKind::LastToken => style::TEXT,
    }
}

/// Sets one row's labels, in time order, in levels: `items` are (wanted x, width); each label
/// is anchored at its own instant, so it stays next to its icon: it starts there, or, when
/// it would run past `right`, it ends there (kept inside `left..right`). Labels read in time
/// order from top to bottom: each goes on the level under the lowest earlier label it would
/// come within [`LABEL_GAP`] of (a later label never sits above an earlier one beside it).
/// Returns (level, left x) per item.
pub(crate) fn stagger(items: &[(f64, f64)], left: f64, right: f64) -> Vec<(usize, f64)> {
    let mut placed: Vec<(usize, f64, f64)> = Vec::with_capacity(items.len());
    for &(want, w) in items {
        let a = if want + w <= right { want } else { want - w }
            .min(right - w)
            .max(left);
        let b = a + w;
        let level = placed
            .iter()
            .filter(|&&(_, x0, x1)| !(b + LABEL_GAP <= x0 || a >= x1 + LABEL_GAP))
            .map(|&(level, _, _)| level + 1)
            .max()
            .unwrap_or(0);
        placed.push((level, a, b));
    }
    placed.into_iter().map(|(level, a, _)| (level, a)).collect()
}

/// What a bar says: its token (a worker's rows), its holder (an instance's key), its master or
/// leader and term, the database's `last_token`; inside the bar when it fits, else under it.
/// Returns (inside, under).
pub(crate) fn bar_text(chart: &LeaseChart, row: usize, iv: &Interval) -> Option<(String, String)> {
    let name = |n: usize| chart.names.get(n).cloned().unwrap_or_default();
    match chart.rows[row].kind {
        LeaseRowKind::ServiceHolds | LeaseRowKind::Believes | LeaseRowKind::Paused => {
            iv.token.map(|t| (t.to_string(), format!("token {t}")))
        }
        LeaseRowKind::Instance => iv.who.map(|w| {
            let holder = name(w.node);
            match iv.token {
                Some(t) => (format!("{holder} {t}"), format!("{holder} token {t}")),
                None => (holder.clone(), holder),
            }
        }),
        LeaseRowKind::Leader => iv.who.map(|w| {
            let node = name(w.node);
            let s = match iv.token {
                Some(term) => format!("{node} leader (term {term})"),
                // A master from the start, or a replica promoted at the bar's start.
                None if iv.from_ms > 0 => format!("{node} becomes master"),
                None => node,
            };
            (s.clone(), s)
        }),
        LeaseRowKind::LastToken => iv.token.map(|t| (t.to_string(), format!("last_token {t}"))),
        LeaseRowKind::Activity => None,
    }
}

/// Whether the text of row `row`'s bar `iv` is written inside it: the bar is wide enough and
/// no mark or note dot of the row stands where the text would be (a renewal at the grant).
pub(crate) fn token_inside(
    chart: &LeaseChart,
    row: usize,
    iv: &Interval,
    x: impl Fn(u64) -> f64,
) -> bool {
    let Some((inside, _)) = bar_text(chart, row, iv) else {
        return false;
    };
    let (x0, x1) = (x(iv.from_ms), x(iv.to_ms));
    let w = text::width(&inside, SMALL);
    // A symbol is drawn up to its half width (11 px) around its instant.
    let clear = |t: u64| {
        let at = x(t);
        at + 13.0 < x0 || at - 13.0 > x0 + 4.0 + w
    };
    w + 8.0 <= x1 - x0
        && chart
            .marks
            .iter()
            .filter(|m| m.row == row)
            .all(|m| clear(m.at_ms))
        && chart
            .notes
            .iter()
            .filter(|n| n.row == row)
            .all(|n| n.times.iter().all(|&t| clear(t)))
}

/// Whether row `row` of the whole run's chart stays empty from start to end: a "service says"
/// or "believes" row no bar ever fills (a Redlock majority nobody reached) says "never", so
/// the room does not wait for it or take it for a drawing fault.
pub(crate) fn never(whole: &LeaseChart, row: usize) -> bool {
    // Without a lock service a worker's row is its own ("A (no lock)"): nothing to believe.
    let has_service = whole
        .rows
        .iter()
        .any(|r| r.kind == LeaseRowKind::ServiceHolds);
    has_service
        && whole.rows.get(row).is_some_and(|r| {
            matches!(r.kind, LeaseRowKind::ServiceHolds | LeaseRowKind::Believes)
                && r.intervals.is_empty()
                && !whole.marks.iter().any(|m| m.row == row)
                && !whole.stale.iter().any(|s| s.row == row)
        })
}

/// A label under a row's bar: its text, level, left x and colour; and, for one that ends at its
/// symbol rather than starting there (near the axis's end) below the first level, the x of a
/// hairline up to that symbol, so a stack of labels ending at side-by-side symbols reads.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct RowLabel {
    pub text: String,
    pub level: usize,
    pub x: f64,
    pub color: Rgb,
    pub leader: Option<f64>,
}

/// Every row's labels (long flights', workers' notes' and the database's answers'), in levels; `x` maps a time to its x.
pub(crate) fn row_labels(
    chart: &LeaseChart,
    placed: &[Vec<super::symbols::Symbol>],
    x: impl Fn(u64) -> f64,
    left: f64,
    right: f64,
) -> Vec<Vec<RowLabel>> {
    use super::symbols::anchor;
    // Per row: (time, x, text, colour).
    let mut wanted: Vec<Vec<(u64, f64, String, Rgb)>> = vec![Vec::new(); chart.rows.len()];
    for f in &chart.flights {
        if let Some(row) = wanted.get_mut(f.row) {
            row.push((
                f.from_ms,
                x(f.from_ms),
                f.label.clone(),
                style::tone(Tone::Worker(f.worker_index)),
            ));
        }
    }
    for n in &chart.notes {
        if let (Some(row), Some(&t)) = (wanted.get_mut(n.row), n.times.first()) {
            let worker = chart.rows[n.row].worker_index;
            let at = anchor(placed, n.row, t, x(t), false);
            row.push((t, at, n.text.clone(), style::tone(Tone::Worker(worker))));
        }
    }
    // A token whose bar is too narrow to hold it ("33" inside a grant held for a moment) is
    // written under the bar instead; not a bar still open at the last step shown, which grows
    // (a step render must not gain a level the whole run's frame lacks).
    // Only where the text changes from the row's bar before: a Redlock retry's forty short
    // grants to B say "B" once (the bars' colour says the rest), not in a staircase of levels.
    // An instance whose key changes hands (a 2/2/1 split of votes) letters every bar instead,
    // on one line (see [`letters`]): colour alone would have to tell A's bars from B's.
    let mut holders: Vec<Vec<(f64, String)>> = vec![Vec::new(); chart.rows.len()];
    for (k, r) in chart.rows.iter().enumerate() {
        let mut said: Option<String> = None;
        let mixed = r.kind == LeaseRowKind::Instance && changes_hands(r);
        for iv in r.intervals.iter().filter(|iv| !iv.open) {
            let text = bar_text(chart, k, iv);
            let under = text
                .as_ref()
                .filter(|_| !token_inside(chart, k, iv, &x))
                .map(|(_, under)| under.clone());
            if mixed {
                holders[k].extend(under.map(|u| (x(iv.from_ms), u)));
            } else if let Some(under) = under.filter(|u| said.as_ref() != Some(u)) {
                wanted[k].push((iv.from_ms, x(iv.from_ms), under, row_color(r)));
            }
            said = text.map(|(_, under)| under);
        }
    }
    for f in &chart.refreshes {
        if let Some(row) = wanted.get_mut(f.row) {
            let color = row_color(&chart.rows[f.row]);
            row.push((f.at_ms, x(f.at_ms), f.text.clone(), color));
        }
    }
    for a in &chart.accesses {
        if let Some(row) = wanted.get_mut(a.row) {
            let worker = chart.rows[a.row].worker_index;
            let at = anchor(placed, a.row, a.at_ms, x(a.at_ms), true);
            row.push((
                a.at_ms,
                at,
                a.text.clone(),
                style::tone(Tone::Worker(worker)),
            ));
        }
    }
    wanted
        .into_iter()
        .zip(holders)
        .zip(&chart.rows)
        .map(|((mut row, holders), r)| {
            if !holders.is_empty() {
                return letters(&holders, row_color(r), right);
            }
            // In time order, and at one instant in the order the symbols stand.
            sort::sort_by(&mut row, |a, b| {
                (a.0, a.1)
                    .partial_cmp(&(b.0, b.1))
                    .unwrap_or(std::cmp::Ordering::Equal)
            });
            let items: Vec<(f64, f64)> = row
                .iter()
                .map(|(_, at, s, _)| (*at, text::width(s, SMALL)))
                .collect();
            stagger(&items, left, right)
                .into_iter()
                .zip(row)
                .map(|((level, x), (_, at, text, color))| {
                    let ends_at_symbol = x < at - 1.0;
                    RowLabel {
                        leader: (ends_at_symbol && level > 0).then_some(at),
                        text,
                        level,
                        x,
                        color,
                    }
                })
                .collect()
        })
        .collect()
}

/// Whether an instance's key goes to more than one holder over the run.
fn changes_hands(r: &LeaseRow) -> bool {
    let mut who = r.intervals.iter().filter_map(|iv| iv.who.map(|w| w.node));
    who.next()
        .is_some_and(|first| who.any(|other| other != first))
}

/// Space between two holders' letters on one line: a character's width, so that "A" and "B"
/// under two bars never read as "AB".
const LETTER_GAP: f64 = 10.0;

/// An instance's holder letters, one under each bar, all on the first level: a letter that
/// would touch the one before is left out when it repeats it (the bars stand close and alike),
/// and goes a level down only when it names another holder.
fn letters(items: &[(f64, String)], color: Rgb, right: f64) -> Vec<RowLabel> {
    let mut out: Vec<RowLabel> = Vec::new();
    // Per level: where its last letter ends.
    let mut ends: Vec<f64> = Vec::new();
    for (at, text) in items {
        let w = text::width(text, SMALL);
        let x = at.min(right - w);
        let clear = |level: usize| ends.get(level).is_none_or(|&end| x >= end + LETTER_GAP);
        if !clear(0) && out.last().is_some_and(|l| l.text == *text) {
            continue;
        }
        let level = (0..).find(|&l| clear(l)).unwrap_or(0);
        if level == ends.len() {
            ends.push(f64::MIN);
        }
        ends[level] = x + w;
        out.push(RowLabel {
            text: text.clone(),
            level,
            x,
            color,
            leader: None,
        });
    }
    out
}

/// How many levels of labels each of the lanes `names` needs.
pub(crate) fn lane_levels(
    chart: &LeaseChart,
    names: &[String],
    x: impl Fn(u64) -> f64,
    plot: Rect,
) -> Vec<usize> {
    let mut scratch = Vec::new();
    let zeros = vec![0.0; names.len()];
    nodes::place(
        &chart.incidents,
        names,
        &zeros,
        plot,
        x,
        chart.end_ms,
        &mut scratch,
    )
    .1
}

/// What sizes a step's chart: per row its levels of labels and whether a long flight's line
/// runs under it, per lane its name and levels. A step render takes the most of its own and
/// the whole run's, so stepping through a run never moves a row.
pub(crate) struct Frame {
    pub row_levels: Vec<usize>,
    pub row_flight: Vec<bool>,
    pub lanes: Vec<String>,
    pub lane_levels: Vec<usize>,
}

impl Frame {
    pub fn of(
        chart: &LeaseChart,
        labels: &[Vec<RowLabel>],
        x: impl Fn(u64) -> f64 + Copy,
        plot: Rect,
    ) -> Frame {
        let lanes = nodes::lanes(&chart.incidents);
        Frame {
            row_levels: labels
                .iter()
                .map(|row| row.iter().map(|l| l.level + 1).max().unwrap_or(0))
                .collect(),
            row_flight: (0..chart.rows.len())
                .map(|i| chart.flights.iter().any(|f| f.row == i))
                .collect(),
            lane_levels: lane_levels(chart, &lanes, x, plot),
            lanes,
        }
    }

    /// The larger of two frames, row by row and lane by lane (`self`'s lanes first).
    pub fn max(mut self, other: Frame) -> Frame {
        for (i, l) in other.row_levels.iter().enumerate() {
            match self.row_levels.get_mut(i) {
                Some(m) => *m = (*m).max(*l),
                None => self.row_levels.push(*l),
            }
        }
        for (i, f) in other.row_flight.iter().enumerate() {
            match self.row_flight.get_mut(i) {
                Some(m) => *m |= *f,
                None => self.row_flight.push(*f),
            }
        }
        for (name, l) in other.lanes.into_iter().zip(other.lane_levels) {
            match self.lanes.iter().position(|n| *n == name) {
                Some(k) => self.lane_levels[k] = self.lane_levels[k].max(l),
                None => {
                    self.lanes.push(name);
                    self.lane_levels.push(l);
                }
            }
        }
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn close_labels_stack_in_levels_and_keep_their_order() {
        let got = stagger(
            &[(100.0, 200.0), (130.0, 80.0), (160.0, 80.0), (400.0, 50.0)],
            0.0,
            1000.0,
        );
        assert_eq!(got, [(0, 100.0), (1, 130.0), (2, 160.0), (0, 400.0)]);
        // Near the end of the axis a label ends at its instant instead of starting there,
        // and two labels never share a level closer than the gap.
        let got = stagger(&[(900.0, 40.0), (960.0, 100.0)], 0.0, 1000.0);
        assert_eq!(got, [(0, 900.0), (1, 860.0)]);
        // A later label beside an earlier one goes under it, even where a higher level has
        // room: labels read top to bottom in time order ("A done" never above the write).
        let got = stagger(
            &[(100.0, 100.0), (180.0, 100.0), (300.0, 50.0)],
            0.0,
            1000.0,
        );
        assert_eq!(got, [(0, 100.0), (1, 180.0), (2, 300.0)]);
    }
}
