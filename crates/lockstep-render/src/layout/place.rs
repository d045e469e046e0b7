//! Puts every event on a line. Logical time: a line per step of the story, shared by events that
//! do not get in each other's way (a message's send and delivery, a fan-out, unrelated events
//! within a millisecond). To scale: lines sit at their time on the picture's one scale, except in
//! bursts (a marked band whose rows go in order and pack like logical rows, see [`scale`]) and
//! long idle stretches (a marked break).

use std::collections::BTreeMap;

use lockstep_core::trace::{Tag, TraceEvent};

use super::TimeMode;
use super::frame::Frame;
use super::lanes::LABEL_INSET;
use super::pack::{Board, Item, Kind, Shape};
use super::pieces::{Link, Piece};
use super::shapes::{HEAD_LEN, SHAFT_HALF, cause_of, head, label_near, marker_band, upper_lines};
use crate::geom::{Point, Rect};
use crate::style;
use crate::text::{self, TextBox};

mod late;
pub(super) mod scale;
mod slide;

/// Distance between two lines.
pub(super) const PITCH: f64 = 32.0;
/// Fresh lines a label or note tries past the first before it takes the first anyway: a
/// two-line note (or one keeping room under it for a clock jump's break) under another needs
/// the third line down to clear it.
const FRESH_TRIES: usize = 2;
/// Events this close in time may share a line or swap places in logical time.
const JOIN_MS: u64 = 1;
/// In to-scale mode, an event may join a line this close to its own time on the scale (px).
const JOIN_PX: f64 = 3.0;
/// The height of an axis break (an idle stretch cut short, to scale).
pub(super) const BREAK_H: f64 = 72.0;
/// How many fresh lines a slanted arrow may go down to find a path clear of labels (in logical
/// time and to scale), before it is drawn level where it arrives instead: blank lines made only
/// to let a slanted arrow through would make the picture taller than it needs to be.
const LOGICAL_FRESH: usize = 1;
const MAX_FRESH: usize = 2;
/// In logical time, the most lines a slanted arrow goes down (further, it is drawn level where
/// it arrives, with a stub where it was sent).
const LOGICAL_MAX_SLANT: usize = 3;
/// Places along its stub tried for the label of a stub that has none of its own.
const STUB_LABEL_STOPS: u8 = 8;

/// One line of the drawing.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Line {
    pub y: f64,
    /// Time of the first event put on it.
    pub time_ms: u64,
}

/// Where everything went.
#[derive(Debug, Default)]
pub(super) struct Placed {
    pub line_of: Vec<usize>,
    pub lines: Vec<Line>,
    /// Each note's box and text (notes may sit beside their lane to share a line).
    pub notes: Vec<Option<(Rect, TextBox)>>,
    /// Each send's label.
    pub labels: Vec<Option<TextBox>>,
    /// Lines after which the axis breaks (to scale).
    pub breaks: Vec<usize>,
    /// Per send: the label of a message drawn level where it arrives (no slanted path was
    /// clear), on its arrival line.
    pub late: Vec<Option<TextBox>>,
    /// Per send drawn late that had no label of its own (a fan-in's member): the label over its
    /// stub on the send line, so the stub says what it is.
    pub stub_labels: Vec<Option<TextBox>>,
    /// Per send: drawn as one slanted arrow from its send to its arrival although no clear path
    /// was found, beneath the labels and notes it passes (a message long in flight).
    pub beneath: Vec<bool>,
}

impl Placed {
    pub fn y(&self, event: usize) -> f64 {
        self.lines[self.line_of[event]].y
    }
}

/// What the placer needs to know.
pub(super) struct Input<'a> {
    pub events: &'a [TraceEvent],
    pub links: &'a [Link],
    pub pieces: &'a [Piece],
    pub frame: &'a Frame,
    pub lanes: usize,
    pub mode: TimeMode,
    /// The to-scale axis (its scale, bursts and breakable stretches).
    pub axis: &'a scale::Plan,
    /// Per event: the first event of the fold it is folded into (that event draws the fold's
    /// note), if any.
    pub folded_into: &'a [Option<usize>],
    pub origin: f64,
}

struct Placer<'a> {
    input: &'a Input<'a>,
    board: Board,
    out: Placed,
    /// Per lane: the last line used and the group it was used by.
    lane_last: Vec<Option<(usize, Option<usize>)>>,
    /// The level shaft reserved by each send still in the network.
    reserved: Vec<Option<usize>>,
    /// How many sends each group (by its leader) has.
    group_size: BTreeMap<usize, usize>,
    /// The head reserved where each member of a fan-out or fan-in will arrive level: what is
    /// placed before it arrives (the first reply's label) keeps clear of it.
    reserved_head: Vec<Option<usize>>,
    in_flight: usize,
    /// Drawn labels and notes that may slide sideways to let a slanted arrow through: board id ->
    /// the event that drew it.
    movable: BTreeMap<usize, usize>,
    /// Whether each send's arrow ended on its own line (its label may then slide along it).
    level: Vec<bool>,
    /// Whether each line holds an event (lines made while looking for room may stay empty).
    used: Vec<bool>,
    /// The time of the event being placed, and the lowest line holding an earlier event: an
    /// empty line above it would put this event above an earlier one in the gutter. Sends,
    /// notes and slanted arrivals go no higher than `lowest_used` (the lowest line holding an
    /// earlier step), so the gutter reads down the page; only an arrival drawn level (on its
    /// send's line, or level where it arrives) may share a line above later steps.
    now_ms: u64,
    earlier_bottom: usize,
    lowest_used: usize,
}

/// Whether a send carries a mark beside its sender.
fn marked(e: &TraceEvent) -> bool {
    matches!(
        e.tag,
        Some(
            Tag::WriteAccepted { .. }
                | Tag::AccessRejected { .. }
                | Tag::Renewed
                | Tag::Delayed { .. }
        )
    )
}

impl Placer<'_> {
    /// Starts placing an event at `t` (events come in time order).
    fn advance(&mut self, t: u64) {
        if t > self.now_ms {
            self.now_ms = t;
            self.earlier_bottom = self.lowest_used;
        }
    }

    /// Whether line `c` may take the event being placed without breaking the gutter's order: a
    /// line holding events already shows a time at most this event's; an empty line must not
    /// sit above a line holding an earlier event.
    fn order_ok(&self, c: usize) -> bool {
        self.used.get(c).copied().unwrap_or(false) || c >= self.earlier_bottom
    }

    /// Puts event `i` on line `c`.
    fn assign(&mut self, i: usize, c: usize) {
        self.out.line_of[i] = c;
        if self.used.len() <= c {
            self.used.resize(c + 1, false);
        }
        self.used[c] = true;
        self.lowest_used = self.lowest_used.max(c);
    }

    fn join_ms(&self, t: u64) -> u64 {
        match self.input.mode {
            TimeMode::Logical => JOIN_MS,
            TimeMode::ToScale if self.input.axis.burst_of(t).is_some() => JOIN_MS,
            TimeMode::ToScale => JOIN_MS.max((JOIN_PX / self.input.axis.ms_scale.max(1e-9)) as u64),
        }
    }

    /// The first line an event at `t` may use: after every line begun by an earlier event (lines
    /// are begun in time order).
    fn time_bound(&self, t: u64) -> usize {
        let limit = t.saturating_sub(self.join_ms(t));
        self.out.lines.partition_point(|l| l.time_ms < limit)
    }

    /// The first line `lane` may use for an event of `group`.
    fn lane_bound(&self, lane: usize, group: Option<usize>) -> usize {
        match self.lane_last.get(lane).copied().flatten() {
            Some((line, g)) if group.is_some() && g == group => line,
            Some((line, _)) => line + 1,
            None => 0,
        }
    }

    fn use_lane(&mut self, lane: usize, line: usize, group: Option<usize>) {
        if let Some(slot) = self.lane_last.get_mut(lane) {
            *slot = Some((line, group));
        }
    }

    /// Line `c`, making it (and any before it) if it does not exist yet. To scale, a new line goes
    /// at its time on the scale (a line below the last in a burst), or lower to keep the pitch (rows
    /// stacked within an instant, marked); after a long idle stretch, a break.
    fn line(&mut self, c: usize, t: u64) -> f64 {
        while self.out.lines.len() <= c {
            let axis = self.input.axis;
            let lines = &self.out.lines;
            let line = |k: usize| (lines[k].y, lines[k].time_ms);
            let k = lines.len().wrapping_sub(1);
            let y = match lines.last() {
                None => self.input.origin,
                Some(last) => match self.input.mode {
                    TimeMode::Logical => last.y + PITCH,
                    // In a burst, rows go in order a line apart (see `scale`).
                    TimeMode::ToScale if axis.ordered(last.time_ms, t) => last.y + PITCH,
                    // A break starts where the axis leaves off (a burst's band's bottom) and
                    // ends where it takes up again (the next band's top).
                    TimeMode::ToScale
                        if let Some(y) = (self.in_flight == 0)
                            .then(|| axis.break_before(k, line, t, BREAK_H))
                            .flatten() =>
                    {
                        self.out.breaks.push(k);
                        y
                    }
                    // Else at its time on the one scale, from where the axis left off (a
                    // burst's band's bottom at its last time); rows of one instant that could
                    // not share a line stack a line apart (marked).
                    TimeMode::ToScale => axis.next_y(k, line, t).max(last.y + PITCH),
                },
            };
            self.out.lines.push(Line { y, time_ms: t });
        }
        self.out.lines[c].y
    }

    /// Whether an event at `t` may join existing line `c`.
    fn time_fits(&self, c: usize, t: u64) -> bool {
        match self.input.mode {
            TimeMode::Logical => true,
            TimeMode::ToScale if self.input.axis.ordered(self.out.lines[c].time_ms, t) => true,
            TimeMode::ToScale => {
                let line = &self.out.lines[c];
                let px = self.input.axis.ms_scale;
                t.abs_diff(line.time_ms) as f64 * px <= JOIN_PX
                    || t.abs_diff(line.time_ms) <= JOIN_MS
            }
        }
    }

    /// Tries lines from `lb` down until `make` gives things that clash with nothing; a fresh line
    /// is taken after `fresh_tries` fresh lines failed. Returns the line and its things.
    fn find(
        &mut self,
        lb: usize,
        t: u64,
        fresh_tries: usize,
        mut make: impl FnMut(&Self, usize, f64) -> Vec<Vec<Item>>,
    ) -> (usize, Vec<Item>) {
        let mut c = lb;
        let mut fresh = 0;
        // The first fresh line tried and its first option: where the event goes if no fresh line
        // clears (the lines tried after it are dropped, so no run of empty lines stretches the
        // axis for nothing).
        let mut first_fresh: Option<(usize, Vec<Item>)> = None;
        let mut tried = false;
        loop {
            let is_fresh = c >= self.out.lines.len();
            if !is_fresh && (!self.time_fits(c, t) || !self.order_ok(c)) {
                c += 1;
                continue;
            }
            let y = self.line(c, t);
            let options = make(self, c, y);
            if let Some(ok) = options.iter().find(|items| !self.board.any_clash(items)) {
                return (c, ok.clone());
            }
            // A note or label in the way may slide aside (rather than this label going below
            // its arrow, where it would read as the next arrow's): tried on the first line the
            // event may take and on fresh lines only (sliding is dear; later lines often fit).
            let first = !tried;
            tried = true;
            if (first || is_fresh)
                && let Some(ok) = options.iter().find(|items| self.make_way(items))
            {
                return (c, ok.clone());
            }
            if is_fresh {
                fresh += 1;
                let first = first_fresh
                    .get_or_insert_with(|| (c, options.into_iter().next().unwrap_or_default()));
                if fresh > fresh_tries {
                    let (c0, items) = first.clone();
                    self.out.lines.truncate(c0 + 1);
                    self.out.breaks.retain(|&b| b < c0);
                    return (c0, items);
                }
            }
            c += 1;
        }
    }

    fn send(&mut self, i: usize, from: usize, to: usize, label: &str, group: Option<usize>) {
        let e = &self.input.events[i];
        let owner = group.unwrap_or(i);
        let orphan = matches!(self.input.links[i], Link::End(None));
        let mut lb = self
            .time_bound(e.time_ms)
            .max(self.lane_bound(from, group))
            .max(self.lowest_used);
        if orphan {
            lb = lb.max(self.lane_bound(to, group));
        }
        // Reserved only for a round answered straight away (each member delivered within the
        // round's sends, deliveries and replies): a round whose answers come later, among other
        // rounds, arrives late anyway and would only keep others off its line.
        let soon = match (self.input.links[i], group) {
            (Link::Start(Some(end)), Some(g)) => {
                let size = self.group_size.get(&g).copied().unwrap_or(1);
                end <= i + 2 * size + 2
            }
            _ => false,
        };
        // To scale a round's arrows slant by their time in flight: nothing to reserve, unless
        // the round lies inside a burst, whose rows are in order as in logical time.
        let in_order = match (self.input.mode, self.input.links[i]) {
            (TimeMode::Logical, _) => true,
            (TimeMode::ToScale, Link::Start(Some(end))) => self
                .input
                .axis
                .ordered(e.time_ms, self.input.events[end].time_ms),
            _ => false,
        };
        let reserve_head =
            soon && in_order && !orphan && !matches!(e.tag, Some(Tag::Delayed { .. }));
        let frame = self.input.frame;
        // The label sits at the arrow's start; if that spot is taken (a note just above), it
        // may move along its own arrow (not a group's label, which must stay clear of the
        // group's heads).
        let (xf, xt) = (frame.x(from), frame.x(to));
        let room = if label.is_empty() || group.is_some() {
            0.0
        } else {
            (xt - xf).abs() - 2.0 * LABEL_INSET - HEAD_LEN - text::width(label, style::LABEL_SIZE)
        };
        let along: Vec<f64> = std::iter::once(0.0)
            .chain((1..=3).map(|k| frame.dir(from, to) * room * f64::from(k) / 3.0))
            .filter(|d| room > 0.0 || *d == 0.0)
            .collect();
        // Always above its own arrow (one rule for every row, as in Kleppmann's figures): a
        // label below its arrow sits just above the next one and reads as that arrow's.
        let shifts: Vec<(f64, f64)> = along.iter().map(|&dx| (dx, 0.0)).collect();
        let (c, items) = self.find(lb, e.time_ms, FRESH_TRIES, |_, _, y| {
            shifts
                .iter()
                .map(|&(dx, dy)| {
                    let mut items = vec![Item {
                        shape: Shape::Box(Rect::new(xf, y - SHAFT_HALF, xt, y + SHAFT_HALF)),
                        kind: Kind::Shaft,
                        owner,
                    }];
                    if !label.is_empty() {
                        let rect = frame.arrow_label(from, to, label, y).rect.shifted(dx, dy);
                        items.push(Item {
                            shape: Shape::Box(rect),
                            kind: Kind::Text,
                            owner,
                        });
                        items.extend(upper_lines(label, rect, style::LABEL_SIZE, owner));
                    }
                    if marked(e) {
                        let at = frame.mark_beside(from, to, y);
                        items.push(Item {
                            shape: Shape::Box(Rect::new(
                                at.x - 11.0,
                                y - 11.0,
                                at.x + 11.0,
                                y + 11.0,
                            )),
                            kind: Kind::Mark,
                            owner,
                        });
                    }
                    if orphan || reserve_head {
                        items.push(head(frame, from, to, y, (owner, i)));
                    }
                    items
                })
                .collect()
        });
        let home = frame.arrow_label(from, to, label, self.out.lines[c].y).rect;
        let (sx, sy) = items
            .iter()
            .find(|it| it.kind == Kind::Text)
            .and_then(|it| match it.shape {
                Shape::Box(r) => Some((r.x0 - home.x0, r.y0 - home.y0)),
                Shape::Segment(..) => None,
            })
            .unwrap_or((0.0, 0.0));
        let y = self.out.lines[c].y;
        for (k, item) in items.into_iter().enumerate() {
            let text = item.kind == Kind::Text;
            let own_head = item.kind == Kind::Head(i);
            let id = self.board.add(item);
            if k == 0 && !orphan {
                self.reserved[i] = Some(id);
            }
            if own_head && !orphan {
                self.reserved_head[i] = Some(id);
            }
            if text {
                self.movable.insert(id, i);
            }
        }
        if !label.is_empty() {
            self.out.labels[i] = Some(frame.arrow_label(from, to, label, y).shifted(sx, sy));
        }
        self.assign(i, c);
        self.use_lane(from, c, group);
        if orphan {
            self.use_lane(to, c, group);
        } else {
            self.in_flight += 1;
        }
    }

    fn arrive(&mut self, i: usize, start: usize) {
        let Piece::Arrow {
            from, to, group, ..
        } = self.input.pieces[start]
        else {
            // The send drew nothing (a node without a lane): keep the row in order.
            self.nothing(i);
            return;
        };
        let e = &self.input.events[i];
        let owner = group.unwrap_or(start);
        let ls = self.out.line_of[start];
        // Its head is placed afresh (level where it was reserved, if that is still clear).
        if let Some(id) = self.reserved_head[start].take() {
            self.board.remove(id);
        }
        let lb = self
            .time_bound(e.time_ms)
            .max(self.lane_bound(to, group))
            .max(ls);
        let frame = self.input.frame;
        // Rows in order (logical time, or a burst to scale) keep slanted arrows short.
        let in_order = match self.input.mode {
            TimeMode::Logical => true,
            TimeMode::ToScale => self
                .input
                .axis
                .ordered(self.input.events[start].time_ms, e.time_ms),
        };
        let mut c = lb;
        let mut fresh = 0;
        // The first fresh line made looking for a slanted path: if none clears, the lines made
        // from here on are dropped, so no run of empty lines stretches the axis for nothing.
        let mut first_fresh = None;
        let items = loop {
            // In order (logical time, or inside a burst) an arrow of a round (a fan-out or a
            // fan-in) never slants: slanted across the round's other rows it crosses their
            // arrows, and which instance got what is lost (it arrives level, with a stub where
            // it was sent, instead).
            let most = if group.is_some() {
                0
            } else {
                LOGICAL_MAX_SLANT
            };
            if in_order && c > ls + most {
                // No clear short slant: a message of a round arrives level where it arrives
                // (with a stub where it was sent); any other is one long arrow all the same,
                // beneath the rows it passes.
                if let Some(c0) = first_fresh {
                    self.out.lines.truncate(c0);
                }
                self.no_clear_path(i, start, lb);
                return;
            }
            let is_fresh = c >= self.out.lines.len();
            // A slanted arrival never ends above an earlier step's line (the gutter would read
            // backwards); only an arrival drawn level may share a line with earlier steps.
            if c != ls && c < self.lowest_used {
                c = self.lowest_used;
                continue;
            }
            if !is_fresh && (!self.time_fits(c, e.time_ms) || !self.order_ok(c)) {
                c += 1;
                continue;
            }
            let y = self.line(c, e.time_ms);
            let mut items = vec![head(frame, from, to, y, (owner, start))];
            if c != ls {
                let a = Point::new(frame.x(from), self.out.lines[ls].y);
                // Its own owner: a slanted member of a fan-out or fan-in may not cross the
                // group's label either.
                items.push(Item {
                    shape: Shape::Segment(a, Point::new(frame.x(to), y)),
                    kind: Kind::Shaft,
                    owner: start,
                });
            }
            // A slanted arrow keeps its label (above its start) beside its shaft.
            let label_ok = c == ls
                || self.out.labels[start].as_ref().is_none_or(|l| {
                    label_near(
                        &l.rect,
                        Point::new(frame.x(from), self.out.lines[ls].y),
                        Point::new(frame.x(to), y),
                    )
                });
            if label_ok && self.make_way(&items) {
                break items;
            }
            if is_fresh {
                fresh += 1;
                let most = if in_order { LOGICAL_FRESH } else { MAX_FRESH };
                let c0 = *first_fresh.get_or_insert(c);
                // No exception for a message held up in the network, to scale either: its one
                // straight diagonal would cross the notes and labels of the steps it flies over.
                if fresh > most {
                    self.out.lines.truncate(c0);
                    self.out.breaks.retain(|&b| b + 1 < c0);
                    self.no_clear_path(i, start, lb);
                    return;
                }
            }
            c += 1;
        };
        if c == ls {
            self.level[start] = true;
        }
        if c != ls
            && let Some(id) = self.reserved[start].take()
        {
            self.board.remove(id);
        }
        for item in items {
            self.board.add(item);
        }
        self.assign(i, c);
        self.use_lane(to, c, group);
        self.in_flight = self.in_flight.saturating_sub(1);
    }

    fn note(&mut self, i: usize, lanes: (usize, usize), text: &str, icon: bool) {
        let e = &self.input.events[i];
        let global = lanes.0 != lanes.1;
        let mut lb = self.time_bound(e.time_ms).max(self.lowest_used);
        for lane in lanes.0..=lanes.1 {
            lb = lb.max(self.lane_bound(lane, None));
        }
        if global {
            lb = lb.max(self.out.lines.len());
        }
        let frame = self.input.frame;
        // A payout paid twice gets a line of its own: anything else on its red band would read
        // as its cause.
        let marker = matches!(e.tag, Some(Tag::Duplicate { .. }))
            .then(|| cause_of(self.input.events, self.input.links, self.input.pieces, i));
        let (c, items) = self.find(lb, e.time_ms, FRESH_TRIES, |_, _, y| {
            let (rect, _) = frame.note(lanes, text, icon, y);
            let mut items = vec![Item {
                shape: Shape::Box(rect),
                kind: Kind::Text,
                owner: i,
            }];
            if let Some(cause) = marker {
                items.push(marker_band(frame, rect, y, (i, cause)));
            }
            vec![items]
        });
        for item in items {
            let band = matches!(item.kind, Kind::Band(_));
            let id = self.board.add(item);
            if !global && !band {
                self.movable.insert(id, i);
            }
        }
        let y = self.out.lines[c].y;
        self.out.notes[i] = Some(frame.note(lanes, text, icon, y));
        self.assign(i, c);
        for lane in lanes.0..=lanes.1 {
            self.use_lane(lane, c, None);
        }
    }

    /// An event that draws nothing (folded, or of a node without a lane): on the lowest line
    /// holding an earlier step, so the gutter still reads down the page.
    fn nothing(&mut self, i: usize) {
        // A folded step is in its fold: on the fold's line (drawn above, and no lower line's
        // gutter claims it).
        if let Some(first) = self.input.folded_into.get(i).copied().flatten()
            && first < i
        {
            self.out.line_of[i] = self.out.line_of[first];
            return;
        }
        let c = self.lowest_used;
        let t = self.input.events[i].time_ms;
        self.line(c, t);
        self.assign(i, c);
    }
}

/// Places every event of the trace.
pub(super) fn place(input: &Input) -> Placed {
    let n = input.events.len();
    let mut p = Placer {
        input,
        board: Board::default(),
        out: Placed {
            line_of: vec![0; n],
            notes: vec![None; n],
            labels: vec![None; n],
            late: vec![None; n],
            stub_labels: vec![None; n],
            beneath: vec![false; n],
            ..Placed::default()
        },
        lane_last: vec![None; input.lanes],
        reserved: vec![None; n],
        reserved_head: vec![None; n],
        group_size: {
            let mut sizes = BTreeMap::new();
            for p in input.pieces {
                if let Piece::Arrow { group: Some(g), .. } = p {
                    *sizes.entry(*g).or_insert(0) += 1;
                }
            }
            sizes
        },
        in_flight: 0,
        movable: BTreeMap::new(),
        level: vec![false; n],
        used: Vec::new(),
        now_ms: input.events.first().map_or(0, |e| e.time_ms),
        earlier_bottom: 0,
        lowest_used: 0,
    };
    for i in 0..n {
        p.advance(input.events[i].time_ms);
        match (&input.pieces[i], input.links[i]) {
            (
                Piece::Arrow {
                    from,
                    to,
                    label,
                    group,
                },
                _,
            ) => p.send(i, *from, *to, label, *group),
            (Piece::ArrowEnd, Link::End(Some(start))) => p.arrive(i, start),
            (
                Piece::Note {
                    lanes, text, icon, ..
                },
                _,
            ) => p.note(i, *lanes, text, icon.is_some()),
            _ => p.nothing(i),
        }
    }
    p.out
}
