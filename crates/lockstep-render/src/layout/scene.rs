//! The arrows, notes, marks and highlights of the rows shown, from where the placer put each
//! event: what the layout draws on top of the lanes.

use lockstep_core::trace::{EventKind, FreeReason, Tag, TraceEvent};

use super::flight::stub_tip;
use super::frame::{Frame, ICON_W, NOTE_PAD_X};
use super::pieces::Link;
use super::place::{PITCH, Placed};
use super::{Arrow, ArrowEnd, Highlight, HighlightKind, Mark, MarkKind, Note, NoteKind, Tone};
use crate::geom::Point;
use crate::text::TextBox;

/// The arrows, notes, marks and highlights of the rows shown.
#[derive(Debug, Default)]
pub(super) struct Scene {
    pub arrows: Vec<Arrow>,
    pub notes: Vec<Note>,
    pub marks: Vec<Mark>,
    pub highlights: Vec<Highlight>,
}

/// What the scene needs to know about the rows.
pub(super) struct Rows<'a> {
    pub events: &'a [TraceEvent],
    pub links: &'a [Link],
    pub ys: &'a [f64],
    pub placed: &'a Placed,
    /// Replies to writes that paid payouts a second time (not marked as accepted).
    pub duplicate_replies: &'a [bool],
    /// Renewals that keep a consensus session alive while its worker holds no lock.
    pub session_keepalives: &'a [bool],
    /// Rows shown.
    pub shown: usize,
    /// The last row shown's y.
    pub y_end: f64,
    /// The worker colour of each lane.
    pub tones: &'a [Option<Tone>],
    /// Per round (by its leader's event): its sends' events, in order.
    pub rounds: &'a std::collections::BTreeMap<usize, Vec<usize>>,
}

impl Scene {
    pub fn arrow(
        &mut self,
        frame: &Frame,
        rows: &Rows,
        i: usize,
        (from, to): (usize, usize),
        group: Option<usize>,
    ) {
        let e = &rows.events[i];
        // Drawn level where it arrives (no slanted path was clear): from there, once shown.
        let late = match (rows.links[i], &rows.placed.late[i]) {
            (Link::Start(Some(j)), Some(label)) if j < rows.shown => Some((rows.ys[j], label)),
            _ => None,
        };
        // Still in the network, drawn late, with no label of its own (a member of a round
        // labelled on its leader's arrow): its stub says what it carries, in the place kept
        // for the stub's label once it arrives ("… (→ #N)"), without naming that step yet.
        let in_flight_words = match (rows.links[i], &rows.placed.labels[i]) {
            (Link::Start(_), None) if late.is_none() && rows.placed.late[i].is_some() => {
                rows.placed.stub_labels[i]
                    .as_ref()
                    .filter(|s| s.text.starts_with(&e.label))
                    .map(|s| s.with_text(e.label.clone()))
            }
            _ => None,
        };
        let label_final = group
            .and_then(|g| rows.rounds.get(&g)?.last().copied())
            .unwrap_or(i)
            .max(i);
        let group = if late.is_some() { None } else { group };
        let y = late.map_or(rows.ys[i], |(y, _)| y);
        let start = Point::new(frame.x(from), y);
        let rejected = matches!(e.tag, Some(Tag::AccessRejected { .. }));
        let tone = if rejected {
            Tone::Danger
        } else {
            rows.tones[from].or(rows.tones[to]).unwrap_or(Tone::Infra)
        };
        let end_point = |j: usize| {
            if rows.events[j].kind == EventKind::Lost {
                (ArrowEnd::Lost, Point::new(frame.x(to), rows.ys[j]))
            } else {
                (ArrowEnd::Delivered, Point::new(frame.x(to), rows.ys[j]))
            }
        };
        let (end_row, end, tip) = match rows.links[i] {
            Link::Start(Some(j)) if j < rows.shown => {
                let (end, tip) = end_point(j);
                (Some(j), end, tip)
            }
            Link::Start(_) if rows.placed.late[i].is_some() => {
                // Still in the network, with no clear path to where it will arrive: a stub.
                (
                    None,
                    ArrowEnd::InFlight,
                    stub_tip(
                        frame,
                        from,
                        to,
                        y,
                        rows.placed.labels[i]
                            .as_ref()
                            .or(in_flight_words.as_ref())
                            .map(|l| &l.rect),
                    ),
                )
            }
            Link::Start(later) => {
                // Still in the network at the last row shown: stop partway along its path.
                let full = match later {
                    Some(j) => end_point(j).1,
                    None => Point::new(frame.x(to), rows.y_end.max(y) + PITCH),
                };
                let s = if full.y > y {
                    ((rows.y_end - y) / (full.y - y)).clamp(0.2, 1.0)
                } else if from.abs_diff(to) > 1 {
                    // Level, past other lanes: on to just short of the receiver, so that its
                    // ring does not sit by a lane it is not for (redlock-gc-pause #5, A's SET
                    // to redis-2, stopped halfway, by redis-1).
                    let d = (full.x - start.x).abs();
                    ((d - super::shapes::HEAD_LEN - 8.0) / d).clamp(0.5, 1.0)
                } else {
                    0.5
                };
                let tip = Point::new(
                    start.x + s * (full.x - start.x),
                    start.y + s * (full.y - start.y),
                );
                (None, ArrowEnd::InFlight, tip)
            }
            // A delivery whose send is not in the trace: a level arrow on its row.
            _ => (Some(i), ArrowEnd::Delivered, Point::new(frame.x(to), y)),
        };
        let mark = match e.tag {
            // A repeat that applied nothing (its idempotency keys were used) is no accepted
            // write: no check mark.
            Some(Tag::WriteAccepted { applied, noops, .. })
                if !rows.duplicate_replies[i] && (applied > 0 || noops == 0) =>
            {
                Some(MarkKind::WriteAccepted)
            }
            Some(Tag::AccessRejected { .. }) => Some(MarkKind::AccessRejected),
            Some(Tag::Renewed) => Some(MarkKind::Renewed),
            Some(Tag::Delayed { .. }) => Some(MarkKind::Delayed),
            _ => None,
        };
        if let Some(kind) = mark {
            self.marks.push(Mark {
                row: i,
                lane: from,
                kind,
                at: frame.mark_beside(from, to, rows.ys[i]),
                session: kind == MarkKind::Renewed && rows.session_keepalives[i],
            });
        }
        let end_mark = match end {
            ArrowEnd::Lost => Some((end_row.unwrap_or(i), MarkKind::Lost)),
            ArrowEnd::InFlight => Some((rows.shown - 1, MarkKind::InFlight)),
            ArrowEnd::Delivered => None,
        };
        if let Some((row, kind)) = end_mark {
            self.marks.push(Mark {
                row,
                lane: to,
                kind,
                at: tip,
                session: false,
            });
        }
        if rejected {
            self.highlights.push(Highlight {
                row: i,
                kind: HighlightKind::RejectedAccess,
            });
        }
        self.arrows.push(Arrow {
            message: e.message,
            from_lane: from,
            to_lane: to,
            send_row: i,
            end_row,
            end,
            start,
            tip,
            label: match late {
                Some((_, label)) => label.clone(),
                None => rows.placed.labels[i]
                    .clone()
                    .or(in_flight_words)
                    .unwrap_or_else(|| TextBox::empty(start)),
            },
            tone,
            delayed_ms: match e.tag {
                Some(Tag::Delayed { extra_ms }) => Some(extra_ms),
                _ => None,
            },
            rejected,
            group,
            label_final,
            beneath: rows.placed.beneath[i],
            on_bar: false,
        });
    }

    pub fn note(
        &mut self,
        frame: &Frame,
        rows: &Rows,
        i: usize,
        piece: (&(usize, usize), NoteKind, &str, Option<MarkKind>),
    ) {
        let (lanes, kind, text, icon) = piece;
        let e = &rows.events[i];
        let y = rows.ys[i];
        let (rect, tb) = rows.placed.notes[i]
            .clone()
            .unwrap_or_else(|| frame.note(*lanes, text, icon.is_some(), y));
        let duplicate = matches!(e.tag, Some(Tag::Duplicate { .. }));
        let tone = match e.tag {
            Some(Tag::Duplicate { .. }) => Some(Tone::Danger),
            Some(Tag::Believes { .. } | Tag::StopsBelieving) => rows.tones[lanes.0],
            Some(Tag::ServiceFrees {
                reason: FreeReason::Expired,
                ..
            }) => Some(Tone::Timer),
            _ => None,
        };
        if let Some(kind) = icon {
            self.marks.push(Mark {
                row: i,
                lane: lanes.0,
                kind,
                at: Point::new(rect.x0 + NOTE_PAD_X + ICON_W / 2.0 - 2.0, y),
                session: false,
            });
        }
        if duplicate {
            self.highlights.push(Highlight {
                row: i,
                kind: HighlightKind::DuplicatePayout,
            });
        }
        self.notes.push(Note {
            row: i,
            lanes: *lanes,
            kind,
            rect,
            text: if duplicate { tb.bold() } else { tb },
            tone,
            emphasis: duplicate,
        });
    }
}
