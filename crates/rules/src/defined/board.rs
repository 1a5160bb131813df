//! A position of a loaded definition as a small `Copy` value, so that it travels where built-in positions do.
//!
//! Squares are the playable cells numbered row by row from the top left ([`Registered::cells`]), so a
//! [`Move`] (one byte per square, a 128-bit set of captures) carries a defined move unchanged. Each square holds
//! one byte: 0 for empty, else `1 + 2 * kind + side` (side 1 for White). The generator itself works on
//! [`DefinedPosition`]; this board converts to and from it.

use std::fmt;

use super::position::{DefinedMove, DefinedPosition, Occupant};
use super::registry::{DefinedId, MAX_PLAY_SQUARES, Registered};
use super::{legal_moves, perft};
use crate::{Color, MAX_PATH, Move, MoveList, Square};

/// A position of a defined variant: its id, the side to move and what stands on each square.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct DefinedBoard {
    id: DefinedId,
    side: Color,
    squares: [u8; MAX_PLAY_SQUARES],
}

fn encode(occupant: Option<Occupant>) -> u8 {
    match occupant {
        None => 0,
        Some((color, kind)) => 1 + 2 * kind as u8 + color.index() as u8,
    }
}

fn decode(byte: u8) -> Option<Occupant> {
    let code = byte.checked_sub(1)?;
    let color = if code & 1 == 1 {
        Color::White
    } else {
        Color::Black
    };
    Some((color, usize::from(code / 2)))
}

impl DefinedBoard {
    /// The start of a game.
    pub fn start(id: DefinedId) -> DefinedBoard {
        let entry = id.get();
        DefinedBoard::from_position(id, &DefinedPosition::start(&entry.rules))
    }

    /// An empty board with `side` to move.
    pub fn empty(id: DefinedId, side: Color) -> DefinedBoard {
        DefinedBoard {
            id,
            side,
            squares: [0; MAX_PLAY_SQUARES],
        }
    }

    /// The board of a generator position of the same definition.
    pub fn from_position(id: DefinedId, pos: &DefinedPosition) -> DefinedBoard {
        let mut board = DefinedBoard::empty(id, pos.side);
        for (square, &cell) in id.get().cells.iter().enumerate() {
            board.squares[square] = encode(pos.cells.get(cell).copied().flatten());
        }
        board
    }

    /// The generator's position for this board.
    pub fn to_position(&self) -> DefinedPosition {
        let entry = self.entry();
        let mut pos = DefinedPosition::empty(&entry.rules, self.side);
        for (square, &cell) in entry.cells.iter().enumerate() {
            pos.cells[cell] = decode(self.squares[square]);
        }
        pos
    }

    /// The definition's id.
    pub fn id(&self) -> DefinedId {
        self.id
    }

    /// The definition.
    pub fn entry(&self) -> &'static Registered {
        self.id.get()
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The same pieces with another side to move.
    pub fn with_side_to_move(mut self, side: Color) -> DefinedBoard {
        self.side = side;
        self
    }

    /// What stands on a square: side and kind.
    pub fn occupant(&self, square: Square) -> Option<Occupant> {
        self.squares
            .get(usize::from(square.index()))
            .copied()
            .and_then(decode)
    }

    /// Puts a piece on a square (or empties it); `false` if the square or the kind is not of this definition.
    pub fn set_occupant(&mut self, square: Square, occupant: Option<Occupant>) -> bool {
        let entry = self.entry();
        let fits = occupant.is_none_or(|(_, kind)| kind < entry.rules.kinds.len());
        if usize::from(square.index()) >= entry.square_count() || !fits {
            return false;
        }
        self.squares[usize::from(square.index())] = encode(occupant);
        true
    }

    /// Every occupied square with what stands on it, in square order.
    pub fn occupants(&self) -> impl Iterator<Item = (Square, Occupant)> + '_ {
        let count = self.entry().square_count();
        self.squares[..count]
            .iter()
            .enumerate()
            .filter_map(|(i, &b)| decode(b).map(|o| (Square::from_index(i as u8), o)))
    }

    /// A generator move as a [`Move`] on squares; `None` for a route longer than a move holds (possible only in
    /// a set-up position with more than [`MAX_PATH`] pieces of a side).
    pub fn to_move(&self, mv: &DefinedMove) -> Option<Move> {
        let entry = self.entry();
        let square = |cell: usize| entry.squares.get(cell).copied().flatten();
        let from = Square::from_index(square(mv.from)?);
        let kind = self.occupant(from)?.1;
        let crowns = mv.becomes != kind;
        let mut path = Vec::with_capacity(mv.path.len());
        for &cell in &mv.path {
            path.push(Square::from_index(square(cell)?));
        }
        if mv.captured.is_empty() {
            return Some(Move::simple(from, *path.first()?, crowns));
        }
        if path.len() > MAX_PATH {
            return None;
        }
        let mut captured = 0u128;
        for &cell in &mv.captured {
            captured |= 1u128 << square(cell)?;
        }
        Some(Move::capture(from, &path, captured, crowns))
    }

    /// Every legal move with the generator's own move for it.
    pub fn moves_with_routes(&self) -> Vec<(Move, DefinedMove)> {
        let entry = self.entry();
        legal_moves(&entry.rules, &self.to_position())
            .into_iter()
            .filter_map(|m| self.to_move(&m).map(|mv| (mv, m)))
            .collect()
    }

    /// Every legal move.
    pub fn legal_moves(&self) -> MoveList {
        self.moves_with_routes()
            .into_iter()
            .map(|(m, _)| m)
            .collect()
    }

    /// The position after `mv`, if it is one of the legal moves; the same position otherwise.
    pub fn play(&self, mv: &Move) -> DefinedBoard {
        let entry = self.entry();
        let pos = self.to_position();
        legal_moves(&entry.rules, &pos)
            .iter()
            .find(|m| self.to_move(m).as_ref() == Some(mv))
            .map_or(*self, |m| {
                DefinedBoard::from_position(self.id, &pos.play(m))
            })
    }

    /// The winner, if the rules end the game here (no move, or a promotion where that wins).
    pub fn winner(&self) -> Option<Color> {
        self.to_position().winner(&self.entry().rules)
    }

    /// Whether the side to move must capture.
    pub fn must_capture(&self) -> bool {
        let moves = self.legal_moves();
        self.entry().rules.compulsory && moves.first().is_some_and(Move::is_capture)
    }

    /// Perft from this board, counted by the general generator.
    pub fn perft(&self, depth: u32) -> u64 {
        perft(&self.entry().rules, &self.to_position(), depth)
    }

    /// A move as players write it: coordinates joined by `-` for a quiet move, by `x` through every landing
    /// square for a capture (`a1-b2`, `a1xc3xe5`).
    pub fn write_move(&self, mv: &Move) -> String {
        let entry = self.entry();
        let sep = if mv.is_capture() { 'x' } else { '-' };
        let mut out = entry.square_name(mv.from().index());
        for s in mv.path() {
            out.push(sep);
            out.push_str(&entry.square_name(s.index()));
        }
        out
    }
}

impl fmt::Display for DefinedBoard {
    /// The generator's diagram: letters, `.` for an empty square, `#` for a hole.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_position().diagram(&self.entry().rules))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::defined::{BUILTINS, from_fen, parse_move, register, to_fen};

    fn load(text: &str) -> DefinedId {
        register(text).expect("loads")
    }

    fn examples() -> Vec<DefinedId> {
        let english = BUILTINS
            .iter()
            .find(|(n, _)| *n == "english")
            .map(|(_, t)| *t);
        vec![
            load(include_str!("../../../../variants/leapers.toml")),
            load(include_str!("../../../../variants/holes.toml")),
            load(english.expect("english is built in")),
        ]
    }

    #[test]
    fn random_playouts_keep_fen_moves_and_the_generator_in_step() {
        let mut state = 11_u64;
        for id in examples() {
            for _ in 0..20 {
                let mut board = DefinedBoard::start(id);
                for _ in 0..60 {
                    let fen = to_fen(&board);
                    assert_eq!(from_fen(id, &fen), Ok(board), "{fen}");
                    // The board and the generator's position are the same position.
                    assert_eq!(DefinedBoard::from_position(id, &board.to_position()), board);
                    let moves = board.moves_with_routes();
                    assert_eq!(moves.len() as u64, board.perft(1));
                    if moves.is_empty() {
                        assert!(board.winner().is_some());
                        break;
                    }
                    for (mv, _) in &moves {
                        // Every move reads back from its own text.
                        assert_eq!(parse_move(&board, &board.write_move(mv)), Ok(*mv));
                    }
                    state = state
                        .wrapping_mul(6_364_136_223_846_793_005)
                        .wrapping_add(1);
                    let (mv, route) = &moves[(state >> 33) as usize % moves.len()];
                    let next = board.play(mv);
                    assert_ne!(next, board);
                    assert_eq!(next.to_position(), board.to_position().play(route));
                    board = next;
                }
            }
        }
    }

    #[test]
    fn fen_names_kinds_by_letter_and_refuses_what_is_not_on_the_board() {
        let holes = load(include_str!("../../../../variants/holes.toml"));
        let board = from_fen(holes, "B:Wa1,Kc1:Be5").expect("valid");
        assert_eq!(board.side_to_move(), Color::Black);
        assert_eq!(to_fen(&board), "B:Wa1,Kc1:Be5");
        // Squares run row by row from the top: a1 is 13 and c1 14 on this board of 16 squares.
        assert_eq!(
            board.occupant(Square::from_index(13)),
            Some((Color::White, 0))
        );
        assert_eq!(
            board.occupant(Square::from_index(14)),
            Some((Color::White, 1))
        );
        assert_eq!(board.entry().rules.kind_index("king"), Some(1));
        assert!(from_fen(holes, "B:Wd4").is_err(), "d4 is a hole");
        assert!(from_fen(holes, "B:Wb1").is_err(), "b1 is light");
        assert!(from_fen(holes, "B:WQa1").is_err(), "no kind is drawn Q");
        assert!(from_fen(holes, "B:Wa1:Ba1").is_err(), "a1 twice");
        assert!(from_fen(holes, "X:Wa1").is_err());
    }

    #[test]
    fn moves_are_written_and_read_by_coordinates() {
        let holes = load(include_str!("../../../../variants/holes.toml"));
        let start = DefinedBoard::start(holes);
        // Black moves first, down the board; c3 and d4 are holes.
        let texts: Vec<String> = start
            .legal_moves()
            .iter()
            .map(|m| start.write_move(m))
            .collect();
        assert!(texts.contains(&"a5-b4".to_string()), "{texts:?}");
        assert!(!texts.iter().any(|t| t.ends_with("d4")), "{texts:?}");
        assert!(parse_move(&start, "c5-b4").is_ok());
        assert!(parse_move(&start, "a1-b2").is_err(), "a White piece");
        assert!(parse_move(&start, "e5-d4").is_err(), "d4 is a hole");
        let open = from_fen(holes, "B:Wb4:Bc5").expect("valid");
        let take = parse_move(&open, "c5xa3").expect("c5 takes b4");
        assert!(take.is_capture());
        assert_eq!(open.play(&take).occupants().count(), 1);
        // Nothing lands on a hole: the piece on a5 cannot take b4, as c3 is one.
        let blocked = from_fen(holes, "B:Wb4:Ba5").expect("valid");
        assert!(blocked.legal_moves().is_empty());
        assert_eq!(blocked.winner(), Some(Color::White));
    }
}
