//! Where a session's games go: one game is one file through undo and redo, a name, and a file that changed
//! hands.

use super::*;

/// A session in `home` opening on `opening` (a position, say) rather than the standard start.
fn session_opening(
    home: &Home,
    opening: SessionOpening,
    players: Players,
    engine: &EngineService,
) -> Opened {
    let (events, inbox) = channel();
    let opened = session::open(Ok(Store::under(&home.0)), true, opening, players);
    let reports = events.clone();
    let client = engine.client(move |report| {
        let _ = reports.send(Wakeup::Engine(report));
    });
    Opened {
        session: Session::new(opened, config(), client),
        events,
        inbox,
    }
}

/// The saved games' files in `home`, by name.
fn saved_files(home: &Home) -> Vec<String> {
    let dir = Store::under(&home.0).games_dir();
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .map(|listing| {
            listing
                .filter_map(Result::ok)
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.ends_with(".pdn"))
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

#[test]
fn one_game_is_one_file_through_undo_redo_and_a_name() {
    let home = Home::new("one-file");
    let engine = EngineService::local(None).expect("the engine starts");
    let humans = Players {
        black: Player::Human,
        white: Player::Human,
    };
    let game = crowned::game::AnyGame::from_fen(Default::default(), "B:W18:B14").expect("FEN");
    let Opened { mut session, .. } = session_opening(
        &home,
        SessionOpening::Position(Box::new(game)),
        humans,
        &engine,
    );
    assert_eq!(session.start(80, 24), None);
    // The capture ends the game: it is filed.
    type_line(&mut session, "14x23");
    assert!(matches!(session.app().mode(), Mode::Over(_)));
    let filed = saved_files(&home);
    assert_eq!(filed.len(), 1, "{filed:?}");
    // Taken back and played again: the same file, not a second one.
    type_line(&mut session, ":undo");
    assert!(matches!(session.app().mode(), Mode::Play));
    type_line(&mut session, ":redo");
    assert!(matches!(session.app().mode(), Mode::Over(_)));
    assert_eq!(saved_files(&home), filed, "refiled in place");
    // Saved under a name: it moves to a file of that name, and later saves update it.
    type_line(&mut session, ":save firstgame");
    assert!(
        session.app().status().contains("firstgame.pdn"),
        "{}",
        session.app().status()
    );
    assert_eq!(saved_files(&home), ["firstgame.pdn"]);
    type_line(&mut session, ":save");
    type_line(&mut session, ":save firstgame");
    assert_eq!(saved_files(&home), ["firstgame.pdn"]);
    // The list shows the name it was saved under.
    let store = Store::under(&home.0);
    let entries = store.saved_games().expect("the list");
    assert_eq!(entries.len(), 1);
    assert_eq!(entries[0].tag(crowned::store::NAME_TAG), "firstgame");
    type_line(&mut session, ":load");
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).expect("a test terminal");
    session.draw(&mut terminal).expect("drawn");
    let shown = screen_text(&terminal);
    assert!(
        shown.contains("Name") && shown.contains("firstgame"),
        "{shown}"
    );
    // Opened from the list (finished, so replayed) and saved again: still its one file.
    assert_eq!(session.handle(key(KeyCode::Enter)), None);
    assert!(session.app().replay().is_some());
    type_line(&mut session, ":save");
    assert_eq!(saved_files(&home), ["firstgame.pdn"]);
}

#[test]
fn a_file_that_changed_hands_is_never_written_over() {
    let home = Home::new("changed-hands");
    let engine = EngineService::local(None).expect("the engine starts");
    let humans = Players {
        black: Player::Human,
        white: Player::Human,
    };
    let game = crowned::game::AnyGame::from_fen(Default::default(), "B:W18:B14").expect("FEN");
    let Opened { mut session, .. } = session_opening(
        &home,
        SessionOpening::Position(Box::new(game)),
        humans,
        &engine,
    );
    assert_eq!(session.start(80, 24), None);
    type_line(&mut session, "14x23");
    let filed = saved_files(&home);
    assert_eq!(filed.len(), 1, "{filed:?}");
    // Another game takes the file's place (copied there by hand, say): the next save must not replace it.
    let path = Store::under(&home.0).games_dir().join(&filed[0]);
    let other = "[Event \"someone else's\"]\n[CrownedGame \"0123456789abcdef\"]\n1. 11-15 *\n";
    std::fs::write(&path, other).expect("written");
    type_line(&mut session, ":save");
    assert_eq!(std::fs::read_to_string(&path).expect("there"), other);
    assert_eq!(saved_files(&home).len(), 2, "filed anew beside it");
    // Saved under a name, the game moves from its new file to one of that name; the other game stays.
    type_line(&mut session, ":save club");
    let mut expected = vec!["club.pdn".to_string(), filed[0].clone()];
    expected.sort();
    assert_eq!(saved_files(&home), expected);
    assert_eq!(std::fs::read_to_string(&path).expect("there"), other);
}

#[test]
fn a_game_saved_with_its_clock_in_minutes_resumes_with_minutes() {
    let home = Home::new("old-clock");
    let engine = EngineService::local(None).expect("the engine starts");
    // An autosave as earlier versions wrote it: the control in minutes beside CrownedClocks.
    let data = home.0.join("data");
    std::fs::create_dir_all(&data).expect("a data dir");
    let old = "[Event \"crowned game\"]\n[Black \"Player\"]\n[White \"Player\"]\n[Result \"*\"]\n\
               [TimeControl \"5+3\"]\n[CrownedClocks \"245.300 301.000\"]\n[CrownedBlack \"human\"]\n\
               [CrownedWhite \"human\"]\n[CrownedPly \"1\"]\n1. 11-15 *\n";
    std::fs::write(data.join("autosave.pdn"), old).expect("written");
    let humans = Players {
        black: Player::Human,
        white: Player::Human,
    };
    let Opened { mut session, .. } = started(&home, humans, &engine, (80, 24));
    assert!(
        session.app().resume_offer().is_some(),
        "the game is offered"
    );
    assert_eq!(session.handle(key(KeyCode::Char('y'))), None);
    assert_eq!(session.app().game().ply(), 1);
    let clocks = session.app().clocks().expect("clocks");
    // Black's 4:05 left and White's 5:01: five minutes a side, not five seconds.
    assert_eq!(clocks.left[0], Duration::from_millis(245_300));
    assert!(clocks.left[1] > Duration::from_secs(300), "{clocks:?}");
}
