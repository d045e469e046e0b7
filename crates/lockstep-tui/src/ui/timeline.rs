//! The timeline pane: paints lockstep-render's layout into terminal cells. Lanes become columns,
//! each row a line (or, to scale, as many lines as its time gap needs); arrows, notes, spans,
//! marks and highlights are the layout's, drawn with box characters and the shared palette.

use lockstep_render::layout::{
    Arrow, ArrowEnd, Highlight, HighlightKind, Layout, Mark, MarkKind, Note, NoteKind, Span,
    SpanKind,
};
use lockstep_render::{TimeMode, style};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::widgets::Widget;
use unicode_width::UnicodeWidthStr;

use super::theme;

/// Layout pixels per terminal line in to-scale mode (a logical row is 24 px apart).
const PX_PER_LINE: f64 = 24.0;
/// Lines above the rows: lane names and roles.
pub const HEADER_LINES: u16 = 2;

/// What one line of the timeline shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Line {
    /// The row with this index.
    Row(usize),
    /// Time passing after the row with this index (to-scale mode).
    Gap(usize),
    /// The what-if branch leaves the original run here; the row with this index follows.
    Diverged(usize),
}

/// Where everything of a layout goes in a pane: the lines, the lane columns, the scroll.
#[derive(Debug, Clone, PartialEq)]
pub struct Grid {
    pub lines: Vec<Line>,
    /// The line of each row.
    pub row_line: Vec<usize>,
    /// Column of each lane's lifeline, relative to the pane.
    pub lane_cols: Vec<u16>,
    /// Width of the step/time gutter.
    pub gutter: u16,
    /// To-scale time marks on gap lines: (line, label).
    pub ticks: Vec<(usize, String)>,
    /// Index of the first line shown.
    pub top: usize,
    /// Lines the pane shows below its header.
    pub height: usize,
}

impl Grid {
    /// The grid of `layout` in a pane of `area`; `scroll` is the wheel's top line (None follows
    /// the current step); `diverged` the step after which a what-if branch starts.
    pub fn new(
        layout: &Layout,
        area: Rect,
        scroll: Option<usize>,
        diverged: Option<usize>,
    ) -> Grid {
        let mut lines = Vec::with_capacity(layout.rows.len() + 1);
        let mut row_line = Vec::with_capacity(layout.rows.len());
        let first_y = layout.rows.first().map_or(0.0, |r| r.y);
        for (i, row) in layout.rows.iter().enumerate() {
            if diverged.is_some_and(|d| row.step == d + 1) {
                lines.push(Line::Diverged(i));
            }
            if layout.mode == TimeMode::ToScale && i > 0 {
                let want = ((row.y - first_y) / PX_PER_LINE).round() as usize;
                while lines.len() < want {
                    lines.push(Line::Gap(i - 1));
                }
            }
            row_line.push(lines.len());
            lines.push(Line::Row(i));
        }
        let ticks = layout
            .ticks
            .iter()
            .filter_map(|t| {
                let line = ((t.y - first_y) / PX_PER_LINE).round();
                let line = (line >= 0.0).then_some(line as usize)?;
                matches!(lines.get(line), Some(Line::Gap(_))).then(|| {
                    (
                        line,
                        t.label.as_ref().map_or(String::new(), |l| l.text.clone()),
                    )
                })
            })
            .filter(|(_, text)| !text.is_empty())
            .collect();
        let gutter = gutter_text(layout, layout.rows.last()).width() as u16 + 2;
        let n = layout.lanes.len().max(1) as u16;
        let lanes_w = area.width.saturating_sub(gutter + 1);
        let pitch = lanes_w / n;
        let lane_cols = (0..layout.lanes.len() as u16)
            .map(|i| gutter + 1 + pitch * i + pitch / 2)
            .collect();
        let height = usize::from(area.height.saturating_sub(HEADER_LINES));
        let last_top = lines.len().saturating_sub(height);
        let follow = layout
            .current
            .and_then(|r| row_line.get(r))
            .map_or(last_top, |&l| (l + 1).saturating_sub(height));
        let top = scroll.unwrap_or(follow).min(last_top);
        Grid {
            lines,
            row_line,
            lane_cols,
            gutter,
            ticks,
            top,
            height,
        }
    }

    /// The row shown at pane line `y` (0 = the first line below the header), if any.
    pub fn row_at(&self, y: u16) -> Option<usize> {
        match self.lines.get(self.top + usize::from(y))? {
            Line::Row(r) => Some(*r),
            _ => None,
        }
    }

    /// The column of an x position of the layout, between the lanes' columns.
    fn col_of_x(&self, layout: &Layout, x: f64) -> u16 {
        let lanes = &layout.lanes;
        let (Some(first), Some(last)) = (lanes.first(), lanes.last()) else {
            return self.gutter;
        };
        if x <= first.x {
            return self.lane_cols[0];
        }
        if x >= last.x {
            return self.lane_cols[lanes.len() - 1];
        }
        for i in 1..lanes.len() {
            if x <= lanes[i].x {
                let (x0, x1) = (lanes[i - 1].x, lanes[i].x);
                let (c0, c1) = (
                    f64::from(self.lane_cols[i - 1]),
                    f64::from(self.lane_cols[i]),
                );
                let t = if x1 > x0 { (x - x0) / (x1 - x0) } else { 0.0 };
                return (c0 + t * (c1 - c0)).round() as u16;
            }
        }
        self.lane_cols[lanes.len() - 1]
    }
}

/// Columns between two lanes.
fn lane_pitch(grid: &Grid) -> u16 {
    match grid.lane_cols.as_slice() {
        [a, b, ..] => b - a,
        _ => grid.lane_cols.first().map_or(0, |&c| c * 2),
    }
}

/// What lies on the rows shown, found in one pass over the layout so that drawing a frame costs
/// the same for a run of 40 events and one of 10,000.
struct Visible<'a> {
    /// The first row shown.
    first: usize,
    spans: Vec<&'a Span>,
    sends: Vec<Vec<&'a Arrow>>,
    arrivals: Vec<Vec<&'a Arrow>>,
    notes: Vec<Vec<&'a Note>>,
    marks: Vec<Vec<&'a Mark>>,
    highlights: Vec<Vec<&'a Highlight>>,
}

impl<'a> Visible<'a> {
    fn new(layout: &'a Layout, grid: &Grid) -> Visible<'a> {
        let rows = grid
            .lines
            .iter()
            .skip(grid.top)
            .take(grid.height)
            .map(|l| match *l {
                Line::Row(r) | Line::Gap(r) | Line::Diverged(r) => r,
            });
        let (first, last) = rows.fold((usize::MAX, 0), |(a, b), r| (a.min(r), b.max(r)));
        let n = (last + 1).saturating_sub(first);
        let last_row = layout.rows.len().saturating_sub(1);
        let slot = |r: usize| (first <= r && r <= last).then(|| r - first);
        let mut v = Visible {
            first,
            spans: layout
                .spans
                .iter()
                .filter(|s| s.from_row <= last && s.to_row.unwrap_or(last_row) >= first)
                .collect(),
            sends: vec![Vec::new(); n],
            arrivals: vec![Vec::new(); n],
            notes: vec![Vec::new(); n],
            marks: vec![Vec::new(); n],
            highlights: vec![Vec::new(); n],
        };
        for a in &layout.arrows {
            if let Some(i) = slot(a.send_row) {
                v.sends[i].push(a);
            }
            if let Some(i) = a.end_row.and_then(slot) {
                v.arrivals[i].push(a);
            }
        }
        for x in &layout.notes {
            if let Some(i) = slot(x.row) {
                v.notes[i].push(x);
            }
        }
        for x in &layout.marks {
            if let Some(i) = slot(x.row) {
                v.marks[i].push(x);
            }
        }
        for x in &layout.highlights {
            if let Some(i) = slot(x.row) {
                v.highlights[i].push(x);
            }
        }
        v
    }
}

/// The timeline pane.
#[derive(Debug, Clone, Copy)]
pub struct Timeline<'a> {
    pub layout: &'a Layout,
    pub scroll: Option<usize>,
    pub diverged: Option<usize>,
}

/// Writes into one pane, clipped to it.
struct Pen<'a> {
    buf: &'a mut Buffer,
    area: Rect,
}

impl Pen<'_> {
    fn put(&mut self, col: u16, line: u16, ch: char, style: Style) {
        if col >= self.area.width || line >= self.area.height {
            return;
        }
        if let Some(cell) = self.buf.cell_mut((self.area.x + col, self.area.y + line)) {
            cell.set_char(ch).set_style(style);
        }
    }

    /// Writes `text` from `col`, cut with an ellipsis at the pane's right edge or after `max`
    /// columns.
    fn text(&mut self, col: u16, line: u16, text: &str, max: u16, style: Style) {
        let room = self.area.width.saturating_sub(col).min(max);
        if room == 0 || line >= self.area.height {
            return;
        }
        let shown = fit(text, usize::from(room));
        self.buf.set_stringn(
            self.area.x + col,
            self.area.y + line,
            &shown,
            usize::from(room),
            style,
        );
    }

    /// Whether the cell holds part of a word.
    fn is_text(&self, col: u16, line: u16) -> bool {
        self.buf
            .cell((self.area.x + col, self.area.y + line))
            .is_some_and(|c| c.symbol().chars().any(char::is_alphanumeric))
    }

    fn restyle_line(&mut self, line: u16, from: u16, style: Style) {
        for col in from..self.area.width {
            if let Some(cell) = self.buf.cell_mut((self.area.x + col, self.area.y + line)) {
                cell.set_style(style);
            }
        }
    }
}

/// `text` cut to `width` columns, ending in an ellipsis when cut.
pub fn fit(text: &str, width: usize) -> String {
    if text.width() <= width {
        return text.to_string();
    }
    let mut out = String::new();
    for ch in text.chars() {
        if out.width() + 2 > width {
            break;
        }
        out.push(ch);
    }
    out.push('…');
    out
}

/// The gutter of one row: its step and time, in columns as wide as the run's largest, so every
/// line of the pane starts its lanes at the same column (the SVG's gutter groups the steps that
/// share a line; here every step has its own line). `None` gives the heading.
fn gutter_text(layout: &Layout, row: Option<&lockstep_render::layout::Row>) -> String {
    let last = layout.rows.last();
    let step_w = last.map_or(1, |r| r.step.to_string().len()).max(1);
    let time_w = layout
        .rows
        .iter()
        .map(|r| r.time_ms)
        .max()
        .map_or(4, |t| t.to_string().len() + 3)
        .max(4);
    match row {
        Some(r) => format!(
            "{:>step_w$}  {:>time_w$}",
            r.step,
            format!("{} ms", r.time_ms)
        ),
        None => format!("{:>step_w$}  {:>time_w$}", "#", "time"),
    }
}

/// A lane name cut to `width` columns keeping what tells lanes apart: `redis-3` becomes
/// `re…-3`, not `redis…`, so five Redlock instances stay distinguishable.
pub fn fit_name(name: &str, width: usize) -> String {
    if name.width() <= width {
        return name.to_string();
    }
    match name.rsplit_once('-') {
        Some((head, tail)) if tail.width() + 2 <= width => {
            let room = width - tail.width() - 2;
            let head: String = head.chars().take(room).collect();
            format!("{head}…-{tail}")
        }
        _ => fit(name, width),
    }
}

/// Whether line `line` lies within rows `from..=to` (a gap after `to` does not).
fn covers(line: Line, from: usize, to: usize) -> bool {
    match line {
        Line::Row(r) => from <= r && r <= to,
        Line::Gap(r) => from <= r && r < to,
        Line::Diverged(r) => from < r && r <= to,
    }
}

impl Widget for Timeline<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        buf.set_style(area, theme::base());
        let layout = self.layout;
        let grid = Grid::new(layout, area, self.scroll, self.diverged);
        let mut pen = Pen { buf, area };
        // Header: lane names and roles, centred on their columns.
        pen.text(
            1,
            0,
            &gutter_text(layout, None),
            grid.gutter,
            theme::muted(),
        );
        for (lane, &col) in layout.lanes.iter().zip(&grid.lane_cols) {
            let color = match lane.worker {
                Some(w) => theme::tone(lockstep_render::layout::Tone::Worker(w)),
                None if lane.role.is_lock_service() => theme::color(style::INFRA),
                None => theme::color(style::TEXT),
            };
            let pitch = lane_pitch(&grid).max(2);
            for (i, tb) in lane.header.iter().enumerate() {
                let text = if i == 0 {
                    fit_name(&tb.text, usize::from(pitch - 1))
                } else {
                    fit(&tb.text, usize::from(pitch - 1))
                };
                let w = text.width() as u16;
                let style = if i == 0 {
                    theme::fg(color).add_modifier(Modifier::BOLD)
                } else {
                    theme::muted()
                };
                pen.text(col.saturating_sub(w / 2), i as u16, &text, w, style);
            }
        }
        let shown = Visible::new(layout, &grid);
        let visible = grid
            .lines
            .iter()
            .enumerate()
            .skip(grid.top)
            .take(grid.height);
        let last_row = layout.rows.len().saturating_sub(1);
        let lanes_from = grid.gutter;
        for (index, &line) in visible {
            let y = HEADER_LINES + (index - grid.top) as u16;
            // Bands: the danger zone, then the current step on top of it.
            let danger = shown.spans.iter().any(|s| {
                matches!(s.kind, SpanKind::Overlap { .. })
                    && covers(line, s.from_row, s.to_row.unwrap_or(last_row))
            });
            if danger {
                pen.restyle_line(y, lanes_from, theme::danger_band());
                pen.put(0, y, theme::DANGER_GUTTER, theme::danger());
            }
            for &col in &grid.lane_cols {
                pen.put(col, y, theme::LIFELINE, theme::lifeline());
            }
            for span in &shown.spans {
                let Some(lane) = span.lane else { continue };
                if !covers(line, span.from_row, span.to_row.unwrap_or(last_row)) {
                    continue;
                }
                let col = grid.lane_cols[lane];
                match &span.kind {
                    SpanKind::Paused { .. } => pen.put(col, y, theme::PAUSED, theme::paused()),
                    SpanKind::Down => pen.put(col, y, theme::DOWN, theme::down()),
                    SpanKind::ServiceHolds { .. } | SpanKind::Believes { .. } => {
                        pen.put(col + 1, y, theme::BAR, theme::fg(theme::tone(span.tone)))
                    }
                    SpanKind::Overlap { .. } => {}
                }
            }
            match line {
                Line::Row(r) => draw_row(&mut pen, layout, &grid, &shown, r, y),
                Line::Diverged(_) => {
                    let text = "┄┄ what-if: the run branches here ┄┄";
                    pen.restyle_line(y, 0, theme::diverged());
                    let w = area.width.saturating_sub(lanes_from);
                    let col = lanes_from + w.saturating_sub(text.width() as u16) / 2;
                    pen.text(col, y, text, w, theme::diverged());
                    pen.put(0, y, '⑂', theme::diverged());
                }
                Line::Gap(_) => {
                    if let Some((_, label)) = grid.ticks.iter().find(|(l, _)| *l == index) {
                        let w = label.width() as u16;
                        pen.text(
                            grid.gutter.saturating_sub(w + 1),
                            y,
                            label,
                            w,
                            theme::muted(),
                        );
                    }
                }
            }
        }
    }
}

/// Everything on a row's line: gutter, arrows sent or arriving here, notes, marks, highlights.
fn draw_row(
    pen: &mut Pen<'_>,
    layout: &Layout,
    grid: &Grid,
    shown: &Visible<'_>,
    r: usize,
    y: u16,
) {
    let row = &layout.rows[r];
    let slot = r - shown.first;
    let current = layout.current == Some(r);
    if current {
        pen.restyle_line(y, 0, theme::current());
    }
    let mut gutter_style = theme::muted();
    for h in &shown.highlights[slot] {
        match h.kind {
            HighlightKind::Current => {
                pen.put(0, y, theme::CURRENT_GUTTER, theme::bold());
                gutter_style = theme::bold();
            }
            HighlightKind::RejectedAccess | HighlightKind::DuplicatePayout => {
                gutter_style = theme::danger();
            }
        }
    }
    pen.text(
        1,
        y,
        &gutter_text(layout, Some(row)),
        grid.gutter - 1,
        gutter_style,
    );
    for a in &shown.sends[slot] {
        {
            let from = grid.lane_cols[a.from_lane];
            let to = match a.end {
                ArrowEnd::Delivered => grid.lane_cols[a.to_lane],
                // Level and in flight, it stops halfway here: the dotted rest of its way says
                // where it goes (the picture runs its dashes on to just short of the receiver).
                ArrowEnd::InFlight if a.tip.y == a.start.y => {
                    grid.col_of_x(layout, (a.start.x + layout.lanes[a.to_lane].x) / 2.0)
                }
                ArrowEnd::Lost | ArrowEnd::InFlight => grid.col_of_x(layout, a.tip.x),
            };
            let color = if a.rejected {
                theme::color(style::DANGER)
            } else {
                theme::tone(a.tone)
            };
            let style = theme::fg(color);
            let (lo, hi) = (from.min(to), from.max(to));
            for c in lo + 1..hi {
                pen.put(c, y, '─', style);
            }
            // A message still in flight at this step: the rest of its way to the target is
            // dotted, and its label spans the whole way, so the current step's row (most
            // often a send) keeps its label readable.
            let mut span = (lo, hi);
            if a.end == ArrowEnd::InFlight {
                let target = grid.lane_cols[a.to_lane];
                let (a_, b_) = (to.min(target), to.max(target));
                for c in a_ + 1..b_ {
                    pen.put(c, y, '┄', theme::muted());
                }
                span = (from.min(target), from.max(target));
            }
            let head = match a.end {
                ArrowEnd::Delivered if to > from => Some((to - 1, '▶')),
                ArrowEnd::Delivered if to < from => Some((to + 1, '◀')),
                ArrowEnd::Lost => Some((to, '✕')),
                ArrowEnd::InFlight => Some((to, '•')),
                ArrowEnd::Delivered => None,
            };
            if let Some((c, ch)) = head {
                pen.put(c, y, ch, style.add_modifier(Modifier::BOLD));
            }
            label_on_span(pen, grid, span, y, &a.label.one_line(), style);
        }
    }
    for a in &shown.arrivals[slot] {
        if a.end == ArrowEnd::Delivered {
            let to = grid.lane_cols[a.to_lane];
            let from = grid.lane_cols[a.from_lane];
            let style = if a.rejected {
                theme::danger()
            } else {
                theme::fg(theme::tone(a.tone))
            };
            // Beside the receiver, on the side the message came from, within one lane's
            // width: it never hides another lane's pause, belief or record.
            let text = format!("{} {}", if from <= to { '▸' } else { '◂' }, row.label);
            let room = lane_pitch(grid).saturating_sub(2);
            let w = (text.width() as u16).min(room);
            if from <= to {
                pen.text(to.saturating_sub(w + 1), y, &text, w, style);
            } else {
                pen.text(to + 2, y, &text, w, style);
            }
        }
    }
    let marks = &shown.marks[slot];
    // Columns the notes cover: a mark there goes inside the note instead, so neither hides
    // the other.
    let mut covered: Vec<(u16, u16)> = Vec::new();
    for n in &shown.notes[slot] {
        let mut text = n.text.one_line();
        for m in marks
            .iter()
            .filter(|m| n.lanes.0 <= m.lane && m.lane <= n.lanes.1)
        {
            text = format!("{} {text}", theme::mark_glyph(m.kind));
        }
        let (a, b) = (grid.lane_cols[n.lanes.0], grid.lane_cols[n.lanes.1]);
        let mut style = match n.kind {
            NoteKind::Global => theme::global_note(),
            NoteKind::Fault => theme::fault_note(),
            NoteKind::State | NoteKind::Note => theme::note(),
        };
        if let Some(t) = n.tone {
            style = style.fg(theme::tone(t));
        }
        if n.emphasis {
            style = style.add_modifier(Modifier::BOLD | Modifier::REVERSED);
        }
        let boxed = if n.kind == NoteKind::Global {
            format!("══ {text} ══")
        } else {
            format!("[{text}]")
        };
        let w = boxed.width() as u16;
        let centre = (a + b) / 2;
        let max_left = pen.area.width.saturating_sub(w);
        let col = centre
            .saturating_sub(w / 2)
            .clamp(grid.gutter.min(max_left), max_left.max(grid.gutter));
        pen.text(col, y, &boxed, pen.area.width, style);
        covered.push((col, col + w));
    }
    for m in marks.iter() {
        let col = grid.lane_cols[m.lane];
        if covered.iter().any(|&(a, b)| a <= col && col < b) {
            continue;
        }
        // A message's position in flight is the one mark a label may hide.
        if m.kind == MarkKind::InFlight && pen.is_text(col, y) {
            continue;
        }
        let style = theme::fg(theme::mark_color(m.kind)).add_modifier(Modifier::BOLD);
        pen.put(col, y, theme::mark_glyph(m.kind), style);
    }
    if current {
        pen.restyle_line(y, 0, Style::default().bg(theme::color(style::CURRENT)));
    }
}

/// An arrow's label over its shaft; when the shaft is too short, right of it where that is
/// free (past the last lane), else cut to fit the shaft. Never over lanes left of the arrow,
/// where it would hide their pauses and beliefs.
fn label_on_span(
    pen: &mut Pen<'_>,
    grid: &Grid,
    (lo, hi): (u16, u16),
    y: u16,
    text: &str,
    style: Style,
) {
    let w = text.width() as u16;
    let inside = hi.saturating_sub(lo).saturating_sub(3);
    let last_lane = grid.lane_cols.last().copied().unwrap_or(0);
    let right = if hi >= last_lane {
        pen.area.width.saturating_sub(hi + 2)
    } else {
        0
    };
    if w <= inside {
        pen.text(lo + 2 + (inside - w) / 2, y, text, w, style);
    } else if w <= right || (right > inside && right >= 8) {
        pen.text(hi + 2, y, text, right, style);
    } else {
        pen.text(lo + 2, y, text, inside, style);
    }
}

#[cfg(test)]
mod fit_tests {
    use super::fit_name;

    #[test]
    fn a_cut_lane_name_keeps_its_number() {
        assert_eq!(fit_name("redis-3", 7), "redis-3");
        assert_eq!(fit_name("redis-3", 5), "re…-3");
        assert_eq!(fit_name("node-2", 4), "n…-2");
        assert_eq!(fit_name("database", 5), "data…");
    }
}
