//! Whole games driven through the application state machine by actions, as the terminal will drive it.

use crowned::app::{Action, App, Effect, Mode, Player, Players, Timer};
use crowned::app::{BrowseAction, EngineNews};
use crowned::engine::Level;
use crowned::game::{DrawReason, Outcome, WinReason};
use crowned::rules::{Color, SquareStyle};

use crate::common;

use common::app::{HUMANS, answer, app_from, sq};
use common::screen::screen;

/// Types each move into the input box and submits it; every move must be accepted.
fn type_moves(app: &mut App, moves: &str) {
    for text in moves.split_whitespace() {
        let before = app.game().len();
        let _ = app.update(Action::Submit(text.to_string()));
        assert!(
            app.input().value().is_empty() && (text.starts_with(':') || app.game().len() > before),
            "{text}: {}",
            app.status()
        );
    }
}

/// Plays the first legal move by typing it; returns the effects.
fn play_any(app: &mut App) -> Vec<Effect> {
    let pos = app.game().position();
    let mv = pos.legal_moves()[0];
    let text = pos.write_move(&mv, SquareStyle::Numbers);
    let effects = app.update(Action::Submit(text));
    assert!(app.input().value().is_empty(), "{}", app.status());
    effects
}

#[test]
fn a_quick_win_by_cursor() {
    // Black's man on 14 takes White's last piece on 18.
    let mut app = app_from("B:W18:B14", HUMANS);
    assert_eq!(
        app.picker().selected(),
        Some(sq(14)),
        "the only capturing piece is picked for the player"
    );
    // Walk the cursor to 23 (row 5, column 4) and pick it.
    while app.cursor().0 < 5 {
        let _ = app.update(Action::Down);
    }
    while app.cursor().1 < 4 {
        let _ = app.update(Action::Right);
    }
    while app.cursor().1 > 4 {
        let _ = app.update(Action::Left);
    }
    assert_eq!(app.cursor_square(), Some(sq(23)));
    let _ = app.update(Action::PickAtCursor);
    assert_eq!(
        app.mode(),
        Mode::Over(Outcome::Win {
            winner: Color::Black,
            reason: WinReason::NoPieces
        })
    );
    assert!(
        app.status()
            .starts_with("Black wins: White has no pieces left. n: new game, r: rematch"),
        "{}",
        app.status()
    );
    // Nothing moves after the end.
    let _ = app.update(Action::PickSquare(sq(23)));
    assert!(app.status().contains("n: new game"), "{}", app.status());
}

#[test]
fn a_multi_jump_is_picked_jump_by_jump() {
    let mut app = app_from("B:W17,18,25,26,32:B14", HUMANS);
    let _ = app.update(Action::PickSquare(sq(23)));
    assert_eq!(app.status(), "the capture goes on from 23");
    assert_eq!(
        app.game().len(),
        0,
        "nothing is played until the capture ends"
    );
    let _ = app.update(Action::PickSquare(sq(9)));
    assert_eq!(app.status(), "the capture must go on from 23: 30 next");
    let _ = app.update(Action::PickSquare(sq(30)));
    assert_eq!(app.game().len(), 1);
    assert_eq!(app.game().position().side_to_move(), Color::White);
}

#[test]
fn illegal_attempts_change_nothing_and_say_why() {
    let (mut app, _) = App::new(HUMANS);
    let _ = app.update(Action::PickSquare(sq(22)));
    assert_eq!(app.status(), "there is no black piece on 22");
    let effects = app.update(Action::Submit("11-16x".into()));
    assert!(effects.is_empty(), "the text stays for correction");
    assert!(app.status().contains("not"), "{}", app.status());
    assert_eq!(app.game().len(), 0);
    let _ = app.update(Action::Submit(":frobnicate".into()));
    assert!(app.status().starts_with("unknown command :frobnicate"));
}

#[test]
fn a_draw_by_repetition() {
    let mut app = app_from("B:WK32:BK1", HUMANS);
    type_moves(&mut app, "1-6 32-27 6-1 27-32 1-6 32-27 6-1 27-32");
    assert_eq!(
        app.mode(),
        Mode::Over(Outcome::Draw {
            reason: DrawReason::Repetition { times: 3 }
        })
    );
}

#[test]
fn the_move_list_s_result_follows_the_game_through_undo_and_redo() {
    let mut app = app_from("B:WK32:BK1", HUMANS);
    type_moves(&mut app, "1-6 32-27 6-1 27-32 1-6 32-27 6-1 27-32");
    let result = " 1/2-1/2 · drawn";
    assert!(screen(&app, 80, 24).contains(result), "the game is drawn");
    // Browsing the finished game back is looking at it: it is still drawn.
    let _ = app.update(Action::Browse(BrowseAction::First));
    assert!(matches!(app.mode(), Mode::Browsing { .. }));
    assert!(
        screen(&app, 80, 24).contains(result),
        "browsing keeps the result"
    );
    let _ = app.update(Action::Cancel);
    for _ in 0..8 {
        let _ = app.update(Action::Undo);
    }
    assert_eq!(app.game().ply(), 0, "back at the start");
    let shown = screen(&app, 80, 24);
    assert!(
        !shown.contains("1/2-1/2") && !shown.contains("drawn"),
        "{shown}"
    );
    for _ in 0..8 {
        let _ = app.update(Action::Redo);
    }
    assert!(screen(&app, 80, 24).contains(result), "redone, drawn again");
}

#[test]
fn undo_and_redo_take_whole_turns_against_the_engine() {
    let players = Players {
        black: Player::Human,
        white: Player::Engine(Level::Medium),
    };
    let (mut app, effects) = App::new(players);
    assert!(effects.is_empty());
    assert!(
        app.flipped(),
        "the player with Black sees Black at the bottom"
    );
    let effects = app.update(Action::Submit("11-15".into()));
    assert!(app.is_thinking());
    assert!(answer(&mut app, effects).is_empty());
    assert_eq!(app.game().len(), 2);
    play_any(&mut app);
    let effects = app.update(Action::Undo);
    assert!(matches!(
        effects.as_slice(),
        [Effect::StopThinking, Effect::GameChanged(_)]
    ));
    assert_eq!(app.game().ply(), 2, "back to the human's turn");
    let _ = app.update(Action::Undo);
    assert_eq!(app.game().ply(), 0);
    let _ = app.update(Action::Redo);
    assert_eq!(app.game().ply(), 2);
    assert_eq!(app.game().position().side_to_move(), Color::Black);
    // A new move drops the redo line.
    let effects = play_any(&mut app);
    assert_eq!(app.game().len(), 3);
    // An answer from a search that was stopped is ignored.
    let stale = app.update(Action::Engine(EngineNews::Moved {
        search: 1,
        mv: None,
    }));
    assert!(stale.is_empty());
    assert!(answer(&mut app, effects).is_empty());
    assert_eq!(app.game().len(), 4);
}

#[test]
fn browsing_shows_earlier_positions_and_returns() {
    let (mut app, _) = App::new(HUMANS);
    type_moves(&mut app, "11-15 23-19 8-11");
    let live = app.game().position();
    let _ = app.update(Action::Browse(BrowseAction::Back));
    assert_eq!(app.mode(), Mode::Browsing { ply: 2 });
    assert_eq!(
        app.shown_position(),
        app.game().position_at(2).expect("ply 2")
    );
    let _ = app.update(Action::Browse(BrowseAction::First));
    assert_eq!(app.mode(), Mode::Browsing { ply: 0 });
    let _ = app.update(Action::PickSquare(sq(9)));
    assert!(app.status().starts_with("browsing"));
    let _ = app.update(Action::Browse(BrowseAction::Forward));
    assert_eq!(app.mode(), Mode::Browsing { ply: 1 });
    let _ = app.update(Action::Cancel);
    assert_eq!(app.mode(), Mode::Play);
    assert_eq!(app.shown_position(), live);
    let _ = app.update(Action::Browse(BrowseAction::Back));
    let _ = app.update(Action::Browse(BrowseAction::Last));
    assert_eq!(app.mode(), Mode::Play);
    assert_eq!(app.game().len(), 3, "browsing never changes the game");
}

#[test]
fn quitting_a_game_in_progress_asks_first() {
    let (mut app, _) = App::new(HUMANS);
    assert!(matches!(
        app.update(Action::Quit).as_slice(),
        [Effect::Quit]
    ));
    type_moves(&mut app, "11-15");
    assert!(app.update(Action::Quit).is_empty());
    assert!(app.question().is_some(), "{}", app.status());
    // Other actions leave the question asked: the board is not flipped under it.
    let flipped = app.flipped();
    let _ = app.update(Action::Flip);
    assert_eq!(app.flipped(), flipped);
    assert!(app.question().is_some());
    // No plays on; asked again, quitting again confirms.
    assert!(app.update(Action::Answer(false)).is_empty());
    assert!(app.question().is_none());
    assert!(app.update(Action::Quit).is_empty());
    assert!(matches!(
        app.update(Action::Quit).as_slice(),
        [Effect::Quit]
    ));
}

#[test]
fn commands() {
    let players = Players {
        black: Player::Human,
        white: Player::Engine(Level::Easy),
    };
    let (mut app, _) = App::new(players);
    let _ = app.update(Action::Submit(":level hard".into()));
    assert_eq!(app.players().white, Player::Engine(Level::Hard));
    let _ = app.update(Action::Submit(":level genius".into()));
    assert!(app.status().starts_with("unknown level"));
    let _ = app.update(Action::Submit(":resign".into()));
    assert_eq!(app.mode(), Mode::Play, "resigning asks first");
    assert!(app.status().contains("y: resign"), "{}", app.status());
    let _ = app.update(Action::Answer(true));
    assert_eq!(
        app.mode(),
        Mode::Over(Outcome::Win {
            winner: Color::White,
            reason: WinReason::Resignation
        })
    );
    let _ = app.update(Action::Submit(":new".into()));
    let dialog = *app.dialog().expect(":new opens the new-game dialog");
    assert_eq!(dialog.players.white, Player::Engine(Level::Hard));
    // Black becomes the engine at random level, White the human; Enter starts.
    let _ = app.update(Action::Left);
    let _ = app.update(Action::Down);
    let _ = app.update(Action::Right);
    let _ = app.update(Action::Right);
    let effects = app.update(Action::PickAtCursor);
    assert!(app.dialog().is_none());
    assert_eq!(
        app.players(),
        Players {
            black: Player::Engine(Level::Max),
            white: Player::Human
        }
    );
    assert_eq!(app.mode(), Mode::Play);
    assert_eq!(app.game().len(), 0);
    assert!(
        effects.iter().any(|e| matches!(e, Effect::Think { .. })),
        "the engine has Black and moves first"
    );
    let _ = app.update(Action::Submit(":help".into()));
    assert!(app.help_open());
    let _ = app.update(Action::Cancel);
    assert!(!app.help_open());
    // The engine has Black and judges the draw offer: level, so it accepts.
    let effects = app.update(Action::Submit(":draw".into()));
    let Some(Effect::Evaluate { search, .. }) = effects
        .iter()
        .find(|e| matches!(e, Effect::Evaluate { .. }))
    else {
        panic!("the engine is asked to judge: {effects:?}");
    };
    let _ = app.update(Action::Engine(EngineNews::Evaluated {
        search: *search,
        score: crowned::engine::Score::Centi(0),
    }));
    assert!(matches!(app.mode(), Mode::Over(Outcome::Draw { .. })));
    assert!(
        app.status().starts_with("The engine accepts"),
        "{}",
        app.status()
    );
}

#[test]
fn engine_against_engine_plays_itself() {
    let players = Players {
        black: Player::Engine(Level::Random),
        white: Player::Engine(Level::Easy),
    };
    let (mut app, mut effects) = App::new(players);
    for _ in 0..400 {
        if effects.is_empty() {
            break;
        }
        effects = answer(&mut app, effects);
    }
    assert!(matches!(app.mode(), Mode::Over(_)), "{:?}", app.mode());
}

#[test]
fn undoing_to_the_start_lets_the_engine_move_first_again() {
    let players = Players {
        black: Player::Engine(Level::Random),
        white: Player::Human,
    };
    let (mut app, effects) = App::new(players);
    assert!(
        !app.flipped(),
        "the player with White sees White at the bottom"
    );
    assert!(answer(&mut app, effects).is_empty());
    assert_eq!(app.game().len(), 1);
    let effects = app.update(Action::Undo);
    assert_eq!(app.game().ply(), 0);
    assert!(
        effects.iter().any(|e| matches!(e, Effect::Think { .. })),
        "the engine has the first move"
    );
    assert!(app.is_thinking());
}

#[test]
fn undo_or_redo_with_nothing_to_do_leaves_the_engine_thinking() {
    // Playing Black: 11-15, then redo while White thinks.
    let black = Players {
        black: Player::Human,
        white: Player::Engine(Level::Max),
    };
    let (mut app, _) = App::new(black);
    let thinking = app.update(Action::Submit("11-15".into()));
    assert!(thinking.iter().any(|e| matches!(e, Effect::Think { .. })));
    let effects = app.update(Action::Redo);
    assert!(effects.is_empty(), "{effects:?}");
    assert_eq!(app.status(), "nothing to redo");
    assert!(app.is_thinking(), "the search goes on");
    // Its answer is still wanted.
    assert!(answer(&mut app, thinking).is_empty());
    assert_eq!(app.game().len(), 2);

    // Playing White: undo at the very start while Black thinks, and once more than there are moves.
    let white = Players {
        black: Player::Engine(Level::Max),
        white: Player::Human,
    };
    let (mut app, thinking) = App::new(white);
    assert!(app.update(Action::Undo).is_empty());
    assert_eq!(app.status(), "nothing to undo");
    assert!(app.is_thinking());
    assert!(answer(&mut app, thinking).is_empty());
    assert_eq!(app.game().ply(), 1, "White to play");
    let effects = app.update(Action::Undo);
    assert!(effects.iter().any(|e| matches!(e, Effect::Think { .. })));
    assert_eq!(app.game().ply(), 0, "back to the engine's first move");
    assert!(app.is_thinking(), "which it plays again");
    assert!(app.update(Action::Undo).is_empty());
    assert!(app.is_thinking());
}

#[test]
fn undo_takes_back_a_resignation_and_the_mode_follows() {
    let (mut app, _) = App::new(HUMANS);
    let _ = app.update(Action::Submit(":resign".into()));
    let _ = app.update(Action::Answer(true));
    assert!(matches!(app.mode(), Mode::Over(_)));
    let _ = app.update(Action::Undo);
    assert_eq!(app.mode(), Mode::Play);
    assert_eq!(app.game().outcome(), None);
    assert!(app.status().starts_with("taken back"), "{}", app.status());
    // Moves are accepted again, as the screen says.
    type_moves(&mut app, "11-15");
    assert_eq!(app.game().len(), 1);
}

#[test]
fn the_engine_declines_a_draw_when_it_sees_more_and_thinks_on() {
    // The engine has White and is to move when the offer comes: it stops, judges, declines, thinks again.
    let players = Players {
        black: Player::Human,
        white: Player::Engine(Level::Max),
    };
    let (mut app, _) = App::new(players);
    let _ = app.update(Action::Submit("11-15".into()));
    let effects = app.update(Action::Submit(":draw".into()));
    assert!(matches!(effects.first(), Some(Effect::StopThinking)));
    let Some(Effect::Evaluate { search, .. }) = effects.last() else {
        panic!("the engine is asked to judge: {effects:?}");
    };
    // The score is for the side to move, White: the engine thinks itself better.
    let effects = app.update(Action::Engine(EngineNews::Evaluated {
        search: *search,
        score: crowned::engine::Score::Centi(80),
    }));
    assert_eq!(app.mode(), Mode::Play);
    assert!(
        app.status()
            .starts_with("The engine declines the draw: it sees +0.80 for White"),
        "{}",
        app.status()
    );
    assert!(effects.iter().any(|e| matches!(e, Effect::Think { .. })));
    assert!(app.is_thinking(), "and goes on with its move");
    // Losing, it accepts.
    let effects = app.update(Action::Submit(":draw".into()));
    let Some(Effect::Evaluate { search, .. }) = effects.last() else {
        panic!("the engine is asked to judge: {effects:?}");
    };
    let _ = app.update(Action::Engine(EngineNews::Evaluated {
        search: *search,
        score: crowned::engine::Score::Loss(5),
    }));
    assert!(matches!(app.mode(), Mode::Over(Outcome::Draw { .. })));
}

#[test]
fn two_people_answer_each_others_draw_offers() {
    let (mut app, _) = App::new(HUMANS);
    type_moves(&mut app, "11-15");
    let _ = app.update(Action::Submit(":draw".into()));
    assert_eq!(
        app.question(),
        Some(crowned::app::Question::Draw { from: Color::White })
    );
    // Nothing else is played while the question is open.
    let _ = app.update(Action::Submit("23-19".into()));
    assert_eq!(app.game().len(), 1);
    let _ = app.update(Action::Answer(false));
    assert!(
        app.status().starts_with("Black declines the draw"),
        "{}",
        app.status()
    );
    let _ = app.update(Action::Submit(":draw".into()));
    let _ = app.update(Action::Answer(true));
    assert!(matches!(app.mode(), Mode::Over(Outcome::Draw { .. })));
}

#[test]
fn a_game_between_engines_keeps_its_pace_and_can_be_held() {
    let players = Players {
        black: Player::Engine(Level::Random),
        white: Player::Engine(Level::Random),
    };
    let (mut app, effects) = App::new(players);
    assert!(effects.iter().any(|e| matches!(
        e,
        Effect::Wake {
            timer: Timer::Pace,
            ..
        }
    )));
    let Some(Effect::Think {
        search, situation, ..
    }) = effects.iter().find(|e| matches!(e, Effect::Think { .. }))
    else {
        panic!("the engine thinks at once: {effects:?}");
    };
    // Its move comes before the pace: it is held, not shown.
    let mv = situation.position.legal_moves().first().copied();
    let _ = app.update(Action::Engine(EngineNews::Moved {
        search: *search,
        mv,
    }));
    assert_eq!(app.game().len(), 0);
    assert!(app.move_waiting());
    let effects = app.update(Action::Timer(Timer::Pace));
    assert_eq!(app.game().len(), 1, "shown when the pace says");
    assert!(effects.iter().any(|e| matches!(e, Effect::Think { .. })));
    // p holds the engine: its search stops and nothing more is asked for until p again.
    let effects = app.update(Action::Pause);
    assert!(matches!(effects.as_slice(), [Effect::StopThinking]));
    assert!(app.paused() && !app.is_thinking());
    assert!(app.status().starts_with("paused"), "{}", app.status());
    let effects = app.update(Action::Pause);
    assert!(effects.iter().any(|e| matches!(e, Effect::Think { .. })));
}
