//! Properties that must hold at every position of random games: moves apply, material adds up, and FEN and move
//! text read back to what was written.

use crowned::rules::{
    Color, English, Move, MoveText, Position, Role, SquareStyle, Strictness, full_route, parse_fen,
    to_fen, write_move,
};
use proptest::prelude::*;

fn material(pos: &Position, color: Color) -> (u32, u32) {
    (pos.count(color, Role::Man), pos.count(color, Role::King))
}

fn check_move(pos: &Position, m: &Move) {
    let g = Position::<English>::GEOMETRY;
    let side = pos.side_to_move();
    let next = pos.play(m);
    assert_eq!(next.side_to_move(), side.opponent());

    // The mover keeps every piece (a man may become a king); the other side loses exactly the captured ones.
    let (men, kings) = material(pos, side);
    let (men_after, kings_after) = material(&next, side);
    assert_eq!(men + kings, men_after + kings_after);
    assert_eq!(kings_after, kings + u32::from(m.crowns()));
    let (their_men, their_kings) = material(pos, side.opponent());
    let (their_men_after, their_kings_after) = material(&next, side.opponent());
    assert_eq!(
        their_men + their_kings - m.capture_count(),
        their_men_after + their_kings_after
    );
    for square in m.captured() {
        assert_eq!(pos.piece_at(square).map(|p| p.color), Some(side.opponent()));
        assert_eq!(next.piece_at(square), None);
    }
    let moved = pos.piece_at(m.from()).expect("a piece moves");
    assert_eq!(moved.color, side);
    assert_eq!(next.piece_at(m.to()).map(|p| p.color), Some(side));
    if m.from() != m.to() {
        assert_eq!(next.piece_at(m.from()), None);
    }

    // Every written form reads back as this move.
    for style in [SquareStyle::Numbers, SquareStyle::Coordinates] {
        let short = write_move(pos, m, style);
        let found = MoveText::parse(&short, g)
            .and_then(|t| t.find(pos, Strictness::Exact))
            .unwrap_or_else(|e| panic!("{short} in {pos:?}: {e}"));
        assert!(found.same_effect(m), "{short} read as {found:?}, not {m:?}");
        let full = full_route(m, style, g);
        let found = MoveText::parse(&full, g)
            .and_then(|t| t.find(pos, Strictness::Exact))
            .unwrap_or_else(|e| panic!("{full} in {pos:?}: {e}"));
        assert_eq!(found, *m, "{full}");
    }
}

fn check_position(pos: &Position) {
    let fen = to_fen(pos);
    assert_eq!(parse_fen::<English>(&fen).as_ref(), Ok(pos), "{fen}");
    for m in pos.legal_moves() {
        check_move(pos, &m);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn random_games(choices in prop::collection::vec(any::<prop::sample::Index>(), 1..200)) {
        let mut pos: Position = Position::start();
        for choice in choices {
            check_position(&pos);
            let moves = pos.legal_moves();
            if moves.is_empty() {
                prop_assert!(pos.is_lost());
                break;
            }
            pos = pos.play(&moves[choice.index(moves.len())]);
        }
    }
}
