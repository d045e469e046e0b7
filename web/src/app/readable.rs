//! Presenter mode's readable zoom: how large the picture is drawn for a room to read it, by the
//! screen's height, and whether a run fits the screen at that size (`data-snug`).

use web_sys::HtmlElement;

use super::follow::mark;

/// The least scale at which a picture wider than its window is fitted to it instead of scrolling
/// sideways (presenter mode's readable zoom; style.css `data-snug`), on a 1080 px tall screen:
/// its 16 px arrow labels at 16 px on the screen. Below that it scrolls sideways at 16 px,
/// following the step: fitted at 11 px (fenced-gc-pause on a 1280x720 projector, 12.4 px for
/// consensus-fenced-failover at 1920x1080) the labels were too small to read from a room's back.
/// A shorter screen is projected as large, so its labels may be as much smaller as the screen is
/// ([`readable_scale`]).
const READABLE_AT: f64 = 1080.0;

/// How much smaller than the readable zoom's own scale a picture may be fitted rather than
/// scrolled sideways (labels down to 14 px at 1080): a run a few pixels too wide
/// (consensus-min-lease-ttl by 3 px at 1280x720) scrolled for nothing, and one a tenth too wide
/// swung sideways at its climax (naive-gc-pause on a 1024x768 projector, 11% too wide, lost the
/// stale writer A at the DUPLICATE; consensus-session-suspended at 1280x720, 6%). Seen whole, a
/// run needs no following; the runs still wider are wider by 13% or more.
const NEAR_ENOUGH: f64 = 0.88;

/// The scale of presenter mode's readable zoom: 1 on a 1080 px tall screen and taller, less on a
/// shorter one (style.css: `--page-n * 100vh / 1080`). A projector shows the whole screen the same
/// size on the wall, so a label that is 1/68 of the screen's height reads alike at any
/// resolution: 16 px at 1080 is 10.7 px at 720. Drawn at 16 px, naive-gc-pause's four lanes did
/// not fit a 1280x720 projector, and a Redlock run swung 900 px sideways (a review).
pub(super) fn readable_scale() -> f64 {
    let height = web_sys::window()
        .and_then(|w| w.inner_height().ok())
        .and_then(|h| h.as_f64())
        .filter(|h| *h > 0.0)
        .unwrap_or(READABLE_AT);
    (height / READABLE_AT).min(1.0)
}

/// Marks `scroller` `data-snug` when the picture, `page_width` px at its own size, fits its window
/// at the readable zoom's scale ([`readable_scale`]), or nearly ([`NEAR_ENOUGH`]). Drawn to scale
/// (`to_scale`) it must fit at that scale itself: fitted by that margin, fenced-gc-pause's
/// to-scale picture (12% wider than its logical one, for its time axis) set its labels at 9.9 px
/// and its step column at 8.6 px on a 1280x720 projector, below the floor the logical view keeps
/// (11 px; a review). It scrolls sideways instead, as a wider logical picture does.
pub(super) fn mark_snug(scroller: &HtmlElement, page_width: f64, to_scale: bool) {
    let margin = if to_scale { 1.0 } else { NEAR_ENOUGH };
    let fits = page_width * readable_scale() * margin <= f64::from(scroller.client_width());
    mark(scroller, "data-snug", fits);
}
