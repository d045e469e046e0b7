//! The yew app (wasm32 only): the main page and the embed page, their components, and the few
//! functions the pages' JavaScript calls.

mod after_frame;
mod branching;
mod cast;
mod controls;
mod dom;
mod edge_cut;
mod embed;
mod end_view;
mod explain;
mod fit;
mod flash;
mod follow;
mod frame_dom;
mod hover_card;
mod inspector;
mod keys;
mod lease_cut;
mod lease_pin;
mod legend;
mod legend_place;
mod notice_words;
mod own;
mod page;
mod picker;
mod readable;
mod search;
mod share_bar;
mod state;
mod step_caption;
mod timeline;
mod unreached;
mod upload;
mod whatif_menu;

use crate::catalogue;
use lockstep_core::document::TraceDocument;
use lockstep_render::{Options, TimeMode, run_svg};
use wasm_bindgen::prelude::*;

/// Starts a page in the element `#app`: `"embed"` for embed.html, anything else for the app.
#[wasm_bindgen]
pub fn start(which: &str) -> Result<(), JsError> {
    let root = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id("app"))
        .ok_or_else(|| JsError::new("the page has no #app element"))?;
    if which == "embed" {
        yew::Renderer::<embed::Embed>::with_root(root).render();
    } else {
        yew::Renderer::<page::App>::with_root(root).render();
    }
    Ok(())
}

/// The `lockstep-trace/1` JSON of a built-in scenario's run, as `lockstep run ID --format json`
/// prints it (for scripts, and for the determinism test).
#[wasm_bindgen]
pub fn trace_json(id: &str) -> Result<String, JsError> {
    let scenario =
        catalogue::load(id).ok_or_else(|| JsError::new(&format!("no built-in scenario `{id}`")))?;
    let run = lockstep_core::run(&scenario);
    let doc = TraceDocument::new(&scenario, &run.trace, &run.verdict);
    serde_json::to_string_pretty(&doc).map_err(|e| JsError::new(&e.to_string()))
}

/// The SVG timeline of a whole run of a scenario file, given as the TOML module's reply to
/// `read(file, text)` (lockstep_toml.js; for docs that script their own pages, and for the
/// render-time benchmark). `unfold_retries` draws every retry rather than folding runs of alike
/// ones into a line (as mermaid's export of the run has them all).
#[wasm_bindgen]
pub fn timeline_svg(
    read_reply: &str,
    to_scale: bool,
    unfold_retries: bool,
) -> Result<String, JsError> {
    let scenario = match crate::own::source_from_reply("scenario.toml", read_reply) {
        Ok(crate::viewer::Source::Own { scenario, .. }) => scenario,
        Ok(crate::viewer::Source::Builtin(_)) => {
            return Err(JsError::new("the reply names no scenario file"));
        }
        Err(e) => return Err(JsError::new(&e.to_string())),
    };
    let run = lockstep_core::run(&scenario);
    let options = Options {
        time_mode: if to_scale {
            TimeMode::ToScale
        } else {
            TimeMode::Logical
        },
        unfold_retries,
        ..Options::default()
    }
    .for_scenario(&scenario);
    run_svg(&scenario, &run, &options).map_err(|e| JsError::new(&e.to_string()))
}

/// A built-in scenario's run, stepped to `step`, and the time mode asked for.
fn builtin_at(
    id: &str,
    step: usize,
    to_scale: bool,
) -> Result<(crate::viewer::Viewer, TimeMode), JsError> {
    let mut viewer = crate::viewer::Viewer::open(crate::viewer::Source::Builtin(id.into()), &[])
        .map_err(|e| JsError::new(&e.to_string()))?;
    viewer.seek(step);
    let mode = if to_scale {
        TimeMode::ToScale
    } else {
        TimeMode::Logical
    };
    Ok((viewer, mode))
}

/// The SVG lockstep-render draws at step `step` of a built-in scenario's run, as the app's
/// "Download SVG" writes it (the tests compare what the page shows with it).
#[wasm_bindgen]
pub fn step_svg(id: &str, step: usize, to_scale: bool) -> Result<String, JsError> {
    let (viewer, mode) = builtin_at(id, step, to_scale)?;
    viewer
        .step_svg(mode)
        .map_err(|e| JsError::new(&e.to_string()))
}

/// The SVG of step `step` of a built-in scenario's run as the app's timeline shows it: as
/// [`step_svg`] draws it, without the legend column the page shows in a panel (the tests compare
/// what the page shows with it).
#[wasm_bindgen]
pub fn shown_step_svg(id: &str, step: usize, to_scale: bool) -> Result<String, JsError> {
    let (viewer, mode) = builtin_at(id, step, to_scale)?;
    viewer
        .shown_step_svg(mode)
        .map_err(|e| JsError::new(&e.to_string()))
}

/// What every row of a built-in scenario's picture draws sideways, as JSON, in the layout's
/// pixels: `[{step, span, ends, words, focus}]` (`span`, `ends` and `words` are `[left, right]`
/// or null), and the step column's right edge (`gutter`) and the page's width. The tests check
/// the timeline's sideways following against it.
#[wasm_bindgen]
pub fn step_rows(id: &str, to_scale: bool) -> Result<String, JsError> {
    let (viewer, mode) = builtin_at(id, 0, to_scale)?;
    let picture = viewer
        .picture(mode)
        .map_err(|e| JsError::new(&e.to_string()))?;
    // Written by hand: serde_json's `json!` added 16 KB to the wasm for a test's helper.
    let pair = |p: Option<(f64, f64)>| p.map_or("null".to_string(), |(a, b)| format!("[{a},{b}]"));
    let rows: Vec<String> = picture
        .rows
        .iter()
        .map(|r| {
            format!(
                "{{\"step\":{},\"span\":{},\"ends\":{},\"words\":{},\"focus\":{}}}",
                r.step,
                pair(r.span),
                pair(r.ends),
                pair(r.words),
                r.focus.map_or("null".to_string(), |f| f.to_string())
            )
        })
        .collect();
    Ok(format!(
        "{{\"rows\":[{}],\"gutter\":{},\"width\":{}}}",
        rows.join(","),
        picture.gutter,
        picture.page_width()
    ))
}
