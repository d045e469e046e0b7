//! The timeline in parts, for front ends that step through a run without redrawing it: the
//! pieces that never change once their step has happened are drawn once, grouped by that step
//! and by drawing layer (so a front end shows steps 1..=n by hiding the later groups), and the
//! few pieces that change from step to step (the current step, messages in flight, open spans,
//! lifelines, lane footers, the legend, time marks, the title block) are drawn per step from
//! that step's own layout. Every piece is drawn by [`draw_layout`], on a layout holding only that
//! piece, so nothing is drawn differently from [`super::draw_timeline`]: a front end that stacks
//! the layers in [`LAYERS`] order shows exactly the elements `draw_timeline` draws at that step.

use plotters::prelude::*;

use super::{Caption, Page, Painter, draw_layout, extras, patterns};
use crate::error::RenderError;
use crate::geom::{Point, Rect};
use crate::layout::{Arrow, ArrowEnd, Layout, Span, SpanKind};
use crate::style;
use crate::text::TextBox;

/// The drawing layers, back to front (the order in which `draw_layout` draws).
pub const LAYERS: [&str; 16] = [
    "ticks",
    "bands",
    "overlap",
    "walls",
    "lifelines",
    "wide-spans",
    "bars",
    "shafts",
    "notes",
    "crashes",
    "labels",
    "heads",
    "marks",
    "lanes",
    "gutter",
    "legend",
];
const TICKS: usize = 0;
const BANDS: usize = 1;
const OVERLAP: usize = 2;
const WALLS: usize = 3;
const LIFELINES: usize = 4;
const WIDE: usize = 5;
const BARS: usize = 6;
const SHAFTS: usize = 7;
const NOTES: usize = 8;
/// Crashes and clock-jump breaks: `draw_layout` draws them above the notes.
const CRASHES: usize = 9;
const LABELS: usize = 10;
const HEADS: usize = 11;
const MARKS: usize = 12;
const LANES: usize = 13;
const GUTTER: usize = 14;
const LEGEND: usize = 15;

/// The unchanging pieces of a whole run's timeline.
#[derive(Debug, Clone, PartialEq)]
pub struct SteppedBase {
    /// Per layer of [`LAYERS`]: (the step from which the group shows, its SVG elements), in
    /// order of that step. Step 0 groups show from the start.
    pub layers: Vec<Vec<(usize, String)>>,
    /// Per layer and group, as in `layers`: the top and bottom of what the group draws, in the
    /// layout's pixels (see [`reach::reach`]). A front end leaves the groups far from its
    /// window out of its page: on a 1,405-event run most of some 10,000 elements are.
    pub reach: Vec<Vec<(f64, f64)>>,
}

/// The pieces of one step that change from step to step, and the page around them.
#[derive(Debug, Clone, PartialEq)]
pub struct SteppedLive {
    pub width: f64,
    pub height: f64,
    /// The layers are drawn this far down the page.
    pub layout_dy: f64,
    /// The background and title block, drawn before the layers.
    pub before: String,
    /// Per layer of [`LAYERS`]: SVG elements drawn on top of that layer's unchanging groups.
    pub layers: Vec<String>,
    /// The verdict footer, drawn after the layers.
    pub after: String,
}

/// Splits a run's timeline into unchanging and changing pieces.
#[derive(Debug, Clone)]
pub struct Stepper {
    /// The whole run's layout (no current step).
    full: Layout,
    /// The step from which each row's gutter text no longer changes: its line is complete.
    gutter_ready: Vec<usize>,
    page_size: (u32, u32),
}

/// A layout with nothing in it but `full`'s frame, to hold one piece.
fn empty_like(full: &Layout) -> Layout {
    Layout {
        mode: full.mode,
        width: full.width,
        height: full.height,
        lanes: Vec::new(),
        rows: Vec::new(),
        arrows: Vec::new(),
        notes: Vec::new(),
        spans: Vec::new(),
        marks: Vec::new(),
        highlights: Vec::new(),
        legend: Vec::new(),
        ticks: Vec::new(),
        gutter_title: TextBox::empty(Point::new(0.0, 0.0)),
        current: None,
        current_dips: crate::layout::Dips::default(),
        total_steps: full.total_steps,
        lifeline_top: 0.0,
        lifeline_bottom: 0.0,
        area: full.area,
        ms_scale: full.ms_scale,
        // Fold notes are drawn as folds (their text names them).
        folds: full.folds.clone(),
        stretches: Vec::new(),
        overlap_labels: Vec::new(),
        axis: Vec::new(),
        walls: Vec::new(),
        jumps: Vec::new(),
        flights: Vec::new(),
        so_far: full.so_far,
    }
}

/// The SVG elements `draw_layout` draws for `l` (no document around them).
fn draw_part(l: &Layout, page_width: f64, size: (u32, u32)) -> Result<String, RenderError> {
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, size).into_drawing_area();
        let p = Painter {
            area: &root,
            dy: 0.0,
        };
        draw_layout(&p, l, page_width)?;
        root.present()
            .map_err(|e| RenderError::Draw(e.to_string()))?;
    }
    // The hatchings' patterns are defined once, in the page's `before` part.
    Ok(strip_document(&patterns::refer(&out)))
}

/// The elements inside an `<svg>` document.
fn strip_document(doc: &str) -> String {
    let start = doc
        .find("<svg")
        .and_then(|i| doc[i..].find('>').map(|j| i + j + 1))
        .unwrap_or(0);
    let end = doc.rfind("</svg>").unwrap_or(doc.len()).max(start);
    doc[start..end].trim_matches('\n').to_string()
}

/// A lane with its header or footer box shrunk to nothing and its text dropped: `draw_layout`
/// then draws only the rest of the lane.
fn blank_box(at: Rect) -> ([TextBox; 2], Rect) {
    let p = Point::new(at.x0, at.y0);
    (
        [TextBox::empty(p), TextBox::empty(p)],
        Rect::new(p.x, p.y, p.x, p.y),
    )
}

/// The arrow with only its label left (a shaft of no length).
fn label_only(a: &Arrow) -> Arrow {
    Arrow {
        start: a.tip,
        end: if a.end == ArrowEnd::InFlight {
            ArrowEnd::InFlight
        } else {
            ArrowEnd::Lost
        },
        ..a.clone()
    }
}

/// The arrow without its label.
fn shaft_only(a: &Arrow) -> Arrow {
    Arrow {
        label: TextBox::empty(a.start),
        ..a.clone()
    }
}

/// A delivered arrow with only its head left (the shaft shrinks to under the head).
fn head_only(a: &Arrow) -> Arrow {
    let (dx, dy) = (a.tip.x - a.start.x, a.tip.y - a.start.y);
    let len = (dx * dx + dy * dy).sqrt();
    // The head is 15 px long: keep at least that, so it is drawn at its size.
    let keep = 15.0;
    let start = if len > keep {
        Point::new(a.tip.x - dx / len * keep, a.tip.y - dy / len * keep)
    } else {
        a.start
    };
    Arrow {
        start,
        label: TextBox::empty(a.start),
        ..a.clone()
    }
}

fn is_wide(kind: &SpanKind) -> bool {
    matches!(kind, SpanKind::Paused { .. })
}

/// A span to draw on a layout of its own: a crash becomes the pieces `draw_layout` shows of it
/// on the layout `within` (the parts no note covers), since its part has no notes to avoid.
fn alone(s: &Span, within: &Layout) -> Vec<Span> {
    if s.kind != SpanKind::Down {
        return vec![s.clone()];
    }
    extras::visible_parts(within, s.rect)
        .into_iter()
        .map(|rect| Span { rect, ..s.clone() })
        .collect()
}

/// The layer a span is drawn in.
fn span_layer(kind: &SpanKind) -> usize {
    match kind {
        SpanKind::Down => CRASHES,
        k if is_wide(k) => WIDE,
        _ => BARS,
    }
}

impl Stepper {
    /// `full`: the whole run's layout, laid out without a current step.
    pub fn new(full: Layout, caption: &Caption) -> Stepper {
        let page = Page::new(&full, caption);
        let mut last_on_line =
            vec![0usize; full.rows.iter().map(|r| r.line + 1).max().unwrap_or(0)];
        let mut count_on_line = vec![0usize; last_on_line.len()];
        for r in &full.rows {
            last_on_line[r.line] = last_on_line[r.line].max(r.step);
            count_on_line[r.line] += 1;
        }
        let gutter_ready = full
            .rows
            .iter()
            .map(|r| {
                // A line is drawn live until the step after its last: at each of its steps it
                // is the current step's line, drawn bold.
                if count_on_line[r.line] > 1 {
                    last_on_line[r.line] + 1
                } else {
                    r.step + 1
                }
            })
            .collect();
        Stepper {
            full,
            gutter_ready,
            page_size: (page.width as u32, page.height.max(1.0) as u32),
        }
    }

    /// The whole run's page size, in px.
    pub fn page_size(&self) -> (u32, u32) {
        self.page_size
    }

    fn part(&self, l: &Layout) -> Result<String, RenderError> {
        draw_part(l, f64::from(self.page_size.0), self.page_size)
    }

    /// The unchanging pieces, grouped by layer and by the step from which they show.
    pub fn base(&self) -> Result<SteppedBase, RenderError> {
        let full = &self.full;
        let empty = empty_like(full);
        // (layer, step) -> the layout holding that group's pieces.
        let mut groups: Vec<std::collections::BTreeMap<usize, Layout>> =
            vec![std::collections::BTreeMap::new(); LAYERS.len()];
        fn at<'g>(
            groups: &'g mut [std::collections::BTreeMap<usize, Layout>],
            empty: &Layout,
            layer: usize,
            step: usize,
        ) -> &'g mut Layout {
            groups[layer].entry(step).or_insert_with(|| empty.clone())
        }
        for s in &full.spans {
            if let (Some(to), false) = (s.to_row, matches!(s.kind, SpanKind::Overlap { .. })) {
                at(&mut groups, &empty, span_layer(&s.kind), to + 1)
                    .spans
                    .extend(alone(s, full));
            }
        }
        for w in &full.walls {
            if let Some(to) = w.to_row {
                at(&mut groups, &empty, WALLS, to + 1).walls.push(w.clone());
            }
        }
        for j in &full.jumps {
            at(&mut groups, &empty, CRASHES, j.row + 1)
                .jumps
                .push(j.clone());
        }
        for a in &full.arrows {
            let Some(end) = a.end_row.filter(|_| a.end != ArrowEnd::InFlight) else {
                continue;
            };
            let ready = end.max(a.send_row) + 1;
            at(&mut groups, &empty, SHAFTS, ready)
                .arrows
                .push(shaft_only(a));
            // A round's label changes until its last member is sent (see `Arrow::label_final`).
            at(&mut groups, &empty, LABELS, ready.max(a.label_final + 1))
                .arrows
                .push(label_only(a));
            if a.end == ArrowEnd::Delivered {
                at(&mut groups, &empty, HEADS, ready)
                    .arrows
                    .push(head_only(a));
            }
        }
        for f in &full.flights {
            at(&mut groups, &empty, LABELS, f.end_row + 1)
                .flights
                .push(f.clone());
        }
        for n in &full.notes {
            at(&mut groups, &empty, NOTES, n.row + 1)
                .notes
                .push(n.clone());
        }
        for m in &full.marks {
            // Marks that depend on the step shown are drawn per step (below).
            if !matches!(
                m.kind,
                crate::layout::MarkKind::InFlight | crate::layout::MarkKind::Sender
            ) {
                at(&mut groups, &empty, MARKS, m.row + 1).marks.push(*m);
            }
        }
        for l in &full.lanes {
            let (footer, footer_box) = blank_box(l.footer_box);
            let g = at(&mut groups, &empty, LANES, 0);
            g.lanes.push(crate::layout::Lane {
                footer,
                footer_box,
                ..l.clone()
            });
        }
        at(&mut groups, &empty, GUTTER, 0).gutter_title = full.gutter_title.clone();
        for (r, &ready) in full.rows.iter().zip(&self.gutter_ready) {
            if !r.gutter.text.is_empty() {
                at(&mut groups, &empty, GUTTER, ready).rows.push(r.clone());
            }
        }
        let mut layers = Vec::with_capacity(LAYERS.len());
        let mut reaches = Vec::with_capacity(LAYERS.len());
        for g in groups {
            let mut drawn = Vec::with_capacity(g.len());
            for (step, l) in &g {
                drawn.push((*step, self.part(l)?));
            }
            layers.push(drawn);
            reaches.push(g.values().map(reach::reach).collect());
        }
        Ok(SteppedBase {
            layers,
            reach: reaches,
        })
    }

    /// The changing pieces at the step `at_n` was laid out for (the same trace and options as
    /// the whole run's layout, with `upto_step` set), and the page around them.
    pub fn live(&self, at_n: &Layout, caption: &Caption) -> Result<SteppedLive, RenderError> {
        let page = Page::new(at_n, caption);
        let shown = at_n.rows.len();
        // This step's frame (time marks reach to its right edge).
        let empty = empty_like(at_n);
        let mut parts: Vec<Layout> = vec![empty.clone(); LAYERS.len()];

        parts[TICKS].ticks = at_n.ticks.clone();
        // Zooms and stacks behind everything; breaks over the lifelines.
        let (breaks, marks): (Vec<_>, Vec<_>) = at_n
            .stretches
            .iter()
            .cloned()
            .partition(|s| s.kind == crate::layout::StretchKind::Break);
        parts[TICKS].stretches = marks;

        // Bands need their rows (and nothing else of them).
        let mut band_rows = Vec::new();
        for h in &at_n.highlights {
            if let Some(r) = at_n.rows.get(h.row) {
                parts[BANDS].highlights.push(crate::layout::Highlight {
                    row: band_rows.len(),
                    kind: h.kind,
                });
                band_rows.push(crate::layout::Row {
                    gutter: TextBox::empty(r.gutter.anchor),
                    ..r.clone()
                });
                // The current step's outline keeps off its neighbours' texts (see
                // `Layout::highlight_band`): they come along, without their words.
                if h.kind == crate::layout::HighlightKind::Current {
                    band_rows.extend(at_n.adjacent_rows(r).map(|o| crate::layout::Row {
                        // Its step and time's place and size, not their words.
                        gutter: TextBox {
                            text: String::new(),
                            ..o.gutter.clone()
                        },
                        label: String::new(),
                        explanation: String::new(),
                        ..o.clone()
                    }));
                }
            }
        }
        parts[BANDS].rows = band_rows;
        parts[BANDS].current_dips = at_n.current_dips.clone();

        for s in &at_n.spans {
            match (&s.kind, s.to_row) {
                (SpanKind::Overlap { .. }, _) => parts[OVERLAP].spans.push(s.clone()),
                (k, None) => parts[span_layer(k)].spans.extend(alone(s, at_n)),
                _ => {}
            }
        }
        parts[OVERLAP].overlap_labels = at_n.overlap_labels.clone();
        parts[WALLS].walls = at_n
            .walls
            .iter()
            .filter(|w| w.to_row.is_none())
            .cloned()
            .collect();

        for l in &at_n.lanes {
            let (header, header_box) = blank_box(l.header_box);
            let (footer, footer_box) = blank_box(l.footer_box);
            parts[LIFELINES].lanes.push(crate::layout::Lane {
                header,
                header_box,
                footer: footer.clone(),
                footer_box,
                ..l.clone()
            });
            let (header, header_box) = blank_box(l.header_box);
            parts[LANES].lanes.push(crate::layout::Lane {
                header,
                header_box,
                ..l.clone()
            });
        }
        parts[LIFELINES].lifeline_top = at_n.lifeline_top;
        parts[LIFELINES].lifeline_bottom = at_n.lifeline_bottom;
        parts[LIFELINES].stretches = breaks;
        // The footers' lane layer draws no lifeline: one of no length.
        parts[LANES].lifeline_top = at_n.lifeline_bottom;
        parts[LANES].lifeline_bottom = at_n.lifeline_bottom;

        // The labels of rounds arrived but not yet all sent: they name the members so far.
        for a in at_n
            .arrows
            .iter()
            .filter(|a| a.end != ArrowEnd::InFlight && a.label_final >= shown)
        {
            parts[LABELS].arrows.push(label_only(a));
        }
        for a in at_n.arrows.iter().filter(|a| a.end == ArrowEnd::InFlight) {
            parts[SHAFTS].arrows.push(shaft_only(a));
            parts[LABELS].arrows.push(label_only(a));
            // The mark's colour comes from its arrow: keep one that draws nothing else.
            parts[MARKS].arrows.push(Arrow {
                label: TextBox::empty(a.tip),
                ..label_only(a)
            });
        }
        parts[MARKS].marks = at_n
            .marks
            .iter()
            .filter(|m| {
                matches!(
                    m.kind,
                    crate::layout::MarkKind::InFlight | crate::layout::MarkKind::Sender
                )
            })
            .copied()
            .collect();

        // Gutter texts whose line is not complete yet, and the current step's (bold, with the
        // pointer).
        let mut gutter_rows = Vec::new();
        for (i, r) in at_n.rows.iter().enumerate() {
            let current = at_n.current == Some(i);
            let pending = !r.gutter.text.is_empty()
                && self.gutter_ready.get(i).is_some_and(|&ready| ready > shown);
            if current {
                parts[GUTTER].current = Some(gutter_rows.len());
            }
            if current || pending {
                gutter_rows.push(r.clone());
            }
        }
        parts[GUTTER].rows = gutter_rows;
        parts[LEGEND].legend = at_n.legend.clone();

        let size = (page.width as u32, page.height.max(1.0) as u32);
        let mut layers = Vec::with_capacity(LAYERS.len());
        for l in &parts {
            layers.push(draw_part(l, page.width, size)?);
        }

        let mut before = String::new();
        let mut after = String::new();
        {
            let root = SVGBackend::with_string(&mut before, size).into_drawing_area();
            let bg = style::BACKGROUND;
            root.fill(&RGBColor(bg.0, bg.1, bg.2))
                .map_err(|e| RenderError::Draw(e.to_string()))?;
            let top = Painter {
                area: &root,
                dy: 0.0,
            };
            for t in &page.header {
                top.text(&t.text, t.color)?;
            }
            root.present()
                .map_err(|e| RenderError::Draw(e.to_string()))?;
        }
        {
            let root = SVGBackend::with_string(&mut after, size).into_drawing_area();
            let top = Painter {
                area: &root,
                dy: 0.0,
            };
            for t in &page.footer {
                top.text(&t.text, t.color)?;
            }
            if let Some((mark, at)) = page.verdict_mark {
                top.mark(mark, at, style::TEXT)?;
            }
            root.present()
                .map_err(|e| RenderError::Draw(e.to_string()))?;
        }
        Ok(SteppedLive {
            width: page.width,
            height: page.height,
            layout_dy: page.layout_dy,
            // Every hatching's pattern, for the parts of any step to refer to.
            before: format!(
                "{}\n{}",
                patterns::defs(0..patterns::HATCHES.len()),
                strip_document(&patterns::refer(&before))
            ),
            layers,
            after: strip_document(&patterns::refer(&after)),
        })
    }
}

pub mod reach;
#[cfg(test)]
mod tests;
