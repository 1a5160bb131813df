//! Positions for property tests: arbitrary ones and ones reached by play.

use crowned::rules::{Color, English, Piece, Position, Role, Square};
use proptest::prelude::*;

/// Random English positions: any mix of men and kings on any squares, men never on their crowning row, either
/// side to move. Dense enough to give kings long capture routes.
pub fn arbitrary_position() -> impl Strategy<Value = Position> {
    (prop::collection::vec(0u8..7, 32), any::<bool>()).prop_map(|(cells, black)| {
        let side = if black { Color::Black } else { Color::White };
        let mut pos: Position = Position::empty(side);
        for (i, cell) in cells.into_iter().enumerate() {
            let square = Square::from_index(i as u8);
            let row = Position::<English>::GEOMETRY.row_col(square).0;
            let piece = match cell {
                0 if row != 7 => Some(Piece::new(Color::Black, Role::Man)),
                1 if row != 0 => Some(Piece::new(Color::White, Role::Man)),
                2 => Some(Piece::new(Color::Black, Role::King)),
                3 => Some(Piece::new(Color::White, Role::King)),
                _ => None,
            };
            pos.set_piece(square, piece);
        }
        pos
    })
}

/// Positions reached by random play from the start: mostly men early, kings later.
pub fn played_position(max_plies: usize) -> impl Strategy<Value = Position> {
    prop::collection::vec(any::<prop::sample::Index>(), 0..max_plies).prop_map(|choices| {
        let mut pos: Position = Position::start();
        for choice in choices {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos = pos.play(&moves[choice.index(moves.len())]);
        }
        pos
    })
}
