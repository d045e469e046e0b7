//! Where the timeline's window stops when it follows a step down or up: with its top edge (the
//! bottom of the sticky lane names) between two rows, not through one. A row cut in half under
//! the lane names shows the room half a label and half a note, which reads as a drawing fault.

/// Where the window's top goes instead of `y` (all in the scroller's pixels, down from its
/// content's top): the edge it shows from, `y + cover` (the lane names cover the top `cover`
/// pixels), moved to the nearer edge of the row `lines` puts under it, up to show that row whole
/// or down to hide it, as long as the followed row `keep` stays in the window (`view`: the
/// height of the window below the lane names) and the window stays at `floor` or below.
///
/// `y` itself when the edge already falls between rows, or no move keeps `keep` in view.
pub fn snap_top(
    y: f64,
    cover: f64,
    lines: impl IntoIterator<Item = (f64, f64)>,
    keep: (f64, f64),
    view: f64,
    floor: f64,
) -> f64 {
    /// A row only this far under the edge counts as whole (rounding, the band's hairlines).
    const SLACK: f64 = 1.0;
    /// How far inside the window the followed row must stay (as the follow code asks).
    const MARGIN: f64 = 4.0;
    let edge = y + cover;
    let Some((top, bottom)) = lines
        .into_iter()
        .find(|&(top, bottom)| top < edge - SLACK && bottom > edge + SLACK)
    else {
        return y;
    };
    let keeps = |to: f64| {
        to >= floor - 0.5 && keep.0 >= to + cover + MARGIN && keep.1 <= to + cover + view - MARGIN
    };
    let (up, down) = (y - (edge - top), y + (bottom - edge));
    let mut options = [up, down];
    options.sort_by(|a, b| (a - y).abs().total_cmp(&(b - y).abs()));
    options.into_iter().find(|&to| keeps(to)).unwrap_or(y)
}

#[cfg(test)]
mod tests {
    use super::snap_top;

    /// Rows 30 px tall from 100 down.
    fn rows() -> Vec<(f64, f64)> {
        (0..20)
            .map(|i| (100.0 + 30.0 * f64::from(i), 130.0 + 30.0 * f64::from(i)))
            .collect()
    }

    #[test]
    fn an_edge_between_rows_stays() {
        // Edge at 160 + 0.5: on the boundary of rows 2 and 3 (within the slack).
        assert_eq!(
            snap_top(120.5, 40.0, rows(), (400.0, 430.0), 500.0, 0.0),
            120.5
        );
    }

    #[test]
    fn an_edge_through_a_row_goes_to_its_nearer_edge() {
        // Edge at 170: 10 px into the row 160..190, so the window goes up 10 px to show it whole.
        assert_eq!(
            snap_top(130.0, 40.0, rows(), (400.0, 430.0), 500.0, 0.0),
            120.0
        );
        // Edge at 185: 5 px from its bottom, so the window goes down 5 px to hide it.
        assert_eq!(
            snap_top(145.0, 40.0, rows(), (400.0, 430.0), 500.0, 0.0),
            150.0
        );
    }

    #[test]
    fn the_followed_row_stays_in_view() {
        // Going up 10 px would put the followed row's bottom (595) past the window's (120 + 40 +
        // 430 - 4 = 586): down to hide the cut row instead.
        assert_eq!(
            snap_top(130.0, 40.0, rows(), (565.0, 595.0), 430.0, 0.0),
            150.0
        );
        // Neither move keeps it: stay.
        assert_eq!(
            snap_top(130.0, 40.0, rows(), (565.0, 595.0), 200.0, 0.0),
            130.0
        );
    }

    #[test]
    fn the_window_stays_below_its_floor() {
        assert_eq!(
            snap_top(130.0, 40.0, rows(), (400.0, 430.0), 500.0, 125.0),
            150.0
        );
    }
}
