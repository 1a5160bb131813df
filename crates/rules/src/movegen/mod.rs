//! Legal move generation and fast move counting on bitboards.
//!
//! Everything is generic over the rule set and, through [`Mover`], over the side to move, so that the compiler
//! produces one straight-line generator per (variant, colour) with every direction a constant shift. Moves are
//! passed to a [`Sink`] as they are found: a list for players, a counter or the next ply for perft.

mod captures;
mod count;

use std::marker::PhantomData;

pub(crate) use captures::generate_captures;
pub(crate) use count::count;

use super::bits::{BitIter, Bits, shift_bits};
use super::geometry::{Direction, Line};
use super::moves::{MAX_PATH, Move, MoveList};
use super::position::{Position, compress};
use super::ruleset::{Precedence, RuleSet};
use super::square::{Color, Square};

/// The moves of a position, found by the generator (here rather than beside the position's other methods, so
/// that the position knows nothing of how its moves are found).
impl<R: RuleSet> Position<R> {
    /// Every legal move for the side to move. Capture routes that take the same pieces and end on the same
    /// square are one move here (the first route found stands for them).
    pub fn legal_moves(&self) -> MoveList {
        legal_moves(self, false)
    }

    /// Every legal move, with capture routes that take the same pieces to the same square listed separately,
    /// one per order of capture, as published perft tables count them.
    pub fn legal_moves_with_duplicates(&self) -> MoveList {
        legal_moves(self, true)
    }

    /// Every capture the side to move could make if the variant did not rank captures (which to take when
    /// several are open: the most pieces, the highest value, a king first), one route per effect: with
    /// [`legal_moves`](Position::legal_moves), what tells why a capture is refused.
    pub fn every_capture(&self) -> MoveList {
        every_capture(self)
    }

    /// Whether the side to move must capture.
    pub fn must_capture(&self) -> bool {
        has_capture(self)
    }
}

/// The side to move, as a type: lets the generator fold "which way is forward" into constants.
pub trait Mover {
    /// The side.
    const COLOR: Color;
    /// Directions a man moves in.
    const FORWARD: [Direction; 2];
    /// The other two directions (kings, and men capturing backwards where the rules allow).
    const BACKWARD: [Direction; 2];
    /// The side that moves next.
    type Next: Mover;
}

/// Black to move.
pub struct BlackMoves;
/// White to move.
pub struct WhiteMoves;

impl Mover for BlackMoves {
    const COLOR: Color = Color::Black;
    const FORWARD: [Direction; 2] = [Direction::DownLeft, Direction::DownRight];
    const BACKWARD: [Direction; 2] = [Direction::UpLeft, Direction::UpRight];
    type Next = WhiteMoves;
}

impl Mover for WhiteMoves {
    const COLOR: Color = Color::White;
    const FORWARD: [Direction; 2] = [Direction::UpLeft, Direction::UpRight];
    const BACKWARD: [Direction; 2] = [Direction::DownLeft, Direction::DownRight];
    type Next = BlackMoves;
}

/// The position seen from the side to move.
#[derive(Clone, Copy)]
pub(crate) struct Sides<B> {
    pub(crate) us: B,
    pub(crate) them: B,
    pub(crate) kings: B,
    pub(crate) empty: B,
}

impl<B: Bits> Sides<B> {
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) fn of<R: RuleSet<Bits = B>, S: Mover>(pos: &Position<R>) -> Sides<B> {
        let us = pos.pieces[S::COLOR.index()];
        let them = pos.pieces[S::COLOR.opponent().index()];
        Sides {
            us,
            them,
            kings: pos.kings,
            empty: board_mask::<R>() & !(us | them),
        }
    }

    /// The same position seen from the other side.
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) fn swapped(&self) -> Sides<B> {
        Sides {
            us: self.them,
            them: self.us,
            ..*self
        }
    }

    /// The same position with the kings forgotten, for positions known to have none: every king term of the
    /// code it is passed to then folds away.
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) fn without_kings(&self) -> Sides<B> {
        Sides {
            kings: B::ZERO,
            ..*self
        }
    }

    /// The enemy pieces a man may take: all of them, or only men where men cannot take kings.
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) fn men_targets<R: RuleSet>(&self) -> B {
        if R::MEN_CAPTURE_KINGS {
            self.them
        } else {
            self.them & !self.kings
        }
    }
}

/// The squares one diagonal step in `dir` from `bits` (which may fall off the board: mask with
/// [`board_mask`]).
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn step<R: RuleSet>(bits: R::Bits, dir: Direction) -> R::Bits {
    shift_bits(bits, R::GEOMETRY.shift(dir))
}

#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn step_back<R: RuleSet>(bits: R::Bits, dir: Direction) -> R::Bits {
    shift_bits(bits, -R::GEOMETRY.shift(dir))
}

/// The squares that a straight step along `line` (two rows or two columns: the next dark square) reaches from
/// `bits`, on the board.
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn line_step<R: RuleSet>(bits: R::Bits, line: Line) -> R::Bits {
    shift_bits(bits & line_from::<R>(line), R::GEOMETRY.line_shift(line)) & board_mask::<R>()
}

/// The squares from which a straight step along `line` reaches `bits`.
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn line_step_back<R: RuleSet>(bits: R::Bits, line: Line) -> R::Bits {
    shift_bits(bits, -R::GEOMETRY.line_shift(line)) & line_from::<R>(line)
}

/// The squares a straight step along `line` may start from (see [`super::Geometry::line_from`]).
#[cfg_attr(not(debug_assertions), inline(always))]
fn line_from<R: RuleSet>(line: Line) -> R::Bits {
    let mask = match line {
        Line::Up => const { R::GEOMETRY.line_from(Line::Up) },
        Line::Down => const { R::GEOMETRY.line_from(Line::Down) },
        Line::Left => const { R::GEOMETRY.line_from(Line::Left) },
        Line::Right => const { R::GEOMETRY.line_from(Line::Right) },
    };
    R::Bits::from_u128(mask)
}

/// The squares a flying king on `from` (one or more bits) passes along `line` up to and including the first
/// occupied square (or the edge), stepping from dark square to dark square.
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn line_ray<R: RuleSet>(from: R::Bits, line: Line, empty: R::Bits) -> R::Bits {
    let mut reach = R::Bits::ZERO;
    let mut next = line_step::<R>(from, line);
    while !next.is_empty() {
        reach |= next;
        next = line_step::<R>(next & empty, line);
    }
    reach
}

/// The pieces that can start a straight capture (Frisian): men, and kings that move one square, with an enemy
/// piece on the next dark square along a line and an empty one beyond; flying kings with an enemy piece
/// anywhere along a line past empty squares and an empty square beyond it.
#[cfg_attr(not(debug_assertions), inline(always))]
fn line_jumpers<R: RuleSet>(s: &Sides<R::Bits>) -> R::Bits {
    let own_kings = s.us & s.kings;
    let men = s.us & !s.kings;
    let short_kings = if R::FLYING_KINGS {
        R::Bits::ZERO
    } else {
        own_kings
    };
    let mut found = R::Bits::ZERO;
    for line in Line::ALL {
        let landing_next = line_step_back::<R>(s.empty, line);
        found |= line_step_back::<R>(landing_next & s.men_targets::<R>(), line) & men;
        found |= line_step_back::<R>(landing_next & s.them, line) & short_kings;
        if R::FLYING_KINGS && !own_kings.is_empty() {
            for bit in BitIter(own_kings) {
                let king = R::Bits::bit(bit);
                if !(line_ray::<R>(king, line, s.empty) & s.them & landing_next).is_empty() {
                    found |= king;
                }
            }
        }
    }
    found
}

#[cfg_attr(not(debug_assertions), inline(always))]
fn square_of<R: RuleSet>(bit: u32) -> Square {
    R::GEOMETRY.square_of_bit(bit)
}

/// Every square of the board of `R`, as bits.
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn board_mask<R: RuleSet>() -> R::Bits {
    R::Bits::from_u128(const { R::GEOMETRY.board_mask() })
}

#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn crowning_mask<R: RuleSet, S: Mover>() -> R::Bits {
    R::Bits::from_u128(const { R::GEOMETRY.row_mask(Position::<R>::crowning_row(S::COLOR)) })
}

/// The squares a flying king on `from` (one or more bits) passes in `dir` up to and including the first
/// occupied square (or the edge).
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn ray<R: RuleSet>(from: R::Bits, dir: Direction, empty: R::Bits) -> R::Bits {
    let mut reach = R::Bits::ZERO;
    let mut next = step::<R>(from, dir) & board_mask::<R>();
    while !next.is_empty() {
        reach |= next;
        next = step::<R>(next & empty, dir) & board_mask::<R>();
    }
    reach
}

/// Pieces among `pieces` that can capture in `dir`: one of `targets` next to them and an empty square beyond.
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn jumpers_over<R: RuleSet>(
    pieces: R::Bits,
    targets: R::Bits,
    empty: R::Bits,
    dir: Direction,
) -> R::Bits {
    step_back::<R>(step_back::<R>(empty, dir) & targets, dir) & pieces
}

/// Men among `men` that can capture in `dir`.
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn jumpers_in<R: RuleSet>(men: R::Bits, s: &Sides<R::Bits>, dir: Direction) -> R::Bits {
    jumpers_over::<R>(men, s.men_targets::<R>(), s.empty, dir)
}

/// Every piece of the side to move that may start a capture. Where a king must capture when one can (Czech),
/// only the kings, if any of them can.
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) fn jumpers<R: RuleSet, S: Mover>(s: &Sides<R::Bits>) -> R::Bits {
    let own_kings = s.us & s.kings;
    let mut found = R::Bits::ZERO;
    if R::FLYING_KINGS {
        for bit in BitIter(own_kings) {
            let king = R::Bits::bit(bit);
            let can_take = Direction::ALL.into_iter().any(|dir| {
                let first = ray::<R>(king, dir, s.empty) & !s.empty;
                !(step::<R>(first & s.them, dir) & s.empty).is_empty()
            });
            if can_take {
                found |= king;
            }
        }
        if matches!(R::PRECEDENCE, Precedence::KingsFirst) && !found.is_empty() {
            return found;
        }
    }
    let short_kings = if R::FLYING_KINGS {
        R::Bits::ZERO
    } else {
        own_kings
    };
    if R::MEN_CAPTURE_KINGS {
        // Men and short kings jump the same pieces: forwards all at once, backwards those that may.
        let backward = if R::MEN_CAPTURE_BACKWARDS {
            s.us
        } else {
            short_kings
        };
        found |= jumpers_over::<R>(s.us, s.them, s.empty, S::FORWARD[0])
            | jumpers_over::<R>(s.us, s.them, s.empty, S::FORWARD[1])
            | jumpers_over::<R>(backward, s.them, s.empty, S::BACKWARD[0])
            | jumpers_over::<R>(backward, s.them, s.empty, S::BACKWARD[1]);
    } else {
        // Men take only men; kings take anything.
        let men = s.us & !s.kings;
        let backward_men = if R::MEN_CAPTURE_BACKWARDS {
            men
        } else {
            R::Bits::ZERO
        };
        for dir in Direction::ALL {
            found |= jumpers_over::<R>(short_kings, s.them, s.empty, dir);
        }
        found |= jumpers_in::<R>(men, s, S::FORWARD[0])
            | jumpers_in::<R>(men, s, S::FORWARD[1])
            | jumpers_in::<R>(backward_men, s, S::BACKWARD[0])
            | jumpers_in::<R>(backward_men, s, S::BACKWARD[1]);
    }
    if R::ORTHOGONAL_CAPTURES {
        found |= line_jumpers::<R>(s);
    }
    found
}

/// Whether the side to move has a capture (and so must take).
pub(crate) fn has_capture<R: RuleSet>(pos: &Position<R>) -> bool {
    match pos.side_to_move() {
        Color::Black => !jumpers::<R, BlackMoves>(&Sides::of::<R, BlackMoves>(pos)).is_empty(),
        Color::White => !jumpers::<R, WhiteMoves>(&Sides::of::<R, WhiteMoves>(pos)).is_empty(),
    }
}

/// Receives the captures a generator finds, as bits in the geometry's layout.
pub trait CaptureSink<B> {
    /// A capture from `from` ending on `to` (one bit each, possibly the same), landing on the bit indices of
    /// `path` in order and taking `captured`.
    fn capture(&mut self, from: B, to: B, captured: B, path: &[u8], crowns: bool);
}

/// Receives every move a generator finds.
pub trait Sink<B>: CaptureSink<B> {
    /// A simple move from `from` to `to` (one bit each).
    fn simple(&mut self, from: B, to: B, crowns: bool);
}

/// Collects moves as [`Move`] values with squares.
struct Collect<'a, R: RuleSet> {
    list: &'a mut MoveList,
    rules: PhantomData<R>,
}

impl<R: RuleSet> Sink<R::Bits> for Collect<'_, R> {
    fn simple(&mut self, from: R::Bits, to: R::Bits, crowns: bool) {
        self.list.push(Move::simple(
            square_of::<R>(from.trailing_zeros()),
            square_of::<R>(to.trailing_zeros()),
            crowns,
        ));
    }
}

impl<R: RuleSet> CaptureSink<R::Bits> for Collect<'_, R> {
    fn capture(
        &mut self,
        from: R::Bits,
        _to: R::Bits,
        captured: R::Bits,
        path: &[u8],
        crowns: bool,
    ) {
        let mut squares = [Square::from_index(0); MAX_PATH];
        for (square, bit) in squares.iter_mut().zip(path) {
            *square = square_of::<R>(u32::from(*bit));
        }
        self.list.push(Move::capture(
            square_of::<R>(from.trailing_zeros()),
            &squares[..path.len()],
            compress(R::GEOMETRY, captured),
            crowns,
        ));
    }
}

/// Every capture the side to move could make if no rule ranked them (the captures of each piece, whichever
/// takes most or first), one route per effect, in square order: what tells a player that the capture they chose
/// is one the precedence rules put behind another.
pub(crate) fn every_capture<R: RuleSet>(pos: &Position<R>) -> MoveList {
    let mut list = MoveList::new();
    let mut sink = Collect::<R> {
        list: &mut list,
        rules: PhantomData,
    };
    match pos.side_to_move() {
        Color::Black => {
            let s = Sides::of::<R, BlackMoves>(pos);
            captures::search::<R, BlackMoves, _, false>(&s, s.us, &mut sink);
        }
        Color::White => {
            let s = Sides::of::<R, WhiteMoves>(pos);
            captures::search::<R, WhiteMoves, _, false>(&s, s.us, &mut sink);
        }
    }
    list.sort_unstable_by(|a, b| (a.from(), a.path()).cmp(&(b.from(), b.path())));
    list
}

/// The legal moves of a position in square order. With `keep_duplicates`, capture routes with the same effect
/// are listed separately.
pub(crate) fn legal_moves<R: RuleSet>(pos: &Position<R>, keep_duplicates: bool) -> MoveList {
    let mut list = MoveList::new();
    let mut sink = Collect::<R> {
        list: &mut list,
        rules: PhantomData,
    };
    match (pos.side_to_move(), keep_duplicates) {
        (Color::Black, false) => generate::<R, BlackMoves, _, false>(pos, &mut sink),
        (Color::Black, true) => generate::<R, BlackMoves, _, true>(pos, &mut sink),
        (Color::White, false) => generate::<R, WhiteMoves, _, false>(pos, &mut sink),
        (Color::White, true) => generate::<R, WhiteMoves, _, true>(pos, &mut sink),
    }
    // The generator's order follows the bit layout and directions; people expect square order.
    list.sort_unstable_by(|a, b| (a.from(), a.path()).cmp(&(b.from(), b.path())));
    list
}

/// Passes every legal move of `pos` (whose side to move must be `S`) to `sink`. Without `DUP`, capture routes
/// with the same effect as an earlier route of the same piece are left out.
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn generate<R: RuleSet, S: Mover, K: Sink<R::Bits>, const DUP: bool>(
    pos: &Position<R>,
    sink: &mut K,
) {
    let s = Sides::of::<R, S>(pos);
    // Kings are rare in most of a game tree; with none, every king term folds away.
    if s.kings.is_empty() {
        generate_sides::<R, S, K, DUP>(&s.without_kings(), sink);
    } else {
        generate_sides::<R, S, K, DUP>(&s, sink);
    }
}

#[cfg_attr(not(debug_assertions), inline(always))]
fn generate_sides<R: RuleSet, S: Mover, K: Sink<R::Bits>, const DUP: bool>(
    s: &Sides<R::Bits>,
    sink: &mut K,
) {
    let jumpers = jumpers::<R, S>(s);
    if !jumpers.is_empty() {
        generate_captures::<R, S, K, DUP>(s, jumpers, sink);
    } else {
        generate_simple::<R, S, K>(s, sink);
    }
}

#[cfg_attr(not(debug_assertions), inline(always))]
fn generate_simple<R: RuleSet, S: Mover, K: Sink<R::Bits>>(s: &Sides<R::Bits>, sink: &mut K) {
    let crowning = crowning_mask::<R, S>();
    let men = s.us & !s.kings;
    let own_kings = s.us & s.kings;
    // Short kings step like men, plus backwards; flying kings have their own loop below.
    let (forward_steppers, backward_steppers) = if R::FLYING_KINGS {
        (men, R::Bits::ZERO)
    } else {
        (s.us, own_kings)
    };
    for dir in S::FORWARD {
        let targets = step::<R>(forward_steppers, dir) & s.empty;
        for to in BitIter(targets) {
            let to = R::Bits::bit(to);
            let from = step_back::<R>(to, dir);
            let crowns = !(from & men).is_empty() && !(to & crowning).is_empty();
            sink.simple(from, to, crowns);
        }
    }
    for dir in S::BACKWARD {
        let targets = step::<R>(backward_steppers, dir) & s.empty;
        for to in BitIter(targets) {
            let to = R::Bits::bit(to);
            sink.simple(step_back::<R>(to, dir), to, false);
        }
    }
    if R::FLYING_KINGS {
        for bit in BitIter(own_kings) {
            let from = R::Bits::bit(bit);
            for dir in Direction::ALL {
                for to in BitIter(ray::<R>(from, dir, s.empty) & s.empty) {
                    sink.simple(from, R::Bits::bit(to), false);
                }
            }
        }
    }
}
