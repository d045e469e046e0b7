//! The to-scale axis where it leaves the picture's scale: bursts drawn in order (a tinted band
//! across the lanes, brackets, the burst's time range, a notch at each whole second inside it),
//! rows stacked within an instant, and idle stretches cut short by a break across every lane and
//! the gutter.

use super::Painter;
use crate::error::RenderError;
use crate::geom::{Point, Rect};
use crate::layout::{Layout, LegendKind, Stretch, StretchKind};
use crate::style;

/// Left of the lanes, the band starts here (it covers the gutter too).
const LEFT: f64 = 12.0;
/// Half the height of a break's zig-zag.
const ZIG: f64 = 5.0;

/// The subtitle of a to-scale picture: its one scale, and what leaves it ("to scale: height is
/// simulated time at 40 px/s; bursts zoomed and marked; breaks cut idle time").
pub(crate) fn what_the_axis_does(l: &Layout) -> String {
    let per_s = l.ms_scale * 1000.0;
    let scale = if per_s >= 10.0 {
        format!("{per_s:.0}")
    } else {
        format!("{per_s:.1}")
    };
    let mut out = format!("to scale: height is simulated time at {scale} px/s");
    let has = |k: StretchKind| l.stretches.iter().any(|s| s.kind == k);
    if has(StretchKind::Zoom) || has(StretchKind::Stack) {
        out.push_str("; bursts zoomed and marked");
    }
    if has(StretchKind::Break) {
        out.push_str("; breaks cut idle time");
    }
    out
}

/// Where a stretch's marks go: its label's left edge, less a gap (or where it would be).
fn mark_x(l: &Layout, st: &Stretch) -> f64 {
    st.label
        .as_ref()
        .map_or(l.area.x1 + 14.0, |lb| lb.rect.x0 - 8.0)
}

/// Bursts and stacks, behind everything else.
pub(crate) fn zooms(p: &Painter, l: &Layout) -> Result<(), RenderError> {
    // Between the time marks' lines (which end at area.x1 + 6) and their labels.
    let tick_x = l.area.x1 + 9.0;
    for st in &l.stretches {
        match st.kind {
            StretchKind::Zoom => {
                let band = Rect::new(LEFT, st.band.0, l.area.x1 + 6.0, st.band.1);
                // Not under an overlap band, which carries the tint itself (see `overlap`).
                // (The gutter, left of the overlap band, keeps its tint.)
                let mut y = band.y0;
                for &(y0, y1) in st.tint.iter().chain([(band.y1, band.y1)].iter()) {
                    if y0 > y {
                        let gutter = Rect::new(band.x0, y, l.area.x0 - 8.0, y0);
                        p.fill_rect(gutter, style::ZOOM_FILL, style::ZOOM_FILL_ALPHA)?;
                    }
                    if y1 > y0 {
                        let part = Rect::new(band.x0, y0, band.x1, y1);
                        p.fill_rect(part, style::ZOOM_FILL, style::ZOOM_FILL_ALPHA)?;
                    }
                    y = y1;
                }
                for y in [band.y0, band.y1] {
                    p.line(
                        &[Point::new(band.x0, y), Point::new(band.x1, y)],
                        style::ZOOM_EDGE,
                        1,
                        0.8,
                    )?;
                }
                // A bracket in the gutter, and one beside the time marks: no time mark inside
                // (its rows are in order, not to scale).
                let gx = l.area.x0 - 6.0;
                bracket(p, gx, (band.y0, band.y1), 5.0)?;
                bracket(p, tick_x, (band.y0, band.y1), -5.0)?;
                // A whole second inside the zoom: a notch on its bracket among its rows, not a
                // gridline (the strip claims no distance).
                for m in &st.seconds {
                    p.line(
                        &[Point::new(tick_x - 6.0, m.y), Point::new(tick_x + 6.0, m.y)],
                        style::ZOOM_EDGE,
                        2,
                        1.0,
                    )?;
                    if let Some(lb) = &m.label {
                        p.text(lb, style::ZOOM_EDGE)?;
                    }
                }
                if let Some(lb) = &st.label {
                    p.boxed_text(lb, style::ZOOM_EDGE)?;
                }
            }
            StretchKind::Stack => {
                // Two short bars: these rows share one instant, the axis stands still.
                let x = tick_x - 14.0;
                for dx in [0.0, 3.0] {
                    p.line(
                        &[Point::new(x + dx, st.y0), Point::new(x + dx, st.y1)],
                        style::MUTED,
                        1,
                        1.0,
                    )?;
                }
                if let Some(lb) = &st.label {
                    p.text(lb, style::MUTED)?;
                }
            }
            StretchKind::Break => {}
        }
    }
    Ok(())
}

/// A bracket at `x` from `y0` to `y1`, its ends pointing `dx` sideways.
fn bracket(p: &Painter, x: f64, (y0, y1): (f64, f64), dx: f64) -> Result<(), RenderError> {
    p.line(
        &[
            Point::new(x + dx, y0),
            Point::new(x, y0),
            Point::new(x, y1),
            Point::new(x + dx, y1),
        ],
        style::ZOOM_EDGE,
        2,
        1.0,
    )
}

/// The zig-zag of a break at `y`, from `x0` to `x1`.
fn zigzag(p: &Painter, y: f64, (x0, x1): (f64, f64)) -> Result<(), RenderError> {
    let mut pts = Vec::new();
    let mut x = x0;
    let mut up = true;
    while x <= x1 {
        pts.push(Point::new(x, y + if up { -ZIG } else { ZIG }));
        x += 12.0;
        up = !up;
    }
    p.line(&pts, style::MUTED, 2, 1.0)
}

/// Breaks, over the lifelines (which they interrupt) and under the bars (which run on across
/// them): a blank band between two zig-zags across every lane and the gutter, with the time cut.
pub(crate) fn breaks(p: &Painter, l: &Layout) -> Result<(), RenderError> {
    for st in l.stretches.iter().filter(|s| s.kind == StretchKind::Break) {
        let x1 = mark_x(l, st);
        let (top, bottom) = (st.y0 + 16.0, st.y1 - 16.0);
        p.fill_rect(Rect::new(LEFT, top, x1, bottom), style::BACKGROUND, 1.0)?;
        zigzag(p, top, (LEFT, x1))?;
        zigzag(p, bottom, (LEFT, x1))?;
        if let Some(lb) = &st.label {
            p.text(&lb.clone().bold(), style::MUTED)?;
        }
    }
    Ok(())
}

/// The legend's swatch of a burst, a stack or a break.
pub(crate) fn swatch(p: &Painter, kind: LegendKind, s: Rect) -> Result<(), RenderError> {
    match kind {
        LegendKind::Zoom => {
            p.fill_rect(s, style::ZOOM_FILL, style::ZOOM_FILL_ALPHA)?;
            bracket(p, s.x1 - 3.0, (s.y0, s.y1), -5.0)?;
        }
        LegendKind::Stack => {
            let x = s.center().x;
            for dx in [0.0, 3.0] {
                p.line(
                    &[Point::new(x + dx, s.y0), Point::new(x + dx, s.y1)],
                    style::MUTED,
                    1,
                    1.0,
                )?;
            }
        }
        _ => zigzag(p, s.center().y, (s.x0, s.x1))?,
    }
    Ok(())
}
