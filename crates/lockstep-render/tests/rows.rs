//! Logical rows say who does what: over every built-in scenario, both time modes and several
//! steps, a fan-out marks its sender on its row (a row reaching lanes on both sides of its sender
//! must not read as sent from its far end), and a highlighted row's tint stays over the lanes
//! (never over the gutter's step and time, nor the legend).

mod common;

use lockstep_render::geom::Point;
use lockstep_render::layout::{HighlightKind, MarkKind, NoteKind};
use lockstep_render::{Layout, TimeMode};

#[test]
fn every_fan_out_marks_its_sender_on_its_lane() {
    let mut fan_outs = 0;
    common::each_layout(&[(1, 2)], |name, l| {
        for a in &l.arrows {
            let Some(leader) = a.group else { continue };
            let siblings = l
                .arrows
                .iter()
                .filter(|b| b.group == Some(leader) && b.start == a.start)
                .count();
            if siblings < 2 {
                continue;
            }
            fan_outs += 1;
            let x = l.lanes[a.from_lane].x;
            assert!(
                l.marks
                    .iter()
                    .any(|m| m.kind == MarkKind::Sender && m.at.x == x && m.at.y == a.start.y),
                "{name}: the fan-out {:?} from {} (step {}) has no sender mark at x={x}",
                a.label.text,
                l.lanes[a.from_lane].name,
                a.send_row + 1,
            );
        }
    });
    assert!(fan_outs > 0, "the catalogue has fan-outs to check");
}

#[test]
fn row_tints_stay_off_the_gutter_and_the_legend() {
    let mut tints = 0;
    common::each_layout(&[(1, 2)], |name, l| {
        for h in &l.highlights {
            let Some(tint) = l.tint_rect(h) else {
                assert_eq!(h.kind, HighlightKind::Current, "{name}: {h:?} has no tint");
                continue;
            };
            tints += 1;
            for r in &l.rows {
                assert!(
                    !tint.overlaps(&r.gutter.rect),
                    "{name}: the {:?} tint of step {} runs over step {}'s {:?} in the gutter",
                    h.kind,
                    h.row + 1,
                    r.step,
                    r.gutter.text,
                );
            }
            for e in &l.legend {
                assert!(
                    !tint.overlaps(&e.text.rect.union(&e.swatch)),
                    "{name}: the {:?} tint of step {} runs under the legend's {:?}",
                    h.kind,
                    h.row + 1,
                    e.text.text,
                );
            }
        }
    });
    assert!(tints > 0, "the catalogue has refused and duplicate rows");
}

/// A note stays on its own lane: its box covers the lifeline of every lane it is about and no
/// other (a note about redis that starts on A's lane reads as A's, naive-gc-pause #11).
#[test]
fn every_note_covers_its_own_lanes_and_no_other() {
    let mut notes = 0;
    let mut failures = Vec::new();
    common::each_layout(&[(1, 3), (2, 3)], |name, l| {
        for n in l.notes.iter().filter(|n| n.kind != NoteKind::Global) {
            notes += 1;
            for (k, lane) in l.lanes.iter().enumerate() {
                let own = (n.lanes.0..=n.lanes.1).contains(&k);
                let covers = n.rect.x0 < lane.x && lane.x < n.rect.x1;
                if own != covers {
                    failures.push(format!(
                        "{name}: the note {:?} (step {}) {} {}'s lifeline",
                        n.text.text,
                        n.row + 1,
                        if own { "misses" } else { "covers" },
                        lane.name,
                    ));
                }
            }
        }
    });
    assert!(notes > 0, "the catalogue has notes");
    failures.dedup();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Whether segments `a`-`b` and `c`-`d` cross at a point inside both (touching at an end, or
/// running along one line, is not crossing).
fn cross(a: Point, b: Point, c: Point, d: Point) -> bool {
    let side = |p: Point, q: Point, r: Point| (q.x - p.x) * (r.y - p.y) - (q.y - p.y) * (r.x - p.x);
    let (d1, d2) = (side(c, d, a), side(c, d, b));
    let (d3, d4) = (side(a, b, c), side(a, b, d));
    // A pixel's slack: arrows meeting at a lifeline are not crossing.
    let strictly = |x: f64, y: f64| (x > 1.0 && y < -1.0) || (x < -1.0 && y > 1.0);
    strictly(d1, d2) && strictly(d3, d4)
}

/// The fan-outs' and fan-ins' arrows that cross another such arrow (slanted, so crossing).
fn round_crossings(l: &Layout) -> Vec<String> {
    let rounds: Vec<_> = l.arrows.iter().filter(|a| a.group.is_some()).collect();
    let mut out = Vec::new();
    for (i, a) in rounds.iter().enumerate() {
        for b in &rounds[i + 1..] {
            if cross(a.start, a.tip, b.start, b.tip) {
                out.push(format!(
                    "step {} ({}→{}) crosses step {} ({}→{})",
                    a.send_row + 1,
                    l.lanes[a.from_lane].name,
                    l.lanes[a.to_lane].name,
                    b.send_row + 1,
                    l.lanes[b.from_lane].name,
                    l.lanes[b.to_lane].name,
                ));
            }
        }
    }
    out
}

/// Which instance got what stays readable: in logical time no arrow of a fan-out or fan-in (a
/// Redlock round's requests and replies, a consensus node's votes) crosses another's, over the
/// whole catalogue, full and stopped halfway (redlock-happy-path #120-140 drew five slanted
/// replies crossing each other; 7 crossings in all before). To scale, an arrow slants by its
/// true time in flight, so a request delivered late crosses the replies that came before it.
#[test]
fn arrows_of_rounds_never_cross() {
    let mut failures = Vec::new();
    let mut rounds = 0;
    common::each_layout(&[(1, 2)], |name, l| {
        if l.mode != TimeMode::Logical {
            return;
        }
        rounds += l.arrows.iter().filter(|a| a.group.is_some()).count();
        for c in round_crossings(l) {
            failures.push(format!("{name}: {c}"));
        }
    });
    assert!(rounds > 0, "the catalogue has rounds");
    assert!(
        failures.is_empty(),
        "{} crossings:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// A fold says which steps it holds and claims no step drawn on a row of its own
/// (consensus-isolated-leader said "steps 30-85" above rows #35…#85), and no row's gutter lists
/// a folded step ("#38-49" behind one arrow held eleven folded steps).
#[test]
fn folds_name_only_their_own_steps() {
    let mut folds = 0;
    for (id, _, run) in common::catalogue() {
        let l = lockstep_render::layout(&run.trace, &lockstep_render::Options::default());
        let folded: std::collections::BTreeSet<usize> = l
            .folds
            .iter()
            .flat_map(|f| f.events.iter().copied())
            .collect();
        for f in &l.folds {
            folds += 1;
            let contiguous = f.events.len() == f.last + 1 - f.first;
            let range = format!("steps {}-{})", f.first + 1, f.last + 1);
            assert!(
                contiguous || !f.text.ends_with(&range) || f.text.contains(" of steps"),
                "{id}: {:?} claims steps drawn between",
                f.text
            );
        }
        for r in l.rows.iter().filter(|r| !r.gutter.text.is_empty()) {
            let named = r.gutter.text.trim_start_matches('#');
            let named = named.split(' ').next().unwrap_or("");
            let ends: Vec<usize> = named
                .split([',', '-', '…'])
                .filter_map(|n| n.parse().ok())
                .collect();
            let folds_first = l.folds.iter().any(|f| f.first + 1 == ends[0]);
            for s in ends {
                assert!(
                    !folded.contains(&(s - 1)) || folds_first,
                    "{id}: the gutter {:?} names folded step {s}",
                    r.gutter.text
                );
            }
        }
    }
    assert!(folds > 0, "the catalogue has folds");
}

/// The replies of one round that say different things share one label naming each answer and
/// who gave it: redlock-split-votes' last round to B reads "OK from redis-1, redis-2 ·" over
/// "(nil): key exists from redis-5" (one answer a line, the label being long before its nearest
/// head), not three labels naming no instance.
#[test]
fn a_rounds_replies_are_labelled_per_answer_with_instance_names() {
    let (_, run) = common::load("redlock-split-votes");
    let l = lockstep_render::layout(&run.trace, &lockstep_render::Options::default());
    let labels: Vec<&str> = l
        .arrows
        .iter()
        .map(|a| a.label.text.as_str())
        .chain(l.flights.iter().map(|f| f.label.text.as_str()))
        .collect();
    assert!(
        labels
            .iter()
            .any(|t| t.starts_with("OK from redis-1, redis-2 ·\n(nil): key exists from redis-5")),
        "{labels:?}"
    );
}
