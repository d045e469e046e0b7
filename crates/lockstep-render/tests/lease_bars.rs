//! A lease chart's bars keep their colour over the danger band: every bar is filled opaque,
//! so the red band drawn behind it never tints it (see-through bars turned navy or purple
//! there, which a room reads as the bar changing state).

mod common;

use lockstep_render::Options;
use lockstep_render::style::{self, Rgb};

/// A `<rect>`'s attributes: x, width, height, opacity, fill.
fn rects(svg: &str) -> Vec<(f64, f64, f64, f64, String)> {
    svg.split("<rect ")
        .skip(1)
        .map(|r| {
            let r = r.split('>').next().unwrap_or_default();
            let attr = |name: &str| {
                let at = r.find(&format!(" {name}=\"")).map(|a| a + name.len() + 3);
                at.map(|a| r[a..].split('"').next().unwrap_or_default().to_string())
                    .unwrap_or_default()
            };
            let num = |name: &str| attr(name).parse::<f64>().unwrap_or(f64::NAN);
            let x = r
                .strip_prefix("x=\"")
                .and_then(|s| s.split('"').next())
                .and_then(|s| s.parse().ok())
                .unwrap_or(f64::NAN);
            (x, num("width"), num("height"), num("opacity"), attr("fill"))
        })
        .collect()
}

fn hex(c: Rgb) -> String {
    format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2)
}

#[test]
fn bars_over_the_danger_band_are_opaque() {
    let danger = hex(style::DANGER);
    let mut checked = 0;
    for (id, scenario, run) in common::catalogue() {
        let svg =
            lockstep_render::run_lease_svg(&scenario, &run, &Options::default()).expect("draws");
        let all = rects(&svg);
        // The danger bands: the red fill across the plot.
        let bands: Vec<(f64, f64)> = all
            .iter()
            .filter(|r| r.4 == danger && r.2 > 100.0)
            .map(|r| (r.0, r.0 + r.1))
            .collect();
        for (x, w, h, opacity, fill) in &all {
            // A bar is 24 px tall and filled with a colour.
            let bar = (*h - 24.0).abs() < 0.5 && fill.starts_with('#');
            let over_band = bands.iter().any(|&(a, b)| *x < b && x + w > a);
            if bar && over_band {
                checked += 1;
                assert!(
                    (*opacity - 1.0).abs() < 1e-9,
                    "{id}: bar at x={x} filled {fill} at opacity {opacity} over the danger band"
                );
            }
        }
    }
    // The redlock clock jump's records on redis-1 and redis-2, Sentinel's old master, ...
    assert!(checked > 20, "only {checked} bars over danger bands");
}

#[test]
fn an_opaque_bar_looks_as_its_see_through_colour_did_on_the_page() {
    let c = style::tone(lockstep_render::layout::Tone::Worker(0));
    let on = style::on_page(c, style::SERVICE_BAR_ALPHA);
    // Between the colour and white, nearer white at this opacity.
    for (v, full) in [(on.0, c.0), (on.1, c.1), (on.2, c.2)] {
        assert!(v >= full, "{on:?} vs {c:?}");
    }
    assert_eq!(style::on_page(c, 1.0), c);
    assert_eq!(style::on_page(c, 0.0), style::BACKGROUND);
}
