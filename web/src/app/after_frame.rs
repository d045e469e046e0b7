//! Work for after the browser has shown a frame: the neighbouring steps' frames computed ahead,
//! and the width of the picture the window shows measured (which only a laid-out page can tell).

use yew::prelude::*;

use super::state::{Action, AppState};
use crate::share::Chart;

/// Once the browser has shown the current frame, computes the frames of the steps next to it
/// (see [`Viewer::prefetch`]), so that the next step costs the page only its DOM update.
pub fn prefetch_after_frame(state: &AppState) {
    use wasm_bindgen::JsCast;
    use wasm_bindgen::closure::Closure;
    let (Some(viewer), Some(picture)) = (state.viewer.clone(), state.picture.clone()) else {
        return;
    };
    if state.chart != Chart::Timeline {
        return;
    }
    let Some(window) = web_sys::window() else {
        return;
    };
    // A frame callback runs before the frame is painted; a timeout set from it runs after. The
    // next step's frame first, then the previous one's, each in a task of its own.
    fn later(f: impl FnOnce() + 'static) {
        let work = Closure::once_into_js(f);
        if let Some(w) = web_sys::window() {
            let _ =
                w.set_timeout_with_callback_and_timeout_and_arguments_0(work.unchecked_ref(), 0);
        }
    }
    let after_paint = Closure::once_into_js(move || {
        later(move || {
            let pos = viewer.try_borrow().ok().map(|v| {
                if v.branch() == picture.key.0 {
                    v.prefetch_next(&picture, true);
                }
                v.pos()
            });
            later(move || {
                // Only if no step happened meanwhile (that step schedules its own).
                if let Ok(v) = viewer.try_borrow()
                    && v.branch() == picture.key.0
                    && Some(v.pos()) == pos
                {
                    v.prefetch_next(&picture, false);
                }
                // Then the last step's, once per picture (End), its verdict wrapped to the
                // window as it is now (measured here, after a paint, where it costs no layout).
                later(move || {
                    if let Ok(v) = viewer.try_borrow()
                        && v.branch() == picture.key.0
                    {
                        if let Some(w) = super::dom::seen_width(picture.page_width().into()) {
                            v.set_seen_width(Some(w));
                        }
                        v.prefetch_last(&picture);
                    }
                });
            });
        });
    });
    let _ = window.request_animation_frame(after_paint.unchecked_ref());
}

/// At the last step, tells the state how much of the picture's width the timeline's window
/// shows, if that changed (a link opened at the end, a new zoom or window size): the picture's
/// verdict under the run wraps to it. Meant for after a render; mid-run the measuring waits for
/// idle time (`prefetch_after_frame`), where it lays nothing out.
pub fn measure_seen(state: &UseReducerHandle<AppState>) {
    let (Some(viewer), Some(picture)) = (&state.viewer, &state.picture) else {
        return;
    };
    let Ok(v) = viewer.try_borrow() else {
        return;
    };
    if state.chart != Chart::Timeline || !v.at_end() {
        return;
    }
    if let Some(w) = super::dom::seen_width(picture.page_width().into())
        && v.seen_width().is_none_or(|old| (old - w).abs() >= 1.0)
    {
        drop(v);
        state.dispatch(Action::Seen(w));
    }
}
