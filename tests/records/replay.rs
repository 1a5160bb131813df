//! Opening games from PDN files and from the saved games: the list, replaying move by move and on a timer,
//! continuing from any point, and records with errors opened up to the bad move.

use crowned::app::{BrowseAction, ListAction, ReplayAction};
use std::path::PathBuf;
use std::time::Duration;

use crowned::app::{Action, App, Effect, GameList, ListPurpose, Mode, Player, Players, Timer};
use crowned::engine::Level;
use crowned::store::{SavedGame, Store, games_in_text, read_games_file};

const VS_ENGINE: Players = Players {
    black: Player::Human,
    white: Player::Engine(Level::Medium),
};

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/data/pdn")
        .join(name)
}

const TWO_GAMES: &str = r#"[Event "First"]
[Black "Ann"]
[White "Bob"]
[Result "1-0"]
1. 11-15 23-19 2. 8-11 22-17 1-0

[Event "Broken"]
[Black "Cy"]
[White "Di"]
[Result "*"]
1. 11-15 23-19 2. 8-11 22-18 3. 15x24 28x19 4. 9-13 19-15 *
"#;

fn list_of(text: &str) -> GameList {
    GameList::new(
        "two.pdn",
        games_in_text(text, "two.pdn"),
        ListPurpose::Replay,
    )
}

#[test]
fn a_file_of_several_games_opens_on_a_list_and_the_chosen_one_is_replayed() {
    let mut app = App::choosing(list_of(TWO_GAMES), VS_ENGINE);
    let list = app.game_list().expect("the list is open");
    assert_eq!(list.entries.len(), 2);
    assert_eq!(list.entries[0].tag("Black"), "Ann");
    // Nobody plays while choosing: the engine has not been asked to think.
    assert!(!app.is_thinking());

    let _ = app.update(Action::Down);
    let effects = app.update(Action::PickAtCursor);
    assert!(app.game_list().is_none());
    assert!(
        !effects.iter().any(|e| matches!(e, Effect::Think { .. })),
        "a replayed game is not played"
    );
    let replay = app.replay().expect("replaying");
    assert_eq!(replay.names, ["Cy".to_string(), "Di".to_string()]);
    // 3. 15x24 jumps onto White's man on 24: the game is read up to it.
    assert!(replay.error.as_deref().is_some_and(|e| e.contains("15x24")));
    assert_eq!(app.mode(), Mode::Browsing { ply: 0 });
    assert_eq!(app.game().len(), 4);
    for ply in 1..=4 {
        let _ = app.update(Action::Browse(BrowseAction::Forward));
        assert_eq!(app.mode(), Mode::Browsing { ply });
    }
    // At the end it stays in the replay.
    let _ = app.update(Action::Browse(BrowseAction::Forward));
    assert_eq!(app.mode(), Mode::Browsing { ply: 4 });
    assert!(app.replay().is_some());
}

#[test]
fn a_record_with_an_illegal_move_opens_up_to_it_with_the_error_shown() {
    let text = r#"[Event "Bad"]
[Black "A"]
[White "B"]
1. 11-15 23-19 2. 8-11 19-16 3. 12-16 *
"#;
    let mut entries = games_in_text(text, "bad.pdn");
    assert_eq!(entries.len(), 1);
    let entry = entries.remove(0);
    let error = entry.error.clone().expect("the record is broken");
    assert!(error.contains("12-16"), "{error}");
    let mut app = App::replaying(entry, VS_ENGINE);
    assert_eq!(app.game().len(), 4, "the moves before the bad one");
    assert!(app.status().contains("12-16"), "{}", app.status());
    let _ = app.update(Action::Browse(BrowseAction::Last));
    assert_eq!(app.mode(), Mode::Browsing { ply: 4 });
    assert!(
        app.status().contains("The record stops here"),
        "{}",
        app.status()
    );
}

#[test]
fn the_real_archive_with_a_broken_game_opens_it_up_to_the_bad_move() {
    // Game 541 of tinsley.pdn has "32-28" at move 62 with no black piece on 32.
    let path = data("tinsley.pdn");
    if !path.exists() {
        eprintln!("skipped: reference data {} not there", path.display());
        return;
    }
    let entries = read_games_file(&path).expect("the archive reads");
    assert_eq!(entries.len(), 724);
    let broken: Vec<_> = entries.iter().filter(|e| e.error.is_some()).collect();
    assert_eq!(broken.len(), 1, "one broken game in the archive");
    let entry = broken[0].clone();
    assert!(entry.source.ends_with("game 541"), "{}", entry.source);
    let mut app = App::choosing(
        GameList::new("tinsley.pdn", entries, ListPurpose::Replay),
        VS_ENGINE,
    );
    let _ = app.update(Action::List(ListAction::Step(540)));
    let _ = app.update(Action::PickAtCursor);
    assert_eq!(app.game().len(), entry.game.len());
    assert!(app.status().contains("32-28"), "{}", app.status());
}

/// The replay timer the effects ask for, if any.
fn replay_wake(effects: &[Effect]) -> Option<Duration> {
    effects.iter().find_map(|e| match e {
        Effect::Wake {
            timer: Timer::Replay,
            after,
        } => Some(*after),
        _ => None,
    })
}

#[test]
fn auto_play_steps_on_each_tick_and_stops_at_the_end() {
    let mut entries = games_in_text(TWO_GAMES, "two.pdn");
    let mut app = App::replaying(entries.remove(0), VS_ENGINE);
    assert!(
        app.update(Action::Timer(Timer::Replay)).is_empty(),
        "a timer nobody asked for does nothing"
    );
    assert_eq!(app.mode(), Mode::Browsing { ply: 0 });
    let interval =
        replay_wake(&app.update(Action::Replay(ReplayAction::AutoPlay))).expect("playing back");
    let faster =
        replay_wake(&app.update(Action::Replay(ReplayAction::Speed(true)))).expect("still playing");
    assert!(faster < interval);
    for ply in 1..=4 {
        let effects = app.update(Action::Timer(Timer::Replay));
        assert_eq!(app.mode(), Mode::Browsing { ply });
        assert_eq!(
            replay_wake(&effects).is_some(),
            ply < 4,
            "the timer again, but after the last move"
        );
    }
    // Started again at the end, it plays back from the start; Esc pauses it.
    assert!(replay_wake(&app.update(Action::Replay(ReplayAction::AutoPlay))).is_some());
    assert_eq!(app.mode(), Mode::Browsing { ply: 0 });
    let _ = app.update(Action::Timer(Timer::Replay));
    let _ = app.update(Action::Cancel);
    assert!(app.update(Action::Timer(Timer::Replay)).is_empty());
    assert_eq!(app.mode(), Mode::Browsing { ply: 1 }, "paused");
}

#[test]
fn a_replayed_game_is_continued_from_any_point_as_a_new_game() {
    let mut entries = games_in_text(TWO_GAMES, "two.pdn");
    let mut app = App::replaying(entries.remove(0), VS_ENGINE);
    // Nothing can be played into the record itself.
    let _ = app.update(Action::Submit("11-15".into()));
    assert_eq!(app.game().len(), 4);
    let _ = app.update(Action::Undo);
    assert!(app.status().contains("c continues"), "{}", app.status());

    let _ = app.update(Action::Browse(BrowseAction::Forward));
    let _ = app.update(Action::Browse(BrowseAction::Forward));
    let effects = app.update(Action::Replay(ReplayAction::Continue));
    assert!(app.replay().is_none());
    assert_eq!(app.mode(), Mode::Play);
    assert_eq!(
        app.game().len(),
        2,
        "the two moves shown are the new game's history"
    );
    assert_eq!(app.game().tags().get("Result"), None);
    assert!(
        app.status()
            .starts_with("continuing two.pdn, game 1 from after 1... 23-19")
    );
    // The record's game is not the player's: it is not archived; the new game is saved as it goes.
    assert!(!effects.iter().any(|e| matches!(e, Effect::Archive { .. })));
    assert!(
        effects
            .iter()
            .any(|e| matches!(e, Effect::GameChanged(crowned::app::Keep::InProgress(_))))
    );
    // Black (human) is to move after 11-15 23-19.
    let _ = app.update(Action::Submit("8-11".into()));
    assert_eq!(app.game().len(), 3, "{}", app.status());
    assert!(app.is_thinking(), "the engine answers for White");
}

#[test]
fn loading_lists_the_saved_games_and_continues_an_unfinished_one_with_its_players() {
    let home = std::env::temp_dir().join(format!("crowned-replay-test-{}", std::process::id()));
    let store = Store::under(&home);
    // An unfinished game against the engine, and a finished game between humans.
    let mut unfinished = crowned::game::Game::<crowned::rules::English>::new();
    for mv in ["11-15", "23-19", "8-11"] {
        unfinished.play_text(mv).expect("legal");
    }
    let players = Players {
        black: Player::Engine(Level::Easy),
        white: Player::Human,
    };
    store
        .file_game(
            &SavedGame {
                game: unfinished.clone().into(),
                players,
                file: None,
                clock: None,
            },
            Some("unfinished"),
        )
        .expect("saved");
    let mut finished =
        crowned::game::Game::<crowned::rules::English>::from_fen("B:W18:B14").expect("FEN");
    finished.play_text("14x23").expect("legal");
    store
        .file_game(
            &SavedGame {
                game: finished.into(),
                players: VS_ENGINE,
                file: None,
                clock: None,
            },
            Some("finished"),
        )
        .expect("saved");
    std::fs::write(
        store.games_dir().join("garbage.pdn"),
        "[Event \"x\"\n1. 99-100",
    )
    .expect("written");

    let entries = store.saved_games().expect("listed");
    std::fs::remove_dir_all(&home).expect("cleaned up");
    assert_eq!(entries.len(), 3);
    let garbage = entries
        .iter()
        .find(|e| e.source == "garbage.pdn")
        .expect("listed with its problem");
    assert!(garbage.error.is_some());

    let (mut app, _) = App::new(VS_ENGINE);
    let _ = app.update(Action::Submit("9-13".into()));
    let effects = app.update(Action::Submit(":load".into()));
    assert!(matches!(effects[..], [Effect::ListSaved]));
    let _ = app.update(Action::ShowGames(Box::new(GameList::new(
        "Saved games",
        entries.clone(),
        ListPurpose::Load,
    ))));
    let at = entries
        .iter()
        .position(|e| e.source == "unfinished.pdn")
        .expect("listed");
    let _ = app.update(Action::List(ListAction::Step(at as isize)));
    let effects = app.update(Action::PickAtCursor);
    // The game in progress is kept; the loaded one goes on where it stood, the engine to move for Black.
    assert!(
        effects
            .iter()
            .any(|e| matches!(e, Effect::Archive { game, .. } if !game.is_empty()))
    );
    assert!(app.replay().is_none());
    assert_eq!(app.game().moves(), unfinished.moves());
    assert_eq!(app.game().ply(), 3);
    assert_eq!(app.players(), players);
    assert_eq!(app.mode(), Mode::Play);
    // It is linked to its own file, which leaving or finishing it updates instead of filing a copy.
    assert_eq!(
        app.saved_file().and_then(|f| f.file_name()),
        Some(std::ffi::OsStr::new("unfinished.pdn"))
    );
    let effects = app.update(Action::NewGame);
    assert!(effects.is_empty());
    let effects = app.update(Action::PickAtCursor);
    let archived = effects.iter().find_map(|e| match e {
        Effect::Archive { file, .. } => Some(file.clone()),
        _ => None,
    });
    assert_eq!(
        archived
            .flatten()
            .and_then(|f| f.file_name().map(|n| n.to_owned())),
        Some("unfinished.pdn".into()),
        "left for a new game, it goes back into its own file"
    );
    assert_eq!(app.saved_file(), None, "the new game is a new file's");

    // A finished game opens for replaying.
    let _ = app.update(Action::Load);
    let _ = app.update(Action::ShowGames(Box::new(GameList::new(
        "Saved games",
        entries.clone(),
        ListPurpose::Load,
    ))));
    let at = entries
        .iter()
        .position(|e| e.source == "finished.pdn")
        .expect("listed");
    let _ = app.update(Action::List(ListAction::Step(at as isize)));
    let _ = app.update(Action::PickAtCursor);
    assert!(app.replay().is_some());
    assert_eq!(app.mode(), Mode::Browsing { ply: 0 });
}

#[test]
fn an_empty_list_says_so_and_esc_closes_a_list() {
    let (mut app, _) = App::new(VS_ENGINE);
    let _ = app.update(Action::ShowGames(Box::new(GameList::new(
        "Saved games",
        Vec::new(),
        ListPurpose::Load,
    ))));
    assert!(app.game_list().is_none());
    assert!(app.status().starts_with("no saved games yet"));
    let _ = app.update(Action::ShowGames(Box::new(list_of(TWO_GAMES))));
    assert!(app.game_list().is_some());
    let _ = app.update(Action::Cancel);
    assert!(app.game_list().is_none());
    assert_eq!(app.mode(), Mode::Play);
}

#[test]
fn setting_up_from_a_replay_and_leaving_returns_to_the_record() {
    let mut entries = games_in_text(TWO_GAMES, "two.pdn");
    let mut app = App::replaying(entries.remove(0), VS_ENGINE);
    let _ = app.update(Action::Browse(BrowseAction::Forward));
    let _ = app.update(Action::Setup(crowned::app::SetupAction::Open));
    assert!(matches!(app.mode(), Mode::Setup(_)));
    let effects = app.update(Action::Cancel);
    assert!(
        effects.is_empty(),
        "nobody plays a replayed game: {effects:?}"
    );
    assert!(app.replay().is_some());
    assert_eq!(app.mode(), Mode::Browsing { ply: 4 });
    assert!(!app.is_thinking());
}
