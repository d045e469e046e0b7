//! A label belongs visibly to its own arrow: over every built-in scenario, both time modes and
//! several steps, every arrow label lies above its own arrow and nearer its own shaft than any
//! other arrow's shaft (a request's label must not sit just above the reply, reading as the
//! reply's).

mod common;

use lockstep_render::geom::{Point, Rect, point_segment};
use lockstep_render::layout::Arrow;
use lockstep_render::{Layout, Options, layout};

/// Distance from a box to the segment `a`-`b` (0 when it crosses the box).
fn box_segment(r: &Rect, a: Point, b: Point) -> f64 {
    if lockstep_render::geom::inside_length(a, b, r) > 0.0 {
        return 0.0;
    }
    let clamp = |p: Point| Point::new(p.x.clamp(r.x0, r.x1), p.y.clamp(r.y0, r.y1));
    let to_box = |p: Point| {
        let c = clamp(p);
        ((p.x - c.x).powi(2) + (p.y - c.y).powi(2)).sqrt()
    };
    let corners = [
        Point::new(r.x0, r.y0),
        Point::new(r.x1, r.y0),
        Point::new(r.x0, r.y1),
        Point::new(r.x1, r.y1),
    ];
    corners
        .iter()
        .map(|&c| point_segment(c, a, b))
        .chain([to_box(a), to_box(b)])
        .fold(f64::INFINITY, f64::min)
}

/// Whether two arrows are drawn as one (a fan-out or fan-in shares one label).
fn same_group(a: &Arrow, b: &Arrow) -> bool {
    let lead = |x: &Arrow| x.group.unwrap_or(x.send_row);
    lead(a) == lead(b)
}

/// Every label that sits below its arrow or nearer another arrow's shaft than its own.
fn misplaced(l: &Layout) -> Vec<String> {
    let mut out = Vec::new();
    for (k, a) in l.arrows.iter().enumerate() {
        let r = a.label.rect;
        if a.label.text.is_empty() || r.width() <= 0.0 {
            continue;
        }
        // A fan-out's or fan-in's one label belongs to all its arrows. A message long in
        // flight is labelled at its tail, on its send row, as in Kleppmann's figures: its label
        // is measured from that row (its shaft soon slants away below).
        let own = l
            .arrows
            .iter()
            .filter(|b| same_group(a, b))
            .map(|b| {
                let tail = Point::new(b.tip.x, b.start.y);
                let along = if b.beneath { tail } else { b.tip };
                box_segment(&r, b.start, along)
            })
            .fold(f64::INFINITY, f64::min);
        // Above its arrow: the label's bottom at or above the shaft where the label ends.
        let at = |x: f64| {
            let (dx, dy) = (a.tip.x - a.start.x, a.tip.y - a.start.y);
            if dx.abs() < 1e-9 {
                a.start.y
            } else {
                a.start.y + dy * ((x - a.start.x) / dx).clamp(0.0, 1.0)
            }
        };
        if r.y1 > at(r.x0).min(at(r.x1)) + 0.5 {
            out.push(format!(
                "{:?} (step {}) is below its arrow",
                a.label.text,
                a.send_row + 1
            ));
        }
        for (j, b) in l.arrows.iter().enumerate() {
            // A message long in flight passes beneath the rows it crosses (as tests/labels.rs
            // allows): not another label's arrow.
            if j == k || same_group(a, b) || b.beneath {
                continue;
            }
            let other = box_segment(&r, b.start, b.tip);
            if other <= own {
                out.push(format!(
                    "{:?} (step {}) is {other:.1} px from the arrow of step {} and {own:.1} px from its own",
                    a.label.text,
                    a.send_row + 1,
                    b.send_row + 1
                ));
            }
        }
    }
    out
}

#[test]
fn every_label_is_nearest_its_own_arrow() {
    let mut failures = Vec::new();
    common::each_layout(&[(1, 3), (1, 2), (3, 4)], |name, l| {
        for f in misplaced(l) {
            failures.push(format!("{name}: {f}"));
        }
    });
    assert!(
        failures.is_empty(),
        "{} labels misplaced:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn the_ownership_check_can_fail() {
    let (_, run) = common::load("fenced-gc-pause");
    let mut l = layout(&run.trace, &Options::default());
    assert!(misplaced(&l).is_empty(), "{:?}", misplaced(&l));
    // Hang the first arrow's label just above the second arrow: it reads as the second's.
    let second = l.arrows[1].clone();
    let h = l.arrows[0].label.rect.height();
    let r = &mut l.arrows[0].label.rect;
    r.y1 = second.start.y - 3.0;
    r.y0 = r.y1 - h;
    assert!(!misplaced(&l).is_empty());
}
