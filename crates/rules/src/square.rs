//! Colours, pieces and squares in the standard numbering.

use std::fmt;

/// One of the two sides.
///
/// In English draughts Black (the dark pieces) starts on squares 1-12 at the top of the diagram and moves first;
/// White starts on 21-32 at the bottom.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub enum Color {
    /// The dark side; moves towards the higher square numbers.
    Black,
    /// The light side; moves towards the lower square numbers.
    White,
}

impl Color {
    /// The other side.
    #[inline]
    pub const fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// 0 for Black, 1 for White; used to index per-side arrays.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The PDN letter for this side: `B` or `W`.
    pub const fn letter(self) -> char {
        match self {
            Color::Black => 'B',
            Color::White => 'W',
        }
    }

    /// The colour in lower case, for sentences: "black" or "white".
    pub const fn word(self) -> &'static str {
        match self {
            Color::Black => "black",
            Color::White => "white",
        }
    }

    /// Both colours, Black first.
    pub const ALL: [Color; 2] = [Color::Black, Color::White];
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Black => "Black",
            Color::White => "White",
        })
    }
}

/// Whether a piece is a man or a king.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Role {
    /// An uncrowned piece, moving forward only.
    Man,
    /// A crowned piece, moving in all four diagonal directions.
    King,
}

/// A piece: a colour and a role.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Whose piece it is.
    pub color: Color,
    /// Man or king.
    pub role: Role,
}

impl Piece {
    /// A piece of the given colour and role.
    pub const fn new(color: Color, role: Role) -> Piece {
        Piece { color, role }
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let color = self.color.word();
        let role = match self.role {
            Role::Man => "man",
            Role::King => "king",
        };
        write!(f, "{color} {role}")
    }
}

/// A playable (dark) square, by its place in the standard numbering.
///
/// The number shown to people is [`Square::number`] (1-based); the index is 0-based. Squares are numbered row by
/// row from the top of the diagram (White at the bottom), left to right: on the 8x8 board 1-4 are b8 d8 f8 h8 and
/// 29-32 are a1 c1 e1 g1. Whether a square exists on a given board is a question for its
/// [`Geometry`](super::Geometry).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square with the given 0-based index. The caller checks it against the board's geometry.
    #[inline]
    pub const fn from_index(index: u8) -> Square {
        Square(index)
    }

    /// The square with the given 1-based number, or `None` for 0 or a number past `squares`.
    pub const fn from_number(number: u32, squares: u8) -> Option<Square> {
        if number >= 1 && number <= squares as u32 {
            Some(Square(number as u8 - 1))
        } else {
            None
        }
    }

    /// 0-based index.
    #[inline]
    pub const fn index(self) -> u8 {
        self.0
    }

    /// 1-based number, as written in notation.
    #[inline]
    pub const fn number(self) -> u32 {
        self.0 as u32 + 1
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.number())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_one_based() {
        assert_eq!(Square::from_number(1, 32), Some(Square::from_index(0)));
        assert_eq!(Square::from_number(32, 32).map(Square::number), Some(32));
        assert_eq!(Square::from_number(0, 32), None);
        assert_eq!(Square::from_number(33, 32), None);
        assert_eq!(Square::from_index(4).to_string(), "5");
    }

    #[test]
    fn colours() {
        assert_eq!(Color::Black.opponent(), Color::White);
        assert_eq!(Color::White.opponent(), Color::Black);
        assert_eq!(Color::White.letter(), 'W');
        assert_eq!(
            Piece::new(Color::White, Role::King).to_string(),
            "white king"
        );
    }
}
