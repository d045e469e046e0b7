//! Keeping the current step in view in the timeline's window: down to its row, and sideways (a
//! wide run) only when its step would leave the view, then by the least that shows it, past the
//! step column pinned at the left; the band of kept lane names, and the names of the
//! lanes out of view to either side.

use lockstep_core::sort;
use std::rc::Rc;

use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement};

use super::dom;
use super::edge_cut::head_cut;
use super::frame_dom::set;
pub(super) use crate::across::{EDGE, Extent};
use crate::across::{caption_side, off_names, sideways};
pub(super) use crate::snap::title_floor;
use crate::viewer::Picture;

/// The height the sticky row of lane names covers at the top of the timeline's window.
pub(super) const HEADS_INSET: f64 = 48.0;
/// The height the pills naming the lanes out of view cover at the bottom of a wide picture's
/// window (style.css `.lanes-off`: 0.4rem up, about 2rem tall in presenter mode).
pub(super) const PILLS_INSET: f64 = 44.0;
/// How far down the timeline's window a followed row is put (see [`keep_in_view`]): low, so the
/// story so far fills the window above it. At 0.6 a review found 40% of a projected timeline
/// blank below the current step (the steps not reached yet are not drawn).
pub(super) const ROW_PLACE: f64 = 0.75;
/// How much of the picture a row followed up the window shows above it, in the layout's pixels:
/// the row before it (the layout's lines are 32 px apart). With more, the snap away from rows
/// cut by the lane names' band took the window two rows further up (redlock-split-votes #110).
const ROW_ABOVE: f64 = 36.0;
/// How far down the window a row is put when the picture is fitted to the width (much shorter
/// than zoomed in): low, so the rows before it fill the window above it.
pub(super) const FITTED_PLACE: f64 = 0.85;

pub(super) use super::readable::mark_snug;

/// The marks the scroller also puts on the page's root (`.app` or `.embed`), for the style rules
/// of the controls and hints outside it (style.css `[data-snug]`, `[data-wide]`).
pub(super) const MIRRORED: [&str; 2] = ["data-snug", "data-wide"];

/// Sets or clears one of the [`MIRRORED`] marks on `scroller` and on the page's root. The rules
/// once looked down from the root with `:has()`, and Chromium then spent 2.5 ms of style work on
/// every step of a 1,405-event run (6.5 ms in presenter mode) checking them.
pub(super) fn mark(scroller: &Element, name: &str, on: bool) {
    toggle(scroller, name, on);
    if let Ok(Some(root)) = scroller.closest(".app, .embed") {
        toggle(&root, name, on);
    }
}

/// Where a scroller must move to show `lo..hi` (scaled, in its content's pixels) in its window
/// `at..at + size`: None when it shows already; else with its middle `place` of the way into the
/// window (0.5: centred), or its start when it is wider than the window.
pub(super) fn scroll_to_show(lo: f64, hi: f64, at: f64, size: f64, place: f64) -> Option<f64> {
    // A row that only just fits counts as out of view: the scale from page to screen pixels is
    // rounded (the scroller's sizes are whole pixels), so over a 4,000 px picture the row's edge
    // can land a pixel or two past the window's.
    if lo >= at + EDGE && hi <= at + size - EDGE {
        return None;
    }
    let to = if hi - lo > size {
        lo - 16.0
    } else {
        (lo + hi) / 2.0 - size * place
    };
    Some(to.max(0.0))
}

/// A sideways move longer than this (in screen pixels) jumps instead of gliding: a long slide
/// makes a room lose its place.
pub(super) const GLIDE_MAX: f64 = 160.0;

/// What the page knows of the row to keep in view, in the layout's pixels.
#[derive(Clone)]
pub(super) struct RowPlace {
    /// Its band, top and bottom, on the page.
    pub(super) band: (f64, f64),
    /// The y of its line, where its arrows end (a caption sits just above it, see
    /// [`caption_at`]).
    pub(super) line_y: f64,
    /// What it draws sideways.
    pub(super) extent: Extent,
    /// Its event is an arrival (see `HitRow::arrives`), and its words (see `HitRow::label`).
    pub(super) arrives: bool,
    pub(super) label: Rc<str>,
    /// The least scroll from the top the window follows the row to, in the layout's pixels (see
    /// [`title_floor`]).
    pub(super) floor: (f64, f64),
    /// Every line's band, top and bottom, in order down the page (see [`crate::snap`]).
    pub(super) lines: Rc<[(f64, f64)]>,
    /// How far below the layout's the page draws the rows (the step's `layout_dy`): the row's
    /// band and line are given with it, `lines` without.
    pub(super) dy: f64,
    /// The bottom of the lowest row drawn so far, with `dy` (see `frame_dom::reached`); None
    /// for a row picked rather than a step taken, or at the last step.
    pub(super) drawn: Option<f64>,
    /// The notes beside it, left and right, in the layout's pixels (`across::notes_near`).
    pub(super) notes: Rc<[(f64, f64)]>,
}

/// Where the current step's words go when its row is too wide for the window and they are out
/// of view (see [`crate::across::caption_side`]): a caption beside the end in view repeats them.
/// The x of that end (in page pixels) and whether the row reaches right from it; None when the
/// words show anyway.
pub(super) fn caption_at(
    scroller: &HtmlElement,
    page_width: f64,
    row: &RowPlace,
    pin: f64,
) -> Option<(f64, bool)> {
    let (drawn, width) = (
        f64::from(scroller.scroll_width()),
        f64::from(scroller.client_width()),
    );
    if row.label.is_empty() || drawn <= width + 1.0 || page_width <= 0.0 {
        return None;
    }
    let scale = drawn / page_width;
    let avail = width - pinned(scroller, pin * scale);
    let focus = row.extent.focus?;
    caption_side(row.extent.scaled(scale), avail, row.arrives).map(|right| (focus, right))
}

/// Scrolls `scroller` so that the row `row` is visible: its band, and sideways both ends of its
/// step (a Redlock run in presenter mode is wider than the screen). `pin` is the width of the
/// pinned step column, in page pixels.
///
/// Returns where the window's left edge goes (in the scroller's pixels). `anew`: the picture has
/// just been put in (a link opened): place the window even where the row shows already.
///
/// `resized`: the picture has just changed size (a zoom, presenter mode), so the old scroll
/// position means nothing: the row's middle is put this far down the window whatever (fitted to
/// the width, low: as much of the story before it above it as fits, see [`FITTED_PLACE`]).
pub(super) fn keep_in_view(
    scroller: &HtmlElement,
    page_width: f64,
    row: RowPlace,
    pin: f64,
    (glide, resized, anew): (bool, Option<f64>, bool),
) -> f64 {
    // The page is drawn at the scroller's width (or wider, on a phone).
    let drawn = f64::from(scroller.scroll_width());
    if drawn <= 0.0 || page_width <= 0.0 {
        return f64::from(scroller.scroll_left());
    }
    let scale = drawn / page_width;
    // The band of lane names above the picture (see [`heads_band`]).
    let band = heads_band(scroller);
    let (top, bottom) = (row.band.0 * scale + band, row.band.1 * scale + band);
    // The sticky lane names cover the window's top: a row under them is not in view. A row
    // followed down the run is put three quarters of the way down the window: the rows before it
    // (the story so far) show above it, rather than the blank space of the steps still to come.
    let height = f64::from(scroller.client_height());
    // A picture wider than its window names the lanes out of view in pills along the window's
    // bottom (style.css `.lanes-off`): a row under them is not in view either.
    let pills = if drawn > f64::from(scroller.client_width()) + 1.0 {
        PILLS_INSET
    } else {
        0.0
    };
    let floor = floor_at(scroller, row.floor, scale);
    let now = f64::from(scroller.scroll_top());
    let down = if let Some(place) = resized {
        Some(((top + bottom) / 2.0 - height * place).max(floor))
    } else {
        let view_top = now.max(floor) + HEADS_INSET;
        // A row above the window with rows drawn below it (a Redlock round's late answer, drawn
        // on the round's row): just far enough up to show it and the row above it, so the rows
        // below stay in view and the next step, down there again, need not move back. Put three
        // quarters down, redlock-split-votes' #110 and #111 moved the window 296 px up and down.
        let late = row
            .drawn
            .is_some_and(|d| d * scale + band > bottom + 1.0 && top < view_top + EDGE);
        if late {
            Some((top - HEADS_INSET - ROW_ABOVE * scale).max(floor))
        } else {
            scroll_to_show(
                top,
                bottom,
                view_top,
                height - HEADS_INSET - pills,
                ROW_PLACE,
            )
            .map(|to| (to - HEADS_INSET / 2.0).max(floor))
        }
        // Above the floor (a link just opened, or the title read by hand): down to it.
        .or_else(|| (now < floor - 0.5).then_some(floor))
        // In view, but the window scrolled down by hand shows more of the steps still to come
        // (blank) below it than following leaves: back to where following puts it, so the story
        // so far shows above it again (a review: after a 250 px wheel, eight steps went by with
        // the first sixteen rows out of view and 60% of the window blank).
        .or_else(|| {
            let blank = now + height - pills - (row.drawn? * scale + band);
            let to = ((top + bottom) / 2.0
                - (height - HEADS_INSET - pills) * ROW_PLACE
                - HEADS_INSET / 2.0)
                .max(floor);
            (blank > height * (1.0 - ROW_PLACE + 0.1) && to < now - 2.0).then_some(to)
        })
    };
    // Not through a row: its half under the lane names reads as a drawing fault. A step taken
    // with its row in view leaves the window where it is, unless its top edge cuts a line there:
    // stepping back from the last step, the room made under the picture goes and the browser
    // stops the window at the new end, through a line ("#60-61 │ 13000–13001 ms" of
    // redlock-gc-pause at 1280x720, a review).
    let stays = down.is_none();
    let down = down.or_else(|| (row.drawn.is_some() && now > floor + 0.5).then_some(now));
    let down = down.map(|y| {
        if y <= floor + 0.5 {
            return y;
        }
        let lines = row
            .lines
            .iter()
            .map(|&(t, b)| ((t + row.dy) * scale + band, (b + row.dy) * scale + band));
        let end = f64::from(scroller.scroll_height()) - height;
        crate::snap::snap_top(
            y,
            band,
            lines,
            (top, bottom),
            height - band - pills,
            (floor, end),
        )
    });
    let down = down.filter(|&y| !stays || (y - now).abs() > 0.5);
    let width = f64::from(scroller.client_width());
    let at = f64::from(scroller.scroll_left());
    // A step column too wide to pin that is in view (the window at the picture's left edge, as
    // step 0 leaves it) is scrolled away as a link to the step scrolls it: stepping from 0 to 1
    // in a 375 px embed kept it, 57% of the window, the step's caption over its marker.
    let column_in_view =
        pinned(scroller, pin * scale) == 0.0 && covered(scroller, pin * scale, at) > 0.5;
    let notes: Vec<_> = row
        .notes
        .iter()
        .map(|&(a, b)| (a * scale, b * scale))
        .collect();
    // Only when the picture is wider than its window.
    let across = (drawn > width + 1.0)
        .then(|| {
            sideways(
                row.extent.scaled(scale),
                (at, width, pinned(scroller, pin * scale), pin * scale),
                anew || resized.is_some() || column_in_view,
                &notes,
            )
        })
        .flatten()
        .map(|to| to.min(drawn - width));
    if down.is_none() && across.is_none() {
        return at;
    }
    let opts = web_sys::ScrollToOptions::new();
    if let Some(y) = down {
        opts.set_top(y);
    }
    if let Some(x) = across {
        opts.set_left(x);
    }
    // Glide to the step, unless the user asked for less motion or the move is long: sideways,
    // or down or up by more than the window (back to the step after scrolling away, a glide
    // took most of a second, through parts of the picture not drawn yet).
    let long = across.is_some_and(|x| (x - at).abs() > GLIDE_MAX)
        || down.is_some_and(|y| (y - now).abs() > height);
    opts.set_behavior(if !glide || long || dom::reduced_motion() {
        web_sys::ScrollBehavior::Instant
    } else {
        web_sys::ScrollBehavior::Smooth
    });
    scroller.scroll_to_with_scroll_to_options(&opts);
    across.unwrap_or(at)
}

/// Where a step moves the timeline's scroller.
// One per step, moved once into a frame callback: boxing its row would buy nothing.
#[allow(clippy::large_enum_variant)]
pub(super) enum Follow {
    /// Step 0: back to the top left (the app: to the lanes' headers, see [`title_floor`]).
    Start,
    /// A row (the page's width, the row, whether it is the last step).
    Row(f64, RowPlace, bool),
}

/// The scroll from the top that puts the floor (see [`title_floor`], in the layout's pixels) at
/// the window's top, at `scale` screen pixels to the layout's: the picture starts under the band
/// of kept lane names, which hides nothing while the picture's own names show. No further down
/// than the end of those names: on a phone the band is taller than the picture's small boxes,
/// and the first row was cut in half under it ("FCALL acquire 2 …", found by a review).
pub(super) fn floor_at(scroller: &HtmlElement, (floor, heads_end): (f64, f64), scale: f64) -> f64 {
    if floor > 0.0 {
        (floor * scale + heads_band(scroller)).min(heads_end * scale + HEADS_CLEAR)
    } else {
        0.0
    }
}

/// How far past the end of the picture's own lane header boxes the window's top stops on a
/// phone, in screen pixels: past their bottom border, and no further, since the first row's
/// words start just under it (at 4 px, [`EDGE`], "FCALL acquire 2 …" lost the tops of its
/// letters under the band at 375x667, a review).
const HEADS_CLEAR: f64 = 1.0;

/// Moves `scroller` at once to `top` and `left` (None: where it is).
pub(super) fn jump(scroller: &HtmlElement, top: Option<f64>, left: Option<f64>) {
    let opts = web_sys::ScrollToOptions::new();
    if let Some(y) = top {
        opts.set_top(y);
    }
    if let Some(x) = left {
        opts.set_left(x);
    }
    opts.set_behavior(web_sys::ScrollBehavior::Instant);
    scroller.scroll_to_with_scroll_to_options(&opts);
}

/// Shows the sticky row of lane names when the picture's own headers (at `bottom`, in page
/// pixels) are scrolled out of the scroller's window; marks the scroller as scrolled sideways
/// (the pinned step column then covers the lanes under it) and names the lanes out of view to
/// either side.
pub(super) fn show_heads(
    scroller: &HtmlElement,
    heads: &Element,
    pic: &Picture,
    page_width: f64,
    bottom: f64,
) {
    let drawn = f64::from(scroller.scroll_width());
    if drawn <= 0.0 || page_width <= 0.0 {
        return;
    }
    let scale = drawn / page_width;
    // A picture wider than its window says so (the embed shows a hint).
    let wide = scroller.scroll_width() > scroller.client_width() + 1;
    mark(scroller, "data-wide", wide);
    let at = f64::from(scroller.scroll_left());
    toggle(scroller, "data-scrolled", at > 0.5);
    toggle(
        scroller,
        "data-unpinned",
        pinned(scroller, pic.gutter * scale) == 0.0,
    );
    fit_chips(heads, pic, scale);
    // The picture starts under the band of kept names, which covers the window's top: once the
    // picture's own headers have scrolled under it, the band shows the names.
    let out = f64::from(scroller.scroll_top()) > bottom * scale - 4.0;
    if out == heads.has_attribute("hidden") {
        toggle(heads, "hidden", !out);
    }
    // The lanes out of view: left of the pinned step column, right of the window.
    let (left, right) = (
        at + pinned(scroller, pic.gutter * scale),
        at + f64::from(scroller.client_width()),
    );
    let chips = heads.children();
    // A lane paused or down says so ("A paused"): out of view, its hatching is not seen.
    let names = |keep: &dyn Fn(f64, f64) -> bool| -> Vec<String> {
        pic.lanes
            .iter()
            .enumerate()
            .filter(|(_, l)| keep(l.x * scale, if out { 0.0 } else { l.half * scale }))
            .map(|(i, l)| {
                match chips
                    .item(i as u32)
                    .and_then(|c| c.get_attribute("data-state"))
                {
                    Some(state) => format!("{} {state}", l.name),
                    None => l.name.clone(),
                }
            })
            .collect()
    };
    // A lane whose line is hidden (under the pinned step column, or past the right edge) is
    // out of view; one whose line shows near an edge is in view, its chip moved inward whole.
    let before = if wide {
        off_names(&names(&|x, h| x < left + LINE_IN || head_cut(x, h, left)))
    } else {
        None
    };
    let after = if wide {
        off_names(&names(&|x, h| x > right - LINE_IN || head_cut(x, h, right)))
    } else {
        None
    };
    // The chip of a lane named in a pill is hidden: under the pinned step column it showed cut
    // ("dis-4") or over the step numbers. Near an edge, a chip starts (or ends) at its lane's
    // line instead of being centred on it, so it shows whole.
    let width_of = |i: usize| -> f64 {
        chips
            .item(i as u32)
            .and_then(|c| c.get_attribute("data-w"))
            .and_then(|w| w.parse().ok())
            .unwrap_or(0.0)
    };
    let xs: Vec<f64> = pic.lanes.iter().map(|l| l.x * scale).collect();
    for (i, &x) in xs.iter().enumerate() {
        let Some(chip) = chips.item(i as u32) else {
            continue;
        };
        let off = wide && (x < left + LINE_IN || x > right - LINE_IN);
        let (start, end) = (wide && x < left + SLIVER, wide && x > right - SLIVER);
        // Moved inward whole, a chip must not run into its neighbour's (centred) chip: an
        // 8-lane run on a phone put "redis-1" over "redis-2". Then it is left out.
        let w = width_of(i);
        let hits =
            |j: usize| (xs[j] - x).abs() < w - CHIP_BACK + width_of(j) / 2.0 + CHIP_GAP / 2.0;
        let crowded = (start && (i + 1 < xs.len()) && hits(i + 1)) || (end && i > 0 && hits(i - 1));
        toggle(&chip, "data-off", off || crowded);
        toggle(&chip, "data-start", start);
        toggle(&chip, "data-end", end);
    }
    let Some(hints) = scroller.query_selector(".lanes-off").ok().flatten() else {
        return;
    };
    for (sel, text, arrow_first) in [(".off-left", before, true), (".off-right", after, false)] {
        let Some(el) = hints.query_selector(sel).ok().flatten() else {
            continue;
        };
        match text {
            Some(t) => {
                let t = if arrow_first {
                    format!("◀ {t}")
                } else {
                    format!("{t} ▶")
                };
                if el.text_content().as_deref() != Some(t.as_str()) {
                    el.set_text_content(Some(&t));
                }
                toggle(&el, "hidden", false);
                if arrow_first {
                    set(
                        &el,
                        "style",
                        &format!("left: {:.0}px", pinned(scroller, pic.gutter * scale) + 6.0),
                    );
                }
            }
            None => toggle(&el, "hidden", true),
        }
    }
}

/// The least the lane names' chips shrink to (style.css `--chip-fit`) so that neighbours do not
/// run into each other in a picture fitted to a narrow window; below it they may.
const CHIP_FIT_MIN: f64 = 0.5;

/// Shrinks the chips naming the lanes (the children of `heads`, in the order of `pic.lanes`)
/// until no two neighbours overlap at `scale` screen pixels to the picture's, down to
/// [`CHIP_FIT_MIN`]: an 8-lane Redlock run fitted to a 1280 px projector put "redis-1" over
/// "redis-2". Measured only when the scale changes (a zoom, the window's size), not per step.
fn fit_chips(heads: &Element, pic: &Picture, scale: f64) {
    let mark = format!("{scale:.4}");
    if heads.get_attribute("data-chip-scale").as_deref() == Some(mark.as_str()) {
        return;
    }
    set(heads, "data-chip-scale", &mark);
    let Some(style) = heads.dyn_ref::<HtmlElement>().map(HtmlElement::style) else {
        return;
    };
    let _ = style.remove_property("--chip-fit");
    let chips = heads.children();
    let widths: Vec<f64> = (0..chips.length())
        .filter_map(|i| chips.item(i))
        .filter_map(|c| c.dyn_into::<HtmlElement>().ok())
        .map(|c| f64::from(c.offset_width()))
        .collect();
    let mut lanes: Vec<(f64, f64)> = pic
        .lanes
        .iter()
        .zip(&widths)
        .map(|(l, w)| (l.x * scale, *w))
        .collect();
    sort::sort_by(&mut lanes, |a, b| a.0.total_cmp(&b.0));
    // A chip is centred on its lane: two neighbours need half of each one's width between them.
    let fit = lanes
        .windows(2)
        .map(|p| (p[1].0 - p[0].0 - CHIP_GAP) / ((p[0].1 + p[1].1) / 2.0))
        .filter(|f| f.is_finite())
        .fold(1.0_f64, f64::min)
        .max(CHIP_FIT_MIN);
    if fit < 1.0 {
        let _ = style.set_property("--chip-fit", &format!("{fit:.3}"));
    }
    // Each chip's width at that size (its type and padding scale with it), read by
    // `show_heads` at each step without laying the page out again.
    for (i, w) in widths.iter().enumerate() {
        if let Some(chip) = chips.item(i as u32) {
            set(&chip, "data-w", &format!("{:.1}", w * fit.min(1.0)));
        }
    }
}

/// The least room between two neighbouring lane chips, in screen pixels.
const CHIP_GAP: f64 = 6.0;
/// How far past its lane's line a chip moved inward reaches back (style.css `.lane-head
/// [data-start]`: 0.3rem), in screen pixels.
const CHIP_BACK: f64 = 4.8;

/// How near an edge of the window a lane's chip is moved inward rather than centred on its
/// line, in screen pixels: half the width of a long name's chip ("redis-4" in presenter type).
pub(super) const SLIVER: f64 = 64.0;

/// How far inside an edge of the window a lane's line must be to count as in view, in screen
/// pixels (the pinned step column's edge is a line of its own).
const LINE_IN: f64 = 3.0;

/// The height of the band above the picture that holds the kept lane names (the scroller's first
/// child, style.css `.lane-heads`): the names stay in it, over no part of the picture, and the
/// picture starts under it.
pub(super) fn heads_band(scroller: &HtmlElement) -> f64 {
    scroller
        .first_element_child()
        .and_then(|e| e.dyn_into::<HtmlElement>().ok())
        .map_or(0.0, |e| f64::from(e.offset_height()))
}

/// The most of the window's width the pinned step column may take (a zoomed 640 px embed's
/// column is 36% of it, its step numbers at 15 px, and stays pinned): in a narrower window (a
/// phone) it scrolls away with the picture instead (style.css `data-unpinned`), leaving the
/// lanes the room.
const PIN_MAX: f64 = 0.4;

/// How much of `scroller`'s window the step column, `width` screen pixels wide, covers at its
/// left: all of it, or nothing when it is not pinned (see [`PIN_MAX`]).
pub(super) fn pinned(scroller: &HtmlElement, width: f64) -> f64 {
    if width > f64::from(scroller.client_width()) * PIN_MAX {
        0.0
    } else {
        width
    }
}

/// How much of `scroller`'s window, its left edge at `at`, the step column `width` screen pixels
/// wide covers at its left: all of it when pinned; when not (see [`PIN_MAX`]), the part of it
/// not scrolled out of view.
pub(super) fn covered(scroller: &HtmlElement, width: f64, at: f64) -> f64 {
    let pin = pinned(scroller, width);
    if pin > 0.0 {
        pin
    } else {
        (width - at).max(0.0)
    }
}

/// Sets or removes a boolean attribute, touching the element only when it changes.
pub(super) fn toggle(el: &Element, name: &str, on: bool) {
    if on != el.has_attribute(name) {
        let _ = if on {
            el.set_attribute(name, "")
        } else {
            el.remove_attribute(name)
        };
    }
}
