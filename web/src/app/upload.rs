//! Your own scenario: upload a TOML file or paste it; a file that cannot be used shows its
//! `file:line:column: field: message` error from the core's loader.

use web_sys::{HtmlInputElement, HtmlTextAreaElement};
use yew::prelude::*;

use super::state::{Action, AppState};
use crate::own::{line_range, pasted_line};

/// Only what the panel shows and does: a step leaves these equal, so the panel is not rendered
/// again on every step.
#[derive(Properties, PartialEq)]
pub struct UploadProps {
    pub dispatch: UseReducerDispatcher<AppState>,
    /// The located error of the last file read.
    pub error: Option<String>,
}

/// The panel's id (the picker links to it).
pub const OWN_ID: &str = "own-scenario";

/// Opens the panel and brings it into view, its heading focused.
pub fn show_own() {
    let Some(panel) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id(OWN_ID))
    else {
        return;
    };
    let _ = panel.set_attribute("open", "");
    panel.scroll_into_view();
    if let Some(summary) = panel
        .query_selector("summary")
        .ok()
        .flatten()
        .and_then(|s| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(s).ok())
    {
        let _ = summary.focus();
    }
}

/// The name a pasted scenario's errors give it (`pasted.toml:9:10: …`).
const PASTED: &str = crate::own::PASTED;

/// Selects line `line` of `area` and scrolls the box to it, a couple of lines below its top.
fn select_line(area: &HtmlTextAreaElement, line: usize) {
    let text = area.value();
    let Some((start, end)) = line_range(&text, line) else {
        return;
    };
    let _ = area.focus();
    let _ = area.set_selection_range(start, end);
    let lines = text.split('\n').count().max(1) as f64;
    let per_line = f64::from(area.scroll_height()) / lines;
    let top = ((line as f64 - 3.0) * per_line).max(0.0);
    area.set_scroll_top(top as i32);
}

#[component]
pub fn Upload(props: &UploadProps) -> Html {
    let state = &props.dispatch;
    let pasted = use_node_ref();
    let error = use_node_ref();
    {
        // A new error is brought into view (the form may sit below the fold); an error in the
        // pasted text selects its line there.
        let (error, pasted) = (error.clone(), pasted.clone());
        use_effect_with(props.error.clone(), move |e| {
            if let Some(e) = e
                && let Some(area) = pasted.cast::<HtmlTextAreaElement>()
                && let Some(line) = pasted_line(e)
            {
                select_line(&area, line);
            }
            if e.is_some()
                && let Some(el) = error.cast::<web_sys::Element>()
            {
                el.scroll_into_view();
            }
        });
    }
    let on_file = {
        let s = state.clone();
        Callback::from(move |e: Event| {
            let input: HtmlInputElement = e.target_unchecked_into();
            let Some(file) = input.files().and_then(|f| f.get(0)) else {
                return;
            };
            let name = file.name();
            let s = s.clone();
            input.set_value("");
            wasm_bindgen_futures::spawn_local(async move {
                let toml = match wasm_bindgen_futures::JsFuture::from(file.text()).await {
                    Ok(text) => text.as_string().unwrap_or_default(),
                    Err(_) => String::new(),
                };
                super::own::read(name, toml, move |r| s.dispatch(Action::Upload(r)));
            });
        })
    };
    let on_paste = {
        let s = state.clone();
        let pasted = pasted.clone();
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            if let Some(area) = pasted.cast::<HtmlTextAreaElement>() {
                let s = s.clone();
                super::own::read(PASTED.into(), area.value(), move |r| {
                    s.dispatch(Action::Upload(r))
                });
            }
        })
    };
    html! {
        <details class="panel upload" id={OWN_ID} open={props.error.is_some()}>
            <summary><h2>{ "Your own scenario" }</h2></summary>
            <p class="hint">
                { "A TOML file in the scenario format, which " }<code>{ "docs/scenario-format.md" }</code>
                { " in the lockstep source repository describes (this page is offline and does not serve it). Your file never leaves this page; a share link carries it, compressed." }
            </p>
            <label class="file">
                <span>{ "Upload a .toml file" }</span>
                <input type="file" accept=".toml,text/plain" onchange={on_file} data-testid="upload" />
            </label>
            <form onsubmit={on_paste}>
                <label>
                    <span>{ "…or paste it here" }</span>
                    <textarea ref={pasted} rows="8" spellcheck="false"
                        placeholder={"name = \"my-scenario\"\ntitle = \"…\"\n…"} />
                </label>
                <button type="submit">{ "Run it" }</button>
            </form>
            if let Some(err) = &props.error {
                <pre class="error" role="alert" data-testid="upload-error" ref={error}>{ err }</pre>
            }
        </details>
    }
}
