//! A what-if change made from the menu: the branch it starts, the step the view goes to, and
//! what the user is told (why it cannot be made, or which later changes the new branch dropped).

use lockstep_core::Change;

use super::state::Notice;
use crate::viewer::Viewer;

/// Makes `change` at the current step of `v`, and returns the notice to show, if any. An
/// injected fault is the branch's next event: the view steps onto it, so the run shows what
/// changed (it stayed on the step before, looking as it did).
pub(super) fn apply_whatif(v: &mut Viewer, change: Change) -> Option<Notice> {
    let onto = matches!(change, Change::Fault(_));
    let before = v.whatifs().to_vec();
    if let Err(e) = v.apply(change) {
        return Some(Notice {
            text: format!("That change cannot be made: {e}"),
            error: true,
        });
    }
    // Changes made later in the run than this one go with the steps they followed, which the
    // new branch replaces: say so (a review found a fencing change silently gone after a TTL
    // change at an earlier step).
    let kept = v.whatifs();
    let dropped: Vec<String> = before
        .into_iter()
        .filter(|w| !kept.contains(w))
        .map(|w| {
            format!(
                "after step {}: {}",
                w.at_step,
                crate::whatif::describe(&w.change)
            )
        })
        .collect();
    // Onto the fault itself, after the step it lands after: where the node's handling goes on
    // past this step, one step forward stopped in its middle, a step before the change (a
    // review: "after step 8", the view at 7).
    if onto {
        match v.whatifs().last().map(|w| w.at_step + 1) {
            Some(at) if at > v.pos() => v.seek(at.min(v.total())),
            _ => {
                v.forward();
            }
        }
    }
    let text = match dropped.as_slice() {
        [] => return None,
        [one] => format!(
            "Your later change ({one}) was dropped: a change at an earlier step starts a new branch from there. Make it again where you want it."
        ),
        many => format!(
            "Your later changes ({}) were dropped: a change at an earlier step starts a new branch from there. Make them again where you want them.",
            many.join("; ")
        ),
    };
    Some(Notice { text, error: false })
}
