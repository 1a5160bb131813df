//! The match's own tests: tallies, stopping, openings under every rule set.

use super::*;
use crate::random_plies;
use crowned_engine::{Level, builtin_openings};

#[test]
fn a_short_match_between_random_players_adds_up() {
    let config = MatchConfig {
        game_type: GameType::standard(Variant::English),
        a: Contender::Level(Level::Random),
        b: Contender::Level(Level::Random),
        time: Duration::from_millis(5),
        openings: MatchOpenings::Deck(builtin_openings().into_iter().take(2).collect()),
        games: Some(3),
        seed: 1,
        engine: EngineConfig::default(),
        ponder: [false; 2],
        sprt: None,
        clock: None,
    };
    let stop = Arc::new(AtomicBool::new(false));
    let mut seen = Vec::new();
    let result = play_match(&config, &stop, &mut |g, so_far| {
        seen.push((g.number, g.a_color, g.game.len()));
        assert_eq!(so_far.games(), g.number);
        ControlFlow::Continue(())
    })
    .expect("the deck is English");
    assert_eq!(result.games(), 3);
    assert!(!result.stopped);
    assert_eq!(seen.len(), 3);
    assert_eq!(seen[0].1, Color::Black);
    assert_eq!(seen[1].1, Color::White);
    assert!(seen.iter().all(|(_, _, plies)| *plies >= 3));
    // The same seed plays the same games.
    let again = play_match(&config, &stop, &mut |_, _| ControlFlow::Continue(())).expect("plays");
    let tally = |r: &MatchResult| {
        let moves = r.time_use.map(|t| (t.moves, t.forced));
        (r.a_wins, r.b_wins, r.draws, moves)
    };
    assert_eq!(tally(&again), tally(&result));
    // Every move is counted, searched or forced, and no search took longer than the longest.
    let searched: usize = result.time_use.iter().map(|t| t.moves + t.forced).sum();
    let opening_plies: usize = seen.iter().map(|_| 3).sum();
    let played: usize = seen.iter().map(|(_, _, plies)| plies).sum();
    assert_eq!(searched, played - opening_plies);
    for used in result.time_use {
        assert!(used.average() <= used.longest);
    }
}

#[test]
fn a_match_stops_when_asked() {
    let config = MatchConfig {
        game_type: GameType::standard(Variant::English),
        a: Contender::Level(Level::Random),
        b: Contender::Level(Level::Random),
        time: Duration::from_millis(5),
        openings: MatchOpenings::Deck(builtin_openings().into_iter().take(2).collect()),
        games: None,
        seed: 1,
        engine: EngineConfig::default(),
        ponder: [false; 2],
        sprt: None,
        clock: None,
    };
    let stop = Arc::new(AtomicBool::new(false));
    let result = play_match(&config, &stop, &mut |_, _| ControlFlow::Break(())).expect("plays");
    assert_eq!(result.games(), 1);
    assert!(result.stopped);
    // A raised flag stops before any game is finished.
    stop.store(true, Ordering::Relaxed);
    let mut calls = 0;
    let result = play_match(&config, &stop, &mut |_, _| {
        calls += 1;
        ControlFlow::Continue(())
    })
    .expect("plays");
    assert_eq!((result.games(), calls), (0, 0));
    assert!(result.stopped);
}

fn quick(game_type: GameType, openings: MatchOpenings, games: usize) -> MatchConfig {
    MatchConfig {
        game_type,
        a: Contender::Level(Level::Easy),
        b: Contender::Level(Level::Random),
        time: Duration::from_millis(5),
        openings,
        games: Some(games),
        seed: 3,
        engine: EngineConfig::default(),
        ponder: [false; 2],
        sprt: None,
        clock: None,
    }
}

#[test]
fn every_game_type_plays_a_match_from_random_openings() {
    let mut types: Vec<GameType> = Variant::ALL.into_iter().map(GameType::standard).collect();
    types.push(GameType::new(Variant::English, Some(10), None).expect("valid"));
    let stop = Arc::new(AtomicBool::new(false));
    for game_type in types {
        let config = quick(game_type, MatchOpenings::Random, 2);
        let mut games = Vec::new();
        let result = play_match(&config, &stop, &mut |g, _| {
            games.push(g.clone());
            ControlFlow::Continue(())
        })
        .expect("random openings fit every game type");
        assert_eq!(result.games(), 2, "{game_type}");
        // One opening, once with each colour, kept in the game under the match's rules.
        assert_eq!(games[0].opening, games[1].opening);
        assert_eq!(
            (games[0].a_color, games[1].a_color),
            (Color::Black, Color::White)
        );
        for g in &games {
            assert_eq!(g.game.game_type(), game_type);
            assert_eq!(g.game.final_outcome(), Some(g.outcome));
            assert_eq!(g.game.tags().get("Opening"), Some(g.opening.as_str()));
            let texts = crowned_game::pdn::parse_games(&g.game.to_pdn());
            let [Ok(text)] = texts.as_slice() else {
                panic!("one game expected: {texts:?}");
            };
            // Without a default: the GameType tag alone says the rules.
            let (read, error) = crowned_game::pdn::open_game(text, None);
            assert_eq!(error, None);
            assert_eq!(read.game_type(), game_type);
            assert_eq!(read.moves(), g.game.moves());
        }
    }
}

#[test]
fn the_english_deck_is_refused_for_another_game_type() {
    let international = GameType::standard(Variant::International);
    let config = quick(international, MatchOpenings::Deck(builtin_openings()), 2);
    let stop = Arc::new(AtomicBool::new(false));
    let refused = play_match(&config, &stop, &mut |_, _| ControlFlow::Continue(()));
    assert_eq!(refused, Err(MatchError::DeckDoesNotFit(international)));
    assert_eq!(config.total_games(), 2);
    let all = MatchConfig {
        games: None,
        ..config
    };
    assert_eq!(all.total_games(), builtin_openings().len() * 2);
    let random = MatchConfig {
        openings: MatchOpenings::Random,
        ..all
    };
    assert_eq!(random.total_games(), DEFAULT_RANDOM_OPENINGS * 2);
}

#[test]
fn a_defined_variant_plays_a_match_from_random_openings_and_saves_its_definition() {
    let id = crowned_rules::defined::load_builtin("turkish")
        .expect("turkish is built in")
        .expect("it loads");
    let game_type = GameType::standard(Variant::Defined(id));
    let config = MatchConfig {
        a: Contender::Level(Level::Max),
        b: Contender::Level(Level::Medium),
        ..quick(game_type, MatchOpenings::Random, 2)
    };
    let stop = Arc::new(AtomicBool::new(false));
    let mut games = Vec::new();
    let result = play_match(&config, &stop, &mut |g, _| {
        games.push(g.clone());
        ControlFlow::Continue(())
    })
    .expect("defined variants play matches");
    assert_eq!(result.games(), 2);
    assert_eq!(games[0].opening, games[1].opening);
    // Three random plies on 8x8, written in the definition's coordinates.
    assert_eq!(games[0].opening.split(' ').count(), random_plies(8));
    for g in &games {
        let pdn = g.game.to_pdn();
        assert!(pdn.contains("[VariantDefinition "), "{pdn}");
        let texts = crowned_game::pdn::parse_games(&pdn);
        let [Ok(text)] = texts.as_slice() else {
            panic!("one game expected: {texts:?}");
        };
        let (read, error) = crowned_game::pdn::open_game(text, None);
        assert_eq!(error, None);
        assert_eq!(read.game_type(), game_type);
        assert_eq!(read.moves(), g.game.moves());
        // A file gives a game's result, not why: a draw the match adjudicated (a game that went on too long, as
        // one may when the engines' time makes it so) reads back as a draw the record gives.
        let written = match g.outcome {
            Outcome::Draw {
                reason: DrawReason::Adjudicated,
            } => Outcome::Draw {
                reason: DrawReason::Recorded,
            },
            outcome => outcome,
        };
        assert_eq!(read.final_outcome(), Some(written));
    }
}

#[test]
fn a_hub_engine_or_a_deck_is_refused_in_a_defined_variant() {
    let id = crowned_rules::defined::load_builtin("turkish")
        .expect("turkish is built in")
        .expect("it loads");
    let game_type = GameType::standard(Variant::Defined(id));
    let stop = Arc::new(AtomicBool::new(false));
    let hub = MatchConfig {
        b: Contender::Hub(vec!["crowned".into(), "hub".into()]),
        ..quick(game_type, MatchOpenings::Random, 2)
    };
    let refused = play_match(&hub, &stop, &mut |_, _| ControlFlow::Continue(()));
    assert_eq!(refused, Err(MatchError::HubInDefinedVariant(game_type)));
    let deck = quick(game_type, MatchOpenings::Deck(builtin_openings()), 2);
    let refused = play_match(&deck, &stop, &mut |_, _| ControlFlow::Continue(()));
    assert_eq!(refused, Err(MatchError::DeckDoesNotFit(game_type)));
}
