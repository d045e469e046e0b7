//! Share and export: the link to this view, the embed snippet, the SVG of the current picture and
//! the run's JSON trace.

use std::cell::RefCell;
use std::rc::Rc;

use lockstep_render::TimeMode;
use yew::prelude::*;

use super::dom;
use crate::share::{Chart, Controls};
use crate::viewer::Viewer;

/// The buttons and the embed's controls depend on the run and its time mode and chart; only the
/// link and the snippet ([`ShareLinks`]) change with the step, which they learn from the
/// [`Redraw`] context, so a step does not render the rest of the panel.
#[derive(Properties)]
pub struct ShareProps {
    pub viewer: Rc<RefCell<Viewer>>,
    /// The branch shown (its title names its what-ifs).
    pub branch: u64,
    pub time_mode: TimeMode,
    pub chart: Chart,
    /// The play speed (an index into `SPEEDS`), which the link carries.
    pub speed: usize,
}

impl PartialEq for ShareProps {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.viewer, &other.viewer)
            && self.branch == other.branch
            && self.time_mode == other.time_mode
            && self.chart == other.chart
            && self.speed == other.speed
    }
}

/// The app's redraw count (a new one on every step), provided to the few components that follow
/// every step without their parents doing so.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Redraw(pub u64);

#[derive(Properties)]
struct LinksProps {
    viewer: Rc<RefCell<Viewer>>,
    time_mode: TimeMode,
    chart: Chart,
    controls: Controls,
    speed: usize,
}

impl PartialEq for LinksProps {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.viewer, &other.viewer)
            && self.time_mode == other.time_mode
            && self.chart == other.chart
            && self.controls == other.controls
            && self.speed == other.speed
    }
}

/// The link to this view and the embed snippet (the link names the step).
#[component]
fn ShareLinks(props: &LinksProps) -> Html {
    // Rendered again on every step: the link names the step.
    let _ = use_context::<Redraw>();
    let copied = use_state(|| None::<&'static str>);
    let (view, title) = {
        let v = props.viewer.borrow();
        let mut view = v.view(props.time_mode, props.chart);
        view.speed = props.speed;
        (view, v.title())
    };
    let link = format!("{}{}", dom::base_url("index.html"), view.to_hash());
    let mut embed_view = view;
    embed_view.controls = props.controls;
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
    html! {
        <>
            <div class="row">
                <button onclick={copy(link.clone(), "link copied")}>{ "Copy link" }</button>
                <button onclick={copy(snippet.clone(), "embed snippet copied")} data-testid="copy-embed">{ "Copy embed snippet" }</button>
            </div>
            if let Some(c) = *copied {
                <p class="hint" role="status">{ c }</p>
            }
            <label>
                <span>{ "Link to this view" }</span>
                <input type="text" readonly=true value={link} data-testid="share-link" />
            </label>
            <label>
                <span>{ "Embed snippet" }</span>
                <textarea readonly=true rows="3" data-testid="embed-snippet" value={snippet} />
            </label>
        </>
    }
}

/// The share panel, whose buttons a step does not redraw.
#[component]
pub fn ShareBar(props: &ShareProps) -> Html {
    // How much of the embed page's chrome the snippet asks for.
    let controls = use_state(|| Controls::Minimal);
    let id = props.viewer.borrow().id().to_string();
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
        let viewer = props.viewer.clone();
        let (chart, mode) = (props.chart, props.time_mode);
        let id = id.clone();
        Callback::from(move |_: MouseEvent| {
            let v = viewer.borrow();
            // The step as lockstep-render draws it, as one standalone document.
            let svg = match chart {
                Chart::Lease => v.lease_chart(mode, None, None),
                Chart::Timeline => v.step_svg(mode),
            };
            // One name per picture, so that one download does not replace another: the lease
            // chart, the to-scale timeline and a what-if branch each say so.
            let what = match (chart, mode) {
                (Chart::Lease, _) => "-lease",
                (Chart::Timeline, TimeMode::ToScale) => "-to-scale",
                (Chart::Timeline, TimeMode::Logical) => "",
            };
            if let Ok(svg) = svg {
                let name = format!("{id}{}{what}-step-{}.svg", branch_mark(&v), v.pos());
                dom::download(&name, "image/svg+xml", &svg);
            }
        })
    };
    let json_download = {
        let viewer = props.viewer.clone();
        Callback::from(move |_: MouseEvent| {
            let v = viewer.borrow();
            dom::download(
                &format!("{id}{}.json", branch_mark(&v)),
                "application/json",
                &v.trace_json(),
            );
        })
    };
    html! {
        <details class="panel share" aria-label="Share and export" open={!dom::narrow()}>
            <summary><h2>{ "Share" }</h2></summary>
            // Before the snippet it shapes (and the button that copies it).
            <label>
                <span>{ "Embed controls" }</span>
                <select data-testid="embed-controls" onchange={choose_controls}>
                    { for [(Controls::None, "none", "None: the picture only"),
                           (Controls::Minimal, "minimal", "Minimal: step buttons, zoom, a line on the step"),
                           (Controls::Full, "full", "Full: every control and the explanation")]
                        .into_iter().map(|(c, value, label)| html! {
                            <option {value} selected={*controls == c}>{ label }</option>
                        }) }
                </select>
            </label>
            <ShareLinks viewer={props.viewer.clone()} time_mode={props.time_mode} chart={props.chart}
                controls={*controls} speed={props.speed} />
            <div class="row">
                <button onclick={svg_download}>{ "Download SVG" }</button>
                <button onclick={json_download} data-testid="download-json">{ "Download JSON" }</button>
            </div>
        </details>
    }
}

/// What a download's file name adds for a what-if branch, so that it does not replace the
/// original run's.
fn branch_mark(v: &Viewer) -> &'static str {
    if v.whatifs().is_empty() {
        ""
    } else {
        "-what-if"
    }
}
