//! A worker refused by the database for its fencing token: what it learns (a stale lock, a
//! token counter that went backwards, or that it must send a token) and that it stops acting
//! as a holder there.

use super::{Worker, WorkerCtx};

impl Worker {
    /// The database refused an access for its token. The worker stops acting as a holder here,
    /// where it learns it, not at the release it sends afterwards.
    pub(super) fn fenced_off(&mut self, why: &str, consequence: &str, cx: &mut WorkerCtx<'_>) {
        let name = cx.name;
        let lease_left = self.lease_until_local.is_some_and(|u| u > cx.now_local);
        let learns = if why.contains("no fencing token") {
            format!(
                "{name} learns from the database that it must send a fencing token: the database enforces them, and {name}'s code sends none."
            )
        } else if why.contains("already used") {
            format!(
                "{name}'s token has already been used for a write: the database takes each token for one write, so {name} cannot tell whether this refusal fences off a stale lock or only its own repeated write."
            )
        } else if lease_left {
            // Refused inside its own lease: the lock may well be its own, only the token is behind.
            let token = self.token.map_or(String::new(), |t| format!(" {t}"));
            format!(
                "{name}'s lease has not run out by its own clock, yet its token{token} is not newer than one the database has seen: if the lock service granted the lock properly, the counter behind the tokens went backwards, not the lock. {name} cannot prove it is the newest holder, so it stops."
            )
        } else {
            format!(
                "{name} learns from the database, not from the lock service, that its lock was stale."
            )
        };
        let tag = self.stop_believing_tag();
        cx.fx.tagged_note(
            format!("{name} is fenced off"),
            format!("{learns} {consequence}"),
            tag,
        );
    }
}
