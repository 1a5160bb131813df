//! The search's king runs against the game's rule: the same moves at every node, the limit deciding the score
//! below the root, and the table keeping positions that differ only in a run apart.

use std::collections::BTreeSet;

use super::*;
use crate::engine_rules::EngineRules;
use crate::moves::MoveBuf;
use crate::rng::Rng;
use crate::search::{Fast, SearchRules};
use crate::{AnySituation, Engine, Level, Limits, Score};
use crowned_game::{AnyGame, Game, king_moves};
use crowned_rules::position::compress;
use crowned_rules::{Color, Frisian, Frysk, Move, Playable, parse_fen};

type Key = (u32, u32, u128);

/// The moves the search generates at a node with `runs`, as (from, to, captured) in the layout.
fn search_moves<R: EngineRules>(
    pos: &Position<R>,
    runs: Runs,
) -> (MoveBuf<R::Bits>, BTreeSet<Key>) {
    let mut moves = MoveBuf::new();
    Fast::<R>::default().moves(pos, runs, &mut moves);
    let keys = moves
        .iter()
        .map(|m| {
            let captured = compress(R::GEOMETRY, m.captured);
            (u32::from(m.from), u32::from(m.to), captured)
        })
        .collect();
    (moves, keys)
}

fn key_of<R: Playable>(mv: &Move) -> Key {
    let g = R::GEOMETRY;
    let captured = mv.captured().fold(0u128, |acc, s| acc | 1 << s.index());
    (g.bit(mv.from()), g.bit(mv.to()), captured)
}

/// The game's moves at its current point, as the search writes them.
fn game_moves<R: Playable>(game: &Game<R>) -> BTreeSet<Key> {
    game.legal_moves().iter().map(key_of::<R>).collect()
}

/// Leaves of the legal-move tree by the game's own rule, worked out from the positions and moves before (draws
/// left out: the search's tree does not stop at them either).
fn perft_game<R: Playable>(
    positions: &mut Vec<Position<R>>,
    moves: &mut Vec<Move>,
    depth: u32,
) -> u64 {
    if depth == 0 {
        return 1;
    }
    let pos = *positions.last().expect("a position");
    let legal = king_moves::allowed(&pos, king_moves::barred_king(positions, moves));
    let mut total = 0;
    for mv in legal {
        positions.push(pos.play(&mv));
        moves.push(mv);
        total += perft_game(positions, moves, depth - 1);
        positions.pop();
        moves.pop();
    }
    total
}

/// Leaves of the search's tree, the runs carried from node to node.
fn perft_search<R: EngineRules>(pos: &Position<R>, runs: Runs, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let (moves, _) = search_moves(pos, runs);
    moves
        .iter()
        .map(|&m| perft_search(&m.play(pos), runs.after(pos, m), depth - 1))
        .sum()
}

/// Random games from `fen` in which a king that has just moved quietly is likely to move again, so that runs
/// reach the limit often: at every ply the search's moves are the game's, and its runs key and bar as the
/// game's own do; every 7th ply a perft to depth 3 agrees. Returns the plies at which a king was barred.
fn walk<R: EngineRules>(fen: &str, seed: u64, plies: usize) -> usize {
    let start: Position<R> = parse_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let mut game = Game::<R>::from_position(start);
    game.set_move_limit(0);
    let mut runs = Runs::default();
    let mut rng = Rng::new(seed);
    let mut barred = 0;
    for ply in 0..plies {
        if game.outcome().is_some() {
            break;
        }
        let pos = *game.position();
        let (moves, keys) = search_moves(&pos, runs);
        assert_eq!(keys, game_moves(&game), "{fen} seed {seed} ply {ply}");
        let told = Runs::of::<R>(&game.king_runs_at(game.ply()).expect("the current point"));
        assert_eq!(
            told.key(&pos),
            runs.key(&pos),
            "{fen} seed {seed} ply {ply}"
        );
        assert_eq!(told.barred(&pos), runs.barred(&pos));
        barred += usize::from(runs.barred(&pos).is_some());
        if ply % 7 == 0 {
            let mut positions: Vec<Position<R>> = (0..=game.ply())
                .filter_map(|i| game.position_at(i).copied())
                .collect();
            let mut played = game.moves().to_vec();
            let by_game = perft_game(&mut positions, &mut played, 3);
            assert_eq!(
                perft_search(&pos, runs, 3),
                by_game,
                "{fen} seed {seed} ply {ply}"
            );
        }
        let legal = game.legal_moves();
        if legal.is_empty() {
            break;
        }
        // The king that moved last goes on seven times in eight.
        let last = game
            .moves()
            .len()
            .checked_sub(2)
            .map(|i| game.moves()[i].to());
        let again: Vec<&Move> = legal
            .iter()
            .filter(|m| !m.is_capture() && Some(m.from()) == last)
            .collect();
        let mv = match again.is_empty() || rng.below(8) == 0 {
            true => legal[rng.below(legal.len())],
            false => *again[rng.below(again.len())],
        };
        let sm = moves
            .iter()
            .copied()
            .find(|m| {
                let captured = compress(R::GEOMETRY, m.captured);
                (u32::from(m.from), u32::from(m.to), captured) == key_of::<R>(&mv)
            })
            .expect("the search has the game's move");
        runs = runs.after(&pos, sm);
        game.play(&mv).expect("a legal move");
    }
    barred
}

#[test]
fn the_search_generates_the_games_moves_along_random_games() {
    // Frysk has at most five pieces a side.
    let frisian = [
        "W:WK46,K47,28,33,34,39:BK3,K4,13,17,18,23",
        "B:WK50,K31,36,41:BK1,K20,10,15",
        "W:WK46,44,45:BK5,6,7",
    ];
    let frysk = [
        "W:WK46,K47,28,33,34:BK3,K4,13,17,18",
        "B:WK50,K31,36:BK1,K20,10,15",
    ];
    let mut barred = 0;
    for seed in 0..24 {
        for (i, fen) in frisian.iter().enumerate() {
            barred += walk::<Frisian>(fen, seed * 10 + i as u64, 120);
        }
        for (i, fen) in frysk.iter().enumerate() {
            barred += walk::<Frysk>(fen, seed * 10 + i as u64 + 5, 120);
        }
    }
    assert!(barred >= 10, "the walks barred a king only {barred} times");
}

/// A Frisian position where White has only a king and a man that cannot move (a9 under Black's man on b10):
/// Black to move, after White's king has made quiet moves in a row. `moves` are played from `fen`.
fn cornered(fen: &str, moves: &[&str]) -> AnySituation {
    let game_type = crowned_rules::GameType::standard(crowned_rules::Variant::Frisian);
    let mut game = AnyGame::from_fen(game_type, fen).expect("a Frisian FEN");
    for text in moves {
        game.play_text(text).expect("a legal move");
    }
    AnySituation::of_game(&game)
}

#[test]
fn a_king_out_of_quiet_moves_below_the_root_decides_the_score() {
    // White's king has made three quiet moves: after any safe move of Black's, White has no move and loses.
    let three = cornered(
        "W:WK46,6:BK35,1",
        &["46-41", "35-40", "41-46", "40-35", "46-41"],
    );
    assert_eq!(three.king_runs.of(Color::White).map(|r| r.1), Some(3));
    // Two: White's king makes its third, Black waits again (with a second king, as Black's first has made quiet
    // moves of its own), and White is out of moves.
    let two = cornered("B:WK46,6:BK35,K25,1", &["35-40", "46-41", "25-30", "41-46"]);
    for depth in 2..=6 {
        let mut engine = Engine::new();
        let result = engine.think(&three, Level::Max, &Limits::depth(depth), 1, &mut |_| {});
        assert_eq!(result.score, Score::Win(1), "three moves, depth {depth}");
    }
    for depth in 4..=7 {
        let mut engine = Engine::new();
        let result = engine.think(&two, Level::Max, &Limits::depth(depth), 1, &mut |_| {});
        assert_eq!(result.score, Score::Win(2), "two moves, depth {depth}");
    }
    // Black's own king is counted too: with one king, which has made two quiet moves itself, Black can wait
    // only once more, and then must free White's man; no quick win.
    let both = cornered("B:WK46,6:BK35,1", &["35-40", "46-41", "40-35", "41-46"]);
    assert_eq!(both.king_runs.of(Color::Black).map(|r| r.1), Some(2));
    let mut engine = Engine::new();
    let result = engine.think(&both, Level::Max, &Limits::depth(6), 1, &mut |_| {});
    assert!(!matches!(result.score, Score::Win(_)), "{:?}", result.score);
}

#[test]
fn the_table_keeps_positions_that_differ_only_in_a_run_apart() {
    let three = cornered(
        "W:WK46,6:BK35,1",
        &["46-41", "35-40", "41-46", "40-35", "46-41"],
    );
    let mut engine = Engine::new();
    let won = engine.think(&three, Level::Max, &Limits::depth(6), 1, &mut |_| {});
    assert_eq!(won.score, Score::Win(1));
    // The same position with no history: White's king may move, and the table must not say otherwise.
    let fresh = AnySituation::at(three.position);
    let result = engine.think(&fresh, Level::Max, &Limits::depth(5), 1, &mut |_| {});
    assert_ne!(result.score, Score::Win(1));
}
