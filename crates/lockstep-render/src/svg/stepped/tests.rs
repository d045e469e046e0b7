//! Stepping draws, step by step, exactly what a whole render of that step draws.

use super::*;
use crate::layout::{Options, TimeMode, layout};
use lockstep_core::catalogue;

/// The elements of an SVG, one per line, without those that draw nothing (a line of no
/// length, a box of no size, a stub hidden under an arrow head) and without the document
/// element.
fn elements(svg: &str) -> std::collections::BTreeSet<String> {
    let mut out = std::collections::BTreeSet::new();
    let mut lines = svg.lines().peekable();
    while let Some(line) = lines.next() {
        let mut el = line.to_string();
        // A text element spans its lines up to `</text>`.
        if el.starts_with("<text") && !el.ends_with("</text>") {
            for more in lines.by_ref() {
                el.push('\n');
                el.push_str(more);
                if more.ends_with("</text>") {
                    break;
                }
            }
        }
        // Pattern definitions: `draw_timeline` defines those it uses, a stepped page all of
        // them (checked apart: every pattern referred to is defined).
        if el.starts_with("<svg")
            || el.starts_with("</svg")
            || el.starts_with("<defs>")
            || el.is_empty()
        {
            continue;
        }
        if draws_nothing(&el) {
            continue;
        }
        out.insert(el);
    }
    out
}

fn attr<'a>(el: &'a str, name: &str) -> Option<&'a str> {
    let key = format!(" {name}=\"");
    let i = el.find(&key)? + key.len();
    el[i..].split('"').next()
}

fn draws_nothing(el: &str) -> bool {
    if el.starts_with("<polyline") {
        // Lines of no length, and the 2 px stub of shaft a head-only arrow keeps under its
        // head (the head, drawn right after it, covers it).
        let pts: Vec<(f64, f64)> = attr(el, "points")
            .unwrap_or("")
            .split_whitespace()
            .filter_map(|p| p.split_once(','))
            .filter_map(|(x, y)| Some((x.parse().ok()?, y.parse().ok()?)))
            .collect();
        let length: f64 = pts
            .windows(2)
            .map(|w| ((w[1].0 - w[0].0).powi(2) + (w[1].1 - w[0].1).powi(2)).sqrt())
            .sum();
        return length <= 2.9;
    }
    if el.starts_with("<rect") {
        return attr(el, "width") == Some("0") || attr(el, "height") == Some("0");
    }
    false
}

/// Steps 1..=n of the base and the live pieces of step n, as `draw_timeline` would order
/// them: the same elements as `draw_timeline` draws at step n.
fn composed(base: &SteppedBase, live: &SteppedLive, n: usize) -> String {
    let mut out = live.before.clone();
    out.push('\n');
    for (layer, groups) in base.layers.iter().enumerate() {
        for (step, g) in groups {
            if *step <= n {
                out.push_str(&shift(g, live.layout_dy));
                out.push('\n');
            }
        }
        out.push_str(&shift(&live.layers[layer], live.layout_dy));
        out.push('\n');
    }
    out.push_str(&live.after);
    out
}

/// Moves every y coordinate of plotters' output down by `dy` (what a `translate` does in
/// the browser), so the elements compare with `draw_timeline`'s text.
fn shift(svg: &str, dy: f64) -> String {
    let dy = dy as i64;
    let mut out = String::new();
    for line in svg.lines() {
        let mut l = line.to_string();
        for key in ["y", "y1", "y2", "cy"] {
            if let Some(v) = attr(&l, key).and_then(|v| v.parse::<i64>().ok()) {
                l = l.replacen(
                    &format!(" {key}=\"{v}\""),
                    &format!(" {key}=\"{}\"", v + dy),
                    1,
                );
            }
        }
        if let Some(pts) = attr(&l, "points").map(str::to_string) {
            let moved: Vec<String> = pts
                .split_whitespace()
                .map(|p| {
                    let (x, y) = p.split_once(',').unwrap_or((p, "0"));
                    format!("{x},{}", y.parse::<i64>().unwrap_or(0) + dy)
                })
                .collect();
            l = l.replacen(&pts, &(moved.join(" ") + " "), 1);
        }
        out.push_str(&l);
        out.push('\n');
    }
    out
}

#[test]
fn every_step_draws_the_elements_draw_timeline_draws() {
    for id in [
        "fenced-gc-pause",
        "naive-gc-pause",
        "redlock-split-votes",
        "naive-happy-path",
        // A partition (walls), a clock jump (breaks) and a crash (above the notes).
        "consensus-isolated-leader",
        "redlock-clock-jump",
        "redis-restart-counter-reset",
    ] {
        let scenario = catalogue::load(id).unwrap().unwrap();
        let run = lockstep_core::run(&scenario);
        for mode in [TimeMode::Logical, TimeMode::ToScale] {
            let options = |upto| Options {
                time_mode: mode,
                upto_step: upto,
                unfold_retries: true,
                ..Options::default()
            };
            let caption = Caption::for_run(&scenario, &run);
            let full = layout(&run.trace, &options(None));
            let stepper = Stepper::new(full, &caption);
            let base = stepper.base().unwrap();
            let total = run.trace.events.len();
            let stride = (total / 25).max(1);
            for n in (0..=total).filter(|n| n % stride == 0 || *n == total) {
                let at_n = layout(&run.trace, &options(Some(n)));
                let live = stepper.live(&at_n, &caption).unwrap();
                let want = elements(&super::super::draw_timeline(&at_n, &caption).unwrap());
                let page = composed(&base, &live, n);
                for (i, _) in patterns::HATCHES.iter().enumerate() {
                    let id = format!("lockstep-hatch-{i}");
                    if page.contains(&format!("url(#{id})")) {
                        assert!(page.contains(&format!("<pattern id=\"{id}\"")), "{id}");
                    }
                }
                let got = elements(&page);
                let missing: Vec<_> = want.difference(&got).collect();
                let extra: Vec<_> = got.difference(&want).collect();
                assert!(
                    missing.is_empty() && extra.is_empty(),
                    "{id} {mode:?} step {n}: missing {missing:#?}\nextra {extra:#?}"
                );
            }
        }
    }
}

/// The y coordinates an element of plotters' output draws at: a text's line (and its height
/// around it), a circle's top and bottom, a rectangle's, every point of a line or polygon.
fn drawn_ys(el: &str) -> Vec<f64> {
    let num = |key| attr(el, key).and_then(|v| v.parse::<f64>().ok());
    let mut ys = Vec::new();
    if el.starts_with("<text") {
        let (y, size) = (num("y").unwrap(), num("font-size").unwrap());
        ys.extend([y - size, y + size]);
    } else if el.starts_with("<circle") {
        let (cy, r) = (num("cy").unwrap(), num("r").unwrap());
        ys.extend([cy - r, cy + r]);
    } else if el.starts_with("<rect") {
        let (y, h) = (num("y").unwrap(), num("height").unwrap());
        ys.extend([y, y + h]);
    } else if el.starts_with("<polyline") || el.starts_with("<polygon") {
        ys.extend(
            attr(el, "points")
                .unwrap()
                .split_whitespace()
                .filter_map(|p| p.split_once(',')?.1.parse::<f64>().ok()),
        );
    } else {
        panic!("an element the test does not measure: {el}");
    }
    ys
}

#[test]
fn every_group_draws_within_its_reach() {
    for id in catalogue::ids() {
        let scenario = catalogue::load(id).unwrap().unwrap();
        let run = lockstep_core::run(&scenario);
        for mode in [TimeMode::Logical, TimeMode::ToScale] {
            let options = Options {
                time_mode: mode,
                unfold_retries: true,
                ..Options::default()
            };
            let full = layout(&run.trace, &options);
            let height = full.height;
            let stepper = Stepper::new(full, &Caption::for_run(&scenario, &run));
            let base = stepper.base().unwrap();
            assert_eq!(base.reach.len(), base.layers.len());
            let (mut whole, mut groups) = (0, 0);
            for (layer, (groups_of, reaches)) in base.layers.iter().zip(&base.reach).enumerate() {
                assert_eq!(groups_of.len(), reaches.len());
                for ((step, svg), &(top, bottom)) in groups_of.iter().zip(reaches) {
                    groups += 1;
                    if (top, bottom) == (0.0, height) {
                        whole += 1;
                    }
                    for el in elements(svg) {
                        for y in drawn_ys(&el) {
                            assert!(
                                (top..=bottom).contains(&y),
                                "{id} {mode:?} {} group of step {step}: {el} draws at y {y}, \
                                 outside {top:.1}..{bottom:.1}",
                                LAYERS[layer]
                            );
                        }
                    }
                }
            }
            // The reach is worth having: only the lanes' group reaches the whole page.
            assert!(
                whole <= 1,
                "{id} {mode:?}: {whole} of {groups} groups reach the whole page"
            );
        }
    }
}
