//! Moves and move lists.

use serde::{Deserialize, Serialize};
use smallvec::SmallVec;
use thiserror::Error;

use super::bits::BitIter;

use super::square::Square;

/// The most landing squares a move can have. A capture takes one piece per landing, so this bounds the number
/// of pieces one move can take: a side has at most 42 pieces (English rules on 14x14 with six rows), and a
/// generator stops a route that would grow past this rather than overrun it.
pub const MAX_PATH: usize = 48;

/// How many moves a [`MoveList`] holds before it moves to the heap. Real English positions have at most a few
/// dozen moves; artificial ones with many kings and many capture routes can have more, and still work.
pub const INLINE_MOVES: usize = 64;

/// A legal move: where the piece starts, every square it lands on, and the pieces it takes.
///
/// A simple move has one landing square. A capture has one landing square per piece taken; the last one is
/// where the piece ends. Two moves are equal when they have the same start, path and captures.
///
/// It serialises as its squares by index (`from`, `path`), the captured squares as a set of index bits in
/// hexadecimal and whether it crowns; reading one back checks only that it is a move's shape (squares in
/// range, one to [`MAX_PATH`] landings): whoever takes a move from outside checks it against the rules.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "MoveOnWire", into = "MoveOnWire")]
pub struct Move {
    /// The captured squares, bit `i` standing for square index `i` (up to 98 squares on 14x14).
    captured: u128,
    from: Square,
    len: u8,
    path: [Square; MAX_PATH],
    crowns: bool,
}

impl Move {
    /// A simple (non-capturing) move.
    #[inline(always)]
    pub(crate) fn simple(from: Square, to: Square, crowns: bool) -> Move {
        let mut path = [Square::from_index(0); MAX_PATH];
        path[0] = to;
        Move {
            captured: 0,
            from,
            len: 1,
            path,
            crowns,
        }
    }

    /// A capture along `path` (each landing square in order) taking the squares in `captured`.
    #[inline(always)]
    pub(crate) fn capture(from: Square, path: &[Square], captured: u128, crowns: bool) -> Move {
        let mut full = [Square::from_index(0); MAX_PATH];
        full[..path.len()].copy_from_slice(path);
        Move {
            captured,
            from,
            len: path.len() as u8,
            path: full,
            crowns,
        }
    }

    /// The square the piece starts on.
    #[inline]
    pub fn from(&self) -> Square {
        self.from
    }

    /// The square the piece ends on (which may equal [`Move::from`] for a king's round trip).
    #[inline]
    pub fn to(&self) -> Square {
        self.path[self.len as usize - 1]
    }

    /// Every landing square, in order; the last is [`Move::to`].
    #[inline]
    pub fn path(&self) -> &[Square] {
        &self.path[..self.len as usize]
    }

    /// Whether this move takes pieces.
    #[inline]
    pub fn is_capture(&self) -> bool {
        self.captured != 0
    }

    /// Whether the moving man is crowned at the end of this move.
    #[inline]
    pub fn crowns(&self) -> bool {
        self.crowns
    }

    /// How many pieces this move takes.
    #[inline]
    pub fn capture_count(&self) -> u32 {
        self.captured.count_ones()
    }

    /// The squares of the pieces taken, in square order.
    pub fn captured(&self) -> impl Iterator<Item = Square> + '_ {
        BitIter(self.captured).map(|i| Square::from_index(i as u8))
    }

    /// The captured squares as a set, bit `i` standing for square index `i`.
    #[inline]
    pub(crate) fn captured_set(&self) -> u128 {
        self.captured
    }

    /// Whether two moves are the same for a player: same start, same end, same pieces taken (the route may
    /// differ).
    #[inline]
    pub fn same_effect(&self, other: &Move) -> bool {
        self.from == other.from && self.to() == other.to() && self.captured == other.captured
    }
}

impl std::fmt::Debug for Move {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let sep = if self.is_capture() { 'x' } else { '-' };
        write!(f, "{}", self.from)?;
        for s in self.path() {
            write!(f, "{sep}{s}")?;
        }
        Ok(())
    }
}

/// A list of moves, held on the stack unless it grows past [`INLINE_MOVES`].
pub type MoveList = SmallVec<[Move; INLINE_MOVES]>;

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(i: u8) -> Square {
        Square::from_index(i)
    }

    #[test]
    fn simple_move_accessors() {
        let m = Move::simple(sq(10), sq(14), false);
        assert_eq!(m.from(), sq(10));
        assert_eq!(m.to(), sq(14));
        assert_eq!(m.path(), &[sq(14)]);
        assert!(!m.is_capture());
        assert_eq!(m.capture_count(), 0);
        assert_eq!(format!("{m:?}"), "11-15");
    }

    #[test]
    fn capture_accessors() {
        let m = Move::capture(sq(14), &[sq(23), sq(30)], (1 << 18) | (1 << 26), true);
        assert_eq!(m.to(), sq(30));
        assert_eq!(m.capture_count(), 2);
        assert_eq!(m.captured().collect::<Vec<_>>(), vec![sq(18), sq(26)]);
        assert!(m.crowns());
        assert_eq!(format!("{m:?}"), "15x24x31");
    }

    #[test]
    fn same_effect_ignores_route() {
        let a = Move::capture(sq(0), &[sq(9), sq(18), sq(9), sq(0)], 0b1111 << 4, false);
        let b = Move::capture(sq(0), &[sq(9), sq(0), sq(9), sq(0)], 0b1111 << 4, false);
        assert!(a.same_effect(&b));
        assert_ne!(a, b);
    }
}

/// A [`Move`] as it is serialised.
#[derive(Serialize, Deserialize)]
struct MoveOnWire {
    from: u8,
    path: Vec<u8>,
    captured: String,
    crowns: bool,
}

/// Why a serialised move cannot be a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
#[error(
    "not a move: a square out of range, no landing or too many, or captures that are not a set of squares"
)]
pub struct MalformedMove;

impl From<Move> for MoveOnWire {
    fn from(mv: Move) -> MoveOnWire {
        MoveOnWire {
            from: mv.from.index(),
            path: mv.path().iter().map(|square| square.index()).collect(),
            captured: format!("{:x}", mv.captured),
            crowns: mv.crowns,
        }
    }
}

impl TryFrom<MoveOnWire> for Move {
    type Error = MalformedMove;

    fn try_from(wire: MoveOnWire) -> Result<Move, MalformedMove> {
        // Square indices stay below 128: the captured set is 128 bits.
        let in_range = |index: u8| index < 128;
        if wire.path.is_empty()
            || wire.path.len() > MAX_PATH
            || !in_range(wire.from)
            || !wire.path.iter().all(|&index| in_range(index))
        {
            return Err(MalformedMove);
        }
        let captured = u128::from_str_radix(&wire.captured, 16).map_err(|_| MalformedMove)?;
        let path: Vec<Square> = wire.path.into_iter().map(Square::from_index).collect();
        Ok(Move::capture(
            Square::from_index(wire.from),
            &path,
            captured,
            wire.crowns,
        ))
    }
}
