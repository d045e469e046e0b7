//! The lease chart's "nodes & network" lanes and its symbols: one lane for the network
//! (partitions as bands over their whole duration) and one per node something happened to
//! (crashes as down bars until the restart, clock jumps as arrows as long as the jump, elections
//! and failovers as ticks), each label beside its shape without overlapping another; and the
//! rows' marks set side by side, inside the axis, never on top of each other.

use super::story::{Incident, IncidentKind, NETWORK};
use crate::geom::{Point, Rect};
use crate::style;
use crate::svg::PageText;
use crate::text::{self, Align, TextBox};
use lockstep_core::sort;

/// Height of a band (partition, down time) in a lane.
pub const BAND_H: f64 = 16.0;

/// A shape in the nodes-and-network lanes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum NodeShape {
    /// A partition: from its start to its healing.
    Partition(Rect),
    /// A partition not healed by the last step shown: to the end of what is shown, open-ended
    /// (an arrow past its end), never drawn as if it healed there.
    OpenPartition(Rect),
    /// A node down from its crash to its restart (or the end of the axis).
    Down(Rect),
    /// A clock jump: an arrow from the instant to where the clock now reads; when that is off
    /// the axis (`off_axis`), a short arrow with a break mark instead, so a 20 s leap never
    /// looks like a few seconds' process.
    Jump {
        from: Point,
        to: Point,
        off_axis: bool,
    },
    /// An instant: a failover, a restart, a leader, an election.
    Tick(Point),
    /// A message the node sent was lost: an X.
    Lost(Point),
}

/// Whether an incident is drawn on its node's lane: a failover or an election is a new bar on
/// the chart's master or leader row instead.
pub fn on_a_lane(i: &Incident) -> bool {
    !matches!(i.kind, IncidentKind::Failover | IncidentKind::Leader)
}

/// The lanes' names in order: the network first, then nodes in order of their first incident.
pub fn lanes(incidents: &[Incident]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    if incidents.iter().any(|i| i.node == NETWORK) {
        out.push(NETWORK.to_string());
    }
    for i in incidents.iter().filter(|i| on_a_lane(i)) {
        if !out.contains(&i.node) {
            out.push(i.node.clone());
        }
    }
    out
}

/// Half the height of the tallest shape in a lane (a lost message's X).
pub const SHAPE_HALF: f64 = 11.0;

/// Places the incidents in their lanes (`names`, each with its shape line in `lane_y`): shapes,
/// and each incident's label in the first level under its lane's shapes where it meets no other
/// label (see [`stagger`](super::page::labels::stagger)), so every label lies in its own lane's
/// band. `texts` gets (lane, label); returns the shapes and how many levels each lane uses.
pub fn place(
    incidents: &[Incident],
    names: &[String],
    lane_y: &[f64],
    plot: Rect,
    x: impl Fn(u64) -> f64,
    end_ms: u64,
    texts: &mut Vec<(usize, PageText)>,
) -> (Vec<NodeShape>, Vec<usize>) {
    let mut shapes = Vec::new();
    // Per lane: (wanted x, label) in incident order.
    let mut wanted: Vec<Vec<(f64, String)>> = vec![Vec::new(); names.len()];
    for inc in incidents.iter().filter(|i| on_a_lane(i)) {
        let Some(lane) = names.iter().position(|n| *n == inc.node) else {
            continue;
        };
        let cy = lane_y[lane];
        let x0 = x(inc.at_ms);
        let band = |to: Option<u64>| {
            Rect::new(
                x0,
                cy - BAND_H / 2.0,
                x(to.unwrap_or(end_ms)).max(x0 + 4.0),
                cy + BAND_H / 2.0,
            )
        };
        let mut jump_label = None;
        let label_x = match inc.kind {
            IncidentKind::Partition => {
                let r = band(inc.to_ms);
                shapes.push(match inc.to_ms {
                    Some(_) => NodeShape::Partition(r),
                    None => NodeShape::OpenPartition(r),
                });
                r.x0
            }
            IncidentKind::Crash => {
                let r = band(inc.to_ms);
                shapes.push(NodeShape::Down(r));
                r.x0
            }
            IncidentKind::ClockJump { by_ms } => {
                let to_signed = inc.at_ms as i64 + by_ms;
                let to_x = x(to_signed.max(0) as u64);
                let off_axis = to_signed < 0 || to_x > plot.x1 || to_x < plot.x0;
                let to_x = if off_axis {
                    // A short arrow pointing the way the clock leapt, inside the plot.
                    let dir = if by_ms >= 0 { 1.0 } else { -1.0 };
                    (x0 + dir * JUMP_STUB).clamp(plot.x0, plot.x1)
                } else {
                    to_x
                };
                shapes.push(NodeShape::Jump {
                    from: Point::new(x0, cy),
                    to: Point::new(to_x, cy),
                    off_axis,
                });
                if off_axis {
                    let text = inc.text.strip_prefix(&format!("{} ", inc.node));
                    jump_label = Some(format!(
                        "{} = {}: leaps off the axis",
                        text.unwrap_or(&inc.text),
                        seconds(by_ms)
                    ));
                }
                x0.min(to_x)
            }
            IncidentKind::Lost => {
                for &t in &inc.times {
                    shapes.push(NodeShape::Lost(Point::new(x(t), cy)));
                }
                x0 - 6.0
            }
            _ => {
                for &t in &inc.times {
                    shapes.push(NodeShape::Tick(Point::new(x(t), cy)));
                }
                x0 - 2.0
            }
        };
        // The lane names the node: its labels need not ("node-2 pre-vote" reads "pre-vote").
        let label = jump_label.unwrap_or_else(|| {
            inc.text
                .strip_prefix(&format!("{} ", inc.node))
                .unwrap_or(&inc.text)
                .to_string()
        });
        wanted[lane].push((label_x, label));
    }
    let h = text::line_height(super::page::labels::SMALL);
    let mut levels = vec![0; names.len()];
    for (lane, mut items) in wanted.into_iter().enumerate() {
        // Time order (a crash's label before a later restart's).
        sort::sort_by(&mut items, |a, b| a.0.total_cmp(&b.0));
        let sizes: Vec<(f64, f64)> = items
            .iter()
            .map(|(lx, l)| (*lx, text::width(l, super::page::labels::SMALL)))
            .collect();
        let placed = super::page::labels::stagger(&sizes, plot.x0, plot.x1);
        for ((level, lx), (_, label)) in placed.into_iter().zip(items) {
            levels[lane] = levels[lane].max(level + 1);
            let ly = lane_y[lane] + SHAPE_HALF + 3.0 + h / 2.0 + level as f64 * label_step();
            texts.push((
                lane,
                PageText {
                    text: TextBox::new(
                        label,
                        super::page::labels::SMALL,
                        Align::Left,
                        Point::new(lx, ly),
                        0.0,
                    ),
                    color: style::TEXT,
                },
            ));
        }
    }
    (shapes, levels)
}

/// The length of a clock jump's arrow when the leap runs off the axis.
pub const JUMP_STUB: f64 = 64.0;

/// A leap in seconds with its sign: "+20 s", "-1.5 s".
fn seconds(by_ms: i64) -> String {
    let s = by_ms as f64 / 1000.0;
    if by_ms % 1000 == 0 {
        format!("{s:+.0} s")
    } else {
        format!("{s:+} s")
    }
}

/// From one level of labels to the next.
fn label_step() -> f64 {
    super::page::labels::level_h()
}

/// Sets symbols on one row side by side: symbols that would overlap form a run centred on their
/// instants (so that none of five symbols of one instant strays far from it), each run kept right
/// of `left` and of the run before, and the whole row shifted left where it would pass `right`.
/// `items`: (x, half width) in time order; returns the centres.
pub fn side_by_side(items: &[(f64, f64)], left: f64, right: f64) -> Vec<f64> {
    const GAP: f64 = 2.0;
    // Each symbol's offset from the first centre of its run, were the run to start at it.
    let mut offset = vec![0.0; items.len()];
    for i in 1..items.len() {
        offset[i] = offset[i - 1] + items[i - 1].1 + items[i].1 + GAP;
    }
    // Runs as (first, end): the first centre of run `a..b` is the mean of its symbols' wishes,
    // measured from the run's own start, and at least `left` allows.
    let start = |a: usize, b: usize| {
        let wish = (a..b)
            .map(|k| items[k].0 - (offset[k] - offset[a]))
            .sum::<f64>()
            / (b - a) as f64;
        wish.max(left + items[a].1)
    };
    let mut runs: Vec<(usize, usize)> = Vec::new();
    for i in 0..items.len() {
        runs.push((i, i + 1));
        // Merge while a run would overlap the one before it.
        while runs.len() >= 2 {
            let (a, b) = runs[runs.len() - 1];
            let (pa, pb) = runs[runs.len() - 2];
            let prev_last = start(pa, pb) + offset[pb - 1] - offset[pa];
            if start(a, b) >= prev_last + items[pb - 1].1 + items[a].1 + GAP {
                break;
            }
            runs.pop();
            runs.pop();
            runs.push((pa, b));
        }
    }
    let mut xs = vec![0.0; items.len()];
    for &(a, b) in &runs {
        let first = start(a, b);
        for k in a..b {
            xs[k] = first + offset[k] - offset[a];
        }
    }
    for i in (0..items.len()).rev() {
        let max = match items.get(i + 1) {
            None => right - items[i].1,
            Some(&(_, next_hw)) => xs[i + 1] - next_hw - items[i].1 - GAP,
        };
        xs[i] = xs[i].min(max);
    }
    xs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symbols_at_the_end_of_the_axis_stand_side_by_side_inside_it() {
        let xs = side_by_side(&[(100.0, 10.0), (500.0, 10.0), (500.0, 10.0)], 0.0, 505.0);
        assert_eq!(xs[0], 100.0);
        assert!(xs[2] <= 495.0 && xs[1] <= xs[2] - 22.0, "{xs:?}");
    }

    #[test]
    fn symbols_of_one_instant_stand_around_it() {
        let xs = side_by_side(&[(300.0, 10.0); 5], 0.0, 1000.0);
        // 22 px apart, centred on 300: none more than 44 px away.
        assert_eq!(xs, vec![256.0, 278.0, 300.0, 322.0, 344.0]);
        // A run is kept clear of the one before it and of the left edge.
        let xs = side_by_side(
            &[(100.0, 10.0), (105.0, 10.0), (5.0, 10.0)][..2],
            0.0,
            1000.0,
        );
        assert_eq!(xs, vec![91.5, 113.5]);
        let xs = side_by_side(&[(5.0, 10.0), (5.0, 10.0)], 0.0, 1000.0);
        assert_eq!(xs, vec![10.0, 32.0]);
    }
}
