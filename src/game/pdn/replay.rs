//! Replaying a game's move text with the rules: from [`GameText`] to a [`Game`].

use std::fmt;

use thiserror::Error;

use super::parse::GameText;
use crate::game::outcome::{DrawReason, Outcome, WinReason};
use crate::game::record::Game;
use crate::rules::{
    Brazilian, Color, English, FenError, International, MoveText, Pool, Position, RuleSet, Russian,
    Strictness, parse_fen,
};
use crate::rules::{clipped, quoted};

/// The rule sets a PDN `GameType` can name that this program can replay.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    /// Game type 20.
    International,
    /// Game type 21.
    English,
    /// Game type 23.
    Pool,
    /// Game type 25.
    Russian,
    /// Game type 26.
    Brazilian,
}

impl Variant {
    /// The variant's name, such as "English draughts".
    pub fn name(self) -> &'static str {
        match self {
            Variant::International => International::NAME,
            Variant::English => English::NAME,
            Variant::Pool => Pool::NAME,
            Variant::Russian => Russian::NAME,
            Variant::Brazilian => Brazilian::NAME,
        }
    }

    /// The variant of a PDN game type number.
    pub fn from_game_type(number: u32) -> Option<Variant> {
        // Each rule set knows its own number: one place says it.
        [
            (English::GAME_TYPE, Variant::English),
            (International::GAME_TYPE, Variant::International),
            (Russian::GAME_TYPE, Variant::Russian),
            (Brazilian::GAME_TYPE, Variant::Brazilian),
            (Pool::GAME_TYPE, Variant::Pool),
        ]
        .into_iter()
        .find_map(|(game_type, variant)| (game_type == number).then_some(variant))
    }
}

/// Why a game's variant cannot be replayed.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum VariantError {
    /// A game type this program does not play.
    #[error("unsupported game type {0}{name}", name = named(*.0))]
    Unsupported(u32),
    /// A `GameType` tag that is not a number.
    #[error("the GameType tag {} is not a game type number", quoted(.0))]
    Unreadable(String),
}

fn named(number: u32) -> String {
    game_type_name(number)
        .map(|n| format!(" ({n})"))
        .unwrap_or_default()
}

/// The names of the PDN game types (PDN 3.0).
fn game_type_name(number: u32) -> Option<&'static str> {
    Some(match number {
        20 => "international draughts",
        21 => "English draughts",
        22 => "Italian draughts",
        23 => "American pool checkers",
        24 => "Spanish draughts",
        25 => "Russian draughts",
        26 => "Brazilian draughts",
        27 => "Canadian draughts",
        28 => "Portuguese draughts",
        29 => "Czech draughts",
        30 => "Turkish draughts",
        31 => "Thai draughts",
        _ => return None,
    })
}

/// The variant a game is played under: its `GameType` tag (`21`, or the long form `21,B,8,8,N2,0`). Files
/// often leave the tag out: then the game is English draughts, unless it names squares only a 10x10 board has
/// or replays further as international draughts (the PDN standard's default).
pub fn variant_of(game: &GameText) -> Result<Variant, VariantError> {
    match game.tags.get("GameType") {
        Some(value) => {
            let number = value.split(',').next().unwrap_or("").trim();
            let number: u32 = number
                .parse()
                .map_err(|_| VariantError::Unreadable(value.to_string()))?;
            Variant::from_game_type(number).ok_or(VariantError::Unsupported(number))
        }
        None if names_squares_past(game, 32) => Ok(Variant::International),
        None => {
            let english = replay::<English>(game);
            if english.error.is_none() {
                return Ok(Variant::English);
            }
            let international = replay::<International>(game);
            Ok(if international.game.len() > english.game.len() {
                Variant::International
            } else {
                Variant::English
            })
        }
    }
}

/// Whether the moves or the FEN of a game name a square number above `last`.
fn names_squares_past(game: &GameText, last: u32) -> bool {
    let numbers = |text: &str| {
        text.split(|c: char| !c.is_ascii_digit())
            .filter_map(|n| n.parse::<u32>().ok())
            .any(|n| n > last)
    };
    game.moves.iter().any(|m| numbers(&m.text)) || game.tags.get("FEN").is_some_and(numbers)
}

/// Why a game could not be replayed to its end.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ReplayError {
    /// The `FEN` tag does not hold a position.
    #[error("bad FEN {}: {error}", quoted(.fen))]
    Fen {
        /// The tag's value.
        fen: String,
        /// What is wrong with it.
        error: FenError,
    },
    /// A move that is not legal, or not a move, where it stands.
    #[error("move {number} {}: {reason}", clipped(.text))]
    Move {
        /// The move number as in a game record: `12` for the first mover's move, `12...` for the other's.
        number: MoveNumber,
        /// How many moves of the game came before it.
        ply: usize,
        /// The move as written.
        text: String,
        /// Why it cannot be played.
        reason: String,
        /// 1-based line of the move in the file.
        line: usize,
        /// 1-based column of the move in the file.
        column: usize,
    },
}

/// A move's number in the record: move 12 of the side that moves first, or 12... of the other.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveNumber {
    /// The number.
    pub number: usize,
    /// Whether it is the second mover's move (written `12...`).
    pub second: bool,
}

impl MoveNumber {
    /// The number of the move played after `ply` earlier moves from a start where `start` is to move, when
    /// `first` starts games of the variant.
    pub fn of_ply(ply: usize, start: Color, first: Color) -> MoveNumber {
        let half = ply + usize::from(start != first);
        MoveNumber {
            number: half / 2 + 1,
            second: half % 2 == 1,
        }
    }
}

impl fmt::Display for MoveNumber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.number, if self.second { "..." } else { "" })
    }
}

/// A replayed game: every move up to the first that could not be played, and what stopped it, if anything.
#[derive(Debug, Clone)]
pub struct Replayed<R: RuleSet> {
    /// The game as far as it could be replayed, with its tags, comments and result.
    pub game: Game<R>,
    /// Why the replay stopped early.
    pub error: Option<ReplayError>,
}

/// Replays a game's main line under the rule set `R`. Moves are identified by their squares (files often write
/// a simple move with `x`); the written kind decides only between moves with the same squares. The result token
/// becomes the game's ending when the rules have not ended it already.
pub fn replay<R: RuleSet>(text: &GameText) -> Replayed<R> {
    let start = match text.tags.get("FEN") {
        Some(fen) => match parse_fen::<R>(fen) {
            Ok(pos) => pos,
            Err(error) => {
                return Replayed {
                    game: with_record(Game::new(), text),
                    error: Some(ReplayError::Fen {
                        fen: fen.to_string(),
                        error,
                    }),
                };
            }
        },
        None => Position::start(),
    };
    let mut game = Game::from_position(start);
    game.set_comment(0, text.intro.clone());
    for (ply, token) in text.moves.iter().enumerate() {
        let found = MoveText::parse(&token.text, R::GEOMETRY)
            .and_then(|t| t.find(game.position(), Strictness::Squares));
        match found {
            Ok(mv) => {
                game.push(mv);
                game.set_comment(ply + 1, token.comment.clone());
            }
            Err(reason) => {
                let number = MoveNumber::of_ply(ply, start.side_to_move(), R::FIRST_TO_MOVE);
                return Replayed {
                    game: with_record(game, text),
                    error: Some(ReplayError::Move {
                        number,
                        ply,
                        text: token.text.clone(),
                        reason: reason.to_string(),
                        line: token.line,
                        column: token.column,
                    }),
                };
            }
        }
    }
    let mut game = with_record(game, text);
    if let Some(outcome) = text.result.as_deref().and_then(recorded_outcome::<R>) {
        // The rules may have ended the game already (no moves left, a repetition); they win over the record.
        if game.final_outcome().is_none() {
            // Declaring at the end of a game nobody has ended cannot fail.
            let _ = game.declare(outcome);
        }
    }
    Replayed { game, error: None }
}

/// Gives a new game (which has no tags yet) the record's tags, and leaves its current point at the end.
fn with_record<R: RuleSet>(mut game: Game<R>, text: &GameText) -> Game<R> {
    // Copied whole: setting them one by one would search the list for each, quadratic for many tags.
    *game.tags_mut() = text.tags.clone();
    game.go_to(game.len());
    game
}

/// The outcome a result token records, in the convention of draughts PDN: the first number is the score of the
/// side that moves first in the variant.
pub fn recorded_outcome<R: RuleSet>(result: &str) -> Option<Outcome> {
    let first = R::FIRST_TO_MOVE;
    let win = |winner| Outcome::Win {
        winner,
        reason: WinReason::Recorded,
    };
    match result {
        "1-0" | "2-0" => Some(win(first)),
        "0-1" | "0-2" => Some(win(first.opponent())),
        "1/2-1/2" | "1-1" => Some(Outcome::Draw {
            reason: DrawReason::Recorded,
        }),
        _ => None,
    }
}

/// The result token for an outcome (`*` for none): `1-0`, `0-1`, `1/2-1/2` on 8x8 boards; `2-0`, `0-2`, `1-1`
/// on larger ones, as their files write them.
pub fn result_token<R: RuleSet>(outcome: Option<Outcome>) -> &'static str {
    let large = R::GEOMETRY.width > 8;
    match outcome {
        None => "*",
        Some(Outcome::Draw { .. }) => {
            if large {
                "1-1"
            } else {
                "1/2-1/2"
            }
        }
        Some(Outcome::Win { winner, .. }) if winner == R::FIRST_TO_MOVE => {
            if large {
                "2-0"
            } else {
                "1-0"
            }
        }
        Some(Outcome::Win { .. }) => {
            if large {
                "0-2"
            } else {
                "0-1"
            }
        }
    }
}

/// The English game of a file, for the parts of the program that play English draughts.
pub fn replay_english(text: &GameText) -> Replayed<English> {
    replay::<English>(text)
}

/// Replays a game under the variant it is played under; returns the error that stopped it, if any (or the
/// reason it could not be replayed at all).
pub fn check(text: &GameText) -> Result<(), CheckError> {
    let tagged = text.tags.get("GameType").is_some();
    let (variant, error) = if tagged || names_squares_past(text, 32) {
        let variant = variant_of(text)?;
        (variant, replay_error(variant, text))
    } else {
        // The same choice as `variant_of`, without replaying a game twice.
        match replay_error(Variant::English, text) {
            None => return Ok(()),
            Some(english) => {
                let international = replay::<International>(text);
                if international.game.len() > moves_before(&english) {
                    (Variant::International, international.error)
                } else {
                    (Variant::English, Some(english))
                }
            }
        }
    };
    match error {
        None => Ok(()),
        Some(error) => {
            // A game that fails at once and names no variant was probably read under the wrong rules.
            let at_first_move = matches!(&error, ReplayError::Move { ply: 0, .. });
            Err(CheckError::Replay {
                error,
                assumed: (!tagged && at_first_move).then_some(variant),
            })
        }
    }
}

/// How many moves replayed before `error` stopped the game.
fn moves_before(error: &ReplayError) -> usize {
    match error {
        ReplayError::Fen { .. } => 0,
        ReplayError::Move { ply, .. } => *ply,
    }
}

fn replay_error(variant: Variant, text: &GameText) -> Option<ReplayError> {
    match variant {
        Variant::English => replay::<English>(text).error,
        Variant::International => replay::<International>(text).error,
        Variant::Pool => replay::<Pool>(text).error,
        Variant::Russian => replay::<Russian>(text).error,
        Variant::Brazilian => replay::<Brazilian>(text).error,
    }
}

/// Why a game did not replay.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum CheckError {
    /// Its variant cannot be replayed.
    #[error(transparent)]
    Variant(#[from] VariantError),
    /// A move or the set-up position is wrong.
    #[error("{error}{}", assumed_note(*.assumed))]
    Replay {
        /// What went wrong.
        error: ReplayError,
        /// The variant the game was read as, when the game names none and failed at once.
        assumed: Option<Variant>,
    },
}

fn assumed_note(assumed: Option<Variant>) -> String {
    match assumed {
        Some(variant) => format!(
            " (the game has no GameType tag and was read as {})",
            variant.name()
        ),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::pdn::parse_games;

    fn text(pdn: &str) -> GameText {
        parse_games(pdn).remove(0).expect("parses")
    }

    #[test]
    fn replays_moves_comments_tags_and_result() {
        let t = text("[Event \"E\"]\n{before} 1. 11-15 {old faithful} 23-19 2. 8-11 22-17 1-0");
        let r = replay_english(&t);
        assert_eq!(r.error, None);
        assert_eq!(r.game.len(), 4);
        assert_eq!(r.game.ply(), 4);
        assert_eq!(r.game.comment(0), Some("before"));
        assert_eq!(r.game.comment(1), Some("old faithful"));
        assert_eq!(r.game.tags().get("Event"), Some("E"));
        assert_eq!(
            r.game.final_outcome(),
            Some(Outcome::Win {
                winner: Color::Black,
                reason: WinReason::Recorded
            })
        );
    }

    #[test]
    fn simple_moves_written_with_x_are_read_by_their_squares() {
        let r = replay_english(&text("1. 10x15 *"));
        assert_eq!(r.error, None);
        assert_eq!(r.game.len(), 1);
    }

    #[test]
    fn stops_at_the_first_bad_move_and_keeps_what_came_before() {
        let r = replay_english(&text("1. 11-15 23-19 2. 8-11 22-19 *"));
        assert_eq!(r.game.len(), 3);
        let error = r.error.expect("an error");
        assert_eq!(
            error.to_string(),
            "move 2... 22-19: 22-19 is not a legal move (this piece can play 22-17 or 22-18)"
        );
        assert!(matches!(
            error,
            ReplayError::Move {
                line: 1,
                column: 24,
                ..
            }
        ));
    }

    #[test]
    fn set_up_positions_and_their_move_numbers() {
        let r = replay_english(&text("[FEN \"W:W18:B14,5\"]\n1... 18x9 2. 5x14 *"));
        assert_eq!(r.error, None);
        assert!(r.game.is_set_up());
        let r = replay_english(&text("[FEN \"W:W18:B14,5\"]\n1... 18x9 2. 5-9 *"));
        assert_eq!(
            r.error.map(|e| e.to_string()).as_deref(),
            Some("move 2 5-9: 5-9 is not a legal move (this piece can play 5x14)")
        );
        let r = replay_english(&text("[FEN \"W:W33:B1\"]\n*"));
        assert_eq!(
            r.error.map(|e| e.to_string()).as_deref(),
            Some("bad FEN \"W:W33:B1\": square 33 is off the board (squares are 1-32)")
        );
    }

    #[test]
    fn move_numbers() {
        use Color::*;
        assert_eq!(MoveNumber::of_ply(0, Black, Black).to_string(), "1");
        assert_eq!(MoveNumber::of_ply(1, Black, Black).to_string(), "1...");
        assert_eq!(MoveNumber::of_ply(2, Black, Black).to_string(), "2");
        assert_eq!(MoveNumber::of_ply(0, White, Black).to_string(), "1...");
        assert_eq!(MoveNumber::of_ply(1, White, Black).to_string(), "2");
    }

    #[test]
    fn variants() {
        assert_eq!(variant_of(&text("1. 11-15 *")), Ok(Variant::English));
        assert_eq!(
            variant_of(&text("1. 11-15 23-19 2. 11-16 *")),
            Ok(Variant::English)
        );
        // 32-28 is no English opening but is international draughts' most common one.
        assert_eq!(variant_of(&text("1. 32-28 *")), Ok(Variant::International));
        assert_eq!(variant_of(&text("1. 33-28 *")), Ok(Variant::International));
        assert_eq!(
            variant_of(&text("[FEN \"W:W31-50:B1-20\"] *")),
            Ok(Variant::International)
        );
        assert_eq!(
            variant_of(&text("[GameType \"21,B,8,8,N2,0\"] *")),
            Ok(Variant::English)
        );
        assert_eq!(
            variant_of(&text("[GameType \"25\"] *")),
            Ok(Variant::Russian)
        );
        assert_eq!(
            variant_of(&text("[GameType \"22\"] *")).map_err(|e| e.to_string()),
            Err("unsupported game type 22 (Italian draughts)".to_string())
        );
        assert_eq!(
            variant_of(&text("[GameType \"99\"] *")).map_err(|e| e.to_string()),
            Err("unsupported game type 99".to_string())
        );
        assert_eq!(
            variant_of(&text("[GameType \"draughts\"] *")).map_err(|e| e.to_string()),
            Err("the GameType tag \"draughts\" is not a game type number".to_string())
        );
    }

    #[test]
    fn result_tokens_both_ways() {
        for token in ["1-0", "0-1", "1/2-1/2"] {
            assert_eq!(
                result_token::<English>(recorded_outcome::<English>(token)),
                token
            );
        }
        for token in ["2-0", "0-2", "1-1"] {
            assert_eq!(
                result_token::<International>(recorded_outcome::<International>(token)),
                token
            );
        }
        assert_eq!(recorded_outcome::<English>("*"), None);
        assert_eq!(result_token::<English>(None), "*");
        // In international draughts White moves first, so 2-0 is a White win.
        assert_eq!(
            recorded_outcome::<International>("2-0").and_then(|o| o.winner()),
            Some(Color::White)
        );
    }

    #[test]
    fn international_games_replay() {
        let r = replay::<International>(&text("1. 32-28 19-23 2. 28x19 14x23 *"));
        assert_eq!(r.error, None);
        assert_eq!(r.game.len(), 4);
        assert_eq!(
            check(&text("[GameType \"20\"] 1. 32-28 19-23 2. 28x19 14x23 *")),
            Ok(())
        );
        assert_eq!(check(&text("1. 32-28 19-23 *")), Ok(()));
        assert_eq!(
            check(&text("1. 21-17 *")).map_err(|e| e.to_string()),
            Err("move 1 21-17: there is no black piece on 21 (the game has no GameType tag and was read as \
                 English draughts)"
                .to_string())
        );
    }
}
