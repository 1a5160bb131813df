//! The fast move generator of Turkish draughts, on bitboards.
//!
//! [`DefinedRules`](super::DefinedRules) whose moves are exactly those of the built-in Turkish definition (`builtin/turkish.toml`,
//! compared field by field once they are read, so a player's copy of the file is played here too and a changed
//! one is not) are played by this generator instead of the general one: [`legal_moves`](super::legal_moves) and
//! [`perft`](super::perft) dispatch to it. It gives the same moves as the general generator in the same order and
//! the same form, so nothing that uses the moves can tell the two apart but by speed; the general one stays
//! reachable ([`legal_moves_general`](super::legal_moves_general), [`perft_general`](super::perft_general)), and
//! the two check each other in the tests.
//!
//! All 64 squares are played, so a cell of the definition (`row * 8 + col`, row 0 at the top) is a bit of a
//! `u64`: a step up is a shift right by 8, a step left a shift right by 1 with the h-file masked off (a step
//! left from the a-file would wrap onto the row above). A capture is a depth-first search that removes each
//! piece as it is taken, never turns straight back, and keeps only the routes that take the most pieces.

use smallvec::SmallVec;

use super::position::{DefinedMove, DefinedPosition};

const UP: usize = 0;
const DOWN: usize = 1;
const LEFT: usize = 2;
const RIGHT: usize = 3;

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;
/// Row 0 (rank 8), where White's men are crowned, and row 7 (rank 1), where Black's are.
const FAR_ROW: [u64; 2] = [0xff, 0xff << 56];

/// The directions of a man's moves and captures in the order the general generator tries them (forward, left,
/// right: the definition's `["forward", "sideways"]`), for White (index 0) and Black.
const MAN_DIRECTIONS: [[usize; 3]; 2] = [[UP, LEFT, RIGHT], [DOWN, LEFT, RIGHT]];
/// A king's (forward, back, left, right: `["orthogonal"]`), for White and Black.
const KING_DIRECTIONS: [[usize; 4]; 2] = [[UP, DOWN, LEFT, RIGHT], [DOWN, UP, LEFT, RIGHT]];

/// Every square of `b` one step in direction `d`; what would leave the board is dropped.
const fn shift(b: u64, d: usize) -> u64 {
    match d {
        UP => b >> 8,
        DOWN => b << 8,
        LEFT => (b >> 1) & !FILE_H,
        _ => (b << 1) & !FILE_A,
    }
}

const fn reverse(d: usize) -> usize {
    d ^ 1
}

/// For each direction and square, the squares beyond it in that direction up to the edge.
static RAYS: [[u64; 64]; 4] = rays();

const fn rays() -> [[u64; 64]; 4] {
    let mut out = [[0; 64]; 4];
    let mut d = 0;
    while d < 4 {
        let mut square = 0;
        while square < 64 {
            let mut b = shift(1 << square, d);
            while b != 0 {
                out[d][square] |= b;
                b = shift(b, d);
            }
            square += 1;
        }
        d += 1;
    }
    out
}

/// The square of `set` (not empty) nearest to a square whose ray in direction `d` holds it: bits grow going down
/// and right, shrink going up and left.
fn nearest(set: u64, d: usize) -> u32 {
    if d == DOWN || d == RIGHT {
        set.trailing_zeros()
    } else {
        63 - set.leading_zeros()
    }
}

/// The squares of `ray` (a ray in direction `d`) before its first piece of `occupied`.
fn open(ray: u64, occupied: u64, d: usize) -> u64 {
    let block = ray & occupied;
    if block == 0 {
        return ray;
    }
    let stop = nearest(block, d);
    ray & !(RAYS[d][stop as usize] | 1 << stop)
}

/// Calls `f` with each square of `set` in order along direction `d`, the nearest first.
fn each_along(mut set: u64, d: usize, mut f: impl FnMut(u32)) {
    while set != 0 {
        let square = nearest(set, d);
        set &= !(1 << square);
        f(square);
    }
}

/// Calls `f` with each square of `set`, in cell order.
fn each(mut set: u64, mut f: impl FnMut(u32)) {
    while set != 0 {
        f(set.trailing_zeros());
        set &= set - 1;
    }
}

/// The man's kind index: the definition's first kind.
pub const MAN: usize = 0;
/// The king's kind index: the definition's second kind.
pub const KING: usize = 1;

/// A position: the side to move's pieces, the other side's, the kings of both, and who moves (0 White, 1 Black).
/// The engine searches on it too, for speed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TurkishPosition {
    /// The side to move's pieces.
    pub us: u64,
    /// The other side's.
    pub them: u64,
    /// The kings of both.
    pub kings: u64,
    /// Who moves: 0 White, 1 Black.
    pub side: usize,
}

/// A move as perft plays it: the captured pieces as a set, since the order they were taken in does not change
/// the position (two orders are still two moves, and both are listed).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TurkishMove {
    /// The square it starts from.
    pub from: u32,
    /// The square it ends on.
    pub to: u32,
    /// The pieces taken.
    pub taken: u64,
    /// Whether the piece is a king when the move ends.
    pub king: bool,
}

/// A position's moves as [`TurkishMove`]s; most positions have fewer than the inline room, a long list spills to the
/// heap.
pub type Steps = SmallVec<[TurkishMove; 32]>;

impl TurkishMove {
    /// The step of a move in the general generator's form.
    pub fn of(mv: &DefinedMove) -> TurkishMove {
        TurkishMove {
            from: mv.from as u32,
            to: mv.to() as u32,
            taken: mv.captured.iter().fold(0, |set, &c| set | 1u64 << (c & 63)),
            king: mv.becomes == KING,
        }
    }
}

impl TurkishPosition {
    /// The board of a position that fits the Turkish rules ([`DefinedPosition::fits`]); `None` for any other.
    pub fn of(pos: &DefinedPosition) -> Option<TurkishPosition> {
        if pos.cells.len() != 64 {
            return None;
        }
        let side = usize::from(pos.side == crate::Color::Black);
        let mut board = TurkishPosition {
            us: 0,
            them: 0,
            kings: 0,
            side,
        };
        for (cell, occupant) in pos.cells.iter().enumerate() {
            let Some((color, kind)) = *occupant else {
                continue;
            };
            let bit = 1u64 << cell;
            match kind {
                MAN => {}
                KING => board.kings |= bit,
                _ => return None,
            }
            if color == pos.side {
                board.us |= bit;
            } else {
                board.them |= bit;
            }
        }
        Some(board)
    }

    fn occupied(&self) -> u64 {
        self.us | self.them
    }

    /// Whether the side to move can take something: then it must, and only captures are legal.
    fn can_capture(&self) -> bool {
        let empty = !self.occupied();
        let men = self.us & !self.kings;
        if MAN_DIRECTIONS[self.side]
            .iter()
            .any(|&d| shift(shift(men, d) & self.them, d) & empty != 0)
        {
            return true;
        }
        let mut kings = self.us & self.kings;
        while kings != 0 {
            let king = kings.trailing_zeros() as usize;
            kings &= kings - 1;
            for (d, rays) in RAYS.iter().enumerate() {
                let block = rays[king] & !empty;
                if block == 0 {
                    continue;
                }
                let over = nearest(block, d);
                if self.them & 1 << over != 0 && shift(1 << over, d) & empty != 0 {
                    return true;
                }
            }
        }
        false
    }

    /// Every capture that takes the most pieces, in the general generator's order, given to `sink`.
    fn captures(&self, sink: &mut impl Sink) {
        each(self.us, |from| {
            let king = self.kings & 1 << from != 0;
            let mut search = Search {
                // The mover is lifted from its square for the whole capture: it may pass it again, or end there.
                occupied: self.occupied() & !(1 << from),
                them: self.them,
                side: self.side,
                from,
                path: [0; 64],
                captured: [0; 64],
                len: 0,
                sink: &mut *sink,
            };
            if king {
                search.king(from, None, true);
            } else {
                search.man(from);
            }
        });
    }

    /// The number of quiet moves.
    fn quiet_count(&self) -> u64 {
        let empty = !self.occupied();
        let men = self.us & !self.kings;
        let mut count: u32 = MAN_DIRECTIONS[self.side]
            .iter()
            .map(|&d| (shift(men, d) & empty).count_ones())
            .sum();
        each(self.us & self.kings, |king| {
            for (d, rays) in RAYS.iter().enumerate() {
                count += open(rays[king as usize], !empty, d).count_ones();
            }
        });
        u64::from(count)
    }

    /// Calls `f` with each quiet move, in the general generator's order: piece by piece in cell order, each
    /// piece's directions in the definition's order, the nearest square first.
    fn quiet_moves(&self, mut f: impl FnMut(TurkishMove)) {
        let occupied = self.occupied();
        let far = FAR_ROW[self.side];
        each(self.us, |from| {
            let king = self.kings & 1 << from != 0;
            if king {
                for d in KING_DIRECTIONS[self.side] {
                    each_along(open(RAYS[d][from as usize], occupied, d), d, |to| {
                        f(TurkishMove {
                            from,
                            to,
                            taken: 0,
                            king,
                        });
                    });
                }
            } else {
                for d in MAN_DIRECTIONS[self.side] {
                    let to = shift(1 << from, d) & !occupied;
                    if to != 0 {
                        f(TurkishMove {
                            from,
                            to: to.trailing_zeros(),
                            taken: 0,
                            king: to & far != 0,
                        });
                    }
                }
            }
        });
    }

    /// Every legal move, in the order of this module's `legal_moves` (the engine's move list: it needs no routes).
    pub fn steps(&self) -> Steps {
        if self.can_capture() {
            let mut sink = MostTaken::default();
            self.captures(&mut sink);
            return sink.steps;
        }
        let mut steps = Steps::new();
        self.quiet_moves(|step| steps.push(step));
        steps
    }

    /// The position after `step`, the other side to move.
    pub fn play(&self, step: &TurkishMove) -> TurkishPosition {
        let (from, to) = (1u64 << step.from, 1u64 << step.to);
        // The start is cleared first: a capture may end where it began.
        let us = (self.us & !from) | to;
        let kings = self.kings & !from & !step.taken;
        TurkishPosition {
            us: self.them & !step.taken,
            them: us,
            kings: if step.king { kings | to } else { kings },
            side: self.side ^ 1,
        }
    }
}

/// Where a capture search hands its complete routes. A route is given only if it takes at least as many
/// pieces as the best so far, and a sink keeps only those of the most.
trait Sink {
    /// A complete route: `path` the squares landed on and `captured` the pieces taken, in order; `taken` the
    /// same pieces as a set; `king` whether the piece is a king when the move ends.
    fn route(&mut self, from: u32, path: &[u8], captured: &[u8], taken: u64, king: bool);
}

/// Counts the routes that take the most pieces.
#[derive(Default)]
struct Count {
    best: usize,
    count: u64,
}

impl Sink for Count {
    fn route(&mut self, _: u32, path: &[u8], _: &[u8], _: u64, _: bool) {
        if path.len() > self.best {
            (self.best, self.count) = (path.len(), 0);
        }
        if path.len() == self.best {
            self.count += 1;
        }
    }
}

/// The routes that take the most pieces as perft plays them.
#[derive(Default)]
struct MostTaken {
    best: usize,
    steps: Steps,
}

impl Sink for MostTaken {
    fn route(&mut self, from: u32, path: &[u8], _: &[u8], taken: u64, king: bool) {
        if path.len() > self.best {
            self.best = path.len();
            self.steps.clear();
        }
        if path.len() == self.best {
            let to = u32::from(path[path.len() - 1]);
            self.steps.push(TurkishMove {
                from,
                to,
                taken,
                king,
            });
        }
    }
}

/// The routes that take the most pieces as the general generator writes them.
#[derive(Default)]
struct Routes {
    best: usize,
    moves: Vec<DefinedMove>,
}

impl Sink for Routes {
    fn route(&mut self, from: u32, path: &[u8], captured: &[u8], _: u64, king: bool) {
        if path.len() > self.best {
            self.best = path.len();
            self.moves.clear();
        }
        if path.len() == self.best {
            self.moves.push(DefinedMove {
                from: from as usize,
                path: path.iter().map(|&c| usize::from(c)).collect(),
                captured: captured.iter().map(|&c| usize::from(c)).collect(),
                becomes: if king { KING } else { MAN },
            });
        }
    }
}

/// The capture search of one piece. A piece is taken at most once and leaves the board at once, so a route has
/// at most 63 captures and the arrays always have room.
struct Search<'a, S> {
    /// Every piece still on the board, less the mover.
    occupied: u64,
    /// The opponent's pieces not yet taken.
    them: u64,
    side: usize,
    from: u32,
    path: [u8; 64],
    captured: [u8; 64],
    len: usize,
    sink: &'a mut S,
}

impl<S: Sink> Search<'_, S> {
    fn take(&mut self, over: u32) {
        self.occupied &= !(1 << over);
        self.them &= !(1 << over);
        self.captured[self.len] = over as u8;
    }

    fn put_back(&mut self, over: u32) {
        self.occupied |= 1 << over;
        self.them |= 1 << over;
    }

    fn finish(&mut self, king: bool) {
        if self.len == 0 {
            return;
        }
        let taken = self.captured[..self.len]
            .iter()
            .fold(0u64, |set, &c| set | 1 << c);
        self.sink.route(
            self.from,
            &self.path[..self.len],
            &self.captured[..self.len],
            taken,
            king,
        );
    }

    /// Goes on with a man standing on `at`: every jump over the next square forward or sideways to the empty one
    /// behind it. A man cannot turn back: a sideways jump back would cross the square of the piece it just took,
    /// now empty. It is crowned only where the capture ends, and goes on along the far row as a man.
    fn man(&mut self, at: u32) {
        let mut ended = true;
        for d in MAN_DIRECTIONS[self.side] {
            let over = shift(1 << at, d) & self.them;
            let land = shift(over, d) & !self.occupied;
            if land == 0 {
                continue;
            }
            ended = false;
            self.take(over.trailing_zeros());
            self.path[self.len] = land.trailing_zeros() as u8;
            self.len += 1;
            self.man(land.trailing_zeros());
            self.len -= 1;
            self.put_back(over.trailing_zeros());
        }
        if ended {
            self.finish(FAR_ROW[self.side] & 1 << at != 0);
        }
    }

    /// Goes on with a king standing on `at`, having come in direction `came`: every jump along a line over the
    /// first piece on it, an opponent's with an empty square behind, to any empty square before the next piece.
    ///
    /// From the landings after the first (`first` false), going on straight ahead takes the same pieces in the
    /// same order to the same ends as from the first: those routes are one move, listed from the first landing
    /// as the general generator lists them, so they are not searched again. The landing still does not end the
    /// route, since the capture can go on.
    fn king(&mut self, at: u32, came: Option<usize>, first: bool) {
        let mut ended = true;
        for d in KING_DIRECTIONS[self.side] {
            if came == Some(reverse(d)) {
                continue;
            }
            let block = RAYS[d][at as usize] & self.occupied;
            if block == 0 {
                continue;
            }
            let over = nearest(block, d);
            if self.them & 1 << over == 0 {
                continue;
            }
            let landings = open(RAYS[d][over as usize], self.occupied, d);
            if landings == 0 {
                continue;
            }
            ended = false;
            if !first && came == Some(d) {
                continue;
            }
            self.take(over);
            let mut nearest_landing = true;
            each_along(landings, d, |land| {
                self.path[self.len] = land as u8;
                self.len += 1;
                self.king(land, Some(d), nearest_landing);
                self.len -= 1;
                nearest_landing = false;
            });
            self.put_back(over);
        }
        if ended {
            self.finish(true);
        }
    }
}

/// Every legal move, as [`legal_moves_general`](super::legal_moves_general) gives them for these rules; no move
/// for a position that does not fit them.
pub(super) fn legal_moves(pos: &DefinedPosition) -> Vec<DefinedMove> {
    let Some(board) = TurkishPosition::of(pos) else {
        return Vec::new();
    };
    if board.can_capture() {
        let mut routes = Routes::default();
        board.captures(&mut routes);
        return routes.moves;
    }
    let mut moves = Vec::new();
    board.quiet_moves(|step| {
        moves.push(DefinedMove {
            from: step.from as usize,
            path: vec![step.to as usize],
            captured: Vec::new(),
            becomes: if step.king { KING } else { MAN },
        });
    });
    moves
}

/// The number of move sequences `depth` plies deep, counted as [`perft_general`](super::perft_general) counts
/// them for these rules.
pub(super) fn perft(pos: &DefinedPosition, depth: u32) -> u64 {
    match TurkishPosition::of(pos) {
        _ if depth == 0 => 1,
        Some(board) => count(&board, depth),
        None => 0,
    }
}

fn count(board: &TurkishPosition, depth: u32) -> u64 {
    if board.can_capture() {
        if depth == 1 {
            let mut count = Count::default();
            board.captures(&mut count);
            return count.count;
        }
        let mut steps = MostTaken::default();
        board.captures(&mut steps);
        return steps
            .steps
            .iter()
            .map(|step| count(&board.play(step), depth - 1))
            .sum();
    }
    if depth == 1 {
        return board.quiet_count();
    }
    let mut total = 0;
    board.quiet_moves(|step| total += count(&board.play(&step), depth - 1));
    total
}
