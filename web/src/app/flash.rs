//! A short word over the picture on what a key press did not do (Z on a picture that fits, P at
//! the last step), gone after a moment: a key that changes nothing to see otherwise looks broken
//! on the wall, and the notice bar above the run would move the picture down.

use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;
use yew::prelude::*;

use super::state::{Action, AppState, Flash};

/// How long the words stay, in ms: long enough to read a short sentence from a room's back.
const SHOWN_MS: i32 = 2500;

#[derive(Properties, PartialEq)]
pub struct FlashProps {
    pub flash: Option<Flash>,
    pub dispatch: UseReducerDispatcher<AppState>,
}

/// The words, in a live region that is always on the page (a screen reader announces what
/// comes into one that is there already, not one put in with its words).
#[component]
pub fn FlashLine(props: &FlashProps) -> Html {
    {
        let dispatch = props.dispatch.clone();
        use_effect_with(props.flash.clone(), move |flash| {
            let timer = flash.as_ref().and_then(|f| {
                let seq = f.seq;
                let done = Closure::once_into_js(move || dispatch.dispatch(Action::FlashDone(seq)));
                web_sys::window()?
                    .set_timeout_with_callback_and_timeout_and_arguments_0(
                        done.unchecked_ref(),
                        SHOWN_MS,
                    )
                    .ok()
            });
            move || {
                if let (Some(t), Some(w)) = (timer, web_sys::window()) {
                    w.clear_timeout_with_handle(t);
                }
            }
        });
    }
    html! {
        <p class="flash" role="status" aria-live="polite" data-testid="flash">
            { props.flash.as_ref().map(|f| f.text.clone()).unwrap_or_default() }
        </p>
    }
}
