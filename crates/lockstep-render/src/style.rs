//! Colours, sizes and stroke widths shared by every drawing of a layout. Colours are plain RGB so
//! front ends that do not use plotters (the terminal UI) can map them too.

use crate::layout::Tone;

/// An sRGB colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Rgb(pub u8, pub u8, pub u8);

impl Rgb {
    /// `#rrggbb`, as it appears in the SVG.
    pub fn hex(self) -> String {
        format!("#{:02X}{:02X}{:02X}", self.0, self.1, self.2)
    }
}

/// One colour per worker, in the order workers appear in the trace (blue, amber-brown, wine,
/// purple...). Each reads at WCAG AA (4.5:1) on a label's background, even over a band; the
/// first three stay apart for deuteranopes and protanopes (tests/colours.rs), and B's amber is
/// neither the hue nor the lightness of the danger red: red means only danger.
pub const WORKERS: [Rgb; 6] = [
    Rgb(0x15, 0x65, 0xC0),
    Rgb(0x97, 0x5F, 0x00),
    Rgb(0x80, 0x0C, 0x50),
    Rgb(0x6A, 0x1B, 0x9A),
    Rgb(0xAD, 0x14, 0x57),
    Rgb(0x4E, 0x34, 0x2E),
];
/// Messages between lock-service nodes, and other traffic no worker takes part in.
pub const INFRA: Rgb = Rgb(0x54, 0x6E, 0x7A);
/// Danger: rejected accesses, payouts paid twice, overlapping beliefs, lost messages. A deep
/// red, darker than every worker's colour, so B's amber never reads as it.
pub const DANGER: Rgb = Rgb(0xA3, 0x14, 0x14);
/// Accepted writes.
pub const OK: Rgb = Rgb(0x2E, 0x7D, 0x32);
/// Expiry and delay marks.
pub const TIMER: Rgb = Rgb(0x37, 0x47, 0x4F);
/// Lease renewals.
pub const RENEW: Rgb = Rgb(0x00, 0x70, 0x7A);
/// Body text.
pub const TEXT: Rgb = Rgb(0x1B, 0x1F, 0x24);
/// Secondary text (gutter, roles): dark enough to read at 4.5:1 on a row band.
pub const MUTED: Rgb = Rgb(0x3A, 0x44, 0x4E);
/// Lifelines. No other element uses this colour, so lifelines can be counted in the SVG.
pub const LIFELINE: Rgb = Rgb(0x8F, 0x9B, 0xA7);
/// Page background.
pub const BACKGROUND: Rgb = Rgb(0xFF, 0xFF, 0xFF);
/// Behind labels, so lines crossing them do not hurt reading. Kept near white on purpose: it is
/// the ground of the label's text, so bands under it must not darken it.
pub const LABEL_BACKGROUND: Rgb = Rgb(0xFF, 0xFF, 0xFF);
pub const LABEL_BACKGROUND_ALPHA: f64 = 0.9;
/// Paused ("frozen") spans: fill and hatching. The fill alone reaches 1.8:1 against the page.
pub const FROZEN_FILL: Rgb = Rgb(0x7F, 0xBC, 0xE6);
pub const FROZEN_FILL_ALPHA: f64 = 1.0;
pub const FROZEN_HATCH: Rgb = Rgb(0x1F, 0x6F, 0xA8);
/// Crashed ("down") spans: fill and hatching.
pub const DOWN_FILL: Rgb = Rgb(0xE4, 0xE4, 0xE4);
pub const DOWN_HATCH: Rgb = Rgb(0x75, 0x75, 0x75);
/// The current step: a yellow marker in the step column only (never over the lanes, where it
/// would repaint the bands that carry meaning), and a dark outline round the row (with a dark
/// pointer) that no band changes. The terminal UI marks its step column with the amber pointer.
pub const CURRENT: Rgb = Rgb(0xFF, 0xCA, 0x28);
pub const CURRENT_POINTER: Rgb = Rgb(0xE0, 0x9A, 0x00);
pub const CURRENT_OUTLINE: Rgb = Rgb(0x1B, 0x1F, 0x24);
/// Width of the current step's outline, in px.
pub const CURRENT_OUTLINE_WIDTH: f64 = 4.0;
/// Note boxes.
pub const NOTE_FILL: Rgb = Rgb(0xF3, 0xF5, 0xF7);
pub const NOTE_BORDER: Rgb = Rgb(0x90, 0xA0, 0xAE);
pub const FAULT_FILL: Rgb = Rgb(0xFF, 0xF4, 0xE0);
pub const FAULT_BORDER: Rgb = Rgb(0x8D, 0x6E, 0x63);
pub const GLOBAL_FILL: Rgb = Rgb(0xE8, 0xEA, 0xF6);
pub const GLOBAL_BORDER: Rgb = Rgb(0x39, 0x49, 0xAB);
pub const DANGER_FILL: Rgb = Rgb(0xFF, 0xEB, 0xEE);
/// The danger band (two workers believe they hold the lock): a tint strong enough for a
/// washed-out projector (2.4:1 against the page), hatched in [`DANGER`] (the pattern tells it
/// from the refused row where hue does not), with a solid bar at its left edge.
pub const DANGER_BAND_ALPHA: f64 = 0.45;
/// The danger band's hatching: distance between its lines, in px.
pub const DANGER_HATCH_STEP: f64 = 14.0;
/// The lease chart's stale belief (the service no longer backs it): bold red stripes this far
/// apart over the worker's washed-out bar.
pub const STALE_HATCH_STEP: f64 = 11.0;
/// The tint behind a row where the database refused an access (fencing worked: stopped, safe):
/// green, the family of accepted writes, never the danger hue; plain and lighter (1.6:1) than
/// the hatched danger band, so the two differ in lightness and pattern, not only in hue.
pub const REFUSED_ROW: Rgb = Rgb(0x38, 0x8E, 0x3C);
pub const REFUSED_ROW_ALPHA: f64 = 0.38;
/// The tint behind a row where the database paid twice (money lost): the danger family, told
/// from the danger band by solid edges along its top and bottom.
pub const DUPLICATE_ROW: Rgb = Rgb(0xB7, 0x1C, 0x1C);
pub const DUPLICATE_ROW_ALPHA: f64 = 0.38;
/// Height of the duplicate row's solid edges, in px.
pub const DUPLICATE_ROW_EDGE: f64 = 3.0;
/// A permissive database's header (it takes writes without a token): warning fill, dashed edge.
pub const PERMISSIVE_FILL: Rgb = Rgb(0xFF, 0xE0, 0xB2);
pub const PERMISSIVE_BORDER: Rgb = Rgb(0xBF, 0x36, 0x0C);
/// Partition walls between lanes: dark brown, never the blue of A's holder bars beside them,
/// and dark enough for the wall's edges to show over the danger band, even inside a zoom.
pub const PARTITION: Rgb = Rgb(0x3E, 0x27, 0x23);
/// Under a wall's hatching: dark enough to survive a washed-out projector.
pub const PARTITION_FILL: Rgb = Rgb(0xBC, 0xAA, 0xA4);
/// A local zoom on the to-scale axis: a pale tinted band across the lanes (pale, so the danger
/// and refused bands over it keep their colour), its edges and brackets.
pub const ZOOM_FILL: Rgb = Rgb(0xB3, 0x9D, 0xDB);
pub const ZOOM_FILL_ALPHA: f64 = 0.22;
pub const ZOOM_EDGE: Rgb = Rgb(0x5E, 0x35, 0xB1);
pub const HEADER_FILL: Rgb = Rgb(0xEC, 0xEF, 0xF1);
/// The lease chart's "the service records the worker as holder" bars: the worker's colour at
/// this opacity, outlined.
pub const SERVICE_BAR_ALPHA: f64 = 0.55;
/// The opaque colour `c` at `alpha` shows over the page: a bar filled with it looks the same
/// over the danger band as off it (a see-through bar over the red band turns navy or purple,
/// which a room reads as the bar changing state).
pub fn on_page(c: Rgb, alpha: f64) -> Rgb {
    let m = crate::colour::over(c, alpha, crate::colour::solid(BACKGROUND));
    let [r, g, b] = m.map(|v| (v * 255.0).round().clamp(0.0, 255.0) as u8);
    Rgb(r, g, b)
}

/// The lease chart's master or leader bars.
pub const LEADER_FILL: Rgb = Rgb(0xB0, 0xBE, 0xC5);

/// A clock jump's break on a lifeline and its size: violet, never the danger red it often
/// crosses (the lease chart's jump arrows share it).
pub const JUMP: Rgb = ZOOM_EDGE;

/// Stroke width of message arrows. Only arrow shafts use it, so arrows can be counted in the SVG.
pub const ARROW_STROKE: u32 = 3;
/// Stroke width of lifelines.
pub const LIFELINE_STROKE: u32 = 2;

/// Font sizes, in px.
pub const LABEL_SIZE: f64 = 16.0;
pub const NOTE_SIZE: f64 = 15.0;
/// The step column as large as the notes: fitted to a 1280 px projector it was the smallest
/// text on the screen (9.6 px at 14 px). Not 16: its width is reserved for the widest step list
/// a run could show, and fenced-gc-pause would no longer fit that projector at 11 px labels.
pub const GUTTER_SIZE: f64 = 15.0;
pub const HEADER_SIZE: f64 = 19.0;
pub const ROLE_SIZE: f64 = 14.0;
pub const LEGEND_SIZE: f64 = 15.0;
pub const TITLE_SIZE: f64 = 28.0;
pub const SUBTITLE_SIZE: f64 = 16.0;
pub const BODY_SIZE: f64 = 17.0;
pub const VERDICT_SIZE: f64 = 22.0;
/// A clock jump's size beside its break ("+20 s"): bold and as large as a label, so it shows on
/// a slide.
pub const JUMP_SIZE: f64 = 17.0;

/// The colour of a tone.
pub fn tone(t: Tone) -> Rgb {
    match t {
        Tone::Worker(i) => WORKERS[i % WORKERS.len()],
        Tone::Infra => INFRA,
        Tone::Danger => DANGER,
        Tone::Ok => OK,
        Tone::Timer => TIMER,
        Tone::Renew => RENEW,
    }
}

#[cfg(test)]
mod tests {
    //! Projector legibility, computed from the constants above: tints composited over the white
    //! page, contrast as WCAG 2 defines it.
    use super::*;
    use crate::colour::{Mixed, contrast, distance, over, solid};

    /// Every band or tint drawn behind rows and spans, over the page.
    fn tints() -> Vec<(&'static str, Mixed)> {
        let page = solid(BACKGROUND);
        vec![
            ("danger band", over(DANGER, DANGER_BAND_ALPHA, page)),
            ("refused row", over(REFUSED_ROW, REFUSED_ROW_ALPHA, page)),
            (
                "duplicate row",
                over(DUPLICATE_ROW, DUPLICATE_ROW_ALPHA, page),
            ),
            ("pause fill", over(FROZEN_FILL, FROZEN_FILL_ALPHA, page)),
        ]
    }

    #[test]
    fn bands_and_tints_show_on_a_washed_out_projector() {
        for (name, tint) in tints() {
            let c = contrast(tint, solid(BACKGROUND));
            // The refused row is lighter than the danger band on purpose (they must differ in
            // lightness, not only in hue: tests/colours.rs).
            let least = if name == "refused row" { 1.6 } else { 1.8 };
            assert!(c >= least, "{name}: {c:.2}:1 against the page");
        }
    }

    #[test]
    fn text_over_bands_keeps_wcag_aa() {
        // Where a duplicate or refused row crosses the danger band, both tints stack.
        let mut grounds = tints();
        let band = grounds[0].1;
        grounds.push((
            "duplicate in band",
            over(DUPLICATE_ROW, DUPLICATE_ROW_ALPHA, band),
        ));
        grounds.push((
            "refused in band",
            over(REFUSED_ROW, REFUSED_ROW_ALPHA, band),
        ));
        let label_tones = WORKERS
            .iter()
            .copied()
            .chain([INFRA, DANGER, OK, TIMER, RENEW, TEXT, MUTED]);
        for (i, (name, ground)) in grounds.into_iter().enumerate() {
            // Gutter text sits on a row's tint itself (the danger band stops short of the
            // gutter, so only single row tints).
            for t in [TEXT, MUTED].into_iter().filter(|_| (1..4).contains(&i)) {
                let c = contrast(solid(t), ground);
                assert!(c >= 4.5, "{} on {name}: {c:.2}:1", t.hex());
            }
            // Labels sit on their own background over the band.
            let label = over(LABEL_BACKGROUND, LABEL_BACKGROUND_ALPHA, ground);
            for t in label_tones.clone() {
                let c = contrast(solid(t), label);
                assert!(c >= 4.5, "label {} on {name}: {c:.2}:1", t.hex());
            }
        }
    }

    /// A washed-out projector keeps about 70% of a fill's contrast against the page.
    fn washed(c: f64) -> f64 {
        1.0 + (c - 1.0) * 0.7
    }

    #[test]
    fn fills_survive_a_projector_that_loses_30_percent_contrast() {
        let page = solid(BACKGROUND);
        let mut fills = tints();
        for (i, &w) in WORKERS[..3].iter().enumerate() {
            let name = ["A's holder bar", "B's holder bar", "C's holder bar"][i];
            fills.push((name, over(w, SERVICE_BAR_ALPHA, page)));
        }
        // (A zoom's band is a pale tint: its edges and brackets mark it, not its fill.)
        fills.push(("partition", solid(PARTITION_FILL)));
        fills.push(("leader bar", solid(LEADER_FILL)));
        for (name, fill) in fills {
            let c = washed(contrast(fill, page));
            // The refused row is the lightest band on purpose (see above); it still shows.
            let least = if name == "refused row" { 1.4 } else { 1.6 };
            assert!(c >= least, "{name}: {c:.2}:1 on a washed-out projector");
        }
        // Text inside a holder bar stays readable.
        for &w in &WORKERS[..3] {
            let c = contrast(solid(TEXT), over(w, SERVICE_BAR_ALPHA, page));
            assert!(c >= 4.5, "text on {}: {c:.2}:1", w.hex());
        }
    }

    #[test]
    fn what_a_room_must_tell_apart_is_far_apart() {
        // A, B and C of a three-worker run; the partition wall beside A's blue bars; the clock
        // jump's arrow across the danger band.
        for (a, b, what) in [
            (WORKERS[0], WORKERS[1], "A and B"),
            (WORKERS[0], WORKERS[2], "A and C"),
            (WORKERS[1], WORKERS[2], "B and C"),
        ] {
            let d = distance(a, b);
            assert!(d >= 60.0, "{what}: ΔE {d:.0}");
        }
        let d = distance(PARTITION, WORKERS[0]);
        assert!(d >= 40.0, "partition wall and A's bars: ΔE {d:.0}");
        let d = distance(ZOOM_EDGE, DANGER);
        assert!(d >= 60.0, "clock jump and danger band: ΔE {d:.0}");
    }

    #[test]
    fn fencing_that_worked_and_money_lost_never_share_a_colour() {
        assert_ne!(REFUSED_ROW, DUPLICATE_ROW);
        assert_ne!(REFUSED_ROW, DANGER);
        // Refused rows are green-dominant (stopped, safe); duplicates red-dominant (danger).
        let strongest = |c: Rgb| {
            let ch = [c.0, c.1, c.2];
            (0..3).max_by_key(|&i| ch[i]).unwrap_or(0)
        };
        assert_eq!(strongest(REFUSED_ROW), 1, "refused rows: green");
        assert_eq!(strongest(DUPLICATE_ROW), 0, "duplicate rows: red");
    }
}
