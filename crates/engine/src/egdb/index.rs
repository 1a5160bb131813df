//! Positions of one material signature numbered densely from 0, and back.
//!
//! A position is kept *normalised*: the side to move is always "us", moving down the board like Black (towards
//! higher square numbers, crowned on squares 29-32). A position with White to move is turned half round (square
//! `n` becomes `33 - n`, which on a 32-bit set is a bit reversal) and the colours swapped. Squares are the
//! 0-based square indices 0..32 as bits of a `u32`. The same numbering serves any ordinary board of up to 64
//! squares ([`Shape`], [`Sets`]): the other rule sets' win/draw/loss tables use it on 10x10.
//!
//! The number of a position is built from four combinations, each ranked in colex order: our men among the 28
//! squares a man of ours can stand on, their men among their 28 squares less those our men hold, our kings among
//! the empty squares, their kings among the squares still empty. Their men's count of choices depends on how many
//! of our men stand on their squares, so a table of running totals over our men's combinations keeps the
//! numbering dense: every number below [`Layout::size`] is one legal placement, and no placement is left out.

use crowned_rules::position::{compress, expand};
use crowned_rules::{Color, English, Geometry, Position};

/// Binomial coefficients `C(n, k)` for `n, k <= 64` (`C(64, 32)` still fits 64 bits).
static CHOOSE: [[u64; 65]; 65] = binomials();

const fn binomials() -> [[u64; 65]; 65] {
    let mut table = [[0u64; 65]; 65];
    let mut n = 0;
    while n <= 64 {
        table[n][0] = 1;
        let mut k = 1;
        while k <= n {
            table[n][k] = table[n - 1][k - 1] + if k < n { table[n - 1][k] } else { 0 };
            k += 1;
        }
        n += 1;
    }
    table
}

/// `C(n, k)`, 0 when `k > n`.
#[inline]
pub(crate) fn choose(n: u32, k: u32) -> u64 {
    if k > n {
        0
    } else {
        CHOOSE[n as usize][k as usize]
    }
}

/// The colex rank of a set among the sets of the same size: `sum C(s_i, i + 1)` over its members in order.
#[inline]
fn colex_rank(mut set: u64) -> u64 {
    let mut rank = 0;
    let mut i = 1;
    while set != 0 {
        rank += choose(set.trailing_zeros(), i);
        i += 1;
        set &= set - 1;
    }
    rank
}

/// The set of `k` members with colex rank `rank`.
fn colex_unrank(mut rank: u64, k: u32) -> u64 {
    let mut set = 0;
    for i in (1..=k).rev() {
        // The largest c with C(c, i) <= rank is the i-th member.
        let mut c = i - 1;
        while choose(c + 1, i) <= rank {
            c += 1;
        }
        rank -= choose(c, i);
        set |= 1 << c;
    }
    set
}

/// `set` (a subset of `within`) renumbered as positions among `within`'s members: a software `pext`.
#[inline]
fn squeeze(mut set: u64, within: u64) -> u64 {
    let mut out = 0;
    while set != 0 {
        let s = set.trailing_zeros();
        out |= 1 << (within & ((1u64 << s) - 1)).count_ones();
        set &= set - 1;
    }
    out
}

/// The inverse of [`squeeze`]: positions among `within`'s members back to squares (a software `pdep`).
#[inline]
fn spread(mut set: u64, mut within: u64) -> u64 {
    let mut out = 0;
    while set != 0 {
        let low = within & within.wrapping_neg();
        if set & 1 != 0 {
            out |= low;
        }
        set >>= 1;
        within ^= low;
    }
    out
}

/// How many pieces of each kind a normalised position has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Material {
    /// Men of the side to move.
    pub our_men: u8,
    /// Kings of the side to move.
    pub our_kings: u8,
    /// The other side's men.
    pub their_men: u8,
    /// The other side's kings.
    pub their_kings: u8,
}

impl Material {
    /// Every piece on the board.
    pub fn pieces(self) -> u32 {
        u32::from(self.our_men + self.our_kings + self.their_men + self.their_kings)
    }

    /// Men of both sides.
    pub fn men(self) -> u32 {
        u32::from(self.our_men + self.their_men)
    }

    /// The same pieces with the other side to move.
    pub fn swapped(self) -> Material {
        Material {
            our_men: self.their_men,
            our_kings: self.their_kings,
            their_men: self.our_men,
            their_kings: self.our_kings,
        }
    }

    /// A dense number for tables indexed by signature (at most 9 of each kind).
    pub fn slot(self) -> usize {
        ((usize::from(self.our_men) * 10 + usize::from(self.our_kings)) * 10
            + usize::from(self.their_men))
            * 10
            + usize::from(self.their_kings)
    }

    /// A short name: `2m1k-1m2k` is two men and a king to move against a man and two kings.
    pub fn name(self) -> String {
        format!(
            "{}m{}k-{}m{}k",
            self.our_men, self.our_kings, self.their_men, self.their_kings
        )
    }

    /// The signature named by [`Material::name`].
    pub fn from_name(name: &str) -> Option<Material> {
        let b = name.as_bytes();
        let digit = |i: usize, letter: u8| {
            (b.get(i)?.is_ascii_digit() && b.get(i + 1) == Some(&letter)).then(|| b[i] - b'0')
        };
        (b.len() == 9 && b[4] == b'-').then_some(())?;
        Some(Material {
            our_men: digit(0, b'm')?,
            our_kings: digit(2, b'k')?,
            their_men: digit(5, b'm')?,
            their_kings: digit(7, b'k')?,
        })
    }

    /// Every signature with both sides on the board and at most `pieces` pieces, in the order they are built:
    /// fewer pieces first, then fewer men (a crowning leads to one man fewer), a signature next to its swap.
    pub fn all_up_to(pieces: u32) -> Vec<Material> {
        let mut all = Vec::new();
        let n = pieces.min(9) as u8;
        for our_men in 0..=n {
            for our_kings in 0..=n - our_men {
                for their_men in 0..=n - our_men - our_kings {
                    for their_kings in 0..=n - our_men - our_kings - their_men {
                        let m = Material {
                            our_men,
                            our_kings,
                            their_men,
                            their_kings,
                        };
                        if our_men + our_kings > 0 && their_men + their_kings > 0 {
                            all.push(m);
                        }
                    }
                }
            }
        }
        all.sort_by_key(|m| (m.pieces(), m.men(), (*m).min(m.swapped()), *m));
        all
    }
}

/// A normalised position: the side to move ("us") moves like Black.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Squares {
    /// The side to move's men, as bits of the 32 squares.
    pub our_men: u32,
    /// Its kings.
    pub our_kings: u32,
    /// The other side's men.
    pub their_men: u32,
    /// The other side's kings.
    pub their_kings: u32,
}

/// 8x8 layout bits to square indices.
#[inline]
fn squares_of(bits: u64) -> u32 {
    compress(Geometry::EIGHT, bits) as u32
}

/// Square indices to 8x8 layout bits.
#[inline]
fn bits_of(squares: u32) -> u64 {
    expand(Geometry::EIGHT, u128::from(squares))
}

impl Squares {
    /// The normalised form of an English position.
    #[inline]
    pub fn of(pos: &Position<English>) -> Squares {
        let black = squares_of(pos.pieces[Color::Black.index()]);
        let white = squares_of(pos.pieces[Color::White.index()]);
        let kings = squares_of(pos.kings);
        let (us, them) = match pos.side_to_move() {
            Color::Black => (black, white),
            Color::White => (white.reverse_bits(), black.reverse_bits()),
        };
        let kings = match pos.side_to_move() {
            Color::Black => kings,
            Color::White => kings.reverse_bits(),
        };
        Squares {
            our_men: us & !kings,
            our_kings: us & kings,
            their_men: them & !kings,
            their_kings: them & kings,
        }
    }

    /// The position itself, with Black (us) to move.
    #[inline]
    pub fn position(self) -> Position<English> {
        let mut pos = Position::<English>::empty(Color::Black);
        pos.pieces[Color::Black.index()] = bits_of(self.our_men | self.our_kings);
        pos.pieces[Color::White.index()] = bits_of(self.their_men | self.their_kings);
        pos.kings = bits_of(self.our_kings | self.their_kings);
        pos
    }

    /// The same board seen by the other side, as if it were their turn.
    #[inline]
    pub fn flipped(self) -> Squares {
        Squares {
            our_men: self.their_men.reverse_bits(),
            our_kings: self.their_kings.reverse_bits(),
            their_men: self.our_men.reverse_bits(),
            their_kings: self.our_kings.reverse_bits(),
        }
    }

    /// Every occupied square.
    #[inline]
    pub fn occupied(self) -> u32 {
        self.our_men | self.our_kings | self.their_men | self.their_kings
    }

    /// The pieces of each kind.
    #[inline]
    pub fn material(self) -> Material {
        let n = |s: u32| s.count_ones() as u8;
        Material {
            our_men: n(self.our_men),
            our_kings: n(self.our_kings),
            their_men: n(self.their_men),
            their_kings: n(self.their_kings),
        }
    }
}

/// The board a numbering is made for, as the normalised side to move sees it: square indices `0..squares`, our
/// men on every square but the last row (where they are crowned), theirs on every square but the first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// Dark squares on the board (at most 64).
    squares: u32,
    /// Dark squares in a row.
    per_row: u32,
}

impl Shape {
    /// The 8x8 board of English draughts (and of the other 8x8 rule sets).
    pub const EIGHT: Shape = Shape {
        squares: 32,
        per_row: 4,
    };

    /// The board of `geometry`, when its squares fit a 64-bit set and it is an ordinary board: square `i` turned
    /// half round is square `squares - 1 - i`, and each row holds the same number of dark squares.
    pub fn of(geometry: Geometry) -> Option<Shape> {
        let squares = u32::from(geometry.squares());
        (squares <= 64 && geometry.defined.is_none() && !geometry.mirrored && squares > 0).then(
            || Shape {
                squares,
                per_row: geometry.per_row(),
            },
        )
    }

    /// How many dark squares.
    pub fn squares(self) -> u32 {
        self.squares
    }

    /// Every square.
    #[inline]
    pub fn all(self) -> u64 {
        u64::MAX >> (64 - self.squares)
    }

    /// The squares our men may stand on: all but the last row.
    #[inline]
    pub fn our_men(self) -> u64 {
        self.all() >> self.per_row
    }

    /// The squares their men may stand on: all but the first row.
    #[inline]
    pub fn their_men(self) -> u64 {
        self.all() & !((1u64 << self.per_row) - 1)
    }

    /// `set` turned half round: square `i` becomes `squares - 1 - i`.
    #[inline]
    pub fn turned(self, set: u64) -> u64 {
        set.reverse_bits() >> (64 - self.squares)
    }

    /// How many squares a man of either side may stand on.
    fn men_room(self) -> u32 {
        self.squares - self.per_row
    }
}

/// The numbering of the positions of one material signature.
#[derive(Clone, Debug)]
pub struct Layout {
    shape: Shape,
    material: Material,
    /// Before each combination of our men (in colex order), how many placements of men come before it; one
    /// more entry at the end holds the total.
    men_before: Vec<u64>,
    /// Placements of the kings for each placement of the men (the same for all: the empty squares are as many).
    kings_per_men: u64,
    /// Placements of their kings for each placement of ours.
    their_kings_per: u64,
}

impl Layout {
    /// The numbering for `material` on the 8x8 board.
    pub fn new(material: Material) -> Layout {
        Layout::on(Shape::EIGHT, material)
    }

    /// The numbering for `material` on the board `shape`.
    pub fn on(shape: Shape, material: Material) -> Layout {
        let our_men = u32::from(material.our_men);
        let their_men = u32::from(material.their_men);
        let room = shape.men_room();
        // Our men's squares are the lowest `room` squares, so their combinations in colex order are the square
        // sets themselves.
        let combinations = choose(room, our_men);
        let mut men_before = Vec::with_capacity(combinations as usize + 1);
        let mut total = 0u64;
        let mut set = (1u64 << our_men) - 1;
        for i in 0..combinations {
            men_before.push(total);
            let blocked = (set & shape.their_men()).count_ones();
            total += choose(room - blocked, their_men);
            if i + 1 < combinations {
                set = next_combination(set);
            }
        }
        men_before.push(total);
        let empty = shape.squares - our_men - their_men;
        let our_kings = u32::from(material.our_kings);
        let their_kings_per = choose(empty - our_kings, u32::from(material.their_kings));
        Layout {
            shape,
            material,
            men_before,
            kings_per_men: choose(empty, our_kings) * their_kings_per,
            their_kings_per,
        }
    }

    /// The signature numbered.
    pub fn material(&self) -> Material {
        self.material
    }

    /// How many positions there are.
    pub fn size(&self) -> u64 {
        self.men_before.last().copied().unwrap_or(0) * self.kings_per_men
    }

    /// The number of an 8x8 position, which must have this layout's material.
    #[inline]
    pub fn index(&self, sq: Squares) -> u64 {
        // The 8x8 board's masks as constants, folded into the arithmetic.
        debug_assert_eq!(self.shape, Shape::EIGHT);
        self.index_in(Shape::EIGHT, Sets::from(sq))
    }

    /// The 8x8 position numbered `index` (below [`Layout::size`]).
    pub fn squares(&self, index: u64) -> Squares {
        let s = self.sets(index);
        // An 8x8 layout's sets hold squares below 32 only.
        Squares {
            our_men: s.our_men as u32,
            our_kings: s.our_kings as u32,
            their_men: s.their_men as u32,
            their_kings: s.their_kings as u32,
        }
    }

    /// The number of a position on this layout's board, which must have this layout's material.
    #[inline]
    pub fn index_of(&self, sq: Sets) -> u64 {
        self.index_in(self.shape, sq)
    }

    /// [`Layout::index_of`] on `shape`, this layout's board.
    #[inline(always)]
    fn index_in(&self, shape: Shape, sq: Sets) -> u64 {
        debug_assert!(sq.our_men & !shape.our_men() == 0 && sq.their_men & !shape.their_men() == 0);
        let men_rank = colex_rank(sq.our_men);
        let their_room = shape.their_men() & !sq.our_men;
        let men =
            self.men_before[men_rank as usize] + colex_rank(squeeze(sq.their_men, their_room));
        let empty = shape.all() & !(sq.our_men | sq.their_men);
        let ours = colex_rank(squeeze(sq.our_kings, empty));
        let theirs = colex_rank(squeeze(sq.their_kings, empty & !sq.our_kings));
        men * self.kings_per_men + ours * self.their_kings_per + theirs
    }

    /// The position numbered `index` (below [`Layout::size`]) on this layout's board.
    pub fn sets(&self, index: u64) -> Sets {
        let m = self.material;
        let men = index / self.kings_per_men;
        let kings = index % self.kings_per_men;
        // The last combination of our men whose running total is at most `men`.
        let men_rank = self.men_before.partition_point(|&before| before <= men) - 1;
        let our_men = colex_unrank(men_rank as u64, u32::from(m.our_men));
        let their_room = self.shape.their_men() & !our_men;
        let their_men = spread(
            colex_unrank(men - self.men_before[men_rank], u32::from(m.their_men)),
            their_room,
        );
        let empty = self.shape.all() & !(our_men | their_men);
        let our_kings = spread(
            colex_unrank(kings / self.their_kings_per, u32::from(m.our_kings)),
            empty,
        );
        let their_kings = spread(
            colex_unrank(kings % self.their_kings_per, u32::from(m.their_kings)),
            empty & !our_kings,
        );
        Sets {
            our_men,
            our_kings,
            their_men,
            their_kings,
        }
    }
}

/// A normalised position on any board of up to 64 squares: the side to move ("us") moves like Black, towards
/// higher square indices; bit `i` is square index `i`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Sets {
    /// Men of the side to move.
    pub our_men: u64,
    /// Kings of the side to move.
    pub our_kings: u64,
    /// The other side's men.
    pub their_men: u64,
    /// The other side's kings.
    pub their_kings: u64,
}

impl Sets {
    /// The pieces of each kind.
    #[inline]
    pub fn material(self) -> Material {
        let n = |s: u64| s.count_ones() as u8;
        Material {
            our_men: n(self.our_men),
            our_kings: n(self.our_kings),
            their_men: n(self.their_men),
            their_kings: n(self.their_kings),
        }
    }

    /// Every occupied square.
    #[inline]
    pub fn occupied(self) -> u64 {
        self.our_men | self.our_kings | self.their_men | self.their_kings
    }

    /// The same board seen by the other side on `shape`, as if it were their turn.
    #[inline]
    pub fn flipped(self, shape: Shape) -> Sets {
        Sets {
            our_men: shape.turned(self.their_men),
            our_kings: shape.turned(self.their_kings),
            their_men: shape.turned(self.our_men),
            their_kings: shape.turned(self.our_kings),
        }
    }
}

impl From<Squares> for Sets {
    #[inline]
    fn from(sq: Squares) -> Sets {
        Sets {
            our_men: u64::from(sq.our_men),
            our_kings: u64::from(sq.our_kings),
            their_men: u64::from(sq.their_men),
            their_kings: u64::from(sq.their_kings),
        }
    }
}

/// The next set of as many members in colex order (Gosper's hack); `set` must not be empty.
#[inline]
fn next_combination(set: u64) -> u64 {
    let lowest = set & set.wrapping_neg();
    let ripple = set + lowest;
    (((ripple ^ set) >> 2) / lowest) | ripple
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small(m: &str) -> Layout {
        Layout::new(Material::from_name(m).expect("name"))
    }

    #[test]
    fn binomials_are_pascals_triangle() {
        assert_eq!(choose(32, 3), 4960);
        assert_eq!(choose(28, 6), 376_740);
        assert_eq!(choose(5, 6), 0);
        assert_eq!(choose(0, 0), 1);
    }

    #[test]
    fn colex_rank_and_unrank_are_inverse() {
        for k in 0..=4 {
            let mut set = (1u64 << k) - 1;
            for rank in 0..choose(12, k) {
                assert_eq!(colex_rank(set), rank);
                assert_eq!(colex_unrank(rank, k), set);
                if k > 0 {
                    set = next_combination(set);
                }
            }
        }
    }

    #[test]
    fn squeeze_and_spread_are_inverse() {
        let within = 0b1011_0110_1001u64 | 1 << 63;
        let set = 0b1001_0000_1000u64 | 1 << 63;
        assert_eq!(squeeze(set, within), 0b1101_0010);
        assert_eq!(spread(squeeze(set, within), within), set);
    }

    #[test]
    fn every_number_is_one_position_and_back() {
        for name in [
            "1m0k-1m0k",
            "0m1k-1m1k",
            "2m0k-1m0k",
            "1m1k-0m2k",
            "0m2k-2m0k",
        ] {
            let Some(m) = Material::from_name(name) else {
                // Names in this list are written by hand; a bad one is caught by the check below.
                panic!("bad name {name}");
            };
            check_layout(&Layout::new(m));
        }
        check_layout(&small("2m1k-1m0k"));
    }

    fn check_layout(layout: &Layout) {
        let m = layout.material();
        let mut seen = std::collections::HashSet::new();
        for i in 0..layout.size() {
            let sq = layout.squares(i);
            assert_eq!(sq.material(), m, "position {i}");
            assert_eq!(sq.occupied().count_ones(), m.pieces(), "overlap at {i}");
            assert_eq!(u64::from(sq.our_men) & !Shape::EIGHT.our_men(), 0);
            assert_eq!(u64::from(sq.their_men) & !Shape::EIGHT.their_men(), 0);
            assert_eq!(layout.index(sq), i);
            assert!(seen.insert(sq));
        }
    }

    #[test]
    fn two_piece_positions_are_counted_by_hand() {
        // A man each: ours on 28 squares; theirs on 28, less one when ours stands on one of their squares
        // (24 of ours do): 4 * 28 + 24 * 27.
        assert_eq!(small("1m0k-1m0k").size(), 4 * 28 + 24 * 27);
        assert_eq!(small("1m0k-0m1k").size(), 28 * 31);
        assert_eq!(small("0m1k-0m1k").size(), 32 * 31);
    }

    #[test]
    fn sizes_match_a_closed_form_count_up_to_seven_pieces() {
        // Counted another way: by how many of our men (k) stand on the 24 squares their men may also use.
        let closed = |m: Material| {
            let (om, ok, tm, tk) = (
                u32::from(m.our_men),
                u32::from(m.our_kings),
                u32::from(m.their_men),
                u32::from(m.their_kings),
            );
            let men: u64 = (0..=om)
                .map(|k| choose(24, k) * choose(4, om - k) * choose(28 - k, tm))
                .sum();
            let empty = 32 - om - tm;
            men * choose(empty, ok) * choose(empty - ok, tk)
        };
        let mut by_pieces = [0u64; 8];
        for m in Material::all_up_to(7) {
            assert_eq!(Layout::new(m).size(), closed(m), "{}", m.name());
            by_pieces[m.pieces() as usize] += closed(m);
        }
        // Every position with both sides on the board and a side to move, by pieces: six pieces as the build of
        // the six-piece tables enumerated them.
        assert_eq!(by_pieces[6], 2_426_085_676);
    }

    #[test]
    fn names_round_trip_and_bad_names_are_refused() {
        let m = Material::from_name("2m1k-1m2k").expect("parses");
        assert_eq!(m.name(), "2m1k-1m2k");
        assert_eq!(m.swapped().name(), "1m2k-2m1k");
        for bad in [
            "",
            "2m1k1m2k",
            "2m1k-1m2",
            "xm1k-1m2k",
            "2m1k-1m2k0",
            "2k1m-1m2k",
        ] {
            assert_eq!(Material::from_name(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn positions_normalise_and_come_back() {
        let pos: Position<English> = crowned_rules::parse_fen("W:W18,K30:B12,K3").expect("fen");
        let sq = Squares::of(&pos);
        // White to move: turned half round, White is "us" moving down.
        assert_eq!(sq.material().name(), "1m1k-1m1k");
        assert_eq!(sq.our_men, 1 << (32 - 18));
        assert_eq!(sq.flipped().flipped(), sq);
        let back = sq.position();
        assert_eq!(Squares::of(&back), sq);
        assert_eq!(back.count(Color::Black, crowned_rules::Role::King), 1);
    }

    #[test]
    fn signatures_come_in_build_order() {
        let all = Material::all_up_to(4);
        assert!(all.windows(2).all(|w| w[0].pieces() <= w[1].pieces()));
        assert!(all.iter().all(|m| all.contains(&m.swapped())));
        assert_eq!(all.iter().filter(|m| m.pieces() == 2).count(), 4);
    }
}
