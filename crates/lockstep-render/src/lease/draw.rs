//! Drawing the lease chart's nodes-and-network lanes: partitions as hatched bands, down time as
//! grey hatched bars, clock jumps as arrows as long as the jump (short and broken when it leaps off the axis), instants as ticks; and their
//! legend swatches.

use super::nodes::NodeShape;
use super::page::{LeasePage, Swatch};
use crate::error::RenderError;
use crate::geom::{Point, Rect};
use crate::layout::{MarkKind, Tone};
use crate::style;
use crate::svg::Painter;

/// A partition band: tinted, hatched, outlined, so it survives a washed-out projector.
fn partition(p: &Painter, r: Rect) -> Result<(), RenderError> {
    p.fill_rect(r, style::PARTITION_FILL, 1.0)?;
    p.hatch(r, style::PARTITION, 8.0, false)?;
    p.stroke_rect(r, style::PARTITION, 2)
}

/// A partition not healed by the last step shown: its band, and an arrow past its end saying
/// it goes on.
fn open_partition(p: &Painter, r: Rect) -> Result<(), RenderError> {
    partition(p, r)?;
    let (x, cy, h) = (r.x1, (r.y0 + r.y1) / 2.0, r.height());
    p.polygon(
        &[
            Point::new(x + 2.0, r.y0 - 4.0),
            Point::new(x + 2.0 + h * 0.8, cy),
            Point::new(x + 2.0, r.y1 + 4.0),
        ],
        style::PARTITION,
        1.0,
    )
}

/// A node's down time: grey, cross-hatched like a crashed lane in the timeline.
fn down(p: &Painter, r: Rect) -> Result<(), RenderError> {
    p.fill_rect(r, style::DOWN_FILL, 1.0)?;
    p.hatch(r, style::DOWN_HATCH, 7.0, true)?;
    p.stroke_rect(r, style::DOWN_HATCH, 1)
}

/// A clock jump's colour: not the danger band's red, which it often crosses.
const JUMP: crate::style::Rgb = style::JUMP;

/// A clock jump: a thick arrow from the instant to where the node's clock now reads; one that
/// leaps off the axis is short and broken by two slashes before its head.
fn jump(p: &Painter, from: Point, to: Point, off_axis: bool) -> Result<(), RenderError> {
    let c = JUMP;
    let dir = if to.x >= from.x { 1.0 } else { -1.0 };
    p.line(
        &[
            Point::new(from.x, from.y - 9.0),
            Point::new(from.x, from.y + 9.0),
        ],
        c,
        2,
        1.0,
    )?;
    if off_axis {
        // The shaft with a gap and two slashes across it: the arrow is not to scale.
        let gap = to.x - dir * 26.0;
        p.line(&[from, Point::new(gap - dir * 4.0, to.y)], c, 3, 1.0)?;
        p.line(
            &[
                Point::new(gap + dir * 4.0, to.y),
                Point::new(to.x - dir * 8.0, to.y),
            ],
            c,
            3,
            1.0,
        )?;
        for dx in [-4.0, 4.0] {
            p.line(
                &[
                    Point::new(gap + dx - 3.0, to.y + 8.0),
                    Point::new(gap + dx + 3.0, to.y - 8.0),
                ],
                c,
                2,
                1.0,
            )?;
        }
    } else {
        p.line(&[from, Point::new(to.x - dir * 8.0, to.y)], c, 3, 1.0)?;
    }
    p.polygon(
        &[
            to,
            Point::new(to.x - dir * 10.0, to.y - 7.0),
            Point::new(to.x - dir * 10.0, to.y + 7.0),
        ],
        c,
        1.0,
    )
}

/// A worker's message long in the network: a dot at its sending, a line, and an arrow head at
/// its arrival (or, while still in the network, the in-flight mark at `to`'s place).
pub(crate) fn flight(
    p: &Painter,
    from: Point,
    to: Option<Point>,
    c: crate::style::Rgb,
) -> Result<(), RenderError> {
    let end = to.unwrap_or(from);
    p.line(&[from, end], c, 3, 1.0)?;
    p.circle(from, 3.0, c, true, 1)?;
    match to {
        Some(at) => p.polygon(
            &[
                at,
                Point::new(at.x - 8.0, at.y - 5.0),
                Point::new(at.x - 8.0, at.y + 5.0),
            ],
            c,
            1.0,
        ),
        None => Ok(()),
    }
}

/// How strong a belief bar's colour is (drawn opaque: see [`style::on_page`]).
pub(crate) const BELIEF_ALPHA: f64 = 0.9;

/// A row's bar: a worker's grant (outlined, tinted), belief (solid) or pause (hatched); an
/// instance's key (its holder's grant colours); a master or leader (grey, outlined); the
/// database's `last_token` (white, outlined). Every fill is opaque, so a bar keeps its colour
/// over the danger band.
pub(crate) fn bar(
    p: &Painter,
    row: &super::LeaseRow,
    iv: &super::Interval,
    r: Rect,
) -> Result<(), RenderError> {
    use super::LeaseRowKind as K;
    let worker = style::tone(Tone::Worker(row.worker_index));
    match row.kind {
        K::ServiceHolds => {
            p.fill_rect(r, style::on_page(worker, style::SERVICE_BAR_ALPHA), 1.0)?;
            p.stroke_rect(r, worker, 2)
        }
        K::Instance => {
            let c = iv
                .who
                .and_then(|w| w.worker)
                .map_or(style::INFRA, |w| style::tone(Tone::Worker(w)));
            p.fill_rect(r, style::on_page(c, style::SERVICE_BAR_ALPHA), 1.0)?;
            p.stroke_rect(r, c, 2)
        }
        K::Believes => p.fill_rect(r, style::on_page(worker, BELIEF_ALPHA), 1.0),
        K::Paused => {
            p.fill_rect(r, style::FROZEN_FILL, 1.0)?;
            p.hatch(r, style::FROZEN_HATCH, 8.0, false)?;
            p.stroke_rect(r, style::FROZEN_HATCH, 1)
        }
        K::Leader => leader(p, r),
        K::LastToken => last_token(p, r),
        K::Activity => Ok(()),
    }
}

/// The stale stretch of a belief bar (the service no longer says the worker holds the lock): the
/// worker's colour washed out, hatched in the danger red and outlined, so the write made there
/// lands inside a visible hazard.
pub(crate) fn stale(p: &Painter, r: Rect, worker: usize) -> Result<(), RenderError> {
    let c = style::tone(Tone::Worker(worker));
    p.fill_rect(r, style::on_page(c, 0.3), 1.0)?;
    p.hatch(r, style::DANGER, style::STALE_HATCH_STEP, false)?;
    p.stroke_rect(r, c, 2)
}

/// A master's or leader's bar.
fn leader(p: &Painter, r: Rect) -> Result<(), RenderError> {
    p.fill_rect(r, style::LEADER_FILL, 1.0)?;
    p.stroke_rect(r, style::INFRA, 2)
}

/// A bar of the database's `last_token`.
fn last_token(p: &Painter, r: Rect) -> Result<(), RenderError> {
    p.fill_rect(r, style::BACKGROUND, 1.0)?;
    p.stroke_rect(r, style::TEXT, 2)
}

/// Where a write paid twice: a solid band across every row.
pub(crate) fn harm(p: &Painter, r: Rect) -> Result<(), RenderError> {
    p.fill_rect(r, style::DUPLICATE_ROW, 0.9)
}

/// An instant: a short upright bar.
fn tick(p: &Painter, at: Point) -> Result<(), RenderError> {
    p.line(
        &[Point::new(at.x, at.y - 8.0), Point::new(at.x, at.y + 8.0)],
        style::GLOBAL_BORDER,
        3,
        1.0,
    )
}

/// Every shape of the nodes-and-network lanes, with a faint line along each lane.
pub(crate) fn node_shapes(p: &Painter, page: &LeasePage) -> Result<(), RenderError> {
    for &y in &page.node_lanes {
        p.line(
            &[Point::new(page.plot.x0, y), Point::new(page.plot.x1, y)],
            style::NOTE_BORDER,
            1,
            0.35,
        )?;
    }
    for shape in &page.node_shapes {
        match *shape {
            NodeShape::Partition(r) => partition(p, r)?,
            NodeShape::OpenPartition(r) => open_partition(p, r)?,
            NodeShape::Down(r) => down(p, r)?,
            NodeShape::Jump { from, to, off_axis } => jump(p, from, to, off_axis)?,
            NodeShape::Tick(at) => tick(p, at)?,
            NodeShape::Lost(at) => p.mark(MarkKind::Lost, at, style::DANGER)?,
        }
    }
    Ok(())
}

/// The legend swatch of a nodes-and-network shape or a worker's note.
pub(crate) fn swatch(p: &Painter, kind: Swatch, s: Rect) -> Result<(), RenderError> {
    let c = s.center();
    match kind {
        Swatch::Partition => partition(p, s),
        Swatch::OpenPartition | Swatch::OpenPartitionSoFar => {
            open_partition(p, Rect::new(s.x0, s.y0 + 2.0, s.x1 - 12.0, s.y1 - 2.0))
        }
        Swatch::Down => down(p, s),
        Swatch::Jump => jump(p, Point::new(s.x0, c.y), Point::new(s.x1, c.y), false),
        Swatch::Tick => tick(p, c),
        Swatch::Leader => leader(p, s),
        Swatch::LastToken => last_token(p, s),
        Swatch::Harm => harm(
            p,
            Rect::new(
                c.x - super::page::HARM_HW,
                s.y0,
                c.x + super::page::HARM_HW,
                s.y1,
            ),
        ),
        Swatch::Stale => stale(p, s, 0),
        Swatch::Flight => flight(
            p,
            Point::new(s.x0 + 3.0, c.y),
            Some(Point::new(s.x1, c.y)),
            style::tone(Tone::Worker(0)),
        ),
        _ => {
            p.circle(c, 5.0, style::BACKGROUND, true, 1)?;
            p.circle(c, 5.0, style::TEXT, false, 2)
        }
    }
}
