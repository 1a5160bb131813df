//! PDN FEN: positions as text, such as `B:W21-32:B1-12` or `W:W18,24,K10:B12,K22.`
//!
//! The form is the side to move (`B` or `W`), then one list per side, each introduced by its colour letter and
//! separated by colons. A list holds square numbers separated by commas; `K` in front of a number marks a king,
//! and `a-b` stands for every square from a to b. Reading accepts either list first, spaces anywhere, lower-case
//! letters, a trailing `.`, surrounding quotes, a missing or empty list (a side with no pieces), and the
//! move-clock fields `H<n>` and `F<n>` that some programs add. Writing is canonical: White's list first, squares
//! in increasing order, three or more in a row of the same kind written as a range (`21-32`), no trailing dot.
//!
//! Every position read is checked with [`check_position`]: a FEN that places more pieces than a side starts with,
//! or a man on its crowning row, is refused (see [the policy](super::checks)).

use std::fmt::{self, Write};

use thiserror::Error;

use super::checks::{PositionError, check_position};
use super::excerpt::excerpt;
use super::position::Position;
use super::ruleset::RuleSet;
use super::square::{Color, Piece, Role, Square};

/// Why a FEN string was refused. Each message names the part that is wrong, quoting at most a short excerpt of
/// it.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum FenError {
    /// Nothing but spaces.
    #[error("the position is empty")]
    Empty,
    /// The first field is not `B` or `W`.
    #[error("the side to move must be B or W, not {0:?}")]
    SideToMove(String),
    /// A field that is neither a piece list nor a clock.
    #[error("{0:?} is not a piece list: a list starts with W or B")]
    Section(String),
    /// The same colour has two lists.
    #[error("the {0} pieces are listed twice")]
    RepeatedList(Color),
    /// An entry that is not a square number or range.
    #[error("{0:?} is not a square number")]
    NotASquare(String),
    /// A number with more digits than any square number has.
    #[error("{digits:?} is too long to be a square number (squares are 1-{last})")]
    TooLong {
        /// The digits given (or their beginning).
        digits: String,
        /// The highest square number of the board.
        last: u8,
    },
    /// A square number outside the board.
    #[error("square {square} is off the board (squares are 1-{last})")]
    OffBoard {
        /// The number given.
        square: u32,
        /// The highest square number of the board.
        last: u8,
    },
    /// A range whose end comes before its start.
    #[error("the range {0}-{1} runs backwards")]
    BackwardRange(u32, u32),
    /// The same square in both lists.
    #[error("square {0} is given to both sides")]
    BothSides(u32),
    /// The same square twice in one list.
    #[error("square {square} is listed twice for {color}")]
    ListedTwice {
        /// The square.
        square: u32,
        /// Whose list.
        color: Color,
    },
    /// The pieces are read but the position is not legal.
    #[error(transparent)]
    Illegal(#[from] PositionError),
    /// A piece of a defined variant whose letter is not one of its kinds'.
    #[error("{0:?} is not a piece of this variant: no kind has that letter")]
    UnknownKind(String),
    /// A piece of a defined variant on something that is not one of its squares.
    #[error("{0:?} is not a piece on a square of this board (squares are written like c3)")]
    NotACoordinate(String),
    /// Two pieces of a defined variant on one square.
    #[error("square {0} is given twice")]
    Occupied(String),
}

/// Reads a position in PDN FEN.
pub fn parse_fen<R: RuleSet>(text: &str) -> Result<Position<R>, FenError> {
    let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    let trimmed = compact.trim_matches('"').trim_end_matches('.');
    if trimmed.is_empty() {
        return Err(FenError::Empty);
    }
    let mut fields = trimmed.split(':');
    let side = match fields.next().unwrap_or_default() {
        "B" | "b" => Color::Black,
        "W" | "w" => Color::White,
        other => return Err(FenError::SideToMove(excerpt(other))),
    };
    let mut pos = Position::<R>::empty(side);
    let mut seen = [false; 2];
    for field in fields {
        let mut chars = field.chars();
        let color = match chars.next().map(|c| c.to_ascii_uppercase()) {
            Some('W') => Color::White,
            Some('B') => Color::Black,
            Some('H' | 'F') if !chars.as_str().is_empty() && is_digits(chars.as_str()) => continue,
            _ => return Err(FenError::Section(excerpt(field))),
        };
        if std::mem::replace(&mut seen[color.index()], true) {
            return Err(FenError::RepeatedList(color));
        }
        for entry in chars.as_str().split(',').filter(|e| !e.is_empty()) {
            read_entry(&mut pos, color, entry)?;
        }
    }
    check_position(&pos)?;
    Ok(pos)
}

fn is_digits(s: &str) -> bool {
    s.bytes().all(|b| b.is_ascii_digit())
}

/// Reads one list entry (`12`, `K12`, `1-12`, `K1-3`) into `pos`.
fn read_entry<R: RuleSet>(
    pos: &mut Position<R>,
    color: Color,
    entry: &str,
) -> Result<(), FenError> {
    let (role, numbers) = match entry.strip_prefix(['K', 'k']) {
        Some(rest) => (Role::King, rest),
        None => (Role::Man, entry),
    };
    let (first, last) = match numbers.split_once('-') {
        Some((a, b)) => (square_number::<R>(a, entry)?, square_number::<R>(b, entry)?),
        None => {
            let n = square_number::<R>(numbers, entry)?;
            (n, n)
        }
    };
    if last < first {
        return Err(FenError::BackwardRange(first, last));
    }
    for number in first..=last {
        place(pos, color, role, number)?;
    }
    Ok(())
}

fn square_number<R: RuleSet>(digits: &str, entry: &str) -> Result<u32, FenError> {
    if digits.is_empty() || !is_digits(digits) {
        return Err(FenError::NotASquare(excerpt(entry)));
    }
    let last = R::GEOMETRY.squares();
    // Digits only, so the only possible failure is overflow; checked parsing reports it instead of wrapping.
    let n: u32 = digits.parse().map_err(|_| FenError::TooLong {
        digits: excerpt(digits),
        last,
    })?;
    if n == 0 || n > u32::from(last) {
        return Err(FenError::OffBoard { square: n, last });
    }
    Ok(n)
}

fn place<R: RuleSet>(
    pos: &mut Position<R>,
    color: Color,
    role: Role,
    number: u32,
) -> Result<(), FenError> {
    let g = R::GEOMETRY;
    let square = Square::from_number(number, g.squares()).ok_or(FenError::OffBoard {
        square: number,
        last: g.squares(),
    })?;
    if let Some(existing) = pos.piece_at(square) {
        return Err(if existing.color == color {
            FenError::ListedTwice {
                square: number,
                color,
            }
        } else {
            FenError::BothSides(number)
        });
    }
    pos.set_piece(square, Some(Piece::new(color, role)));
    Ok(())
}

/// Writes a position in canonical PDN FEN: `B:W21-32:B1-12`, White's list first, kings marked `K`, and three
/// or more squares in a row of the same kind of piece written as a range (`W:W18,K22-24,31-50:B1-5`), which
/// every PDN reader understands and is shorter than the squares one by one.
pub fn to_fen<R: RuleSet>(pos: &Position<R>) -> String {
    let mut out = String::new();
    out.push(pos.side_to_move().letter());
    for color in [Color::White, Color::Black] {
        out.push(':');
        out.push(color.letter());
        let squares = pos
            .pieces()
            .filter(|(_, p)| p.color == color)
            .map(|(square, piece)| (square.number(), piece.role));
        for (i, (first, last, role)) in runs(squares).into_iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            if role == Role::King {
                out.push('K');
            }
            // Writing to a String cannot fail.
            let _ = match last - first {
                0 => write!(out, "{first}"),
                1 => write!(
                    out,
                    "{first},{}{last}",
                    if role == Role::King { "K" } else { "" }
                ),
                _ => write!(out, "{first}-{last}"),
            };
        }
    }
    out
}

/// The squares (numbers in increasing order, with the kind of piece on each) as runs of consecutive numbers
/// holding the same kind of piece: first, last, kind.
fn runs(squares: impl Iterator<Item = (u32, Role)>) -> Vec<(u32, u32, Role)> {
    let mut runs: Vec<(u32, u32, Role)> = Vec::new();
    for (number, role) in squares {
        match runs.last_mut() {
            Some((_, last, kind)) if *kind == role && *last + 1 == number => *last = number,
            _ => runs.push((number, number, role)),
        }
    }
    runs
}

/// A position is debugged as its FEN, which says all of it in one line.
impl<R: RuleSet> fmt::Debug for Position<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", to_fen(self))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::English;

    fn parse(text: &str) -> Result<Position<English>, FenError> {
        parse_fen::<English>(text)
    }

    fn err(text: &str) -> String {
        match parse(text) {
            Ok(pos) => panic!("{text:?} was accepted as {pos:?}"),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn start_position_round_trip() {
        let start: Position = Position::start();
        let fen = to_fen(&start);
        assert_eq!(fen, "B:W21-32:B1-12");
        assert_eq!(parse(&fen), Ok(start));
        assert_eq!(
            parse("B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"),
            Ok(start)
        );
    }

    #[test]
    fn runs_of_three_or_more_of_a_kind_are_written_as_ranges() {
        for (given, written) in [
            // Two in a row gain nothing from a range; three do.
            ("W:W21,22,24,25,26:B1,2", "W:W21,22,24-26:B1,2"),
            // Men and kings are runs of their own.
            ("B:W30,31,K32:BK1,K2,K3,4,5,6", "B:W30,31,K32:BK1-3,4-6"),
            ("B:W29,K30,K31:B9,11,13", "B:W29,K30,K31:B9,11,13"),
            ("W:WK20-23:B", "W:WK20-23:B"),
            ("W:W:B", "W:W:B"),
        ] {
            let pos = parse(given).expect(given);
            assert_eq!(to_fen(&pos), written, "{given}");
            assert_eq!(parse(written), Ok(pos), "{written} reads back");
        }
        let international = crate::Position::<crate::International>::start();
        assert_eq!(to_fen(&international), "W:W31-50:B1-20");
    }

    #[test]
    fn tolerant_forms() {
        let canonical = parse("B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29").expect("valid");
        for text in [
            "B:B12,16,20,K22,K25,K29:W18,24,27,28,K10,K15",
            " B : W 18, 24, 27, 28, K10, K15 : B12,16,20,K22,K25,K29 .",
            "b:w18,24,27,28,k10,k15:b12,16,20,k22,k25,k29.",
            "\"B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29\"",
            "B:W18,24,27-28,K10,K15,:B12,16,20,K22,K25,K29:H0:F12",
        ] {
            assert_eq!(parse(text), Ok(canonical), "{text}");
        }
        assert_eq!(
            to_fen(&canonical),
            "B:WK10,K15,18,24,27,28:B12,16,20,K22,K25,K29"
        );
    }

    #[test]
    fn missing_or_empty_lists_mean_no_pieces() {
        let pos = parse("W:W9").expect("valid");
        assert_eq!(pos.pieces().count(), 1);
        assert_eq!(pos.side_to_move(), Color::White);
        let pos = parse("W:W:B").expect("valid");
        assert_eq!(pos.pieces().count(), 0);
        assert_eq!(parse("B"), Ok(Position::empty(Color::Black)));
    }

    #[test]
    fn kings_ranges() {
        let pos = parse("W:WK1-3:B20").expect("valid");
        assert_eq!(pos.count(Color::White, Role::King), 3);
    }

    #[test]
    fn error_messages() {
        assert_eq!(err(""), "the position is empty");
        assert_eq!(err("  . "), "the position is empty");
        assert_eq!(
            err("X:W21:B1"),
            "the side to move must be B or W, not \"X\""
        );
        assert_eq!(err(":W21:B1"), "the side to move must be B or W, not \"\"");
        assert_eq!(
            err("B:W21:Q1"),
            "\"Q1\" is not a piece list: a list starts with W or B"
        );
        assert_eq!(
            err("B:W21:"),
            "\"\" is not a piece list: a list starts with W or B"
        );
        assert_eq!(err("B:W21:W22"), "the White pieces are listed twice");
        assert_eq!(err("B:W21,x:B1"), "\"x\" is not a square number");
        assert_eq!(err("B:W21,K:B1"), "\"K\" is not a square number");
        assert_eq!(err("B:W21,-3:B1"), "\"-3\" is not a square number");
        assert_eq!(err("B:W21,3-:B1"), "\"3-\" is not a square number");
        assert_eq!(err("B:W21,1-2-3:B1"), "\"1-2-3\" is not a square number");
        assert_eq!(
            err("B:W33:B1"),
            "square 33 is off the board (squares are 1-32)"
        );
        assert_eq!(
            err("B:W0:B1"),
            "square 0 is off the board (squares are 1-32)"
        );
        assert_eq!(
            err("B:W99999999999999999999999:B1"),
            "\"99999999999999999999999\" is too long to be a square number (squares are 1-32)"
        );
        assert_eq!(
            err("B:W4294967295:B1"),
            "square 4294967295 is off the board (squares are 1-32)"
        );
        assert_eq!(
            err("B:W4294967296:B1"),
            "\"4294967296\" is too long to be a square number (squares are 1-32)"
        );
        assert_eq!(err("B:W12-5:B1"), "the range 12-5 runs backwards");
        assert_eq!(err("B:W5:B1-12"), "square 5 is given to both sides");
        assert_eq!(err("B:W5,K5:B1"), "square 5 is listed twice for White");
        assert_eq!(
            err("B:W1:B20"),
            "the White man on 1 stands on its crowning row: make it a king or move it"
        );
        assert_eq!(
            err("W:W20:B30"),
            "the Black man on 30 stands on its crowning row: make it a king or move it"
        );
    }

    #[test]
    fn refusals_quote_only_an_excerpt_of_a_long_token() {
        let huge = "7".repeat(10_000_000);
        for text in [
            format!("B:W{huge}:B1"),
            format!("B:W1-{huge}:B1"),
            format!("B:Wx{huge}:B1"),
            format!("{huge}:W1:B2"),
            format!("B:W21:Q{huge}"),
        ] {
            let message = err(&text);
            assert!(message.len() < 120, "{}", message.len());
            assert!(message.contains('…'), "{message}");
        }
    }

    #[test]
    fn more_pieces_than_a_side_starts_with_are_refused() {
        assert_eq!(
            err("B:WK1-16:BK17-32"),
            "Black has 16 pieces; a side has at most 12"
        );
        assert_eq!(
            err("B:W21-32,K17:B1-4"),
            "White has 13 pieces; a side has at most 12"
        );
        assert!(parse("B:WK1-12:BK21-32").is_ok());
    }

    #[test]
    fn kings_may_stand_on_the_crowning_row() {
        let pos = parse("W:WK1:BK30").expect("valid");
        assert_eq!(pos.count(Color::White, Role::King), 1);
        assert_eq!(pos.count(Color::Black, Role::King), 1);
    }
}
