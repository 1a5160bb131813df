//! A game of a file as the program opens it for replay, and a game kept as its text until it is opened.

use std::sync::Arc;

use super::defined::{definition_of, replay_defined};
use super::game_type::game_type_of_or;
use super::parse::{GameText, parse_piece};
use super::replay::replay_from;
use crate::any::{AnyGame, GameVisitorMut};
use crate::record::Game;
use crowned_rules::{GameType, Rules};

/// A game of a file as the program shows it: replayed under the rules of its game type (its `GameType` tag;
/// without one `default` when given, else a guess from its moves) as far as it goes. The second value says why
/// it stops short, if it does. A game whose game type cannot be read is its record without moves, under English
/// rules, so that its tags still show what it is.
pub fn open_game(text: &GameText, default: Option<GameType>) -> (AnyGame, Option<String>) {
    // A game that carries its variant's definition is played under it, whatever else its tags say; one whose
    // game type crowned plays from a built-in definition (Turkish), under that.
    match definition_of(text) {
        Some(Ok(id)) => {
            let replayed = replay_defined(text, id);
            let error = replayed.error.map(|e| e.to_string());
            return (AnyGame::Defined(replayed.game), error);
        }
        Some(Err(e)) => {
            let mut game = AnyGame::default();
            *game.tags_mut() = text.tags.clone();
            let message = format!("the game's variant definition cannot be played: {e}");
            return (game, Some(message));
        }
        None => {}
    }
    match game_type_of_or(text, default) {
        Ok(game_type) => {
            let mut game = AnyGame::new(game_type);
            let error = game.visit_mut(Replay(text));
            (game, error)
        }
        Err(e) => {
            let mut game = AnyGame::default();
            *game.tags_mut() = text.tags.clone();
            (game, Some(e.to_string()))
        }
    }
}

/// Replays a game's text into the typed game.
struct Replay<'a>(&'a GameText);

impl GameVisitorMut for Replay<'_> {
    type Output = Option<String>;
    fn visit<R: Rules>(self, game: &mut Game<R>) -> Option<String> {
        let replayed = replay_from(self.0, *game.start());
        *game = replayed.game;
        replayed.error.as_ref().map(ToString::to_string)
    }
}

/// A game kept as the text of the file it came from, to be replayed only when it is wanted: a list of many
/// games holds their texts rather than every replayed game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSource {
    /// The piece of the file holding the game (shared by the games of one piece).
    text: Arc<str>,
    /// The line and column of the file where the piece starts.
    line: usize,
    column: usize,
    /// The file's index of the piece's first game, and of this game.
    first: usize,
    index: usize,
    /// The game type of a game without a `GameType` tag, when the user named one.
    default: Option<GameType>,
}

impl GameSource {
    /// Game `index` of a file, found in `text`, a piece of it that starts at line `line`, column `column` with
    /// game `first` (as [`parse_piece`] takes them).
    pub fn new(
        text: Arc<str>,
        line: usize,
        column: usize,
        first: usize,
        index: usize,
    ) -> GameSource {
        GameSource {
            text,
            line,
            column,
            first,
            index,
            default: None,
        }
    }

    /// The same game, read as `default` when it has no `GameType` tag.
    pub fn with_default(self, default: Option<GameType>) -> GameSource {
        GameSource { default, ..self }
    }

    /// The game, read and opened as [`open_game`] does; `None` if the text does not hold it.
    pub fn open(&self) -> Option<(AnyGame, Option<String>)> {
        let parsed = parse_piece(&self.text, self.line, self.column, self.first)
            .into_iter()
            .nth(self.index.checked_sub(self.first)?)?;
        parsed.ok().map(|text| open_game(&text, self.default))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kept_game_opens_as_it_was_listed() {
        let text: Arc<str> =
            Arc::from("[Event \"a\"]\n1. 11-15 * [Event \"b\"]\n1. 11-15 23-19 2. 8-11 22-19 *\n");
        let second = GameSource::new(text.clone(), 5, 1, 3, 4);
        let (game, error) = second.open().expect("the game is there");
        assert_eq!(game.len(), 3);
        assert_eq!(game.tags().get("Event"), Some("b"));
        assert!(error.is_some_and(|e| e.contains("22-19")));
        assert!(GameSource::new(text, 5, 1, 3, 9).open().is_none());
        let (game, error) = GameSource::new(Arc::from("[GameType \"20\"] 1. 32-28 *"), 1, 1, 1, 1)
            .open()
            .expect("there");
        assert_eq!(game.len(), 1);
        assert_eq!(game.variant(), crowned_rules::Variant::International);
        assert_eq!(error, None);
        let untagged: Arc<str> = Arc::from("1. 22-18 *");
        let (game, _) = GameSource::new(untagged.clone(), 1, 1, 1, 1)
            .open()
            .expect("there");
        assert_eq!(game.variant(), crowned_rules::Variant::English);
        let russian = GameType::standard(crowned_rules::Variant::Russian);
        let (game, _) = GameSource::new(untagged, 1, 1, 1, 1)
            .with_default(Some(russian))
            .open()
            .expect("there");
        assert_eq!(game.variant(), crowned_rules::Variant::Russian);
    }
}
