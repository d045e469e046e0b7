//! Messages held up in the network where no slanted arrow can reach their arrival: drawn level
//! where they arrive, labelled with when they were sent and how long they were in flight, and
//! with a dashed stub leaving the sender on the send row, so that row shows the message leaving.

use lockstep_core::trace::{Tag, TraceEvent};

use super::frame::Frame;
use super::lanes::LABEL_INSET;
use super::place::Placed;
use super::shapes::HEAD_LEN;
use super::{Arrow, ArrowEnd, Flight};
use crate::geom::{Point, Rect};
use crate::style;
use crate::text;
use crate::text::TextBox;

/// The longest stub a message in flight draws from its sender.
const STUB_LEN: f64 = 48.0;
/// A stub's tip keeps this far from the lifelines it passes.
const STUB_CLEAR: f64 = 32.0;

/// The label of message `start`'s level arrow where it arrives (event `end`): "write 3 payouts
/// (sent #10, 8001 ms in flight)" for a message held up in the network when that fits before the
/// head, else "(sent #10)", else the send's own label. `label` is the send's arrow label (empty in a fan-out or fan-in).
pub(super) fn arrival_label(
    events: &[TraceEvent],
    (start, end): (usize, usize),
    (from, to): (usize, usize),
    label: &str,
    frame: &Frame,
) -> String {
    // The send's arrow label (with its token), less "(delayed +N ms)": the time in flight says it.
    let delayed = matches!(events[start].tag, Some(Tag::Delayed { .. }));
    let base = if label.is_empty() || delayed {
        events[start].label.as_str()
    } else {
        label
    };
    let span = (frame.x(to) - frame.x(from)).abs() - LABEL_INSET - HEAD_LEN - 8.0;
    let took = events[end].time_ms.saturating_sub(events[start].time_ms);
    // The time in flight for a message held up in the network (the others took a millisecond or
    // two; their long labels would only crowd the picture).
    let held = delayed.then(|| format!("{base} (sent #{}, {took} ms in flight)", start + 1));
    held.into_iter()
        .chain([format!("{base} (sent #{})", start + 1)])
        .find(|t| text::width(t, style::LABEL_SIZE) <= span)
        .unwrap_or_else(|| base.to_string())
}

/// Where the stub of a message in flight from `from` towards `to` ends, on the row at `y`: under
/// the whole of its label (nothing else is drawn there), at least [`STUB_LEN`], short of the
/// receiver. A stub that would reach (or stop near) a lane between the two runs on to just short
/// of the receiver: its tip (and the "still in the network" ring on it) must not sit on another
/// lane, where it would read as a message to that lane.
pub(super) fn stub_tip(
    frame: &Frame,
    from: usize,
    to: usize,
    y: f64,
    label: Option<&Rect>,
) -> Point {
    let x = frame.x(from);
    let dx = frame.x(to) - x;
    let under = label.map_or(0.0, |r| if dx > 0.0 { r.x1 - x } else { x - r.x0 });
    let most = (dx.abs() - HEAD_LEN - 8.0).max(0.0);
    let len = under.max(STUB_LEN).min(most);
    let between = (from.min(to) + 1..from.max(to)).map(|l| (frame.x(l) - x).abs());
    let len = if between.into_iter().any(|d| d <= len + STUB_CLEAR) {
        most
    } else {
        len
    };
    Point::new(x + dx.signum() * len, y)
}

/// The send rows of the messages drawn level where they arrived: a stub from the sender, unless a
/// fan-out's other arrows already leave from that point; with the send's label when the send
/// still has its own (a fan-in's label went to another of its arrows).
pub(super) fn flights(
    events: &[TraceEvent],
    arrows: &[Arrow],
    placed: &Placed,
    frame: &Frame,
    ys: &[f64],
) -> Vec<Flight> {
    let mut out = Vec::new();
    for a in arrows {
        let (i, Some(end)) = (a.send_row, a.end_row) else {
            continue;
        };
        if placed.late[i].is_none() || a.end != ArrowEnd::Delivered {
            continue;
        }
        let start = Point::new(frame.x(a.from_lane), ys[i]);
        if arrows.iter().any(|b| b.send_row != i && b.start == start) {
            continue;
        }
        // Its own label; a fan-in leader's label went to another of its arrows: the message's
        // own words in its place (shorter than the group's label, so within its room); a
        // member's: the one placed over its stub.
        let label = match placed.labels[i].clone() {
            Some(l)
                if arrows
                    .iter()
                    .any(|b| b.label.rect == l.rect && b.send_row != i) =>
            {
                // On the group label's last line (a two-line label grows upwards).
                let block = text::height(&l.text, l.size);
                let pad = (l.rect.height() - block) / 2.0;
                let lh = text::line_height(l.size);
                let anchor = l.anchor.shifted(0.0, (block - lh) / 2.0);
                TextBox::new(&events[i].label, l.size, l.align, anchor, pad)
            }
            Some(l) => l,
            None => placed.stub_labels[i]
                .clone()
                .unwrap_or_else(|| TextBox::empty(start)),
        };
        out.push(Flight {
            send_row: i,
            end_row: end,
            from_lane: a.from_lane,
            to_lane: a.to_lane,
            start,
            tip: stub_tip(frame, a.from_lane, a.to_lane, start.y, Some(&label.rect)),
            label,
            tone: a.tone,
        });
    }
    out
}
