//! Presenter mode's strip under the timeline (the explanation, the verdict, the legend) keeps one
//! height and one type size for the whole run, so neither the timeline's bottom edge nor the
//! words jump from one step to the next: when a run opens (or the window changes size) every
//! step's explanation is measured in a hidden copy of its panel. The type is slide-sized for the
//! screen's height ([`target_px`]), and the strip only as tall as the longest words need at that
//! size, so the picture gets the rest of the height (at 1280x720 the strip was kept at a quarter
//! of the screen with its panels 60% empty at most steps while the timeline showed six rows);
//! where the words need more than the strip's own height (style.css), the panel gets the largest
//! type that fits them all, floored at a size readable from the back of a room, and the strip
//! grows, for the whole run, when some step cannot fit even at that size.

use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::JsCast;
use web_sys::{Document, HtmlElement};
use yew::prelude::*;

use super::explain::VerdictWords;
use crate::viewer::Viewer;

/// The explanation's and the verdict's panels, and the type size (at `--fit: 1`, in px: style.css
/// 1.6rem and 1.4rem) each may not shrink below.
const EXPLANATION: (&str, f64) = (".presenter .side > .explanation", 25.6);
const VERDICT: (&str, f64) = (".presenter .side > .verdict", 22.4);
/// The least type size of the strip's words on a 1080 px tall screen, in px: readable on a
/// projector from the back. A shorter screen, which the projector shows as large, has it that
/// much smaller, to [`SHORT_FLOOR_PX`]: at 16 px consensus-session-suspended's longest step kept
/// the strip at 42% of a 1024x768 projector for the whole run, the picture showing nine rows.
const FLOOR_PX: f64 = 16.0;
/// The least type size of the strip's words on any screen, in px.
const SHORT_FLOOR_PX: f64 = 13.0;
/// The same beside the lease chart, where the strip is a narrow column that cannot grow (the
/// page would scroll, the verdict off the screen): some runs' steps (consensus-session-suspended)
/// need it on a 1280x720 projector.
const BESIDE_FLOOR_PX: f64 = 14.0;

/// The least type size for the strip as the page lays it out now.
fn floor_px(doc: &Document) -> f64 {
    if beside(doc) {
        BESIDE_FLOOR_PX
    } else {
        (FLOOR_PX * screen_height() / 1080.0).clamp(SHORT_FLOOR_PX, FLOOR_PX)
    }
}

/// The window's height, in CSS px.
fn screen_height() -> f64 {
    web_sys::window()
        .and_then(|w| w.inner_height().ok())
        .and_then(|h| h.as_f64())
        .unwrap_or(720.0)
}

/// Whether the strip stands beside the picture (the lease chart) rather than under it.
fn beside(doc: &Document) -> bool {
    doc.query_selector(".timeline-scroller.lease")
        .ok()
        .flatten()
        .is_some()
}
/// How much smaller each try after the first guess makes the type.
const STEP: f64 = 0.02;

/// The scales chosen for a run, and what they were chosen for.
#[derive(Clone, PartialEq)]
struct Fitted {
    /// The run, its branch and mode, and the window's size.
    key: String,
    explanation: f64,
    verdict: f64,
    /// The verdict's words when it was last checked (see [`fit_strip`]).
    verdict_words: String,
    /// The strip's height, in px, for the longest words (shorter or taller than its own in
    /// style.css); 0 to keep its own.
    height: f64,
}

/// How many fits are kept (step 0's wider explanation is one, the lease chart's strip another).
const KEPT: usize = 4;

thread_local! {
    static FITTED: RefCell<Vec<Fitted>> = const { RefCell::new(Vec::new()) };
    static VIEWER: RefCell<Option<Rc<RefCell<Viewer>>>> = const { RefCell::new(None) };
}

/// Fits the strip to the run being shown: measures every step once per run and window size,
/// then sets the chosen scales (a step needs nothing more).
pub fn fit_strip() {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let Some(viewer) = VIEWER.with(|v| v.borrow().clone()) else {
        return;
    };
    let (Some(expl), Some(verdict)) = (panel(&doc, EXPLANATION.0), panel(&doc, VERDICT.0)) else {
        return;
    };
    let Some(side) = expl
        .parent_element()
        .and_then(|e| e.dyn_into::<HtmlElement>().ok())
    else {
        return;
    };
    let v = viewer.borrow();
    let key = run_key(&v, &doc);
    let known = FITTED.with(|f| f.borrow().iter().find(|f| f.key == key).cloned());
    let fitted = match known {
        Some(mut f) => {
            // The verdict so far of a step between the start and the end may say more than
            // either (a rare run): shrink it then, once, for the rest of the run. Only when its
            // words change: measuring lays the page out, which a step should not wait for.
            let words = verdict.text_content().unwrap_or_default();
            if words != f.verdict_words {
                if let Some(scale) =
                    shrink_current(&verdict, f.verdict, least(floor_px(&doc), VERDICT.1))
                {
                    f.verdict = scale;
                }
                f.verdict_words = words;
            }
            f
        }
        None => measure(
            &v,
            key,
            &side,
            &expl,
            &verdict,
            floor_px(&doc),
            beside(&doc),
        ),
    };
    set_fit(&expl, fitted.explanation);
    set_fit(&verdict, fitted.verdict);
    if fitted.height > 0.0 {
        let height = format!("{:.0}px", fitted.height);
        let style = side.style();
        if style.get_property_value("height").ok().as_deref() != Some(height.as_str()) {
            let _ = style.set_property("height", &height);
        }
    } else {
        let _ = side.style().remove_property("height");
    }
    FITTED.with(|f| {
        let mut f = f.borrow_mut();
        f.retain(|k| k.key != fitted.key);
        f.insert(0, fitted);
        f.truncate(KEPT);
    });
}

fn panel(doc: &Document, selector: &str) -> Option<HtmlElement> {
    doc.query_selector(selector)
        .ok()
        .flatten()
        .and_then(|e| e.dyn_into::<HtmlElement>().ok())
}

/// What the scales depend on: the run (its branch: a what-if changes the words), the strip's
/// layout (the lease chart puts it beside the picture; step 0 shows no verdict, so the
/// explanation is wider) and the window's size. Read without laying the page out.
fn run_key(v: &Viewer, doc: &Document) -> String {
    let (w, h) = web_sys::window()
        .map(|w| {
            let n = |x: Result<wasm_bindgen::JsValue, _>| x.ok().and_then(|x| x.as_f64());
            (n(w.inner_width()), n(w.inner_height()))
        })
        .unwrap_or_default();
    let beside = beside(doc);
    format!(
        "{} {} {} {beside} {} {w:?}x{h:?}",
        v.id(),
        v.branch(),
        v.total(),
        v.pos() == 0
    )
}

/// The strip's type for the screen, in px: about a fiftieth of its height (21.6 px at 1080),
/// never below [`FLOOR_PX`] (a 1280x720 or 1366x768 projector), unless some step's words need
/// it to be to fit the strip's own height (see [`floor_px`]).
fn target_px() -> f64 {
    (screen_height() / 50.0).max(FLOOR_PX)
}

/// Measures every step's explanation, and the verdict at the end and now, in hidden copies of
/// their panels; chooses each panel's one scale and the strip's height.
fn measure(
    v: &Viewer,
    key: String,
    side: &HtmlElement,
    expl: &HtmlElement,
    verdict: &HtmlElement,
    floor: f64,
    beside: bool,
) -> Fitted {
    // The strip at its own height: the panels' boxes as the step will have them.
    let _ = side.style().remove_property("height");
    let steps = explanations(v);
    let ended = VerdictWords::of(v, v.final_verdict(), true);
    let verdicts = [verdict_markup(&ended), verdict.inner_html()];
    let words = verdict.text_content().unwrap_or_default();
    // Beside the lease chart the strip is a column as tall as the chart: its type as large as
    // fits there.
    let target = if beside { EXPLANATION.1 } else { target_px() };
    let (start_e, start_v) = (least(target, EXPLANATION.1), least(target, VERDICT.1));
    let own = f64::from(side.offset_height());
    let need = tallest(expl, steps.iter().map(String::as_str), start_e).max(tallest(
        verdict,
        verdicts.iter().map(String::as_str),
        start_v,
    ));
    if target < EXPLANATION.1 && need > 0.0 && need <= own {
        return Fitted {
            key,
            explanation: start_e,
            verdict: start_v,
            verdict_words: words,
            height: need.ceil(),
        };
    }
    let (explanation, need_e) = fit_all(
        expl,
        steps.iter().map(String::as_str),
        (start_e, least(floor, EXPLANATION.1)),
    );
    let (verdict_scale, need_v) = fit_all(
        verdict,
        verdicts.iter().map(String::as_str),
        (start_v, least(floor, VERDICT.1)),
    );
    Fitted {
        key,
        explanation,
        verdict: verdict_scale,
        verdict_words: words,
        height: {
            let grow = need_e.max(need_v);
            if grow > 0.0 { own + grow } else { 0.0 }
        },
    }
}

/// The height `panel` needs for the tallest of `contents` at `scale`, in px (0 when it cannot
/// be measured).
fn tallest<'a>(
    panel: &HtmlElement,
    contents: impl IntoIterator<Item = &'a str>,
    scale: f64,
) -> f64 {
    let Some(probe) = probe(panel, false) else {
        return 0.0;
    };
    set_fit(&probe, scale);
    let mut most: f64 = 0.0;
    for content in contents {
        probe.set_inner_html(content);
        most = most.max(f64::from(probe.offset_height()));
    }
    probe.remove();
    // A pixel for rounding (a panel's scroll height is whole pixels, its words' not).
    if most > 0.0 { most + 2.0 } else { 0.0 }
}

/// The explanation panel's words at every step, as the page draws them (web/src/app/explain.rs).
fn explanations(v: &Viewer) -> Vec<String> {
    let total = v.total();
    let mut all = Vec::with_capacity(total + 1);
    all.push(format!(
        "<h2 class=\"step-head\">Step 0 of {total}</h2><p class=\"why\">{}</p><p class=\"hint\">Press → or Space, or tap ▶, to take the first step.</p>",
        escape(&v.scenario().summary)
    ));
    for (i, e) in v.full_trace().events.iter().enumerate() {
        all.push(format!(
            "<h2 class=\"step-head\"><span class=\"step-no\">Step {} of {total}</span><span class=\"at\">{} ms</span></h2><p class=\"label\">{}</p><p class=\"why\">{}</p>",
            i + 1,
            e.time_ms,
            escape(&e.label),
            escape(&e.explanation)
        ));
    }
    all
}

/// The verdict panel's words (web/src/app/explain.rs `VerdictPanel`).
fn verdict_markup(w: &VerdictWords) -> String {
    let facts: String = w
        .facts
        .iter()
        .map(|(line, class)| match class {
            Some(c) => format!("<li class=\"{c}\">{}</li>", escape(line)),
            None => format!("<li>{}</li>", escape(line)),
        })
        .collect();
    let expect = w.expect.as_ref().map_or(String::new(), |(line, mismatch)| {
        let class = if *mismatch {
            "expect mismatch"
        } else {
            "expect"
        };
        format!("<p class=\"{class}\">{}</p>", escape(line))
    });
    format!(
        "<h2>{}</h2><p class=\"outcome\"><span class=\"symbol\">{}</span><span>{}</span></p><ul class=\"facts\">{facts}</ul>{expect}",
        w.title,
        w.symbol,
        escape(&w.headline)
    )
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The least scale of a panel whose type is `base_px` at scale 1, for a floor of `floor_px`.
fn least(floor_px: f64, base_px: f64) -> f64 {
    (floor_px / base_px).min(1.0)
}

/// The largest scale (from `start` down to `least`) at which every one of `contents` fits
/// `panel`'s box, and how many px taller the box must be for the one that fits least at that
/// scale (0 when all fit).
fn fit_all<'a>(
    panel: &HtmlElement,
    contents: impl IntoIterator<Item = &'a str>,
    (start, least): (f64, f64),
) -> (f64, f64) {
    let Some(probe) = probe(panel, true) else {
        return (start, 0.0);
    };
    let mut scale: f64 = start;
    let mut need: f64 = 0.0;
    for content in contents {
        probe.set_inner_html(content);
        set_fit(&probe, scale);
        if !overflows(&probe) {
            continue;
        }
        // Text takes room with the square of its size: the first guess is near, a few small
        // steps finish it.
        let (want, have) = (
            f64::from(probe.scroll_height()),
            f64::from(probe.client_height()),
        );
        scale = (scale * (have / want).sqrt()).clamp(least, scale);
        loop {
            set_fit(&probe, scale);
            if !overflows(&probe) || scale <= least {
                break;
            }
            scale = (scale - STEP).max(least);
        }
        if overflows(&probe) {
            need = need.max(f64::from(probe.scroll_height() - probe.client_height()) + 2.0);
        }
    }
    probe.remove();
    (scale, need)
}

/// A hidden copy of `panel`, as wide as it and as tall (`fixed`) or as its words, beside it in
/// the strip (so the same rules style it), to lay words out in without showing them.
fn probe(panel: &HtmlElement, fixed: bool) -> Option<HtmlElement> {
    let copy = panel.clone_node().ok()?.dyn_into::<HtmlElement>().ok()?;
    for name in ["aria-live", "aria-label", "data-testid"] {
        let _ = copy.remove_attribute(name);
    }
    let _ = copy.set_attribute("aria-hidden", "true");
    let rect = panel.get_bounding_client_rect();
    let height = if fixed {
        format!("{:.2}px", rect.height())
    } else {
        "auto".into()
    };
    let _ = copy.set_attribute(
        "style",
        &format!(
            "position: absolute; visibility: hidden; left: 0; top: 0; flex: none; width: {:.2}px; height: {height}; max-height: none",
            rect.width(),
        ),
    );
    panel.parent_node()?.append_child(&copy).ok()?;
    Some(copy)
}

/// A smaller scale for the verdict now shown, down to `least`, when it does not fit at `scale`
/// (None: it does).
fn shrink_current(verdict: &HtmlElement, scale: f64, least: f64) -> Option<f64> {
    set_fit(verdict, scale);
    if !overflows(verdict) {
        return None;
    }
    let mut s = scale;
    while s > least {
        s = (s - STEP).max(least);
        set_fit(verdict, s);
        if !overflows(verdict) {
            break;
        }
    }
    Some(s)
}

/// Whether `el`'s content overflows its box (a pixel of rounding allowed).
fn overflows(el: &HtmlElement) -> bool {
    el.scroll_height() > el.client_height() + 1
}

/// Sets `el`'s `--fit`, keeping the rest of its inline style (a probe's box).
fn set_fit(el: &HtmlElement, scale: f64) {
    let style = el.style();
    let value = format!("{scale:.3}");
    // An unchanged value is not set again: the page need not be styled again for it.
    if style.get_property_value("--fit").ok().as_deref() != Some(value.as_str()) {
        let _ = style.set_property("--fit", &value);
    }
}

/// Fits the strip after every redraw in presenter mode, and when the window changes size.
#[hook]
pub fn use_fitted_strip(presenter: bool, rev: u64, viewer: Option<Rc<RefCell<Viewer>>>) {
    use_effect_with((presenter, rev), move |(on, _)| {
        VIEWER.with(|v| *v.borrow_mut() = viewer);
        if *on {
            fit_strip();
        } else {
            // The strip's grown height belongs to presenter mode.
            FITTED.with(|f| f.borrow_mut().clear());
            if let Some(side) = web_sys::window()
                .and_then(|w| w.document())
                .and_then(|d| panel(&d, ".side"))
            {
                let _ = side.style().remove_property("height");
            }
        }
    });
    use_effect_with(presenter, move |on| {
        let listener = on.then(|| {
            let f = wasm_bindgen::closure::Closure::<dyn Fn()>::new(fit_strip);
            if let Some(w) = web_sys::window() {
                let _ = w.add_event_listener_with_callback("resize", f.as_ref().unchecked_ref());
            }
            f
        });
        move || {
            if let (Some(f), Some(w)) = (listener, web_sys::window()) {
                let _ = w.remove_event_listener_with_callback("resize", f.as_ref().unchecked_ref());
            }
        }
    });
}
