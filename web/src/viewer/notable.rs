//! Past a retry loop: the steps lockstep-render folds into one line as repeated retries
//! (`Layout::folds`: a cycle such as a SET and its "nil" repeated three times or more, alike but
//! for its numbers), which the app draws unfolded because each event is a step there, are the
//! ones the "next notable step" key (J) goes past. A what-if pause on naive-happy-path made 130
//! of its 181 steps B polling every 100 ms, and ↓ crossed them two at a time (a review).

use lockstep_core::Trace;

/// For each event of `trace`, whether it repeats an earlier retry: it is one of the events
/// lockstep-render folds when it draws the run folded (the first round of each fold stays
/// drawn, and so stays notable). The folds depend on the trace alone, so no layout is made.
pub fn repeated_events(trace: &Trace) -> Vec<bool> {
    let mut repeated = vec![false; trace.events.len()];
    for fold in lockstep_render::retry_folds(trace) {
        for i in fold.events {
            if let Some(r) = repeated.get_mut(i) {
                *r = true;
            }
        }
    }
    repeated
}

/// The first step after `pos` whose event is not a repeated retry (step n shows event n - 1),
/// or the last step when only repeats are left; None at the last step.
pub fn next_notable(repeated: &[bool], pos: usize) -> Option<usize> {
    let total = repeated.len();
    if pos >= total {
        return None;
    }
    Some(
        (pos + 1..=total)
            .find(|&n| !repeated[n - 1])
            .unwrap_or(total),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_next_notable_step_skips_repeats_and_stops_at_the_end() {
        let r = [false, false, true, true, true, false, true, true];
        assert_eq!(next_notable(&r, 0), Some(1));
        assert_eq!(next_notable(&r, 2), Some(6));
        assert_eq!(next_notable(&r, 3), Some(6));
        assert_eq!(next_notable(&r, 6), Some(8));
        assert_eq!(next_notable(&r, 8), None);
        assert_eq!(next_notable(&[], 0), None);
    }
}
