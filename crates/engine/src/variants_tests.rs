//! The engine under every rule set: every level plays only legal moves, and the full search finds the shots
//! that flying kings and the majority rule make possible.

use std::time::Duration;

use super::{
    AnySituation, Engine, EngineConfig, Level, Limits, ParamOverrides, Progress, Score, Situation,
};
use crowned_rules::{
    AnyPosition, Brazilian, Canadian, Czech, English, EnglishOn, GameType, International, Italian,
    Playable, Pool, Position, Russian, Spanish, Thai, Variant, parse_fen,
};

/// Plies of each game; enough to reach the first exchanges on every board.
const PLIES: usize = 24;

/// Small limits, so that the debug build plays many games quickly; the levels that search stop at whichever
/// comes first.
fn limits() -> Limits {
    Limits {
        depth: Some(3),
        nodes: Some(3_000),
        time: Some(Duration::from_secs(2)),
        clock: None,
    }
}

/// Games from the start at every level, the engine playing both sides with a new seed each move, and a random
/// move now and then so that the games differ. Returns the moves played, to show the games went somewhere.
fn every_level_plays_legal_moves<R: Playable>() -> usize {
    let mut engine = Engine::new();
    let mut played = 0;
    for level in Level::ALL {
        for game in 0..2u64 {
            let mut situation = Situation::<R>::at(Position::start());
            for ply in 0..PLIES {
                let legal = situation.position.legal_moves();
                let seed = game * 1000 + ply as u64;
                // One move in five at random, as a weaker player would, to spread the games out.
                let playing = if ply % 5 == 4 { Level::Random } else { level };
                let result = engine.think(
                    &situation.clone().into(),
                    playing,
                    &limits(),
                    seed,
                    &mut |_| {},
                );
                let Some(best) = result.best else {
                    assert!(legal.is_empty(), "{}: no move with moves", R::NAME);
                    break;
                };
                assert!(
                    legal.contains(&best),
                    "{} at {level}: {best:?} is not legal in {:?}",
                    R::NAME,
                    situation.position
                );
                if let Some(first) = result.pv.first() {
                    assert_eq!(*first, best, "{}: the line starts with the move", R::NAME);
                }
                situation.position = situation.position.play(&best);
                played += 1;
            }
        }
    }
    played
}

#[test]
fn every_level_plays_legal_moves_under_every_rule_set() {
    // At least the first move of each game is played; most games run the whole length.
    let least = Level::ALL.len() * 2;
    assert!(every_level_plays_legal_moves::<English>() >= least);
    assert!(every_level_plays_legal_moves::<International>() >= least);
    assert!(every_level_plays_legal_moves::<Russian>() >= least);
    assert!(every_level_plays_legal_moves::<Brazilian>() >= least);
    assert!(every_level_plays_legal_moves::<Pool>() >= least);
    assert!(every_level_plays_legal_moves::<Italian>() >= least);
    assert!(every_level_plays_legal_moves::<Spanish>() >= least);
    assert!(every_level_plays_legal_moves::<Czech>() >= least);
    assert!(every_level_plays_legal_moves::<Thai>() >= least);
    assert!(every_level_plays_legal_moves::<Canadian>() >= least);
    assert!(every_level_plays_legal_moves::<EnglishOn<10>>() >= least);
    assert!(every_level_plays_legal_moves::<EnglishOn<12>>() >= least);
}

/// The full search's move in `fen` under the rules `R`, written as the rules write it, and its score.
fn best<R: Playable>(fen: &str, depth: u32) -> (String, Score) {
    let pos: Position<R> = parse_fen(fen).expect("valid FEN");
    let result = Engine::new().think(
        &Situation::at(pos).into(),
        Level::Max,
        &Limits::depth(depth),
        0,
        &mut |_| {},
    );
    let mv = result.best.expect("a move");
    let text =
        crowned_rules::write_move(&pos, &mv, crowned_rules::SquareStyle::Numbers).to_string();
    (text, result.score)
}

/// Whether `score` is at least `men` men up, or a win.
fn ahead(score: Score, men: i32) -> bool {
    match score {
        Score::Centi(c) => c >= 100 * men,
        Score::Win(_) | Score::DatabaseWin => true,
        Score::Loss(_) | Score::DatabaseLoss => false,
    }
}

#[test]
fn international_shot_through_the_majority_rule() {
    // White is a man down. 33-28 gives a man: Black must take 22x33 (the only capture; the man on 44 keeps it
    // from going on over 39), and the man on 39 must take the most it can, three, 39x10 over 33, 23 and 14,
    // and crowns next move.
    let (mv, score) = best::<International>("W:W32,33,39,44:B1,2,14,22,23", 6);
    assert_eq!(mv, "33-28");
    assert!(ahead(score, 1), "{score}");
}

#[test]
fn russian_flying_king_shot() {
    // White is two men down. It gives the man on 27: 27-23 18x27, and the king on 32 flies over 27, 19 and 11
    // in one capture, landing on 7 or 2, out of reach of the two men left.
    let (mv, score) = best::<Russian>("W:W26,27,K32:B1,5,11,18,19", 6);
    assert_eq!(mv, "27-23");
    assert!(ahead(score, 1), "{score}");
}

#[test]
fn any_position_reaches_the_engine_of_its_rules() {
    let mut engine = Engine::new();
    for variant in Variant::ALL {
        let start = AnyPosition::start(GameType::standard(variant));
        let mut depths = Vec::new();
        let result = engine.think(
            &AnySituation::at(start),
            Level::Max,
            &Limits::depth(3),
            0,
            &mut |p: &Progress| depths.push(p.depth),
        );
        let best = result.best.expect("a move at the start");
        assert!(start.legal_moves().contains(&best), "{variant}");
        assert_eq!(depths, [1, 2, 3], "{variant}");
    }
}

#[test]
fn english_searches_are_not_disturbed_by_another_rule_set() {
    // A variant searched in between must not disturb the English result.
    let situation = Situation::new(Position::start()).into();
    let mut engine = Engine::new();
    let first = engine.think(&situation, Level::Max, &Limits::depth(8), 0, &mut |_| {});
    engine.clear();
    let russian = Situation::<Russian>::at(Position::start());
    engine.think(
        &russian.into(),
        Level::Max,
        &Limits::depth(4),
        0,
        &mut |_| {},
    );
    engine.clear();
    let again = engine.think(&situation, Level::Max, &Limits::depth(8), 0, &mut |_| {});
    assert_eq!(first, again);
    assert!(first.nodes > 0);
}

#[test]
fn the_search_reads_its_parameters_from_the_configuration() {
    let situation = Situation::new(Position::start()).into();
    let nodes = |params: ParamOverrides| {
        let mut engine = Engine::with_config(EngineConfig {
            params,
            ..EngineConfig::default()
        });
        engine
            .think(&situation, Level::Max, &Limits::depth(8), 0, &mut |_| {})
            .nodes
    };
    let default = nodes(ParamOverrides::default());
    assert_eq!(nodes(ParamOverrides::default()), default);
    let mut no_reductions = ParamOverrides::default();
    no_reductions
        .set("reduction-depth", &i32::MAX.to_string())
        .expect("a depth");
    assert!(nodes(no_reductions) > default);
}
