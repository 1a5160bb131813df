//! The engine: legal moves under any limits, wins found and reported, stopping, reproducibility, tactics.

use std::sync::atomic::Ordering;
use std::thread;
use std::time::{Duration, Instant};

use crowned::engine::{Engine, Level, Limits, Score, Situation};
use crowned::game::Game;
use crowned::rules::{Position, SquareStyle, parse_fen, write_move};
use proptest::prelude::*;

use crate::common;
use common::{arbitrary_position, played_position};

fn think(fen: &str, level: Level, limits: Limits) -> (String, Score) {
    let pos: Position = parse_fen(fen).expect("test FEN");
    let mut engine = Engine::new();
    let result = engine.think(&Situation::new(pos).into(), level, &limits, 1, &mut |_| {});
    let best = result.best.expect("a legal move exists");
    (write_move(&pos, &best, SquareStyle::Numbers), result.score)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(60))]

    /// Whatever the position, level and limits, the move chosen is one of the legal moves.
    #[test]
    fn every_level_plays_legal_moves(
        pos in prop_oneof![arbitrary_position(), played_position(80)],
        level in prop::sample::select(Level::ALL.to_vec()),
        depth in 1u32..5,
        nodes in 1u64..3000,
        seed in any::<u64>(),
    ) {
        let mut engine = Engine::new();
        let limits = Limits { depth: Some(depth), nodes: Some(nodes), time: Some(Duration::from_millis(50)), clock: None };
        let result = engine.think(&Situation::new(pos).into(), level, &limits, seed, &mut |_| {});
        let legal = pos.legal_moves();
        match result.best {
            None => prop_assert!(legal.is_empty()),
            Some(best) => prop_assert!(legal.iter().any(|m| m.same_effect(&best)), "{best:?} in {pos:?}"),
        }
    }
}

#[test]
fn no_legal_move_means_no_best_move() {
    let pos: Position = parse_fen("W:W29:B25,22,18").expect("valid");
    for level in Level::ALL {
        let result = Engine::new().think(
            &Situation::new(pos).into(),
            level,
            &Limits::depth(4),
            0,
            &mut |_| {},
        );
        assert_eq!(result.best, None, "{level}");
    }
}

#[test]
fn a_forced_win_is_reported_with_its_distance() {
    // Black takes White's last piece.
    assert_eq!(
        think("B:W18:B14", Level::Max, Limits::depth(6)),
        ("14x23".into(), Score::Win(1))
    );
    // White's man on 29 is shut in by 25, 22 and 18: any waiting move with the king on 1 leaves it without a move.
    let (mv, score) = think("B:W29:BK1,18,22,25", Level::Max, Limits::depth(8));
    assert!(mv == "1-5" || mv == "1-6", "{mv}");
    assert_eq!(score, Score::Win(1));
    // White to move there has already lost: nothing to play.
    let (mv, score) = think("W:W29,K3:BK1,18,22,25", Level::Max, Limits::depth(12));
    assert!(
        matches!(score, Score::Loss(_) | Score::Centi(_)),
        "{mv} {score:?}"
    );
}

#[test]
fn crowning_races_and_captures_are_seen() {
    // Black's man on 24 must go round White's man on 31, which would take it on 27.
    let (mv, _) = think("B:W31:B24", Level::Max, Limits::depth(10));
    assert_eq!(mv, "24-28");
    // A king is worth taking even when a man is offered.
    // (The men on 14 and 15 can both take the king on 18; 15 could take the man on 19 instead.)
    let (mv, _) = think("B:WK18,19:B14,15", Level::Easy, Limits::default());
    assert!(mv == "14x23" || mv == "15x22", "{mv}");
}

#[test]
fn a_stop_request_ends_the_search_promptly() {
    let mut engine = Engine::new();
    let stop = engine.stop_flag();
    let pos: Position = Position::start();
    let searching = thread::spawn(move || {
        let started = Instant::now();
        let result = engine.think(
            &Situation::new(pos).into(),
            Level::Max,
            &Limits::default(),
            0,
            &mut |_| {},
        );
        (result, started.elapsed())
    });
    thread::sleep(Duration::from_millis(200));
    let asked = Instant::now();
    stop.store(true, Ordering::Relaxed);
    let (result, _) = searching.join().expect("the search thread ends");
    // Generous bound: the search checks the flag every thousand positions, a fraction of a millisecond.
    assert!(
        asked.elapsed() < Duration::from_secs(1),
        "took {:?}",
        asked.elapsed()
    );
    assert!(result.best.is_some());
    assert!(result.depth >= 1);
}

#[test]
fn a_fixed_seed_and_depth_give_the_same_result() {
    let pos = Game::<crowned::rules::English>::new();
    let situation = Situation::of_game(&pos).into();
    for level in Level::ALL {
        let limits = Limits::depth(if level == Level::Max { 9 } else { 5 });
        let mut a = Engine::new();
        let mut b = Engine::new();
        let first = a.think(&situation, level, &limits, 42, &mut |_| {});
        let second = b.think(&situation, level, &limits, 42, &mut |_| {});
        assert_eq!(first, second, "{level}");
        // The same engine, cleared, repeats itself too.
        a.clear();
        assert_eq!(
            a.think(&situation, level, &limits, 42, &mut |_| {}),
            first,
            "{level}"
        );
    }
}

#[test]
fn random_levels_vary_with_the_seed() {
    let situation = Situation::new(Position::start()).into();
    let moves: std::collections::HashSet<String> = (0..40)
        .map(|seed| {
            let r = Engine::new().think(
                &situation,
                Level::Random,
                &Limits::default(),
                seed,
                &mut |_| {},
            );
            format!("{:?}", r.best)
        })
        .collect();
    assert!(moves.len() >= 4, "{moves:?}");
}

#[test]
fn progress_is_reported_for_each_depth() {
    let mut depths = Vec::new();
    let result = Engine::new().think(
        &Situation::new(Position::start()).into(),
        Level::Max,
        &Limits::depth(7),
        0,
        &mut |p| {
            assert!(!p.pv.is_empty());
            depths.push(p.depth);
        },
    );
    assert_eq!(depths, (1..=7).collect::<Vec<_>>());
    assert_eq!(result.depth, 7);
    assert_eq!(result.pv.first(), result.best.as_ref());
}

#[test]
fn repetitions_in_the_game_count_as_draws() {
    // Black is a king up but the position has been seen twice already with Black to move: a third time is a draw,
    // and a draw is worse than the win Black has, so the search must not repeat. It simply must not lose.
    let mut game: Game = Game::from_fen("B:WK32:BK1,K5").expect("valid");
    for m in [
        "1-6", "32-27", "6-1", "27-32", "1-6", "32-27", "6-1", "27-32",
    ] {
        if game.play_text(m).is_err() {
            break;
        }
    }
    let situation = Situation::of_game(&game).into();
    let result = Engine::new().think(&situation, Level::Max, &Limits::depth(12), 0, &mut |_| {});
    assert!(result.best.is_some());
}

#[test]
fn the_builtin_deck_is_the_reference_deck() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../shared/data/openings/3move_english.json"
    );
    let Ok(text) = std::fs::read_to_string(path) else {
        eprintln!("skipped: {path} not readable");
        return;
    };
    let from_file = crowned::engine::openings_from_json(&text).expect("the reference deck reads");
    let builtin = crowned::engine::builtin_openings();
    assert_eq!(from_file.len(), builtin.len());
    for (file, ours) in from_file.iter().zip(&builtin) {
        assert_eq!(file.position, ours.position, "{}", file.name);
        assert_eq!(file.moves, ours.moves, "{}", file.name);
    }
}
