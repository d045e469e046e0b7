//! Projector-safe colours, computed from style.rs: the danger band and the refused ("fenced")
//! row differ in lightness (and pattern), each band stands off the white page, worker B's colour
//! is apart from the alarm red in hue and lightness, workers A, B and C stay apart for
//! deuteranopes and protanopes (Machado, Oliveira & Fernandes 2009, severity 1), and the
//! partition wall and the current step's outline stay visible over every band (3:1, WCAG's
//! non-text contrast).

use lockstep_render::colour::{Mixed, contrast, delta_e, luminance, over, solid, to_linear};
use lockstep_render::style::{self, Rgb};

fn page() -> Mixed {
    solid(style::BACKGROUND)
}

/// The danger band's fill over the page (its hatching only darkens it further).
fn danger_band() -> Mixed {
    over(style::DANGER, style::DANGER_BAND_ALPHA, page())
}

/// The refused ("fenced") row's tint over the page.
fn refused_row() -> Mixed {
    over(style::REFUSED_ROW, style::REFUSED_ROW_ALPHA, page())
}

/// Machado et al. (2009) simulation matrices, severity 1.0, on linear RGB.
const DEUTERANOPIA: [[f64; 3]; 3] = [
    [0.367322, 0.860646, -0.227968],
    [0.280085, 0.672501, 0.047413],
    [-0.011820, 0.042940, 0.968881],
];
const PROTANOPIA: [[f64; 3]; 3] = [
    [0.152286, 1.052583, -0.204868],
    [0.114503, 0.786281, 0.099216],
    [-0.003882, -0.048116, 1.051998],
];

fn simulate(m: &[[f64; 3]; 3], c: Rgb) -> Mixed {
    simulate_mixed(m, solid(c))
}

/// What a viewer with the deficiency `m` sees of an sRGB colour, as linear RGB.
fn simulate_mixed(m: &[[f64; 3]; 3], c: Mixed) -> Mixed {
    let l = to_linear(c);
    [0, 1, 2].map(|i| (m[i][0] * l[0] + m[i][1] * l[1] + m[i][2] * l[2]).clamp(0.0, 1.0))
}

/// Hue angle in degrees (HSV), for "another hue".
fn hue(c: Rgb) -> f64 {
    let [r, g, b] = solid(c);
    let (max, min) = (r.max(g).max(b), r.min(g).min(b));
    let d = max - min;
    if d == 0.0 {
        return 0.0;
    }
    let h = if max == r {
        ((g - b) / d).rem_euclid(6.0)
    } else if max == g {
        (b - r) / d + 2.0
    } else {
        (r - g) / d + 4.0
    };
    h * 60.0
}

#[test]
fn each_band_stands_off_the_white_page() {
    for (name, band) in [
        ("danger band", danger_band()),
        ("refused row", refused_row()),
    ] {
        let c = contrast(band, page());
        assert!(c >= 1.5, "{name}: {c:.2}:1 against the page");
    }
}

#[test]
fn danger_and_fenced_bands_differ_in_lightness_not_only_in_hue() {
    // Red against green is what deuteranopes and washed-out projectors lose first: the danger
    // band is clearly darker (and hatched; the refused row is plain).
    let c = contrast(danger_band(), refused_row());
    assert!(c >= 1.3, "danger band vs refused row: {c:.2}:1");
    assert!(luminance(danger_band()) < luminance(refused_row()));
    // Seen by a deuteranope (the tints composited as a browser does, then simulated), the two
    // still differ, by lightness; the hatching on the danger band does the rest.
    let de = delta_e(
        simulate_mixed(&DEUTERANOPIA, danger_band()),
        simulate_mixed(&DEUTERANOPIA, refused_row()),
    );
    assert!(de >= 8.0, "deuteranope: danger vs refused ΔE {de:.1}");
}

#[test]
fn worker_b_is_not_the_alarm_red() {
    let (b, red) = (style::WORKERS[1], style::DANGER);
    let c = contrast(solid(b), solid(red));
    assert!(c >= 1.4, "B {} vs red {}: {c:.2}:1", b.hex(), red.hex());
    let dh = (hue(b) - hue(red)).abs();
    let dh = dh.min(360.0 - dh);
    assert!(dh >= 30.0, "B and red hues only {dh:.0}° apart");
    let de = delta_e(to_linear(solid(b)), to_linear(solid(red)));
    assert!(de >= 35.0, "B vs red: ΔE {de:.0}");
    // Red means only danger: no worker is red-dominant and close to it.
    for w in style::WORKERS {
        let de = delta_e(to_linear(solid(w)), to_linear(solid(red)));
        assert!(
            de >= 35.0,
            "worker {} too near the alarm red: ΔE {de:.0}",
            w.hex()
        );
    }
}

#[test]
fn workers_a_b_c_stay_apart_for_colour_blind_viewers() {
    let w = &style::WORKERS;
    for (m, who) in [(&DEUTERANOPIA, "deuteranope"), (&PROTANOPIA, "protanope")] {
        for (i, j) in [(0, 1), (0, 2), (1, 2)] {
            let de = delta_e(simulate(m, w[i]), simulate(m, w[j]));
            assert!(de >= 40.0, "{who}: worker {i} vs {j}: ΔE {de:.0}");
        }
    }
    // And each stays readable as text on the page.
    for &c in &w[..3] {
        let r = contrast(solid(c), page());
        assert!(r >= 4.5, "{}: {r:.2}:1 on white", c.hex());
    }
}

#[test]
fn the_partition_wall_and_the_step_outline_show_over_every_band() {
    let grounds = [
        ("page", page()),
        ("danger band", danger_band()),
        ("refused row", refused_row()),
        (
            "duplicate row",
            over(style::DUPLICATE_ROW, style::DUPLICATE_ROW_ALPHA, page()),
        ),
        (
            "zoom band",
            over(style::ZOOM_FILL, style::ZOOM_FILL_ALPHA, page()),
        ),
        (
            "danger over zoom",
            over(
                style::DANGER,
                style::DANGER_BAND_ALPHA,
                over(style::ZOOM_FILL, style::ZOOM_FILL_ALPHA, page()),
            ),
        ),
    ];
    for (name, g) in grounds {
        let c = contrast(solid(style::PARTITION), g);
        assert!(c >= 3.0, "partition wall edge on {name}: {c:.2}:1");
        let c = contrast(solid(style::CURRENT_OUTLINE), g);
        assert!(c >= 3.0, "current step outline on {name}: {c:.2}:1");
    }
}

/// C (the third worker) is neither the "write accepted" green nor the alarm red, nor A's blue
/// or B's amber, for normal vision and for deuteranopes and protanopes (C was teal, 1.04:1
/// against the green and ΔE 33 from it for a deuteranope).
#[test]
fn worker_c_stands_apart_from_a_b_the_accepted_green_and_the_alarm_red() {
    let c = style::WORKERS[2];
    for (other, what) in [
        (style::WORKERS[0], "A's blue"),
        (style::WORKERS[1], "B's amber"),
        (style::OK, "the accepted green"),
        (style::DANGER, "the alarm red"),
    ] {
        let de = delta_e(to_linear(solid(c)), to_linear(solid(other)));
        assert!(de >= 45.0, "C {} vs {what}: ΔE {de:.0}", c.hex());
        for (m, who) in [(&DEUTERANOPIA, "deuteranope"), (&PROTANOPIA, "protanope")] {
            let de = delta_e(simulate(m, c), simulate(m, other));
            assert!(de >= 35.0, "{who}: C {} vs {what}: ΔE {de:.0}", c.hex());
        }
    }
    // Against the green also in lightness, so a washed-out projector keeps them apart.
    let r = contrast(solid(c), solid(style::OK));
    assert!(r >= 1.5, "C vs the accepted green: {r:.2}:1");
}
