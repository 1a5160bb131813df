//! Legal move generation and fast move counting on bitboards.
//!
//! Everything is generic over the rule set and, through [`Mover`], over the side to move, so that the compiler
//! produces one straight-line generator per (variant, colour) with every direction a constant shift.

use super::geometry::{Direction, shift_bits};
use super::moves::{BitIter, MAX_PATH, Move, MoveList};
use super::position::{Position, compress};
use super::ruleset::RuleSet;
use super::square::{Color, Square};

/// The side to move, as a type: lets the generator fold "which way is forward" into constants.
pub(crate) trait Mover {
    const COLOR: Color;
    /// Directions a man moves in.
    const FORWARD: [Direction; 2];
    /// The other two directions (kings, and men capturing backwards where the rules allow).
    const BACKWARD: [Direction; 2];
    /// The side that moves next.
    type Next: Mover;
}

pub(crate) struct BlackMoves;
pub(crate) struct WhiteMoves;

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
pub(crate) struct Sides {
    us: u64,
    them: u64,
    kings: u64,
    empty: u64,
}

impl Sides {
    #[inline(always)]
    pub(crate) fn of<R: RuleSet, S: Mover>(pos: &Position<R>) -> Sides {
        let us = pos.pieces[S::COLOR.index()];
        let them = pos.pieces[S::COLOR.opponent().index()];
        Sides {
            us,
            them,
            kings: pos.kings,
            empty: R::GEOMETRY.board_mask() & !(us | them),
        }
    }
}

#[inline(always)]
fn step<R: RuleSet>(bits: u64, dir: Direction) -> u64 {
    shift_bits(bits, R::GEOMETRY.shift(dir))
}

#[inline(always)]
fn step_back<R: RuleSet>(bits: u64, dir: Direction) -> u64 {
    shift_bits(bits, -R::GEOMETRY.shift(dir))
}

#[inline(always)]
fn square_of<R: RuleSet>(bit: u32) -> Square {
    R::GEOMETRY.square_of_bit(bit)
}

#[inline(always)]
fn crowning_mask<R: RuleSet, S: Mover>() -> u64 {
    R::GEOMETRY.row_mask(Position::<R>::crowning_row(S::COLOR))
}

/// Pieces of the side to move that can capture in `dir`: an enemy piece next to them and an empty square beyond.
#[inline(always)]
fn jumpers_in<R: RuleSet>(pieces: u64, s: &Sides, dir: Direction) -> u64 {
    step_back::<R>(step_back::<R>(s.empty, dir) & s.them, dir) & pieces
}

/// Every piece of the side to move that can start a capture.
#[inline(always)]
fn jumpers<R: RuleSet, S: Mover>(s: &Sides) -> u64 {
    let own_kings = s.us & s.kings;
    let backward = if R::MEN_CAPTURE_BACKWARDS {
        s.us
    } else {
        own_kings
    };
    jumpers_in::<R>(s.us, s, S::FORWARD[0])
        | jumpers_in::<R>(s.us, s, S::FORWARD[1])
        | jumpers_in::<R>(backward, s, S::BACKWARD[0])
        | jumpers_in::<R>(backward, s, S::BACKWARD[1])
}

/// Whether the side to move has a capture (and so must take).
pub(crate) fn has_capture<R: RuleSet>(pos: &Position<R>) -> bool {
    match pos.side_to_move() {
        Color::Black => jumpers::<R, BlackMoves>(&Sides::of::<R, BlackMoves>(pos)) != 0,
        Color::White => jumpers::<R, WhiteMoves>(&Sides::of::<R, WhiteMoves>(pos)) != 0,
    }
}

/// The legal moves of a position. With `keep_duplicates`, capture routes with the same effect are listed
/// separately.
pub(crate) fn legal_moves<R: RuleSet>(pos: &Position<R>, keep_duplicates: bool) -> MoveList {
    let mut list = MoveList::new();
    match (pos.side_to_move(), keep_duplicates) {
        (Color::Black, false) => generate::<R, BlackMoves, false>(pos, &mut list),
        (Color::Black, true) => generate::<R, BlackMoves, true>(pos, &mut list),
        (Color::White, false) => generate::<R, WhiteMoves, false>(pos, &mut list),
        (Color::White, true) => generate::<R, WhiteMoves, true>(pos, &mut list),
    }
    list
}

/// Appends the legal moves of `pos` (whose side to move must be `S`) to `list`.
#[inline(always)]
pub(crate) fn generate<R: RuleSet, S: Mover, const DUP: bool>(
    pos: &Position<R>,
    list: &mut MoveList,
) {
    let s = Sides::of::<R, S>(pos);
    let jumpers = jumpers::<R, S>(&s);
    if jumpers != 0 {
        generate_captures::<R, S, DUP>(&s, jumpers, list);
    } else {
        generate_simple::<R, S>(&s, list);
    }
}

#[inline(always)]
fn generate_simple<R: RuleSet, S: Mover>(s: &Sides, list: &mut MoveList) {
    let crowning = crowning_mask::<R, S>();
    let men = s.us & !s.kings;
    let own_kings = s.us & s.kings;
    for dir in S::FORWARD {
        let targets = step::<R>(s.us, dir) & s.empty;
        for to in BitIter(targets) {
            let to_bit = 1u64 << to;
            let from = step_back::<R>(to_bit, dir);
            let crowns = from & men != 0 && to_bit & crowning != 0;
            list.push(Move::simple(
                square_of::<R>(from.trailing_zeros()),
                square_of::<R>(to),
                crowns,
            ));
        }
    }
    for dir in S::BACKWARD {
        let targets = step::<R>(own_kings, dir) & s.empty;
        for to in BitIter(targets) {
            let from = step_back::<R>(1u64 << to, dir);
            list.push(Move::simple(
                square_of::<R>(from.trailing_zeros()),
                square_of::<R>(to),
                false,
            ));
        }
    }
}

/// State of one capture search from one piece.
struct CaptureSearch<'a, R: RuleSet> {
    from: Square,
    /// Enemy pieces.
    them: u64,
    /// Empty squares, including the square the capturing piece left.
    empty: u64,
    crowning: u64,
    path: [Square; MAX_PATH],
    list: &'a mut MoveList,
    /// Index in `list` of this piece's first capture, for merging routes with the same effect.
    first: usize,
    dedup: bool,
    rules: std::marker::PhantomData<R>,
}

impl<R: RuleSet> CaptureSearch<'_, R> {
    fn emit(&mut self, len: usize, captured: u64, crowns: bool) {
        let captured = compress(R::GEOMETRY, captured);
        let path = &self.path[..len];
        if self.dedup {
            let to = path[len - 1];
            let seen = self.list[self.first..]
                .iter()
                .any(|m| m.to() == to && m.captured_set() == captured);
            if seen {
                return;
            }
        }
        self.list
            .push(Move::capture(self.from, path, captured, crowns));
    }

    /// Continues a man's capture from `at` (one bit) after `len` landings that took `captured`.
    fn man<S: Mover>(&mut self, at: u64, captured: u64, len: usize) {
        let mut extended = false;
        let dirs = S::FORWARD
            .into_iter()
            .chain(S::BACKWARD.into_iter().filter(|_| R::MEN_CAPTURE_BACKWARDS));
        for dir in dirs {
            let over = step::<R>(at, dir) & self.them & !captured;
            if over == 0 {
                continue;
            }
            let land = step::<R>(over, dir) & self.empty;
            if land == 0 {
                continue;
            }
            extended = true;
            self.path[len] = square_of::<R>(land.trailing_zeros());
            let taken = captured | over;
            if land & self.crowning != 0 {
                if R::CROWNING_ENDS_MOVE {
                    self.emit(len + 1, taken, true);
                } else {
                    self.king(land, taken, len + 1, true);
                }
            } else {
                self.man::<S>(land, taken, len + 1);
            }
        }
        if !extended && len > 0 {
            self.emit(len, captured, false);
        }
    }

    /// Continues a king's capture from `at` (one bit) after `len` landings that took `captured`. `crowned` is
    /// set when a man became this king during the move.
    fn king(&mut self, at: u64, captured: u64, len: usize, crowned: bool) {
        let mut extended = false;
        for dir in Direction::ALL {
            let over = step::<R>(at, dir) & self.them & !captured;
            if over == 0 {
                continue;
            }
            let land = step::<R>(over, dir) & self.empty;
            if land == 0 {
                continue;
            }
            extended = true;
            self.path[len] = square_of::<R>(land.trailing_zeros());
            self.king(land, captured | over, len + 1, crowned);
        }
        if !extended && len > 0 {
            self.emit(len, captured, crowned);
        }
    }
}

fn generate_captures<R: RuleSet, S: Mover, const DUP: bool>(
    s: &Sides,
    jumpers: u64,
    list: &mut MoveList,
) {
    for bit in BitIter(jumpers) {
        let at = 1u64 << bit;
        let mut search = CaptureSearch::<R> {
            from: square_of::<R>(bit),
            them: s.them,
            empty: s.empty | at,
            crowning: crowning_mask::<R, S>(),
            path: [Square::from_index(0); MAX_PATH],
            first: list.len(),
            list,
            dedup: !DUP,
            rules: std::marker::PhantomData,
        };
        if s.kings & at != 0 {
            search.king(at, 0, 0, false);
        } else {
            search.man::<S>(at, 0, 0);
        }
    }
}

/// The number of legal moves of `pos` (side to move `S`), without building them when there is no capture.
#[inline(always)]
pub(crate) fn count<R: RuleSet, S: Mover, const DUP: bool>(pos: &Position<R>) -> u64 {
    let s = Sides::of::<R, S>(pos);
    let jumpers = jumpers::<R, S>(&s);
    if jumpers != 0 {
        let mut list = MoveList::new();
        generate_captures::<R, S, DUP>(&s, jumpers, &mut list);
        return list.len() as u64;
    }
    let own_kings = s.us & s.kings;
    let mut n = 0;
    for dir in S::FORWARD {
        n += (step::<R>(s.us, dir) & s.empty).count_ones();
    }
    for dir in S::BACKWARD {
        n += (step::<R>(own_kings, dir) & s.empty).count_ones();
    }
    n as u64
}
