//! Lists of games to choose from (the saved games for `:load`, the games of a PDN file) and the replay of a game
//! from a file: stepping through it, playing it back on a timer, continuing it as a new game.

use std::time::Duration;

use super::list_view::ListView;
use crate::store::GameEntry;

/// What choosing a game from a list does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ListPurpose {
    /// The program's saved games: an unfinished one is continued, a finished one replayed.
    Load,
    /// The games of a file: the chosen one is replayed.
    Replay,
}

/// A list of games on screen, one of them selected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameList {
    /// The list's title: `Saved games`, or the file's name.
    pub title: String,
    /// The games.
    pub entries: Vec<GameEntry>,
    /// The selected entry, counted among those shown.
    pub selected: usize,
    /// What choosing does.
    pub purpose: ListPurpose,
    /// Which entries are shown, and in what order.
    pub view: ListView,
}

impl GameList {
    /// A list with its first entry selected.
    pub fn new(
        title: impl Into<String>,
        entries: Vec<GameEntry>,
        purpose: ListPurpose,
    ) -> GameList {
        GameList {
            title: title.into(),
            view: ListView::new(&entries),
            entries,
            selected: 0,
            purpose,
        }
    }

    /// Moves the selection by `step` entries, stopping at either end.
    pub fn step(&mut self, step: isize) {
        let last = self.view.shown.len().saturating_sub(1);
        self.selected = self.selected.saturating_add_signed(step).min(last);
    }

    /// The selected entry.
    pub fn chosen(&self) -> Option<&GameEntry> {
        self.entries.get(*self.view.shown.get(self.selected)?)
    }

    /// The entries shown, in order, with their place among all the entries.
    pub fn shown(&self) -> impl Iterator<Item = (usize, &GameEntry)> {
        self.view
            .shown
            .iter()
            .filter_map(|&i| Some((i, self.entries.get(i)?)))
    }

    /// The filter changed: the entries shown again, the first selected.
    pub fn filter_changed(&mut self) {
        self.view.refresh(&self.entries);
        self.selected = 0;
    }

    /// Sorts by the next column.
    pub fn next_sort(&mut self) {
        self.view.next_sort(&self.entries);
        self.selected = 0;
    }

    /// Reverses the order.
    pub fn reverse(&mut self) {
        self.view.reverse(&self.entries);
        self.selected = 0;
    }
}

/// The speeds auto-play can run at: the time each move stays on the board.
pub const AUTO_PLAY_STEPS: [Duration; 6] = [
    Duration::from_millis(250),
    Duration::from_millis(500),
    Duration::from_secs(1),
    Duration::from_secs(2),
    Duration::from_secs(4),
    Duration::from_secs(8),
];

/// A game from a file being replayed: nobody plays until it is continued as a new game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replay {
    /// Where the game came from: `tinsley.pdn, game 3`.
    pub source: String,
    /// The players' names from the record.
    pub names: [String; 2],
    /// Why the record could not be read to its end: the game stops before the bad move.
    pub error: Option<String>,
    /// Whether the moves are being played back on a timer.
    pub playing: bool,
    /// The index in [`AUTO_PLAY_STEPS`] of the time per move.
    pub speed: usize,
}

impl Replay {
    /// A replay of `entry`, paused.
    pub fn of(entry: &GameEntry) -> Replay {
        Replay {
            source: entry.source.clone(),
            names: [
                entry.tag("Black").to_string(),
                entry.tag("White").to_string(),
            ],
            error: entry.error.clone(),
            playing: false,
            speed: 2,
        }
    }

    /// The time each move stays on the board when playing back.
    pub fn interval(&self) -> Duration {
        AUTO_PLAY_STEPS[self.speed.min(AUTO_PLAY_STEPS.len() - 1)]
    }

    /// Plays back faster (`faster`) or slower, within the speeds there are.
    pub fn change_speed(&mut self, faster: bool) {
        self.speed = if faster {
            self.speed.saturating_sub(1)
        } else {
            (self.speed + 1).min(AUTO_PLAY_STEPS.len() - 1)
        };
    }
}

/// A listed game of English draughts with no moves and these tags, for tests.
#[cfg(test)]
pub(super) fn entry_with_tags(tags: &[(&str, &str)]) -> GameEntry {
    let mut game = crate::game::AnyGame::default();
    for (name, value) in tags {
        game.tags_mut().set(name, value);
    }
    GameEntry {
        game: crate::game::pdn::ListedGame::whole(game),
        players: None,
        error: None,
        source: "test".into(),
        file: None,
        clock: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(tags: &[(&str, &str)]) -> GameEntry {
        entry_with_tags(tags)
    }

    #[test]
    fn missing_tags_read_as_unknown() {
        let e = entry(&[("Black", "Tinsley"), ("White", " "), ("Result", "1-0")]);
        assert_eq!(e.tag("Black"), "Tinsley");
        assert_eq!(e.tag("White"), "?");
        assert_eq!(e.tag("Date"), "?");
        assert_eq!(e.result(), "1-0");
        assert_eq!(entry(&[]).result(), "*");
    }

    #[test]
    fn the_selection_stays_in_the_list() {
        let mut list = GameList::new(
            "t",
            vec![entry(&[]), entry(&[]), entry(&[])],
            ListPurpose::Load,
        );
        list.step(-1);
        assert_eq!(list.selected, 0);
        list.step(10);
        assert_eq!(list.selected, 2);
        list.step(-1);
        assert_eq!(list.selected, 1);
        let mut empty = GameList::new("t", Vec::new(), ListPurpose::Load);
        empty.step(1);
        assert_eq!(empty.selected, 0);
        assert!(empty.chosen().is_none());
    }

    #[test]
    fn speeds_stay_within_the_steps() {
        let mut replay = Replay::of(&entry(&[("Black", "A"), ("White", "B")]));
        assert_eq!(replay.names, ["A".to_string(), "B".to_string()]);
        assert_eq!(replay.interval(), Duration::from_secs(1));
        for _ in 0..10 {
            replay.change_speed(true);
        }
        assert_eq!(replay.interval(), Duration::from_millis(250));
        for _ in 0..10 {
            replay.change_speed(false);
        }
        assert_eq!(replay.interval(), Duration::from_secs(8));
    }
}
