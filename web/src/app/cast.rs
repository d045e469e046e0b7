//! The cast at step 0 of a picture wider than its window (a phone, a Redlock run in a narrow
//! embed): nothing is drawn yet and only the first lanes show, so a card names every lane and
//! its role, and says that the window follows each step sideways (a review: a newcomer on a
//! phone saw an empty box with lane A and a pill).

use std::rc::Rc;

use web_sys::HtmlElement;
use yew::prelude::*;

use super::follow::toggle;

use crate::viewer::Picture;

#[derive(Properties)]
pub struct CastProps {
    pub picture: Rc<Picture>,
}

impl PartialEq for CastProps {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.picture, &other.picture)
    }
}

/// Shown by style.css only while the scroller is `data-wide` (see `follow::show_heads`).
#[component]
pub fn Cast(props: &CastProps) -> Html {
    html! {
        <div class="cast-wrap">
            <section class="cast" aria-label="The cast">
                <h3>{ "The cast" }</h3>
                <ul>
                    { for props.picture.lanes.iter().map(|l| html! {
                        <li><b>{ &l.name }</b>{ " " }<span>{ &l.role }</span></li>
                    }) }
                </ul>
                <p>{ "Step forward (▶) to start: the window follows each step sideways." }</p>
            </section>
        </div>
    }
}

/// Hides the cast (style.css `data-no-room`) when `scroller`'s window is too short to show it
/// whole: a 375x300 embed with its controls leaves a 76 px window, in which only the card's top
/// border showed, under the lanes' headers. Measured with it in place (it is hidden, not taken
/// out).
pub(super) fn fit_cast(scroller: &HtmlElement) {
    let Some(card) = scroller.query_selector(".cast").ok().flatten() else {
        return;
    };
    let Some(wrap) = card.parent_element() else {
        return;
    };
    let window = scroller.get_bounding_client_rect();
    let bottom = window.top() + f64::from(scroller.client_top() + scroller.client_height());
    toggle(
        &wrap,
        "data-no-room",
        card.get_bounding_client_rect().bottom() > bottom + 0.5,
    );
}
