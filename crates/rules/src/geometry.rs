//! Board shapes and the bit layout the move generator works on.
//!
//! Every board in the draughts family has the same pattern: `width / 2` playable squares per row, the top row
//! starting on its second column (White at the bottom of the diagram). The generator stores a set of squares
//! as a `u64` in a *ghost-square* layout: the squares are laid out row by row, and after every second row one bit
//! is left unused. With that gap, stepping to a diagonal neighbour is always the same shift for every square:
//! `+c` is down-left, `+c+1` down-right, `-c` up-right and `-c-1` up-left, where `c` is the number of squares per
//! row. A step that would leave the board lands either on a ghost bit or outside the board mask, so masking
//! with the empty squares removes it; no per-direction edge masks are needed. For 8x8 the layout uses 35 bits,
//! for 10x10 54 bits; a 12x12 board (77 bits) and a 14x14 board (104 bits) need a `u128` (see
//! [`Bits`](super::Bits)). Masks are computed as `u128` at compile time and narrowed to the rule set's word.

use super::square::Square;

/// The shape of a board: how many columns and rows it has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Geometry {
    /// Number of columns (files), 8 for English draughts.
    pub width: u8,
    /// Number of rows (ranks), 8 for English draughts.
    pub height: u8,
    /// Whether the board is seen in a mirror: the near left corner of each player is a light square (Italian and
    /// Spanish draughts). Squares are still numbered row by row from the top left as the players see the board,
    /// so each row's squares are laid out in the word right to left; the rules are the same in a mirror, so only
    /// names and pictures change.
    pub mirrored: bool,
    /// For a defined variant's board: which cells are its squares. Its squares are numbered row by row over every
    /// playable cell, not only dark ones, and some cells may be holes. `None` for every built-in board.
    pub defined: Option<&'static DefinedShape>,
}

/// The squares of a defined variant's board, for the code that draws and names them.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct DefinedShape {
    /// For each cell (row by row, row 0 at the top), its square if it is one.
    pub squares: &'static [Option<u8>],
    /// For each square, its row and column.
    pub cells: &'static [(u8, u8)],
    /// For each cell, whether it is a hole (a square taken out of the board, drawn unlike a light square).
    pub holes: &'static [bool],
}

/// One of the four diagonal directions, as seen on the diagram with White at the bottom.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Towards the top-left corner (lower square numbers).
    UpLeft,
    /// Towards the top-right corner (lower square numbers).
    UpRight,
    /// Towards the bottom-left corner (higher square numbers).
    DownLeft,
    /// Towards the bottom-right corner (higher square numbers).
    DownRight,
}

impl Direction {
    /// All four directions.
    pub const ALL: [Direction; 4] = [
        Direction::UpLeft,
        Direction::UpRight,
        Direction::DownLeft,
        Direction::DownRight,
    ];
}

/// One of the four straight directions along files and ranks, as seen on the diagram with White at the bottom
/// (Frisian captures). On the dark squares a straight step goes to the next dark square along the line: two
/// rows up or down, or two columns left or right.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Line {
    /// Two rows towards the top (lower square numbers).
    Up,
    /// Two rows towards the bottom.
    Down,
    /// Two columns to the left.
    Left,
    /// Two columns to the right.
    Right,
}

impl Line {
    /// All four straight directions.
    pub const ALL: [Line; 4] = [Line::Up, Line::Down, Line::Left, Line::Right];
}

impl Geometry {
    /// The 8x8 board of English draughts, Russian, Brazilian, pool and others.
    pub const EIGHT: Geometry = Geometry {
        width: 8,
        height: 8,
        mirrored: false,
        defined: None,
    };

    /// The 8x8 board of Italian and Spanish draughts, with a light square in each player's near left corner.
    pub const EIGHT_MIRRORED: Geometry = Geometry {
        width: 8,
        height: 8,
        mirrored: true,
        defined: None,
    };

    /// The 10x10 board of international draughts.
    pub const TEN: Geometry = Geometry {
        width: 10,
        height: 10,
        mirrored: false,
        defined: None,
    };

    /// The 12x12 board of Canadian draughts.
    pub const TWELVE: Geometry = Geometry {
        width: 12,
        height: 12,
        mirrored: false,
        defined: None,
    };

    /// A square board of `size` by `size`.
    pub const fn square(size: u8) -> Geometry {
        Geometry {
            width: size,
            height: size,
            mirrored: false,
            defined: None,
        }
    }

    /// How many bits the ghost-square layout of this board spans.
    pub const fn layout_bits(self) -> u32 {
        if self.squares() == 0 {
            0
        } else {
            self.bit(Square::from_index(self.squares() - 1)) + 1
        }
    }

    /// Playable squares per row.
    #[inline]
    pub const fn per_row(self) -> u32 {
        self.width as u32 / 2
    }

    /// Number of playable squares (32 on 8x8).
    #[inline]
    pub const fn squares(self) -> u8 {
        if let Some(shape) = self.defined {
            return shape.cells.len() as u8;
        }
        (self.per_row() * self.height as u32) as u8
    }

    /// Where a square's index stands in the layout: the same, or on a mirrored board the same row read right
    /// to left (the mapping is its own inverse).
    #[inline(always)]
    const fn layout_index(self, index: u32) -> u32 {
        if self.mirrored {
            let c = self.per_row();
            let row = index / c;
            row * c + (c - 1 - index % c)
        } else {
            index
        }
    }

    /// The bit that stands for `square` in the ghost-square layout.
    #[inline(always)]
    pub const fn bit(self, square: Square) -> u32 {
        let i = self.layout_index(square.index() as u32);
        i + i / (2 * self.per_row())
    }

    /// The square a (non-ghost) bit stands for.
    #[inline(always)]
    pub const fn square_of_bit(self, bit: u32) -> Square {
        Square::from_index(self.layout_index(bit - bit / (2 * self.per_row() + 1)) as u8)
    }

    /// All bits that stand for playable squares.
    pub const fn board_mask(self) -> u128 {
        let mut mask = 0u128;
        let mut i = 0;
        while i < self.squares() {
            mask |= 1 << self.bit(Square::from_index(i));
            i += 1;
        }
        mask
    }

    /// The bits of one row, 0 being the top row of the diagram.
    pub const fn row_mask(self, row: u32) -> u128 {
        let mut mask = 0u128;
        let mut col = 0;
        while col < self.per_row() {
            mask |= 1 << self.bit(Square::from_index((row * self.per_row() + col) as u8));
            col += 1;
        }
        mask
    }

    /// The shift for one step in `direction`: positive moves to higher bits.
    #[inline(always)]
    pub const fn shift(self, direction: Direction) -> i32 {
        let c = self.per_row() as i32;
        // In a mirror, left and right change places.
        let direction = match (self.mirrored, direction) {
            (false, d) => d,
            (true, Direction::UpLeft) => Direction::UpRight,
            (true, Direction::UpRight) => Direction::UpLeft,
            (true, Direction::DownLeft) => Direction::DownRight,
            (true, Direction::DownRight) => Direction::DownLeft,
        };
        match direction {
            Direction::UpLeft => -c - 1,
            Direction::UpRight => -c,
            Direction::DownLeft => c,
            Direction::DownRight => c + 1,
        }
    }

    /// The shift for one straight step along `line`. Two rows apart is a whole pair of rows and its ghost bit
    /// (`2c + 1`); two columns apart is the neighbouring bit of the same row, which only [`Geometry::line_from`]
    /// keeps from running into the next row.
    #[inline(always)]
    pub const fn line_shift(self, line: Line) -> i32 {
        let pair = 2 * self.per_row() as i32 + 1;
        // In a mirror, a row's squares run right to left in the layout.
        let right = if self.mirrored { -1 } else { 1 };
        match line {
            Line::Up => -pair,
            Line::Down => pair,
            Line::Left => -right,
            Line::Right => right,
        }
    }

    /// The squares a straight step along `line` may start from without leaving the board: for a step along
    /// the rank, all but the row ends it would cross (where the next bit is the next row's first square); for a
    /// step along the file, every square (a step off the top or bottom leaves the board mask by itself).
    pub const fn line_from(self, line: Line) -> u128 {
        let mut mask = 0u128;
        let mut i = 0;
        while i < self.squares() as u32 {
            let (_, col) = self.row_col(Square::from_index(i as u8));
            let blocked = match line {
                Line::Up | Line::Down => false,
                Line::Left => col < 2,
                Line::Right => col + 2 >= self.width as u32,
            };
            if !blocked {
                mask |= 1 << self.bit(Square::from_index(i as u8));
            }
            i += 1;
        }
        mask
    }

    /// Row (0 = top of the diagram) and column (0 = left, the a-file) of a square.
    // Inline across crates: board walkers outside the rules (the reference generator, the renderer) call this
    // and `at` once a cell.
    #[inline]
    pub const fn row_col(self, square: Square) -> (u32, u32) {
        if let Some(shape) = self.defined {
            let i = square.index() as usize;
            if i >= shape.cells.len() {
                return (self.height as u32, 0);
            }
            return (shape.cells[i].0 as u32, shape.cells[i].1 as u32);
        }
        let i = square.index() as u32;
        let row = i / self.per_row();
        // Dark squares: row and column of different parity, or of the same parity on a mirrored board.
        let odd_first = row.is_multiple_of(2) != self.mirrored;
        let col = 2 * (i % self.per_row()) + if odd_first { 1 } else { 0 };
        (row, col)
    }

    /// The square at a row and column, if that is a playable square of this board.
    #[inline]
    pub const fn at(self, row: u32, col: u32) -> Option<Square> {
        if row >= self.height as u32 || col >= self.width as u32 {
            return None;
        }
        if let Some(shape) = self.defined {
            return match shape.squares[(row * self.width as u32 + col) as usize] {
                Some(index) => Some(Square::from_index(index)),
                None => None,
            };
        }
        // Playable squares are those where row and column differ in parity (agree, on a mirrored board).
        if (row + col).is_multiple_of(2) != self.mirrored {
            return None;
        }
        Some(Square::from_index((row * self.per_row() + col / 2) as u8))
    }

    /// Whether the cell at a row and column is a hole of a defined board.
    pub const fn is_hole(self, row: u32, col: u32) -> bool {
        match self.defined {
            Some(shape) if row < self.height as u32 && col < self.width as u32 => {
                shape.holes[(row * self.width as u32 + col) as usize]
            }
            _ => false,
        }
    }

    /// The coordinate name of a square, such as `c3`, with files a.. from the left and ranks 1.. from the bottom.
    pub fn coordinate(self, square: Square) -> String {
        let (row, col) = self.row_col(square);
        let file = (b'a' + col as u8) as char;
        // Saturating: a square past the board (which callers should not pass) names rank 0 rather than panicking.
        let rank = (self.height as u32).saturating_sub(row);
        format!("{file}{rank}")
    }

    /// The square named by a file letter and a rank number, if it is playable.
    pub fn from_coordinate(self, file: char, rank: u32) -> Option<Square> {
        let col = (file.to_ascii_lowercase() as u32).checked_sub('a' as u32)?;
        let row = (self.height as u32).checked_sub(rank)?;
        if rank == 0 {
            return None;
        }
        self.at(row, col)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bits::shift_bits;

    const G: Geometry = Geometry::EIGHT;

    fn sq(n: u32) -> Square {
        Square::from_number(n, 32).expect("test square")
    }

    #[test]
    fn eight_by_eight_layout() {
        assert_eq!(G.squares(), 32);
        assert_eq!(G.board_mask().count_ones(), 32);
        // Ghost bits after every second row.
        for ghost in [8, 17, 26] {
            assert_eq!(G.board_mask() & (1 << ghost), 0);
        }
        assert_eq!(G.board_mask() >> 35, 0);
        for i in 0..32 {
            let s = Square::from_index(i);
            assert_eq!(G.square_of_bit(G.bit(s)), s);
        }
    }

    #[test]
    fn standard_numbering_coordinates() {
        assert_eq!(G.coordinate(sq(1)), "b8");
        assert_eq!(G.coordinate(sq(4)), "h8");
        assert_eq!(G.coordinate(sq(5)), "a7");
        assert_eq!(G.coordinate(sq(29)), "a1");
        assert_eq!(G.coordinate(sq(32)), "g1");
        assert_eq!(G.from_coordinate('c', 3), Some(sq(22)));
        assert_eq!(G.from_coordinate('a', 1), Some(sq(29)));
        assert_eq!(G.from_coordinate('b', 1), None, "light square");
        assert_eq!(G.from_coordinate('i', 1), None);
        assert_eq!(G.from_coordinate('a', 0), None);
        assert_eq!(G.from_coordinate('a', 9), None);
        for i in 0..32 {
            let s = Square::from_index(i);
            let name = G.coordinate(s);
            let mut chars = name.chars();
            let file = chars.next().expect("file");
            let rank: u32 = chars.as_str().parse().expect("rank");
            assert_eq!(G.from_coordinate(file, rank), Some(s));
        }
    }

    /// Every diagonal step computed by shifting agrees with stepping row and column.
    #[test]
    fn shifts_match_row_and_column_steps() {
        for i in 0..G.squares() {
            let s = Square::from_index(i);
            let (row, col) = G.row_col(s);
            for (dir, dr, dc) in [
                (Direction::UpLeft, -1, -1),
                (Direction::UpRight, -1, 1),
                (Direction::DownLeft, 1, -1),
                (Direction::DownRight, 1, 1),
            ] {
                let expected = G.at((row as i32 + dr) as u32, (col as i32 + dc) as u32);
                let moved = shift_bits(1 << G.bit(s), G.shift(dir)) & G.board_mask();
                let got = (moved != 0).then(|| G.square_of_bit(moved.trailing_zeros()));
                assert_eq!(got, expected, "square {s} direction {dir:?}");
            }
        }
    }

    #[test]
    fn ten_by_ten_fits_a_word() {
        let g = Geometry::TEN;
        assert_eq!(g.squares(), 50);
        assert_eq!(g.board_mask().count_ones(), 50);
        assert!(g.bit(Square::from_index(49)) < 64);
        assert_eq!(g.coordinate(Square::from_index(0)), "b10");
    }

    #[test]
    fn mirrored_numbering_runs_left_to_right_as_seen() {
        let g = Geometry::EIGHT_MIRRORED;
        let sq = |n| Square::from_number(n, 32).expect("square");
        // Italian files: White's 21-17 and Black's 12-15 open a game; a1 is light, h1 dark.
        assert_eq!(g.coordinate(sq(1)), "a8");
        assert_eq!(g.coordinate(sq(21)), "b3");
        assert_eq!(g.coordinate(sq(17)), "a4");
        assert_eq!(g.coordinate(sq(12)), "g6");
        assert_eq!(g.coordinate(sq(15)), "f5");
        assert_eq!(g.coordinate(sq(32)), "h1");
        assert_eq!(g.from_coordinate('a', 1), None);
        assert_eq!(g.board_mask(), Geometry::EIGHT.board_mask());
    }

    #[test]
    fn the_largest_boards_fit_128_bits() {
        assert_eq!(Geometry::EIGHT.layout_bits(), 35);
        assert_eq!(Geometry::TEN.layout_bits(), 54);
        assert_eq!(Geometry::TWELVE.layout_bits(), 77);
        assert_eq!(Geometry::square(14).layout_bits(), 104);
        let boards = [6u8, 8, 10, 12, 14].map(Geometry::square);
        for g in boards.into_iter().chain([Geometry::EIGHT_MIRRORED]) {
            let size = g.width;
            assert_eq!(g.board_mask().count_ones(), u32::from(g.squares()));
            for i in 0..g.squares() {
                let s = Square::from_index(i);
                assert_eq!(g.square_of_bit(g.bit(s)), s);
                let (row, col) = g.row_col(s);
                for (dir, dr, dc) in [
                    (Direction::UpLeft, -1, -1),
                    (Direction::UpRight, -1, 1),
                    (Direction::DownLeft, 1, -1),
                    (Direction::DownRight, 1, 1),
                ] {
                    let expected = g.at((row as i32 + dr) as u32, (col as i32 + dc) as u32);
                    let moved = shift_bits(1u128 << g.bit(s), g.shift(dir)) & g.board_mask();
                    let got = (moved != 0).then(|| g.square_of_bit(moved.trailing_zeros()));
                    assert_eq!(got, expected, "{size}x{size} square {s} direction {dir:?}");
                }
            }
        }
    }
}
