//! Where the hover card (a hovered row's explanation) goes: at the right of the window's view of
//! the picture, under its row, or over it when under it would cover the current step's row.

use web_sys::HtmlElement;

use super::follow::heads_band;
use crate::viewer::HitRow;

/// How far in from the window's right edge the hover card sits, in screen pixels.
const CARD_INSET: f64 = 16.0;

/// The room above a row, up to the window's top, a card needs to go there, in screen pixels:
/// presenter mode's card of a step with a two-line explanation is about 145 px tall (over the
/// sticky lane names if it must: style.css puts the card above them).
const CARD_ROOM: f64 = 150.0;

/// The card's `style` for the hovered row `row`, on a page `size` (layout pixels) whose rows are
/// drawn `dy` lower, with the current step's row `current`.
///
/// Under its row the card covered the current step's row whenever the row hovered was just
/// above it, the rows a presenter points at (a review: with the mouse resting over the
/// timeline, a card about another step hid the current one): over its row then, where it
/// covers only earlier steps, if there is room in the window.
pub(super) fn card_style(
    scroller: Option<HtmlElement>,
    size: (f64, f64),
    dy: f64,
    row: &HitRow,
    current: Option<&HitRow>,
) -> String {
    let Some(el) = scroller else {
        return format!(
            "top: {:.2}%; right: {CARD_INSET:.0}px",
            below(row, size.1, dy)
        );
    };
    // At the right of the window's view of the picture, not of the picture: a picture wider
    // than its window hid most of the card past the window's edge.
    let past = el.scroll_width() - el.scroll_left() - el.client_width();
    let right = f64::from(past.max(0)) + CARD_INSET;
    let scale = f64::from(el.scroll_width()) / size.0.max(1.0);
    let room = (row.top + dy) * scale + heads_band(&el) - f64::from(el.scroll_top());
    // The current step's row at or below the hovered one (an arrival shares its send's line).
    let covers_current = current.is_some_and(|c| c.top >= row.top - 0.5 && c.step != row.step);
    if covers_current && room >= CARD_ROOM {
        let top = (row.top + dy) / size.1 * 100.0;
        format!("top: {top:.2}%; right: {right:.0}px; transform: translateY(calc(-100% - 4px))")
    } else {
        format!("top: {:.2}%; right: {right:.0}px", below(row, size.1, dy))
    }
}

/// The top of a card under `row`, in % of the page's height.
fn below(row: &HitRow, height: f64, dy: f64) -> f64 {
    ((row.bottom + dy) / height * 100.0).min(96.0)
}
