//! The built-in scenarios, read from the JSON web/build.rs converted them to (the same scenarios as
//! `lockstep_core::catalogue`, without a TOML parser in the page's main module).

use lockstep_core::Scenario;

include!(concat!(env!("OUT_DIR"), "/catalogue.rs"));

/// The ids of the built-in scenarios, in teaching order.
pub fn ids() -> impl Iterator<Item = &'static str> {
    BUILTIN.iter().map(|(id, _)| *id)
}

/// What to say after "there is no built-in scenario “…”": the built-ins its id is closest to, as
/// `lockstep run` says them (a misspelt link, "fenced-gc-psuse").
pub fn did_you_mean(typed: &str) -> String {
    let near = lockstep_core::catalogue::closest(typed, ids());
    lockstep_core::catalogue::did_you_mean_phrase(&near, |id| format!("“{id}”"))
        .map_or_else(String::new, |phrase| format!("; {phrase}"))
}

/// Whether a scenario's card matches the picker's filter: every word of it (split at spaces and
/// hyphens, any case) is somewhere in the card's id, title or summary. "redlock clock" finds
/// redlock-clock-jump; as one phrase it found nothing.
pub fn matches_filter(filter: &str, card: &[&str]) -> bool {
    let text = card.join(" ").to_lowercase();
    filter
        .to_lowercase()
        .split(|c: char| c.is_whitespace() || c == '-')
        .filter(|w| !w.is_empty())
        .all(|w| text.contains(w))
}

/// A built-in scenario, or None if no built-in has that id.
pub fn load(id: &str) -> Option<Scenario> {
    let (_, json) = BUILTIN.iter().find(|(i, _)| *i == id)?;
    // Written by build.rs from a scenario that parsed and validated; `tests` below read every one.
    serde_json::from_str(json).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_filter_matches_a_card_with_all_its_words_anywhere() {
        let card = [
            "redlock-clock-jump",
            "Redlock trusts clocks",
            "A GC pause and a clock jump",
        ];
        for yes in [
            "",
            "  ",
            "redlock clock",
            "clock redlock",
            "Redlock GC",
            "pause gc",
            "clock-jump",
            "REDLOCK",
        ] {
            assert!(matches_filter(yes, &card), "{yes:?}");
        }
        for no in ["etcd", "redlock etcd", "fencing"] {
            assert!(!matches_filter(no, &card), "{no:?}");
        }
    }

    #[test]
    fn every_builtin_reads_back_as_the_scenario_its_toml_parses_to() {
        let ids: Vec<_> = ids().collect();
        let core: Vec<_> = lockstep_core::catalogue::ids().collect();
        assert_eq!(ids, core, "the same scenarios in the same order");
        for id in ids {
            let from_toml = lockstep_core::catalogue::load(id).unwrap().unwrap();
            assert_eq!(load(id).as_ref(), Some(&from_toml), "{id}");
        }
        assert_eq!(load("no-such-scenario"), None);
    }
}
