//! Messages no clear slanted arrow reaches: one of a round (a fan-out or fan-in) is drawn level
//! where it arrives, saying when it was sent, with a labelled stub on the send's line; any other
//! is one long slanted arrow all the same, from its send to its arrival, beneath the labels and
//! notes of the rows it passes (a message long in flight is one message, as in Kleppmann's
//! figures).

use super::{Placer, STUB_LABEL_STOPS};
use crate::geom::Rect;
use crate::layout::TimeMode;
use crate::layout::flight;
use crate::layout::lanes::LABEL_INSET;
use crate::layout::pack::{Item, Kind, Shape};
use crate::layout::pieces::{Link, Piece};
use crate::layout::shapes::{HEAD_LEN, SHAFT_HALF, head, upper_lines};
use crate::style;

impl Placer<'_> {
    /// Message `start` arrives (event `i`) where no clear slanted arrow reaches from its send.
    pub(super) fn no_clear_path(&mut self, i: usize, start: usize, lb: usize) {
        match self.input.pieces[start] {
            Piece::Arrow { group: None, .. } => self.long_flight(i, start, lb),
            _ => self.late(i, start, lb),
        }
    }

    /// Message `start` (not of a round) arrives (event `i`) where no clear slanted arrow
    /// reaches: one slanted arrow all the same, its head on the first line from `lb` with room
    /// for it; its shaft passes beneath the labels and notes of the rows it crosses (they are
    /// painted over it, on their backing), so it keeps nothing off the board.
    fn long_flight(&mut self, i: usize, start: usize, lb: usize) {
        let Piece::Arrow { from, to, .. } = self.input.pieces[start] else {
            return;
        };
        if let Some(id) = self.reserved[start].take() {
            self.board.remove(id);
        }
        if let Some(id) = self.reserved_head[start].take() {
            self.board.remove(id);
        }
        let frame = self.input.frame;
        let lb = lb.max(self.lowest_used).max(self.out.line_of[start] + 1);
        let t = self.input.events[i].time_ms;
        let (c, items) = self.find(lb, t, 64, |_, _, y| {
            vec![vec![head(frame, from, to, y, (start, start))]]
        });
        for item in items {
            self.board.add(item);
        }
        self.out.beneath[start] = true;
        self.assign(i, c);
        self.use_lane(to, c, None);
        self.in_flight = self.in_flight.saturating_sub(1);
    }

    /// Message `start` arrives (event `i`) where no slanted arrow from its send can reach without
    /// crossing a label: a level arrow on the first line from `lb` with room for it, labelled
    /// with when it was sent. Its send line keeps the label for the steps while it is in flight.
    fn late(&mut self, i: usize, start: usize, lb: usize) {
        let Piece::Arrow {
            from,
            to,
            group,
            ref label,
        } = self.input.pieces[start]
        else {
            return;
        };
        let events = self.input.events;
        let frame = self.input.frame;
        // A round's member says what it alone carried: the round's label (on its leader) names
        // all of them ("→ 5 (redis-1…redis-5)", or every instance's answer), and this arrow is one.
        let own = if group.is_some() { "" } else { label.as_str() };
        let text = flight::arrival_label(events, (start, i), (from, to), own, frame);
        if let Some(id) = self.reserved[start].take() {
            self.board.remove(id);
        }
        if let Some(id) = self.reserved_head[start].take() {
            self.board.remove(id);
        }
        if self.out.labels[start].is_none() {
            self.stub_label(start, (from, to));
        }
        let t = events[i].time_ms;
        let (c, items) = self.find(lb, t, 64, |_, _, y| {
            let (xf, xt) = (frame.x(from), frame.x(to));
            vec![
                vec![
                    Item {
                        shape: Shape::Box(Rect::new(xf, y - SHAFT_HALF, xt, y + SHAFT_HALF)),
                        kind: Kind::Shaft,
                        owner: start,
                    },
                    Item {
                        shape: Shape::Box(frame.arrow_label(from, to, &text, y).rect),
                        kind: Kind::Text,
                        owner: start,
                    },
                    head(frame, from, to, y, (start, start)),
                ]
                .into_iter()
                .chain(upper_lines(
                    &text,
                    frame.arrow_label(from, to, &text, y).rect,
                    style::LABEL_SIZE,
                    start,
                ))
                .collect(),
            ]
        });
        for item in items {
            self.board.add(item);
        }
        let y = self.out.lines[c].y;
        self.out.late[start] = Some(frame.arrow_label(from, to, &text, y));
        self.assign(i, c);
        self.use_lane(to, c, group);
        self.in_flight = self.in_flight.saturating_sub(1);
    }

    /// A label over the stub of send `start` (drawn late, with no label of its own): the
    /// message's own words where they fit on its send line, else the step it arrives at.
    fn stub_label(&mut self, start: usize, (from, to): (usize, usize)) {
        let frame = self.input.frame;
        let y = self.out.lines[self.out.line_of[start]].y;
        let end = match self.input.links[start] {
            Link::Start(Some(end)) => end,
            _ => return,
        };
        let own = &self.input.events[start].label;
        let texts = [format!("{own} (→ #{})", end + 1), format!("→ #{}", end + 1)];
        let span = (frame.x(to) - frame.x(from)).abs() - LABEL_INSET - HEAD_LEN - 8.0;
        // To scale, a message held up in the network is drawn slanted across labels (see
        // `arrive`): as a last resort the stub's label may lie across such a shaft too.
        let passes: &[bool] = match self.input.mode {
            TimeMode::Logical => &[false],
            TimeMode::ToScale => &[false, true],
        };
        for &across_slants in passes {
            for text in &texts {
                let home = frame.arrow_label(from, to, text, y);
                let room = span - home.rect.width();
                if room < 0.0 {
                    continue;
                }
                // At the stub's start, else slid along it (the stub runs on under its label).
                for k in 0..=STUB_LABEL_STOPS {
                    let along = f64::from(k) / f64::from(STUB_LABEL_STOPS);
                    let tb = home.shifted(frame.dir(from, to) * room * along, 0.0);
                    let item = Item {
                        shape: Shape::Box(tb.rect),
                        kind: Kind::Text,
                        owner: start,
                    };
                    let fits = if across_slants {
                        self.board.clashing(&item).iter().all(|&id| {
                            self.board
                                .get(id)
                                .is_some_and(|o| matches!(o.shape, Shape::Segment(..)))
                        })
                    } else {
                        self.make_way(std::slice::from_ref(&item))
                    };
                    if fits {
                        self.board.add(item);
                        self.out.stub_labels[start] = Some(tb);
                        return;
                    }
                }
            }
        }
    }
}
