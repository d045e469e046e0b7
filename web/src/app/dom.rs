//! Small browser chores: the location hash, downloads, the clipboard, full screen. Every failure
//! is swallowed or reported, never thrown: a missing browser feature must not break the page.

use wasm_bindgen::{JsCast, JsValue};

fn window() -> Option<web_sys::Window> {
    web_sys::window()
}

/// The current location hash, with its `#`.
pub fn hash() -> String {
    window()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default()
}

/// Writes the hash without firing `hashchange`: in place for another view of the same scenario
/// (a step, a mode), and as a new history entry for another scenario, so that the browser's
/// Back returns to the one before, or to the list (a review: Back left the app).
pub fn replace_hash(hash: &str) {
    let now = self::hash();
    if hash == now {
        return;
    }
    if let Some(h) = window().and_then(|w| w.history().ok()) {
        let _ = if crate::share::scenario_of(hash) == crate::share::scenario_of(&now) {
            h.replace_state_with_url(&JsValue::NULL, "", Some(hash))
        } else {
            h.push_state_with_url(&JsValue::NULL, "", Some(hash))
        };
    }
}

thread_local! {
    /// The hash [`replace_hash_after_frame`] is about to write.
    static PENDING: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
}

/// Drops a hash write still waiting for its frame: the user navigated to a hash of their own (a
/// link opened right after a step), which the older view's hash must not overwrite.
pub fn cancel_pending_hash() {
    PENDING.with(|p| p.borrow_mut().take());
}

/// Replaces the hash once the browser has shown the current frame (`history.replaceState` takes
/// a few ms, which a step should not wait for); the last of several calls wins.
pub fn replace_hash_after_frame(hash: String) {
    use wasm_bindgen::closure::Closure;
    let already = PENDING.with(|p| p.borrow_mut().replace(hash).is_some());
    let Some(w) = window() else { return };
    if already {
        return;
    }
    let after_paint = Closure::once_into_js(move || {
        let work = Closure::once_into_js(move || {
            if let Some(h) = PENDING.with(|p| p.borrow_mut().take()) {
                replace_hash(&h);
            }
        });
        if let Some(w) = window() {
            let _ =
                w.set_timeout_with_callback_and_timeout_and_arguments_0(work.unchecked_ref(), 0);
        }
    });
    let _ = w.request_animation_frame(after_paint.unchecked_ref());
}

/// The page's URL without its hash, so links to the other page can be built.
pub fn base_url(page: &str) -> String {
    let href = window()
        .and_then(|w| w.location().href().ok())
        .unwrap_or_default();
    let no_hash = href.split('#').next().unwrap_or_default();
    match no_hash.rfind('/') {
        Some(i) => format!("{}{page}", &no_hash[..=i]),
        None => page.to_string(),
    }
}

/// Offers `text` as a file download.
pub fn download(name: &str, mime: &str, text: &str) {
    let run = || -> Result<(), JsValue> {
        let parts = js_sys::Array::of1(&JsValue::from_str(text));
        let opts = web_sys::BlobPropertyBag::new();
        opts.set_type(mime);
        let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &opts)?;
        let url = web_sys::Url::create_object_url_with_blob(&blob)?;
        let doc = window().and_then(|w| w.document()).ok_or("no document")?;
        let a: web_sys::HtmlAnchorElement = doc.create_element("a")?.dyn_into()?;
        a.set_href(&url);
        a.set_download(name);
        a.click();
        web_sys::Url::revoke_object_url(&url)?;
        Ok(())
    };
    let _ = run();
}

/// Writes `text` to the browser's console as a warning.
pub fn warn(text: &str) {
    let Some(console) =
        window().and_then(|w| js_sys::Reflect::get(&w, &JsValue::from_str("console")).ok())
    else {
        return;
    };
    call_quietly(&console, "warn", Some(&JsValue::from_str(text)));
}

/// Calls a promise-returning method and ignores a rejection (so none reaches the console).
fn call_quietly(target: &JsValue, method: &str, arg: Option<&JsValue>) -> bool {
    let Ok(f) = js_sys::Reflect::get(target, &JsValue::from_str(method)) else {
        return false;
    };
    let Some(f) = f.dyn_ref::<js_sys::Function>() else {
        return false;
    };
    let result = match arg {
        Some(a) => f.call1(target, a),
        None => f.call0(target),
    };
    match result {
        Ok(p) => {
            if let Ok(p) = p.dyn_into::<js_sys::Promise>() {
                // Awaiting the promise here handles its rejection.
                wasm_bindgen_futures::spawn_local(async move {
                    let _ = wasm_bindgen_futures::JsFuture::from(p).await;
                });
            }
            true
        }
        Err(_) => false,
    }
}

/// Copies `text` to the clipboard; false when the browser does not allow it.
pub fn copy(text: &str) -> bool {
    let Some(w) = window() else { return false };
    let clipboard = w.navigator().clipboard();
    call_quietly(&clipboard, "writeText", Some(&JsValue::from_str(text)))
}

thread_local! {
    /// Presenter mode's full screen: whether it was asked for since presenter mode began (or since
    /// the page last left a full screen it had), and whether the page then went full screen.
    static FULL: std::cell::Cell<(bool, bool)> = const { std::cell::Cell::new((false, false)) };
}

/// Enters or leaves full screen, if the browser lets it.
pub fn full_screen(on: bool) {
    let Some(doc) = window().and_then(|w| w.document()) else {
        return;
    };
    if on {
        // Only in answer to a click or key: a `present=1` link opening the page may not, and
        // asking then only puts a refusal in the console.
        if let (Some(el), true) = (doc.document_element(), user_active()) {
            call_quietly(&el, "requestFullscreen", None);
            FULL.with(|f| f.set((true, f.get().1)));
        }
    } else {
        FULL.with(|f| f.set((false, false)));
        if doc.fullscreen_element().is_some() {
            call_quietly(&doc, "exitFullscreen", None);
        }
    }
}

/// Notes the page going full screen and leaving it (the `fullscreenchange` listener, see
/// [`watch_full_screen`]): once it leaves a full screen it had (the browser's own Esc), F asks
/// for it again.
fn full_screen_changed() {
    let now = window()
        .and_then(|w| w.document())
        .is_some_and(|d| d.fullscreen_element().is_some());
    FULL.with(|f| {
        let (asked, entered) = f.get();
        f.set(match (now, entered) {
            (true, _) => (asked, true),
            (false, true) => (false, false),
            // A full screen left that this presenter mode never had (one leaving as presenter
            // mode was turned on again): what was asked since stands.
            (false, false) => (asked, false),
        });
    });
}

/// Listens for `fullscreenchange` while it lives.
pub struct FullScreenWatch(Option<wasm_bindgen::closure::Closure<dyn Fn()>>);

/// Starts noting the page's full screen (see [`full_screen_changed`]).
pub fn watch_full_screen() -> FullScreenWatch {
    let listener = wasm_bindgen::closure::Closure::<dyn Fn()>::new(full_screen_changed);
    let added = window().and_then(|w| w.document()).is_some_and(|d| {
        d.add_event_listener_with_callback("fullscreenchange", listener.as_ref().unchecked_ref())
            .is_ok()
    });
    FullScreenWatch(added.then_some(listener))
}

impl Drop for FullScreenWatch {
    fn drop(&mut self) {
        if let (Some(l), Some(doc)) = (&self.0, window().and_then(|w| w.document())) {
            let _ = doc.remove_event_listener_with_callback(
                "fullscreenchange",
                l.as_ref().unchecked_ref(),
            );
        }
    }
}

/// Whether the page is not full screen, has no request for it still unanswered since presenter
/// mode began (one the browser refused, or one made as a full screen was still being left, as a
/// test found, leaves F to leave presenter mode as before; a full screen the page had and left,
/// with the browser's Esc, is asked for again, even before its `fullscreenchange` arrives), and
/// the browser can make it so (`document.fullscreenEnabled`).
pub fn can_go_full_screen() -> bool {
    let (asked, entered) = FULL.with(|f| f.get());
    if asked && !entered {
        return false;
    }
    let Some(doc) = window().and_then(|w| w.document()) else {
        return false;
    };
    // Read as a property: a browser without it (an older Safari) has no full screen to give.
    let enabled = js_sys::Reflect::get(&doc, &JsValue::from_str("fullscreenEnabled"))
        .ok()
        .and_then(|v| v.as_bool())
        .unwrap_or(false);
    enabled && doc.fullscreen_element().is_none()
}

/// Whether the timeline's whole width shows already at the zoom shown (`readable`: readable
/// labels), so that a zoom would change nothing to see: in presenter mode a picture that fits the
/// screen at readable labels (`data-snug`, readable.rs) is drawn alike at either zoom; on the page
/// a picture at readable labels fits when it is not wider than its window (`data-wide`,
/// follow.rs).
pub fn picture_fits(presenter: bool, readable: bool) -> bool {
    let Some(scroller) = html_element(".timeline-scroller:not(.lease)") else {
        return false;
    };
    if presenter {
        scroller.has_attribute("data-snug")
    } else {
        readable && !scroller.has_attribute("data-wide")
    }
}

/// Whether the page is answering a click or key press now (`navigator.userActivation`; a
/// browser without it is asked anyway).
fn user_active() -> bool {
    let Some(nav) = window().map(|w| JsValue::from(w.navigator())) else {
        return false;
    };
    match js_sys::Reflect::get(&nav, &JsValue::from_str("userActivation")) {
        Ok(ua) if ua.is_object() => js_sys::Reflect::get(&ua, &JsValue::from_str("isActive"))
            .ok()
            .and_then(|v| v.as_bool())
            .unwrap_or(true),
        _ => true,
    }
}

/// Moves the keyboard's focus to the timeline (the keys step the run from there). `quiet`: the
/// app moves it there on its own (after a step number typed into its box), so the timeline shows
/// no focus ring and does not take ↑ ↓ as the keyboard's row picker: Chromium counts a focus
/// moved after a key press as `:focus-visible`, and a 3 px ring framed presenter mode's whole
/// picture for every later step (a review). The *Skip to the run* link's focus is the keyboard
/// user's own, and shows.
pub fn focus_timeline(quiet: bool) {
    if let Some(el) = html_element(".timeline-scroller") {
        if quiet {
            // Read by the timeline's focus handler and style.css; gone when it loses the focus.
            let _ = el.set_attribute("data-quiet", "");
        } else {
            let _ = el.remove_attribute("data-quiet");
        }
        let _ = el.focus();
    }
}

/// The page's first HTML element matching `selector`.
pub(super) fn html_element(selector: &str) -> Option<web_sys::HtmlElement> {
    window()?
        .document()?
        .query_selector(selector)
        .ok()
        .flatten()?
        .dyn_into()
        .ok()
}

/// Whether the user asked for less motion.
pub fn reduced_motion() -> bool {
    window()
        .and_then(|w| {
            w.match_media("(prefers-reduced-motion: reduce)")
                .ok()
                .flatten()
        })
        .is_some_and(|m| m.matches())
}

/// Whether the page is as narrow as a phone (the side panels start folded).
pub fn narrow() -> bool {
    window()
        .and_then(|w| w.match_media("(max-width: 600px)").ok().flatten())
        .is_some_and(|m| m.matches())
}

/// Whether an embed's frame is too narrow for its picture fitted to the width to be read: at
/// 640 px fenced-gc-pause's arrow labels are 5.6 px, at 800 px 6.9 (a reviewer playing a docs
/// author called the 640x360 frame an unreadable thumbnail). With the full controls (`full`)
/// up to 1024 px: their explanation under the picture left an 800x600 frame the title block and
/// a few rows at 6 px (a review).
pub fn embed_opens_zoomed(full: bool) -> bool {
    let query = if full {
        "(max-width: 1024px)"
    } else {
        "(max-width: 720px)"
    };
    window()
        .and_then(|w| w.match_media(query).ok().flatten())
        .is_some_and(|m| m.matches())
}

/// How much of a lease chart a phone or a zoomed-in embed (`zoomed_embed`) shows across at
/// once, in the chart's pixels: it is drawn 1,040 px wide on a phone and 1,200 in the embed
/// (style.css `.timeline-scroller.lease .page`), scrolling sideways in the timeline's window.
/// None on a wider screen, where it is fitted whole.
pub fn lease_window(zoomed_embed: bool) -> Option<f64> {
    // The widths the chart is drawn at (style.css).
    let drawn = if zoomed_embed {
        1200.0
    } else if narrow() {
        1040.0
    } else {
        return None;
    };
    let shown = html_element(".timeline-scroller")
        .map(|s| f64::from(s.client_width()))
        .filter(|w| *w > 0.0)
        .or_else(|| {
            window()
                .and_then(|w| w.inner_width().ok())
                .and_then(|w| w.as_f64())
                .map(|w| w - 32.0)
        })?;
    Some(shown.min(drawn) * lockstep_render::lease::page::WIDTH / drawn)
}

/// How much of a timeline picture `page_width` px wide its window shows at once, in the picture's
/// px (the verdict under the last step wraps to it: `Viewer::set_seen_width`); None without a
/// timeline on the page (a lease chart, a picture not yet put in).
pub fn seen_width(page_width: f64) -> Option<f64> {
    let scroller = html_element(".timeline-scroller:not(.lease)")?;
    let page: web_sys::Element = scroller.query_selector(".page").ok().flatten()?;
    let drawn = page.get_bounding_client_rect().width();
    let shown = f64::from(scroller.client_width());
    (drawn > 0.0 && shown > 0.0 && page_width > 0.0).then(|| shown * page_width / drawn)
}

/// Scrolls the page (not a panel) back to its top.
pub fn scroll_page_to_top() {
    if let Some(w) = window() {
        w.scroll_to_with_x_and_y(0.0, 0.0);
    }
}

/// A performance mark, for the load-time measurement.
pub fn mark(name: &str) {
    if let Some(p) = window().and_then(|w| w.performance()) {
        let _ = p.mark(name);
    }
}

/// The page's title, as index.html gives it.
const SITE_TITLE: &str = "lockstep — why distributed locks fail, step by step";

/// Names the page after the run shown (`"Fencing tokens stop the stale write — lockstep"`), or
/// the site with none.
pub fn set_page_title(run: Option<&str>) {
    if let Some(doc) = web_sys::window().and_then(|w| w.document()) {
        doc.set_title(&match run {
            Some(run) => format!("{run} — lockstep"),
            None => SITE_TITLE.to_string(),
        });
    }
}
