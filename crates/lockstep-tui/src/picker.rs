//! The scenario picker: the catalogue in teaching order, filtered as the user types.

use lockstep_core::{Outcome, catalogue};

/// One built-in scenario as the picker lists it.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub id: &'static str,
    pub title: String,
    pub summary: String,
    pub expect: Outcome,
}

/// The picker's state.
#[derive(Debug, Clone, PartialEq)]
pub struct Picker {
    /// Every built-in, in the catalogue's (teaching) order.
    pub entries: Vec<Entry>,
    /// What the user has typed.
    pub filter: String,
    /// Index into [`Picker::visible`].
    pub selected: usize,
}

impl Default for Picker {
    fn default() -> Self {
        Picker::new()
    }
}

impl Picker {
    /// The picker over the built-in catalogue. Built-ins that fail to parse are left out (the
    /// catalogue's own tests keep that from happening).
    pub fn new() -> Picker {
        let entries = catalogue::ids()
            .filter_map(|id| {
                let s = catalogue::load(id)?.ok()?;
                Some(Entry {
                    id,
                    title: s.title,
                    summary: s.summary,
                    expect: s.expect,
                })
            })
            .collect();
        Picker {
            entries,
            filter: String::new(),
            selected: 0,
        }
    }

    /// Entries matching the filter: every word typed appears in the id, title, summary or
    /// expected outcome (case-insensitive).
    pub fn visible(&self) -> Vec<&Entry> {
        let words: Vec<String> = self
            .filter
            .split_whitespace()
            .map(str::to_lowercase)
            .collect();
        self.entries
            .iter()
            .filter(|e| {
                let hay = format!("{} {} {} {}", e.id, e.title, e.summary, e.expect.as_str())
                    .to_lowercase();
                words.iter().all(|w| hay.contains(w.as_str()))
            })
            .collect()
    }

    /// The entry under the cursor.
    pub fn current(&self) -> Option<&Entry> {
        self.visible().get(self.selected).copied()
    }

    pub fn type_char(&mut self, c: char) {
        self.filter.push(c);
        self.selected = 0;
    }

    pub fn backspace(&mut self) {
        self.filter.pop();
        self.selected = 0;
    }

    /// Moves the cursor by `delta` rows, staying in the list.
    pub fn move_by(&mut self, delta: isize) {
        let n = self.visible().len();
        if n == 0 {
            self.selected = 0;
            return;
        }
        self.selected = self.selected.saturating_add_signed(delta).min(n - 1);
    }

    /// Puts the cursor on the scenario with this id (clearing the filter).
    pub fn select_id(&mut self, id: &str) {
        self.filter.clear();
        self.selected = self.entries.iter().position(|e| e.id == id).unwrap_or(0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_the_catalogue_in_teaching_order() {
        let p = Picker::new();
        let ids: Vec<&str> = p.entries.iter().map(|e| e.id).collect();
        assert_eq!(ids.first(), Some(&"naive-happy-path"));
        assert!(ids.last().is_some_and(|id| id.starts_with("idempotency")));
        let pos = |id| ids.iter().position(|i| *i == id).unwrap();
        assert!(pos("naive-gc-pause") < pos("fenced-gc-pause"));
        assert!(pos("fenced-gc-pause") < pos("redlock-happy-path"));
        assert!(pos("redlock-happy-path") < pos("consensus-fenced-failover"));
        assert!(pos("consensus-fenced-failover") < pos("migration-wrong-order"));
    }

    #[test]
    fn typing_filters_and_every_word_must_match() {
        let mut p = Picker::new();
        for c in "redlock clock".chars() {
            p.type_char(c);
        }
        let ids: Vec<&str> = p.visible().iter().map(|e| e.id).collect();
        assert_eq!(ids.first(), Some(&"redlock-clock-jump"));
        assert!(!ids.contains(&"naive-gc-pause"));
        for _ in 0.."clock".len() + 1 {
            p.backspace();
        }
        // Every Redlock scenario matches "redlock" (others may too, through their summaries).
        let redlock = p
            .visible()
            .iter()
            .filter(|e| e.id.contains("redlock"))
            .count();
        assert!(redlock >= 4, "{redlock}");
    }

    #[test]
    fn the_cursor_stays_in_the_list() {
        let mut p = Picker::new();
        p.move_by(-3);
        assert_eq!(p.selected, 0);
        p.move_by(1000);
        assert_eq!(p.selected, p.entries.len() - 1);
        p.type_char('z');
        p.type_char('z');
        p.type_char('z');
        assert_eq!(p.current(), None);
        p.move_by(1);
        assert_eq!(p.selected, 0);
    }
}
