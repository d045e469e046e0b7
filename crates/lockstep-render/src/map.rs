//! The explorer's safety map: a sweep of two parameters as a grid of cells, each coloured and
//! patterned by outcome (so it reads in grey too), the boundaries between outcomes drawn as thick
//! lines, and the scenario's own point marked.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use lockstep_explore::duration::format_ms;
use lockstep_explore::{RunOutcome, SweepResult};

use crate::error::RenderError;

const WIDTH: u32 = 980;
const HEIGHT: u32 = 690;
const LEFT: i32 = 100;
const TOP: i32 = 96;
const PLOT_W: i32 = 620;
const PLOT_H: i32 = 480;
const FONT: &str = "sans-serif";

fn draw_err<E: std::error::Error + Send + Sync>(e: DrawingAreaErrorKind<E>) -> RenderError {
    RenderError::Draw(e.to_string())
}

/// The fill of each outcome.
pub fn fill(outcome: RunOutcome) -> RGBColor {
    match outcome {
        RunOutcome::Safe => RGBColor(0xa5, 0xd6, 0xa7),
        RunOutcome::DoubleWrite => RGBColor(0xe5, 0x73, 0x73),
        RunOutcome::NotProcessed => RGBColor(0xff, 0xd5, 0x4f),
        RunOutcome::Inconclusive => RGBColor(0xbd, 0xbd, 0xbd),
        RunOutcome::Invalid => RGBColor(0xff, 0xff, 0xff),
    }
}

/// What each outcome's pattern looks like, for the legend.
pub fn pattern_name(outcome: RunOutcome) -> &'static str {
    match outcome {
        RunOutcome::Safe => "plain",
        RunOutcome::DoubleWrite => "diagonal stripes",
        RunOutcome::NotProcessed => "dot",
        RunOutcome::Inconclusive => "cross",
        RunOutcome::Invalid => "dash",
    }
}

type Area<'a> = DrawingArea<SVGBackend<'a>, Shift>;

fn text(area: &Area<'_>, s: &str, at: (i32, i32), size: f64, h: HPos) -> Result<(), RenderError> {
    let style = TextStyle::from((FONT, size).into_font())
        .color(&BLACK)
        .pos(Pos::new(h, VPos::Center));
    area.draw(&Text::new(s.to_string(), at, style))
        .map_err(draw_err)
}

fn line(area: &Area<'_>, pts: Vec<(i32, i32)>, c: RGBColor, w: u32) -> Result<(), RenderError> {
    area.draw(&PathElement::new(pts, c.stroke_width(w)))
        .map_err(draw_err)
}

/// Paints one cell: fill, then the outcome's pattern in a darker ink.
fn cell(
    area: &Area<'_>,
    x0: i32,
    y0: i32,
    x1: i32,
    y1: i32,
    o: RunOutcome,
) -> Result<(), RenderError> {
    area.draw(&Rectangle::new([(x0, y0), (x1, y1)], fill(o).filled()))
        .map_err(draw_err)?;
    let ink = RGBColor(0x33, 0x33, 0x33);
    let (w, h) = (x1 - x0, y1 - y0);
    let (cx, cy) = ((x0 + x1) / 2, (y0 + y1) / 2);
    match o {
        RunOutcome::Safe => {}
        RunOutcome::DoubleWrite => {
            // Stripes every 8 px along the diagonal, clipped to the cell.
            let span = w + h;
            let mut k = 4;
            while k < span {
                let (ax, ay) = (x0 + k.min(w), y1 - (k - k.min(w)));
                let (bx, by) = (x0 + (k - k.min(h)), y1 - k.min(h));
                line(area, vec![(bx, by), (ax, ay)], ink, 1)?;
                k += 8;
            }
        }
        RunOutcome::NotProcessed => {
            let r = (w.min(h) / 5).max(1);
            area.draw(&Circle::new((cx, cy), r, ink.filled()))
                .map_err(draw_err)?;
        }
        RunOutcome::Inconclusive => {
            line(area, vec![(x0 + 2, y0 + 2), (x1 - 2, y1 - 2)], ink, 1)?;
            line(area, vec![(x0 + 2, y1 - 2), (x1 - 2, y0 + 2)], ink, 1)?;
        }
        RunOutcome::Invalid => {
            line(area, vec![(x0 + w / 4, cy), (x1 - w / 4, cy)], ink, 1)?;
        }
    }
    Ok(())
}

/// Indices of at most `max` evenly spread ticks among `n` values (first and last included).
fn ticks(n: usize, max: usize) -> Vec<usize> {
    if n <= max {
        return (0..n).collect();
    }
    let every = (n - 1).div_ceil(max - 1);
    let mut t: Vec<usize> = (0..n).step_by(every).collect();
    if t.last() != Some(&(n - 1)) {
        t.push(n - 1);
    }
    t
}

/// Draws the safety map of a two-parameter sweep: the first axis across, the second up.
pub fn safety_map_svg(result: &SweepResult, scenario: &str) -> Result<String, RenderError> {
    let [xa, ya] = result.axes.as_slice() else {
        return Err(RenderError::Draw(format!(
            "a safety map needs a sweep of exactly two parameters, not {}",
            result.axes.len()
        )));
    };
    let (nx, ny) = (xa.len(), ya.len());
    let x_of = |i: usize| LEFT + (PLOT_W as i64 * i as i64 / nx as i64) as i32;
    let y_of = |j: usize| TOP + PLOT_H - (PLOT_H as i64 * j as i64 / ny as i64) as i32;
    let mut svg = String::new();
    {
        let area = SVGBackend::with_string(&mut svg, (WIDTH, HEIGHT)).into_drawing_area();
        area.fill(&WHITE).map_err(draw_err)?;
        text(
            &area,
            &format!(
                "Safety map of {scenario}: {} against {}",
                xa.param.describe(),
                ya.param.describe()
            ),
            (LEFT, 28),
            20.0,
            HPos::Left,
        )?;
        text(
            &area,
            &format!(
                "{} runs; each cell is one run, coloured and patterned by its outcome; thick lines mark where the outcome changes",
                nx * ny
            ),
            (LEFT, 50),
            13.0,
            HPos::Left,
        )?;
        for i in 0..nx {
            for j in 0..ny {
                cell(
                    &area,
                    x_of(i),
                    y_of(j + 1),
                    x_of(i + 1),
                    y_of(j),
                    result.outcome_at(&[i, j]),
                )?;
            }
        }
        // Boundaries: a thick line on every edge between two cells of different outcomes.
        let edge = RGBColor(0x11, 0x11, 0x11);
        for i in 0..nx {
            for j in 0..ny {
                let here = result.outcome_at(&[i, j]);
                if i + 1 < nx && result.outcome_at(&[i + 1, j]) != here {
                    line(
                        &area,
                        vec![(x_of(i + 1), y_of(j)), (x_of(i + 1), y_of(j + 1))],
                        edge,
                        3,
                    )?;
                }
                if j + 1 < ny && result.outcome_at(&[i, j + 1]) != here {
                    line(
                        &area,
                        vec![(x_of(i), y_of(j + 1)), (x_of(i + 1), y_of(j + 1))],
                        edge,
                        3,
                    )?;
                }
            }
        }
        area.draw(&Rectangle::new(
            [(LEFT, TOP), (LEFT + PLOT_W, TOP + PLOT_H)],
            BLACK.stroke_width(1),
        ))
        .map_err(draw_err)?;
        for i in ticks(nx, 11) {
            let x = (x_of(i) + x_of(i + 1)) / 2;
            line(
                &area,
                vec![(x, TOP + PLOT_H), (x, TOP + PLOT_H + 5)],
                BLACK,
                1,
            )?;
            text(
                &area,
                &format_ms(xa.value(i)),
                (x, TOP + PLOT_H + 16),
                12.0,
                HPos::Center,
            )?;
        }
        for j in ticks(ny, 11) {
            let y = (y_of(j) + y_of(j + 1)) / 2;
            line(&area, vec![(LEFT - 5, y), (LEFT, y)], BLACK, 1)?;
            text(
                &area,
                &format_ms(ya.value(j)),
                (LEFT - 8, y),
                12.0,
                HPos::Right,
            )?;
        }
        text(
            &area,
            &format!("{} ({})", xa.param.describe(), xa.param.name()),
            (LEFT + PLOT_W / 2, TOP + PLOT_H + 42),
            15.0,
            HPos::Center,
        )?;
        text(
            &area,
            &format!("up: {} ({})", ya.param.describe(), ya.param.name()),
            (LEFT - 60, TOP - 14),
            15.0,
            HPos::Left,
        )?;
        // The scenario's own point.
        let own = match (result.own_point[0], result.own_point[1]) {
            (Some(x), Some(y)) => {
                // At its exact value: cell centres stand for the axis values, so a value between
                // two of them sits between their centres.
                let fx = ((x - xa.start) as f64 / xa.step as f64 + 0.5) / nx as f64;
                let fy = ((y - ya.start) as f64 / ya.step as f64 + 0.5) / ny as f64;
                let cx = LEFT + (PLOT_W as f64 * fx).round() as i32;
                let cy = TOP + PLOT_H - (PLOT_H as f64 * fy).round() as i32;
                area.draw(&Circle::new((cx, cy), 9, WHITE.filled()))
                    .map_err(draw_err)?;
                area.draw(&Circle::new((cx, cy), 9, BLACK.stroke_width(3)))
                    .map_err(draw_err)?;
                area.draw(&Circle::new((cx, cy), 3, BLACK.filled()))
                    .map_err(draw_err)?;
                format!("{} {}", xa.label(x), ya.label(y))
            }
            _ => String::new(),
        };
        // Legend.
        let lx = LEFT + PLOT_W + 30;
        let mut ly = TOP + 10;
        text(&area, "outcome", (lx, ly), 15.0, HPos::Left)?;
        ly += 22;
        let counts = result.counts();
        for o in RunOutcome::ALL {
            let Some(n) = counts.get(&o) else { continue };
            cell(&area, lx, ly - 10, lx + 24, ly + 10, o)?;
            area.draw(&Rectangle::new(
                [(lx, ly - 10), (lx + 24, ly + 10)],
                BLACK.stroke_width(1),
            ))
            .map_err(draw_err)?;
            text(
                &area,
                &format!("{o}: {n}"),
                (lx + 32, ly - 4),
                13.0,
                HPos::Left,
            )?;
            text(&area, pattern_name(o), (lx + 32, ly + 10), 11.0, HPos::Left)?;
            ly += 36;
        }
        ly += 10;
        area.draw(&Circle::new((lx + 12, ly), 9, BLACK.stroke_width(3)))
            .map_err(draw_err)?;
        area.draw(&Circle::new((lx + 12, ly), 3, BLACK.filled()))
            .map_err(draw_err)?;
        if own.is_empty() {
            text(
                &area,
                "the scenario's own point",
                (lx + 32, ly - 6),
                13.0,
                HPos::Left,
            )?;
            text(
                &area,
                "lies outside these ranges",
                (lx + 32, ly + 10),
                13.0,
                HPos::Left,
            )?;
        } else {
            text(
                &area,
                "the scenario's own point:",
                (lx + 32, ly - 6),
                13.0,
                HPos::Left,
            )?;
            text(&area, &own, (lx + 32, ly + 10), 13.0, HPos::Left)?;
        }
        area.present().map_err(draw_err)?;
    }
    Ok(svg)
}

#[cfg(test)]
mod tests {
    use super::*;
    use lockstep_explore::{Axis, Sweep};

    fn naive_sweep(axes: &[&str]) -> SweepResult {
        let s = lockstep_core::catalogue::load("naive-gc-pause")
            .unwrap()
            .unwrap();
        let axes = axes.iter().map(|a| Axis::parse(a).unwrap()).collect();
        Sweep::new(&s, axes).unwrap().run()
    }

    fn hex(c: RGBColor) -> String {
        format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2)
    }

    #[test]
    fn every_cell_is_filled_with_its_outcome_and_boundaries_are_drawn() {
        let result = naive_sweep(&["pause=1s..12s/1s", "ttl=2s..8s/2s"]);
        let svg = safety_map_svg(&result, "naive-gc-pause").unwrap();
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let fills = |o: RunOutcome| {
            doc.descendants()
                .filter(|n| n.has_tag_name("rect"))
                .filter(|n| {
                    n.attribute("fill")
                        .is_some_and(|f| f.eq_ignore_ascii_case(&hex(fill(o))))
                })
                .count()
        };
        let counts = result.counts();
        // One rect per cell, plus one legend swatch per outcome present.
        assert_eq!(
            fills(RunOutcome::DoubleWrite),
            counts[&RunOutcome::DoubleWrite] + 1
        );
        assert_eq!(fills(RunOutcome::Safe), counts[&RunOutcome::Safe] + 1);
        // The boundary: one thick segment per pair of neighbours whose outcomes differ.
        let mut differing = 0;
        for i in 0..12 {
            for j in 0..4 {
                let here = result.outcome_at(&[i, j]);
                differing += usize::from(i + 1 < 12 && result.outcome_at(&[i + 1, j]) != here);
                differing += usize::from(j + 1 < 4 && result.outcome_at(&[i, j + 1]) != here);
            }
        }
        assert!(differing > 0);
        let thick = doc
            .descendants()
            .filter(|n| n.has_tag_name("polyline") && n.attribute("stroke-width") == Some("3"))
            .count();
        assert_eq!(thick, differing);
        // Double-write cells carry stripes, so the map reads without colour too.
        let stripes = doc
            .descendants()
            .filter(|n| n.has_tag_name("polyline") && n.attribute("stroke-width") == Some("1"))
            .count();
        assert!(stripes >= counts[&RunOutcome::DoubleWrite] * 2);
        // The scenario's own point (TTL 5 s, between the 4 s and 6 s rows) is marked and named.
        assert!(svg.contains("pause=10s ttl=5s"));
    }

    #[test]
    fn the_own_point_is_marked_where_the_scenario_sits() {
        let result = naive_sweep(&["pause=1s..12s/1s", "ttl=1s..9s/2s"]);
        let svg = safety_map_svg(&result, "naive-gc-pause").unwrap();
        assert!(
            svg.contains("pause=10s ttl=5s"),
            "the own point is labelled"
        );
        let outside = naive_sweep(&["pause=1s..5s/1s", "ttl=1s..9s/2s"]);
        let svg = safety_map_svg(&outside, "naive-gc-pause").unwrap();
        assert!(svg.contains("lies outside these ranges"));
    }

    #[test]
    fn a_map_needs_two_axes() {
        let result = naive_sweep(&["pause=1s..12s/1s"]);
        let e = safety_map_svg(&result, "naive-gc-pause").unwrap_err();
        assert!(e.to_string().contains("exactly two parameters"), "{e}");
    }
}
