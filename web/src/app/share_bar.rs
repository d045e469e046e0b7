//! Share and export: the link to this view, the embed snippet, the SVG of the current picture and
//! the run's JSON trace.

use yew::prelude::*;

use super::dom;
use super::state::AppState;
use crate::share::{Chart, Controls};

#[derive(Properties, PartialEq)]
pub struct ShareProps {
    pub state: UseReducerHandle<AppState>,
}

#[component]
pub fn ShareBar(props: &ShareProps) -> Html {
    let state = &props.state;
    let copied = use_state(|| None::<&'static str>);
    // How much of the embed page's chrome the snippet asks for.
    let controls = use_state(|| Controls::Minimal);
    let Some(viewer) = &state.viewer else {
        return html! {};
    };
    let (view, id, title) = {
        let v = viewer.borrow();
        (
            v.view(state.time_mode, state.chart),
            v.id().to_string(),
            v.title(),
        )
    };
    let link = format!("{}{}", dom::base_url("index.html"), view.to_hash());
    let mut embed_view = view.clone();
    embed_view.controls = *controls;
    let snippet = format!(
        "<iframe src=\"{}{}\" title=\"lockstep: {}\" width=\"100%\" height=\"640\" style=\"border:0\" loading=\"lazy\"></iframe>",
        dom::base_url("embed.html"),
        embed_view.to_embed_hash(),
        title.replace('"', "&quot;")
    );
    let copy = |text: String, what: &'static str| {
        let copied = copied.clone();
        Callback::from(move |_: MouseEvent| {
            copied.set(Some(if dom::copy(&text) {
                what
            } else {
                "select and copy the text below"
            }));
        })
    };
    let choose_controls = {
        let controls = controls.clone();
        Callback::from(move |e: Event| {
            let Some(select) = e.target_dyn_into::<web_sys::HtmlSelectElement>() else {
                return;
            };
            controls.set(match select.value().as_str() {
                "none" => Controls::None,
                "full" => Controls::Full,
                _ => Controls::Minimal,
            });
        })
    };
    let svg_download = {
        let state = state.clone();
        let id = id.clone();
        Callback::from(move |_: MouseEvent| {
            // The step as lockstep-render draws it, as one standalone document.
            let svg = match (state.chart, &state.lease, &state.viewer) {
                (Chart::Lease, Some(l), _) => l.to_string(),
                (Chart::Timeline, _, Some(v)) => match v.borrow().step_svg(state.time_mode) {
                    Ok(svg) => svg,
                    Err(_) => return,
                },
                _ => return,
            };
            let pos = state.viewer.as_ref().map_or(0, |v| v.borrow().pos());
            dom::download(&format!("{id}-step-{pos}.svg"), "image/svg+xml", &svg);
        })
    };
    let json_download = {
        let viewer = viewer.clone();
        Callback::from(move |_: MouseEvent| {
            dom::download(
                &format!("{id}.json"),
                "application/json",
                &viewer.borrow().trace_json(),
            );
        })
    };
    html! {
        <details class="panel share" aria-label="Share and export" open={!dom::narrow()}>
            <summary><h2>{ "Share" }</h2></summary>
            <div class="row">
                <button onclick={copy(link.clone(), "link copied")}>{ "Copy link" }</button>
                <button onclick={copy(snippet.clone(), "embed snippet copied")} data-testid="copy-embed">{ "Copy embed snippet" }</button>
                <button onclick={svg_download}>{ "Download SVG" }</button>
                <button onclick={json_download} data-testid="download-json">{ "Download JSON" }</button>
            </div>
            if let Some(c) = *copied {
                <p class="hint" role="status">{ c }</p>
            }
            <label>
                <span>{ "Link to this view" }</span>
                <input type="text" readonly=true value={link} data-testid="share-link" />
            </label>
            <label>
                <span>{ "Embed controls" }</span>
                <select data-testid="embed-controls" onchange={choose_controls}>
                    { for [(Controls::None, "none", "None: the picture only"),
                           (Controls::Minimal, "minimal", "Minimal: back, forward, step"),
                           (Controls::Full, "full", "Full: every control and the explanation")]
                        .into_iter().map(|(c, value, label)| html! {
                            <option {value} selected={*controls == c}>{ label }</option>
                        }) }
                </select>
            </label>
            <label>
                <span>{ "Embed snippet" }</span>
                <textarea readonly=true rows="3" data-testid="embed-snippet" value={snippet} />
            </label>
        </details>
    }
}
