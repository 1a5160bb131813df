//! Tournament openings: a new game of English draughts may start from a 3-move ballot, an opening of the
//! standard deck (the built-in deck, checked against the reference deck) drawn at random or chosen, whose three
//! moves are played for the players. Its number and moves are the game's `Opening` tag, so they show in the move
//! list and go into the PDN.

use std::sync::LazyLock;

use crate::engine::{Opening, builtin_openings};
use crate::game::AnyGame;
use crate::rules::GameType;

/// The deck, read once.
static DECK: LazyLock<Vec<Opening>> = LazyLock::new(builtin_openings);

/// The name of the tag that holds the opening.
pub const OPENING_TAG: &str = "Opening";

/// How a new game starts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OpeningChoice {
    /// From the standard starting position.
    #[default]
    Standard,
    /// From a 3-move ballot drawn at random when the game starts.
    RandomBallot,
    /// From ballot `n` of the deck (0-based).
    Ballot(usize),
}

impl OpeningChoice {
    /// The next (`step` 1) or previous (`step` -1) choice, wrapping round: the standard start, a ballot drawn
    /// at random, then each ballot of the deck in order.
    pub fn cycled(self, step: isize) -> OpeningChoice {
        let count = deck_size() as isize + 2;
        let now = match self {
            OpeningChoice::Standard => 0,
            OpeningChoice::RandomBallot => 1,
            OpeningChoice::Ballot(n) => n as isize + 2,
        };
        match (now + step).rem_euclid(count) {
            0 => OpeningChoice::Standard,
            1 => OpeningChoice::RandomBallot,
            n => OpeningChoice::Ballot(n as usize - 2),
        }
    }

    /// The choice as the dialog shows it.
    pub fn label(self) -> String {
        match self {
            OpeningChoice::Standard => "standard".into(),
            OpeningChoice::RandomBallot => "3-move ballot, drawn".into(),
            OpeningChoice::Ballot(n) => match DECK.get(n) {
                Some(opening) => format!("#{} {}", n + 1, opening.moves.join(" ")),
                None => "standard".into(),
            },
        }
    }

    /// The ballot to play: `draw` picks one when it is to be drawn (given the deck's size).
    pub fn ballot(self, draw: impl FnOnce(usize) -> usize) -> Option<usize> {
        match self {
            OpeningChoice::Standard => None,
            OpeningChoice::RandomBallot => Some(draw(deck_size()) % deck_size().max(1)),
            OpeningChoice::Ballot(n) => Some(n),
        }
    }
}

/// How many openings the deck holds.
pub fn deck_size() -> usize {
    DECK.len()
}

/// A new game of English draughts from ballot `n` (0-based): its three moves played, the ballot named in the
/// `Opening` tag. `None` when there is no such ballot.
pub fn ballot_game(n: usize) -> Option<AnyGame> {
    let opening = DECK.get(n)?;
    let mut game = AnyGame::new(GameType::default());
    for text in &opening.moves {
        game.play_text(text).ok()?;
    }
    let name = format!("3-move ballot {}: {}", n + 1, opening.moves.join(" "));
    game.tags_mut().set(OPENING_TAG, &name);
    Some(game)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_ballot_makes_a_game_at_its_position() {
        assert_eq!(deck_size(), 157);
        for (n, opening) in DECK.iter().enumerate() {
            let game = ballot_game(n).expect("a legal ballot");
            assert_eq!(game.len(), 3);
            assert_eq!(
                game.position(),
                crate::rules::AnyPosition::English(opening.position)
            );
            let tag = game.tags().get(OPENING_TAG).expect("named");
            assert!(
                tag.starts_with(&format!("3-move ballot {}: ", n + 1)),
                "{tag}"
            );
        }
        assert!(ballot_game(deck_size()).is_none());
    }

    #[test]
    fn the_choices_cycle_through_the_deck_both_ways() {
        let mut choice = OpeningChoice::Standard;
        choice = choice.cycled(1);
        assert_eq!(choice, OpeningChoice::RandomBallot);
        choice = choice.cycled(1);
        assert_eq!(choice, OpeningChoice::Ballot(0));
        assert_eq!(choice.label(), "#1 9-13 21-17 5-9");
        assert_eq!(
            OpeningChoice::Standard.cycled(-1),
            OpeningChoice::Ballot(deck_size() - 1)
        );
        assert_eq!(
            OpeningChoice::Ballot(deck_size() - 1).cycled(1),
            OpeningChoice::Standard
        );
        assert_eq!(OpeningChoice::RandomBallot.ballot(|size| size + 4), Some(4));
        assert_eq!(OpeningChoice::Ballot(9).ballot(|_| 0), Some(9));
        assert_eq!(OpeningChoice::Standard.ballot(|_| 0), None);
    }
}
