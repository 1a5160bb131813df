//! Tournament openings: a new game of English draughts may start from a 3-move ballot, an opening of the
//! standard deck (the built-in deck, checked against the reference deck) drawn at random or chosen, whose three
//! moves are played for the players; or from an 11-man ballot (two men taken off, then a first move each; 2,500
//! openings). Its number and moves are the game's `Opening` tag, so they show in the move list and go into the
//! PDN.

use std::sync::LazyLock;

use crate::engine::{Opening, builtin_openings, eleven_man_ballots};
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
    /// From an 11-man ballot drawn at random when the game starts.
    RandomEleven,
    /// From 11-man ballot `n` (0-based).
    Eleven(usize),
}

impl OpeningChoice {
    /// The next (`step` 1) or previous (`step` -1) choice, wrapping round: the standard start, a 3-move ballot
    /// drawn at random, each ballot of the deck in order, an 11-man ballot drawn at random, then each 11-man
    /// ballot in order.
    pub fn cycled(self, step: isize) -> OpeningChoice {
        let three = deck_size() as isize;
        let eleven = eleven_man_ballots().len() as isize;
        let count = three + eleven + 3;
        let now = match self {
            OpeningChoice::Standard => 0,
            OpeningChoice::RandomBallot => 1,
            OpeningChoice::Ballot(n) => n as isize + 2,
            OpeningChoice::RandomEleven => three + 2,
            OpeningChoice::Eleven(n) => three + 3 + n as isize,
        };
        match (now + step).rem_euclid(count) {
            0 => OpeningChoice::Standard,
            1 => OpeningChoice::RandomBallot,
            n if n < three + 2 => OpeningChoice::Ballot(n as usize - 2),
            n if n == three + 2 => OpeningChoice::RandomEleven,
            n => OpeningChoice::Eleven((n - three - 3) as usize),
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
            OpeningChoice::RandomEleven => "11-man ballot, drawn".into(),
            OpeningChoice::Eleven(n) => format!("11-man #{}", n + 1),
        }
    }

    /// What the choice's opening is, when the dialog's line is too short to say: an 11-man ballot's men taken
    /// off and moves.
    pub fn detail(self) -> Option<String> {
        let OpeningChoice::Eleven(n) = self else {
            return None;
        };
        let ballot = eleven_man_ballots().get(n)?;
        let [black, white] = ballot.moves();
        Some(format!(
            "{} and {} off, {black} {white}",
            ballot.black.removed, ballot.white.removed
        ))
    }

    /// The opening to play: `draw` picks a number below the size of the deck it is given when the opening is
    /// drawn at random. `None` for the standard start.
    pub fn resolved(self, draw: impl FnOnce(usize) -> usize) -> Option<OpeningChoice> {
        let eleven = eleven_man_ballots().len();
        match self {
            OpeningChoice::Standard => None,
            OpeningChoice::RandomBallot => Some(OpeningChoice::Ballot(
                draw(deck_size()) % deck_size().max(1),
            )),
            OpeningChoice::RandomEleven => {
                Some(OpeningChoice::Eleven(draw(eleven) % eleven.max(1)))
            }
            chosen => Some(chosen),
        }
    }

    /// A new game of English draughts from this opening (a ballot's moves played, the ballot named in the
    /// `Opening` tag); `None` for the standard start, a choice drawn at random (resolve it first), or a number
    /// past the deck.
    pub fn game(self) -> Option<AnyGame> {
        match self {
            OpeningChoice::Ballot(n) => ballot_game(n),
            OpeningChoice::Eleven(n) => eleven_man_game(n),
            _ => None,
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

/// A new game of English draughts from 11-man ballot `n` (0-based): the standard start without the two men
/// taken off (the game's set-up position), the two first moves played, the ballot named in the `Opening` tag.
/// `None` when there is no such ballot.
pub fn eleven_man_game(n: usize) -> Option<AnyGame> {
    let ballot = eleven_man_ballots().get(n)?;
    let mut game = AnyGame::from_fen(GameType::default(), &ballot.start_fen()).ok()?;
    for text in ballot.moves() {
        game.play_text(&text).ok()?;
    }
    game.tags_mut().set(OPENING_TAG, &ballot.name());
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
            OpeningChoice::RandomBallot.resolved(|size| size + 4),
            Some(OpeningChoice::Ballot(4))
        );
        assert_eq!(
            OpeningChoice::Ballot(9).resolved(|_| 0),
            Some(OpeningChoice::Ballot(9))
        );
        assert_eq!(OpeningChoice::Standard.resolved(|_| 0), None);
        // Past the 3-move deck come the 11-man ballots, and round to the standard start.
        let last = OpeningChoice::Ballot(deck_size() - 1);
        assert_eq!(last.cycled(1), OpeningChoice::RandomEleven);
        assert_eq!(last.cycled(2), OpeningChoice::Eleven(0));
        assert_eq!(OpeningChoice::Eleven(0).label(), "11-man #1");
        let end = OpeningChoice::Eleven(eleven_man_ballots().len() - 1);
        assert_eq!(end.cycled(1), OpeningChoice::Standard);
        assert_eq!(OpeningChoice::Standard.cycled(-1), end);
        assert_eq!(
            OpeningChoice::RandomEleven.resolved(|size| size + 7),
            Some(OpeningChoice::Eleven(7))
        );
    }

    #[test]
    fn an_eleven_man_ballot_is_a_set_up_game_with_its_two_moves() {
        let n = 136;
        let ballot = &eleven_man_ballots()[n];
        let game = OpeningChoice::Eleven(n).game().expect("a game");
        assert_eq!(game.len(), 2);
        assert_eq!(game.tags().get(OPENING_TAG), Some(ballot.name().as_str()));
        assert_eq!(game.start().to_fen(), ballot.start_fen());
        assert_eq!(
            OpeningChoice::Eleven(n).detail(),
            Some(format!(
                "{} and {} off, {} {}",
                ballot.black.removed,
                ballot.white.removed,
                ballot.moves()[0],
                ballot.moves()[1]
            ))
        );
        // Written and read back, it is the same game.
        let text = game.to_pdn();
        assert!(
            text.contains(&format!("[FEN \"{}\"]", ballot.start_fen())),
            "it starts from a set-up position: {text}"
        );
        let back = crate::game::pdn::parse_games(&text)
            .into_iter()
            .next()
            .expect("a game")
            .expect("readable");
        let (read, error) = crate::game::pdn::open_game(&back, None);
        assert_eq!(error, None);
        assert_eq!(read.position(), game.position());
        assert_eq!(read.moves(), game.moves());
        assert!(eleven_man_game(eleven_man_ballots().len()).is_none());
    }
}
