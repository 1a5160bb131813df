//! Random positions for property tests, for any rule set and board.

use crowned_rules::{Color, Piece, Position, Role, RuleSet, Square, max_pieces};
use proptest::prelude::*;

/// Random legal positions under `R`: each side has from none up to as many pieces as it starts with, on random
/// squares, each piece a king with a probability that itself varies from position to position (from none to
/// all kings), no man on its own crowning row (a man drawn there is a king instead), either side to move.
///
/// Dense boards with many kings are where the long and branching capture routes are, which the start position
/// reaches only deep in the tree; sparse ones give long flying-king moves.
pub fn random_position<R: RuleSet>() -> impl Strategy<Value = Position<R>> {
    let squares = R::GEOMETRY.squares() as usize;
    let most = max_pieces::<R>() as usize;
    (
        Just((0..squares).collect::<Vec<usize>>()).prop_shuffle(),
        0..=most,
        0..=most,
        0u32..=100,
        prop::collection::vec(0u32..100, squares),
        any::<bool>(),
    )
        .prop_map(
            move |(order, blacks, whites, king_percent, rolls, black_to_move)| {
                let side = if black_to_move {
                    Color::Black
                } else {
                    Color::White
                };
                let mut pos = Position::<R>::empty(side);
                let colors = std::iter::repeat_n(Color::Black, blacks)
                    .chain(std::iter::repeat_n(Color::White, whites));
                for (&index, color) in order.iter().zip(colors) {
                    let square = Square::from_index(index as u8);
                    let row = R::GEOMETRY.row_col(square).0;
                    let role = if rolls[index] < king_percent
                        || row == Position::<R>::crowning_row(color)
                    {
                        Role::King
                    } else {
                        Role::Man
                    };
                    pos.set_piece(square, Some(Piece::new(color, role)));
                }
                pos
            },
        )
}

/// A random game from the start position under `R`, of up to `max_plies` plies (fewer if it ends): every
/// position along it, the start first. Moves are chosen among the merged legal moves.
pub fn random_game<R: RuleSet>(max_plies: usize) -> impl Strategy<Value = Vec<Position<R>>> {
    prop::collection::vec(any::<prop::sample::Index>(), 0..=max_plies).prop_map(|choices| {
        let mut pos = Position::<R>::start();
        let mut game = vec![pos];
        for choice in choices {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos = pos.play(&moves[choice.index(moves.len())]);
            game.push(pos);
        }
        game
    })
}
