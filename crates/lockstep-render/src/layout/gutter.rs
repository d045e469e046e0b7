//! The step column: each row's step numbers and times, in aligned columns.

/// Above the gutter's columns.
pub(super) const GUTTER_TITLE: &str = "step │ time";

/// The rows' step-and-time labels, with columns aligned.
pub(super) struct Gutter {
    pub(super) step_w: usize,
    pub(super) time_w: usize,
}

impl Gutter {
    /// `#12  6001 ms`, or `#12-14  6001–6002 ms` for a line of several steps at different
    /// times: the time column is true for every step the line holds.
    pub(super) fn text(&self, steps: &str, (first, last): (u64, u64)) -> String {
        let (sw, tw) = (self.step_w, self.time_w);
        let time = if first == last {
            first.to_string()
        } else {
            format!("{first}–{last}")
        };
        format!("#{steps:<sw$} │ {time:>tw$} ms")
    }
}

/// Steps sharing a line: `12`, `12-14` when they follow each other, else each of up to three
/// (`36,38,40`: a range would claim the steps between, drawn on other lines), else `12,…,19`.
pub(super) fn step_list(steps: &[usize]) -> String {
    match steps {
        [] => String::new(),
        [one] => one.to_string(),
        [a, .., b] if b - a + 1 == steps.len() => format!("{a}-{b}"),
        [a, b] => format!("{a},{b}"),
        [a, b, c] => format!("{a},{b},{c}"),
        // Commas with the ellipsis: a list with steps left out, not the range "a-b" (the rows of
        // the steps between are listed under this one).
        [a, .., b] => format!("{a},…,{b}"),
    }
}

#[cfg(test)]
mod tests {
    use super::step_list;

    #[track_caller]
    fn check(steps: &[usize], expect: &str) {
        assert_eq!(step_list(steps), expect, "steps {steps:?}");
    }

    #[test]
    fn a_row_names_its_steps_without_claiming_those_on_other_rows() {
        check(&[], "");
        check(&[12], "12");
        check(&[12, 13, 14], "12-14");
        check(&[41, 43], "41,43");
        check(&[36, 38, 40], "36,38,40");
        // Four or more with gaps: not "64…78", which reads as every step from 64 to 78.
        check(&[64, 66, 70, 78], "64,…,78");
    }
}
