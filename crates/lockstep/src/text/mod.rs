//! The text timeline of `lockstep run`: one line per event (long labels and explanations wrapped
//! to the terminal with hanging indents, repeated rounds folded), then the verdict.

pub mod fold;
pub mod style;
pub mod wrap;

use std::fmt::Write;

use lockstep_core::actors::db::money;
use lockstep_core::sim::End;
use lockstep_core::{EventKind, Run, Scenario, Trace, TraceEvent};

use self::fold::Fold;
use self::wrap::{hanging, paint};

/// How to lay out the timeline.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TextOptions {
    /// Columns to wrap to.
    pub width: usize,
    /// Print each event's explanation under it.
    pub explain: bool,
    /// Fold a round of events that repeats into its first occurrence and a count.
    pub fold: bool,
}

/// Widths of the columns of an event line:
/// `step time ms  kind    from -> to      label`.
struct Columns {
    step: usize,
    time: usize,
    name: usize,
    /// Where the kind column starts; explanations and fold lines are indented to it.
    kind_col: usize,
    /// Where labels start.
    label_col: usize,
}

impl Columns {
    fn of(trace: &Trace) -> Self {
        let digits = |n: u64| n.checked_ilog10().map_or(1, |d| d as usize + 1);
        let step = digits(trace.events.len() as u64).max(2);
        let time = digits(trace.events.iter().map(|e| e.time_ms).max().unwrap_or(0)).max(4);
        let name = trace
            .participants
            .iter()
            .map(|p| p.name.chars().count())
            .max()
            .unwrap_or(1);
        let kind_col = step + 1 + time + " ms  ".len();
        // kind (7) + space + route (`from -> to`) + two spaces
        let label_col = kind_col + 8 + (2 * name + 4) + 2;
        Columns {
            step,
            time,
            name,
            kind_col,
            label_col,
        }
    }

    /// Explanations hang at the kind column, unless that leaves too little room.
    fn indent(&self, width: usize) -> usize {
        if self.kind_col * 3 > width {
            4
        } else {
            self.kind_col
        }
    }
}

/// Renders a finished run for a terminal (styled; the output stream drops the colour when it
/// should) or a golden file.
pub fn timeline(scenario: &Scenario, run: &Run, opts: &TextOptions) -> String {
    let mut s = String::new();
    let width = opts.width;
    let trace = &run.trace;
    let title = format!("{} — {}", scenario.name, scenario.title);
    for line in wrap::lines(&title, width) {
        let _ = writeln!(s, "{}", paint(style::heading(), &line));
    }
    for line in wrap::lines(&scenario.summary, width) {
        let _ = writeln!(s, "{line}");
    }
    s.push('\n');

    let cols = Columns::of(trace);
    let folds = if opts.fold {
        fold::folds(&trace.events)
    } else {
        Vec::new()
    };
    let mut folds = folds.iter().peekable();
    let mut i = 0;
    while i < trace.events.len() {
        event(&mut s, trace, i, &cols, opts);
        i += 1;
        if let Some(f) = folds.next_if(|f| f.start + f.len == i) {
            fold_line(&mut s, trace, f, &cols, width);
            i = f.end();
        }
    }
    verdict(&mut s, scenario, run, width);
    s
}

fn event(s: &mut String, trace: &Trace, i: usize, cols: &Columns, opts: &TextOptions) {
    let e = &trace.events[i];
    // When the columns are wider than the terminal (long names such as `redis-replica` at 40
    // columns), padding every name to the longest would push the line past the edge: the label
    // goes on the next line anyway, so the route is written without padding.
    let narrow = cols.label_col > opts.width;
    let name = if narrow { 0 } else { cols.name };
    // For the same reason the kind is not padded to its column when the label wraps anyway.
    let kind_width = if narrow { 0 } else { 7 };
    let (from, to) = (trace.name(e.from), trace.name(e.to));
    let route = match e.kind {
        EventKind::Send | EventKind::Deliver | EventKind::Lost => {
            let arrow = match e.kind {
                EventKind::Send => "->",
                EventKind::Deliver => "=>",
                _ => "-x",
            };
            format!(
                "{from:>name$} {} {to:<name$}",
                paint(style::kind(e.kind), arrow)
            )
        }
        _ if e.is_global() => format!("{:>name$} {:<w$}", "*", "", w = name + 3),
        _ => format!("{from:>name$} {:<w$}", "", w = name + 3),
    };
    let prefix = format!(
        "{} {}  {} {route}  ",
        paint(style::quiet(), &format!("{:>w$}", i + 1, w = cols.step)),
        paint(
            style::quiet(),
            &format!("{:>w$} ms", e.time_ms, w = cols.time)
        ),
        paint(
            style::kind(e.kind),
            &format!("{:<kind_width$}", e.kind.as_str())
        ),
    );
    let indent = cols.indent(opts.width);
    hanging(
        s,
        &prefix,
        cols.label_col,
        &e.label,
        style::label(e),
        opts.width,
        indent,
    );
    if opts.explain && shows_explanation(e) {
        let pad = " ".repeat(indent);
        hanging(
            s,
            &pad,
            indent,
            &e.explanation,
            anstyle::Style::new(),
            opts.width,
            indent,
        );
    }
}

/// A delivery's explanation repeats its send's, so only sends carry one on the timeline.
fn shows_explanation(e: &TraceEvent) -> bool {
    e.kind != EventKind::Deliver && !e.explanation.is_empty()
}

fn fold_line(s: &mut String, trace: &Trace, f: &Fold, cols: &Columns, width: usize) {
    let first = f.start + f.len;
    let last = f.end() - 1;
    let what = if f.len == 1 {
        "the same event".to_string()
    } else {
        format!("the same {} events", f.len)
    };
    let times = if f.repeats == 1 { "time" } else { "times" };
    let text = format!(
        "… {what} {} more {times} (steps {}–{}, {}–{} ms)",
        f.repeats,
        first + 1,
        last + 1,
        trace.events[first].time_ms,
        trace.events[last].time_ms
    );
    let indent = cols.indent(width);
    hanging(
        s,
        &" ".repeat(indent),
        indent,
        &text,
        style::quiet(),
        width,
        indent,
    );
}

fn verdict(s: &mut String, scenario: &Scenario, run: &Run, width: usize) {
    let v = &run.verdict;
    let expected = if v.outcome == scenario.expect {
        "(as expected)".to_string()
    } else {
        paint(style::failed(), &format!("(EXPECTED {})", scenario.expect))
    };
    let _ = writeln!(
        s,
        "\n{} {} {expected}",
        paint(style::heading(), "verdict:"),
        paint(style::outcome(v.outcome), v.outcome.as_str())
    );
    let mut details = vec![format!(
        "payouts applied: {} of {}",
        v.payouts_applied, v.payouts
    )];
    if v.payouts_duplicated > 0 {
        details.push(format!(
            "paid more than once: {} payouts, {} paid twice",
            v.payouts_duplicated,
            money(v.money_paid_twice_cents)
        ));
    }
    details.push(format!(
        "writes accepted: {}, rejected by fencing: {}",
        v.writes_accepted, v.writes_rejected
    ));
    if v.reads_rejected > 0 {
        details.push(format!("reads rejected by fencing: {}", v.reads_rejected));
    }
    details.extend(v.other_refusals());
    if v.idempotent_noops > 0 {
        details.push(format!(
            "repeated payouts made harmless by idempotency keys: {} ({} {} applied nothing)",
            v.idempotent_noops,
            v.writes_skipped,
            if v.writes_skipped == 1 {
                "write"
            } else {
                "writes"
            }
        ));
    }
    for o in &v.overlaps {
        details.push(o.sentence());
    }
    if !v.processed {
        let cut_off = matches!(run.end, End::TimeLimit | End::EventLimit);
        details.push(if cut_off {
            "the batch was not yet processed when the run was cut off".into()
        } else {
            "the batch was not processed".into()
        });
    }
    match run.end {
        End::TimeLimit => details
            .push("the run was cut off at limits.max_time_ms before every worker finished".into()),
        End::EventLimit => details
            .push("the run was cut off at limits.max_events before every worker finished".into()),
        End::Finished | End::Quiet => {}
    }
    for d in details {
        // Two spaces, continuation lines four.
        let mut lines = wrap::lines(&d, width - 4).into_iter();
        if let Some(first) = lines.next() {
            let _ = writeln!(s, "  {first}");
        }
        for l in lines {
            let _ = writeln!(s, "    {l}");
        }
    }
}
