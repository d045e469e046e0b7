//! The cast at step 0 of a picture wider than its window (a phone, a Redlock run in a narrow
//! embed): nothing is drawn yet and only the first lanes show, so a card names every lane and
//! its role, and says that the window follows each step sideways (a review: a newcomer on a
//! phone saw an empty box with lane A and a pill).

use std::rc::Rc;

use yew::prelude::*;

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
