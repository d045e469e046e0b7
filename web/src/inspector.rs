//! The inspector's tables, from the core's [`Inspection`]: the lock service (each key, its holder
//! and TTL left on the service's own clock, the counter or revision), the workers (state, belief,
//! token, clock), nodes that are down or paused, and the database. Cells that changed since the
//! previous step are flagged so the page can highlight them.

use lockstep_core::inspect::Inspection;

/// One table of the inspector; the first cell of each row names it.
#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    pub title: &'static str,
    pub columns: Vec<&'static str>,
    pub rows: Vec<Vec<Cell>>,
}

/// A value, and whether it changed at this step.
#[derive(Debug, Clone, PartialEq)]
pub struct Cell {
    pub text: String,
    pub changed: bool,
}

/// The column of each actor's own clock reading.
const CLOCK: &str = "its clock";

fn ms(v: Option<i64>) -> String {
    v.map_or("—".into(), |v| format!("{v} ms"))
}

fn opt<T: ToString>(v: Option<T>) -> String {
    v.map_or("—".into(), |v| v.to_string())
}

fn yes(b: bool) -> String {
    if b { "yes" } else { "no" }.into()
}

/// A table before change-flagging: title, column headings, rows of text.
type RawTable = (&'static str, Vec<&'static str>, Vec<Vec<String>>);

fn raw_tables(i: &Inspection) -> Vec<RawTable> {
    let mut out = Vec::new();
    let mut service: Vec<Vec<String>> = i
        .locks
        .iter()
        .map(|l| {
            vec![
                l.node.clone(),
                opt(l.holder.clone()),
                ms(l.ttl_left_ms),
                opt(l.counter),
                format!("{} ms", l.clock_ms),
            ]
        })
        .collect();
    if let Some(rev) = i.revision {
        service.push(vec![
            format!("revision {rev}"),
            format!("term {}", opt(i.term)),
            format!("leader {}", opt(i.leader.clone())),
            String::new(),
            String::new(),
        ]);
    }
    if !service.is_empty() {
        out.push((
            "Lock service",
            vec!["node", "holder", "TTL left", "counter", CLOCK],
            service,
        ));
    }
    out.push((
        "Workers",
        vec![
            "worker",
            "state",
            "believes it holds",
            "token",
            "lease until",
            "its clock",
        ],
        i.workers
            .iter()
            .map(|w| {
                vec![
                    w.name.clone(),
                    w.state.to_string(),
                    yes(w.believes),
                    opt(w.token),
                    ms(w.lease_until_ms),
                    format!("{} ms", w.clock_ms),
                ]
            })
            .collect(),
    ));
    let troubled: Vec<Vec<String>> = i
        .nodes
        .iter()
        .filter(|n| !n.alive || n.paused_until_ms.is_some())
        .map(|n| {
            let status = match (n.alive, n.paused_until_ms) {
                (false, _) => "crashed".to_string(),
                (true, Some(t)) => format!("paused until {t} ms"),
                (true, None) => "up".to_string(),
            };
            vec![n.name.clone(), status]
        })
        .collect();
    if !troubled.is_empty() {
        out.push(("Nodes down or paused", vec!["node", "status"], troubled));
    }
    let db = &i.db;
    let rows = db
        .rows
        .iter()
        .map(|n| n.to_string())
        .collect::<Vec<_>>()
        .join(" · ");
    out.push((
        "Database",
        vec!["record", "value"],
        vec![
            vec!["fencing".into(), db.fencing.as_str().into()],
            vec!["last_token".into(), opt(db.last_token)],
            vec!["batch paid".into(), yes(db.paid)],
            vec!["times each payout applied".into(), rows],
            vec!["writes accepted".into(), db.writes_accepted.to_string()],
            vec![
                "refused as stale (writes / reads)".into(),
                format!("{} / {}", db.writes_rejected, db.reads_rejected),
            ],
            vec!["idempotency keys".into(), yes(db.idempotency)],
            vec!["repeats made no-ops".into(), db.noops.to_string()],
        ],
    ));
    out
}

/// The tables of `now`, with the cells that differ from `before` (the previous step) flagged.
pub fn tables(now: &Inspection, before: Option<&Inspection>) -> Vec<Table> {
    let old = before.map(raw_tables).unwrap_or_default();
    raw_tables(now)
        .into_iter()
        .map(|(title, columns, rows)| {
            let old_rows = old.iter().find(|t| t.0 == title).map(|t| &t.2);
            let rows = rows
                .into_iter()
                .map(|row| {
                    let old_row =
                        old_rows.and_then(|r| r.iter().find(|o| o.first() == row.first()));
                    row.iter()
                        .enumerate()
                        .map(|(c, text)| Cell {
                            // Clocks move whenever time does: flagging them would drown the news.
                            changed: before.is_some()
                                && columns.get(c) != Some(&CLOCK)
                                && old_row.is_none_or(|o| o.get(c) != Some(text)),
                            text: text.clone(),
                        })
                        .collect()
                })
                .collect();
            Table {
                title,
                columns,
                rows,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use lockstep_core::{Session, catalogue};

    #[test]
    fn the_step_that_refuses_the_stale_write_flags_the_refusal_and_the_next_does_not() {
        let scenario = catalogue::load("fenced-gc-pause").unwrap().unwrap();
        let mut s = Session::new(&scenario);
        let refused = |t: &[Table]| {
            let db = t.iter().find(|t| t.title == "Database").unwrap();
            db.rows
                .iter()
                .find(|r| r[0].text == "refused as stale (writes / reads)")
                .unwrap()[1]
                .clone()
        };
        let mut flagged = None;
        loop {
            let before = s.inspect();
            if s.step().is_none() {
                break;
            }
            let t = tables(&s.inspect(), Some(&before));
            let cell = refused(&t);
            if cell.text == "1 / 0" && flagged.is_none() {
                assert!(cell.changed, "the refusal is flagged at step {}", s.pos());
                let db = t.iter().find(|t| t.title == "Database").unwrap();
                assert_eq!(db.rows[1][1].text, "34", "last_token");
                assert!(!db.rows[0][1].changed, "fencing did not change");
                let workers = t.iter().find(|t| t.title == "Workers").unwrap();
                let a = workers.rows.iter().find(|r| r[0].text == "A").unwrap();
                assert_eq!(a[3].text, "33");
                assert!(!a[5].changed, "clocks are not flagged: they move with time");
                flagged = Some(s.pos());
            } else if flagged == Some(s.pos() - 1) {
                assert!(!cell.changed, "one step later the refusal is old news");
            }
        }
        assert!(flagged.is_some(), "fenced-gc-pause refuses A's write");
    }

    #[test]
    fn without_a_previous_step_nothing_is_flagged() {
        let scenario = catalogue::load("consensus-fenced-failover")
            .unwrap()
            .unwrap();
        let mut s = Session::new(&scenario);
        s.seek(30);
        let t = tables(&s.inspect(), None);
        assert!(
            t.iter()
                .all(|t| t.rows.iter().flatten().all(|c| !c.changed))
        );
        let service = t.iter().find(|t| t.title == "Lock service").unwrap();
        assert!(
            service
                .rows
                .iter()
                .any(|r| r[0].text.starts_with("revision"))
        );
    }
}
