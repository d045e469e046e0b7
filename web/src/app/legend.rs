//! The legend panel: lockstep-render's legend for the current step, which the picture itself is
//! drawn without (so it can be drawn larger in the width the page has). Each entry shows its
//! swatch as lockstep-render drew it (a window onto the drawn legend, so nothing is drawn twice)
//! and its words as text that wraps to the panel. Redrawn only when the legend changes, not on
//! every step.

use std::rc::Rc;

use yew::prelude::*;

use crate::viewer::LegendArt;

/// The id of the drawn legend the swatches show windows of.
const ART_ID: &str = "ls-legend-art";

#[derive(Properties)]
pub struct LegendProps {
    pub art: Rc<LegendArt>,
    /// Start folded (a phone; presenter mode on a projector, where the strip under the timeline
    /// gives its room to the explanation and the verdict, and the unfolded legend lies over the
    /// picture's corner).
    pub folded: bool,
}

impl PartialEq for LegendProps {
    fn eq(&self, other: &Self) -> bool {
        // The viewer keeps one drawing while the steps' legends are alike.
        Rc::ptr_eq(&self.art, &other.art) && self.folded == other.folded
    }
}

#[component]
pub fn Legend(props: &LegendProps) -> Html {
    let art = &props.art;
    if art.entries.is_empty() {
        return html! {};
    }
    let drawn = format!(
        "<svg class=\"legend-art\" width=\"0\" height=\"0\" aria-hidden=\"true\" focusable=\"false\"><g id=\"{ART_ID}\">{}</g></svg>",
        art.svg
    );
    html! {
        <details class="panel legend" aria-label="Legend" open={!props.folded}>
            <summary><h2>{ "Legend" }</h2></summary>
            { Html::from_html_unchecked(AttrValue::from(drawn)) }
            <ul>
                { for art.entries.iter().map(|(_, [x, y, w, h], words)| {
                    let swatch = format!(
                        "<svg viewBox=\"{x:.1} {y:.1} {w:.1} {h:.1}\" width=\"{w:.0}\" height=\"{h:.0}\" aria-hidden=\"true\" focusable=\"false\"><use href=\"#{ART_ID}\"/></svg>"
                    );
                    html! {
                        <li>
                            <span class="swatch">{ Html::from_html_unchecked(AttrValue::from(swatch)) }</span>
                            <span>{ words }</span>
                        </li>
                    }
                }) }
            </ul>
        </details>
    }
}
