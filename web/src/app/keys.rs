//! The keyboard: Right/Space/PageDown forward (what presentation clickers send), Left/PageUp back,
//! Down (or N) to the next row of the timeline and Up to the one before (past steps that share a
//! row, and a retry loop's rows one by one), J to the next notable step (past repeated retries),
//! Home/End, P play/pause (at the last step it says so rather than starting again), +/- speed,
//! T time mode, L lease chart, F presenter mode (on its layout not yet full screen, full
//! screen), Z zoom (fit the width or readable labels; on a picture that fits already it says
//! so), S scenarios,
//! B or . blanks presenter mode's screen (any key shows it again), Esc folds presenter mode's legend where it lies over the picture, else leaves presenter mode or the picker. Keys typed into a form field stay in the field (in the
//! step number box while a number is typed into it, all but a clicker's PageDown/PageUp, and
//! there ↑ ↓ step forward and back as a number box's arrows would; in the speed list, all but a
//! clicker's ← → PageDown PageUp Space).

use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::KeyboardEvent;
use yew::prelude::*;

use super::state::{Action, AppState, Zoom};
use crate::share::Chart;
use lockstep_render::TimeMode;

/// What a key does, given the state (None: the key is not ours).
pub fn action_for(key: &str, state: &AppState) -> Option<Action> {
    // A blank screen comes back on any key, as in presentation software, and does nothing else.
    if state.blank {
        return Some(Action::Blank(false));
    }
    Some(match key {
        "ArrowRight" | " " | "PageDown" => Action::Forward,
        "ArrowLeft" | "PageUp" => Action::Back,
        "Home" => Action::Home,
        "End" => Action::End,
        "ArrowDown" | "n" | "N" => Action::NextRow,
        "ArrowUp" => Action::PrevRow,
        "j" | "J" => Action::NextNotable,
        "p" | "P" => Action::TogglePlay,
        "+" | "=" => Action::Speed(state.speed + 1),
        "-" => Action::Speed(state.speed.saturating_sub(1)),
        "t" | "T" => Action::TimeMode(match state.time_mode {
            TimeMode::Logical => TimeMode::ToScale,
            TimeMode::ToScale => TimeMode::Logical,
        }),
        "l" | "L" => Action::Chart(match state.chart {
            Chart::Timeline => Chart::Lease,
            Chart::Lease => Chart::Timeline,
        }),
        "f" | "F" => Action::Presenter(!state.presenter),
        // Clickers' "blank screen" button sends B (or .), as PowerPoint and Keynote expect.
        "b" | "B" | "." if state.presenter => Action::Blank(true),
        // On a picture whose whole width shows already a zoom changes nothing to see, and stayed
        // for the next run opened, fitted at 7 px (a review): say so instead.
        "z" | "Z" if nothing_to_zoom(state) => Action::Flash(NOTHING_TO_ZOOM.to_string()),
        "z" | "Z" => Action::Zoom(state.zoom.toggled()),
        "s" | "S" => Action::ShowPicker(true),
        "Escape" if state.presenter => Action::Presenter(false),
        "Escape" if state.picking && state.viewer.is_some() => Action::ShowPicker(false),
        _ => return None,
    })
}

/// What Z says on a picture it cannot change.
pub const NOTHING_TO_ZOOM: &str = "The whole width shows already — nothing to zoom";

/// Whether Z would change nothing to see: the app's lease chart is drawn whole, presenter mode's
/// picture that fits the screen at readable labels is drawn alike at either zoom (style.css
/// `data-snug`), and the page's picture at readable labels no wider than its window has nothing
/// to fit. The embed zooms whatever its picture.
fn nothing_to_zoom(state: &AppState) -> bool {
    if state.embed {
        return false;
    }
    state.chart == Chart::Lease
        || super::dom::picture_fits(state.presenter, state.zoom == Zoom::Readable)
}

/// Whether F on presenter mode's layout should only make it full screen: a `present=1` link or a
/// reload opens the layout but not full screen (a browser allows that only in answer to a key or
/// click), and the first F then left presenter mode on the wall (a review). Where the browser
/// has no full screen to give, F leaves as before.
fn f_goes_full_screen(key: &str, state: &AppState) -> bool {
    matches!(key, "f" | "F") && state.presenter && !state.blank && super::dom::can_go_full_screen()
}

/// Whether the key belongs to the focused element rather than to the page. Only fields one types
/// into keep the keys; on a button, a checkbox or a number box the clicker's keys still step
/// (Enter keeps pressing the focused button), except Space on a control reached with the
/// keyboard, which presses it: a keyboard user who tabbed to *Show to scale* and pressed Space
/// stepped the run instead (a review). On a control clicked with the mouse, as a presenter does
/// before picking up the clicker, Space steps (see [`CLICKED`]).
fn belongs_to_focus(e: &KeyboardEvent) -> bool {
    let Some(el) = e
        .target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
    else {
        return false;
    };
    let key = e.key();
    let stepping = matches!(
        key.as_str(),
        "ArrowRight"
            | " "
            | "PageDown"
            | "ArrowLeft"
            | "PageUp"
            | "Home"
            | "End"
            | "ArrowDown"
            | "ArrowUp"
    );
    // What a presentation clicker sends: it steps wherever the focus was left.
    let clicker = matches!(
        key.as_str(),
        "ArrowRight" | "ArrowLeft" | "PageDown" | "PageUp" | " "
    );
    match el.tag_name().as_str() {
        "TEXTAREA" => true,
        // The speed list keeps ↑ ↓ and letters (Alt+↓ opens it); a presenter who picked a speed
        // (or clicked it and pressed Esc) found the clicker changing the speed, or with Space
        // opening the list, instead of stepping.
        "SELECT" => !clicker,
        "INPUT" => {
            let kind = el
                .get_attribute("type")
                .unwrap_or_default()
                .to_ascii_lowercase();
            let typed_into = !matches!(
                kind.as_str(),
                "number" | "range" | "checkbox" | "radio" | "button" | "submit" | "reset"
            );
            // The step number box keeps the keys that move its caret while a number is being
            // typed into it; clicked into and left as it was, it steps on a clicker's keys and
            // Space (which a number box cannot take), as the page does.
            let editing = kind == "number"
                && el
                    .dyn_ref::<web_sys::HtmlInputElement>()
                    .is_some_and(|i| Some(i.value()) != i.get_attribute("data-step"));
            let caret = editing && !matches!(key.as_str(), "PageDown" | "PageUp");
            let pressed =
                matches!(kind.as_str(), "checkbox" | "radio") && space_on_tabbed(&el, &key);
            typed_into || caret || pressed || !stepping
        }
        "BUTTON" | "A" | "SUMMARY" => key == "Enter" || space_on_tabbed(&el, &key),
        // The timeline, reached by the keyboard, picks a row with ↑ ↓ and jumps to it with Enter
        // (timeline.rs); clicked, it leaves ↑ ↓ to step by rows.
        _ if el
            .class_name()
            .split_whitespace()
            .any(|c| c == "timeline-scroller") =>
        {
            matches!(key.as_str(), "ArrowUp" | "ArrowDown" | "Enter")
                && el.has_attribute("data-keyboard")
        }
        _ => el.has_attribute("contenteditable"),
    }
}

thread_local! {
    /// What the mouse (or a finger) last pressed, until Tab moves the focus: a control clicked
    /// has the focus without the keyboard having put it there. (`:focus-visible` cannot tell:
    /// Chromium turns it on for the focused control at the key press itself.)
    static CLICKED: std::cell::RefCell<Option<web_sys::Element>> = const { std::cell::RefCell::new(None) };
}

/// Whether `key` is Space on a control the keyboard moved the focus to, which Space presses.
fn space_on_tabbed(el: &web_sys::Element, key: &str) -> bool {
    key == " "
        && !CLICKED.with(|c| {
            c.borrow()
                .as_ref()
                .is_some_and(|pressed| el.contains(Some(pressed)))
        })
}

/// The stepping key ↑ or ↓ stands for on the step number box (→ and ←: the number up and
/// down), or None.
fn spin_key(e: &KeyboardEvent) -> Option<&'static str> {
    let on_number_box = e
        .target()
        .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
        .is_some_and(|i| i.type_().eq_ignore_ascii_case("number"));
    match e.key().as_str() {
        "ArrowUp" if on_number_box => Some("ArrowRight"),
        "ArrowDown" if on_number_box => Some("ArrowLeft"),
        _ => None,
    }
}

/// Notes what a pointer pressed (see [`CLICKED`]).
fn note_pointer(e: &web_sys::Event) {
    let pressed = e
        .target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok());
    CLICKED.with(|c| *c.borrow_mut() = pressed);
}

/// Takes focus off a clicked control when a clicker key steps, so that Space (which the control
/// would otherwise activate on key-up) keeps stepping instead of pressing it again.
fn release_focus(e: &KeyboardEvent) {
    let target = e
        .target()
        .and_then(|t| t.dyn_into::<web_sys::HtmlElement>().ok());
    if let Some(el) = target
        && !matches!(el.tag_name().as_str(), "BODY" | "HTML")
        && !el.class_name().contains("timeline-scroller")
    {
        let _ = el.blur();
    }
}

/// Folds presenter mode's legend, which unfolded lies over the picture (style.css: the strip
/// folds it into a button); whether it did.
fn close_legend_overlay() -> bool {
    let open = web_sys::window().and_then(|w| w.document()).and_then(|d| {
        d.query_selector(".presenter .side > details.legend[open]")
            .ok()
            .flatten()
    });
    match open {
        Some(legend) => {
            let _ = legend.remove_attribute("open");
            true
        }
        None => false,
    }
}

/// Listens for keys on the document while the component lives.
#[hook]
pub fn use_keys(state: UseReducerHandle<AppState>, in_embed: bool) {
    // The listener reads the latest state through this ref.
    let latest = use_mut_ref(|| state.clone());
    *latest.borrow_mut() = state.clone();
    use_effect_with((), move |_| {
        let listener = Closure::<dyn Fn(KeyboardEvent)>::new(move |e: KeyboardEvent| {
            if e.key() == "Tab" {
                CLICKED.with(|c| c.borrow_mut().take());
            }
            if e.ctrl_key() || e.meta_key() || e.alt_key() || belongs_to_focus(&e) {
                return;
            }
            let state = latest.borrow().clone();
            // Unfolded in presenter mode, the legend lies over the picture: Esc folds it first
            // (it left presenter mode with the legend still open).
            if e.key() == "Escape" && state.presenter && close_legend_overlay() {
                e.prevent_default();
                return;
            }
            // On the step number box, ↑ and ↓ are a number box's own: a step up and down (they
            // were the page's row keys there, so Up on "spin button 7" went to step 5, a review).
            let spin = spin_key(&e);
            let Some(action) = action_for(spin.unwrap_or(&e.key()), &state) else {
                return;
            };
            if in_embed && matches!(action, Action::Presenter(_) | Action::ShowPicker(_)) {
                return;
            }
            e.prevent_default();
            if f_goes_full_screen(&e.key(), &state) {
                super::dom::full_screen(true);
                return;
            }
            let steps = matches!(
                action,
                Action::Forward | Action::Back | Action::Home | Action::End | Action::NextNotable
            );
            if steps && spin.is_none() {
                release_focus(&e);
            }
            // Opened over the picture, the legend covers its corner and the strip's end, where
            // the next step may be drawn (a review at 1280x720 found it over the current step):
            // a step folds it again.
            if state.presenter && (steps || matches!(action, Action::NextRow | Action::PrevRow)) {
                close_legend_overlay();
            }
            state.dispatch(action);
        });
        let pointer = Closure::<dyn Fn(web_sys::Event)>::new(|e: web_sys::Event| note_pointer(&e));
        let doc = web_sys::window().and_then(|w| w.document());
        if let Some(doc) = &doc {
            let _ =
                doc.add_event_listener_with_callback("keydown", listener.as_ref().unchecked_ref());
            let _ = doc.add_event_listener_with_callback_and_bool(
                "pointerdown",
                pointer.as_ref().unchecked_ref(),
                true,
            );
        }
        move || {
            if let Some(doc) = doc {
                let _ = doc.remove_event_listener_with_callback(
                    "keydown",
                    listener.as_ref().unchecked_ref(),
                );
                let _ = doc.remove_event_listener_with_callback_and_bool(
                    "pointerdown",
                    pointer.as_ref().unchecked_ref(),
                    true,
                );
            }
        }
    });
}

/// Listens for `hashchange` (a link pasted into the address bar, back and forward).
#[hook]
pub fn use_hash_change(on_change: Callback<String>) {
    use_effect_with((), move |_| {
        let listener = Closure::<dyn Fn(web_sys::Event)>::new(move |e: web_sys::Event| {
            // The hash navigated to wins over a write of the previous view's hash still
            // waiting for its frame (or already done: the event's new URL says what was asked).
            super::dom::cancel_pending_hash();
            let asked = js_sys::Reflect::get(&e, &wasm_bindgen::JsValue::from_str("newURL"))
                .ok()
                .and_then(|u| u.as_string())
                .and_then(|u| u.split_once('#').map(|(_, h)| format!("#{h}")));
            let hash = asked.unwrap_or_else(super::dom::hash);
            if hash != super::dom::hash() {
                super::dom::replace_hash(&hash);
            }
            on_change.emit(hash);
        });
        let win = web_sys::window();
        if let Some(w) = &win {
            let _ =
                w.add_event_listener_with_callback("hashchange", listener.as_ref().unchecked_ref());
        }
        move || {
            if let Some(w) = win {
                let _ = w.remove_event_listener_with_callback(
                    "hashchange",
                    listener.as_ref().unchecked_ref(),
                );
            }
        }
    });
}

/// Plays the run while `playing`, at `steps_per_second`.
#[hook]
pub fn use_player(state: UseReducerHandle<AppState>, steps_per_second: f64) {
    let playing = state.playing;
    use_effect_with((playing, (steps_per_second * 100.0) as i64), move |_| {
        let mut handle = None;
        let mut tick = None;
        if playing && let Some(w) = web_sys::window() {
            let dispatcher = state.dispatcher();
            let cb = Closure::<dyn Fn()>::new(move || dispatcher.dispatch(Action::Tick));
            let ms = (1000.0 / steps_per_second) as i32;
            handle = w
                .set_interval_with_callback_and_timeout_and_arguments_0(
                    cb.as_ref().unchecked_ref(),
                    ms,
                )
                .ok();
            tick = Some(cb);
        }
        move || {
            if let (Some(h), Some(w)) = (handle, web_sys::window()) {
                w.clear_interval_with_handle(h);
            }
            drop(tick);
        }
    });
}
