//! The payouts database, the protected resource: a batch status, its payouts, and the fencing
//! check of DESIGN §3 (`off`, `writes`, `enforce`, `permissive`) plus idempotency keys.

use super::{Dest, Effects};
use crate::message::{Payload, ReadResult, WriteResult};
use crate::scenario::FencingMode;
use crate::topology::NodeId;
use crate::trace::Tag;

/// The database's records; the verdict is computed from these alone.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Database {
    pub fencing: FencingMode,
    pub idempotency: bool,
    pub amount_cents: u64,
    /// Whether the batch is marked paid.
    pub paid: bool,
    /// The highest token seen for the lock key.
    pub last_token: Option<u64>,
    /// How many times each payout was applied.
    pub applied: Vec<u32>,
    /// Writes that applied at least one payout.
    pub writes_accepted: u32,
    /// Writes the database took but applied nothing of: every payout's idempotency key was
    /// already used, so the request succeeded as a repeat (Stripe answers a retry with the
    /// stored result) and changed nothing.
    pub writes_skipped: u32,
    pub writes_rejected: u32,
    pub reads_rejected: u32,
    /// Repeated payouts turned into no-ops by their idempotency keys.
    pub noops: u32,
    /// Who wrote the batch first (for narration).
    pub first_writer: Option<String>,
    /// Writes are `UPDATE ... WHERE status = 'unpaid'`.
    pub conditional: bool,
    /// How long an idempotency key is remembered; None: for the whole run.
    pub retention_ms: Option<u64>,
    /// Per payout: the amount and the time (db clock) its idempotency key was stored.
    pub keys: Vec<Option<(u64, i64)>>,
    /// Conditional writes that found the batch already paid: their WHERE matched no row.
    pub writes_unmatched: u32,
    /// Writes refused because they reused idempotency keys with another amount.
    pub writes_key_reused: u32,
}

/// What the database sees while it reacts.
#[derive(Debug)]
pub struct DbCtx<'a> {
    pub from_name: &'a str,
    /// The database's clock, for the retention of idempotency keys.
    pub now_local: i64,
    pub fx: &'a mut Effects,
}

impl Database {
    pub fn new(fencing: FencingMode, idempotency: bool, payouts: u32, amount_cents: u64) -> Self {
        Database {
            fencing,
            idempotency,
            amount_cents,
            paid: false,
            last_token: None,
            applied: vec![0; payouts as usize],
            writes_accepted: 0,
            writes_skipped: 0,
            writes_rejected: 0,
            reads_rejected: 0,
            noops: 0,
            first_writer: None,
            conditional: false,
            retention_ms: None,
            keys: vec![None; payouts as usize],
            writes_unmatched: 0,
            writes_key_reused: 0,
        }
    }

    /// The fencing decision for one access. `Err` carries the rejection reason.
    fn fence(&mut self, token: Option<u64>, write: bool) -> Result<(), String> {
        let strict = match (self.fencing, write) {
            (FencingMode::Off, _) | (FencingMode::Writes, false) => return Ok(()),
            (FencingMode::Permissive, _) if token.is_none() => return Ok(()),
            // The article's storage: a write must be newer than every write before it.
            (FencingMode::Writes, true) => true,
            (FencingMode::Enforce | FencingMode::Permissive, _) => false,
        };
        let Some(t) = token else {
            return Err("no fencing token".into());
        };
        match self.last_token {
            Some(last) if t < last => Err(format!("{t} < last_token {last}")),
            Some(last) if strict && t == last => {
                Err(format!("{t} = last_token {last}, already used"))
            }
            _ => {
                self.last_token = Some(self.last_token.map_or(t, |l| l.max(t)));
                Ok(())
            }
        }
    }

    pub fn on_message(&mut self, from: NodeId, payload: Payload, cx: &mut DbCtx<'_>) {
        match payload {
            Payload::Read { req, token } => {
                let before = self.last_token;
                let (result, tag) = match self.fence(token, false) {
                    Err(why) => {
                        self.reads_rejected += 1;
                        (
                            ReadResult::Rejected(why),
                            Some(Tag::AccessRejected {
                                write: false,
                                token,
                                last_token: before,
                            }),
                        )
                    }
                    Ok(()) => {
                        let status = if self.paid {
                            ReadResult::Paid
                        } else {
                            ReadResult::Unpaid
                        };
                        // Only a read that moved `last_token` says so: that is the step a later,
                        // lower token is refused because of.
                        let raised = self.last_token.filter(|_| self.last_token != before);
                        (
                            status,
                            raised.map(|last_token| Tag::ReadRaisedToken { last_token }),
                        )
                    }
                };
                cx.fx
                    .send_tagged(Dest::Node(from), Payload::ReadReply { req, result }, tag);
            }
            Payload::Write {
                req,
                token,
                keys,
                payouts,
                amount_cents,
            } => {
                let before = self.last_token;
                let amount = amount_cents.unwrap_or(self.amount_cents);
                if let Some(result) = self.refusal(token, keys, payouts, amount, cx) {
                    match result {
                        WriteResult::NothingToUpdate => self.writes_unmatched += 1,
                        _ => self.writes_key_reused += 1,
                    }
                    cx.fx
                        .send(Dest::Node(from), Payload::WriteReply { req, result });
                    return;
                }
                match self.fence(token, true) {
                    Err(why) => {
                        self.writes_rejected += 1;
                        let tag = Tag::AccessRejected {
                            write: true,
                            token,
                            last_token: before,
                        };
                        cx.fx.send_tagged(
                            Dest::Node(from),
                            Payload::WriteReply {
                                req,
                                result: WriteResult::Rejected(why),
                            },
                            Some(tag),
                        );
                    }
                    Ok(()) => {
                        let (applied, noops, duplicated) = self.apply(payouts, keys, amount, cx);
                        // A write whose every payout was a repeat changed nothing: the
                        // database took the request but applied no write.
                        if applied == 0 && noops > 0 {
                            self.writes_skipped += 1;
                        } else {
                            self.writes_accepted += 1;
                        }
                        if duplicated > 0 {
                            let cents = u64::from(duplicated) * self.amount_cents;
                            let first = self.first_writer.clone().unwrap_or_default();
                            let writer = cx.from_name;
                            let by = if first == writer {
                                format!("{writer}'s own earlier write")
                            } else {
                                format!("{first}'s earlier write")
                            };
                            cx.fx.state(
                                format!("DUPLICATE: {duplicated} payouts paid twice"),
                                format!(
                                    "{writer}'s write paid again {duplicated} payouts that {by} had paid: {} paid twice. {}",
                                    money(cents),
                                    if first == writer {
                                        "To the database a repeated write looks like a new one unless its payouts carry idempotency keys it still remembers.".to_string()
                                    } else {
                                        self.why_both_passed(token)
                                    }
                                ),
                                Some(Tag::Duplicate { payouts: duplicated, cents }),
                            );
                        }
                        if self.first_writer.is_none() {
                            self.first_writer = Some(cx.from_name.to_string());
                        }
                        let tag = Tag::WriteAccepted {
                            token,
                            applied,
                            noops,
                        };
                        cx.fx.send_tagged(
                            Dest::Node(from),
                            Payload::WriteReply {
                                req,
                                result: WriteResult::Applied {
                                    applied,
                                    noops,
                                    duplicated,
                                },
                            },
                            Some(tag),
                        );
                    }
                }
            }
            _ => {}
        }
    }

    /// Why the database let a repeated payment through, in its fencing mode: true whichever of
    /// the two writers was the stale one.
    fn why_both_passed(&self, token: Option<u64>) -> String {
        match (self.fencing, token) {
            (FencingMode::Off, _) => "The database checks no fencing token, so it cannot tell whether the writer still holds the lock: it takes whatever arrives.".into(),
            (FencingMode::Writes, Some(t)) => format!("Fencing on writes only: token {t} was higher than any earlier write's, so it passed. Fencing orders the writes, but both workers had read \"unpaid\" before either wrote, so check-then-act was not one step."),
            (_, None) => "This write carried no fencing token and the database's mode accepts tokenless accesses, so nothing could fence it.".into(),
            (_, Some(t)) => format!("Token {t} was not lower than any token the database had seen, so both writes looked like the current holder's: a token handed out twice (after a failover or restart) or by no single counter defeats the check."),
        }
    }

    /// A write refused before fencing is even checked: a conditional write that finds the batch
    /// paid, or an idempotency key that comes back with another amount (Stripe's error).
    fn refusal(
        &self,
        token: Option<u64>,
        keys: bool,
        payouts: u32,
        amount: u64,
        cx: &DbCtx<'_>,
    ) -> Option<WriteResult> {
        if self.conditional && self.paid {
            // A fenced-off writer is told about its token first, as the database would check it
            // in the same statement; a current one finds nothing to update.
            if self.fencing != FencingMode::Off && token.is_some() && self.last_token > token {
                return None;
            }
            return Some(WriteResult::NothingToUpdate);
        }
        if self.idempotency && keys {
            let n = (payouts as usize).min(self.keys.len());
            let reused = self.keys[..n]
                .iter()
                .flatten()
                .any(|&(stored, at)| stored != amount && !self.forgotten(at, cx.now_local));
            if reused {
                return Some(WriteResult::KeyReused);
            }
        }
        None
    }

    /// Whether a key stored at `at` has outlived its retention by `now`.
    fn forgotten(&self, at: i64, now: i64) -> bool {
        self.retention_ms
            .is_some_and(|r| now.saturating_sub(at) > r as i64)
    }

    /// Applies a batch write; returns (applied, no-ops, newly duplicated payouts).
    fn apply(
        &mut self,
        payouts: u32,
        keys: bool,
        amount: u64,
        cx: &mut DbCtx<'_>,
    ) -> (u32, u32, u32) {
        let (mut applied, mut noops, mut duplicated, mut pruned) = (0, 0, 0, 0);
        let n = (payouts as usize).min(self.applied.len());
        let keyed = self.idempotency && keys;
        for i in 0..n {
            if keyed && let Some((_, at)) = self.keys[i] {
                if !self.forgotten(at, cx.now_local) {
                    noops += 1;
                    continue;
                }
                pruned += 1;
            }
            if keyed {
                self.keys[i] = Some((amount, cx.now_local));
            }
            self.applied[i] += 1;
            applied += 1;
            if self.applied[i] > 1 {
                duplicated += 1;
            }
        }
        if pruned > 0 {
            let retention = self.retention_ms.unwrap_or_default();
            cx.fx.state(
                format!("{pruned} idempotency keys forgotten"),
                format!(
                    "The database keeps idempotency keys for {retention} ms, and these were older: it no longer knows the payouts were made, so the retry pays them again (Stripe keeps keys for at least 24 hours for this reason)."
                ),
                None,
            );
        }
        self.noops += noops;
        self.paid = true;
        (applied, noops, duplicated)
    }
}

/// `125000` cents -> `$1,250.00`.
pub fn money(cents: u64) -> String {
    let dollars = cents / 100;
    let mut digits = dollars.to_string();
    let mut grouped = String::new();
    while digits.len() > 3 {
        let tail = digits.split_off(digits.len() - 3);
        grouped = format!(",{tail}{grouped}");
    }
    format!("${digits}{grouped}.{:02}", cents % 100)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::actors::Effect;

    fn access(db: &mut Database, payload: Payload) -> Payload {
        answer(db, payload).0
    }

    /// The database's reply to one access, with its tag.
    fn answer(db: &mut Database, payload: Payload) -> (Payload, Option<Tag>) {
        let mut fx = Effects::default();
        db.on_message(
            0,
            payload,
            &mut DbCtx {
                from_name: "A",
                now_local: 0,
                fx: &mut fx,
            },
        );
        fx.items
            .into_iter()
            .find_map(|e| match e {
                Effect::Send { payload, tag, .. } => Some((payload, tag)),
                _ => None,
            })
            .expect("the database always answers")
    }

    fn write(db: &mut Database, token: Option<u64>) -> WriteResult {
        match access(
            db,
            Payload::Write {
                req: 1,
                token,
                keys: false,
                payouts: 3,
                amount_cents: None,
            },
        ) {
            Payload::WriteReply { result, .. } => result,
            other => panic!("unexpected {other:?}"),
        }
    }

    fn read(db: &mut Database, token: Option<u64>) -> ReadResult {
        match access(db, Payload::Read { req: 1, token }) {
            Payload::ReadReply { result, .. } => result,
            other => panic!("unexpected {other:?}"),
        }
    }

    #[test]
    fn writes_mode_is_the_articles_state_machine() {
        let mut db = Database::new(FencingMode::Writes, false, 3, 100);
        assert!(matches!(
            write(&mut db, Some(34)),
            WriteResult::Applied { applied: 3, .. }
        ));
        assert_eq!(
            write(&mut db, Some(33)),
            WriteResult::Rejected("33 < last_token 34".into())
        );
        assert_eq!(
            write(&mut db, Some(34)),
            WriteResult::Rejected("34 = last_token 34, already used".into())
        );
        // Reads are not checked in this mode, so a stale reader still sees the status.
        assert_eq!(read(&mut db, Some(1)), ReadResult::Paid);
    }

    #[test]
    fn writes_mode_lets_a_stale_first_write_through() {
        let mut db = Database::new(FencingMode::Writes, false, 3, 100);
        assert_eq!(read(&mut db, Some(34)), ReadResult::Unpaid);
        assert!(matches!(
            write(&mut db, Some(33)),
            WriteResult::Applied { .. }
        ));
        assert!(matches!(
            write(&mut db, Some(34)),
            WriteResult::Applied { .. }
        ));
        assert_eq!(db.applied, vec![2, 2, 2]);
    }

    #[test]
    fn enforce_raises_last_token_on_reads() {
        let mut db = Database::new(FencingMode::Enforce, false, 3, 100);
        assert_eq!(read(&mut db, Some(34)), ReadResult::Unpaid);
        assert_eq!(
            write(&mut db, Some(33)),
            WriteResult::Rejected("33 < last_token 34".into())
        );
        assert!(matches!(
            write(&mut db, Some(34)),
            WriteResult::Applied { .. }
        ));
        assert_eq!(
            read(&mut db, None),
            ReadResult::Rejected("no fencing token".into())
        );
    }

    /// The tag on the reply to a read carrying `token`.
    fn read_tag(db: &mut Database, token: Option<u64>) -> Option<Tag> {
        answer(db, Payload::Read { req: 1, token }).1
    }

    #[test]
    fn only_a_read_that_raises_last_token_says_so() {
        let mut db = Database::new(FencingMode::Enforce, false, 3, 100);
        assert_eq!(
            read_tag(&mut db, Some(34)),
            Some(Tag::ReadRaisedToken { last_token: 34 })
        );
        assert_eq!(
            read_tag(&mut db, Some(34)),
            None,
            "an equal token moves nothing"
        );
        assert_eq!(
            read_tag(&mut db, Some(36)),
            Some(Tag::ReadRaisedToken { last_token: 36 })
        );
        assert!(matches!(
            read_tag(&mut db, Some(35)),
            Some(Tag::AccessRejected { write: false, .. })
        ));
        assert_eq!(db.last_token, Some(36));
        // Fencing writes only: a read's token is not looked at, so it raises nothing.
        let mut writes = Database::new(FencingMode::Writes, false, 3, 100);
        assert_eq!(read_tag(&mut writes, Some(34)), None);
        assert_eq!(writes.last_token, None);
        // A permissive database takes a tokenless read without moving anything.
        let mut permissive = Database::new(FencingMode::Permissive, false, 3, 100);
        assert_eq!(read_tag(&mut permissive, None), None);
    }

    #[test]
    fn enforce_lets_a_reissued_token_through() {
        let mut db = Database::new(FencingMode::Enforce, false, 3, 100);
        assert!(matches!(
            write(&mut db, Some(33)),
            WriteResult::Applied { .. }
        ));
        assert!(matches!(
            write(&mut db, Some(33)),
            WriteResult::Applied { .. }
        ));
        assert_eq!(db.applied, vec![2, 2, 2]);
    }

    #[test]
    fn permissive_accepts_tokenless_accesses() {
        let mut db = Database::new(FencingMode::Permissive, false, 3, 100);
        assert_eq!(read(&mut db, Some(34)), ReadResult::Unpaid);
        assert!(matches!(write(&mut db, None), WriteResult::Applied { .. }));
        assert_eq!(
            write(&mut db, Some(33)),
            WriteResult::Rejected("33 < last_token 34".into())
        );
    }

    #[test]
    fn idempotency_keys_turn_repeats_into_noops() {
        let mut db = Database::new(FencingMode::Off, true, 3, 100);
        let first = access(
            &mut db,
            Payload::Write {
                req: 1,
                token: None,
                keys: true,
                payouts: 3,
                amount_cents: None,
            },
        );
        let again = access(
            &mut db,
            Payload::Write {
                req: 2,
                token: None,
                keys: true,
                payouts: 3,
                amount_cents: None,
            },
        );
        assert!(matches!(
            first,
            Payload::WriteReply {
                result: WriteResult::Applied {
                    applied: 3,
                    noops: 0,
                    duplicated: 0
                },
                ..
            }
        ));
        assert!(matches!(
            again,
            Payload::WriteReply {
                result: WriteResult::Applied {
                    applied: 0,
                    noops: 3,
                    duplicated: 0
                },
                ..
            }
        ));
        assert_eq!(db.applied, vec![1, 1, 1]);
        // The repeat is not a second accepted write: it applied nothing.
        assert_eq!((db.writes_accepted, db.writes_skipped), (1, 1));
    }

    #[test]
    fn money_is_grouped() {
        assert_eq!(money(375_000), "$3,750.00");
        assert_eq!(money(5), "$0.05");
        assert_eq!(money(123_456_789), "$1,234,567.89");
    }
}
