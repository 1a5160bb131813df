//! Why a move was refused: the errors of reading move text and of finding it in a position.

use thiserror::Error;

use crate::square::Color;

/// What is wrong with a move, either as text or in the position it was meant for.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MoveError {
    /// Nothing was typed.
    #[error("no move given")]
    Empty,
    /// A part that is neither a square number nor a coordinate.
    #[error("{0:?} is not a square")]
    NotASquare(String),
    /// A number with more digits than any square number has.
    #[error("{0:?} is too long to be a square")]
    TooLong(String),
    /// A square number or coordinate outside the board (or a light square).
    #[error("{0:?} is not a playable square on this board")]
    OffBoard(String),
    /// Only one square.
    #[error("a move needs at least two squares, like 11-15")]
    OneSquare,
    /// Both `-` and `x` in one move.
    #[error("a move is joined by - or by x, not both")]
    MixedSeparators,
    /// `11-15-19`: simple moves have two squares.
    #[error("a simple move has two squares; a capture is written with x, like 15x24x31")]
    LongSimpleMove,
    /// The side to move has nothing on the starting square.
    #[error("there is no {side} piece on {square}", side = .side.word())]
    NoPieceThere {
        /// The side to move.
        side: Color,
        /// The starting square as typed.
        square: String,
    },
    /// A capture is available, so a simple move is illegal.
    #[error("a capture is compulsory: {} must take", or_list(.takers))]
    CaptureRequired {
        /// The squares of the pieces that can capture.
        takers: Vec<String>,
    },
    /// The text names a simple move where only a capture fits.
    #[error("{text} is not a capture; did you mean {suggestion}?")]
    NotACapture {
        /// The move as typed.
        text: String,
        /// The simple move with those squares.
        suggestion: String,
    },
    /// The text names a capture where only a simple move fits.
    #[error("{text} is a capture; write it as {suggestion}")]
    IsACapture {
        /// The move as typed.
        text: String,
        /// The capture with those squares.
        suggestion: String,
    },
    /// No legal move fits.
    #[error("{text} is not a legal move{}", hint(.legal_from))]
    Illegal {
        /// The move as typed.
        text: String,
        /// The legal moves of the piece on the starting square, if it has any.
        legal_from: Vec<String>,
    },
    /// A capture the variant's precedence puts behind another (one taking more pieces, or of more value).
    #[error("{text} is not allowed: {rule} ({} instead)", or_list(.best))]
    NotTheBestCapture {
        /// The move as typed.
        text: String,
        /// The rule in words.
        rule: &'static str,
        /// The captures the rule allows, written as the player wrote theirs.
        best: Vec<String>,
    },
    /// More than one legal move fits the short form.
    #[error("{text} is ambiguous: it could be {}", or_list(.candidates))]
    Ambiguous {
        /// The move as typed.
        text: String,
        /// Every legal move that fits, written in full.
        candidates: Vec<String>,
    },
}

/// `a`, `a or b`, `a, b or c`: how refusals list the choices that were open.
pub fn or_list<T: std::fmt::Display>(items: &[T]) -> String {
    let names: Vec<String> = items.iter().map(T::to_string).collect();
    match names.as_slice() {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

fn hint(legal_from: &[String]) -> String {
    if legal_from.is_empty() {
        String::new()
    } else {
        format!(" (this piece can play {})", or_list(legal_from))
    }
}
