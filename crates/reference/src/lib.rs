//! A slow, plainly written move generator for every draughts variant, for checking the fast one against.
//!
//! It is written from the rules text, not from `crates/rules/src/movegen`: the rules of a variant are plain data
//! ([`RefRules`]), the board is a square array of cells indexed by (row, column) ([`Board`]), and a capture is
//! found by trying every jump from every square, one at a time, recursively. Nothing is clever and nothing is
//! fast, so that each rule can be read off the code: if this generator and the bitboard one agree on many
//! positions, both are right, because they share no code and no idea beyond the rules.
//!
//! Conventions, as in the rest of the project: row 0 is the top of the diagram (Black's side, squares 1.. at the
//! top), Black's men move down (increasing row) and White's up; squares are numbered row by row from the top,
//! left to right, dark squares only, as [`Geometry::at`] numbers them.
//!
//! The generator lists full routes ([`RefMove`]): every landing square, and the captured pieces in the order they
//! were taken. The keys the fast generator is compared on ([`RefMove::order_key`], [`RefMove::set_key`]) are
//! derived from them.
//!
//! It is a crate of its own, used only by the tests, so that it can be built with full optimisation while the
//! tests are not: its trees are the longest part of the rules' tests (see the tests' profile in the workspace's
//! `Cargo.toml`). [`compare`] holds the comparison with the fast generator, and [`positions`] the random positions
//! and games it is made on.

#![deny(missing_docs)]

pub mod compare;
pub mod positions;

use std::collections::BTreeSet;
use std::fmt;

use crowned_rules::{Color, Geometry, Piece, Position, Role, RuleSet, Square};

/// What happens when a man reaches the far row in the middle of a capture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Crowning {
    /// It is crowned there and the move ends, even if it could take more (English, and every variant where men
    /// capture forwards only).
    EndsMove,
    /// It is crowned there and goes on capturing in the same move as a king (Russian).
    ContinuesAsKing,
    /// It goes on capturing as a man; it is crowned only if the move ends on the far row (international,
    /// Brazilian, Canadian, pool).
    OnlyAtEnd,
}

/// Which of the legal capture sequences the player may choose from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefPrecedence {
    /// Any capture sequence (English, Russian, pool, Thai).
    FreeChoice,
    /// Only the sequences taking the most pieces, kings counting as one (international, Brazilian, Canadian).
    MostPieces,
    /// The most pieces; among those, the most kings (Spanish).
    MostPiecesThenKings,
    /// If a king can capture, a king must (men's captures are then illegal); otherwise free choice (Czech).
    KingFirst,
    /// Italian: the most pieces; then a capture by a king before one by a man; then the most kings taken; then
    /// the sequence that takes a king earliest.
    Italian,
}

/// The rules of one variant as plain data: everything the generator needs to know, nothing else.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RefRules {
    /// Squares along each side of the (square) board: an even number from 6 to 14.
    pub size: u8,
    /// Rows of men each side starts with.
    pub rows: u8,
    /// Whether the board is seen in a mirror (Italian, Spanish): a1 light, squares numbered left to right as
    /// the players see it. Only the start position's squares depend on it.
    pub mirrored: bool,
    /// The side that makes the first move of a game.
    pub first: Color,
    /// Men capture backwards as well as forwards (they always move forwards only).
    pub men_capture_backwards: bool,
    /// Kings move along whole diagonals rather than one square at a time, and capture at a distance.
    pub flying_kings: bool,
    /// A flying king that captures lands on the square right behind the piece taken, never further (Thai).
    pub king_lands_right_behind: bool,
    /// Each captured piece leaves the board as soon as it is jumped, so its square can be crossed again in the
    /// same move (Thai); otherwise captured pieces stay, blocking the way, until the move ends.
    pub captured_removed_at_once: bool,
    /// A king may turn back the way it came straight after a capture. It only matters when captured pieces are
    /// removed at once: otherwise the piece just taken stands in the way back. The sources on Thai draughts
    /// differ; the switch lets both readings be tested.
    pub king_may_reverse: bool,
    /// Men may capture kings (false in Italian draughts, where only a king takes a king).
    pub men_capture_kings: bool,
    /// What a man does on reaching the far row during a capture.
    pub crowning: Crowning,
    /// Which capture sequences may be chosen.
    pub precedence: RefPrecedence,
}

impl RefRules {
    /// English draughts on a `size` x `size` board: men capture forwards only, short kings, crowning ends a
    /// capture, free choice, Black first, `size / 2 - 1` rows of men (3 on 8x8).
    pub const fn english(size: u8) -> RefRules {
        RefRules {
            size,
            mirrored: false,
            rows: size / 2 - 1,
            first: Color::Black,
            men_capture_backwards: false,
            flying_kings: false,
            king_lands_right_behind: false,
            captured_removed_at_once: false,
            king_may_reverse: true,
            men_capture_kings: true,
            crowning: Crowning::EndsMove,
            precedence: RefPrecedence::FreeChoice,
        }
    }

    /// International draughts (10x10, 4 rows): men capture backwards, flying kings, a man crowned only where
    /// its capture ends, the most pieces must be taken, White first.
    pub const fn international() -> RefRules {
        RefRules {
            size: 10,
            mirrored: false,
            rows: 4,
            first: Color::White,
            men_capture_backwards: true,
            flying_kings: true,
            crowning: Crowning::OnlyAtEnd,
            precedence: RefPrecedence::MostPieces,
            ..RefRules::english(10)
        }
    }

    /// Brazilian draughts: the international rules on 8x8 (3 rows).
    pub const fn brazilian() -> RefRules {
        RefRules {
            size: 8,
            mirrored: false,
            rows: 3,
            ..RefRules::international()
        }
    }

    /// Canadian draughts: the international rules on 12x12 (5 rows).
    pub const fn canadian() -> RefRules {
        RefRules {
            size: 12,
            mirrored: false,
            rows: 5,
            ..RefRules::international()
        }
    }

    /// Russian draughts (8x8): as Brazilian, but free choice, and a man reaching the far row in a capture is
    /// crowned at once and goes on as a flying king.
    pub const fn russian() -> RefRules {
        RefRules {
            crowning: Crowning::ContinuesAsKing,
            precedence: RefPrecedence::FreeChoice,
            ..RefRules::brazilian()
        }
    }

    /// Pool checkers (8x8): men capture backwards, flying kings, free choice, a man passing the far row in a
    /// capture goes on as a man, Black first.
    pub const fn pool() -> RefRules {
        RefRules {
            first: Color::Black,
            precedence: RefPrecedence::FreeChoice,
            ..RefRules::brazilian()
        }
    }

    /// The 8x8 variants whose men capture forwards only and whose kings fly; crowning ends the move. Czech,
    /// Spanish and Thai differ from it in one or two fields.
    const fn flying_forward_only() -> RefRules {
        RefRules {
            first: Color::White,
            flying_kings: true,
            ..RefRules::english(8)
        }
    }

    /// Czech draughts (8x8): men capture forwards only, flying kings, a king must capture if one can.
    pub const fn czech() -> RefRules {
        RefRules {
            precedence: RefPrecedence::KingFirst,
            ..RefRules::flying_forward_only()
        }
    }

    /// Spanish draughts (8x8): men capture forwards only, flying kings, the most pieces and then the most kings
    /// must be taken.
    pub const fn spanish() -> RefRules {
        RefRules {
            precedence: RefPrecedence::MostPiecesThenKings,
            mirrored: true,
            ..RefRules::flying_forward_only()
        }
    }

    /// Italian draughts (8x8): men capture forwards only and never take kings, short kings, the Italian order
    /// of precedence, White first.
    pub const fn italian() -> RefRules {
        RefRules {
            first: Color::White,
            men_capture_kings: false,
            precedence: RefPrecedence::Italian,
            mirrored: true,
            ..RefRules::english(8)
        }
    }

    /// Thai draughts (8x8, 2 rows): men capture forwards only, kings fly when moving but land right behind the
    /// piece they take, captured pieces leave the board at once, free choice, White first. A king may turn back
    /// after a capture, as Halbersma's dctl reads the rules (its published perft counts do not tell the two
    /// readings apart up to depth 11); see [`RefRules::king_may_reverse`].
    pub const fn thai() -> RefRules {
        RefRules {
            rows: 2,
            king_lands_right_behind: true,
            captured_removed_at_once: true,
            king_may_reverse: true,
            ..RefRules::flying_forward_only()
        }
    }

    /// The row on which a man of `color` is crowned.
    pub const fn far_row(&self, color: Color) -> i32 {
        match color {
            Color::Black => self.size as i32 - 1,
            Color::White => 0,
        }
    }

    /// The row step of a man of `color` moving forwards.
    pub const fn forward(color: Color) -> i32 {
        match color {
            Color::Black => 1,
            Color::White => -1,
        }
    }
}

/// The four diagonal steps as (row, column) changes.
pub const DIAGONALS: [(i32, i32); 4] = [(-1, -1), (-1, 1), (1, -1), (1, 1)];

/// The most cells a board has: 16 x 16, beyond every board the program plays.
const MAX_CELLS: usize = 256;

/// A position for the reference generator: a square array of cells and the side to move.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Board {
    /// Which squares are playable and how they are numbered.
    pub geometry: Geometry,
    /// Row-major cells, `size * size` of them used; light squares and the unused rest are always `None`. A
    /// fixed array rather than a vector: the trees and perft counts make a board at every node, and allocating
    /// them was most of the tests' time.
    cells: [Option<Piece>; MAX_CELLS],
    /// Whose turn it is.
    pub side: Color,
}

impl Board {
    /// An empty board of `geometry` with `side` to move.
    pub fn empty(geometry: Geometry, side: Color) -> Board {
        assert_eq!(geometry.width, geometry.height, "boards are square");
        assert!(
            geometry.width as usize * geometry.height as usize <= MAX_CELLS,
            "boards up to 16 x 16"
        );
        Board {
            geometry,
            cells: [None; MAX_CELLS],
            side,
        }
    }

    /// The board of a `size` x `size` game, numbered as [`Geometry::at`] numbers it.
    pub fn empty_of_size(size: u8, side: Color) -> Board {
        Board::empty(Geometry::square(size), side)
    }

    /// The start of a game under `rules`, built from the rules alone: `rows` rows of black men at the top,
    /// as many white ones at the bottom, `first` to move.
    pub fn start(rules: &RefRules) -> Board {
        let geometry = Geometry {
            mirrored: rules.mirrored,
            ..Geometry::square(rules.size)
        };
        let mut board = Board::empty(geometry, rules.first);
        for (row, col) in board.dark_squares() {
            if row < rules.rows as i32 {
                board.set((row, col), Some(Piece::new(Color::Black, Role::Man)));
            } else if row >= rules.size as i32 - rules.rows as i32 {
                board.set((row, col), Some(Piece::new(Color::White, Role::Man)));
            }
        }
        board
    }

    /// The pieces and side to move of a position of the fast generator, and nothing else.
    pub fn from_position<R: RuleSet>(pos: &Position<R>) -> Board {
        let g = R::GEOMETRY;
        let mut board = Board::empty(g, pos.side_to_move());
        for (square, piece) in pos.pieces() {
            let (row, col) = g.row_col(square);
            board.set((row as i32, col as i32), Some(piece));
        }
        board
    }

    /// A board from PDN FEN such as `W:W18,24,K27:B12,16` (ranges `1-12` allowed), on a `size` x `size` board.
    /// Read here rather than by the library so that positions the library does not accept (more pieces than a
    /// variant starts with, boards it has no type for) can be given to the reference. Panics on bad input: it
    /// reads test data.
    pub fn from_fen(size: u8, fen: &str) -> Board {
        let mut fields = fen.trim().trim_end_matches('.').split(':');
        let side = match fields.next() {
            Some("W") => Color::White,
            Some("B") => Color::Black,
            other => panic!("bad side to move {other:?} in {fen:?}"),
        };
        let mut board = Board::empty_of_size(size, side);
        for field in fields {
            let (color, list) = match field.split_at(1) {
                ("W", list) => (Color::White, list),
                ("B", list) => (Color::Black, list),
                _ => panic!("bad field {field:?} in {fen:?}"),
            };
            for entry in list.split(',').filter(|e| !e.is_empty()) {
                let (role, numbers) = match entry.strip_prefix('K') {
                    Some(rest) => (Role::King, rest),
                    None => (Role::Man, entry),
                };
                let (first, last) = match numbers.split_once('-') {
                    Some((a, b)) => (a, b),
                    None => (numbers, numbers),
                };
                let first: u32 = first.parse().expect("square number");
                let last: u32 = last.parse().expect("square number");
                for number in first..=last {
                    let at = board.coords(number);
                    assert!(board.get(at).is_none(), "square {number} twice in {fen:?}");
                    board.set(at, Some(Piece::new(color, role)));
                }
            }
        }
        board
    }

    /// Squares along each side.
    pub fn size(&self) -> i32 {
        self.geometry.width as i32
    }

    /// Whether (row, col) is a playable square of this board.
    pub fn is_dark(&self, (row, col): (i32, i32)) -> bool {
        row >= 0
            && col >= 0
            && row < self.size()
            && col < self.size()
            && self.geometry.at(row as u32, col as u32).is_some()
    }

    /// Every playable square, row by row.
    pub fn dark_squares(&self) -> Vec<(i32, i32)> {
        let n = self.size();
        (0..n)
            .flat_map(|row| (0..n).map(move |col| (row, col)))
            .filter(|&at| self.is_dark(at))
            .collect()
    }

    /// The number of a playable square.
    pub fn number(&self, (row, col): (i32, i32)) -> u32 {
        self.geometry
            .at(row as u32, col as u32)
            .expect("a playable square")
            .number()
    }

    /// The (row, col) of square `number`.
    pub fn coords(&self, number: u32) -> (i32, i32) {
        let square = Square::from_number(number, self.geometry.squares())
            .unwrap_or_else(|| panic!("no square {number} on a {0}x{0} board", self.size()));
        let (row, col) = self.geometry.row_col(square);
        (row as i32, col as i32)
    }

    /// The piece on a square; `None` for an empty square and for anything off the board.
    pub fn get(&self, at: (i32, i32)) -> Option<Piece> {
        if self.is_dark(at) {
            self.cells[(at.0 * self.size() + at.1) as usize]
        } else {
            None
        }
    }

    /// Puts a piece on (or clears) a playable square.
    pub fn set(&mut self, at: (i32, i32), piece: Option<Piece>) {
        assert!(self.is_dark(at), "{at:?} is not a playable square");
        let size = self.size();
        self.cells[(at.0 * size + at.1) as usize] = piece;
    }

    /// Every piece of `color` with its square.
    pub fn pieces_of(&self, color: Color) -> Vec<((i32, i32), Piece)> {
        // Light squares are always empty, so a scan of the cells finds only playable ones, row by row.
        let size = self.size();
        self.cells[..(size * size) as usize]
            .iter()
            .enumerate()
            .filter_map(|(i, cell)| cell.map(|p| (((i as i32) / size, (i as i32) % size), p)))
            .filter(|(_, p)| p.color == color)
            .collect()
    }

    /// The board after `mv` (one of this board's legal routes): the piece moves, the captured pieces go, a
    /// man is crowned if the route says so, and the turn passes.
    pub fn after(&self, mv: &RefMove) -> Board {
        let mut next = self.clone();
        let from = self.coords(mv.from);
        let piece = self.get(from).expect("a piece on the start square");
        next.set(from, None);
        for &number in &mv.captured {
            next.set(self.coords(number), None);
        }
        let role = if mv.crowns { Role::King } else { piece.role };
        next.set(self.coords(mv.to()), Some(Piece::new(piece.color, role)));
        next.side = self.side.opponent();
        next
    }
}

/// A diagram as [`Position`]'s: `b`/`w` men, `B`/`W` kings, `.` empty dark squares, then the side to move.
impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in 0..self.size() {
            let line: String = (0..self.size())
                .map(|col| {
                    let cell = if !self.is_dark((row, col)) {
                        ' '
                    } else {
                        match self.get((row, col)) {
                            None => '.',
                            Some(Piece { color, role }) => match (color, role) {
                                (Color::Black, Role::Man) => 'b',
                                (Color::Black, Role::King) => 'B',
                                (Color::White, Role::Man) => 'w',
                                (Color::White, Role::King) => 'W',
                            },
                        }
                    };
                    format!("{cell} ")
                })
                .collect();
            writeln!(f, "{}", line.trim_end())?;
        }
        write!(f, "{} to move", self.side)
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "\n{self}")
    }
}

/// A legal move as a full route.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RefMove {
    /// The start square's number.
    pub from: u32,
    /// Every landing square in order (one for a simple move, one per piece taken for a capture).
    pub path: Vec<u32>,
    /// The squares of the pieces taken, in the order they were taken.
    pub captured: Vec<u32>,
    /// For each piece taken, in the same order, whether it was a king.
    pub captured_kings: Vec<bool>,
    /// The moving piece was a king when the move began.
    pub by_king: bool,
    /// The moving man is a king at the end of the move.
    pub crowns: bool,
}

/// A move as `legal_moves_with_duplicates` tells moves apart: start, pieces in the order taken, end.
pub type OrderKey = (u32, Vec<u32>, u32);

/// A move as `legal_moves` tells moves apart: start, set of pieces taken, end.
pub type SetKey = (u32, BTreeSet<u32>, u32);

impl RefMove {
    /// The end square's number.
    pub fn to(&self) -> u32 {
        *self.path.last().expect("a move lands somewhere")
    }

    /// Whether the move takes pieces.
    pub fn is_capture(&self) -> bool {
        !self.captured.is_empty()
    }

    /// How many kings the move takes.
    pub fn kings_taken(&self) -> usize {
        self.captured_kings.iter().filter(|&&k| k).count()
    }

    /// Start, captured pieces in order, end.
    pub fn order_key(&self) -> OrderKey {
        (self.from, self.captured.clone(), self.to())
    }

    /// Start, set of captured pieces, end.
    pub fn set_key(&self) -> SetKey {
        (
            self.from,
            self.captured.iter().copied().collect(),
            self.to(),
        )
    }

    /// The route in the usual notation, `9x2x11` or `22-18`.
    pub fn text(&self) -> String {
        let sep = if self.is_capture() { "x" } else { "-" };
        let mut text = self.from.to_string();
        for square in &self.path {
            text.push_str(sep);
            text.push_str(&square.to_string());
        }
        text
    }
}

/// Every legal move of the side to move under `rules`, as full routes: each way of making a capture is listed
/// (two routes that differ only in where a flying king stopped between captures are two entries). Captures are
/// compulsory, so if there is any, only captures are listed, and only those the precedence rule allows.
pub fn legal_routes(rules: &RefRules, board: &Board) -> Vec<RefMove> {
    assert_eq!(
        rules.size as i32,
        board.size(),
        "rules for another board size"
    );
    let mut captures = Vec::new();
    for (at, piece) in board.pieces_of(board.side) {
        captures.extend(CaptureSearch::new(rules, board, at, piece).routes());
    }
    if captures.is_empty() {
        simple_moves(rules, board)
    } else {
        preferred(rules, captures)
    }
}

/// The moves that take nothing: a man one step diagonally forwards, a king one step in any diagonal direction,
/// or any distance along empty squares if kings fly. Only when no capture is possible.
fn simple_moves(rules: &RefRules, board: &Board) -> Vec<RefMove> {
    let mut moves = Vec::new();
    for (from, piece) in board.pieces_of(board.side) {
        let mut add = |to: (i32, i32)| {
            let crowns = piece.role == Role::Man && to.0 == rules.far_row(piece.color);
            moves.push(RefMove {
                from: board.number(from),
                path: vec![board.number(to)],
                captured: Vec::new(),
                captured_kings: Vec::new(),
                by_king: piece.role == Role::King,
                crowns,
            });
        };
        match piece.role {
            Role::Man => {
                let dr = RefRules::forward(piece.color);
                for dc in [-1, 1] {
                    let to = (from.0 + dr, from.1 + dc);
                    if board.is_dark(to) && board.get(to).is_none() {
                        add(to);
                    }
                }
            }
            Role::King => {
                for (dr, dc) in DIAGONALS {
                    let mut to = (from.0 + dr, from.1 + dc);
                    while board.is_dark(to) && board.get(to).is_none() {
                        add(to);
                        if !rules.flying_kings {
                            break;
                        }
                        to = (to.0 + dr, to.1 + dc);
                    }
                }
            }
        }
    }
    moves
}

/// Keeps the capture sequences the precedence rule allows.
fn preferred(rules: &RefRules, captures: Vec<RefMove>) -> Vec<RefMove> {
    match rules.precedence {
        RefPrecedence::FreeChoice => captures,
        RefPrecedence::MostPieces => keep_best(captures, |m| m.captured.len()),
        RefPrecedence::MostPiecesThenKings => {
            keep_best(captures, |m| (m.captured.len(), m.kings_taken()))
        }
        RefPrecedence::KingFirst => {
            if captures.iter().any(|m| m.by_king) {
                captures.into_iter().filter(|m| m.by_king).collect()
            } else {
                captures
            }
        }
        // Compared in the order the rules give: count, then king over man, then kings taken, then the kings'
        // places in the order of capture (a king taken where the other takes a man wins; `true > false`).
        RefPrecedence::Italian => keep_best(captures, |m| {
            (
                m.captured.len(),
                m.by_king,
                m.kings_taken(),
                m.captured_kings.clone(),
            )
        }),
    }
}

/// The moves whose `key` is the greatest.
fn keep_best<K: Ord>(moves: Vec<RefMove>, key: impl Fn(&RefMove) -> K) -> Vec<RefMove> {
    let best = moves.iter().map(&key).max();
    moves.into_iter().filter(|m| Some(key(m)) == best).collect()
}

/// Every complete capture sequence of one piece, found by trying every jump in turn.
struct CaptureSearch<'a> {
    rules: &'a RefRules,
    /// The board during the move: the moving piece is lifted off its start square (which counts as empty from
    /// then on), and with [`RefRules::captured_removed_at_once`] each captured piece is cleared when jumped.
    board: Board,
    /// Pieces already jumped that still stand on the board (cells row-major): they block the way and cannot be
    /// jumped again.
    taken: [bool; MAX_CELLS],
    color: Color,
    from: (i32, i32),
    by_king: bool,
    path: Vec<u32>,
    captured: Vec<u32>,
    captured_kings: Vec<bool>,
}

/// One jump the moving piece can make: over which piece, in which direction, and the squares it may land on.
struct Jump {
    dir: (i32, i32),
    over: (i32, i32),
    landings: Vec<(i32, i32)>,
}

impl<'a> CaptureSearch<'a> {
    fn new(rules: &'a RefRules, board: &Board, from: (i32, i32), piece: Piece) -> Self {
        let mut lifted = board.clone();
        lifted.set(from, None);
        CaptureSearch {
            rules,
            taken: [false; MAX_CELLS],
            board: lifted,
            color: piece.color,
            from,
            by_king: piece.role == Role::King,
            path: Vec::new(),
            captured: Vec::new(),
            captured_kings: Vec::new(),
        }
    }

    /// Every complete sequence from the start square.
    fn routes(mut self) -> Vec<RefMove> {
        let role = if self.by_king { Role::King } else { Role::Man };
        let mut out = Vec::new();
        self.go_on(self.from, role, None, &mut out);
        out
    }

    fn is_taken(&self, at: (i32, i32)) -> bool {
        self.taken[(at.0 * self.board.size() + at.1) as usize]
    }

    /// A playable square with nothing on it (a piece already taken but not yet removed is something).
    fn is_empty(&self, at: (i32, i32)) -> bool {
        self.board.is_dark(at) && self.board.get(at).is_none()
    }

    /// Whether the moving piece, now a `role`, may jump the piece on `at`: an opponent's piece not taken yet,
    /// and not a king if men may not take kings.
    fn can_take(&self, at: (i32, i32), role: Role) -> bool {
        match self.board.get(at) {
            Some(p) => {
                p.color != self.color
                    && !self.is_taken(at)
                    && (role == Role::King || p.role == Role::Man || self.rules.men_capture_kings)
            }
            None => false,
        }
    }

    /// The jumps a piece of `role` standing on `at` can make; `came` is the direction of the jump that brought
    /// it there, if any.
    fn jumps(&self, at: (i32, i32), role: Role, came: Option<(i32, i32)>) -> Vec<Jump> {
        let forward = RefRules::forward(self.color);
        let mut jumps = Vec::new();
        for dir in DIAGONALS {
            let (dr, dc) = dir;
            if role == Role::Man && !self.rules.men_capture_backwards && dr != forward {
                continue;
            }
            if role == Role::King && !self.rules.king_may_reverse && came == Some((-dr, -dc)) {
                continue;
            }
            let step = |(r, c): (i32, i32)| (r + dr, c + dc);
            if role == Role::King && self.rules.flying_kings {
                // Look along the diagonal past empty squares to the first piece.
                let mut over = step(at);
                while self.is_empty(over) {
                    over = step(over);
                }
                if !self.can_take(over, role) {
                    continue;
                }
                let mut landings = Vec::new();
                let mut land = step(over);
                while self.is_empty(land) {
                    landings.push(land);
                    if self.rules.king_lands_right_behind {
                        break;
                    }
                    land = step(land);
                }
                if !landings.is_empty() {
                    jumps.push(Jump {
                        dir,
                        over,
                        landings,
                    });
                }
            } else {
                // A man, or a short king: the piece next to it, and the square right behind.
                let over = step(at);
                let land = step(over);
                if self.can_take(over, role) && self.is_empty(land) {
                    jumps.push(Jump {
                        dir,
                        over,
                        landings: vec![land],
                    });
                }
            }
        }
        jumps
    }

    /// Continues the sequence from `at`, where the piece (now a `role`) has just landed after jumping in
    /// direction `came`: tries every further jump, and records the sequence as complete if there is none.
    fn go_on(
        &mut self,
        at: (i32, i32),
        role: Role,
        came: Option<(i32, i32)>,
        out: &mut Vec<RefMove>,
    ) {
        let jumps = self.jumps(at, role, came);
        if jumps.is_empty() {
            if !self.captured.is_empty() {
                out.push(self.finished(at, role));
            }
            return;
        }
        let taken_before = self.captured.len();
        for jump in jumps {
            let piece = self.board.get(jump.over).expect("a piece to jump");
            self.captured.push(self.board.number(jump.over));
            self.captured_kings.push(piece.role == Role::King);
            if self.rules.captured_removed_at_once {
                self.board.set(jump.over, None);
            } else {
                let i = (jump.over.0 * self.board.size() + jump.over.1) as usize;
                self.taken[i] = true;
            }
            let mut from_here = Vec::new();
            for land in jump.landings {
                self.path.push(self.board.number(land));
                let reaches_far_row = role == Role::Man && land.0 == self.rules.far_row(self.color);
                match (reaches_far_row, self.rules.crowning) {
                    (true, Crowning::EndsMove) => {
                        from_here.push(self.finished(land, Role::King));
                    }
                    (true, Crowning::ContinuesAsKing) => {
                        self.go_on(land, Role::King, Some(jump.dir), &mut from_here);
                    }
                    _ => self.go_on(land, role, Some(jump.dir), &mut from_here),
                }
                self.path.pop();
            }
            // The capture must be continued while possible: of the landing squares beyond this piece, those
            // from which the sequence goes on are the only ones allowed if there are any.
            let continues = from_here
                .iter()
                .any(|m| m.captured.len() > taken_before + 1);
            out.extend(
                from_here
                    .into_iter()
                    .filter(|m| !continues || m.captured.len() > taken_before + 1),
            );
            if self.rules.captured_removed_at_once {
                self.board.set(jump.over, Some(piece));
            } else {
                let i = (jump.over.0 * self.board.size() + jump.over.1) as usize;
                self.taken[i] = false;
            }
            self.captured.pop();
            self.captured_kings.pop();
        }
    }

    /// The sequence so far, ending on `at` with the piece now a `role`. A man is crowned if it became a king on
    /// the way or ends on the far row.
    fn finished(&self, at: (i32, i32), role: Role) -> RefMove {
        let crowns =
            !self.by_king && (role == Role::King || at.0 == self.rules.far_row(self.color));
        RefMove {
            from: self.board.number(self.from),
            path: self.path.clone(),
            captured: self.captured.clone(),
            captured_kings: self.captured_kings.clone(),
            by_king: self.by_king,
            crowns,
        }
    }
}

/// The number of move sequences of `depth` plies from `board`, counting moves as the published perft tables do
/// (one per start, end and order of capture), found by the reference alone.
pub fn perft(rules: &RefRules, board: &Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    // One move per start, pieces taken in order and end (see `OrderKey`): sorted by that key, the routes that
    // differ only in where a flying king stopped between captures lie side by side.
    fn key(m: &RefMove) -> (u32, &[u32], u32) {
        (m.from, &m.captured, m.to())
    }
    let mut moves = legal_routes(rules, board);
    moves.sort_by(|a, b| key(a).cmp(&key(b)));
    moves.dedup_by(|a, b| key(a) == key(b));
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|m| perft(rules, &board.after(m), depth - 1))
        .sum()
}
