//! Replaying a game's move text with the rules: from [`GameText`] to a [`Game`].

use thiserror::Error;

use super::parse::GameText;
use crate::numbering::MoveNumber;
use crate::outcome::{DrawReason, Outcome, WinReason};
use crate::record::Game;
use crowned_rules::{English, FenError, GamePosition, Position, RuleSet, Rules, Strictness};
use crowned_rules::{clipped, quoted};

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
    #[error("move {} {}: {reason}", .number.cited(), clipped(.text))]
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

/// A replayed game: every move up to the first that could not be played, and what stopped it, if anything.
#[derive(Debug, Clone)]
pub struct Replayed<R: Rules> {
    /// The game as far as it could be replayed, with its tags, comments and result.
    pub game: Game<R>,
    /// Why the replay stopped early.
    pub error: Option<ReplayError>,
}

/// Replays a game's main line under the rule set `R`. Moves are identified by their squares (files often write
/// a simple move with `x`); the written kind decides only between moves with the same squares. The result token
/// becomes the game's ending when the rules have not ended it already.
pub fn replay<R: RuleSet>(text: &GameText) -> Replayed<R> {
    replay_from(text, Position::start())
}

/// Replays a game's main line under any rules, built in or defined: from the position its `FEN` tag gives
/// (read under the same rules), else from `standard`, the rules' usual start.
pub(super) fn replay_from<R: Rules>(text: &GameText, standard: R::Position) -> Replayed<R> {
    let start = match text.tags.get("FEN") {
        Some(written) => match standard.read_fen(written) {
            Ok(pos) => pos,
            Err(error) => {
                return Replayed {
                    game: with_record(Game::<R>::from_position(standard), text),
                    error: Some(ReplayError::Fen {
                        fen: written.to_string(),
                        error,
                    }),
                };
            }
        },
        None => standard,
    };
    let mut game = Game::<R>::from_position(start);
    game.set_comment(0, text.intro.clone());
    for (ply, token) in text.moves.iter().enumerate() {
        match game.position().parse_move(&token.text, Strictness::Squares) {
            Ok(mv) => {
                game.push(mv);
                game.set_comment(ply + 1, token.comment.clone());
                game.set_mark(ply + 1, token.mark());
            }
            Err(reason) => {
                let number =
                    MoveNumber::of_ply_from(start.side_to_move(), start.first_to_move(), ply);
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
    let first = start.first_to_move();
    if let Some(outcome) = text
        .result
        .as_deref()
        .and_then(|r| outcome_of_result(r, first))
    {
        // The rules may have ended the game already (no moves left, a repetition); they win over the record.
        if game.final_outcome().is_none() {
            // Declaring at the end of a game nobody has ended cannot fail.
            let _ = game.declare(outcome);
        }
    }
    Replayed { game, error: None }
}

/// Gives a new game (which has no tags yet) the record's tags, and leaves its current point at the end.
fn with_record<R: Rules>(mut game: Game<R>, text: &GameText) -> Game<R> {
    // Copied whole: setting them one by one would search the list for each, quadratic for many tags.
    *game.tags_mut() = text.tags.clone();
    game.go_to(game.len());
    game
}

/// The outcome a result token records, in the convention of draughts PDN: the first number is the score of the
/// side that moves first in the variant.
pub fn recorded_outcome<R: RuleSet>(result: &str) -> Option<Outcome> {
    outcome_of_result(result, R::FIRST_TO_MOVE)
}

/// [`recorded_outcome`] for rules chosen at run time, given the side that moves first.
pub(crate) fn outcome_of_result(result: &str, first: crowned_rules::Color) -> Option<Outcome> {
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

/// The result token for an outcome (`*` for none) in a game from `start`: `2-0`, `0-2`, `1-1` in the variants
/// played on 10x10 and larger boards under the FMJD's two-point scoring (international, Canadian); `1-0`, `0-1`,
/// `1/2-1/2` in the others, English rules included on every board size and every defined variant, as their
/// files write them. The first number is the score of the side that moves first under the rules.
pub fn result_token(start: &impl GamePosition, outcome: Option<Outcome>) -> &'static str {
    let large = start.geometry().width > 8
        && !matches!(
            start.variant(),
            crowned_rules::Variant::English | crowned_rules::Variant::Defined(_)
        );
    let (win, loss, draw) = if large {
        ("2-0", "0-2", "1-1")
    } else {
        ("1-0", "0-1", "1/2-1/2")
    };
    match outcome {
        None => "*",
        Some(outcome) if outcome.is_aborted() => "*",
        Some(Outcome::Draw { .. }) => draw,
        Some(Outcome::Win { winner, .. }) if winner == start.first_to_move() => win,
        Some(Outcome::Win { .. }) => loss,
    }
}

/// The English game of a file, for the parts of the program that play English draughts.
pub fn replay_english(text: &GameText) -> Replayed<English> {
    replay::<English>(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::marks::MoveMark;
    use crate::pdn::parse_games;
    use crowned_rules::Color;
    use crowned_rules::International;

    fn text(pdn: &str) -> GameText {
        parse_games(pdn).remove(0).expect("parses")
    }

    #[test]
    fn marks_are_read_from_symbols_and_nags_and_written_back() {
        let t = text("1. 11-15! 23-19 $2 2. 8-11 $14 $6 22-17?? {a blunder} 3. 9-13 !? *");
        let r = replay_english(&t);
        assert_eq!(r.error, None);
        let marks: Vec<_> = (0..=5).map(|ply| r.game.mark(ply)).collect();
        assert_eq!(
            marks,
            [
                None,
                Some(MoveMark::Good),
                Some(MoveMark::Mistake),
                Some(MoveMark::Dubious),
                Some(MoveMark::Blunder),
                Some(MoveMark::Interesting)
            ]
        );
        assert_eq!(r.game.comment(4), Some("a blunder"));
        let written = crate::AnyGame::English(r.game.clone()).to_pdn();
        assert!(
            written.contains("1. 11-15! 23-19? 2. 8-11?! 22-17?? {a blunder}"),
            "{written}"
        );
        let again = replay_english(&text(&written));
        for ply in 0..=5 {
            assert_eq!(again.game.mark(ply), r.game.mark(ply));
            assert_eq!(again.game.comment(ply), r.game.comment(ply));
        }
        assert_eq!(again.game.moves(), r.game.moves());
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
        assert_eq!(MoveNumber::of_ply_from(Black, Black, 0).cited(), "1");
        assert_eq!(MoveNumber::of_ply_from(Black, Black, 1).cited(), "1...");
        assert_eq!(MoveNumber::of_ply_from(Black, Black, 2).cited(), "2");
        assert_eq!(MoveNumber::of_ply_from(White, Black, 0).cited(), "1...");
        assert_eq!(MoveNumber::of_ply_from(White, Black, 1).cited(), "2");
    }

    #[test]
    fn result_tokens_both_ways() {
        for token in ["1-0", "0-1", "1/2-1/2"] {
            assert_eq!(
                result_token(
                    &Position::<English>::start(),
                    recorded_outcome::<English>(token)
                ),
                token
            );
        }
        for token in ["2-0", "0-2", "1-1"] {
            assert_eq!(
                result_token(
                    &Position::<International>::start(),
                    recorded_outcome::<International>(token)
                ),
                token
            );
        }
        // English rules keep one-point scoring on every board.
        use crowned_rules::EnglishOn;
        for token in ["1-0", "0-1", "1/2-1/2"] {
            assert_eq!(
                result_token(
                    &Position::<EnglishOn<10>>::start(),
                    recorded_outcome::<EnglishOn<10>>(token)
                ),
                token
            );
            assert_eq!(
                result_token(
                    &Position::<EnglishOn<14>>::start(),
                    recorded_outcome::<EnglishOn<14>>(token)
                ),
                token
            );
        }
        assert_eq!(recorded_outcome::<English>("*"), None);
        assert_eq!(result_token(&Position::<English>::start(), None), "*");
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
    }
}
