//! How a game ended, and why.

use std::fmt;

use super::draws::{Ending, number};
use crowned_rules::Color;

/// Why a game was won.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum WinReason {
    /// The loser has no pieces left.
    NoPieces,
    /// The loser, to move, has no legal move.
    NoMoves,
    /// The loser resigned.
    Resignation,
    /// A game record gives the result without saying why (the usual case in PDN files).
    Recorded,
    /// The loser's time ran out.
    Time,
    /// The winner crowned a king first (breakthrough).
    CrownedFirst,
    /// The winner has no pieces left (antidraughts, where that is the aim).
    GaveAllAway,
    /// The winner, to move, has no legal move (antidraughts, where that is the aim).
    Blocked,
    /// The loser left the game and did not come back in time.
    Abandoned,
    /// The loser has one man left against a king (Turkish draughts).
    LoneMan,
}

/// Why a game was drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum DrawReason {
    /// The same position, with the same side to move, stood on the board as often as the variant allows.
    Repetition {
        /// How many times it stood there (3; 4 in Italian draughts).
        times: u32,
    },
    /// Neither side captured or moved a man for the variant's number of moves each (40 in English draughts).
    MoveLimit {
        /// The number of moves by each side.
        moves: u32,
    },
    /// An ending the rules give a number of moves to win lasted that long without being won.
    Ending {
        /// The ending.
        ending: Ending,
        /// The number of moves by each side it may last.
        moves: u32,
    },
    /// The players agreed to a draw.
    Agreement,
    /// A game record gives the result without saying why.
    Recorded,
    /// An engine match stopped a game that went on too long and scored it a draw.
    Adjudicated,
    /// A player left a game between people and did not come back in time; the one who stayed called it a draw.
    Abandoned,
    /// Not a draw but no result at all: `side` did not make its first move in the time allowed for it, so the
    /// game was called off, unrated (lichess and lidraughts abort such games). Written `*`.
    Aborted {
        /// The side that did not move.
        side: Color,
    },
}

/// The end of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Outcome {
    /// One side won.
    Win {
        /// The winner.
        winner: Color,
        /// Why.
        reason: WinReason,
    },
    /// Nobody won.
    Draw {
        /// Why.
        reason: DrawReason,
    },
}

impl Outcome {
    /// The winner, if any.
    pub fn winner(&self) -> Option<Color> {
        match self {
            Outcome::Win { winner, .. } => Some(*winner),
            Outcome::Draw { .. } => None,
        }
    }

    /// Whether the game was called off without a result ([`DrawReason::Aborted`]).
    pub fn is_aborted(&self) -> bool {
        matches!(
            self,
            Outcome::Draw {
                reason: DrawReason::Aborted { .. }
            }
        )
    }
}

impl fmt::Display for Outcome {
    /// A sentence for the status line, such as "White wins: Black has no legal move".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Outcome::Win { winner, reason } => {
                let loser = winner.opponent();
                match reason {
                    WinReason::NoPieces => write!(f, "{winner} wins: {loser} has no pieces left"),
                    WinReason::NoMoves => write!(f, "{winner} wins: {loser} has no legal move"),
                    WinReason::Resignation => write!(f, "{winner} wins: {loser} resigned"),
                    WinReason::Recorded => write!(f, "{winner} wins"),
                    WinReason::Time => write!(f, "{winner} wins on time"),
                    WinReason::Abandoned => write!(f, "{winner} wins: {loser} left the game"),
                    WinReason::CrownedFirst => {
                        write!(f, "{winner} wins: {winner} crowned a king first")
                    }
                    WinReason::GaveAllAway => {
                        write!(f, "{winner} wins: {winner} has no pieces left")
                    }
                    WinReason::Blocked => write!(f, "{winner} wins: {winner} has no legal move"),
                    WinReason::LoneMan => {
                        write!(f, "{winner} wins: {loser} has a lone man against a king")
                    }
                }
            }
            Outcome::Draw { reason } => match reason {
                DrawReason::Repetition { times } => write!(
                    f,
                    "Draw: the same position occurred {} times",
                    number(times)
                ),
                DrawReason::MoveLimit { moves } => write!(
                    f,
                    "Draw: {moves} moves each without a capture or a man moving"
                ),
                DrawReason::Ending { ending, moves } => {
                    write!(f, "Draw: {moves} moves each with {ending}")
                }
                DrawReason::Agreement => f.write_str("Draw by agreement"),
                DrawReason::Recorded => f.write_str("Draw"),
                DrawReason::Adjudicated => f.write_str("Draw: adjudicated after too many moves"),
                DrawReason::Abandoned => f.write_str("Draw: a player left the game"),
                DrawReason::Aborted { side } => write!(
                    f,
                    "Game aborted: {side} did not make a first move in time (no result, not rated)"
                ),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sentences() {
        let win = Outcome::Win {
            winner: Color::White,
            reason: WinReason::NoMoves,
        };
        assert_eq!(win.to_string(), "White wins: Black has no legal move");
        assert_eq!(win.winner(), Some(Color::White));
        let resigned = Outcome::Win {
            winner: Color::Black,
            reason: WinReason::Resignation,
        };
        assert_eq!(resigned.to_string(), "Black wins: White resigned");
        let pieces = Outcome::Win {
            winner: Color::Black,
            reason: WinReason::NoPieces,
        };
        assert_eq!(pieces.to_string(), "Black wins: White has no pieces left");
        let limit = Outcome::Draw {
            reason: DrawReason::MoveLimit { moves: 40 },
        };
        assert_eq!(
            limit.to_string(),
            "Draw: 40 moves each without a capture or a man moving"
        );
        assert_eq!(limit.winner(), None);
        assert_eq!(
            Outcome::Draw {
                reason: DrawReason::Repetition { times: 3 }
            }
            .to_string(),
            "Draw: the same position occurred three times"
        );
        assert_eq!(
            Outcome::Draw {
                reason: DrawReason::Repetition { times: 4 }
            }
            .to_string(),
            "Draw: the same position occurred four times"
        );
        assert_eq!(
            Outcome::Draw {
                reason: DrawReason::Ending {
                    ending: Ending::LoneKingAgainst { min: 1, max: 3 },
                    moves: 16
                }
            }
            .to_string(),
            "Draw: 16 moves each with one to three pieces, a king among them, against a lone king"
        );
    }
}
