//! Clocks in a local game, driven by actions with the time set by hand: which clock runs, the increment, the
//! flag falling (by the timer, or on a move that comes too late), browsing and pausing, the engine thinking on
//! its clock, the dialog's choice, and a game saved and resumed with its clocks.

use crowned::app::{BrowseAction, EngineNews};
use std::time::Duration;

use crowned::app::{
    Action, App, ClockView, DialogRow, Effect, GameList, ListPurpose, Mode, Player, Players,
    Preferences, Timer,
};
use crowned::engine::{Level, Limits};
use crowned::game::pdn::ListedGame;
use crowned::game::{ClockState, Outcome, TimeControl, WinReason};
use crowned::rules::Color;
use crowned::store::{GameEntry, SavedGame};

use crate::common::app::{HUMANS, answer};
use crate::common::screen::screen;

const VS_ENGINE: Players = Players {
    black: Player::Human,
    white: Player::Engine(Level::Medium),
};

fn s(seconds: f64) -> Duration {
    Duration::from_secs_f64(seconds)
}

fn control(text: &str) -> TimeControl {
    text.parse().expect("a valid time control")
}

/// The moves a clocked game starts with here: each side's first move is not timed, so the clocks run from the
/// third.
const UNTIMED: [&str; 2] = ["12-16", "21-17"];

/// A game between `players` with `clock` from the settings, at time 0, after each side's untimed first move
/// (resumed there with its clocks full), its first action done.
fn clocked(players: Players, clock: &str) -> (App, Vec<Effect>) {
    let mut game = crowned::game::AnyGame::default();
    for text in UNTIMED {
        let mv = game
            .position()
            .parse_move(text, crowned::rules::Strictness::Exact)
            .expect("legal");
        game.play(&mv).expect("legal");
    }
    let saved = SavedGame {
        game,
        players,
        file: None,
        clock: Some(crowned::game::Clock::new(control(clock)).state(Duration::ZERO)),
    };
    let mut app = App::offering_resume_over(Default::default(), players, saved);
    app.set_preferences(Preferences {
        clock: Some(control(clock)),
        // The board as it stands after each move, for the pictures.
        animation_step: None,
        ..Preferences::default()
    });
    let mut first = app.update(Action::Resized {
        width: 80,
        height: 24,
    });
    first.extend(app.update(Action::AcceptResume));
    (app, first)
}

/// Plays `text` at time `at`.
fn play_at(app: &mut App, at: f64, text: &str) -> Vec<Effect> {
    app.set_time(s(at));
    app.update(Action::Submit(text.into()))
}

fn view(app: &App) -> ClockView {
    app.clocks().expect("the game has clocks")
}

fn won_on_time(app: &App) -> Option<Color> {
    match app.mode() {
        Mode::Over(Outcome::Win {
            winner,
            reason: WinReason::Time,
        }) => Some(winner),
        _ => None,
    }
}

fn clock_wake(effects: &[Effect]) -> Option<Duration> {
    effects.iter().find_map(|e| match e {
        Effect::Wake {
            timer: Timer::Clock,
            after,
        } => Some(*after),
        _ => None,
    })
}

#[test]
fn a_move_hands_the_clock_over_with_the_increment() {
    let (mut app, effects) = clocked(HUMANS, "1+2");
    assert_eq!(view(&app).running, Some(Color::Black), "Black moves first");
    assert!(clock_wake(&effects).is_some(), "woken for the next second");
    app.set_time(s(10.5));
    assert_eq!(view(&app).left, [s(49.5), s(60.0)]);
    let effects = play_at(&mut app, 10.5, "11-15");
    assert_eq!(view(&app).running, Some(Color::White));
    assert_eq!(view(&app).left[0], s(51.5), "49.5 s and the 2 s increment");
    // 59.000 s shows 0:59 until 58.000: the wake comes when 58 shows, just after it.
    let after = clock_wake(&effects).expect("woken for White's clock");
    assert!(after >= s(1.0) && after < s(1.1), "{after:?}");
    play_at(&mut app, 20.0, "23-19");
    assert_eq!(view(&app).left, [s(51.5), s(52.5)], "9.5 s used, 2 s back");
    let shown = screen(&app, 80, 24);
    assert!(shown.contains(">0:52"), "Black's clock runs: {shown}");
    assert!(shown.contains(" 0:53"), "{shown}");
}

#[test]
fn each_side_s_first_move_is_not_timed() {
    let (mut app, _) = App::new(HUMANS);
    app.set_preferences(Preferences {
        clock: Some(control("1+2")),
        ..Preferences::default()
    });
    let _ = app.update(Action::Resized {
        width: 80,
        height: 24,
    });
    assert_eq!(
        view(&app).running,
        None,
        "no clock runs before the first move"
    );
    play_at(&mut app, 10.0, "11-15");
    assert_eq!(view(&app).running, None, "nor before White's first move");
    play_at(&mut app, 25.0, "23-19");
    assert_eq!(view(&app).left, [s(60.0), s(60.0)], "neither was timed");
    assert_eq!(
        view(&app).running,
        Some(Color::Black),
        "from Black's second move on"
    );
    play_at(&mut app, 30.0, "8-11");
    assert_eq!(view(&app).left, [s(57.0), s(60.0)], "5 s spent, 2 s added");
    // Taken back to the start, the clocks stop again.
    app.set_time(s(31.0));
    let _ = app.update(Action::Undo);
    let _ = app.update(Action::Undo);
    assert_eq!(view(&app).running, None);
}

#[test]
fn the_flag_falls_on_the_timer_and_the_game_is_lost_on_time() {
    let (mut app, _) = clocked(HUMANS, "0.5+0");
    play_at(&mut app, 1.0, "11-15");
    // White's 30 s run out at 31 s; the timer comes a little after.
    app.set_time(s(30.9));
    let effects = app.update(Action::Timer(Timer::Clock));
    assert_eq!(won_on_time(&app), None, "not yet");
    assert!(clock_wake(&effects).is_some());
    app.set_time(s(31.005));
    let effects = app.update(Action::Timer(Timer::Clock));
    assert_eq!(won_on_time(&app), Some(Color::Black));
    assert!(
        effects
            .iter()
            .any(|e| matches!(e, Effect::GameChanged(crowned::app::Keep::Finished(_)))),
        "the finished game is filed"
    );
    assert!(
        app.status().contains("Black wins on time"),
        "{}",
        app.status()
    );
    assert_eq!(view(&app).running, None, "the clocks stop");
    assert_eq!(view(&app).left[1], Duration::ZERO);
    // Nothing more is played.
    play_at(&mut app, 32.0, "22-18");
    assert_eq!(app.game().len(), 3);
}

#[test]
fn a_move_that_comes_after_the_flag_is_not_played() {
    let (mut app, _) = clocked(HUMANS, "30s");
    play_at(&mut app, 29.0, "11-15");
    assert_eq!(
        view(&app).left,
        [s(30.0), s(30.0)],
        "time per move is not carried over"
    );
    // White moves at 60.5 s, before the timer was seen: too late.
    play_at(&mut app, 60.5, "23-19");
    assert_eq!(won_on_time(&app), Some(Color::Black));
    assert_eq!(app.game().len(), 3, "the late move is not in the game");
}

#[test]
fn browsing_stops_the_clocks_between_people_but_not_against_the_engine() {
    let (mut app, _) = clocked(HUMANS, "5+0");
    play_at(&mut app, 5.0, "11-15");
    app.set_time(s(6.0));
    let _ = app.update(Action::Browse(BrowseAction::Back));
    assert_eq!(
        view(&app).running,
        None,
        "people looking back stop their clocks"
    );
    app.set_time(s(100.0));
    let _ = app.update(Action::Browse(BrowseAction::Last));
    assert_eq!(view(&app).running, Some(Color::White));
    app.set_time(s(101.0));
    assert_eq!(view(&app).left[1], s(298.0), "only the time in play counts");

    let (mut app, effects) = clocked(VS_ENGINE, "5+0");
    let _ = answer(&mut app, effects);
    let effects = play_at(&mut app, 5.0, "11-15");
    app.set_time(s(6.0));
    let _ = app.update(Action::Browse(BrowseAction::Back));
    assert_eq!(
        view(&app).running,
        Some(Color::White),
        "the engine's clock runs while it thinks"
    );
    // Its move comes while the player looks back: the player's clock runs on.
    app.set_time(s(8.0));
    let _ = answer(&mut app, effects);
    assert_eq!(app.game().len(), 4);
    assert!(matches!(app.mode(), Mode::Browsing { .. }));
    assert_eq!(view(&app).running, Some(Color::Black));
    assert_eq!(view(&app).left[1], s(297.0));
}

#[test]
fn the_engine_thinks_on_its_clock_and_pausing_stops_the_clocks() {
    let (mut app, effects) = clocked(VS_ENGINE.swapped(), "3+2");
    let limits = effects.iter().find_map(|e| match e {
        Effect::Think { limits, .. } => Some(*limits),
        _ => None,
    });
    let expected = Limits {
        clock: Some(crowned::engine::TimeLeft {
            // Less the allowance for the time a move spends outside the search.
            remaining: s(179.99),
            increment: s(2.0),
            moves_to_go: None,
        }),
        ..Limits::default()
    };
    assert_eq!(limits, Some(expected), "the engine is given its clock");
    assert_eq!(view(&app).running, Some(Color::Black));
    app.set_time(s(4.0));
    let _ = app.update(Action::Pause);
    assert!(app.paused());
    assert_eq!(view(&app).running, None);
    app.set_time(s(50.0));
    let effects = app.update(Action::Pause);
    assert_eq!(view(&app).running, Some(Color::Black));
    let limits = effects.iter().find_map(|e| match e {
        Effect::Think { limits, .. } => limits.clock,
        _ => None,
    });
    assert_eq!(
        limits.map(|c| c.remaining),
        Some(s(175.99)),
        "what it has left"
    );
}

#[test]
fn an_undo_hands_the_clock_back_without_the_time() {
    let (mut app, _) = clocked(HUMANS, "1+0");
    play_at(&mut app, 10.0, "11-15");
    play_at(&mut app, 15.0, "23-19");
    app.set_time(s(20.0));
    let _ = app.update(Action::Undo);
    assert_eq!(view(&app).running, Some(Color::White));
    assert_eq!(
        view(&app).left,
        [s(45.0), s(55.0)],
        "the time spent stays spent"
    );
}

#[test]
fn an_undo_takes_the_increment_back_and_a_redo_returns_it() {
    let (mut app, _) = clocked(HUMANS, "1+5");
    play_at(&mut app, 10.0, "11-15");
    play_at(&mut app, 15.0, "23-19");
    assert_eq!(view(&app).left, [s(55.0), s(60.0)], "each earned 5 s");
    app.set_time(s(20.0));
    let _ = app.update(Action::Undo);
    assert_eq!(
        view(&app).left,
        [s(50.0), s(55.0)],
        "White's move is gone, and the 5 s it earned with it (Black's 5 s of thought stay spent)"
    );
    let _ = app.update(Action::Redo);
    assert_eq!(view(&app).left, [s(50.0), s(60.0)]);
    // Taking moves back and playing them again, over and over, never adds time.
    for _ in 0..5 {
        let _ = app.update(Action::Undo);
        let _ = app.update(Action::Undo);
        play_at(&mut app, 20.0, "11-15");
        play_at(&mut app, 20.0, "23-19");
    }
    assert_eq!(view(&app).left, [s(50.0), s(60.0)]);
}

#[test]
fn the_dialog_chooses_the_clocks_and_a_rematch_keeps_them() {
    let (mut app, _) = App::new(HUMANS);
    let _ = app.update(Action::NewGame);
    while app.dialog().map(|d| d.row) != Some(DialogRow::Clock) {
        let _ = app.update(Action::Down);
    }
    let shown = screen(&app, 80, 24);
    assert!(shown.contains("Clock") && shown.contains("none"), "{shown}");
    // none, 1+0, 3+2, 5+3.
    for _ in 0..3 {
        let _ = app.update(Action::Right);
    }
    insta::assert_snapshot!("new_game_dialog_with_a_clock_80x24", screen(&app, 80, 24));
    let _ = app.update(Action::PickAtCursor);
    assert_eq!(app.time_control(), Some(control("5+3")));
    assert_eq!(view(&app).left, [s(300.0), s(300.0)]);
    play_at(&mut app, 3.0, "11-15");
    let _ = app.update(Action::Rematch);
    assert_eq!(
        app.time_control(),
        Some(control("5+3")),
        "a rematch has the same clocks"
    );
    assert_eq!(view(&app).left, [s(300.0), s(300.0)], "fresh ones");
}

#[test]
fn clocks_on_screen_and_a_game_lost_on_time() {
    let (mut app, _) = clocked(HUMANS, "5+3");
    play_at(&mut app, 12.0, "11-15");
    play_at(&mut app, 17.4, "23-19");
    app.set_time(s(61.2));
    insta::assert_snapshot!("clocks_running_80x24", screen(&app, 80, 24));
    app.set_time(s(400.0));
    let _ = app.update(Action::Timer(Timer::Clock));
    assert_eq!(won_on_time(&app), Some(Color::White));
    insta::assert_snapshot!("lost_on_time_120x40", screen(&app, 120, 40));
}

#[test]
fn a_resumed_game_goes_on_with_its_clocks() {
    let (mut played, _) = clocked(VS_ENGINE, "10+5");
    play_at(&mut played, 42.0, "11-15");
    let state = played.clock_state().expect("the clocks");
    assert_eq!(state.left[0], s(563.0));
    let saved = SavedGame {
        game: played.game().clone(),
        players: VS_ENGINE,
        file: None,
        clock: Some(state),
    };
    let mut app = App::offering_resume_over(Default::default(), HUMANS, saved);
    assert_eq!(
        app.clocks(),
        None,
        "the game behind the offer has no clocks"
    );
    let shown = screen(&app, 80, 24);
    assert!(
        shown.contains("Clocks 10+5: Black 9:23, White 10:00."),
        "{shown}"
    );
    app.set_time(s(1_000.0));
    let effects = app.update(Action::AcceptResume);
    assert_eq!(view(&app).left, [s(563.0), s(600.0)]);
    assert_eq!(
        view(&app).running,
        Some(Color::White),
        "the engine's clock runs again"
    );
    let remaining = effects.iter().find_map(|e| match e {
        Effect::Think { limits, .. } => limits.clock.map(|c| c.remaining),
        _ => None,
    });
    assert_eq!(remaining, Some(s(599.99)));
    // Saved again, the clocks are as they stand.
    app.set_time(s(1_010.0));
    assert_eq!(
        app.clock_state(),
        Some(ClockState {
            control: control("10+5"),
            left: [s(563.0), s(590.0)]
        })
    );
}

#[test]
fn a_game_between_engines_on_a_clock_is_not_held_for_the_pace() {
    let engines = Players {
        black: Player::Engine(Level::Random),
        white: Player::Engine(Level::Random),
    };
    let (mut app, effects) = clocked(engines, "1+0");
    assert!(
        !effects.iter().any(|e| matches!(
            e,
            Effect::Wake {
                timer: Timer::Pace,
                ..
            }
        )),
        "{effects:?}"
    );
    let search = app.thinking().expect("Black's engine thinks").search;
    let mv = app.game().position().legal_moves().first().copied();
    app.set_time(s(0.2));
    let _ = app.update(Action::Engine(EngineNews::Moved { search, mv }));
    assert_eq!(app.game().len(), 3, "shown at once");
    assert_eq!(view(&app).running, Some(Color::White));
}

#[test]
fn a_saved_game_loaded_from_the_list_goes_on_with_its_clocks() {
    let (mut played, _) = clocked(HUMANS, "3+2");
    play_at(&mut played, 20.0, "11-15");
    let entry = GameEntry {
        game: ListedGame::whole(played.game().clone()),
        players: Some(HUMANS),
        error: None,
        source: "my-game.pdn".into(),
        file: None,
        clock: played.clock_state(),
    };
    let (mut app, _) = App::new(HUMANS);
    let list = GameList::new("saved games", vec![entry], ListPurpose::Load);
    let _ = app.update(Action::ShowGames(Box::new(list)));
    app.set_time(s(500.0));
    let _ = app.update(Action::PickAtCursor);
    assert_eq!(app.game().len(), 3);
    assert_eq!(app.time_control(), Some(control("3+2")));
    assert_eq!(view(&app).left, [s(162.0), s(180.0)]);
    assert_eq!(view(&app).running, Some(Color::White));
}
