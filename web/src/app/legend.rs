//! The legend panel: lockstep-render's legend for the current step, which the picture itself is
//! drawn without (so it can be drawn larger in the width the page has). Each entry shows its
//! swatch as lockstep-render drew it and its words as text that wraps to the panel. Redrawn
//! only when the legend changes, not on every step, and then only the entries that come or go:
//! the list is keyed by entry, so the others' swatches stay on the page as they are.

use std::rc::Rc;

use yew::prelude::*;

use crate::viewer::LegendArt;

#[derive(Properties)]
pub struct LegendProps {
    pub art: Rc<LegendArt>,
    /// Start folded (a phone; presenter mode, where the strip under the timeline gives its room
    /// to the explanation and the verdict, and the unfolded legend lies over the picture's
    /// corner: in a third of the strip a run's twenty entries were 9-10 px).
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
    // Unfolded in presenter mode it lies over the picture: clear of the current step's row.
    let ontoggle = Callback::from(|e: Event| {
        if let Some(d) = e.target_dyn_into::<web_sys::Element>()
            && d.closest(".presenter").ok().flatten().is_some()
        {
            super::legend_place::place_legend(&d);
        }
    });
    // Step 0 has drawn nothing yet: the panel stays and says so, in a line (room kept for the
    // whole run's entries around that one sentence read as a panel that failed to load).
    html! {
        <details class="panel legend" aria-label="Legend" open={!props.folded} {ontoggle}>
            <summary><h2>{ "Legend" }</h2></summary>
            if art.entries.is_empty() {
                <p class="empty">{ "Nothing is drawn yet: each step's legend names what the picture shows by then." }</p>
            }
            <ul>
                { for art.entries.iter().map(|e| {
                    let [x, y, w, h] = e.at;
                    // The swatch's own elements, in a window onto its box (the patterns its
                    // fills name are in the picture's definitions, on the same page).
                    let swatch = format!(
                        "<svg viewBox=\"{x:.1} {y:.1} {w:.1} {h:.1}\" width=\"{w:.0}\" height=\"{h:.0}\" aria-hidden=\"true\" focusable=\"false\">{}</svg>",
                        e.svg
                    );
                    // Room kept at the bottom for an entry a later step draws (see
                    // `page_fit::legend_art`): laid out, not shown or read.
                    let ghost = e.ghost.then_some("ghost");
                    html! {
                        <li key={e.key()} class={classes!(ghost)} aria-hidden={e.ghost.then_some("true")}>
                            <span class="swatch">{ Html::from_html_unchecked(AttrValue::from(swatch)) }</span>
                            <span>{ &e.words }</span>
                        </li>
                    }
                }) }
            </ul>
        </details>
    }
}
