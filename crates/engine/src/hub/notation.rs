//! Positions and moves as the Hub protocol writes them.
//!
//! A position is the side to move (`W` or `B`) and then one letter per square in the standard numbering: `w` and
//! `b` for men, `W` and `B` for kings, `e` for an empty square. A simple move is `from-to`; a capture is
//! `fromxto` followed by every captured square (`x` before each, in any order), so that it names the pieces taken
//! rather than the route, as in `28x19x23`.

use thiserror::Error;

use crowned_rules::{
    AnyPosition, Color, GameType, Move, MoveError, Piece, PositionError, Role, Square, Strictness,
};

/// Why a Hub position or move could not be read.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum HubNotationError {
    /// A position string of the wrong length for the board.
    #[error("a position on this board has {expected} characters (side to move and {squares} squares), not {found}", squares = .expected - 1)]
    PositionLength {
        /// Characters expected.
        expected: usize,
        /// Characters found.
        found: usize,
    },
    /// A side to move other than `W` or `B`.
    #[error("the side to move is W or B, not {0:?}")]
    Side(char),
    /// A square letter other than `w b W B e`.
    #[error("square {square}: {found:?} is not one of w, b, W, B and e")]
    SquareLetter {
        /// The square's number.
        square: u32,
        /// The letter found.
        found: char,
    },
    /// A position that breaks the rules of the board.
    #[error("{0}")]
    Position(#[from] PositionError),
    /// A move that is not legal in the position.
    #[error("{text:?} is not a legal move here: {reason}")]
    Move {
        /// The move as received.
        text: String,
        /// Why it does not fit.
        reason: MoveError,
    },
}

/// The position in Hub form.
pub fn position_text(pos: &AnyPosition) -> String {
    let squares = pos.geometry().squares();
    let mut text = String::with_capacity(usize::from(squares) + 1);
    text.push(match pos.side_to_move() {
        Color::White => 'W',
        Color::Black => 'B',
    });
    for index in 0..squares {
        text.push(match pos.piece_at(Square::from_index(index)) {
            None => 'e',
            Some(Piece {
                color: Color::White,
                role: Role::Man,
            }) => 'w',
            Some(Piece {
                color: Color::Black,
                role: Role::Man,
            }) => 'b',
            Some(Piece {
                color: Color::White,
                role: Role::King,
            }) => 'W',
            Some(Piece {
                color: Color::Black,
                role: Role::King,
            }) => 'B',
        });
    }
    text
}

/// Reads a Hub position on the board of `game_type`, and checks that it can be played.
pub fn parse_position(game_type: GameType, text: &str) -> Result<AnyPosition, HubNotationError> {
    let squares = game_type.squares() as usize;
    let found = text.chars().count();
    if found != squares + 1 {
        return Err(HubNotationError::PositionLength {
            expected: squares + 1,
            found,
        });
    }
    let mut chars = text.chars();
    let side = match chars.next() {
        Some('W') => Color::White,
        Some('B') => Color::Black,
        other => return Err(HubNotationError::Side(other.unwrap_or(' '))),
    };
    let mut pos = AnyPosition::empty(game_type, side);
    for (index, letter) in chars.enumerate() {
        let piece = match letter {
            'e' => None,
            'w' => Some(Piece::new(Color::White, Role::Man)),
            'b' => Some(Piece::new(Color::Black, Role::Man)),
            'W' => Some(Piece::new(Color::White, Role::King)),
            'B' => Some(Piece::new(Color::Black, Role::King)),
            found => {
                return Err(HubNotationError::SquareLetter {
                    square: index as u32 + 1,
                    found,
                });
            }
        };
        pos.set_piece(Square::from_index(index as u8), piece);
    }
    pos.check()?;
    Ok(pos)
}

/// A move in Hub form: `32-28`, or `28x19x23` (from, to, then the captured squares in square order).
pub fn move_text(mv: &Move) -> String {
    if !mv.is_capture() {
        return format!("{}-{}", mv.from(), mv.to());
    }
    let mut text = format!("{}x{}", mv.from(), mv.to());
    for square in mv.captured() {
        text.push('x');
        text.push_str(&square.number().to_string());
    }
    text
}

/// The legal move of `pos` that `text` names: in Hub form (from, to and the captured squares in any order), or
/// failing that in the program's own notation (`15x24x31`, `c3-d4`), so that people typing at the engine are
/// understood too.
pub fn find_move(pos: &AnyPosition, text: &str) -> Result<Move, HubNotationError> {
    let text = text.trim();
    if let Some(mv) = hub_move(pos, text) {
        return Ok(mv);
    }
    pos.parse_move(text, Strictness::Squares)
        .map_err(|reason| HubNotationError::Move {
            text: text.to_string(),
            reason,
        })
}

/// The move named in Hub form, if the text is one and one legal move fits it.
fn hub_move(pos: &AnyPosition, text: &str) -> Option<Move> {
    let capture = text.contains('x');
    let separator = if capture { 'x' } else { '-' };
    let squares = pos.geometry().squares();
    let numbers: Vec<Square> = text
        .split(separator)
        .map(|part| {
            let n: u32 = part.parse().ok()?;
            Square::from_number(n, squares)
        })
        .collect::<Option<_>>()?;
    let (&from, rest) = numbers.split_first()?;
    let (&to, taken) = rest.split_first()?;
    if !capture && !taken.is_empty() {
        return None;
    }
    let mut captured: Vec<Square> = taken.to_vec();
    captured.sort();
    let legal = pos.legal_moves();
    let mut fits = legal.iter().filter(|mv| {
        mv.from() == from
            && mv.to() == to
            && mv.is_capture() == capture
            && (taken.is_empty() || mv.captured().eq(captured.iter().copied()))
    });
    let first = *fits.next()?;
    // Routes that take the same pieces are one move; different pieces taken are a real ambiguity.
    fits.all(|other| other.same_effect(&first)).then_some(first)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crowned_rules::Variant;

    fn english() -> GameType {
        GameType::standard(Variant::English)
    }

    #[test]
    fn start_positions_read_and_write() {
        for variant in Variant::ALL {
            let game_type = GameType::standard(variant);
            let start = AnyPosition::start(game_type);
            let text = position_text(&start);
            assert_eq!(text.len(), game_type.squares() as usize + 1);
            assert_eq!(parse_position(game_type, &text), Ok(start), "{variant}");
        }
        let text = position_text(&AnyPosition::start(english()));
        assert_eq!(
            text,
            format!("B{}{}{}", "b".repeat(12), "e".repeat(8), "w".repeat(12))
        );
        let international = position_text(&AnyPosition::start(GameType::standard(
            Variant::International,
        )));
        assert_eq!(
            international,
            format!("W{}{}{}", "b".repeat(20), "e".repeat(10), "w".repeat(20))
        );
    }

    #[test]
    fn malformed_positions_are_refused_with_the_reason() {
        let g = english();
        assert!(matches!(
            parse_position(g, "B"),
            Err(HubNotationError::PositionLength {
                expected: 33,
                found: 1
            })
        ));
        let bad_side = format!("X{}", "e".repeat(32));
        assert_eq!(
            parse_position(g, &bad_side),
            Err(HubNotationError::Side('X'))
        );
        let bad_letter = format!("W{}q{}", "e".repeat(4), "e".repeat(27));
        assert_eq!(
            parse_position(g, &bad_letter),
            Err(HubNotationError::SquareLetter {
                square: 5,
                found: 'q'
            })
        );
        // Multibyte letters are counted as letters, not bytes.
        let wide = format!("W{}", "é".repeat(32));
        assert!(matches!(
            parse_position(g, &wide),
            Err(HubNotationError::SquareLetter { square: 1, .. })
        ));
        let too_many = format!("W{}", "w".repeat(32));
        assert!(matches!(
            parse_position(g, &too_many),
            Err(HubNotationError::Position(_))
        ));
    }

    #[test]
    fn moves_are_written_with_the_pieces_taken_and_read_back() {
        let g = english();
        // A double jump for White: 27x18x11 takes 23 and 15... built from a FEN for clarity.
        let pos = AnyPosition::from_fen(g, "W:W27:B23,15,K1").expect("valid");
        let moves = pos.legal_moves();
        let jump = moves
            .iter()
            .find(|m| m.capture_count() == 2)
            .expect("a double jump");
        let text = move_text(jump);
        assert_eq!(text, "27x11x15x23");
        assert_eq!(find_move(&pos, &text), Ok(*jump));
        // The captured squares may come in any order; the route form is understood too.
        assert_eq!(find_move(&pos, "27x11x23x15"), Ok(*jump));
        assert_eq!(find_move(&pos, "27x18x11"), Ok(*jump));
        let start = AnyPosition::start(g);
        let opening = find_move(&start, "11-15").expect("legal");
        assert_eq!(move_text(&opening), "11-15");
        for bad in [
            "", "11-18", "11x18", "99-100", "11-15-19", "x", "-", "11--15", "abc",
        ] {
            assert!(find_move(&start, bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn every_legal_move_of_every_variant_reads_back() {
        for variant in Variant::ALL {
            let game_type = GameType::standard(variant);
            let mut pos = AnyPosition::start(game_type);
            for ply in 0..60 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                for mv in moves.iter() {
                    let found = find_move(&pos, &move_text(mv)).expect("reads back");
                    assert!(found.same_effect(mv), "{variant}: {}", move_text(mv));
                }
                pos = pos.play(&moves[(ply * 7 + 1) % moves.len()]);
                assert_eq!(parse_position(game_type, &position_text(&pos)), Ok(pos));
            }
        }
    }
}
