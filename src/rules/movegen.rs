//! Legal move generation and fast move counting on bitboards.
//!
//! Everything is generic over the rule set and, through [`Mover`], over the side to move, so that the compiler
//! produces one straight-line generator per (variant, colour) with every direction a constant shift.

use super::geometry::{Direction, shift_bits};
use std::marker::PhantomData;

use smallvec::SmallVec;

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
    pub(crate) us: u64,
    pub(crate) them: u64,
    pub(crate) kings: u64,
    pub(crate) empty: u64,
}

impl Sides {
    #[inline(always)]
    /// The same position seen from the other side.
    pub(crate) fn swapped(&self) -> Sides {
        Sides {
            us: self.them,
            them: self.us,
            ..*self
        }
    }

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
pub(crate) fn step<R: RuleSet>(bits: u64, dir: Direction) -> u64 {
    shift_bits(bits, R::GEOMETRY.shift(dir))
}

#[inline(always)]
pub(crate) fn step_back<R: RuleSet>(bits: u64, dir: Direction) -> u64 {
    shift_bits(bits, -R::GEOMETRY.shift(dir))
}

#[inline(always)]
fn square_of<R: RuleSet>(bit: u32) -> Square {
    R::GEOMETRY.square_of_bit(bit)
}

#[inline(always)]
pub(crate) fn crowning_mask<R: RuleSet, S: Mover>() -> u64 {
    R::GEOMETRY.row_mask(Position::<R>::crowning_row(S::COLOR))
}

/// Pieces of the side to move that can capture in `dir`: an enemy piece next to them and an empty square beyond.
#[inline(always)]
fn jumpers_in<R: RuleSet>(pieces: u64, s: &Sides, dir: Direction) -> u64 {
    step_back::<R>(step_back::<R>(s.empty, dir) & s.them, dir) & pieces
}

/// Every piece of the side to move that can start a capture.
#[inline(always)]
pub(crate) fn jumpers<R: RuleSet, S: Mover>(s: &Sides) -> u64 {
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

/// Receives the moves a generator finds, as bits in the geometry's layout.
pub(crate) trait Sink {
    /// A simple move from `from` to `to` (one bit each).
    fn simple(&mut self, from: u64, to: u64, crowns: bool);
    /// A capture from `from` ending on `to` (one bit each, possibly the same), landing on the bit indices of
    /// `path` in order and taking `captured`.
    fn capture(&mut self, from: u64, to: u64, captured: u64, path: &[u8], crowns: bool);
}

/// Collects moves as [`Move`] values with squares.
struct Collect<'a, R: RuleSet> {
    list: &'a mut MoveList,
    rules: PhantomData<R>,
}

impl<R: RuleSet> Sink for Collect<'_, R> {
    #[inline(always)]
    fn simple(&mut self, from: u64, to: u64, crowns: bool) {
        self.list.push(Move::simple(
            square_of::<R>(from.trailing_zeros()),
            square_of::<R>(to.trailing_zeros()),
            crowns,
        ));
    }

    fn capture(&mut self, from: u64, _to: u64, captured: u64, path: &[u8], crowns: bool) {
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

/// The legal moves of a position. With `keep_duplicates`, capture routes with the same effect are listed
/// separately.
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
#[inline(always)]
pub(crate) fn generate<R: RuleSet, S: Mover, K: Sink, const DUP: bool>(
    pos: &Position<R>,
    sink: &mut K,
) {
    let s = Sides::of::<R, S>(pos);
    if s.kings == 0 {
        generate_sides::<R, S, K, DUP>(&Sides { kings: 0, ..s }, sink);
    } else {
        generate_sides::<R, S, K, DUP>(&s, sink);
    }
}

#[inline(always)]
fn generate_sides<R: RuleSet, S: Mover, K: Sink, const DUP: bool>(s: &Sides, sink: &mut K) {
    let jumpers = jumpers::<R, S>(s);
    if jumpers != 0 {
        generate_captures::<R, S, K, DUP>(s, jumpers, sink);
    } else {
        generate_simple::<R, S, K>(s, sink);
    }
}

#[inline(always)]
fn generate_simple<R: RuleSet, S: Mover, K: Sink>(s: &Sides, sink: &mut K) {
    let crowning = crowning_mask::<R, S>();
    let men = s.us & !s.kings;
    let own_kings = s.us & s.kings;
    for dir in S::FORWARD {
        let targets = step::<R>(s.us, dir) & s.empty;
        for to in BitIter(targets) {
            let to = 1u64 << to;
            let from = step_back::<R>(to, dir);
            sink.simple(from, to, from & men != 0 && to & crowning != 0);
        }
    }
    for dir in S::BACKWARD {
        let targets = step::<R>(own_kings, dir) & s.empty;
        for to in BitIter(targets) {
            let to = 1u64 << to;
            sink.simple(step_back::<R>(to, dir), to, false);
        }
    }
}

/// State of the capture search from one piece.
struct CaptureSearch<'a, R: RuleSet, K: Sink> {
    from: u64,
    /// Enemy pieces.
    them: u64,
    /// Empty squares, including the square the capturing piece left.
    empty: u64,
    crowning: u64,
    /// Bit indices of the landing squares so far.
    path: [u8; MAX_PATH],
    sink: &'a mut K,
    /// (end, captured) of this piece's routes so far, when routes with the same effect are merged.
    seen: Option<SmallVec<[(u64, u64); 8]>>,
    rules: PhantomData<R>,
}

impl<R: RuleSet, K: Sink> CaptureSearch<'_, R, K> {
    fn emit(&mut self, at: u64, len: usize, captured: u64, crowns: bool) {
        if let Some(seen) = &mut self.seen {
            if seen.contains(&(at, captured)) {
                return;
            }
            seen.push((at, captured));
        }
        self.sink
            .capture(self.from, at, captured, &self.path[..len], crowns);
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
            self.path[len] = land.trailing_zeros() as u8;
            let taken = captured | over;
            if land & self.crowning != 0 {
                if R::CROWNING_ENDS_MOVE {
                    self.emit(land, len + 1, taken, true);
                } else {
                    self.king(land, taken, len + 1, true);
                }
            } else {
                self.man::<S>(land, taken, len + 1);
            }
        }
        if !extended && len > 0 {
            self.emit(at, len, captured, false);
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
            self.path[len] = land.trailing_zeros() as u8;
            self.king(land, captured | over, len + 1, crowned);
        }
        if !extended && len > 0 {
            self.emit(at, len, captured, crowned);
        }
    }
}

/// Whether men capture forwards only and stop when crowned, so that a man's captures can be found by the faster
/// means below.
const fn forward_men<R: RuleSet>() -> bool {
    !R::MEN_CAPTURE_BACKWARDS && R::CROWNING_ENDS_MOVE
}

#[inline(always)]
fn generate_captures<R: RuleSet, S: Mover, K: Sink, const DUP: bool>(
    s: &Sides,
    jumpers: u64,
    sink: &mut K,
) {
    let mut searched = jumpers;
    if forward_men::<R>() {
        // Most captures are single jumps. Pass those on for all men at once; search only from the men that
        // have a landing square from which they can jump again.
        let men = jumpers & !s.kings;
        let crowning = crowning_mask::<R, S>();
        let mut lands = [0u64; 2];
        let mut again_from = 0;
        for (i, dir) in S::FORWARD.into_iter().enumerate() {
            lands[i] = step::<R>(step::<R>(men, dir) & s.them, dir) & s.empty;
            let again = lands[i]
                & !crowning
                & (jumpers_in::<R>(lands[i], s, S::FORWARD[0])
                    | jumpers_in::<R>(lands[i], s, S::FORWARD[1]));
            again_from |= step_back::<R>(step_back::<R>(again, dir), dir);
        }
        for (i, dir) in S::FORWARD.into_iter().enumerate() {
            let single = lands[i] & !step::<R>(step::<R>(again_from, dir), dir);
            for bit in BitIter(single) {
                let to = 1u64 << bit;
                let over = step_back::<R>(to, dir);
                let from = step_back::<R>(over, dir);
                sink.capture(from, to, over, &[bit as u8], to & crowning != 0);
            }
        }
        searched = (jumpers & s.kings) | again_from;
    }
    for bit in BitIter(searched) {
        let at = 1u64 << bit;
        let is_king = s.kings & at != 0;
        // Forward-only men cannot reach one end by two routes taking the same pieces: the piece taken on each
        // pair of rows fixes the route. Only kings (and men capturing backwards) need the check.
        let may_repeat = is_king || R::MEN_CAPTURE_BACKWARDS;
        let mut search = CaptureSearch::<R, K> {
            from: at,
            them: s.them,
            empty: s.empty | at,
            crowning: crowning_mask::<R, S>(),
            path: [0; MAX_PATH],
            sink,
            seen: (!DUP && may_repeat).then(SmallVec::new),
            rules: PhantomData,
        };
        if is_king {
            search.king(at, 0, 0, false);
        } else {
            search.man::<S>(at, 0, 0);
        }
    }
}

/// Counts moves without keeping them.
struct Tally(u64);

impl Sink for Tally {
    #[inline(always)]
    fn simple(&mut self, _: u64, _: u64, _: bool) {
        self.0 += 1;
    }

    #[inline(always)]
    fn capture(&mut self, _: u64, _: u64, _: u64, _: &[u8], _: bool) {
        self.0 += 1;
    }
}

/// The number of legal moves of `pos` (side to move `S`), counting simple moves without visiting them.
#[inline(always)]
pub(crate) fn count<R: RuleSet, S: Mover, const DUP: bool>(pos: &Position<R>) -> u64 {
    let s = Sides::of::<R, S>(pos);
    // Kings are rare in most of a game tree; with none, every king term folds away.
    if s.kings == 0 {
        count_sides::<R, S, DUP>(&Sides { kings: 0, ..s })
    } else {
        count_sides::<R, S, DUP>(&s)
    }
}

#[inline(always)]
fn count_sides<R: RuleSet, S: Mover, const DUP: bool>(s: &Sides) -> u64 {
    let s = *s;
    let jumpers = jumpers::<R, S>(&s);
    if jumpers != 0 {
        return count_captures::<R, S, DUP>(&s, jumpers);
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

/// The number of capture routes open to `jumpers`, counted without recording them.
#[inline(always)]
fn count_captures<R: RuleSet, S: Mover, const DUP: bool>(s: &Sides, jumpers: u64) -> u64 {
    let king_jumpers = jumpers & s.kings;
    let mut n = 0;
    if R::MEN_CAPTURE_BACKWARDS || !R::CROWNING_ENDS_MOVE {
        // Men whose routes may repeat an effect or turn into a king's: the general search.
        let mut tally = Tally(0);
        generate_captures::<R, S, _, DUP>(s, jumpers & !s.kings, &mut tally);
        n += tally.0;
    } else {
        // Most captures are single jumps: count those for all men at once, and follow only the landings from
        // which the man can jump again.
        let crowning = crowning_mask::<R, S>();
        let men = jumpers & !s.kings;
        for dir in S::FORWARD {
            let land = step::<R>(step::<R>(men, dir) & s.them, dir) & s.empty;
            let again = land
                & !crowning
                & (jumpers_in::<R>(land, s, S::FORWARD[0])
                    | jumpers_in::<R>(land, s, S::FORWARD[1]));
            n += u64::from((land & !again).count_ones());
            for bit in BitIter(again) {
                let at = 1u64 << bit;
                let over = step_back::<R>(at, dir);
                n += man_routes::<R, S>(at, over, s.them, s.empty, crowning);
            }
        }
    }
    if king_jumpers != 0 {
        let mut tally = Tally(0);
        generate_captures::<R, S, _, DUP>(s, king_jumpers, &mut tally);
        n += tally.0;
    }
    n
}

/// The number of complete capture routes of a forward-capturing man standing on `at` after taking `captured`.
/// Returns 1 when it can take nothing more (the route ends here).
fn man_routes<R: RuleSet, S: Mover>(
    at: u64,
    captured: u64,
    them: u64,
    empty: u64,
    crowning: u64,
) -> u64 {
    let mut n = 0;
    for dir in S::FORWARD {
        let over = step::<R>(at, dir) & them & !captured;
        let land = step::<R>(over, dir) & empty;
        if land != 0 {
            n += if land & crowning != 0 {
                1
            } else {
                man_routes::<R, S>(land, captured | over, them, empty, crowning)
            };
        }
    }
    n.max(1)
}
