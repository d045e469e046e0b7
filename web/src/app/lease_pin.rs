//! A lease chart wider than its window (a phone): scrolled sideways to the current step, with its
//! row names, its title and its legend kept in view (pinned copies of those parts of the chart).
//! And the shape of presenter mode's box for it, which the chart is laid out for.

use wasm_bindgen::JsCast;

use super::dom::html_element;

/// The shape (width over height) of presenter mode's box for the lease chart, once it is laid
/// out; None when it is not shown or has no size.
pub fn box_aspect() -> Option<f64> {
    let scroller = html_element(".presenter .timeline-scroller.lease")?;
    let (w, h) = (
        f64::from(scroller.client_width()),
        f64::from(scroller.client_height()),
    );
    (w > 0.0 && h > 0.0).then(|| w / h)
}

/// How far right of the pinned row names a red overlap band opened on starts, in screen px.
const BAND_MARGIN: f64 = 16.0;

/// The first red overlap band of a lease chart (where two workers both believe they hold the
/// lock): its left and right on the screen. The plot's bands are the chart's tallest rectangles
/// in the danger colour (its legend's and captions' swatches are small ones).
fn overlap_band(scroller: &web_sys::HtmlElement) -> Option<(f64, f64)> {
    let danger = lockstep_render::style::DANGER.hex();
    let rects = scroller.query_selector_all(".page > svg rect").ok()?;
    let bands: Vec<web_sys::DomRect> = (0..rects.length())
        .filter_map(|i| rects.item(i)?.dyn_into::<web_sys::Element>().ok())
        .filter(|r| {
            r.get_attribute("fill")
                .is_some_and(|f| f.eq_ignore_ascii_case(&danger))
        })
        .map(|r| r.get_bounding_client_rect())
        .collect();
    let tallest = bands.iter().map(|b| b.height()).fold(0.0, f64::max);
    bands
        .iter()
        .filter(|b| b.height() >= tallest * 0.75 && b.width() > 0.0)
        .map(|b| (b.left(), b.right()))
        .min_by(|a, b| a.0.total_cmp(&b.0))
}

/// Scrolls a lease chart wider than its window (a phone) sideways to the current step's line,
/// named "step N" above it, two thirds across the window right of the pinned row names: the
/// time before it shows on its left. At the last step (`end`), to the run's first red overlap
/// band instead, when it has one: the end of fenced-gc-pause opened on 9.5–11 s, its rows
/// nearly empty, the overlap it is about (6–8 s) out of view (a review). With `tall_too` (the
/// embed) a chart only taller than its window keeps its time axis in view too: fitted to an
/// 1100x500 frame, its rows filled the window and its axis was below them.
pub fn show_lease_step(at: &super::state::LeaseStep, tall_too: bool) {
    let (step, end) = (at.step, at.end);
    let Some(scroller) = html_element(".timeline-scroller.lease") else {
        return;
    };
    // The pinned copies go first: a zoomed-in embed's, left in place as it zooms out, reach
    // past the fitted chart and would keep its window scrolling.
    clear_pins(&scroller);
    let wide = scroller.scroll_width() > scroller.client_width() + 1;
    let tall = tall_too && scroller.scroll_height() > scroller.client_height() + 1;
    // The pinned parts are copies of the chart: of all its words.
    super::lease_cut::show_all_words(&scroller);
    let rows = pin_lease_names(&scroller, wide || tall);
    if let Some(rows) = rows.filter(|_| tall) {
        show_rows(&scroller, rows, &at.actors);
    }
    if !wide {
        return;
    }
    let pinned = scroller
        .query_selector(".lease-pin > svg")
        .ok()
        .flatten()
        .map_or(0.0, |p| p.get_bounding_client_rect().width());
    let box_left = scroller.get_bounding_client_rect().left();
    if let Some((left, _)) = overlap_band(&scroller).filter(|_| end) {
        let x = left - box_left + f64::from(scroller.scroll_left());
        scroller.set_scroll_left((x - pinned - BAND_MARGIN).max(0.0) as i32);
        super::lease_cut::hide_cut_words(&scroller);
        return;
    }
    let name = format!("step {step}");
    let Ok(texts) = scroller.query_selector_all(".page > svg text") else {
        return;
    };
    let marker = (0..texts.length())
        .filter_map(|i| texts.item(i))
        .filter_map(|n| n.dyn_into::<web_sys::Element>().ok())
        .find(|t| t.text_content().is_some_and(|w| w.trim() == name));
    if let Some(t) = marker {
        let at = t.get_bounding_client_rect();
        let x = at.left() + at.width() / 2.0 - box_left + f64::from(scroller.scroll_left());
        // Two thirds across the part of the window right of the pinned row names (two thirds
        // across the whole window put a phone's step line just past them, the time before it
        // under them).
        let room = (f64::from(scroller.client_width()) - pinned).max(0.0);
        let to = (x - pinned - room * 2.0 / 3.0).max(0.0);
        scroller.set_scroll_left(to as i32);
    }
    super::lease_cut::hide_cut_words(&scroller);
}

/// Where a lease chart's rows are in its window's content, in screen pixels: the title's end
/// above them and the end of the time axis under them (see [`pin_lease_names`]).
struct Rows {
    title_end: f64,
    end: f64,
    /// Where each of the title's lines ends, in order: the window's top stops at one of these,
    /// not through a line.
    title_lines: Vec<f64>,
    /// The legend's lines under the axis, top and bottom: the window's foot, further down than
    /// the axis when the top stops between the title's lines, cuts none of them if it can.
    legend_lines: Vec<(f64, f64)>,
    /// Each row's name, top and bottom, in order down the chart.
    names: Vec<(String, f64, f64)>,
    /// The height of the time axis's copy kept at the window's foot.
    axis_height: f64,
}

impl Rows {
    /// From the first row's top to the last one's bottom.
    fn names_span(&self) -> f64 {
        match (self.names.first(), self.names.last()) {
            (Some(first), Some(last)) => last.2 - first.1,
            _ => 0.0,
        }
    }
}

/// Scrolls an embed's lease chart taller than its window down, as far as it takes to show its
/// rows and its time axis whole, and never past its title: a 400x300
/// frame with the full controls showed only the title, no row, no step line and no axis, and a
/// 375x667 one cut "db last token" in half under the axis (reviews). Only down, so the title read
/// by scrolling up stays until the chart is drawn again; except that a window too short for
/// every row goes to the rows of who acts at the step (`actors`), up or down: the 400x300 frame
/// showed A's rows while B wrote (a review).
fn show_rows(scroller: &web_sys::HtmlElement, rows: Rows, actors: &[String]) {
    let now = f64::from(scroller.scroll_top());
    let need = rows.end - f64::from(scroller.client_height());
    if need <= 0.0 {
        return;
    }
    if let Some(to) = actor_rows(scroller, &rows, actors) {
        if (to - now).abs() > 1.0 {
            scroller.set_scroll_top(to.round() as i32);
        }
        super::lease_cut::hide_foot_cut(scroller);
        return;
    }
    // Past the title's lines as far as it takes (its first line half hidden read as a fault),
    // and where the window's foot then cuts a line of the legend, past one more.
    let height = f64::from(scroller.client_height());
    let cuts_legend = |to: f64| {
        let foot = to + height;
        rows.legend_lines
            .iter()
            .any(|&(top, bottom)| top < foot - 1.0 && bottom > foot + 1.0)
    };
    let mut stops = rows
        .title_lines
        .iter()
        .copied()
        .chain([rows.title_end])
        .filter(|&end| end >= need - 1.0 && end <= rows.title_end);
    let first = stops.next().unwrap_or(rows.title_end);
    let to = std::iter::once(first)
        .chain(stops)
        .find(|&to| !cuts_legend(to))
        .unwrap_or(first);
    if to > now + 1.0 {
        scroller.set_scroll_top(to.round() as i32);
    }
    super::lease_cut::hide_foot_cut(scroller);
}

/// Where the window goes to show the rows named after who acts at the step ("B believes it
/// holds it"; a node's own row, "db last_token"), under the time axis's copy kept at its foot,
/// when the window is too short to show every row and they are not all in it already.
fn actor_rows(scroller: &web_sys::HtmlElement, rows: &Rows, actors: &[String]) -> Option<f64> {
    let height = f64::from(scroller.client_height());
    // The window's room for rows: above the axis's copy at its foot.
    let room = height - rows.axis_height;
    if rows.names.is_empty() || rows.names_span() <= room {
        return None;
    }
    let named = |name: &str| {
        actors.iter().any(|a| {
            name.split(|c: char| !(c.is_alphanumeric() || c == '-' || c == '_'))
                .any(|word| word == a)
        })
    };
    let (top, bottom) = rows
        .names
        .iter()
        .filter(|(name, ..)| named(name))
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(t, b), (_, y0, y1)| {
            (t.min(*y0), b.max(*y1))
        });
    if !top.is_finite() {
        return None;
    }
    let now = f64::from(scroller.scroll_top());
    if top >= now && bottom <= now + room {
        return Some(now);
    }
    // Their first row at the window's top, or their last just above the axis when they are
    // below it, whichever moves least.
    let to = if top < now {
        top
    } else {
        (bottom - room).min(top)
    };
    Some((to - ROW_MARGIN).clamp(0.0, rows.end.max(height) - height))
}

/// Room above a row the window shows it with, in screen pixels.
const ROW_MARGIN: f64 = 6.0;

/// Empties the pinned copies of the chart's parts (see [`pin_lease_names`]).
fn clear_pins(scroller: &web_sys::HtmlElement) {
    for part in [".lease-pin", ".lease-bands", ".lease-axis"] {
        if let Ok(Some(el)) = scroller.query_selector(part) {
            el.set_inner_html("");
        }
    }
}

/// How far right of the row names' right edge the pinned copy of them reaches, in the chart's
/// pixels (the plot starts 24 px right of them).
const NAMES_PAD: f64 = 10.0;

/// A lease chart wider than its window (on a phone) keeps its row names in view: a copy of the
/// chart's names column, pinned at the window's left (style.css `.lease-pin`), from the first
/// row to the last (scrolled to the current step, the names had gone off the left and no bar
/// said whose it was). Left empty when the chart fits its window (`overflows` false; see
/// [`clear_pins`]). Returns where its rows are (see [`Rows`]), when it pinned them.
fn pin_lease_names(scroller: &web_sys::HtmlElement, overflows: bool) -> Option<Rows> {
    let pin = scroller.query_selector(".lease-pin").ok().flatten()?;
    let bands_el = scroller.query_selector(".lease-bands").ok().flatten();
    let axis_el = scroller.query_selector(".lease-axis").ok().flatten();
    let svg = scroller.query_selector(".page > svg").ok().flatten()?;
    let (vw, vh) = svg.get_attribute("viewBox").and_then(|v| {
        let n: Vec<f64> = v
            .split_whitespace()
            .filter_map(|x| x.parse().ok())
            .collect();
        (n.len() == 4).then(|| (n[2], n[3]))
    })?;
    let names = svg.query_selector_all("text[text-anchor=end]").ok()?;
    // The row names: right-aligned at the plot's left, each a row's middle.
    let at: Vec<(f64, f64)> = (0..names.length())
        .filter_map(|i| names.item(i)?.dyn_into::<web_sys::Element>().ok())
        .filter_map(|t| {
            let x = t.get_attribute("x")?.parse().ok()?;
            let y = t.get_attribute("y")?.parse().ok()?;
            Some((x, y))
        })
        .collect();
    let right = at.iter().map(|p| p.0).fold(0.0, f64::max);
    let (top, bottom) = at.iter().fold((f64::INFINITY, 0.0_f64), |(a, b), p| {
        (a.min(p.1), b.max(p.1))
    });
    let rendered = svg.get_bounding_client_rect().width();
    if !overflows || at.is_empty() || right <= 0.0 || vw <= 0.0 || rendered <= 0.0 {
        return None;
    }
    let scale = rendered / vw;
    let (head, foot, axis) = bands(&svg, top, bottom, scale);
    // From the title's band down to the legend's, so that nothing of the plot scrolled under
    // the names shows above or below them (slivers of the overlap's hatching did, above the
    // first row and beside "B done" under the last).
    let y0 = head.map_or(top - 20.0, |(edge, _)| edge).min(top - 20.0);
    let y1 = foot
        .map_or(bottom + 20.0, |(edge, _)| edge)
        .max(bottom + 20.0);
    let w = right + NAMES_PAD;
    // The chart's own drawing, clipped to the names column: its hatching patterns keep their
    // ids only in the chart itself.
    let inner = svg.inner_html().replace(" id=\"", " data-id=\"");
    let clip = |(x0, y0, x1, y1): (f64, f64, f64, f64), class: &str| {
        let (w, h) = (x1 - x0, y1 - y0);
        format!(
            r##"<svg xmlns="http://www.w3.org/2000/svg" class="{class}" viewBox="{x0} {y0} {w} {h}" width="{pw}" height="{ph}" style="top: {top}px" focusable="false"><rect x="{x0}" y="{y0}" width="{w}" height="{h}" fill="#fff"/>{inner}</svg>"##,
            pw = w * scale,
            ph = h * scale,
            top = y0 * scale,
        )
    };
    pin.set_inner_html(&clip((0.0, y0, w, y1), "names"));
    super::lease_cut::hide_cut_in_pin(scroller);
    // The time axis, kept at the foot of the screen while the rows above it are in view (a tall
    // chart on a phone opened with its axis below the fold): scrolled sideways with the chart,
    // up and down by `place_axis`.
    if let (Some(el), Some((a0, a1))) = (&axis_el, axis) {
        el.set_inner_html(&clip((0.0, a0, vw, a1), "axis"));
        for (name, value) in [("data-top", a0 * scale), ("data-height", (a1 - a0) * scale)] {
            let _ = el.set_attribute(name, &format!("{value:.1}"));
        }
        follow_axis();
        place_axis();
    }
    // The chart's top in its window's content; its rows end with its own time axis (or a row's
    // half height under the last name).
    let chart_top = svg.get_bounding_client_rect().top()
        - scroller.get_bounding_client_rect().top()
        - f64::from(scroller.client_top())
        + f64::from(scroller.scroll_top());
    let title_end = head.map_or(0.0, |(edge, _)| edge);
    let rows = Rows {
        title_end: chart_top + title_end * scale,
        end: chart_top + axis.map_or(bottom + ROW_HALF, |(_, a1)| a1) * scale,
        title_lines: text_lines(&svg, (0.0, title_end))
            .into_iter()
            .map(|(_, end)| chart_top + end * scale)
            .collect(),
        legend_lines: text_lines(&svg, (axis.map_or(f64::INFINITY, |(_, a1)| a1), vh))
            .into_iter()
            .map(|(top, end)| (chart_top + top * scale, chart_top + end * scale))
            .collect(),
        names: (0..names.length())
            .filter_map(|i| names.item(i)?.dyn_into::<web_sys::Element>().ok())
            .filter_map(|t| {
                let y: f64 = t.get_attribute("y")?.parse().ok()?;
                let name = t.text_content()?.trim().to_string();
                Some((
                    name,
                    chart_top + (y - ROW_HALF) * scale,
                    chart_top + (y + ROW_HALF) * scale,
                ))
            })
            .collect(),
        axis_height: axis.map_or(0.0, |(a0, a1)| (a1 - a0) * scale),
    };
    // The title above the rows and the legend and summary below the time axis: scrolled to
    // the current step, they were cut at the left ("rker believes it holds the lock"). Each
    // scrolls with the chart until its right end reaches the window's, then stays there.
    let Some(bands_el) = bands_el else {
        return Some(rows);
    };
    let window = f64::from(scroller.client_width());
    let band = |(y0, y1, right): (f64, f64, f64)| {
        let left = (window - right * scale).min(0.0);
        format!(
            r#"<div style="left: {left}px; width: {pw}px">{}</div>"#,
            clip((0.0, y0, right, y1), "band"),
            pw = right * scale,
        )
    };
    let mut html = String::new();
    // The title from its start (the page's header names the scenario in full too); the legend
    // whole, reachable by scrolling when it is wider than the window (its right column).
    if let Some((edge, right)) = head {
        html.push_str(&band((0.0, edge.min(y0), right.min(window / scale))));
    }
    if let Some((edge, right)) = foot {
        html.push_str(&band((edge.max(y1), vh, right)));
    }
    bands_el.set_inner_html(&html);
    Some(rows)
}

/// The lines of a lease chart's left-aligned words (its title block, its legend) whose
/// baselines lie within `from..to`, in its pixels, in order: from their capitals' tops to just
/// under their descenders (0.3 of the size left a "g" of a 28 px title showing).
fn text_lines(svg: &web_sys::Element, (from, to): (f64, f64)) -> Vec<(f64, f64)> {
    let Ok(texts) = svg.query_selector_all("text[text-anchor=start]") else {
        return Vec::new();
    };
    let mut lines: Vec<(f64, f64)> = (0..texts.length())
        .filter_map(|i| texts.item(i)?.dyn_into::<web_sys::Element>().ok())
        .filter_map(|t| {
            let y: f64 = t.get_attribute("y")?.parse().ok()?;
            let size: f64 = t.get_attribute("font-size")?.parse().ok()?;
            (y > from && y < to).then_some((y - 0.8 * size, y + 0.4 * size))
        })
        .collect();
    lockstep_core::sort::sort_by(&mut lines, |a, b| a.1.total_cmp(&b.1));
    lines
}

/// Half a lease chart row's height below its name's middle, in the chart's pixels, and a little
/// room.
const ROW_HALF: f64 = 16.0;

/// Where the chart's title ends and its legend starts, in its pixels, and how far right each
/// reaches: its left-aligned texts above the first row name (`top`), and those below the time
/// axis's labels (centred, under the last row name at `bottom`). The plot's own words keep out
/// of both: a worker's "B done" is left-aligned between the rows and the axis, and the centred
/// "paid twice" over the current step's line sits just under the title.
type Band = Option<(f64, f64)>;
fn bands(svg: &web_sys::Element, top: f64, bottom: f64, scale: f64) -> (Band, Band, Band) {
    let Ok(texts) = svg.query_selector_all("text") else {
        return (None, None, None);
    };
    let left = svg.get_bounding_client_rect().left();
    let texts: Vec<(f64, f64, bool, f64)> = (0..texts.length())
        .filter_map(|i| texts.item(i)?.dyn_into::<web_sys::Element>().ok())
        .filter_map(|t| {
            let y: f64 = t.get_attribute("y")?.parse().ok()?;
            let size: f64 = t.get_attribute("font-size")?.parse().ok()?;
            let start = t.get_attribute("text-anchor").as_deref() == Some("start");
            let right = (t.get_bounding_client_rect().right() - left) / scale + BAND_PAD;
            Some((y, size, start, right))
        })
        .collect();
    let centred = texts.iter().filter(|t| !t.2);
    // The axis's labels, and the marks over the plot's top.
    let axis = centred
        .clone()
        .filter(|t| t.0 > bottom)
        .map(|t| t.0 + 0.6 * t.1)
        .fold(bottom, f64::max);
    // The axis's line and labels: from just above the labels' tops (the line is drawn there)
    // to their bottoms.
    let labels_top = centred
        .clone()
        .filter(|t| t.0 > bottom)
        .map(|t| t.0 - 0.6 * t.1)
        .fold(f64::INFINITY, f64::min);
    let axis_band = labels_top
        .is_finite()
        .then_some((labels_top - AXIS_LINE, axis));
    let marks = centred
        .filter(|t| t.0 < top)
        .map(|t| t.0 - 0.6 * t.1)
        .fold(top, f64::min);
    let starts = texts.iter().filter(|t| t.2);
    let head =
        starts
            .clone()
            .filter(|t| t.0 < marks)
            .fold(None, |head: Band, &(y, size, _, right)| {
                let (edge, r) = head.unwrap_or((0.0, 0.0));
                // Below its letters, above the marks.
                Some(((edge.max(y + 0.6 * size)).min(marks), r.max(right)))
            });
    let foot = starts
        .filter(|t| t.0 > axis)
        .fold(None, |foot: Band, &(y, size, _, right)| {
            let (edge, r) = foot.unwrap_or((f64::INFINITY, 0.0));
            // Above its letters and the legend's swatch beside it, below the axis.
            Some(((edge.min(y - size)).max(axis), r.max(right)))
        });
    (head, foot, axis_band)
}

/// How far above its labels' tops the time axis's band starts, in the chart's pixels: the line
/// and its ticks.
const AXIS_LINE: f64 = 10.0;

/// How far right of its words a title or legend band reaches, in the chart's pixels.
const BAND_PAD: f64 = 16.0;

/// Keeps the lease chart's copy of its time axis (see `pin_lease_names`) at the foot of the
/// screen while the chart's rows are in view and its own axis is below the screen's foot;
/// hides it otherwise.
fn place_axis() {
    let (Some(scroller), Some(axis), Some(page), Some(window)) = (
        html_element(".timeline-scroller.lease"),
        html_element(".timeline-scroller.lease .lease-axis"),
        html_element(".timeline-scroller.lease .page"),
        web_sys::window(),
    ) else {
        return;
    };
    let number = |name| {
        axis.get_attribute(name)
            .and_then(|v| v.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    let (top, height) = (number("data-top"), number("data-height"));
    // The window's foot, or the chart's window's when that is higher (a zoomed-in embed's chart
    // scrolls in its own window; a phone's is as tall as the chart, the page scrolling).
    let from = scroller.get_bounding_client_rect();
    let foot = window
        .inner_height()
        .ok()
        .and_then(|h| h.as_f64())
        .unwrap_or(0.0)
        .min(from.top() + f64::from(scroller.client_top() + scroller.client_height()));
    let chart_top = page.get_bounding_client_rect().top();
    // Where the copy goes on the screen: its foot at the screen's.
    let at = foot - height;
    // Shown over the rows only: not above the chart's first rows, nor once the chart's own
    // axis is on the screen.
    let shown = height > 0.0 && at > chart_top + 2.0 * height && at < chart_top + top;
    super::lease_cut::hide_foot_cut(&scroller);
    let _ = if shown {
        // In the scroller's content, where the chart is (after the scroller's padding).
        let drawn = page.get_bounding_client_rect();
        let left = drawn.left() - from.left() + f64::from(scroller.scroll_left());
        let top = at - from.top() + f64::from(scroller.scroll_top());
        axis.set_attribute("style", &format!("top: {top:.1}px; left: {left:.1}px"))
    } else {
        axis.set_attribute("style", "display: none")
    };
}

thread_local! {
    /// The page's listener that keeps the time axis's copy in place, put on once.
    static AXIS_FOLLOWER: std::cell::OnceCell<wasm_bindgen::closure::Closure<dyn Fn()>> =
        const { std::cell::OnceCell::new() };
}

/// Puts `place_axis` on the window's scroll (and the chart's window's) and resize, once for the
/// page (it does nothing while no lease chart is shown).
fn follow_axis() {
    AXIS_FOLLOWER.with(|cell| {
        cell.get_or_init(|| {
            let f = wasm_bindgen::closure::Closure::<dyn Fn()>::new(place_axis);
            if let Some(w) = web_sys::window() {
                let _ = w.add_event_listener_with_callback("resize", f.as_ref().unchecked_ref());
                // Captured: the chart's own window scrolling (a zoomed-in embed's) as well as
                // the page's (a phone's); an element's scroll does not bubble.
                let _ = w.add_event_listener_with_callback_and_bool(
                    "scroll",
                    f.as_ref().unchecked_ref(),
                    true,
                );
            }
            f
        });
    });
}
