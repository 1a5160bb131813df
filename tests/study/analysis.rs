//! The analysis panel driven through the app by actions: its search follows the position on show, gives way to
//! the game's own searches, shows reports at a bounded rate, and stops when the panel is hidden.

use crowned::app::{
    ANALYSIS_REFRESH, Action, AnalysisView, App, Effect, Mode, Player, Players, Preferences, Timer,
};
use crowned::app::{BrowseAction, EngineNews};
use crowned::engine::{Level, Limits, Score};
use crowned::rules::Move;

use crate::common::app::{HUMANS, answer, app_from};
use crate::common::screen::screen;

const VS_ENGINE: Players = Players {
    black: Player::Human,
    white: Player::Engine(Level::Medium),
};

/// The searches the effects start: number, position searched (as FEN), level and limits.
fn searches(effects: &[Effect]) -> Vec<(u64, String, Level, Limits)> {
    effects
        .iter()
        .filter_map(|e| match e {
            Effect::Think {
                search,
                situation,
                level,
                limits,
            } => Some((*search, situation.position.to_fen(), *level, *limits)),
            _ => None,
        })
        .collect()
}

fn stops(effects: &[Effect]) -> bool {
    effects.iter().any(|e| matches!(e, Effect::StopThinking))
}

/// The moves of `text` from the position on show (once any move being shown has arrived).
fn line(app: &mut App, text: &str) -> Vec<Move> {
    while app.animation().is_some() {
        let _ = app.update(Action::Timer(Timer::Animation));
    }
    let mut position = app.shown_position();
    text.split_whitespace()
        .map(|word| {
            let mv = position
                .parse_move(word, Default::default())
                .expect("a legal move");
            position = position.play(&mv);
            mv
        })
        .collect()
}

fn report(app: &mut App, search: u64, depth: u32, centi: i32, pv: Vec<Move>) -> Vec<Effect> {
    app.update(Action::Engine(EngineNews::Progress {
        search,
        depth,
        score: Score::Centi(centi),
        pv,
    }))
}

fn shown_depth(app: &App) -> Option<u32> {
    match app.analysis_view() {
        Some(AnalysisView::Line(line)) => Some(line.depth),
        _ => None,
    }
}

#[test]
fn the_panel_analyses_the_live_position_and_stops_when_hidden() {
    let (mut app, _) = App::new(HUMANS);
    let effects = app.update(Action::ToggleAnalysis);
    let started = searches(&effects);
    assert_eq!(started.len(), 1, "{effects:?}");
    let (search, fen, level, limits) = started[0].clone();
    assert_eq!(fen, app.game().position().to_fen());
    assert_eq!(
        (level, limits),
        (
            Level::Max,
            Limits::time(Preferences::default().analysis_time)
        )
    );
    assert_eq!(app.analysis_view(), Some(AnalysisView::Starting));
    assert!(!app.is_thinking(), "the game waits for nothing");

    // The first report shows at once and asks for the refresh timer; the next waits for it.
    let pv = line(&mut app, "11-15 23-19 8-11");
    let effects = report(&mut app, search, 6, 12, pv.clone());
    assert!(effects.iter().any(|e| matches!(
        e,
        Effect::Wake { timer: Timer::Analysis, after } if *after == ANALYSIS_REFRESH
    )));
    assert_eq!(shown_depth(&app), Some(6));
    assert!(report(&mut app, search, 7, 15, pv.clone()).is_empty());
    assert!(report(&mut app, search, 8, 10, pv.clone()).is_empty());
    assert_eq!(shown_depth(&app), Some(6), "held until the timer");
    let effects = app.update(Action::Timer(Timer::Analysis));
    assert_eq!(
        shown_depth(&app),
        Some(8),
        "the latest report, not every one"
    );
    assert!(!effects.is_empty(), "the timer runs on while reports come");
    assert!(app.update(Action::Timer(Timer::Analysis)).is_empty());

    // Reports of other searches are not the panel's.
    assert!(report(&mut app, search + 100, 30, 500, pv).is_empty());
    assert_eq!(shown_depth(&app), Some(8));

    let effects = app.update(Action::ToggleAnalysis);
    assert!(stops(&effects), "{effects:?}");
    assert!(searches(&effects).is_empty());
    assert_eq!(app.analysis_view(), None);
    // Nothing more is stopped once it has stopped.
    assert!(!stops(&app.update(Action::Flip)));
}

#[test]
fn browsing_analyses_the_position_on_show() {
    let (mut app, _) = App::new(HUMANS);
    for mv in ["11-15", "23-19", "8-11"] {
        let _ = app.update(Action::Submit(mv.into()));
    }
    let effects = app.update(Action::ToggleAnalysis);
    let (live, ..) = searches(&effects)[0].clone();
    let effects = app.update(Action::Browse(BrowseAction::Back));
    let started = searches(&effects);
    assert_eq!(started.len(), 1, "{effects:?}");
    assert!(matches!(app.mode(), Mode::Browsing { ply: 2 }));
    assert_eq!(started[0].1, app.shown_position().to_fen());
    assert_ne!(started[0].0, live);
    // The live position's late report is not shown for the position browsed.
    let _ = report(&mut app, live, 9, 40, Vec::new());
    assert_eq!(app.analysis_view(), Some(AnalysisView::Starting));
    let pv = line(&mut app, "8-11");
    let _ = report(&mut app, started[0].0, 5, -20, pv);
    assert_eq!(shown_depth(&app), Some(5));
    // Back to the live position: analysed again.
    let effects = app.update(Action::Browse(BrowseAction::Last));
    assert_eq!(searches(&effects)[0].1, app.game().position().to_fen());
}

#[test]
fn the_game_s_own_searches_come_first() {
    let (mut app, _) = App::new(VS_ENGINE);
    let _ = app.update(Action::ToggleAnalysis);
    // Black plays: White's engine thinks, which replaces the panel's search on the engine.
    let effects = app.update(Action::Submit("11-15".into()));
    let started = searches(&effects);
    assert_eq!(started.len(), 1, "{effects:?}");
    assert_eq!(
        started[0].2,
        Level::Medium,
        "the engine's move, not the panel"
    );
    assert!(app.is_thinking());
    match app.analysis_view() {
        Some(AnalysisView::Idle(why)) => assert!(why.contains("busy"), "{why}"),
        other => panic!("{other:?}"),
    }
    // Its reports with a line of play show in the panel.
    let pv = line(&mut app, "23-19 8-11");
    let _ = report(&mut app, started[0].0, 4, 30, pv);
    assert_eq!(shown_depth(&app), Some(4));
    // Once it has moved, the panel analyses the new position.
    let effects = answer(&mut app, effects);
    assert!(effects.is_empty(), "{effects:?}");
    assert_eq!(app.game().len(), 2);
    let effects = app.update(Action::Flip);
    assert!(
        searches(&effects).is_empty(),
        "already started after the move"
    );
    assert!(!app.is_thinking());
    assert_eq!(app.analysis_view(), Some(AnalysisView::Starting));
}

#[test]
fn a_hint_asked_with_the_panel_open_is_answered_then_analysis_resumes() {
    let (mut app, _) = App::new(HUMANS);
    let _ = app.update(Action::ToggleAnalysis);
    let effects = app.update(Action::Hint);
    let started = searches(&effects);
    assert_eq!(started.len(), 1);
    assert!(app.finding_hint());
    let mv = app.game().position().legal_moves()[0];
    let effects = app.update(Action::Engine(EngineNews::Moved {
        search: started[0].0,
        mv: Some(mv),
    }));
    assert_eq!(app.hint().map(|h| h.mv), Some(mv));
    let resumed = searches(&effects);
    assert_eq!(resumed.len(), 1, "the panel's search starts again");
    assert_eq!(resumed[0].2, Level::Max);
}

#[test]
fn an_ended_game_is_not_searched() {
    let mut app = app_from("B:W18:B14", HUMANS);
    let _ = app.update(Action::Submit("14x23".into()));
    let effects = app.update(Action::ToggleAnalysis);
    assert!(searches(&effects).is_empty());
    match app.analysis_view() {
        Some(AnalysisView::Idle(why)) => assert!(why.contains("Black wins"), "{why}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn the_command_toggles_the_panel() {
    let (mut app, _) = App::new(HUMANS);
    let effects = app.update(Action::Submit(":analysis".into()));
    assert_eq!(searches(&effects).len(), 1);
    assert!(app.analysis_open());
    let effects = app.update(Action::Submit(":analysis".into()));
    assert!(stops(&effects));
    assert!(!app.analysis_open());
}

/// A game of four moves with the panel open and a report for the position after them.
fn analysed(moves: &str, width: u16, height: u16) -> String {
    let (mut app, _) = App::new(HUMANS);
    for mv in moves.split_whitespace() {
        let _ = app.update(Action::Submit(mv.into()));
    }
    let effects = app.update(Action::ToggleAnalysis);
    let (search, ..) = searches(&effects)[0].clone();
    // Each side's first legal move in turn, as a line of play.
    let mut position = app.game().position();
    let pv: Vec<Move> = (0..7)
        .map(|_| {
            let mv = position.legal_moves()[0];
            position = position.play(&mv);
            mv
        })
        .collect();
    let _ = report(&mut app, search, 17, -35, pv);
    screen(&app, width, height)
}

#[test]
fn analysis_panel_80x24() {
    insta::assert_snapshot!(analysed("11-15 23-19 8-11 22-17", 80, 24));
}

#[test]
fn analysis_panel_120x40() {
    insta::assert_snapshot!(analysed("11-15 23-19 8-11 22-17", 120, 40));
}
