//! Brings the page's copy of a [`Picture`] (its stack of `<svg>`s) to a [`StepFrame`]: shows or
//! hides the groups of the steps between the old step and the new one, puts in the elements of
//! the changing pieces that differ (see [`crate::patch`]), and moves the current step's outline.

use std::rc::Rc;

use lockstep_render::TimeMode;
use wasm_bindgen::JsCast;
use web_sys::{DomRect, Element};

use crate::patch;
use crate::stack::{CHUNK, chunk_id, live_id};
use crate::viewer::{Picture, StepFrame};
use lockstep_render::svg::stepped::LAYERS;

/// What the page shows of a picture at the moment, so a step changes only the difference.
#[derive(Default)]
pub(super) struct Shown {
    /// The picture these refer to.
    picture: Option<(u64, TimeMode)>,
    /// Per layer: how many of its groups show.
    groups: Vec<usize>,
    /// Per layer: the changing pieces last put in.
    live: Vec<String>,
    defs: String,
    before: String,
    after: String,
    size: (f64, f64),
    dy: f64,
    /// The picture's own words of the current step, hidden while its caption shows them (see
    /// [`hide_row_label`]).
    hidden_label: Vec<Element>,
    /// Per chunk of the picture: left out of the page's rendering, far from the window (see
    /// [`cull`]); empty when not known (a copy just put in).
    far: Vec<bool>,
    /// The step shown and the bottom of what it has drawn (see [`reached`]).
    pub(super) reached: Option<(usize, f64)>,
}

impl Shown {
    /// The page's height and how far below the layout's it draws the rows, in the layout's
    /// pixels (`(0, 0)` before a picture is put in).
    pub(super) fn page_height_and_dy(&self) -> (f64, f64) {
        (self.size.1, self.dy)
    }
}

/// The step `step` and the bottom of the lowest row it has drawn, in the layout's pixels (not
/// always its own: a Redlock round's later answer is drawn on the round's row, above rows of
/// earlier steps). None at step 0, where nothing is drawn and the hint says how to start, and at
/// the last step, where nothing is left to come.
fn reached(pic: &Picture, step: usize) -> Option<(usize, f64)> {
    if step == 0 || step >= pic.rows.len() {
        return None;
    }
    let bottom = pic
        .rows
        .iter()
        .take_while(|r| r.step <= step)
        .map(|r| r.bottom)
        .fold(0.0, f64::max);
    Some((step, bottom))
}

pub(super) fn set(el: &Element, name: &str, value: &str) {
    let _ = el.set_attribute(name, value);
}

/// The element of the page with this id.
fn by_id(id: &str) -> Option<Element> {
    web_sys::window()?.document()?.get_element_by_id(id)
}

/// The layer group inside one `<svg>` of the stack (under its shifting group).
fn layer_in(svg: &Element) -> Option<Element> {
    svg.first_element_child()?.first_element_child()
}

/// The page's group `j` of layer `i` (in its chunk's `<svg>`).
fn group(i: usize, j: usize) -> Option<Element> {
    by_id(&chunk_id(i, j / CHUNK))
        .as_ref()
        .and_then(layer_in)
        .and_then(|l| l.children().item((j % CHUNK) as u32))
}

/// Shows or hides group `j` of layer `i`.
fn show_group(i: usize, j: usize, on: bool) {
    let Some(g) = group(i, j) else {
        return;
    };
    if on {
        let _ = g.remove_attribute("display");
    } else {
        set(&g, "display", "none");
    }
}

/// Shows the first `want` of layer `i`'s `len` groups and hides the rest, whatever the page's
/// copy showed before (chunk by chunk: one lookup per chunk, not per group).
fn show_all(i: usize, len: usize, want: usize) {
    for k in 0..len.div_ceil(CHUNK) {
        let Some(layer) = by_id(&chunk_id(i, k)).as_ref().and_then(layer_in) else {
            continue;
        };
        let groups = layer.children();
        for j in 0..groups.length() {
            let Some(g) = groups.item(j) else { continue };
            if k * CHUNK + (j as usize) < want {
                let _ = g.remove_attribute("display");
            } else {
                set(&g, "display", "none");
            }
        }
    }
}

/// Makes the children of `g`, the page's copy of the markup `old`, those of `new`: only the
/// elements that changed are put in or taken out (see [`crate::patch`]); all of them when the
/// page's copy is new or not what `old` says.
fn patch_children(g: &Element, old: &str, new: &str, fresh: bool) {
    let planned = (!fresh)
        .then(|| Some((patch::elements(old)?, patch::elements(new)?)))
        .flatten()
        .and_then(|(o, n)| Some((o.len(), patch::plan(&o, &n)?, n)));
    let kids = g.children();
    let Some((count, plan, new_els)) =
        planned.filter(|(count, ..)| kids.length() as usize == *count)
    else {
        g.set_inner_html(new);
        return;
    };
    // The old elements, found before anything moves.
    let old_els: Vec<Option<Element>> = (0..count).map(|i| kids.item(i as u32)).collect();
    for (before, range) in &plan.insert {
        let markup = new_els[range.clone()].concat();
        let _ = match before.and_then(|b| old_els.get(b).cloned().flatten()) {
            Some(el) => el.insert_adjacent_html("beforebegin", &markup),
            None => g.insert_adjacent_html("beforeend", &markup),
        };
    }
    for el in plan
        .remove
        .iter()
        .filter_map(|&i| old_els.get(i).cloned().flatten())
    {
        el.remove();
    }
}

/// Brings the page's copy of `pic` to `frame`; true when that copy was new.
pub(super) fn apply(
    page: &Element,
    pic: &Rc<Picture>,
    frame: &StepFrame,
    shown: &mut Shown,
) -> bool {
    let Ok(Some(svg)) = page.query_selector("#ls-timeline") else {
        return false;
    };
    let mut fresh = false;
    let key = Some(pic.key);
    // A copy of the picture the page has not seen yet (a new picture, or yew put it in again).
    let mark = format!("{:?}", pic.key);
    if shown.picture != key || svg.get_attribute("data-shown").as_deref() != Some(mark.as_str()) {
        set(&svg, "data-shown", &mark);
        fresh = true;
        // What the page's copy shows is unknown: yew keeps the old elements when the new
        // picture's SVG text is the same (the same run opened again by a link), with the old
        // step's groups and changing pieces in them. Every piece is set below.
        *shown = Shown {
            picture: key,
            groups: pic.groups.iter().map(Vec::len).collect(),
            live: vec![String::new(); pic.groups.len()],
            ..Shown::default()
        };
    }
    let live = &frame.live;
    if fresh || shown.dy != live.layout_dy || shown.size != (live.width, live.height) {
        // The pinned step column covers the picture under it from the lanes' headers down (not
        // the title block above them), in % of the page's height (style.css `--pin-top`).
        let top = pic
            .lanes
            .iter()
            .map(|l| l.top)
            .fold(f64::INFINITY, f64::min);
        if top.is_finite()
            && live.height > 0.0
            && let Ok(Some(pin_box)) = page.query_selector(".pin-box")
        {
            let pc = |y: f64| ((y + live.layout_dy) / live.height * 100.0).max(0.0);
            set(
                &pin_box,
                "style",
                &format!("--pin-top: {:.3}%", pc(top - 6.0)),
            );
        }
    }
    if fresh || shown.size != (live.width, live.height) {
        let (w, h) = (live.width, live.height);
        // The stack's <svg>s, and those of the pinned step column.
        if let Ok(svgs) = page.query_selector_all(":scope > svg, .pin-box > svg") {
            for k in 0..svgs.length() {
                if let Some(s) = svgs.item(k).and_then(|n| n.dyn_into::<Element>().ok()) {
                    set(&s, "width", &format!("{w:.0}"));
                    set(&s, "height", &format!("{h:.0}"));
                    set(&s, "viewBox", &format!("0 0 {w:.0} {h:.0}"));
                }
            }
        }
        shown.size = (w, h);
    }
    if fresh || shown.dy != live.layout_dy {
        let shift = format!("translate(0 {:.0})", live.layout_dy);
        if let Ok(all) = page.query_selector_all(".ls-shift") {
            for k in 0..all.length() {
                if let Some(g) = all.item(k).and_then(|n| n.dyn_into::<Element>().ok()) {
                    set(&g, "transform", &shift);
                }
            }
        }
        shown.dy = live.layout_dy;
    }
    for (i, want) in frame.shown(pic).into_iter().enumerate() {
        if fresh {
            show_all(i, pic.groups[i].len(), want);
        } else {
            let had = shown.groups[i];
            for j in want..had {
                show_group(i, j, false);
            }
            for j in had..want {
                show_group(i, j, true);
            }
        }
        shown.groups[i] = want;
        if let Some(text) = live.layers.get(i)
            && (fresh || *text != shown.live[i])
            && let Some(g) = by_id(&live_id(i)).as_ref().and_then(layer_in)
        {
            patch_children(&g, &shown.live[i], text, fresh);
            shown.live[i] = text.clone();
        }
    }
    // The hatchings' patterns lead the title block: put in once, since replacing a pattern
    // makes the browser redo everything filled with it.
    let (defs, before) = match live.before.find("</defs>") {
        Some(i) => live.before.split_at(i + "</defs>".len()),
        None => ("", live.before.as_str()),
    };
    for (id, text, was) in [
        ("ls-defs", defs, &mut shown.defs),
        ("ls-before", before, &mut shown.before),
        ("ls-after", live.after.as_str(), &mut shown.after),
    ] {
        if (fresh || text != was.as_str())
            && let Some(g) = by_id(id)
        {
            patch_children(&g, was, text, fresh);
            *was = text.to_string();
        }
    }
    let current = frame.step.checked_sub(1).and_then(|c| pic.rows.get(c));
    shown.reached = reached(pic, frame.step);
    // The pinned step column's copy of the current step's band (shown once the picture has
    // scrolled sideways and the column covers the picture's own band).
    // Its marker starts where lockstep-render's does, and a bar at the column's right edge joins
    // the outline's edges over the lanes, which may lie higher (the column's step down).
    let place = |band: Option<(f64, f64)>, left: bool| {
        band.map_or_else(
            || "display: none".to_string(),
            |(y, h)| {
                let y = y + live.layout_dy;
                let left = if left {
                    format!(
                        "; left: {:.3}%",
                        lockstep_render::layout::OUTLINE_SIDE / pic.gutter.max(1.0) * 100.0
                    )
                } else {
                    String::new()
                };
                format!(
                    "top: {:.3}%; height: {:.3}%{left}",
                    y / live.height * 100.0,
                    h / live.height * 100.0
                )
            },
        )
    };
    if let Ok(Some(mark)) = page.query_selector(".pin-current") {
        set(&mark, "style", &place(frame.outline, true));
    }
    if let Ok(Some(bar)) = page.query_selector(".pin-step") {
        set(&bar, "style", &place(frame.lanes, false));
    }
    if let Ok(Some(path)) = page.query_selector(".current-frame") {
        set(&path, "d", &frame.frame_path);
    }
    if let Ok(Some(outline)) = page.query_selector(".current-outline") {
        match current {
            Some(r) => {
                let (y, h) = crate::viewer::band(r);
                match r.ends {
                    Some((x0, x1)) => set(&outline, "data-ends", &format!("{x0:.0} {x1:.0}")),
                    None => {
                        let _ = outline.remove_attribute("data-ends");
                    }
                }
                // The row's horizontal extent, for the tests of scrolling it into view.
                match r.span {
                    Some((x0, x1)) => set(&outline, "data-span", &format!("{x0:.0} {x1:.0}")),
                    None => {
                        let _ = outline.remove_attribute("data-span");
                    }
                }
                match r.focus {
                    Some(x) => set(&outline, "data-focus", &format!("{x:.0}")),
                    None => {
                        let _ = outline.remove_attribute("data-focus");
                    }
                }
                set(&outline, "y", &format!("{y:.1}"));
                set(&outline, "width", &format!("{:.0}", live.width));
                set(&outline, "height", &format!("{h:.1}"));
            }
            None => set(&outline, "height", "0"),
        }
    }
    for (id, text) in [("ls-title", &frame.title), ("ls-desc", &frame.description)] {
        if let Some(el) = by_id(id) {
            el.set_text_content(Some(text));
        }
    }
    fresh
}

/// How many steps back from the current one the group drawing its arrow's words may start (the
/// send and the arrival of one message share a row; a row holds a few steps).
const LABEL_BACK: usize = 8;

/// While the current step's words show in a caption beside the end it happens at (`label`:
/// Some), hides the picture's own copy of them on its row: cut by the pinned step column or the
/// window's edge, it showed as a stray fragment ("-42"). Shows again what it hid before.
pub(super) fn hide_row_label(pic: &Picture, step: usize, label: Option<&str>, shown: &mut Shown) {
    for el in shown.hidden_label.drain(..) {
        let _ = el.remove_attribute("visibility");
    }
    let (Some(label), Some(row)) = (label, step.checked_sub(1).and_then(|i| pic.rows.get(i)))
    else {
        return;
    };
    let Some(layer) = LAYERS.iter().position(|n| *n == "labels") else {
        return;
    };
    let Some(groups) = pic.groups.get(layer) else {
        return;
    };
    let from = step.saturating_sub(LABEL_BACK);
    let drawn = groups
        .iter()
        .enumerate()
        .filter(|(_, s)| (from..=step).contains(*s))
        .filter_map(|(j, _)| group(layer, j));
    // A round's label is redrawn at each of its sends (it names the members sent so far), in the
    // layer's changing pieces (redlock-gc-pause #33: B's "SET lock:batch-42 …" to redis-1).
    let live = by_id(&crate::stack::live_layer_id("labels"));
    for container in drawn.chain(live) {
        let Ok(texts) = container.query_selector_all("text") else {
            continue;
        };
        for k in 0..texts.length() {
            let Some(t) = texts.item(k).and_then(|n| n.dyn_into::<Element>().ok()) else {
                continue;
            };
            let y = t
                .get_attribute("y")
                .and_then(|y| y.parse::<f64>().ok())
                .unwrap_or(f64::NAN);
            let on_row = y >= row.top - ROW_SLACK && y <= row.bottom + ROW_SLACK;
            // The picture's copy may say more: "… (sent #4)" where it arrives late.
            let same = |w: &str| {
                let w = w.trim();
                w == label
                    || w.strip_prefix(label)
                        .is_some_and(|rest| rest.starts_with(" ("))
            };
            if on_row && t.text_content().is_some_and(|w| same(&w)) {
                // With the white box drawn behind the words (it left a notch in the current
                // step's outline).
                if let Some(back) = t.previous_element_sibling().filter(|b| halo_of(b, y)) {
                    set(&back, "visibility", "hidden");
                    shown.hidden_label.push(back);
                }
                // A round's label goes on: "→ 5 (redis-1…redis-5)" on its second line was
                // left alone, cut at the window's edge.
                if let Some(more) = t.next_element_sibling().filter(|m| {
                    m.tag_name().eq_ignore_ascii_case("text")
                        && m.text_content().is_some_and(|w| w.trim().starts_with('→'))
                }) {
                    set(&more, "visibility", "hidden");
                    shown.hidden_label.push(more);
                }
                set(&t, "visibility", "hidden");
                shown.hidden_label.push(t);
            }
        }
    }
}

/// How far above or below its row's band an arrow's words may sit, in the layout's pixels (they
/// ride above the arrow, at the band's top).
const ROW_SLACK: f64 = 24.0;

/// Whether `el` is the white box lockstep-render draws behind words at `y`.
fn halo_of(el: &Element, y: f64) -> bool {
    let num = |name: &str| el.get_attribute(name).and_then(|v| v.parse::<f64>().ok());
    el.tag_name().eq_ignore_ascii_case("rect")
        && el.get_attribute("fill").as_deref() == Some("#FFFFFF")
        && matches!((num("y"), num("height")), (Some(top), Some(h)) if (top..=top + h).contains(&y))
}

/// Leaves the chunks of `pic` far above or below the scroller's window out of the page's
/// rendering (`data-far`, style.css; see [`crate::stack::far_chunks`]) and puts back those near
/// it, changing only what changed. On redlock-delayed-restart (1,405 events, 48 chunks) the
/// browser's work on each step fell by about 9 ms.
///
/// And shows or hides the sign over a window below the current step (see [`super::unreached`]):
/// both are done wherever the window may have moved.
pub(super) fn cull(scroller: &Element, page: &Element, pic: &Picture, shown: &mut Shown) {
    // Where the window and the page are on the screen, read once for both.
    let (window, drawn) = (
        scroller.get_bounding_client_rect(),
        page.get_bounding_client_rect(),
    );
    cull_chunks(&window, &drawn, pic, shown);
    super::unreached::show_unreached(scroller, (&window, &drawn), shown);
}

fn cull_chunks(window: &DomRect, drawn: &DomRect, pic: &Picture, shown: &mut Shown) {
    let height = shown.size.1;
    if shown.picture != Some(pic.key) || height <= 0.0 {
        return;
    }
    if drawn.height() <= 0.0 {
        return;
    }
    // From the screen to the layout's pixels.
    let scale = drawn.height() / height;
    let at = |y: f64| (y - drawn.top()) / scale - shown.dy;
    let far = crate::stack::far_chunks(&pic.chunks, at(window.top()), at(window.bottom()));
    for (i, (chunk, &now)) in pic.chunks.iter().zip(&far).enumerate() {
        if shown.far.get(i) != Some(&now)
            && let Some(el) = by_id(&chunk.id)
        {
            super::follow::toggle(&el, "data-far", now);
        }
    }
    shown.far = far;
}
