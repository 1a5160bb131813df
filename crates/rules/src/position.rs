//! A position: where the pieces stand and whose turn it is.

use std::fmt;
use std::marker::PhantomData;

use super::bits::Bits;
use super::geometry::Geometry;
use super::moves::Move;
use super::ruleset::{English, RuleSet};
use super::square::{Color, Piece, Role, Square};

/// A position under the rule set `R`: the pieces on the board and the side to move.
///
/// Positions are small values (three words and a colour) and are copied rather than changed: [`Position::play`]
/// returns the position after a move. Nothing here knows the history of a game; repetitions and the 40-move rule
/// belong to the game record.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position<R: RuleSet = English> {
    /// Pieces of each colour, indexed by [`Color::index`], in the geometry's bit layout.
    pub pieces: [R::Bits; 2],
    /// Kings of either colour, in the same layout.
    pub kings: R::Bits,
    side: Color,
    rules: PhantomData<R>,
}

impl<R: RuleSet> Position<R> {
    /// The board of this rule set.
    pub const GEOMETRY: Geometry = R::GEOMETRY;

    /// An empty board with `side` to move.
    pub fn empty(side: Color) -> Self {
        Position {
            pieces: [R::Bits::ZERO; 2],
            kings: R::Bits::ZERO,
            side,
            rules: PhantomData,
        }
    }

    /// The starting position of the rule set.
    pub fn start() -> Self {
        Self::start_with_rows(R::START_ROWS)
    }

    /// The starting position with `rows` rows of men each (at most the rule set's own number; more are
    /// treated as that number, so the sides never meet).
    pub fn start_with_rows(rows: u32) -> Self {
        let g = R::GEOMETRY;
        let mut pos = Self::empty(R::FIRST_TO_MOVE);
        for row in 0..rows.min(R::START_ROWS) {
            pos.pieces[Color::Black.index()] |= R::Bits::from_u128(g.row_mask(row));
            pos.pieces[Color::White.index()] |=
                R::Bits::from_u128(g.row_mask(g.height as u32 - 1 - row));
        }
        pos
    }

    /// The side to move.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// Whether `color` has a king on the board.
    #[inline]
    pub fn has_king(&self, color: Color) -> bool {
        !(self.kings & self.pieces[color.index()]).is_empty()
    }

    /// The winner the rules name before any move is looked for: in breakthrough, the side that has crowned a
    /// king (the side that just moved, in a game; in a set-up position with kings of both sides, the side not to
    /// move, which crowned last). `None` under the other goals, and while nobody has a king.
    #[inline]
    pub fn crowned_winner(&self) -> Option<Color> {
        if R::GOAL != super::Goal::FirstKingWins || self.kings.is_empty() {
            return None;
        }
        let mover = self.side.opponent();
        [mover, self.side].into_iter().find(|&c| self.has_king(c))
    }

    /// Who wins when the side to move has no legal move: the other side, or in antidraughts itself.
    #[inline]
    pub fn winner_without_moves(&self) -> Color {
        match R::GOAL {
            super::Goal::NoMoveWins => self.side,
            _ => self.side.opponent(),
        }
    }

    /// The same pieces with another side to move.
    pub fn with_side_to_move(mut self, side: Color) -> Self {
        self.side = side;
        self
    }

    /// The piece on `square`, if any. Squares off the board hold nothing.
    pub fn piece_at(&self, square: Square) -> Option<Piece> {
        let bit = self.bit_of(square)?;
        let role = if !(self.kings & bit).is_empty() {
            Role::King
        } else {
            Role::Man
        };
        Color::ALL
            .into_iter()
            .find(|c| !(self.pieces[c.index()] & bit).is_empty())
            .map(|color| Piece::new(color, role))
    }

    /// Puts `piece` on `square` (or empties it with `None`), replacing what was there. Returns `false`, changing
    /// nothing, if the square is not on this board. No rule is checked: a man may be put on its crowning row.
    pub fn set_piece(&mut self, square: Square, piece: Option<Piece>) -> bool {
        let Some(bit) = self.bit_of(square) else {
            return false;
        };
        self.pieces[0] &= !bit;
        self.pieces[1] &= !bit;
        self.kings &= !bit;
        if let Some(p) = piece {
            self.pieces[p.color.index()] |= bit;
            if p.role == Role::King {
                self.kings |= bit;
            }
        }
        true
    }

    /// Every occupied square with its piece, in square order.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        (0..R::GEOMETRY.squares())
            .map(Square::from_index)
            .filter_map(|s| self.piece_at(s).map(|p| (s, p)))
    }

    /// How many pieces of `color` with `role` are on the board.
    pub fn count(&self, color: Color, role: Role) -> u32 {
        let own = self.pieces[color.index()];
        match role {
            Role::Man => (own & !self.kings).count_ones(),
            Role::King => (own & self.kings).count_ones(),
        }
    }

    /// The row on which a man of `color` is crowned (0 is the top of the diagram).
    pub const fn crowning_row(color: Color) -> u32 {
        match color {
            Color::Black => R::GEOMETRY.height as u32 - 1,
            Color::White => 0,
        }
    }

    /// Whether the side to move has lost: no pieces or no legal move.
    pub fn is_lost(&self) -> bool {
        self.legal_moves().is_empty()
    }

    /// The position after a move by `mover` (the side to move) given as bits of the layout: `from` and `to`
    /// (one bit each, possibly equal), the pieces taken, and whether a man is crowned. The generator passes the
    /// side as a constant, which keeps the whole position in registers.
    #[inline(always)]
    pub fn after(
        &self,
        mover: Color,
        from: R::Bits,
        to: R::Bits,
        captured: R::Bits,
        crowns: bool,
    ) -> Self {
        let us = mover.index();
        let mut next = *self;
        next.pieces[us] = (next.pieces[us] & !from) | to;
        let was_king = !(self.kings & from).is_empty();
        next.kings &= !(from | captured);
        if was_king || crowns {
            next.kings |= to;
        }
        next.pieces[1 - us] &= !captured;
        next.side = mover.opponent();
        next
    }

    /// The position after `mv`, which must be one of this position's legal moves.
    #[inline]
    pub fn play(&self, mv: &Move) -> Self {
        let g = R::GEOMETRY;
        self.after(
            self.side,
            R::Bits::bit(g.bit(mv.from())),
            R::Bits::bit(g.bit(mv.to())),
            expand(g, mv.captured_set()),
            mv.crowns(),
        )
    }

    #[inline]
    fn bit_of(&self, square: Square) -> Option<R::Bits> {
        (square.index() < R::GEOMETRY.squares()).then(|| R::Bits::bit(R::GEOMETRY.bit(square)))
    }
}

/// Converts a set of squares (bit `i` = square index `i`) to the geometry's bit layout.
#[inline(always)]
pub fn expand<B: Bits>(g: Geometry, squares: u128) -> B {
    if g.mirrored {
        // Each row's squares are laid out right to left: square by square (Italian and Spanish only).
        let mut bits = 0u128;
        let mut rest = squares;
        while rest != 0 {
            let i = rest.trailing_zeros();
            rest &= rest - 1;
            bits |= 1 << g.bit(Square::from_index(i as u8));
        }
        return B::from_u128(bits);
    }
    let group = 2 * g.per_row();
    let groups = (g.squares() as u32).div_ceil(group);
    let mut bits = 0u128;
    let mut k = 0;
    while k < groups {
        bits |= ((squares >> (k * group)) & ((1 << group) - 1)) << (k * (group + 1));
        k += 1;
    }
    B::from_u128(bits)
}

/// Converts bits in the geometry's layout to a set of squares (bit `i` = square index `i`).
#[inline(always)]
pub fn compress<B: Bits>(g: Geometry, bits: B) -> u128 {
    let bits = bits.to_u128();
    if g.mirrored {
        let mut squares = 0u128;
        let mut rest = bits;
        while rest != 0 {
            let bit = rest.trailing_zeros();
            rest &= rest - 1;
            squares |= 1 << g.square_of_bit(bit).index();
        }
        return squares;
    }
    let group = 2 * g.per_row();
    let groups = (g.squares() as u32).div_ceil(group);
    let mut squares = 0;
    let mut k = 0;
    while k < groups {
        squares |= ((bits >> (k * (group + 1))) & ((1 << group) - 1)) << (k * group);
        k += 1;
    }
    squares
}

impl<R: RuleSet> Default for Position<R> {
    fn default() -> Self {
        Self::start()
    }
}

/// A diagram with White at the bottom and coordinates on the edges: `b`/`w` for men, `B`/`W` for kings, `.` for
/// empty dark squares, blank for light squares; then the side to move.
impl<R: RuleSet> fmt::Display for Position<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let g = R::GEOMETRY;
        let files: Vec<String> = (0..g.width)
            .map(|c| char::from(b'a' + c).to_string())
            .collect();
        writeln!(f, "   {}", files.join(" "))?;
        for row in 0..g.height as u32 {
            let mut line = format!("{:>2} ", g.height as u32 - row);
            for col in 0..g.width as u32 {
                let c = match g.at(row, col).map(|s| self.piece_at(s)) {
                    None => ' ',
                    Some(None) => '.',
                    Some(Some(Piece { color, role })) => match (color, role) {
                        (Color::Black, Role::Man) => 'b',
                        (Color::Black, Role::King) => 'B',
                        (Color::White, Role::Man) => 'w',
                        (Color::White, Role::King) => 'W',
                    },
                };
                line.push(c);
                line.push(' ');
            }
            writeln!(f, "{}", line.trim_end())?;
        }
        write!(f, "{} to move", self.side)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(n: u32) -> Square {
        Square::from_number(n, 32).expect("test square")
    }

    #[test]
    fn start_position() {
        let pos: Position = Position::start();
        assert_eq!(pos.side_to_move(), Color::Black);
        for n in 1..=12 {
            assert_eq!(
                pos.piece_at(sq(n)),
                Some(Piece::new(Color::Black, Role::Man))
            );
        }
        for n in 13..=20 {
            assert_eq!(pos.piece_at(sq(n)), None);
        }
        for n in 21..=32 {
            assert_eq!(
                pos.piece_at(sq(n)),
                Some(Piece::new(Color::White, Role::Man))
            );
        }
        assert_eq!(pos.count(Color::Black, Role::Man), 12);
        assert_eq!(pos.count(Color::White, Role::King), 0);
    }

    #[test]
    fn set_piece_replaces_and_rejects_off_board() {
        let mut pos: Position = Position::empty(Color::White);
        assert!(pos.set_piece(sq(5), Some(Piece::new(Color::White, Role::King))));
        assert!(pos.set_piece(sq(5), Some(Piece::new(Color::Black, Role::Man))));
        assert_eq!(
            pos.piece_at(sq(5)),
            Some(Piece::new(Color::Black, Role::Man))
        );
        assert_eq!(pos.count(Color::White, Role::King), 0);
        assert!(!pos.set_piece(Square::from_index(32), None));
        assert_eq!(pos.piece_at(Square::from_index(40)), None);
        assert!(pos.set_piece(sq(5), None));
        assert_eq!(pos.pieces().count(), 0);
    }

    #[test]
    fn expand_and_compress_are_inverse() {
        let g = Geometry::EIGHT;
        assert_eq!(expand::<u64>(g, 0xFFFF_FFFF), g.board_mask() as u64);
        assert_eq!(compress(g, g.board_mask() as u64), 0xFFFF_FFFF);
        for i in 0..32 {
            let s = Square::from_index(i);
            assert_eq!(expand::<u64>(g, 1 << i), 1 << g.bit(s));
        }
        let g = Geometry::TWELVE;
        let all = (1u128 << 72) - 1;
        assert_eq!(expand::<u128>(g, all), g.board_mask());
        assert_eq!(compress(g, g.board_mask()), all);
        let g = Geometry::EIGHT_MIRRORED;
        for i in 0..32 {
            let s = Square::from_index(i);
            assert_eq!(expand::<u64>(g, 1 << i), 1 << g.bit(s));
            assert_eq!(compress(g, 1u64 << g.bit(s)), 1 << i);
        }
    }

    #[test]
    fn diagram() {
        let pos: Position = Position::start();
        let text = pos.to_string();
        assert!(
            text.starts_with("   a b c d e f g h\n 8   b   b   b   b\n 7 b   b   b   b\n"),
            "{text}"
        );
        assert!(text.contains("\n 1 w   w   w   w\n"), "{text}");
        assert!(text.ends_with("Black to move"));
    }
}
