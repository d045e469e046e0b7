//! A compact text rendering of a layout (lanes, rows, arrows, notes, spans, marks) for snapshot
//! tests and debugging. Positions are rounded to whole pixels.

use std::fmt::Write;

use super::{ArrowEnd, Layout, SpanKind, TimeMode};

fn px(v: f64) -> i64 {
    v.round() as i64
}

pub(super) fn describe(l: &Layout) -> String {
    let mut s = String::new();
    let mode = match l.mode {
        TimeMode::Logical => "logical",
        TimeMode::ToScale => "to-scale",
    };
    let _ = writeln!(
        s,
        "{mode} {}x{}: {} lanes, {} of {} rows, {} arrows, {} notes, {} spans, {} marks",
        px(l.width),
        px(l.height),
        l.lanes.len(),
        l.rows.len(),
        l.total_steps,
        l.arrows.len(),
        l.notes.len(),
        l.spans.len(),
        l.marks.len()
    );
    let lane = |i: usize| l.lanes.get(i).map_or("?", |l| l.name.as_str());
    let _ = write!(s, "lanes:");
    for ln in &l.lanes {
        let _ = write!(s, " {}@{}", ln.name, px(ln.x));
    }
    let _ = writeln!(s);
    let _ = writeln!(s, "rows (step time_ms y):");
    for r in &l.rows {
        let _ = writeln!(
            s,
            "  {:>3} {:>6} {:>5}  {}",
            r.step,
            r.time_ms,
            px(r.y),
            r.kind.as_str()
        );
    }
    let _ = writeln!(s, "arrows:");
    for a in &l.arrows {
        let end = match a.end {
            ArrowEnd::Delivered => "->",
            ArrowEnd::Lost => "-x",
            ArrowEnd::InFlight => "..",
        };
        let rows = match a.end_row {
            Some(e) => format!("{}-{}", a.send_row + 1, e + 1),
            None => format!("{}-", a.send_row + 1),
        };
        let _ = writeln!(
            s,
            "  {rows:<8} {} {end} {} tip({},{}) {:?}{}{}",
            lane(a.from_lane),
            lane(a.to_lane),
            px(a.tip.x),
            px(a.tip.y),
            a.label.text,
            if a.rejected { " REJECTED" } else { "" },
            a.delayed_ms
                .map_or(String::new(), |d| format!(" delayed {d}")),
        );
    }
    let _ = writeln!(s, "notes:");
    for n in &l.notes {
        let over = if n.lanes.0 == n.lanes.1 {
            lane(n.lanes.0).to_string()
        } else {
            format!("{}..{}", lane(n.lanes.0), lane(n.lanes.1))
        };
        let _ = writeln!(
            s,
            "  {:<4} {:?} over {over}: {:?}{}",
            n.row + 1,
            n.kind,
            n.text.text,
            if n.emphasis { " !" } else { "" }
        );
    }
    let _ = writeln!(s, "spans:");
    for sp in &l.spans {
        let what = match &sp.kind {
            SpanKind::Paused { until_ms } => format!("paused until {until_ms}"),
            SpanKind::Down => "down".to_string(),
            SpanKind::ServiceHolds {
                holder,
                token,
                ended,
            } => format!(
                "service holds for {holder}{}{}",
                token.map_or(String::new(), |t| format!(" token {t}")),
                match (ended, sp.to_row) {
                    (Some(r), _) => format!(" ({r:?})"),
                    (None, Some(_)) => " (moved to the new leader)".to_string(),
                    (None, None) => " (open)".to_string(),
                }
            ),
            SpanKind::Believes { token } => format!(
                "believes{}",
                token.map_or(String::new(), |t| format!(" token {t}"))
            ),
            SpanKind::Overlap { first, second } => format!("OVERLAP {first} & {second}"),
        };
        let to = sp
            .to_row
            .map_or("open".to_string(), |r| (r + 1).to_string());
        let _ = writeln!(
            s,
            "  {:<8} {what}: steps {}..{to} y {}..{}",
            sp.lane.map_or("*", lane),
            sp.from_row + 1,
            px(sp.rect.y0),
            px(sp.rect.y1)
        );
    }
    let _ = writeln!(s, "marks:");
    for m in &l.marks {
        let _ = writeln!(s, "  {:<4} {:?} on {}", m.row + 1, m.kind, lane(m.lane));
    }
    if !l.ticks.is_empty() {
        let _ = write!(s, "ticks:");
        for t in &l.ticks {
            let _ = write!(
                s,
                " {}ms@{}{}",
                t.time_ms,
                px(t.y),
                if t.label.is_some() { "" } else { "-" }
            );
        }
        let _ = writeln!(s);
    }
    for f in &l.folds {
        let _ = writeln!(
            s,
            "fold steps {}..{}: {:?}",
            f.first + 1,
            f.last + 1,
            f.text
        );
    }
    if !l.highlights.is_empty() {
        let _ = write!(s, "highlights:");
        for h in &l.highlights {
            let _ = write!(s, " {}:{:?}", h.row + 1, h.kind);
        }
        let _ = writeln!(s);
    }
    s
}
