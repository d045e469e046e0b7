//! To scale, no arrow runs through a label or a note, except a message long in flight (the
//! delayed write of naive-network-delay): one straight diagonal from its send to its arrival,
//! painted beneath the notes and labels of the steps it flies over.

mod common;

use lockstep_render::geom::{Point, Rect};

/// How far (px) an arrow may run inside a label or note box: a head touching a label's corner
/// is not a crossing.
const SLACK: f64 = 12.0;

/// The length of segment `a`-`b` inside `r`, sampled every half pixel.
fn inside(a: Point, b: Point, r: &Rect) -> f64 {
    let len = ((b.x - a.x).powi(2) + (b.y - a.y).powi(2)).sqrt();
    let n = (len * 2.0).ceil().max(1.0) as usize;
    let step = len / n as f64;
    (0..=n)
        .map(|k| k as f64 / n as f64)
        .filter(|t| {
            let (x, y) = (a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t);
            x > r.x0 && x < r.x1 && y > r.y0 && y < r.y1
        })
        .count() as f64
        * step
}

#[test]
fn no_arrow_or_flight_crosses_a_label_or_note_to_scale() {
    let mut failures = Vec::new();
    for (id, l) in common::each_to_scale() {
        // Every box of text: notes, arrow labels, stub labels.
        let mut boxes: Vec<(String, Rect, Option<usize>)> = l
            .notes
            .iter()
            .map(|n| (format!("note {:?}", n.text.text), n.rect, None))
            .collect();
        for (k, a) in l.arrows.iter().enumerate() {
            if !a.label.text.is_empty() {
                boxes.push((format!("label {:?}", a.label.text), a.label.rect, Some(k)));
            }
        }
        let flights = l.flights.iter().map(|f| (f.start, f.tip, f.send_row));
        // A message long in flight (no clear path) passes beneath the rows it crosses, painted
        // under their labels and notes (tests/labels.rs checks the SVG's order): the only
        // arrows that may.
        let shafts = l
            .arrows
            .iter()
            .enumerate()
            .filter(|(_, a)| a.start.y != a.tip.y && !a.beneath)
            .map(|(k, a)| (a.start, a.tip, k, a.send_row));
        for (a, b, own, row) in shafts {
            for (what, r, owner) in &boxes {
                let d = inside(a, b, r);
                if *owner != Some(own) && d > SLACK {
                    failures.push(format!(
                        "{id}: slanted arrow of #{} crosses {what} by {d:.0} px",
                        row + 1
                    ));
                }
            }
        }
        for (a, b, row) in flights {
            for (what, r, _) in boxes.iter().filter(|(w, ..)| w.starts_with("note")) {
                let d = inside(a, b, r);
                if d > SLACK {
                    failures.push(format!(
                        "{id}: stub of #{} crosses {what} by {d:.0} px",
                        row + 1
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
