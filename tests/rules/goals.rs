//! How a game is won beyond "a side that cannot move loses": antidraughts (a side that cannot move wins) and
//! breakthrough (the first king wins), in the rules, the game record and the engine.

use crowned::engine::{AnySituation, Engine, Level, Limits};
use crowned::game::{AnyGame, Outcome, WinReason};
use crowned::rules::{
    Antidraughts, AnyPosition, Breakthrough, Color, Duplicates, GameType, International, Position,
    SquareStyle, Variant, parse_fen, perft,
};

fn game(variant: Variant, fen: &str) -> AnyGame {
    let position = AnyPosition::from_fen(GameType::standard(variant), fen).expect("test FEN");
    AnyGame::from_position(position)
}

fn win(winner: Color, reason: WinReason) -> Option<Outcome> {
    Some(Outcome::Win { winner, reason })
}

fn play(game: &mut AnyGame, text: &str) {
    let mv = game
        .position()
        .parse_move(text, crowned::rules::Strictness::Exact)
        .expect("a legal move");
    game.play(&mv).expect("played");
}

#[test]
fn both_move_as_international_draughts_does() {
    // The same board, men and captures: the move trees are the international one, from the start and from a
    // middle game.
    // A king on the board has ended a game of breakthrough: the third is antidraughts' alone.
    for (fen, breakthrough_too) in [
        ("W:W31-50:B1-20", true),
        (
            "W:W25,27,28,30,32,33,34,35,37,38:B12,13,14,16,18,19,21,23,24,26",
            true,
        ),
        (
            "W:W25,27,28,30,32,33,34,35,37,38,K44:B12,13,14,16,18,19,21,23,24,26",
            false,
        ),
    ] {
        let international: Position<International> = parse_fen(fen).expect("FEN");
        let anti: Position<Antidraughts> = parse_fen(fen).expect("FEN");
        let breakthrough: Position<Breakthrough> = parse_fen(fen).expect("FEN");
        for depth in 1..=4 {
            let expected = perft(&international, depth, Duplicates::Keep);
            assert_eq!(perft(&anti, depth, Duplicates::Keep), expected, "{fen}");
            assert_eq!(
                perft(&breakthrough, depth, Duplicates::Keep),
                if breakthrough_too { expected } else { 0 },
                "{fen}"
            );
        }
    }
}

#[test]
fn a_breakthrough_game_ends_where_a_capture_crowns_and_the_count_stops_there() {
    // Black's only move, 30x48, ends on Black's crowning row: Black has crowned first and won, and White has
    // no reply in the game or in the count.
    let fen = "B:W28,31,33,34,36-38,41-43,45,46,49,50:B1,3-8,10-13,21,24,30";
    let pos: Position<Breakthrough> = parse_fen(fen).expect("FEN");
    assert_eq!(
        (1..=3)
            .map(|depth| perft(&pos, depth, Duplicates::Keep))
            .collect::<Vec<_>>(),
        [1, 0, 0]
    );
    assert_eq!(
        crowned::rules::perft_by_playing(&pos, 2, Duplicates::Keep),
        0
    );
    let mut after = game(Variant::Breakthrough, fen);
    play(&mut after, "30x48");
    assert_eq!(after.outcome(), win(Color::Black, WinReason::CrownedFirst));
    // The same capture in international draughts crowns a king, and the game goes on.
    let international: Position<International> = parse_fen(fen).expect("FEN");
    assert!(perft(&international, 2, Duplicates::Keep) > 0);
}

#[test]
fn in_antidraughts_a_side_that_cannot_move_wins() {
    // White has given every piece away.
    assert_eq!(
        game(Variant::Antidraughts, "W:W:B10").outcome(),
        win(Color::White, WinReason::GaveAllAway)
    );
    // White's last man, on 6, is blocked by Black's on 1.
    let blocked = game(Variant::Antidraughts, "W:W6:B1");
    assert_eq!(blocked.outcome(), win(Color::White, WinReason::Blocked));
    assert_eq!(
        blocked.outcome().map(|o| o.to_string()).as_deref(),
        Some("White wins: White has no legal move")
    );
    // The same positions in international draughts are lost.
    assert_eq!(
        game(Variant::International, "W:W6:B1").outcome(),
        win(Color::Black, WinReason::NoMoves)
    );
    // A game is won by giving the last piece away: Black takes White's man and White, to move, has none.
    let mut given = game(Variant::Antidraughts, "W:W28:B17");
    play(&mut given, "28-22");
    play(&mut given, "17x28");
    assert_eq!(given.outcome(), win(Color::White, WinReason::GaveAllAway));
}

#[test]
fn in_breakthrough_the_first_king_wins_and_there_are_no_draws() {
    let mut first = game(Variant::Breakthrough, "W:W6,46:B45");
    assert_eq!(first.outcome(), None);
    play(&mut first, "6-1");
    assert_eq!(first.outcome(), win(Color::White, WinReason::CrownedFirst));
    assert_eq!(
        first.outcome().map(|o| o.to_string()).as_deref(),
        Some("White wins: White crowned a king first")
    );
    // Without a king, a side that cannot move still loses.
    assert_eq!(
        game(Variant::Breakthrough, "W:W6:B1").outcome(),
        win(Color::Black, WinReason::NoMoves)
    );
    let rules = crowned::game::DrawRules::of(Variant::Breakthrough);
    assert_eq!((rules.repetitions, rules.quiet_moves), (0, 0));
    assert!(rules.endings.is_empty());
}

#[test]
fn the_engine_plays_for_each_goal() {
    let mut engine = Engine::new();
    let best = |engine: &mut Engine, variant: Variant, fen: &str, level: Level| {
        let game = game(variant, fen);
        let situation = AnySituation::of_game(&game);
        let result = engine.think(&situation, level, &Limits::depth(6), 1, &mut |_| {});
        let mv = result.best.expect("a move");
        game.position().write_move(&mv, SquareStyle::Numbers)
    };
    for level in [Level::Medium, Level::Max] {
        // Breakthrough: crown at once rather than anything else.
        assert_eq!(
            best(&mut engine, Variant::Breakthrough, "W:W6,46:B45", level),
            "6-1",
            "{level:?}"
        );
        // Antidraughts: White gives its last man away (28-22, which Black must take) rather than keep it.
        assert_eq!(
            best(&mut engine, Variant::Antidraughts, "W:W28:B17", level),
            "28-22",
            "{level:?}"
        );
    }
}

#[test]
fn their_games_are_read_back_from_pdn_with_lidraughts_s_game_types() {
    for (variant, number) in [(Variant::Antidraughts, 98), (Variant::Breakthrough, 96)] {
        assert_eq!(variant.game_type(), number);
        assert_eq!(Variant::from_game_type(number), Some(variant));
        assert_eq!(variant.name().parse::<Variant>(), Ok(variant));
        let mut original = AnyGame::new(GameType::standard(variant));
        play(&mut original, "32-28");
        play(&mut original, "19-23");
        let text = original.to_pdn();
        assert!(text.contains(&format!("[GameType \"{number}\"]")), "{text}");
        let read = crowned::store::from_pdn(&text).expect("read back").game;
        assert_eq!(read.variant(), variant, "{text}");
        assert_eq!(read.moves(), original.moves(), "{text}");
    }
}
