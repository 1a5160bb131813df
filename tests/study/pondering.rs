//! Pondering driven through the app by actions: `max` thinks on the person's time about the reply its line
//! expects; that reply turns the search into its move, any other change stops it.

use crowned::app::EngineNews;
use std::time::Duration;

use crowned::app::{Action, App, Effect, Player, Players, Preferences};
use crowned::engine::{AnySituation, Engine, Level, Limits};
use crowned::rules::{Move, SquareStyle};

use crate::common::app::answer;
use crate::common::screen::screen;

const AGAINST_MAX: Players = Players {
    black: Player::Human,
    white: Player::Engine(Level::Max),
};

/// The search an effect list starts with `Effect::Think`, if any.
fn think(effects: &[Effect]) -> Option<(u64, AnySituation)> {
    effects.iter().find_map(|e| match e {
        Effect::Think {
            search, situation, ..
        } => Some((*search, situation.clone())),
        _ => None,
    })
}

/// The ponder search an effect list starts, if any.
fn ponder(effects: &[Effect]) -> Option<(u64, AnySituation, Level)> {
    effects.iter().find_map(|e| match e {
        Effect::Ponder {
            search,
            situation,
            level,
        } => Some((*search, situation.clone(), *level)),
        _ => None,
    })
}

/// Answers the engine's move search as the service would: a real search's line as its last progress, then its
/// move. Returns the effects and the line.
fn engine_answers(app: &mut App, effects: &[Effect]) -> (Vec<Effect>, Vec<Move>) {
    let (search, situation) = think(effects).expect("the engine is asked for its move");
    let result = Engine::new().think(&situation, Level::Max, &Limits::depth(6), 0, &mut |_| {});
    assert!(result.pv.len() >= 2, "a line with a reply: {:?}", result.pv);
    let mut effects = app.update(Action::Engine(EngineNews::Progress {
        search,
        depth: result.depth,
        score: result.score,
        pv: result.pv.clone(),
    }));
    effects.extend(app.update(Action::Engine(EngineNews::Moved {
        search,
        mv: result.best,
    })));
    (effects, result.pv)
}

/// A game against `max` after the person's first move and the engine's answer: the app, the effects of the answer
/// and the engine's line. The first move is the first of a few common ones after whose answer the person has more
/// than one move, so that a test can play one the engine did not expect (the engine's answer, which its network
/// chooses, may leave a single capture).
fn after_the_engines_answer(preferences: Preferences) -> (App, Vec<Effect>, Vec<Move>) {
    for opening in ["11-15", "9-13", "10-14", "11-16", "10-15", "9-14"] {
        let (mut app, _) = App::new(AGAINST_MAX);
        app.set_preferences(preferences.clone());
        let effects = app.update(Action::Submit(opening.into()));
        let (effects, line) = engine_answers(&mut app, &effects);
        assert_eq!(app.game().ply(), 2, "the engine's move is played");
        if app.game().position().legal_moves().len() > 1 {
            return (app, effects, line);
        }
    }
    panic!("every opening tried leaves the person a single move");
}

fn typed(app: &App, mv: &Move) -> String {
    app.game().position().write_move(mv, SquareStyle::Numbers)
}

#[test]
fn max_ponders_on_the_reply_it_expects_and_that_reply_makes_it_its_move() {
    let (mut app, effects, line) = after_the_engines_answer(Preferences::default());
    let (search, situation, level) = ponder(&effects).expect("max ponders on the person's time");
    assert_eq!(level, Level::Max);
    assert_eq!(app.pondering_on(), Some(line[1]));
    let mut expected = app.game().clone();
    expected
        .play(&line[1])
        .expect("the expected reply is legal");
    assert_eq!(
        situation.position,
        expected.position(),
        "it searches the position after the reply"
    );
    assert!(
        !app.is_thinking(),
        "the person is to move: nothing waits for the engine"
    );
    let shown = screen(&app, 100, 30);
    assert!(
        shown.contains("the engine thinks on your time"),
        "the status line says the engine uses the player's time:\n{shown}"
    );
    let reply = typed(&app, &line[1]);
    let status = shown
        .lines()
        .find(|row| row.contains("thinks on your time"))
        .unwrap_or_default();
    assert!(
        !status.contains(&reply) && !status.contains("hint"),
        "the reply it expects is not given away:\n{shown}"
    );

    // The expected reply: the ponder search is now the move's, with a move's time from now.
    let effects = app.update(Action::Submit(typed(&app, &line[1])));
    assert_eq!(app.game().ply(), 3);
    assert!(think(&effects).is_none(), "no new search: {effects:?}");
    let limits = effects.iter().find_map(|e| match e {
        Effect::PonderHit {
            search: hit,
            limits,
        } if *hit == search => Some(*limits),
        _ => None,
    });
    assert_eq!(
        limits,
        Some(Level::Max.limits(app.preferences().think_time))
    );
    assert!(app.is_thinking());
    assert_eq!(app.pondering_on(), None);
    assert!(!screen(&app, 100, 30).contains("thinks on your time"));

    // Its answer is the engine's move.
    let mv = app.game().position().legal_moves()[0];
    let effects = app.update(Action::Engine(EngineNews::Moved {
        search,
        mv: Some(mv),
    }));
    assert_eq!(app.game().ply(), 4, "the pondered search's move is played");
    assert!(!app.is_thinking());
    let _ = effects;
}

#[test]
fn another_reply_stops_pondering_and_the_engine_thinks_afresh() {
    let (mut app, effects, line) = after_the_engines_answer(Preferences::default());
    let (search, _, _) = ponder(&effects).expect("a ponder search");
    let other = app
        .game()
        .position()
        .legal_moves()
        .into_iter()
        .find(|mv| *mv != line[1])
        .expect("another move");
    let effects = app.update(Action::Submit(typed(&app, &other)));
    let (fresh, situation) = think(&effects).expect("a search of the real position");
    assert_ne!(fresh, search);
    assert_eq!(situation.position, app.game().position());
    assert!(
        !effects
            .iter()
            .any(|e| matches!(e, Effect::PonderHit { .. }))
    );
    // The ponder search's late answer is not taken for the move.
    let late = app.game().position().legal_moves()[0];
    let stale = app.update(Action::Engine(EngineNews::Moved {
        search,
        mv: Some(late),
    }));
    assert!(stale.is_empty());
    assert_eq!(app.game().ply(), 3);
    assert!(app.is_thinking(), "the fresh search is still awaited");
}

#[test]
fn an_undo_a_pause_or_a_new_game_stop_the_ponder_search() {
    let stops = |effects: &[Effect]| effects.iter().any(|e| matches!(e, Effect::StopThinking));

    let (mut app, effects, _) = after_the_engines_answer(Preferences::default());
    assert!(ponder(&effects).is_some());
    let effects = app.update(Action::Undo);
    assert!(stops(&effects), "an undo: {effects:?}");
    assert_eq!(app.pondering_on(), None);

    let (mut app, _, _) = after_the_engines_answer(Preferences::default());
    let effects = app.update(Action::Pause);
    assert!(stops(&effects), "a pause: {effects:?}");
    // Going on again ponders again.
    let effects = app.update(Action::Pause);
    assert!(ponder(&effects).is_some(), "after the pause: {effects:?}");

    let (mut app, _, _) = after_the_engines_answer(Preferences::default());
    let effects = app.update(Action::Rematch);
    assert!(
        stops(&effects) || think(&effects).is_some(),
        "a new game: {effects:?}"
    );
    assert_eq!(app.pondering_on(), None);
}

#[test]
fn a_hint_takes_the_engine_and_pondering_comes_back_after_it() {
    let (mut app, _, line) = after_the_engines_answer(Preferences::default());
    let effects = app.update(Action::Hint);
    assert!(think(&effects).is_some(), "the hint's search");
    assert_eq!(app.pondering_on(), None, "the hint's search replaced it");
    let effects = answer(&mut app, effects);
    assert!(app.hint().is_some());
    // `answer` handled the hint; the app asked to ponder again once the engine was free.
    let again = effects.iter().any(|e| matches!(e, Effect::Ponder { .. }));
    assert!(again, "{effects:?}");
    assert_eq!(app.pondering_on(), Some(line[1]));
}

#[test]
fn no_pondering_when_turned_off_below_max_or_between_people() {
    let off = Preferences {
        ponder: false,
        ..Preferences::default()
    };
    let (app, effects, _) = after_the_engines_answer(off);
    assert!(ponder(&effects).is_none());
    assert_eq!(app.pondering_on(), None);

    // `hard` stops at its depth: more time would not make it stronger.
    let (mut app, _) = App::new(Players {
        black: Player::Human,
        white: Player::Engine(Level::Hard),
    });
    let effects = app.update(Action::Submit("11-15".into()));
    let (effects, _) = engine_answers(&mut app, &effects);
    assert!(ponder(&effects).is_none(), "{effects:?}");

    // With the analysis panel open, the panel's search has the engine.
    let (mut app, _, _) = after_the_engines_answer(Preferences {
        analysis_time: Duration::from_secs(1),
        ..Preferences::default()
    });
    let effects = app.update(Action::ToggleAnalysis);
    assert!(think(&effects).is_some(), "the panel's search: {effects:?}");
    assert!(ponder(&effects).is_none());
    assert_eq!(app.pondering_on(), None);
}

#[test]
fn a_ponder_search_that_ends_by_itself_is_not_started_again() {
    let (mut app, effects, line) = after_the_engines_answer(Preferences::default());
    let (search, _, _) = ponder(&effects).expect("a ponder search");
    // It answers before the person moves (a forced position, say).
    let effects = app.update(Action::Engine(EngineNews::Moved { search, mv: None }));
    assert!(ponder(&effects).is_none(), "not started again: {effects:?}");
    assert_eq!(app.game().ply(), 2, "its answer is not a move");
    // The expected reply then starts a fresh search of the move.
    let effects = app.update(Action::Submit(typed(&app, &line[1])));
    assert!(think(&effects).is_some(), "{effects:?}");
}
