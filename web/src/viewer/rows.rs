//! Moving by rows of the timeline rather than by steps (several steps may share a row).

use super::HitRow;

/// The step a "next row" (`down`) or "previous row" key goes to from step `pos`: the first step
/// drawn below the current step's line, or the last step drawn above it. None when there is none
/// (or the rows are not known).
pub fn row_step(rows: &[HitRow], pos: usize, down: bool) -> Option<usize> {
    let here = pos.checked_sub(1).and_then(|i| rows.get(i)).map(|r| r.line);
    if down {
        rows.iter()
            .skip(pos)
            .find(|r| here.is_none_or(|l| r.line > l))
            .map(|r| r.step)
    } else {
        let here = here?;
        match rows[..pos.min(rows.len())]
            .iter()
            .rev()
            .find(|r| r.line < here)
        {
            Some(r) => Some(r.step),
            None => Some(0),
        }
    }
}
