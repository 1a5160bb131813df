//! A game as a list of games holds it: what the list shows, and the game itself or the text it is read from.

use super::GameSource;
use crate::{AnyGame, Outcome, Tags};
use crowned_rules::AnyPosition;

/// A game as a list holds it: what the list shows (its tags, start and length), and either the game or, for a
/// game of a file, the text it is replayed from when it is chosen, so that a list of many games does not hold
/// them all replayed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListedGame {
    tags: Tags,
    start: AnyPosition,
    len: usize,
    outcome: Option<Outcome>,
    held: Held,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Held {
    Game(Box<AnyGame>),
    Text(GameSource),
}

impl ListedGame {
    /// A game held whole.
    pub fn whole(game: AnyGame) -> ListedGame {
        ListedGame {
            tags: game.tags().clone(),
            start: game.start(),
            len: game.len(),
            outcome: game.outcome(),
            held: Held::Game(Box::new(game)),
        }
    }

    /// A game held as its text: `game` is what opening `source` gives, kept only for what the list shows.
    pub fn from_source(game: &AnyGame, source: GameSource) -> ListedGame {
        ListedGame {
            tags: game.tags().clone(),
            start: game.start(),
            len: game.len(),
            outcome: game.outcome(),
            held: Held::Text(source),
        }
    }

    /// The game's tags.
    pub fn tags(&self) -> &Tags {
        &self.tags
    }

    /// The position it starts from.
    pub fn start(&self) -> &AnyPosition {
        &self.start
    }

    /// How many moves it has (as far as it could be read).
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether it has no moves.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// How it has ended at its current point, if it has.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// The game itself, replayed from its text if it is held as text.
    pub fn into_game(self) -> AnyGame {
        match self.held {
            Held::Game(game) => *game,
            // The text was read when the game was listed and reads the same again; should it somehow not, the
            // record's tags are still shown.
            Held::Text(source) => source.open().map_or_else(
                || {
                    let mut game = AnyGame::from_position(self.start);
                    *game.tags_mut() = self.tags;
                    game
                },
                |(game, _)| game,
            ),
        }
    }
}
