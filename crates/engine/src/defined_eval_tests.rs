//! Turkish endings the engine must convert: a side with more kings wins within the draw rule (40 moves each
//! without a capture), rather than wandering until the quiet moves run out.

use crate::{AnySituation, Engine, Level, Limits};
use crowned_game::{AnyGame, Outcome};
use crowned_rules::defined::load_builtin;
use crowned_rules::{Color, GameType, Variant};

/// Plays `fen` out with `max` on both sides at `nodes` a move: the outcome and the plies it took.
fn play_out(fen: &str, nodes: u64) -> (Option<Outcome>, usize) {
    let id = load_builtin("turkish")
        .expect("built in")
        .expect("it loads");
    let game_type = GameType::standard(Variant::Defined(id));
    let mut game = AnyGame::from_fen(game_type, fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let mut engine = Engine::new();
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    while game.outcome().is_none() && game.len() < 400 {
        let situation = AnySituation::of_game(&game);
        let result = engine.think(&situation, Level::Max, &limits, 1, &mut |_| {});
        let Some(mv) = result.best else { break };
        game.play(&mv).expect("a legal move");
    }
    (game.outcome(), game.len())
}

#[test]
#[ignore = "plays five endings out at 40,000 nodes a move: about a minute; run with --ignored"]
fn max_converts_turkish_endings_a_king_or_more_up() {
    let cases = [
        "W:WKa1,Kb1:BKh8",
        "B:WKa1,Kb1:BKh8",
        "W:WKd4,Ke5:BKa8",
        "B:WKa1,Kh1:BKd5",
        "W:WKa1,Kb1,Kc1:BKh8,Kg8",
    ];
    for fen in cases {
        let (outcome, plies) = play_out(fen, 40_000);
        assert_eq!(
            outcome.and_then(|o| o.winner()),
            Some(Color::White),
            "{fen}: {outcome:?} after {plies} plies"
        );
    }
}
