//! The engine in variants defined in files: whole games at every level, every move legal, and a search that
//! stops when told.

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use crowned::engine::{AnySituation, Engine, Level, Limits, Score};
use crowned::game::AnyGame;
use crowned::rules::defined::register;
use crowned::rules::{GameType, Variant};

fn defined(text: &str) -> GameType {
    GameType::standard(Variant::Defined(register(text).expect("the example loads")))
}

fn examples() -> [GameType; 3] {
    [
        defined(include_str!("../../variants/leapers.toml")),
        defined(include_str!("../../variants/holes.toml")),
        defined(include_str!("../../variants/first-steps.toml")),
    ]
}

#[test]
fn the_engine_plays_whole_defined_games_with_legal_moves_only() {
    let mut engine = Engine::new();
    for game_type in examples() {
        for (black, white) in [(Level::Random, Level::Easy), (Level::Medium, Level::Hard)] {
            let mut game = AnyGame::new(game_type);
            for ply in 0..300_u64 {
                if game.outcome().is_some() {
                    break;
                }
                let side = game.position().side_to_move();
                let level = if side == crowned::rules::Color::Black {
                    black
                } else {
                    white
                };
                let situation = AnySituation::of_game(&game);
                let limits = Limits::depth(4);
                let result = engine.think(&situation, level, &limits, ply, &mut |_| {});
                let mv = result.best.expect("a move while the game goes on");
                // `play` refuses a move that is not legal here.
                game.play(&mv)
                    .unwrap_or_else(|e| panic!("{game_type}: ply {ply}: {e}"));
            }
            assert!(game.len() >= 4, "{game_type}: {} moves", game.len());
        }
    }
}

#[test]
fn the_defined_search_sees_a_win_and_honours_the_stop_flag() {
    let steps = examples()[2];
    // Black to move takes White's last man.
    let game = AnyGame::from_fen(steps, "B:Wb4:Bc5").expect("valid");
    let mut engine = Engine::new();
    let result = engine.think(
        &AnySituation::of_game(&game),
        Level::Max,
        &Limits::depth(6),
        1,
        &mut |_| {},
    );
    let best = result.best.expect("a move");
    assert!(best.is_capture());
    assert_eq!(result.score, Score::Win(1));
    // A raised flag ends a long search at once, with a legal move.
    let start = AnyGame::new(steps);
    engine.stop_flag().store(true, Ordering::Relaxed);
    let started = Instant::now();
    let result = engine.think(
        &AnySituation::of_game(&start),
        Level::Max,
        &Limits::time(Duration::from_secs(60)),
        1,
        &mut |_| {},
    );
    assert!(started.elapsed() < Duration::from_secs(10));
    let best = result.best.expect("a move");
    assert!(start.position().legal_moves().contains(&best));
    engine.stop_flag().store(false, Ordering::Relaxed);
    // A time limit is kept.
    let started = Instant::now();
    let result = engine.think(
        &AnySituation::of_game(&start),
        Level::Max,
        &Limits::time(Duration::from_millis(300)),
        1,
        &mut |_| {},
    );
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
    assert!(result.depth >= 1);
}
