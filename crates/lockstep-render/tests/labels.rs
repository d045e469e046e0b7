//! No two text labels overlap, for any built-in scenario, in either time mode, at any step shown;
//! on the lease chart neither.

mod common;

use lockstep_render::geom::Rect;
use lockstep_render::lease::svg::LeasePage;
use lockstep_render::svg::Page;
use lockstep_render::{Caption, Options, TimeMode, layout, lease_chart};

fn overlaps(boxes: &[Rect]) -> Vec<(Rect, Rect)> {
    let mut out = Vec::new();
    for (i, a) in boxes.iter().enumerate() {
        for b in &boxes[i + 1..] {
            if a.overlaps(b) {
                out.push((*a, *b));
            }
        }
    }
    out
}

#[test]
fn no_labels_overlap_in_any_scenario() {
    for (id, scenario, run) in common::catalogue() {
        let caption = Caption::for_run(&scenario, &run);
        let total = run.trace.events.len();
        for mode in [TimeMode::Logical, TimeMode::ToScale] {
            for upto in [None, Some(1), Some(total / 3), Some(total / 2), Some(total)] {
                let options = Options {
                    time_mode: mode,
                    upto_step: upto,
                    ..Options::default()
                };
                let l = layout(&run.trace, &options);
                let found = l.overlapping_labels();
                assert!(found.is_empty(), "{id} {mode:?} {upto:?}: {found:?}");
                let page = Page::new(&l, &caption);
                let boxes = page.label_boxes(&l);
                let found = overlaps(&boxes);
                assert!(found.is_empty(), "{id} {mode:?} {upto:?} page: {found:?}");
                // Everything fits on the page.
                for b in &boxes {
                    assert!(
                        b.x0 >= 0.0 && b.y0 >= 0.0 && b.x1 <= page.width && b.y1 <= page.height,
                        "{id} {mode:?}: {b:?} outside {}x{}",
                        page.width,
                        page.height
                    );
                }
            }
        }
        let chart = lease_chart(&run.trace, &Options::default());
        let page = LeasePage::new(&chart, &caption);
        let found = overlaps(&page.label_boxes());
        assert!(found.is_empty(), "{id} lease chart: {found:?}");
    }
}

#[test]
fn no_label_covers_an_arrow_head_or_a_mark() {
    use lockstep_render::layout::{ArrowEnd, MarkKind};
    for (id, _, run) in common::catalogue() {
        for mode in [TimeMode::Logical, TimeMode::ToScale] {
            let l = layout(
                &run.trace,
                &Options {
                    time_mode: mode,
                    ..Options::default()
                },
            );
            let mut symbols: Vec<Rect> = Vec::new();
            for a in l.arrows.iter().filter(|a| a.end == ArrowEnd::Delivered) {
                let back = if a.tip.x > a.start.x { -14.0 } else { 14.0 };
                symbols.push(Rect::new(
                    a.tip.x,
                    a.tip.y - 6.0,
                    a.tip.x + back,
                    a.tip.y + 6.0,
                ));
            }
            // Marks outside notes (the icons inside notes sit in space reserved for them).
            for m in l.marks.iter().filter(|m| {
                !matches!(
                    m.kind,
                    MarkKind::Duplicate | MarkKind::Expired | MarkKind::Paused
                )
            }) {
                // A sender's dot is smaller than the symbols.
                let half = if m.kind == MarkKind::Sender { 7.0 } else { 9.0 };
                symbols.push(Rect::new(
                    m.at.x - half,
                    m.at.y - half,
                    m.at.x + half,
                    m.at.y + half,
                ));
            }
            let labels: Vec<Rect> = l
                .arrows
                .iter()
                .map(|a| a.label.rect)
                .chain(l.notes.iter().map(|n| n.rect))
                // A fan-out's other arrows have empty labels (at the sender's dot): nothing drawn.
                .filter(|r| r.width() > 0.0)
                .collect();
            for s in &symbols {
                for b in &labels {
                    assert!(!s.overlaps(b), "{id} {mode:?}: {s:?} under label {b:?}");
                }
            }
        }
    }
}

#[test]
fn the_overlap_check_can_fail() {
    let (_, run) = common::load("fenced-gc-pause");
    let mut l = layout(&run.trace, &Options::default());
    assert!(l.overlapping_labels().is_empty());
    // Move the second arrow's label onto the first's: the check must see it.
    l.arrows[1].label.rect = l.arrows[0].label.rect;
    assert_eq!(l.overlapping_labels().len(), 1);
}

/// Every (shaft, box) pair where an arrow's shaft runs through a text box that is not its own
/// label: other arrows' labels, notes, gutter labels, lane headers.
fn shafts_through_text(l: &lockstep_render::Layout) -> Vec<String> {
    use lockstep_render::geom::inside_length;
    let mut boxes: Vec<(String, Rect, Option<usize>)> = Vec::new();
    for (k, a) in l.arrows.iter().enumerate() {
        if !a.label.text.is_empty() {
            boxes.push((format!("label {:?}", a.label.text), a.label.rect, Some(k)));
        }
    }
    for n in &l.notes {
        boxes.push((format!("note {:?}", n.text.text), n.rect, None));
    }
    for lane in &l.lanes {
        boxes.push((format!("header {}", lane.name), lane.header_box, None));
        boxes.push((format!("footer {}", lane.name), lane.footer_box, None));
    }
    let mut out = Vec::new();
    for (k, a) in l.arrows.iter().enumerate() {
        for (what, rect, owner) in &boxes {
            if *owner == Some(k) {
                continue;
            }
            let inside = inside_length(a.start, a.tip, rect);
            if inside > 1.0 {
                out.push(format!(
                    "arrow {} ({}->{}) runs {inside:.0} px through {what}",
                    a.send_row + 1,
                    l.lanes[a.from_lane].name,
                    l.lanes[a.to_lane].name
                ));
            }
        }
    }
    out
}

#[test]
fn no_arrow_runs_through_a_label_or_a_note() {
    let mut failures = Vec::new();
    for (id, _, run) in common::catalogue() {
        let total = run.trace.events.len();
        for mode in [TimeMode::Logical, TimeMode::ToScale] {
            for upto in [None, Some(total / 3), Some(total / 2), Some(total * 3 / 4)] {
                let options = Options {
                    time_mode: mode,
                    upto_step: upto,
                    ..Options::default()
                };
                let l = layout(&run.trace, &options);
                // A message long in flight (no clear path from its send to its arrival) is one
                // slanted arrow all the same, painted beneath the labels and notes it crosses,
                // which stay readable on their backing (see
                // `labels_and_notes_are_painted_over_messages_long_in_flight`). Only these.
                let held_up = |f: &String| {
                    l.arrows
                        .iter()
                        .any(|a| a.beneath && f.starts_with(&format!("arrow {} ", a.send_row + 1)))
                };
                for f in shafts_through_text(&l).into_iter().filter(|f| !held_up(f)) {
                    failures.push(format!("{id} {mode:?} {upto:?}: {f}"));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} crossings:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn the_crossing_check_can_fail() {
    let (_, run) = common::load("fenced-gc-pause");
    let mut l = layout(&run.trace, &Options::default());
    assert!(shafts_through_text(&l).is_empty());
    // Put a note on the first arrow's shaft: the check must see it.
    let a = l.arrows[0].clone();
    let mid = Rect::new(
        (a.start.x + a.tip.x) / 2.0 - 20.0,
        a.start.y - 10.0,
        (a.start.x + a.tip.x) / 2.0 + 20.0,
        a.start.y + 10.0,
    );
    l.notes[0].rect = mid;
    assert_eq!(shafts_through_text(&l).len(), 1);
}

/// A message long in flight passes beneath the rows it crosses: in the SVG its shaft comes
/// before (under) every arrow label's backing and every note, so their text stays readable
/// (naive-network-delay's delayed write crosses the expiry note and B's DELEX label).
#[test]
fn labels_and_notes_are_painted_over_messages_long_in_flight() {
    let mut seen = 0;
    for id in ["naive-network-delay", "redis-sentinel-split-brain"] {
        let (scenario, run) = common::load(id);
        for mode in [TimeMode::Logical, TimeMode::ToScale] {
            let options = Options {
                time_mode: mode,
                ..Options::default()
            };
            let l = layout(&run.trace, &options);
            let svg = lockstep_render::run_svg(&scenario, &run, &options).expect("draws");
            for a in l.arrows.iter().filter(|a| a.beneath) {
                seen += 1;
                // The shaft: a line of the arrows' width from the tail's x, going down about
                // as far as the arrow does (the page shifts the layout down by its caption).
                let drop = a.tip.y - a.start.y;
                let at = shafts(&svg)
                    .into_iter()
                    .find(|&(_, (x0, y0), (_, y1))| {
                        (x0 - a.start.x).abs() < 1.0 && y1 - y0 > drop * 0.8 && y1 - y0 < drop
                    })
                    .map(|(at, ..)| at)
                    .unwrap_or_else(|| {
                        panic!("{id} {mode:?}: no shaft for step {}", a.send_row + 1)
                    });
                for text in l
                    .arrows
                    .iter()
                    .map(|b| &b.label.text)
                    .chain(l.notes.iter().map(|n| &n.text.text))
                    .filter(|t| !t.is_empty())
                {
                    // A label on two lines is drawn as one `<text>` per line.
                    let line = text.split('\n').next().unwrap_or_default();
                    let escaped = line
                        .replace('&', "&amp;")
                        .replace('<', "&lt;")
                        .replace('>', "&gt;")
                        .replace('\'', "&apos;")
                        .replace('"', "&quot;");
                    let first = svg
                        .find(&format!(">\n{escaped}\n</text>"))
                        .unwrap_or_else(|| panic!("{id} {mode:?}: {text:?} not drawn"));
                    assert!(
                        first > at,
                        "{id} {mode:?}: {text:?} painted under the long flight"
                    );
                }
            }
        }
    }
    assert!(seen >= 3, "{seen}");
}

/// A point in the SVG.
type Xy = (f64, f64);

/// Where each arrow shaft (a 3 px line) starts in the SVG, with its two points.
fn shafts(svg: &str) -> Vec<(usize, Xy, Xy)> {
    let key = "stroke-width=\"3\" points=\"";
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(k) = svg[from..].find(key) {
        let at = from + k;
        let rest = &svg[at + key.len()..];
        let pts: Vec<(f64, f64)> = rest[..rest.find('"').unwrap_or(0)]
            .split_whitespace()
            .filter_map(|p| {
                let (x, y) = p.split_once(',')?;
                Some((x.parse().ok()?, y.parse().ok()?))
            })
            .collect();
        if let [a, b] = pts[..] {
            out.push((at, a, b));
        }
        from = at + key.len();
    }
    out
}

/// A label on two lines keeps the line above its arrow to itself: its first line sits level with
/// no other step (it read as that step's label, and clicking that step's words selected this
/// one), and every step of a line is outlined as tall as the line's words.
#[test]
fn a_two_line_labels_first_line_is_on_a_line_of_its_own() {
    let mut seen = 0;
    for (id, _, run) in common::catalogue() {
        let l = lockstep_render::layout(&run.trace, &lockstep_render::Options::default());
        for a in l.arrows.iter().filter(|a| a.label.text.contains('\n')) {
            seen += 1;
            let (_, y) = a.label.lines().next().expect("a first line");
            let own = l
                .rows
                .iter()
                .find(|r| r.y > a.label.rect.y1)
                .map(|r| r.line);
            for r in l.rows.iter().filter(|r| Some(r.line) != own) {
                assert!(
                    (r.y - y).abs() >= 16.0,
                    "{id}: step {} ({}) level with the first line of {:?}",
                    r.step,
                    r.label,
                    a.label.text
                );
            }
        }
        let mut lines = std::collections::BTreeMap::new();
        for r in &l.rows {
            let e = lines.entry(r.line).or_insert((r.top, r.bottom));
            assert_eq!(
                *e,
                (r.top, r.bottom),
                "{id}: step {} outlined unlike its line",
                r.step
            );
        }
    }
    assert!(seen >= 20, "{seen} two-line labels in the catalogue");
}
