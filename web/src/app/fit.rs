//! Presenter mode's strip under the timeline (the explanation, the verdict, the legend) keeps one
//! height and one type size for the whole run, so neither the timeline's bottom edge nor the
//! words jump from one step to the next: when a run opens (or the window changes size) every
//! step's explanation is measured in a hidden copy of its panel, and the panel gets the largest
//! type (style.css `--fit`) that fits them all, floored at a size readable from the back of a
//! room; the strip grows, for the whole run, when some step cannot fit even at that size.

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
/// The least type size of the strip's words, in px: readable on a projector from the back.
const FLOOR_PX: f64 = 16.0;
/// The same beside the lease chart, where the strip is a narrow column that cannot grow (the
/// page would scroll, the verdict off the screen): some runs' steps (consensus-session-suspended)
/// need it on a 1280x720 projector.
const BESIDE_FLOOR_PX: f64 = 14.0;

/// The least type size for the strip as the page lays it out now.
fn floor_px(doc: &Document) -> f64 {
    if beside(doc) {
        BESIDE_FLOOR_PX
    } else {
        FLOOR_PX
    }
}

/// Whether the strip stands beside the picture (the lease chart) rather than under it.
fn beside(doc: &Document) -> bool {
    doc.query_selector(".timeline-scroller.lease")
        .ok()
        .flatten()
        .is_some()
}
/// The legend (folded on a projector) shrinks as before, a panel at a time, to this scale.
const LEGEND: (&str, f64) = (".presenter .side > .legend", 0.55);

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
    /// The legend's words when it was last fitted (a step's legend names only what it has
    /// drawn, so it changes as the run goes on), and the scale each of its versions so far was
    /// fitted at: a run's legend has a few versions and comes back to them ("message still in
    /// the network" comes and goes), and measuring one lays the page out in the middle of a step.
    legend_words: String,
    legend_scales: Vec<(String, f64)>,
    /// The strip's height when some step needs it taller than its own (style.css), in px; 0
    /// when every step fits.
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
            // The legend again when its entries change (rarely: a few times a run), so a
            // longer legend is not cut at the strip's bottom.
            f.legend_words = fit_legend_again(&doc, &f.legend_words, &mut f.legend_scales);
            f
        }
        None => {
            let mut f = measure(&v, key, &side, &expl, &verdict, floor_px(&doc));
            f.legend_words = fit_legend_again(&doc, "", &mut f.legend_scales);
            f
        }
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

/// Measures every step's explanation, and the verdict at the end and now, in hidden copies of
/// their panels; chooses each panel's one scale and how far the strip must grow.
fn measure(
    v: &Viewer,
    key: String,
    side: &HtmlElement,
    expl: &HtmlElement,
    verdict: &HtmlElement,
    floor: f64,
) -> Fitted {
    // The strip at its own height: the panels' boxes as the step will have them.
    let _ = side.style().remove_property("height");
    let steps = explanations(v);
    let (explanation, need_e) = fit_all(
        expl,
        steps.iter().map(String::as_str),
        least(floor, EXPLANATION.1),
    );
    let ended = VerdictWords::of(v, v.final_verdict(), true);
    let (verdict_scale, need_v) = fit_all(
        verdict,
        [
            verdict_markup(&ended).as_str(),
            verdict.inner_html().as_str(),
        ],
        least(floor, VERDICT.1),
    );
    Fitted {
        key,
        explanation,
        verdict: verdict_scale,
        verdict_words: verdict.text_content().unwrap_or_default(),
        legend_words: String::new(),
        legend_scales: Vec::new(),
        height: {
            let grow = need_e.max(need_v);
            if grow > 0.0 {
                f64::from(side.offset_height()) + grow
            } else {
                0.0
            }
        },
    }
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

/// The largest scale (down to `least`) at which every one of `contents` fits `panel`'s box, and
/// how many px taller the box must be for the one that fits least at that scale (0 when all
/// fit).
fn fit_all<'a>(
    panel: &HtmlElement,
    contents: impl IntoIterator<Item = &'a str>,
    least: f64,
) -> (f64, f64) {
    let Some(probe) = probe(panel) else {
        return (1.0, 0.0);
    };
    let mut scale: f64 = 1.0;
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

/// A hidden copy of `panel`, as wide and tall as it, beside it in the strip (so the same rules
/// style it), to lay words out in without showing them.
fn probe(panel: &HtmlElement) -> Option<HtmlElement> {
    let copy = panel.clone_node().ok()?.dyn_into::<HtmlElement>().ok()?;
    for name in ["aria-live", "aria-label", "data-testid"] {
        let _ = copy.remove_attribute(name);
    }
    let _ = copy.set_attribute("aria-hidden", "true");
    let rect = panel.get_bounding_client_rect();
    let _ = copy.set_attribute(
        "style",
        &format!(
            "position: absolute; visibility: hidden; left: 0; top: 0; flex: none; width: {:.2}px; height: {:.2}px",
            rect.width(),
            rect.height()
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

/// Fits the legend when its words are not `fitted` (those it was last fitted for); returns
/// its words now.
fn fit_legend_again(doc: &Document, fitted: &str, scales: &mut Vec<(String, f64)>) -> String {
    let Some(legend) = panel(doc, LEGEND.0) else {
        return String::new();
    };
    let words = legend.text_content().unwrap_or_default();
    if words != fitted {
        match scales.iter().find(|(w, _)| *w == words) {
            Some((_, scale)) => set_fit(&legend, *scale),
            None => {
                let scale = fit_legend(&legend, LEGEND.1);
                scales.push((words.clone(), scale));
            }
        }
    }
    words
}

/// Shrinks the legend's type (not below `least`) until it fits its box; the scale chosen.
fn fit_legend(el: &HtmlElement, least: f64) -> f64 {
    set_fit(el, 1.0);
    let mut scale: f64 = 1.0;
    if overflows(el) {
        // Text takes room with the square of its size: a near first guess, then small steps.
        let (want, have) = (f64::from(el.scroll_height()), f64::from(el.client_height()));
        scale = (have / want).sqrt().clamp(least, 1.0);
        set_fit(el, scale);
    }
    while overflows(el) && scale > least {
        scale = (scale - STEP).max(least);
        set_fit(el, scale);
    }
    scale
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
