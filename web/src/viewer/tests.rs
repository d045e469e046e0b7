//! The viewer's tests: stepping, branching by what-ifs and the links that replay them.

use super::*;
use lockstep_core::Outcome;
use lockstep_core::catalogue;
use lockstep_core::scenario::{Fault, FaultKind};
use std::rc::Rc;

fn builtin(id: &str) -> Viewer {
    Viewer::open(Source::Builtin(id.into()), &[]).unwrap()
}

#[test]
fn the_end_of_fenced_gc_pause_shows_the_rejection_and_safe() {
    let mut v = builtin("fenced-gc-pause");
    v.go(StepTarget::End);
    assert!(v.at_end());
    assert_eq!(v.verdict_so_far().outcome, Outcome::Safe);
    let svg = v.step_svg(TimeMode::Logical).unwrap();
    assert!(svg.contains("rejected"));
    assert!(svg.contains("<title id=\"ls-title\">"));
    let pic = v.picture(TimeMode::Logical).unwrap();
    assert_eq!(pic.rows.len(), v.total());
    assert!(v.frame(&pic).unwrap().live.after.contains("Verdict: safe"));
}

#[test]
fn a_step_keeps_the_picture_and_shows_one_more_step_of_it() {
    let mut v = builtin("naive-gc-pause");
    let pic = v.picture(TimeMode::Logical).unwrap();
    v.seek(5);
    let early = v.frame(&pic).unwrap();
    v.seek(6);
    // The same branch and mode: the picture drawn once still fits.
    assert!(v.picture(TimeMode::Logical).unwrap() == pic);
    let later = v.frame(&pic).unwrap();
    let (a, b) = (early.shown(&pic), later.shown(&pic));
    assert!(a.iter().zip(&b).all(|(x, y)| x <= y), "{a:?} {b:?}");
    assert!(a.iter().sum::<usize>() < b.iter().sum::<usize>());
    // No element per row: only the fault rows (the GC pause) have marks; the page finds
    // rows from the mouse's y.
    let faults = pic.rows.iter().filter(|r| r.fault).count();
    assert!(faults > 0 && faults < pic.rows.len());
    assert_eq!(pic.groups.last().unwrap().len(), faults);
    // The mouse finds a shown row from its y, and no row that has not happened yet.
    let sixth = &pic.rows[5];
    let mid = (sixth.top + sixth.bottom) / 2.0;
    assert_eq!(pic.row_at(f64::NAN, mid, 6).map(|r| r.step), Some(6));
    assert!(pic.row_at(f64::NAN, mid, 5).is_none_or(|r| r.step <= 5));
    assert!(pic.row_at(f64::NAN, -100.0, 6).is_none());
    assert!(
        later.live.before.contains("Step 6 of"),
        "{}",
        later.live.before
    );
    assert!(v.picture(TimeMode::ToScale).unwrap() != pic);
    // Every row of this run draws an arrow or a note: each has a horizontal extent, within
    // the page, for scrolling it into view sideways; but a note over every lane (the end of the
    // run) is in view wherever the window is, and gives none.
    let page_width = later.live.width;
    let last = pic.rows.last().map(|r| r.step);
    for r in &pic.rows {
        if Some(r.step) == last {
            assert_eq!(
                r.span, None,
                "the run's end note gives a reason to scroll sideways"
            );
            continue;
        }
        let (x0, x1) = r
            .span
            .unwrap_or_else(|| panic!("row {} has no extent", r.step));
        assert!(
            0.0 <= x0 && x0 < x1 && x1 <= page_width,
            "row {}: {x0}..{x1}",
            r.step
        );
    }
    // A frame computed ahead is the frame the step shows.
    v.prefetch(&pic);
    v.seek(7);
    let ahead = v.frame(&pic).unwrap();
    assert_eq!(ahead, v.frame(&pic).unwrap());
    v.seek(6);
    assert_eq!(v.frame(&pic).unwrap(), later);
    // The last step's frame computed ahead is the one End shows, however many steps came between.
    v.prefetch_last(&pic);
    let end = v.total();
    for n in 0..12 {
        v.seek(n);
        v.prefetch(&pic);
    }
    assert!(
        v.kept(&pic, end).is_some(),
        "stepping pushed the last step's frame out"
    );
    v.seek(end);
    let kept = v.frame(&pic).unwrap();
    assert_eq!(kept.step, end);
    assert_eq!(kept, v.frame_at(&pic, end).unwrap());
}

#[test]
fn a_pause_what_if_branches_and_its_link_replays_the_branch() {
    let mut v = builtin("naive-happy-path");
    assert_eq!(v.final_verdict().outcome, Outcome::Safe);
    let granted = v
        .full_trace()
        .events
        .iter()
        .position(|e| e.label == "A holds the lock")
        .unwrap();
    v.seek(granted + 1);
    // A's reaction to the OK goes on: "A holds the lock", then its status read. The pause lands
    // after it, and the branch begins at the step after that.
    let lands = v.session().lands_after();
    assert_eq!(lands, granted + 2);
    let pause = Fault {
        target: Some("A".into()),
        duration_ms: Some(10_000),
        ..Fault::new(FaultKind::Pause)
    };
    v.apply(Change::Fault(pause)).unwrap();
    assert!(v.total() > v.pos());
    let branch_at = lands + 1;
    v.forward();
    let pic = v.picture(TimeMode::Logical).unwrap();
    let marked: Vec<usize> = pic
        .rows
        .iter()
        .filter(|r| r.branch)
        .map(|r| r.step)
        .collect();
    assert_eq!(marked, vec![branch_at]);
    let link = v.view(TimeMode::Logical, Chart::Timeline);
    let again = Viewer::open_view(&View::parse(&link.to_hash()).unwrap().unwrap()).unwrap();
    assert_eq!(again.pos(), v.pos());
    assert_eq!(again.trace_json(), v.trace_json());
}

#[test]
fn a_what_if_branch_is_named_in_its_title_its_svg_and_its_json() {
    let mut v = builtin("naive-happy-path");
    let plain = v.title();
    v.seek(6);
    let at_ms = v.full_trace().events[5].time_ms;
    let pause = Fault {
        target: Some("A".into()),
        duration_ms: Some(10_000),
        ..Fault::new(FaultKind::Pause)
    };
    v.apply(Change::Fault(pause)).unwrap();
    let title = v.title();
    assert_eq!(
        title,
        format!("What-if: pause A for 10 s at {at_ms} ms (after step 6) — in “{plain}”")
    );
    v.go(StepTarget::End);
    let svg = v.step_svg(TimeMode::Logical).unwrap();
    assert!(svg.contains("What-if: pause A for 10 s"), "the SVG heading");
    let pic = v.picture(TimeMode::Logical).unwrap();
    assert!(v.frame(&pic).unwrap().title.starts_with("What-if: "));
    let json: serde_json::Value = serde_json::from_str(&v.trace_json()).unwrap();
    assert_eq!(json["scenario"]["title"], title.as_str());
    assert_eq!(json["whatifs"][0]["at_step"], 6);
    assert_eq!(json["whatifs"][0]["kind"], "pause");
    // Its summary says it is a branch, and what the scenario as written expects.
    let summary = json["scenario"]["summary"].as_str().unwrap();
    assert!(
        summary.starts_with("A what-if branch of ")
            && summary.contains(&format!(
                "expects {}",
                json["scenario"]["expect"].as_str().unwrap()
            )),
        "{summary}"
    );
    // The original run keeps its own title and plain document.
    v.reset_branch().unwrap();
    assert_eq!(v.title(), plain);
    assert!(!v.trace_json().contains("whatifs"));
}

#[test]
fn a_link_past_the_end_shows_the_last_step_and_says_so() {
    let view = View::parse("#scenario=fenced-gc-pause&step=9999")
        .unwrap()
        .unwrap();
    let v = Viewer::open_view(&view).unwrap();
    assert!(v.at_end());
    assert_eq!(
        v.step_note(view.step).unwrap(),
        format!(
            "step 9999 is past the end ({} steps); showing the last step",
            v.total()
        )
    );
    assert_eq!(v.step_note(StepTarget::At(v.total())), None);
    assert_eq!(v.step_note(StepTarget::End), None);
}

#[test]
fn an_unknown_id_and_a_bad_file_say_what_is_wrong() {
    let e = Viewer::open(Source::Builtin("nope".into()), &[]).unwrap_err();
    assert!(e.to_string().contains("no built-in scenario “nope”"));
    let e = Source::own("mine.toml", "name = \"x\"\ntitle = 3\n").unwrap_err();
    assert!(e.to_string().starts_with("mine.toml:2:"), "{e}");
}

#[test]
fn the_json_matches_the_native_document_for_every_builtin() {
    for id in catalogue::ids() {
        let v = builtin(id);
        let scenario = catalogue::load(id).unwrap().unwrap();
        let run = lockstep_core::run(&scenario);
        let doc = TraceDocument::new(&scenario, &run.trace, &run.verdict);
        assert_eq!(
            v.trace_json(),
            serde_json::to_string_pretty(&doc).unwrap(),
            "{id}"
        );
    }
}

#[test]
fn titles_are_escaped() {
    let s = with_title("<svg width=\"1\">x</svg>", "a<b", "c&d");
    assert_eq!(
        s,
        "<svg width=\"1\" role=\"img\" aria-labelledby=\"ls-title ls-desc\"><title id=\"ls-title\">a&lt;b</title><desc id=\"ls-desc\">c&amp;d</desc>x</svg>"
    );
}

#[test]
fn the_page_draws_the_timeline_without_its_legend_column_and_keeps_the_legend_for_its_panel() {
    let mut v = builtin("fenced-gc-pause");
    let pic = v.picture(TimeMode::Logical).unwrap();
    let whole = v.step_svg(TimeMode::Logical).unwrap();
    let drawn_width = |svg: &str| -> f64 {
        let w = svg.split("width=\"").nth(1).unwrap();
        w[..w.find('"').unwrap()].parse().unwrap()
    };
    // Narrower than the standalone drawing by the legend's column, and still as wide as the lanes.
    assert!(f64::from(pic.page_width()) < drawn_width(&whole) - 200.0);
    assert!(pic.lanes.iter().all(|l| l.x < f64::from(pic.page_width())));
    v.seek(20);
    let f = v.frame(&pic).unwrap();
    let legend = lockstep_render::svg::stepped::LAYERS
        .iter()
        .position(|n| *n == "legend")
        .unwrap();
    assert!(
        !f.live.layers[legend].contains("<text"),
        "no legend in the picture"
    );
    // Each entry's swatch is its own few elements, without the words (the panel sets them).
    assert!(f.legend.entries.len() > 3);
    for e in f.legend.entries.iter().filter(|e| !e.ghost) {
        assert!(!e.words.is_empty() && !e.svg.is_empty(), "{e:?}");
        assert!(!e.svg.contains(&e.words), "{e:?}");
        assert!(e.svg.matches('<').count() <= 12, "{e:?}");
    }
    // Steps whose legends list the same entries share its drawing (a step does not redraw the
    // panel).
    let mut shared = 0;
    for step in 21..30 {
        v.seek(step);
        let g = v.frame(&pic).unwrap();
        if g.legend.entries == f.legend.entries {
            assert!(Rc::ptr_eq(&f.legend, &g.legend), "step {step}");
            shared += 1;
        }
    }
    assert!(shared > 0);
    // An entry kept from one step's legend to the next keeps its swatch's drawing.
    v.seek(29);
    let g = v.frame(&pic).unwrap();
    for e in g.legend.entries.iter().filter(|e| !e.ghost) {
        let drawn = f.legend.entries.iter().filter(|s| !s.ghost);
        if let Some(same) = drawn.into_iter().find(|s| s.key() == e.key()) {
            assert!(Rc::ptr_eq(same, e), "{}", e.key());
        }
    }
    // What the page shows is what lockstep-render draws without the legend.
    let shown = v.shown_step_svg(TimeMode::Logical).unwrap();
    assert_eq!(drawn_width(&shown), f64::from(pic.page_width()));
    assert_eq!(pic.lanes.len(), 4);
}

#[test]
fn next_row_skips_the_steps_that_share_a_row_and_previous_row_goes_back() {
    let v = builtin("redlock-split-votes");
    let pic = v.picture(TimeMode::Logical).unwrap();
    let first = row_step(&pic.rows, 0, true).unwrap();
    assert_eq!(first, 1);
    let second = row_step(&pic.rows, first, true).unwrap();
    assert!(
        second > first + 1,
        "steps 1.. share a row: {first} -> {second}"
    );
    let line = |s: usize| pic.rows[s - 1].line;
    assert!(line(second) > line(first));
    assert!((first..second).all(|s| line(s) == line(first)));
    // Up goes to the last step of the row above.
    assert_eq!(row_step(&pic.rows, second, false), Some(second - 1));
    assert_eq!(row_step(&pic.rows, first, false), Some(0));
    let last = pic.rows.len();
    assert_eq!(row_step(&pic.rows, last, true), None);
}

#[test]
fn a_captions_words_in_the_way_are_those_drawn_near_its_line_but_not_its_own() {
    // consensus-fenced-failover #115: A hears "rejected — 33 < last_token 34" from the database
    // just under the line that drew A's note "A's client discards the answer".
    let v = builtin("consensus-fenced-failover");
    let pic = v.picture(TimeMode::Logical).unwrap();
    let row = &pic.rows[114];
    assert!(row.arrives && row.label.starts_with("rejected"), "{row:?}");
    let near = crate::caption::near(&pic.words, 114, row.y, 5.0);
    let note = pic
        .words
        .iter()
        .find(|w| w.note && w.row < 114 && w.rect.3 > row.y - 30.0)
        .expect("the note of the line above");
    let (x0, y0, x1, y1) = note.rect;
    assert!(near.contains(&(x0, y0 + 5.0, x1, y1 + 5.0)), "{near:?}");
    // The rejection's own label is what the caption repeats: not in its way.
    let own = pic
        .words
        .iter()
        .find(|w| w.arrival == Some(114))
        .expect("the rejection's label");
    assert!(!near.iter().any(|b| b.0 == own.rect.0 && b.2 == own.rect.2));
    // Nothing not yet drawn, nothing far from the line.
    assert!(
        near.iter()
            .all(|b| b.1 - 5.0 < row.y + 80.0 && b.3 - 5.0 > row.y - 80.0)
    );
    assert!(!pic.words.iter().filter(|w| w.row > 114).any(|w| {
        let r = w.rect;
        near.contains(&(r.0, r.1 + 5.0, r.2, r.3 + 5.0))
    }));
}

#[test]
fn the_nodes_paused_or_down_are_named_at_each_step() {
    let mut v = builtin("fenced-gc-pause");
    assert!(v.lane_states().is_empty());
    // A's GC pause is step 10 (10,000 ms); A resumes at 11,000 ms.
    let paused: Vec<usize> = (1..=v.total())
        .filter(|&n| {
            v.seek(n);
            v.lane_states() == [("A".to_string(), "paused")]
        })
        .collect();
    assert_eq!(paused.first(), Some(&10), "{paused:?}");
    assert!(paused.windows(2).all(|w| w[1] == w[0] + 1), "{paused:?}");
    assert!(paused.contains(&29), "{paused:?}");
    v.go(StepTarget::End);
    assert!(v.lane_states().is_empty());
    // A crash: consensus-fenced-failover's leader goes down.
    let mut v = builtin("consensus-fenced-failover");
    let down = (1..=v.total()).any(|n| {
        v.seek(n);
        v.lane_states().iter().any(|(_, s)| *s == "down")
    });
    assert!(down);
}

#[test]
fn a_lease_chart_for_a_presenters_box_is_laid_out_narrower_at_every_step() {
    let mut v = builtin("fenced-gc-pause");
    let width = |svg: &str| {
        let at = svg.find("width=\"").unwrap() + 7;
        svg[at..svg[at..].find('"').unwrap() + at]
            .parse::<f64>()
            .unwrap()
    };
    v.seek(22);
    let slide = width(&v.lease_chart(TimeMode::Logical, None, None).unwrap());
    let boxed = width(
        &v.lease_chart(TimeMode::Logical, None, Some(908.0 / 592.0))
            .unwrap(),
    );
    assert_eq!(slide, 1600.0);
    assert!(boxed < slide, "{boxed}");
    // One width for the run: stepping never resizes the chart.
    v.seek(5);
    let early = v
        .lease_chart(TimeMode::Logical, None, Some(908.0 / 592.0))
        .unwrap();
    assert_eq!(width(&early), boxed);
    // A phone's window wins: it scrolls the chart sideways.
    let phone = v
        .lease_chart(TimeMode::Logical, Some(500.0), Some(0.5))
        .unwrap();
    assert_eq!(width(&phone), 1600.0);
}

#[test]
fn an_own_file_says_which_of_its_faults_and_explanations_never_applied() {
    let toml = lockstep_core::catalogue::source("fenced-gc-pause")
        .unwrap()
        // The catalogue's pause is timed; this one waits for a label no event has.
        .replacen(
            "[[faults]]\nat_ms = 1000\n",
            "[[faults]]\nafter = \"leese check\"\n",
            1,
        );
    let v = Viewer::open(Source::own("mine.toml", &toml).unwrap(), &[]).unwrap();
    let said = v.unapplied().join("\n");
    // Located at the field's value, as a scenario error is.
    let line = 1 + toml
        .lines()
        .position(|l| l == "after = \"leese check\"")
        .unwrap();
    assert!(
        said.starts_with(&format!("mine.toml:{line}:9: faults[0].after: ")),
        "{said}"
    );
    assert!(said.contains("leese check"), "{said}");
    // A built-in applies everything (`lockstep check` holds the catalogue to that).
    assert!(builtin("fenced-gc-pause").unapplied().is_empty());
}

#[test]
fn a_pasted_files_link_names_it_as_it_was_named_before() {
    // Reopened from its link, a pasted scenario's messages said `my-own.toml:…` (its scenario's
    // name) where they had said `pasted.toml:…`.
    let toml = lockstep_core::catalogue::source("fenced-gc-pause")
        .unwrap()
        .replacen(
            "[[faults]]\nat_ms = 1000\n",
            "[[faults]]\nafter = \"leese check\"\n",
            1,
        );
    let v = Viewer::open(Source::own("pasted.toml", &toml).unwrap(), &[]).unwrap();
    let hash = v.view(TimeMode::Logical, Chart::Timeline).to_hash();
    assert!(hash.ends_with("&file=pasted.toml"), "{hash}");
    let again = Viewer::open_view(&View::parse(&hash).unwrap().unwrap()).unwrap();
    assert_eq!(again.unapplied(), v.unapplied());
    assert!(again.unapplied()[0].starts_with("pasted.toml:"));
    // A file named as its scenario is named so without being carried.
    let named = format!("{}.toml", v.id());
    let v = Viewer::open(Source::own(&named, &toml).unwrap(), &[]).unwrap();
    let hash = v.view(TimeMode::Logical, Chart::Timeline).to_hash();
    assert!(!hash.contains("&file="), "{hash}");
    let again = Viewer::open_view(&View::parse(&hash).unwrap().unwrap()).unwrap();
    assert!(again.unapplied()[0].starts_with(&format!("{named}:")));
}

#[test]
fn a_legend_keeps_its_entries_in_place_from_step_to_step() {
    // A presenter's legend reflowed and rescaled at every other step as "message still in the
    // network" came and went. Stepping forward, an entry keeps its place once shown (shown or
    // kept empty), so the panel only grows.
    for id in [
        "consensus-fenced-failover",
        "naive-gc-pause",
        "redlock-gc-pause",
    ] {
        let mut v = builtin(id);
        let pic = v.picture(TimeMode::Logical).unwrap();
        let mut before: Vec<String> = Vec::new();
        let mut pulses = Vec::new();
        for step in 0..=v.total() {
            v.seek(step);
            let f = v.frame(&pic).unwrap();
            let keys: Vec<String> = f.legend.entries.iter().map(|e| e.key()).collect();
            let gone: Vec<&String> = before.iter().filter(|k| !keys.contains(k)).collect();
            if !gone.is_empty() {
                pulses.push(format!("{id} #{step}: {gone:?}"));
            }
            // "Message still in the network" comes and goes: it is the last entry drawn, or the
            // last place kept below them (the entries after it would move each time).
            let drawn = f.legend.entries.iter().take_while(|e| !e.ghost).count();
            let flight =
                |e: &&Rc<crate::viewer::LegendSwatch>| e.words == "message still in the network";
            if let Some(i) = f.legend.entries.iter().position(|e| flight(&e)) {
                assert!(
                    i + 1 == drawn || i + 1 == f.legend.entries.len(),
                    "{id} #{step}"
                );
            }
            before = keys;
        }
        assert!(pulses.is_empty(), "{pulses:#?}");
    }
}

#[test]
fn every_steps_legend_keeps_room_for_the_whole_run_below_what_it_draws() {
    let mut v = builtin("consensus-fenced-failover");
    let pic = v.picture(TimeMode::Logical).unwrap();
    // Step 0 draws nothing and keeps no room (the panel says so in a line).
    v.seek(0);
    assert!(v.frame(&pic).unwrap().legend.entries.is_empty());
    let mut places = None;
    let mut drawn = std::collections::BTreeSet::new();
    for step in [1, 10, 30, 60, 100, v.total()] {
        v.seek(step);
        let f = v.frame(&pic).unwrap();
        let entries = &f.legend.entries;
        // As many places at every step: the panel keeps one size.
        assert_eq!(
            *places.get_or_insert(entries.len()),
            entries.len(),
            "step {step}"
        );
        // What the step draws first, then the room kept: no kept place among the drawn entries.
        let shown = entries.iter().take_while(|e| !e.ghost).count();
        assert!(entries[shown..].iter().all(|e| e.ghost), "step {step}");
        assert!(
            entries[shown..].iter().all(|e| e.svg.is_empty()),
            "step {step}"
        );
        drawn.insert(shown);
    }
    assert!(drawn.len() > 2, "{drawn:?}");
}

#[test]
fn the_next_notable_step_goes_past_a_what_ifs_polling() {
    let mut v = builtin("naive-happy-path");
    v.seek(6);
    let pause = Fault {
        target: Some("A".into()),
        duration_ms: Some(10_000),
        ..Fault::new(FaultKind::Pause)
    };
    v.apply(Change::Fault(pause)).unwrap();
    let total = v.total();
    let mut stops = vec![v.pos()];
    while let Some(n) = v.next_notable() {
        v.seek(n);
        stops.push(n);
    }
    assert_eq!(stops.last(), Some(&total));
    // B's polling (a SET and its nil every 100 ms, ~130 steps) is crossed in one press, to
    // the expiry of A's lock that ends it; its first round stays a stop.
    let (from, to) = stops
        .windows(2)
        .map(|w| (w[0], w[1]))
        .find(|(a, b)| b - a > 100)
        .unwrap_or_else(|| panic!("no long jump: {stops:?}"));
    v.seek(to);
    let landed = v.current().map(|e| e.label.clone()).unwrap_or_default();
    assert!(landed.contains("expired"), "landed at {to}: {landed}");
    v.seek(from);
    let left = v.current().map(|e| e.label.clone()).unwrap_or_default();
    assert!(left.contains("nil"), "left at {from}: {left}");
    // Everything after the polling is a stop of its own.
    assert!(
        stops
            .windows(2)
            .filter(|w| w[0] >= to)
            .all(|w| w[1] == w[0] + 1)
    );
}
