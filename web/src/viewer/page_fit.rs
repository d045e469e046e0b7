//! The timeline as the page shows it: without lockstep-render's legend column (the page shows
//! the legend in a panel of its own, so the picture can be drawn larger in the width it has), and
//! what the page's HTML needs of the layout (the lanes, for headers that stay in view while the
//! timeline scrolls; the legend's swatches and words, for the legend panel).

use std::rc::Rc;

use lockstep_render::geom::Rect;
use lockstep_render::layout::{LegendEntry, LegendKind};
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
}

/// The legend lockstep-render drew for a step, for the legend panel: its SVG elements (at the
/// places the layout gave them) and, per entry, the swatch's box in them and its words.
#[derive(Debug, Clone, PartialEq)]
pub struct LegendArt {
    pub svg: String,
    pub entries: Vec<(LegendKind, [f64; 4], String)>,
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
        })
        .collect()
}

/// Draws `legend` (taken from a layout like `like`, which was `size` before, at their places) as
/// lockstep-render draws it.
pub fn legend_art(
    like: &Layout,
    size: (f64, f64),
    legend: Vec<LegendEntry>,
) -> Result<Rc<LegendArt>, RenderError> {
    let entries = legend
        .iter()
        .map(|e| {
            let s = e.swatch;
            (
                e.kind,
                [s.x0, s.y0, s.x1 - s.x0, s.y1 - s.y0],
                e.text.text.clone(),
            )
        })
        .collect();
    let mut only = Layout {
        legend,
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
    };
    let stepper = Stepper::new(only.clone(), &caption);
    let live = stepper.live(&only, &caption)?;
    let at = LAYERS.iter().position(|n| *n == "legend").unwrap_or(0);
    Ok(Rc::new(LegendArt {
        svg: live.layers.get(at).cloned().unwrap_or_default(),
        entries,
    }))
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
