//! Finding games in a long list: a filter typed after `/`, sorting by column, the game found opened.

use crowned::app::ListAction;
use std::time::Instant;

use crowned::app::{
    Action, App, GameList, Key, KeyCode, ListPurpose, Player, Players, SortKey, action_for_key,
};
use crowned::engine::Level;
use crowned::store::games_in_text;
use tui_input::InputRequest;

use crate::common::screen::screen;

const VS_ENGINE: Players = Players {
    black: Player::Human,
    white: Player::Engine(Level::Medium),
};

const GAMES: &str = r#"[Event "Club"]
[Date "2001.05.01"]
[Black "Ann"]
[White "Bob"]
[Result "1-0"]
1. 11-15 23-19 1-0

[Event "Open"]
[Date "1999.03.02"]
[Black "Cy"]
[White "Ann"]
[Result "0-1"]
1. 9-13 22-18 2. 5-9 0-1

[Event "Club"]
[Date "2005.07.07"]
[Black "Di"]
[White "Cy"]
[Result "1/2-1/2"]
1. 10-15 *
"#;

fn list() -> GameList {
    GameList::new(
        "club.pdn",
        games_in_text(GAMES, "club.pdn"),
        ListPurpose::Replay,
    )
}

/// Types `text` into the list's filter through the keys, as a player would.
fn type_keys(app: &mut App, text: &str) {
    for c in text.chars() {
        let key = Key::plain(KeyCode::Char(c));
        let action = action_for_key(app, key).expect("a key in the list");
        let _ = app.update(action);
    }
}

fn black_players(app: &App) -> Vec<String> {
    let list = app.game_list().expect("the list");
    list.shown()
        .map(|(_, e)| e.tag("Black").to_string())
        .collect()
}

#[test]
fn typed_words_filter_the_list_and_enter_opens_the_game_found() {
    let mut app = App::choosing(list(), VS_ENGINE);
    type_keys(&mut app, "/");
    assert!(app.game_list().is_some_and(|l| l.view.typing));
    // While typing, the list's letter keys (k, j, g, q, s...) are letters of the filter.
    type_keys(&mut app, "club");
    assert_eq!(black_players(&app), ["Ann", "Di"]);
    type_keys(&mut app, " cy");
    assert_eq!(black_players(&app), ["Di"]);
    let shown = screen(&app, 80, 24);
    assert!(shown.contains("1 of 3 games: club cy"), "{shown}");
    assert!(shown.contains("find: club cy_"), "{shown}");
    let backspace = action_for_key(&app, Key::plain(KeyCode::Backspace)).expect("a key");
    for _ in 0..3 {
        let _ = app.update(backspace.clone());
    }
    assert_eq!(black_players(&app), ["Ann", "Di"]);
    // Enter opens the game selected.
    let _ = app.update(Action::Down);
    let enter = action_for_key(&app, Key::plain(KeyCode::Enter)).expect("a key");
    let _ = app.update(enter);
    assert!(app.game_list().is_none());
    assert_eq!(app.replay().map(|r| r.names[0].as_str()), Some("Di"));
}

#[test]
fn esc_clears_the_filter_and_a_filter_that_finds_nothing_says_so() {
    let mut app = App::choosing(list(), VS_ENGINE);
    type_keys(&mut app, "/zzz");
    assert!(black_players(&app).is_empty());
    assert!(screen(&app, 80, 24).contains("no game has all of: zzz"));
    // Nothing is opened from an empty list.
    let _ = app.update(Action::PickAtCursor);
    assert!(app.game_list().is_some());
    let esc = action_for_key(&app, Key::plain(KeyCode::Esc)).expect("a key");
    let _ = app.update(esc);
    assert_eq!(black_players(&app), ["Ann", "Cy", "Di"]);
    assert!(app.game_list().is_some_and(|l| !l.view.typing));
    // A second Esc closes the list, as before.
    let esc = action_for_key(&app, Key::plain(KeyCode::Esc)).expect("a key");
    let _ = app.update(esc);
    assert!(app.game_list().is_none());
}

#[test]
fn s_sorts_by_each_column_and_r_reverses() {
    let mut app = App::choosing(list(), VS_ENGINE);
    type_keys(&mut app, "s");
    assert_eq!(app.game_list().map(|l| l.view.sort), Some(SortKey::Date));
    assert_eq!(black_players(&app), ["Cy", "Ann", "Di"]);
    type_keys(&mut app, "r");
    assert_eq!(black_players(&app), ["Di", "Ann", "Cy"]);
    assert!(screen(&app, 80, 24).contains("Date▼"));
    type_keys(&mut app, "sr");
    assert_eq!(app.game_list().map(|l| l.view.sort), Some(SortKey::Black));
    assert_eq!(black_players(&app), ["Ann", "Cy", "Di"]);
}

#[test]
fn a_list_of_twenty_thousand_games_is_filtered_at_each_key() {
    let mut text = String::new();
    for i in 0..20_000 {
        text.push_str(&format!(
            "[Event \"Event {}\"]\n[Black \"Player {}\"]\n[White \"Player {}\"]\n[Result \"*\"]\n1. 11-15 *\n\n",
            i % 97,
            i % 1_000,
            (i * 7) % 1_000
        ));
    }
    let entries = games_in_text(&text, "big.pdn");
    assert_eq!(entries.len(), 20_000);
    let mut app = App::choosing(
        GameList::new("big.pdn", entries, ListPurpose::Replay),
        VS_ENGINE,
    );
    let _ = app.update(Action::List(ListAction::Filter));
    let started = Instant::now();
    for c in "player 123 event 5".chars() {
        let _ = app.update(Action::Edit(InputRequest::InsertChar(c)));
    }
    let per_key = started.elapsed() / 18;
    let list = app.game_list().expect("the list");
    let found = list.view.shown.len();
    assert!(found > 0 && found < 20_000, "{found}");
    for (_, entry) in list.shown() {
        let text = format!(
            "{} {} {}",
            entry.tag("Event"),
            entry.tag("Black"),
            entry.tag("White")
        );
        assert!(text.contains("123") && text.contains('5'), "{text}");
    }
    println!("20,000 games: {found} found, {per_key:?} a key (this build)");
    // Paging goes through the games found.
    let _ = app.update(Action::List(ListAction::Step(10)));
    assert!(
        app.game_list()
            .is_some_and(|l| l.selected == 10.min(found - 1))
    );
}

/// Saved games, one of them saved under a name (as the program's own files carry it).
const SAVED: &str = r#"[Event "crowned game"]
[Date "2026.11.26"]
[Time "07:01:12"]
[Black "Player"]
[White "crowned (medium)"]
[Result "1-0"]
[CrownedGame "00000000000000aa"]
[CrownedName "firstgame"]
1. 11-15 23-19 1-0

[Event "crowned game"]
[Date "2026.11.25"]
[Time "21:40:00"]
[Black "Player"]
[White "Player"]
[Result "*"]
[CrownedGame "00000000000000bb"]
1. 9-13 *
"#;

#[test]
fn saved_games_show_the_name_they_were_saved_under_80x24() {
    let (mut app, _) = App::new(VS_ENGINE);
    let list = GameList::new(
        "Saved games",
        games_in_text(SAVED, "saved"),
        ListPurpose::Load,
    );
    let _ = app.update(Action::ShowGames(Box::new(list)));
    let shown = screen(&app, 80, 24);
    assert!(
        shown.contains("Name") && shown.contains("firstgame"),
        "{shown}"
    );
    insta::assert_snapshot!(shown);
    // The name finds the game.
    type_keys(&mut app, "/first");
    assert_eq!(black_players(&app), ["Player"]);
    assert_eq!(app.game_list().expect("the list").view.shown, [0]);
}
