//! A suite of shots: positions where exactly one quiet move wins material by force. Each answer is checked by
//! a plain material-only minimax here (so the suite checks itself), and the engine must find it.

use crowned::engine::{Engine, EngineConfig, Level, Limits, SearchParams, Situation};
use crowned::rules::{Position, Role, SquareStyle, parse_fen, write_move};

/// Found by searching positions from random play for a quiet move that, alone, wins at least a man within a
/// few plies plus every capture that follows.
const SHOTS: [(&str, &str); 7] = [
    ("B:W17,19,21,22,27,28,29,30,32:B1,2,3,4,5,6,9,10", "10-14"),
    (
        "B:W14,18,22,23,25,26,28,29,30:B1,2,4,5,6,7,11,13,16,19",
        "6-9",
    ),
    ("B:WK4,21,23,24,26,30:B1,5,6,12,13,27,K29", "27-31"),
    ("W:W21,22,25,27,28,29,30,32:B3,4,5,6,7,8,10,13,14", "22-17"),
    ("W:W19,27,28,29,30,31:B2,3,4,8,11,12,22", "27-23"),
    (
        "B:WK1,15,18,21,26,27,28,29,31,32:B2,3,5,7,8,13,16,19,20",
        "2-6",
    ),
    ("W:W14,21,22,25,27,28,29,32:B1,4,6,7,12,13,16", "14-10"),
];

/// How deep the check looks before following captures.
const DEPTH: i32 = 5;

/// Material from the side to move's view: a man 2, a king 3.
fn material(pos: &Position) -> i32 {
    let side = pos.side_to_move();
    let value = |c| pos.count(c, Role::Man) as i32 * 2 + pos.count(c, Role::King) as i32 * 3;
    value(side) - value(side.opponent())
}

/// Material-only minimax to `depth` plies, then on through captures (at most four more plies).
fn minimax(pos: &Position, depth: i32) -> i32 {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return -100;
    }
    if depth < -4 || depth <= 0 && !moves[0].is_capture() {
        return material(pos);
    }
    moves
        .iter()
        .map(|m| -minimax(&pos.play(m), depth - 1))
        .max()
        .unwrap_or(-100)
}

#[test]
fn each_answer_is_the_only_winning_move() {
    for (fen, answer) in SHOTS {
        let pos: Position = parse_fen(fen).expect("suite FEN");
        let scored: Vec<(String, i32)> = pos
            .legal_moves()
            .iter()
            .map(|m| {
                (
                    write_move(&pos, m, SquareStyle::Numbers),
                    -minimax(&pos.play(m), DEPTH),
                )
            })
            .collect();
        let best = scored.iter().map(|(_, s)| *s).max().expect("moves");
        let winners: Vec<&str> = scored
            .iter()
            .filter(|(_, s)| *s == best)
            .map(|(m, _)| m.as_str())
            .collect();
        assert_eq!(winners, [answer], "{fen}: {scored:?}");
        assert!(best >= material(&pos) + 2, "{fen}: the shot wins a man");
    }
}

#[test]
fn the_engine_finds_every_shot() {
    finds_every_shot(1, SearchParams::default());
}

#[test]
fn the_engine_finds_every_shot_with_each_depth_rule_on() {
    // Reductions by the static score and singular extensions change what is searched how deep: neither may
    // lose a shot, whatever the defaults say about them.
    let eval_reductions = SearchParams {
        eval_reduction_margin: 40,
        eval_reduction_max: 2,
        ..SearchParams::default()
    };
    let singular = SearchParams {
        singular_depth: 4,
        singular_margin: 20,
        ..SearchParams::default()
    };
    let neither = SearchParams {
        eval_reduction_margin: 0,
        singular_depth: 0,
        ..SearchParams::default()
    };
    for params in [eval_reductions, singular, neither] {
        finds_every_shot(1, params);
    }
}

#[test]
fn the_engine_finds_every_shot_on_several_threads() {
    // The helpers share the table: whatever they store must not lead the main search astray.
    finds_every_shot(3, SearchParams::default());
}

fn finds_every_shot(threads: usize, params: SearchParams) {
    let mut missed = Vec::new();
    for (fen, answer) in SHOTS {
        let pos: Position = parse_fen(fen).expect("suite FEN");
        let mut engine = Engine::with_config(EngineConfig::default().with_params(params.into()));
        engine.set_threads(threads);
        assert_eq!(engine.threads(), threads);
        let result = engine.think(
            &Situation::new(pos).into(),
            Level::Max,
            &Limits::depth(10),
            0,
            &mut |_| {},
        );
        let chosen = result
            .best
            .map(|m| write_move(&pos, &m, SquareStyle::Numbers))
            .unwrap_or_default();
        if chosen != answer {
            missed.push(format!(
                "{fen}: played {chosen}, the shot is {answer} ({params:?})"
            ));
        }
    }
    assert!(missed.is_empty(), "{missed:#?}");
}

#[test]
fn weak_levels_miss_some_shots() {
    // The rule-of-thumb player does not look ahead: shots are what beat beginners.
    let found = SHOTS
        .iter()
        .filter(|(fen, answer)| {
            let pos: Position = parse_fen(fen).expect("suite FEN");
            let result = Engine::new().think(
                &Situation::new(pos).into(),
                Level::Easy,
                &Limits::default(),
                3,
                &mut |_| {},
            );
            result
                .best
                .map(|m| write_move(&pos, &m, SquareStyle::Numbers))
                .as_deref()
                == Some(*answer)
        })
        .count();
    assert!(found < SHOTS.len(), "easy found all {found} shots");
}
