//! Issue 10: the database shows its `last_token` after every access that changes it. Under
//! fencing on every access, B's read with token 34 raises it, which is why A's later access
//! with 33 is refused; the reply to that read carries the new value in its tag.

use lockstep_core::trace::{EventKind, Tag};
use lockstep_core::{catalogue, run};

/// The database's replies in `id`, as "time to label tag".
fn db_replies(id: &str) -> Vec<(String, Option<Tag>)> {
    let s = catalogue::load(id).unwrap().unwrap();
    let r = run(&s);
    let name = |n| r.trace.name(n).to_string();
    r.trace
        .events
        .iter()
        .filter(|e| e.kind == EventKind::Send && name(e.from) == "db")
        .map(|e| {
            (
                format!("{} {} {}", e.time_ms, name(e.to), e.label),
                e.tag.clone(),
            )
        })
        .collect()
}

#[test]
fn fenced_every_access_says_when_bs_read_raises_last_token() {
    let replies = db_replies("fenced-every-access");
    let raised: Vec<_> = replies
        .iter()
        .filter(|(_, tag)| matches!(tag, Some(Tag::ReadRaisedToken { .. })))
        .map(|(line, tag)| (line.as_str(), tag.clone()))
        .collect();
    // A's read sets last_token (none before) to 33, B's raises it to 34.
    assert_eq!(
        raised,
        vec![
            (
                "3 A status: unpaid",
                Some(Tag::ReadRaisedToken { last_token: 33 })
            ),
            (
                "6003 B status: unpaid",
                Some(Tag::ReadRaisedToken { last_token: 34 })
            ),
        ],
        "{replies:#?}"
    );
    // It comes before the refusal of A's 33 that it explains.
    let at = |want: &dyn Fn(&Option<Tag>) -> bool| replies.iter().position(|(_, t)| want(t));
    let read = at(&|t| t == &Some(Tag::ReadRaisedToken { last_token: 34 })).unwrap();
    let refused = at(&|t| {
        matches!(
            t,
            Some(Tag::AccessRejected {
                token: Some(33),
                last_token: Some(34),
                ..
            })
        )
    })
    .unwrap_or_else(|| panic!("A's 33 is refused: {replies:#?}"));
    assert!(read < refused, "{replies:#?}");
}

#[test]
fn fencing_writes_only_never_tags_a_read() {
    let replies = db_replies("fenced-gc-pause");
    assert!(
        !replies
            .iter()
            .any(|(_, t)| matches!(t, Some(Tag::ReadRaisedToken { .. }))),
        "{replies:#?}"
    );
}

#[test]
fn the_tag_round_trips_through_json() {
    let tag = Tag::ReadRaisedToken { last_token: 34 };
    let json = serde_json::to_string(&tag).unwrap();
    assert_eq!(json, r#"{"tag":"read-raised-token","last_token":34}"#);
    assert_eq!(serde_json::from_str::<Tag>(&json).unwrap(), tag);
}
