//! What the timeline draws rather than only writes, and draws so a projector shows it: partitions
//! as walls, clock jumps as breaks, crashes only where no note is, a permissive database named as such, the
//! refused-row tint in its own colour with a legend entry, and hatching as SVG patterns.

mod common;

use lockstep_render::layout::{LegendKind, SpanKind};
use lockstep_render::style;
use lockstep_render::{Options, TimeMode, layout, run_lease_svg, run_svg};

#[test]
fn a_partition_is_a_wall_between_the_lanes_it_cuts_apart() {
    let (_, run) = common::load("redlock-clock-jump");
    let l = layout(&run.trace, &Options::default());
    let name = |i: usize| l.lanes[i].name.as_str();
    // A wall may come in pieces, with gaps where a delivered arrow passes.
    let mut cut: Vec<(&str, &str)> = l
        .walls
        .iter()
        .map(|w| (name(w.lanes.0), name(w.lanes.1)))
        .collect();
    cut.dedup();
    // {A, redis-1..3} | {B, redis-4, redis-5}, then {A, redis-1, redis-2} | {B, redis-3..5}.
    assert_eq!(cut, [("redis-3", "redis-4"), ("redis-2", "redis-3")]);
    let first = &l.walls[0];
    let second = l.walls.iter().find(|w| w.lanes != first.lanes).unwrap();
    assert_eq!(first.to_row, Some(second.from_row));
    let height: f64 = l
        .walls
        .iter()
        .filter(|w| w.lanes == first.lanes)
        .map(|w| w.rect.height())
        .sum();
    assert!(height > 300.0, "{first:?}");
    let x = (l.lanes[first.lanes.0].x + l.lanes[first.lanes.1].x) / 2.0;
    assert!(first.rect.x0 < x && x < first.rect.x1);
    assert!(l.legend.iter().any(|e| e.kind == LegendKind::Partition));
    // Healed: the wall stops at the heal.
    let (_, run) = common::load("redis-sentinel-split-brain");
    let l = layout(&run.trace, &Options::default());
    assert!(!l.walls.is_empty() && l.walls.iter().all(|w| w.to_row.is_some()));
}

#[test]
fn a_clock_jump_is_a_break_on_its_lane() {
    for id in ["redlock-clock-jump", "consensus-clock-jump-harmless"] {
        let (_, run) = common::load(id);
        for mode in [TimeMode::Logical, TimeMode::ToScale] {
            let l = layout(
                &run.trace,
                &Options {
                    time_mode: mode,
                    ..Options::default()
                },
            );
            assert_eq!(l.jumps.len(), 1, "{id} {mode:?}");
            let j = &l.jumps[0];
            assert!(j.by_ms >= 10_000);
            let label = j.label.as_ref().expect("how far the clock jumped");
            assert!(label.text.starts_with('+') && label.text.ends_with(" s"));
            assert_eq!(j.at.x, l.lanes[j.lane].x);
            // Below the row's note, where nothing hides it.
            let note = l.notes.iter().find(|n| n.row == j.row).expect("jump note");
            assert!(j.at.y > note.rect.y1, "{id}: break under its note");
            assert!(l.legend.iter().any(|e| e.kind == LegendKind::ClockJump));
        }
    }
}

/// The rectangles `svg` fills with `color`, as (x0, y0, x1, y1).
fn filled_rects(svg: &str, color: style::Rgb) -> Vec<(f64, f64, f64, f64)> {
    let attr = |el: &str, name: &str| -> f64 {
        let at = el.find(&format!(" {name}=\"")).expect("attribute") + name.len() + 3;
        el[at..].split('"').next().unwrap().parse().expect("number")
    };
    svg.split("<rect")
        .skip(1)
        .map(|el| el.split('>').next().unwrap())
        .filter(|el| el.contains(&format!("fill=\"{}\"", color.hex())))
        .map(|el| {
            let (x, y) = (attr(el, "x"), attr(el, "y"));
            (x, y, x + attr(el, "width"), y + attr(el, "height"))
        })
        .collect()
}

#[test]
fn crashes_are_drawn_only_where_no_note_is() {
    use lockstep_render::Caption;
    use lockstep_render::svg::Page;
    let mut seen = 0;
    for (id, scenario, run) in common::catalogue() {
        let options = Options::default().for_scenario(&scenario);
        let l = layout(&run.trace, &options);
        if !l.spans.iter().any(|s| s.kind == SpanKind::Down) {
            continue;
        }
        seen += 1;
        let dy = Page::new(&l, &Caption::for_run(&scenario, &run)).layout_dy;
        let svg = run_svg(&scenario, &run, &Options::default()).expect("draws");
        let crashes = filled_rects(&svg, style::DOWN_FILL);
        // The legend's swatch and at least one piece of each crash, unless the node restarts at
        // once (redlock-restart-without-persistence: its "crashes" and "restarts" notes on
        // neighbouring lines cover all of it).
        let lasts = l
            .spans
            .iter()
            .any(|s| s.kind == SpanKind::Down && s.rect.height() > 40.0);
        assert!(crashes.len() >= 2 || !lasts, "{id}: no crash drawn");
        for n in &l.notes {
            let (x0, y0, x1, y1) = (n.rect.x0, n.rect.y0 + dy, n.rect.x1, n.rect.y1 + dy);
            for c in &crashes {
                // Plotters rounds to whole pixels: allow one.
                let covers = c.0 < x1 - 1.0 && x0 + 1.0 < c.2 && c.1 < y1 - 1.0 && y0 + 1.0 < c.3;
                assert!(!covers, "{id}: crash {c:?} painted over note {:?}", n.rect);
            }
        }
    }
    assert!(seen >= 3, "crash scenarios: {seen}");
}

#[test]
fn a_permissive_database_says_so() {
    let (scenario, run) = common::load("migration-wrong-order");
    let svg = run_svg(&scenario, &run, &Options::default()).expect("draws");
    assert_eq!(svg.matches("database (permissive)").count(), 2);
    let (scenario, run) = common::load("fenced-gc-pause");
    let svg = run_svg(&scenario, &run, &Options::default()).expect("draws");
    assert!(!svg.contains("permissive"));
}

#[test]
fn a_permissive_database_is_drawn_as_a_warning() {
    let (scenario, run) = common::load("migration-wrong-order");
    assert_eq!(
        scenario.resource.fencing,
        lockstep_core::scenario::FencingMode::Permissive
    );
    let l = layout(&run.trace, &Options::default().for_scenario(&scenario));
    let permissive: Vec<&str> = l
        .lanes
        .iter()
        .filter(|lane| lane.is_permissive_db())
        .map(|lane| lane.name.as_str())
        .collect();
    assert_eq!(permissive, ["db"]);
    let fills = |svg: &str, c: style::Rgb| {
        let doc = roxmltree::Document::parse(svg).expect("xml");
        doc.descendants()
            .filter(|n| n.has_tag_name("rect") && n.attribute("fill") == Some(&c.hex()))
            .count()
    };
    let svg = run_svg(&scenario, &run, &Options::default()).expect("draws");
    // Header, footer and the legend's swatch: warning fill, dashed edge (many short strokes).
    assert_eq!(fills(&svg, style::PERMISSIVE_FILL), 3);
    assert!(svg.matches(&style::PERMISSIVE_BORDER.hex()).count() >= 8);
    let (scenario, run) = common::load("fenced-gc-pause");
    let svg = run_svg(&scenario, &run, &Options::default()).expect("draws");
    assert_eq!(fills(&svg, style::PERMISSIVE_FILL), 0);
}

#[test]
fn refused_rows_and_rows_paid_twice_paint_different_colours() {
    let fills = |svg: &str, c: style::Rgb| {
        let doc = roxmltree::Document::parse(svg).expect("xml");
        doc.descendants()
            .filter(|n| n.has_tag_name("rect") && n.attribute("fill") == Some(&c.hex()))
            .count()
    };
    // Fencing worked: the refused row, its own tint and legend entry, no "paid twice".
    let (scenario, run) = common::load("fenced-gc-pause");
    let l = layout(&run.trace, &Options::default());
    let kinds: Vec<LegendKind> = l.legend.iter().map(|e| e.kind).collect();
    assert!(kinds.contains(&LegendKind::RefusedRow));
    assert!(!kinds.contains(&LegendKind::DuplicateRow));
    let svg = run_svg(&scenario, &run, &Options::default()).expect("draws");
    assert!(fills(&svg, style::REFUSED_ROW) >= 2, "row and swatch");
    assert_eq!(fills(&svg, style::DUPLICATE_ROW), 0);
    // Money lost: the duplicate row in the danger family, with its own legend entry.
    let (scenario, run) = common::load("naive-gc-pause");
    let l = layout(&run.trace, &Options::default());
    let kinds: Vec<LegendKind> = l.legend.iter().map(|e| e.kind).collect();
    assert!(kinds.contains(&LegendKind::DuplicateRow));
    assert!(!kinds.contains(&LegendKind::RefusedRow));
    let svg = run_svg(&scenario, &run, &Options::default()).expect("draws");
    assert!(fills(&svg, style::DUPLICATE_ROW) >= 2, "row and swatch");
    assert_eq!(fills(&svg, style::REFUSED_ROW), 0);
    assert_ne!(style::REFUSED_ROW, style::DUPLICATE_ROW);
    let texts: Vec<&str> = l.legend.iter().map(|e| e.text.text.as_str()).collect();
    assert!(texts.iter().any(|t| t.contains("paid a second time")));
}

#[test]
fn refused_rows_have_their_own_tint_and_legend_entry() {
    let (scenario, run) = common::load("fenced-gc-pause");
    let l = layout(&run.trace, &Options::default());
    assert!(l.legend.iter().any(|e| e.kind == LegendKind::RefusedRow));
    assert!(l.legend.iter().any(|e| e.kind == LegendKind::Overlap));
    assert_ne!(style::REFUSED_ROW, style::DANGER);
    let svg = run_svg(&scenario, &run, &Options::default()).expect("draws");
    // The row tint and its swatch.
    assert!(svg.matches(&style::REFUSED_ROW.hex()).count() >= 2);
    // The danger band: the widest red rectangle, stronger than a 0.16 tint.
    let doc = roxmltree::Document::parse(&svg).expect("xml");
    let band = doc
        .descendants()
        .filter(|n| n.has_tag_name("rect"))
        .filter(|n| n.attribute("fill") == Some(&style::DANGER.hex()))
        .max_by_key(|n| {
            n.attribute("width")
                .and_then(|w| w.parse::<i64>().ok())
                .unwrap_or(0)
        })
        .expect("danger band");
    let opacity: f64 = band.attribute("opacity").unwrap().parse().unwrap();
    assert!(
        (opacity - style::DANGER_BAND_ALPHA).abs() < 0.01,
        "danger band opacity {opacity}"
    );
}

#[test]
fn hatching_is_a_pattern_not_hundreds_of_lines() {
    for id in [
        "fenced-gc-pause",
        "redis-restart-counter-reset",
        "redlock-clock-jump",
    ] {
        let (scenario, run) = common::load(id);
        for svg in [
            run_svg(&scenario, &run, &Options::default()).expect("draws"),
            run_lease_svg(&scenario, &run, &Options::default()).expect("draws"),
        ] {
            let doc = roxmltree::Document::parse(&svg).expect("xml");
            assert!(
                doc.descendants().any(|n| n.has_tag_name("pattern")),
                "{id}: no pattern"
            );
            let thin = doc
                .descendants()
                .filter(|n| n.has_tag_name("polyline"))
                .filter(|n| n.attribute("stroke-width") == Some("1"))
                .count();
            assert!(thin < 40, "{id}: {thin} thin lines");
            assert!(!svg.contains("#0102"), "{id}: a reserved fill left over");
        }
    }
}

#[test]
fn step_renders_of_a_run_all_have_one_size() {
    use lockstep_render::Caption;
    use lockstep_render::svg::Page;
    for (id, scenario, run) in common::catalogue() {
        let caption = Caption::for_run(&scenario, &run);
        let total = run.trace.events.len();
        for mode in [TimeMode::Logical, TimeMode::ToScale] {
            let sizes: Vec<(f64, f64)> = [1, total / 3, total / 2, total - 1, total]
                .into_iter()
                .map(|step| {
                    let options = Options {
                        time_mode: mode,
                        upto_step: Some(step),
                        ..Options::default()
                    }
                    .for_scenario(&scenario);
                    let page = Page::new(&layout(&run.trace, &options), &caption);
                    (page.width, page.height)
                })
                .collect();
            assert!(
                sizes.windows(2).all(|w| w[0] == w[1]),
                "{id} {mode:?}: {sizes:?}"
            );
        }
    }
}

#[test]
fn no_outline_is_a_closed_polyline() {
    // ImageMagick fills a closed `<polyline fill="none">` black: note boxes and lane headers
    // became black slabs in `convert`. Outlines are `<rect fill="none">` instead.
    for (id, scenario, run) in common::catalogue() {
        let svg = run_svg(&scenario, &run, &Options::default()).expect("draws");
        for el in svg.split("<polyline").skip(1) {
            let points = el
                .split("points=\"")
                .nth(1)
                .and_then(|p| p.split('"').next())
                .unwrap_or_default();
            let pts: Vec<&str> = points.split_whitespace().collect();
            assert!(
                pts.len() < 3 || pts.first() != pts.last(),
                "{id}: closed polyline {points}"
            );
        }
    }
}

#[test]
fn a_tokenless_write_a_permissive_database_took_is_marked() {
    let (scenario, run) = common::load("migration-wrong-order");
    let options = Options::default().for_scenario(&scenario);
    assert!(options.permissive_db);
    let l = layout(&run.trace, &options);
    let marked: Vec<&str> = l
        .arrows
        .iter()
        .map(|a| a.label.text.as_str())
        .filter(|t| t.contains("NO TOKEN"))
        .collect();
    // A's write with no token (step 31), which the database accepted, says so.
    assert_eq!(marked, ["write 3 payouts · NO TOKEN"]);
    // Writes with a token and databases that check tokens carry no such mark.
    for id in ["fenced-gc-pause", "naive-gc-pause"] {
        let (scenario, run) = common::load(id);
        let l = layout(&run.trace, &Options::default().for_scenario(&scenario));
        assert!(
            l.arrows.iter().all(|a| !a.label.text.contains("NO TOKEN")),
            "{id}"
        );
    }
}
