//! Your own scenario: upload a TOML file or paste it; a file that cannot be used shows its
//! `file:line:column: field: message` error from the core's loader.

use web_sys::{HtmlInputElement, HtmlTextAreaElement};
use yew::prelude::*;

use super::state::{Action, AppState};

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

#[component]
pub fn Upload(props: &UploadProps) -> Html {
    let state = &props.dispatch;
    let pasted = use_node_ref();
    let error = use_node_ref();
    {
        // A new error is brought into view (the form may sit below the fold).
        let error = error.clone();
        use_effect_with(props.error.clone(), move |e| {
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
                super::own::read("pasted.toml".into(), area.value(), move |r| {
                    s.dispatch(Action::Upload(r))
                });
            }
        })
    };
    html! {
        <details class="panel upload" id={OWN_ID} open={props.error.is_some()}>
            <summary>{ "Your own scenario" }</summary>
            <p class="hint">
                { "A TOML file in the scenario format (docs/scenario-format.md). It never leaves this page; a share link carries it, compressed." }
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
