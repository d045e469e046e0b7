//! The timeline as the page shows it: without lockstep-render's legend column (the page shows
//! the legend in a panel of its own, so the picture can be drawn larger in the width it has), and
//! what the page's HTML needs of the layout (the lanes, for headers that stay in view while the
//! timeline scrolls; the legend's swatches and words, for the legend panel).

use std::rc::Rc;

use lockstep_render::geom::Rect;
use lockstep_render::layout::{LegendEntry, LegendKind, MarkKind};
use lockstep_render::svg::stepped::{LAYERS, Stepper};
use lockstep_render::{Caption, Layout, Options, RenderError, TimeMode, draw_timeline, layout};

use super::{Viewer, with_title};

/// The page's margin right of and below what it draws (as lockstep-render leaves).
const MARGIN: f64 = 24.0;

/// A lane's header as the page's sticky row of lane names shows it, in the layout's pixels.
#[derive(Debug, Clone, PartialEq)]
pub struct LaneHead {
    pub name: String,
    /// The role under the name (`lock service`, `database`, …).
    pub role: String,
    pub x: f64,
    /// The top of its header box.
    pub top: f64,
    /// The bottom of its header box: above it, the picture shows the header itself.
    pub bottom: f64,
    /// Half its header box's width.
    pub half: f64,
}

/// The legend lockstep-render drew for a step, for the legend panel: its entries in order.
#[derive(Debug, Clone, PartialEq)]
pub struct LegendArt {
    pub entries: Vec<Rc<LegendSwatch>>,
}

/// One entry of a legend as the panel shows it: its swatch as lockstep-render draws it (the
/// elements of that entry alone, so the page holds a few elements per swatch rather than a copy
/// of the whole legend in each) and its words. Drawn once per picture and kind, and kept: a step
/// whose legend gains or loses an entry leaves the others' swatches as they are on the page.
#[derive(Debug, Clone, PartialEq)]
pub struct LegendSwatch {
    pub kind: LegendKind,
    pub words: String,
    /// The swatch's box in `svg`'s coordinates: x, y, width, height.
    pub at: [f64; 4],
    /// Its SVG elements.
    pub svg: String,
    /// A place kept at the panel's bottom, not shown: this step draws nothing of its kind yet
    /// (see [`legend_art`]).
    pub ghost: bool,
}

impl LegendSwatch {
    /// A name for the entry that stays the same from step to step (the panel's list keys).
    pub fn key(&self) -> String {
        format!("{:?} {}", self.kind, self.words)
    }
}

/// The size of `full` without its legend column: as far right and down as anything else reaches,
/// plus the margin. Every step's layout is given this size, so the page keeps one size.
pub fn size_without_legend(full: &Layout) -> (f64, f64) {
    let legend: Vec<Rect> = full
        .legend
        .iter()
        .map(|e| e.text.rect.union(&e.swatch))
        .collect();
    // The refused and duplicate rows' tints reach 8 px past the lanes' area.
    let (mut right, mut bottom) = (full.area.x1 + 8.0, full.area.y1);
    for r in full.label_boxes().iter().filter(|r| !legend.contains(r)) {
        right = right.max(r.x1);
        bottom = bottom.max(r.y1);
    }
    for l in &full.lanes {
        right = right.max(l.header_box.x1).max(l.footer_box.x1);
    }
    (
        (right + MARGIN).ceil().min(full.width),
        (bottom + MARGIN).ceil().min(full.height),
    )
}

/// Takes the legend out of `layout` and gives it `size` (see [`size_without_legend`]).
pub fn drop_legend(layout: &mut Layout, size: (f64, f64)) -> Vec<LegendEntry> {
    layout.width = size.0;
    layout.height = size.1;
    std::mem::take(&mut layout.legend)
}

/// The lanes' headers of a layout.
pub fn lane_heads(layout: &Layout) -> Vec<LaneHead> {
    layout
        .lanes
        .iter()
        .map(|l| LaneHead {
            name: l.header[0].text.clone(),
            role: l.header[1].text.clone(),
            x: l.x,
            top: l.header_box.y0,
            bottom: l.header_box.y1,
            half: l.header_box.width() / 2.0,
        })
        .collect()
}

/// One entry the whole run's legend lists (see [`run_legend`]): its kind, its words and its
/// swatch's box, for the place the panel keeps for it before a step draws it.
#[derive(Debug, Clone, PartialEq)]
pub struct RunEntry {
    pub kind: LegendKind,
    pub words: String,
    pub at: [f64; 4],
}

/// Every entry a step of the run can list, in the legend's order: the whole run's (`full`, the
/// legend of the layout without `upto_step`), then the current step and "message still in the
/// network", which the finished run draws neither of (the latter goes last: it comes and goes at
/// every other step, and the entries after it would move each time).
pub fn run_legend(full: &[LegendEntry]) -> Vec<RunEntry> {
    let in_flight = LegendKind::Mark(MarkKind::InFlight);
    let mut all: Vec<RunEntry> = full
        .iter()
        .filter(|e| e.kind != in_flight)
        .map(|e| RunEntry {
            kind: e.kind,
            words: e.text.text.clone(),
            at: [
                0.0,
                0.0,
                e.swatch.x1 - e.swatch.x0,
                e.swatch.y1 - e.swatch.y0,
            ],
        })
        .collect();
    for kind in [LegendKind::Current, in_flight] {
        if !all.iter().any(|e| e.kind == kind) {
            all.push(RunEntry {
                kind,
                words: lockstep_render::layout::legend_text(kind).to_string(),
                at: [0.0, 0.0, 1.0, 1.0],
            });
        }
    }
    all
}

/// The panel's legend for `legend` (taken from a layout like `like`, which was `size` before, at
/// their places): each entry's swatch from `drawn` when an entry of its kind and words has been
/// drawn before, else drawn now (as lockstep-render draws it) and added to `drawn`.
///
/// The entries are in the order of the whole run's legend (`run`, see [`run_legend`]), and after
/// them, kept but not shown, every entry of the run this step does not draw: the panel is as
/// large, in as many columns, at every step, its words never rescaled while stepping, and what
/// is drawn so far is packed at its top with the room kept for the rest at its bottom (places
/// kept among the entries read as icons that failed to load). Step 0, which draws nothing, keeps
/// no room: the panel only says so.
pub fn legend_art(
    like: &Layout,
    size: (f64, f64),
    legend: Vec<LegendEntry>,
    drawn: &mut Vec<Rc<LegendSwatch>>,
    run: &[RunEntry],
) -> Result<Rc<LegendArt>, RenderError> {
    let mut entries = Vec::with_capacity(run.len().max(legend.len()));
    for entry in legend {
        let known = drawn
            .iter()
            .find(|s| s.kind == entry.kind && s.words == entry.text.text)
            .cloned();
        let swatch = match known {
            Some(s) => s,
            None => {
                let s = Rc::new(swatch(like, size, entry)?);
                drawn.push(s.clone());
                s
            }
        };
        entries.push(swatch);
    }
    // An entry the run's list lacks (none known) goes after those it has, in its step's order.
    let place = |e: &LegendSwatch| {
        run.iter()
            .position(|r| r.kind == e.kind && r.words == e.words)
            .unwrap_or(run.len())
    };
    lockstep_core::sort::sort_by(&mut entries, |a, b| place(a).cmp(&place(b)));
    if !entries.is_empty() {
        let kept: Vec<Rc<LegendSwatch>> = run
            .iter()
            .filter(|r| {
                !entries
                    .iter()
                    .any(|e| e.kind == r.kind && e.words == r.words)
            })
            .map(|r| {
                Rc::new(LegendSwatch {
                    kind: r.kind,
                    words: r.words.clone(),
                    at: r.at,
                    svg: String::new(),
                    ghost: true,
                })
            })
            .collect();
        entries.extend(kept);
    }
    Ok(Rc::new(LegendArt { entries }))
}

/// Draws one legend entry's swatch (without its words, which the panel sets as text).
fn swatch(
    like: &Layout,
    size: (f64, f64),
    mut entry: LegendEntry,
) -> Result<LegendSwatch, RenderError> {
    let s = entry.swatch;
    let words = std::mem::take(&mut entry.text.text);
    let kind = entry.kind;
    let mut only = Layout {
        legend: vec![entry],
        current: None,
        width: size.0,
        height: size.1,
        ..like.clone()
    };
    only.lanes.clear();
    only.rows.clear();
    only.arrows.clear();
    only.notes.clear();
    only.spans.clear();
    only.marks.clear();
    only.highlights.clear();
    only.ticks.clear();
    only.folds.clear();
    only.stretches.clear();
    only.axis.clear();
    only.walls.clear();
    only.jumps.clear();
    only.flights.clear();
    only.gutter_title.text.clear();
    let caption = Caption {
        title: String::new(),
        name: String::new(),
        summary: String::new(),
        verdict: None,
        seen_width: None,
    };
    let stepper = Stepper::new(only.clone(), &caption);
    let live = stepper.live(&only, &caption)?;
    let at = LAYERS.iter().position(|n| *n == "legend").unwrap_or(0);
    Ok(LegendSwatch {
        kind,
        words,
        at: [s.x0, s.y0, s.x1 - s.x0, s.y1 - s.y0],
        svg: live.layers.get(at).cloned().unwrap_or_default(),
        ghost: false,
    })
}

impl Viewer {
    /// The SVG of the current step as the page shows it: without the legend column (the page
    /// shows the legend in a panel), at the size of the whole branch's picture.
    pub fn shown_step_svg(&self, time_mode: TimeMode) -> Result<String, RenderError> {
        let full = layout(
            &self.full,
            &Options {
                upto_step: None,
                ..self.options(time_mode)
            },
        );
        let mut at_n = layout(&self.full, &self.options(time_mode));
        drop_legend(&mut at_n, size_without_legend(&full));
        let svg = draw_timeline(&at_n, &self.caption())?;
        Ok(with_title(&svg, &self.title_text(), &self.description()))
    }
}
