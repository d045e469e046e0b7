//! The database's answers on the lease chart: the token it took or refused and its
//! `last_token`, repeats it skipped, a write taken without a token.

use lockstep_core::trace::Tag;

/// What the database answered a worker's access, with the tokens that decided it: "db took
/// token 34", "db took token 34 (read)", "write refused: token 33 < db's 34", "3 repeats
/// skipped (idempotency keys)".
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Access {
    /// The row it is labelled on (the worker's belief row).
    pub row: usize,
    pub at_ms: u64,
    pub text: String,
}

/// The idempotency keys a database answer or a write request names ("keys batch-42/1–3").
fn keys_in(label: &str) -> Option<&str> {
    let rest = &label[label.find("keys ")? + "keys ".len()..];
    Some(rest.split([' ', ',', ')']).next().unwrap_or(rest))
}

/// The label of a database's answer, if it says more than the mark beside it: the token it
/// took (on a write, or a read that raised its `last_token`) or refused and its `last_token`,
/// repeats skipped and the idempotency keys that skipped them, keys stored, a write taken
/// without a token. `label` is the answer's own label, `request` the write it answers.
pub(super) fn access_text(
    tag: &Tag,
    label: &str,
    request: Option<&str>,
    permissive_db: bool,
) -> Option<String> {
    match *tag {
        Tag::WriteAccepted {
            token,
            applied,
            noops,
        } => {
            let skipped = (noops > 0).then(|| match keys_in(label) {
                // Every payout a repeat: the database applied nothing.
                Some(keys) if applied == 0 => {
                    format!("{noops} repeats skipped: keys {keys} already used")
                }
                _ => format!("{noops} repeats skipped (idempotency keys)"),
            });
            let stored = request
                .and_then(keys_in)
                .filter(|_| noops == 0 && applied > 0)
                .map(|keys| format!("applied {applied}, keys {keys} stored"));
            match (token, skipped.or(stored)) {
                (Some(t), Some(s)) => Some(format!("db took token {t}; {s}")),
                (Some(t), None) => Some(format!("db took token {t}")),
                (None, Some(s)) => Some(s),
                (None, None) if permissive_db => Some("db took it: NO TOKEN".to_string()),
                (None, None) => None,
            }
        }
        Tag::ReadRaisedToken { last_token } => Some(format!("db took token {last_token} (read)")),
        Tag::AccessRejected {
            write,
            token,
            last_token,
        } => {
            let what = if write { "write" } else { "read" };
            Some(match (token, last_token) {
                (None, _) => format!("{what} refused: no token"),
                (Some(t), Some(l)) if t == l => format!("{what} refused: token {t} already used"),
                (Some(t), Some(l)) => format!("{what} refused: token {t} < db's {l}"),
                (Some(t), None) => format!("{what} refused: token {t}"),
            })
        }
        _ => None,
    }
}
