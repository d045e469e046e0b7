//! The whole branch's timeline drawn once for stepping through it (the [`Picture`]: its layers'
//! groups, the rows a click or hover can hit), and what one step shows on top of it (the
//! [`StepFrame`]).

use std::cell::RefCell;
use std::rc::Rc;

use lockstep_core::EventKind;
use lockstep_render::svg::stepped::{LAYERS, SteppedLive, Stepper};
use lockstep_render::{Options, RenderError, TimeMode, layout};

use super::Viewer;
use super::page_fit::{self, LaneHead, LegendArt};
use super::spans::{
    DrawnWords, drawn_words, gutter_right, row_ends, row_focus, row_spans, row_words,
};
use crate::stack::{ChunkReach, Layer, chunk_reaches, stack};

/// A clickable row of the timeline, in the layout's pixels (the page draws the layout
/// [`Picture::layout_dy`] further down).
#[derive(Debug, Clone, PartialEq)]
pub struct HitRow {
    pub step: usize,
    /// The row's line from the top (steps that share a line share a row of the picture).
    pub line: usize,
    /// The y of that line: the row's arrows leave and arrive on it.
    pub y: f64,
    pub top: f64,
    pub bottom: f64,
    pub label: String,
    pub explanation: String,
    /// The first event after a what-if change: the branch starts at this row.
    pub branch: bool,
    /// A fault (pause, crash, restart, clock jump, failover): highlighted in a counterexample.
    pub fault: bool,
    /// Horizontal extent of what the row draws (its arrows, their labels, its notes), in the
    /// layout's pixels, so the page can scroll it into view sideways; None when it draws none.
    pub span: Option<(f64, f64)>,
    /// Where in the span to look when it is wider than the window (see `spans::row_focus`).
    pub focus: Option<f64>,
    /// The x of the lanes the row's event joins, smallest and largest (see `spans::row_ends`).
    pub ends: Option<(f64, f64)>,
    /// Horizontal extent of the row's words alone (see `spans::row_words`).
    pub words: Option<(f64, f64)>,
    /// The row's event is an arrival: its arrow's words are drawn at the sender's end.
    pub arrives: bool,
}

/// The timeline of the whole branch, drawn once: lockstep-render's unchanging pieces in groups
/// per layer and step, which a step shows or hides, and the rows a click or hover can hit.
#[derive(Debug)]
pub struct Picture {
    /// The stack of `<svg>` elements (see [`crate::stack`]): one layer per layer of [`LAYERS`]
    /// and one for the marks of branch and fault rows.
    pub svg: String,
    /// Per layer (the branch and fault marks last): the step from which each of its groups shows.
    pub groups: Vec<Vec<usize>>,
    /// Every chunk's `<svg>` and how far down it draws (the page leaves those far from its
    /// window out of its rendering; see `crate::stack::far_chunks`).
    pub chunks: Rc<[ChunkReach]>,
    /// Every row of the branch, in the layout's pixels.
    pub rows: Vec<HitRow>,
    /// Every line's band, top and bottom, in order down the page, in the layout's pixels (rows
    /// that share a line share a band; see `crate::snap`).
    pub lines: std::rc::Rc<[(f64, f64)]>,
    /// Every box of words it draws, in the layout's pixels (see `spans::drawn_words`).
    pub words: Rc<[DrawnWords]>,
    /// What the picture was drawn for: the branch and the time mode.
    pub key: (u64, TimeMode),
    /// The lanes, for the page's row of lane names that stays in view.
    pub lanes: Vec<LaneHead>,
    /// How far right the step column reaches, in page pixels: pinned at the left of the window
    /// while the picture scrolls sideways.
    pub gutter: f64,
    /// The layout's size without its legend column (every step's layout is given it).
    size: (f64, f64),
    /// The legend panel's drawings, one per set of entries the steps have shown (a step's legend
    /// lists only what it draws, so "message still in the network" comes and goes).
    legend: RefCell<Vec<(Vec<lockstep_render::layout::LegendEntry>, Rc<LegendArt>)>>,
    /// Every legend entry's swatch drawn so far, shared by those drawings.
    swatches: RefCell<Vec<Rc<page_fit::LegendSwatch>>>,
    /// Every entry a step's legend can list, in order (the panel keeps room for them all).
    run_legend: Vec<page_fit::RunEntry>,
    stepper: Stepper,
}

/// The width of the current step's outline the page draws (style.css `.current-frame`).
const OUTLINE_STROKE: f64 = 3.0;

/// Every line's band of `rows`, in order: rows that share a line share a band.
fn line_bands(rows: &[HitRow]) -> std::rc::Rc<[(f64, f64)]> {
    let mut lines: Vec<(f64, f64)> = Vec::new();
    for row in rows {
        let band = (row.top, row.bottom);
        if lines.last() != Some(&band) {
            lines.push(band);
        }
    }
    lines.into()
}

/// A row's band, where a click or hover finds it: a little above and below its text.
pub fn band(r: &HitRow) -> (f64, f64) {
    (r.top - 3.0, (r.bottom - r.top + 6.0).max(8.0))
}

impl Picture {
    /// The page's width, in px (the lanes' x are in it).
    pub fn page_width(&self) -> u32 {
        self.stepper.page_size().0
    }

    /// The row under `y` (in the layout's pixels) among steps 1..=`upto`: of rows sharing a
    /// line, the latest one answers.
    pub fn row_at(&self, x: f64, y: f64, upto: usize) -> Option<&HitRow> {
        let shown = &self.rows[..self.rows.partition_point(|r| r.step <= upto)];
        // Of the rows whose band holds the point (neighbouring lines' bands overlap, and the
        // steps of one line share one), the one drawing something at `x`, then the one whose
        // band's middle is nearest, then the latest: the second line of a two-line note, low in
        // its band, selected the next step, and a round's words selected another step of its line.
        let at_x = |r: &HitRow| r.span.is_some_and(|(a, b)| (a..=b).contains(&x));
        let key = |r: &HitRow| {
            let (top, height) = band(r);
            (!at_x(r), (top + height / 2.0 - y).abs())
        };
        shown
            .iter()
            .rev()
            .filter(|r| {
                let (top, height) = band(r);
                (top..=top + height).contains(&y)
            })
            .min_by(|a, b| {
                let (ka, kb) = (key(a), key(b));
                ka.0.cmp(&kb.0).then(ka.1.total_cmp(&kb.1))
            })
    }
}

impl PartialEq for Picture {
    fn eq(&self, other: &Self) -> bool {
        self.key == other.key
    }
}

/// What one step shows on top of the [`Picture`].
#[derive(Debug, Clone, PartialEq)]
pub struct StepFrame {
    /// The current step (0: nothing has happened yet).
    pub step: usize,
    pub live: SteppedLive,
    /// The SVG's title and description (for screen readers).
    pub title: String,
    pub description: String,
    /// The current step's band over the lanes, top and height in the layout's pixels (the
    /// pinned step column joins its outline's edges there).
    pub lanes: Option<(f64, f64)>,
    /// The current step's outline as an SVG path in the layout's pixels (empty at step 0):
    /// lockstep-render's, drawn again over the danger band (it draws it beneath).
    pub frame_path: String,
    /// The current step's band over the step column, top and height in the layout's pixels:
    /// where lockstep-render draws its marker, clear of the neighbouring lines' steps and times
    /// (the pinned column's copy of it goes there too).
    pub outline: Option<(f64, f64)>,
    /// The legend lockstep-render drew for this step, which the page shows in a panel (the
    /// picture is drawn without it).
    pub legend: Rc<LegendArt>,
}

impl StepFrame {
    /// How many groups of each layer of `picture` show at this step.
    pub fn shown(&self, picture: &Picture) -> Vec<usize> {
        picture
            .groups
            .iter()
            .map(|g| g.partition_point(|&s| s <= self.step))
            .collect()
    }
}

impl Viewer {
    /// The whole branch's timeline, drawn once for stepping through it.
    pub fn picture(&self, time_mode: TimeMode) -> Result<Picture, RenderError> {
        let options = Options {
            upto_step: None,
            ..self.options(time_mode)
        };
        let mut full = layout(&self.full, &options);
        let size = page_fit::size_without_legend(&full);
        let run_legend = page_fit::run_legend(&page_fit::drop_legend(&mut full, size));
        let lanes = page_fit::lane_heads(&full);
        let branch_steps: Vec<usize> = self.whatifs().iter().map(|w| w.at_step + 1).collect();
        let spans = row_spans(&full);
        let focus = row_focus(&full);
        let ends = row_ends(&full);
        let words = row_words(&full);
        let drawn = drawn_words(&full);
        let gutter = gutter_right(&full);
        let rows: Vec<HitRow> = full
            .rows
            .iter()
            .zip(spans)
            .zip(focus)
            .zip(ends)
            .zip(words)
            .map(|((((r, span), focus), ends), words)| HitRow {
                span,
                focus,
                ends,
                words,
                step: r.step,
                line: r.line,
                y: r.y,
                top: r.top,
                bottom: r.bottom,
                label: r.label.clone(),
                explanation: r.explanation.clone(),
                branch: branch_steps.contains(&r.step),
                fault: r.kind == EventKind::Fault,
                arrives: r.kind == EventKind::Deliver,
            })
            .collect();
        let stepper = Stepper::new(full, &self.caption());
        let base = stepper.base()?;
        let mut groups: Vec<Vec<usize>> = base
            .layers
            .iter()
            .map(|layer| layer.iter().map(|(s, _)| *s).collect())
            .collect();
        let mut layers: Vec<Layer> = LAYERS
            .iter()
            .zip(base.layers.iter().zip(&base.reach))
            .map(|(name, (layer, reach))| Layer {
                name,
                class: "",
                groups: layer.iter().map(|(_, g)| g.as_str()).collect(),
                reach,
                live: "",
                // The current step's outline, beneath the arrows and their labels.
                under: if *name == "shafts" {
                    "<rect class=\"current-outline\" x=\"0\" y=\"0\" width=\"0\" height=\"0\"/>\
                     <path class=\"current-frame\" d=\"\"/>"
                } else {
                    ""
                },
                // The step column stays in view while a wide run scrolls sideways.
                pinned: *name == "gutter",
            })
            .collect();
        // On top, the marks of the few rows that branch or are faults (no element per row: the
        // page finds the row under the mouse from its y), then the current step's outline and
        // the hovered row's band, which a step or a mouse move only moves.
        let width = f64::from(stepper.page_size().0);
        let mut marks = Vec::new();
        let mut marked = Vec::new();
        let mut marks_reach = Vec::new();
        for r in rows.iter().filter(|r| r.branch || r.fault) {
            let (y, height) = band(r);
            marks_reach.push((y, y + height));
            let mut g = String::new();
            if r.fault {
                g.push_str(&format!(
                    "<rect class=\"hit fault\" x=\"0\" y=\"{y:.1}\" width=\"{width:.0}\" height=\"{height:.1}\"/>"
                ));
            }
            if r.branch {
                g.push_str(&format!(
                    "<rect class=\"hit branch\" x=\"0\" y=\"{y:.1}\" width=\"{width:.0}\" height=\"{height:.1}\"/>\
                     <g class=\"branch-mark\"><rect x=\"2\" y=\"{y:.1}\" width=\"8\" height=\"{height:.1}\"/></g>"
                ));
            }
            marks.push(g);
            marked.push(r.step);
        }
        layers.push(Layer {
            name: "hits",
            class: "hits",
            groups: marks.iter().map(String::as_str).collect(),
            reach: &marks_reach,
            live: "<rect class=\"hover-band\" x=\"0\" y=\"0\" width=\"0\" height=\"0\"/>",
            under: "",
            pinned: false,
        });
        groups.push(marked);
        let svg = stack(stepper.page_size(), &layers, gutter);
        Ok(Picture {
            svg,
            chunks: chunk_reaches(&layers).into(),
            groups,
            lines: line_bands(&rows),
            words: drawn.into(),
            rows,
            key: (self.branch, time_mode),
            lanes,
            gutter,
            size,
            legend: RefCell::new(Vec::new()),
            swatches: RefCell::new(Vec::new()),
            run_legend,
            stepper,
        })
    }

    /// What step `n` of this branch shows on top of `picture` (see also `frames.rs`: the
    /// frames kept and computed ahead).
    pub(super) fn frame_at(&self, picture: &Picture, n: usize) -> Result<StepFrame, RenderError> {
        let mut at_n = layout(&self.full, &self.options_at(picture.key.1, n));
        let drawn_size = (at_n.width, at_n.height);
        let legend = page_fit::drop_legend(&mut at_n, picture.size);
        let kept = picture
            .legend
            .borrow()
            .iter()
            .find(|(entries, _)| *entries == legend)
            .map(|(_, art)| art.clone());
        let legend = match kept {
            Some(art) => art,
            None => {
                // Rarely: a run's steps show a few sets of entries, not one per step.
                let art = page_fit::legend_art(
                    &at_n,
                    drawn_size,
                    legend.clone(),
                    &mut picture.swatches.borrow_mut(),
                    &picture.run_legend,
                )?;
                picture.legend.borrow_mut().push((legend, art.clone()));
                art
            }
        };
        // One call gives the outline and both its bands.
        let outline = at_n.current_outline(picture.size.0, OUTLINE_STROKE / 2.0);
        let band = |(top, bottom): (f64, f64)| (top, bottom - top);
        let lanes = outline.as_ref().map(|o| band(o.lanes));
        let frame_path = outline
            .as_ref()
            .map(|o| {
                let mut d = String::new();
                for (i, p) in o.points.iter().enumerate() {
                    let cmd = if i == 0 { 'M' } else { 'L' };
                    d.push_str(&format!("{cmd}{:.1} {:.1} ", p.x, p.y));
                }
                d.push('Z');
                d
            })
            .unwrap_or_default();
        let outline = outline.map(|o| band(o.column));
        Ok(StepFrame {
            step: n,
            outline,
            lanes,
            frame_path,
            live: picture.stepper.live(&at_n, &self.caption_at(n))?,
            title: self.title_at(n),
            description: self.description_at(n),
            legend,
        })
    }
}
