//! A game of a file as the program opens it for replay, and a game kept as its text until it is opened.

use std::sync::Arc;

use super::game_type::{game_type_of, title};
use super::parse::{GameText, parse_piece};
use super::replay::replay_english;
use crate::game::record::Game;
use crate::rules::GameType;

/// A game of a file as the program shows it: replayed with the English rules as far as it goes, or, for a game
/// of another variant, its record without moves (moves of another variant replayed as English would be
/// nonsense; the tags still say what it is). The second value says why it stops short, if it does.
pub fn open_english(text: &GameText) -> (Game, Option<String>) {
    let english = GameType::default();
    let game_type = game_type_of(text);
    let replayed = replay_english(text);
    let error = match &game_type {
        Ok(g) if *g == english => replayed.error.as_ref().map(ToString::to_string),
        Ok(other) => Some(format!(
            "a game of {}; crowned plays English draughts",
            title(*other)
        )),
        Err(e) => Some(e.to_string()),
    };
    let game = match game_type {
        Ok(g) if g == english => replayed.game,
        _ => {
            let mut game = Game::new();
            *game.tags_mut() = replayed.game.tags().clone();
            game
        }
    };
    (game, error)
}

/// A game kept as the text of the file it came from, to be replayed only when it is wanted: a list of many
/// games holds their texts rather than every replayed game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSource {
    /// The piece of the file holding the game (shared by the games of one piece).
    text: Arc<str>,
    /// The line of the file where the piece starts.
    line: usize,
    /// The file's index of the piece's first game, and of this game.
    first: usize,
    index: usize,
}

impl GameSource {
    /// Game `index` of a file, found in `text`, a piece of it that starts at line `line` with game `first`
    /// (as [`parse_piece`] takes them).
    pub fn new(text: Arc<str>, line: usize, first: usize, index: usize) -> GameSource {
        GameSource {
            text,
            line,
            first,
            index,
        }
    }

    /// The game, read and opened as [`open_english`] does; `None` if the text does not hold it.
    pub fn open(&self) -> Option<(Game, Option<String>)> {
        let parsed = parse_piece(&self.text, self.line, self.first)
            .into_iter()
            .nth(self.index.checked_sub(self.first)?)?;
        parsed.ok().map(|text| open_english(&text))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kept_game_opens_as_it_was_listed() {
        let text: Arc<str> =
            Arc::from("[Event \"a\"]\n1. 11-15 * [Event \"b\"]\n1. 11-15 23-19 2. 8-11 22-19 *\n");
        let second = GameSource::new(text.clone(), 5, 3, 4);
        let (game, error) = second.open().expect("the game is there");
        assert_eq!(game.len(), 3);
        assert_eq!(game.tags().get("Event"), Some("b"));
        assert!(error.is_some_and(|e| e.contains("22-19")));
        assert!(GameSource::new(text, 5, 3, 9).open().is_none());
        let (game, error) = GameSource::new(Arc::from("[GameType \"20\"] 1. 32-28 *"), 1, 1, 1)
            .open()
            .expect("there");
        assert!(game.is_empty());
        assert_eq!(game.tags().get("GameType"), Some("20"));
        assert!(error.is_some_and(|e| e.contains("International")));
    }
}
