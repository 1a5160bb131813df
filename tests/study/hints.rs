//! Hints driven through the app by actions: asked for by key and by command, answered by the engine, shown
//! without being played, and gone once the position changes.

use crowned::app::{BrowseAction, EngineNews};
use std::time::Duration;

use crowned::app::{Action, App, Effect, Mode, Player, Players, Preferences};
use crowned::engine::{Level, Limits};
use crowned::rules::SquareStyle;

use crate::common::app::{HUMANS, answer, app_from, sq};
use crate::common::screen::screen;

const VS_ENGINE: Players = Players {
    black: Player::Human,
    white: Player::Engine(Level::Medium),
};

/// The search a hint asks for: its number, level and limits.
fn hint_search(effects: &[Effect]) -> Option<(u64, Level, Limits)> {
    effects.iter().find_map(|e| match e {
        Effect::Think {
            search,
            level,
            limits,
            ..
        } => Some((*search, *level, *limits)),
        _ => None,
    })
}

#[test]
fn a_hint_is_shown_not_played() {
    let (mut app, _) = App::new(VS_ENGINE);
    let effects = app.update(Action::Hint);
    let (_, level, limits) = hint_search(&effects).expect("a search for the hint");
    let preferences = Preferences::default();
    assert_eq!(level, preferences.hint_level);
    assert_eq!(limits, level.limits(preferences.hint_time));
    assert!(app.finding_hint());
    assert!(
        app.status().starts_with("looking for a hint"),
        "{}",
        app.status()
    );
    assert!(answer(&mut app, effects).is_empty());

    assert_eq!(app.game().len(), 0, "the hint is not played");
    let hint = *app.hint().expect("a hint");
    assert!(app.game().position().legal_moves().contains(&hint.mv));
    assert!(!app.finding_hint());
    let text = app
        .game()
        .position()
        .write_move(&hint.mv, SquareStyle::Numbers);
    let shown = screen(&app, 80, 24);
    assert!(shown.contains(&format!("hint: {text}")), "{shown}");
    // The move's ends are marked on the board by glyphs as well as by colour (the cursor's own marks win on its
    // square): here the empty square it goes to.
    assert!(shown.contains("{ }"), "{shown}");

    // Asking again for the same position asks the engine nothing.
    assert!(app.update(Action::Hint).is_empty());
}

#[test]
fn a_move_or_esc_takes_the_hint_away() {
    let mut app = app_from("B:W18,22,23:B9,10,11", HUMANS);
    let effects = app.update(Action::Hint);
    let _ = answer(&mut app, effects);
    assert!(app.hint().is_some());
    let _ = app.update(Action::Cancel);
    assert!(app.hint().is_none(), "Esc dismisses it");

    let effects = app.update(Action::Hint);
    let _ = answer(&mut app, effects);
    let mv = app.hint().expect("a hint").mv;
    let _ = app.update(Action::Submit(
        app.game().position().write_move(&mv, SquareStyle::Numbers),
    ));
    assert_eq!(app.game().len(), 1, "{}", app.status());
    assert!(app.hint().is_none(), "the hint was for the position before");
    // Taking the move back brings the position back, and the hint was dropped with the move.
    let _ = app.update(Action::Undo);
    assert_eq!(app.game().ply(), 0, "{}", app.status());
    assert!(
        app.hint().is_some(),
        "the same position: the hint still holds"
    );
}

#[test]
fn a_move_played_while_the_hint_is_sought_stops_the_search() {
    let (mut app, _) = App::new(HUMANS);
    let asked = app.update(Action::Hint);
    let (search, ..) = hint_search(&asked).expect("a search");
    let effects = app.update(Action::Submit("11-15".into()));
    assert!(
        effects.iter().any(|e| matches!(e, Effect::StopThinking)),
        "{effects:?}"
    );
    assert!(!app.finding_hint());
    // Its late answer changes nothing.
    let mv = app.game().position().legal_moves()[0];
    let effects = app.update(Action::Engine(EngineNews::Moved {
        search,
        mv: Some(mv),
    }));
    assert!(effects.is_empty());
    assert!(app.hint().is_none());
    assert_eq!(app.game().len(), 1);
}

#[test]
fn a_hint_in_a_capture_is_the_capture() {
    // Black must take 18, from 14 (landing on 23) or from 15 (on 22).
    let mut app = app_from("B:W18,30:B14,15,1", HUMANS);
    let effects = app.update(Action::Hint);
    let _ = answer(&mut app, effects);
    let hint = app.hint().expect("a hint");
    assert!(hint.mv.is_capture(), "{:?}", hint.mv);
    assert!([sq(22), sq(23)].contains(&hint.mv.to()), "{:?}", hint.mv);
}

#[test]
fn the_command_names_a_level_and_refuses_nonsense() {
    let (mut app, _) = App::new(HUMANS);
    let effects = app.update(Action::Submit(":hint medium".into()));
    let (_, level, _) = hint_search(&effects).expect("a search");
    assert_eq!(level, Level::Medium);
    let _ = answer(&mut app, effects);
    assert!(app.hint().is_some());

    let (mut app, _) = App::new(HUMANS);
    let effects = app.update(Action::Submit(":hint strongest".into()));
    assert!(effects.is_empty());
    assert!(app.status().contains("unknown level"), "{}", app.status());
    assert_eq!(
        app.input().value(),
        ":hint strongest",
        "kept to be corrected"
    );
}

#[test]
fn no_hint_where_nobody_is_to_move() {
    // The engine is to move.
    let engine_first = Players {
        black: Player::Engine(Level::Medium),
        white: Player::Human,
    };
    let (mut app, _) = App::new(engine_first);
    let effects = app.update(Action::Hint);
    assert!(hint_search(&effects).is_none(), "{effects:?}");
    assert!(
        app.status().contains("the engine is to move"),
        "{}",
        app.status()
    );

    // The game is over.
    let mut app = app_from("B:W18:B14", HUMANS);
    let _ = app.update(Action::Submit("14x23".into()));
    assert!(matches!(app.mode(), Mode::Over(_)));
    assert!(app.update(Action::Hint).is_empty());
    assert!(
        app.status().contains("no move to hint at"),
        "{}",
        app.status()
    );

    // Browsing an earlier position.
    let (mut app, _) = App::new(HUMANS);
    let _ = app.update(Action::Submit("11-15".into()));
    let _ = app.update(Action::Browse(BrowseAction::Back));
    assert!(app.update(Action::Hint).is_empty());
    assert!(
        app.status().contains("the position in play"),
        "{}",
        app.status()
    );

    // A hint already being sought.
    let (mut app, _) = App::new(HUMANS);
    assert!(!app.update(Action::Hint).is_empty());
    assert!(app.update(Action::Hint).is_empty());
    assert_eq!(app.status(), "already looking for a hint");
}

#[test]
fn the_hint_settings_are_followed() {
    let preferences = Preferences {
        hint_level: Level::Hard,
        hint_time: Duration::from_millis(250),
        ..Preferences::default()
    };
    let (mut app, _) = App::new(HUMANS);
    app.set_preferences(preferences);
    let effects = app.update(Action::Hint);
    let (_, level, limits) = hint_search(&effects).expect("a search");
    assert_eq!(level, Level::Hard);
    assert_eq!(limits, Level::Hard.limits(Duration::from_millis(250)));
}

#[test]
fn hint_marked_80x24() {
    let (mut app, _) = App::new(HUMANS);
    for mv in ["11-15", "23-19", "8-11", "22-17"] {
        let _ = app.update(Action::Submit(mv.into()));
    }
    // The cursor away from the marks, which it would cover.
    let _ = app.update(Action::PickSquare(sq(32)));
    let effects = app.update(Action::Hint);
    let _ = answer(&mut app, effects);
    insta::assert_snapshot!(screen(&app, 80, 24));
}
