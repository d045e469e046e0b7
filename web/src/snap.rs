//! Where the timeline's window stops when it follows a step down or up: with its top edge (the
//! bottom of the sticky lane names) between two rows, not through one. A row cut in half under
//! the lane names shows the room half a label and half a note, which reads as a drawing fault.

/// Where the window's top goes instead of `y` (all in the scroller's pixels, down from its
/// content's top): the lane names cover its top `cover` pixels, so it shows from the edge
/// `y + cover`. Of the edges at a line's top or bottom (`lines`, in order), or `y`'s own, the
/// one that shows least of a line it cuts through (a line's bands can overlap the next's: a
/// label reaches up past the line above's bottom, and an edge at that bottom hid the label,
/// "write 3 payouts", under the lane names), then the nearest, as long as the followed row
/// `keep` stays in the window (`view`: its height below the lane names), the window within its
/// scroll range `floor..=ceiling` (the browser would stop it at the picture's end, through a
/// line), and the move within [`REACH`], or within the height of the tallest line near the edge
/// when that is more (a zoomed picture's lines are taller than it: see [`reach`]).
pub fn snap_top(
    y: f64,
    cover: f64,
    lines: impl IntoIterator<Item = (f64, f64)>,
    keep: (f64, f64),
    view: f64,
    (floor, ceiling): (f64, f64),
) -> f64 {
    // Where the browser would put it.
    let y = y.min(ceiling).max(floor.min(ceiling));
    /// A line only this far under the edge counts as whole (rounding, the band's hairlines).
    const SLACK: f64 = 1.0;
    /// How far inside the window the followed row must stay (as the follow code asks).
    const MARGIN: f64 = 4.0;
    let lines: Vec<(f64, f64)> = lines.into_iter().collect();
    // How much of the lines the edge cuts through shows below it.
    let shown = |edge: f64| -> f64 {
        lines
            .iter()
            .filter(|&&(top, bottom)| top < edge - SLACK && bottom > edge + SLACK)
            .map(|&(_, bottom)| bottom - edge)
            .sum()
    };
    let reach = reach(&lines, y + cover);
    let keeps = |to: f64| {
        to >= floor - 0.5
            && to <= ceiling + 0.5
            && (to - y).abs() <= reach
            && keep.0 >= to + cover + MARGIN
            && keep.1 <= to + cover + view - MARGIN
    };
    let best = lines
        .iter()
        .flat_map(|&(top, bottom)| [top - cover, bottom - cover])
        .filter(|&to| keeps(to))
        .map(|to| (shown(to + cover).round(), (to - y).abs(), to))
        .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
    match best {
        Some((cut, _, to)) if cut < shown(y + cover).round() => to,
        _ => y,
    }
}

/// The farthest the window moves from where following put it, so that it stops between lines.
pub const REACH: f64 = 40.0;

/// How far the window may move from an edge at `edge` to stop between lines: [`REACH`], or the
/// height of the tallest line near it and a little more. Zoomed for a projector, a line's band
/// (48 px at 1920x1080) is taller than [`REACH`], and when the edge cut a line overlapping the
/// line above (naive-network-delay #12-13 under the note "(A's TTL ran out)"), the edge above
/// both was out of reach: the note's second line stayed cut for eight steps.
fn reach(lines: &[(f64, f64)], edge: f64) -> f64 {
    lines
        .iter()
        .filter(|&&(top, bottom)| bottom > edge - 2.0 * REACH && top < edge + 2.0 * REACH)
        .map(|&(top, bottom)| bottom - top + 2.0)
        .fold(REACH, f64::max)
}

/// How far above its lanes' header boxes the window stops when it leaves out the picture's title
/// block, in the layout's pixels: enough to show the boxes' borders whole.
const TITLE_MARGIN: f64 = 8.0;

/// The least scroll from the top that following a step goes to, in the layout's pixels, for a
/// picture whose lanes' header boxes run from `heads.0` down to `heads.1`: in the app
/// (`leave_out`) just above them, leaving out the picture's own title block (the header bar
/// names the run and the explanation panel explains the step, so the block would only repeat
/// them, in a third of a 1280x720 projector's timeline, and scrolled sideways it shows as
/// fragments); in the embed 0 (the block is all the explanation a minimal embed has). Scrolling
/// up by hand still shows it. With it, where the boxes end (see `app::follow::floor_at`).
pub fn title_floor(leave_out: bool, (top, bottom): (f64, f64)) -> (f64, f64) {
    if leave_out && top.is_finite() {
        ((top - TITLE_MARGIN).max(0.0), bottom)
    } else {
        (0.0, 0.0)
    }
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
            snap_top(120.5, 40.0, rows(), (400.0, 430.0), 500.0, (0.0, 1e9)),
            120.5
        );
    }

    #[test]
    fn an_edge_through_a_row_goes_to_its_nearer_edge() {
        // Edge at 170: 10 px into the row 160..190, so the window goes up 10 px to show it whole.
        assert_eq!(
            snap_top(130.0, 40.0, rows(), (400.0, 430.0), 500.0, (0.0, 1e9)),
            120.0
        );
        // Edge at 185: 5 px from its bottom, so the window goes down 5 px to hide it.
        assert_eq!(
            snap_top(145.0, 40.0, rows(), (400.0, 430.0), 500.0, (0.0, 1e9)),
            150.0
        );
    }

    #[test]
    fn the_followed_row_stays_in_view() {
        // Going up 10 px would put the followed row's bottom (595) past the window's (120 + 40 +
        // 430 - 4 = 586): down to hide the cut row instead.
        assert_eq!(
            snap_top(130.0, 40.0, rows(), (565.0, 595.0), 430.0, (0.0, 1e9)),
            150.0
        );
        // Neither move keeps it: stay.
        assert_eq!(
            snap_top(130.0, 40.0, rows(), (565.0, 595.0), 200.0, (0.0, 1e9)),
            130.0
        );
    }

    #[test]
    fn of_overlapping_lines_the_edge_shows_the_lower_one_whole() {
        // Each line's label reaches 6 px up past the line above's bottom: an edge at a line's
        // bottom (130) hides the top of the next line's label, one at its top (124) shows only
        // 6 px of the line above.
        let lines = (0..12).map(|i| (4.0 + 24.0 * f64::from(i), 34.0 + 24.0 * f64::from(i)));
        assert_eq!(
            snap_top(88.0, 40.0, lines, (400.0, 430.0), 500.0, (0.0, 1e9)),
            84.0
        );
        // Where the lines part, the edge goes between them.
        let lines = [(100.0, 130.0), (124.0, 154.0), (154.0, 184.0)];
        assert_eq!(
            snap_top(88.0, 40.0, lines, (400.0, 430.0), 500.0, (0.0, 1e9)),
            114.0
        );
    }

    #[test]
    fn a_zoomed_picture_reaches_past_a_line_taller_than_reach() {
        // naive-network-delay at 1920x1080 in presenter mode, step 31: the edge (651.6 + 31)
        // cut #12-13 (663.6..712.3), which overlaps the note above it (634.4..673.3). The edge
        // at #12-13's top still cut the note's second line; the one at the note's top, 48 px up,
        // cuts nothing.
        let lines = [
            (546.9, 595.5),
            (585.8, 634.4),
            (634.4, 673.3),
            (663.6, 712.3),
            (702.5, 751.2),
            (751.2, 790.1),
        ];
        let to = snap_top(651.6, 31.0, lines, (1130.6, 1179.2), 656.0, (309.5, 801.0));
        assert_eq!(to, 634.4 - 31.0);
    }

    #[test]
    fn the_window_stays_within_its_scroll_range() {
        // Its end at 138: the edge (40 px down) at 178 cuts the row 160..190; going down to hide
        // it is past the end, so up to show it whole.
        assert_eq!(
            snap_top(150.0, 40.0, rows(), (400.0, 430.0), 500.0, (0.0, 138.0)),
            120.0
        );
    }

    #[test]
    fn the_window_stays_below_its_floor() {
        assert_eq!(
            snap_top(130.0, 40.0, rows(), (400.0, 430.0), 500.0, (125.0, 1e9)),
            150.0
        );
    }
}
