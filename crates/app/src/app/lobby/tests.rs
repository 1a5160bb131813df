//! The lobby's lists, keys, form and code.

use super::*;
use crate::app::KeyChord;
use crate::rules::{Color, Variant};

fn game(code: &str, players: [Option<&str>; 2], private: bool) -> LobbyGame {
    LobbyGame {
        code: code.into(),
        game_type: GameType::standard(Variant::English),
        clock: None,
        rated: true,
        private,
        players: players.map(|p| p.map(str::to_string)),
        mine: players.contains(&Some("ann")),
        plies: 0,
        over: false,
        watchers: 0,
    }
}

#[test]
fn the_problem_keys_open_the_trainer_for_a_guest_too() {
    for guest in [false, true] {
        let mut lobby = lobby(guest);
        assert_eq!(
            lobby.key(Key::plain(KeyCode::Char('P'))),
            Some(Choice::Problems(TrainingKind::Rated))
        );
        assert_eq!(
            lobby.key(Key::plain(KeyCode::Char('d'))),
            Some(Choice::Problems(TrainingKind::Daily))
        );
        assert_eq!(
            lobby.key(Key::plain(KeyCode::Char('s'))),
            Some(Choice::Problems(TrainingKind::Streak))
        );
    }
}

fn lobby(guest: bool) -> Lobby {
    Lobby::new("ann", guest, KeyMap::default())
}

#[test]
fn the_lists_show_mine_open_and_live_games_and_hide_private_ones() {
    let mut lobby = lobby(false);
    lobby.refresh(vec![
        game("AAAA", [Some("bob"), None], false),
        game("CCCC", [Some("cy"), None], true),
        game("DDDD", [Some("dan"), Some("eve")], false),
        game("MMMM", [Some("ann"), Some("bob")], true),
    ]);
    let kinds: Vec<String> = lobby
        .items
        .iter()
        .map(|i| match i {
            Item::Mine(g) => format!("mine {}", g.code),
            Item::Open(g) => format!("open {}", g.code),
            Item::Live(g) => format!("live {}", g.code),
            other => format!("{other:?}"),
        })
        .collect();
    assert_eq!(
        kinds,
        [
            "Engine",
            "NewGame",
            "JoinByCode",
            "SavedGames",
            "Problems(Rated)",
            "Problems(Daily)",
            "Problems(Streak)",
            "mine MMMM",
            "open AAAA",
            "live DDDD",
            "NewEvent",
            "Quit"
        ]
    );
    // Enter on each line.
    lobby.cursor = 3;
    assert_eq!(
        lobby.key(Key::plain(KeyCode::Enter)),
        Some(Choice::SavedGames)
    );
    lobby.cursor = 5;
    assert_eq!(
        lobby.key(Key::plain(KeyCode::Enter)),
        Some(Choice::Problems(TrainingKind::Daily))
    );
    lobby.cursor = 7;
    assert_eq!(
        lobby.key(Key::plain(KeyCode::Enter)),
        Some(Choice::Join("MMMM".into()))
    );
    lobby.cursor = 9;
    assert_eq!(
        lobby.key(Key::plain(KeyCode::Enter)),
        Some(Choice::Watch("DDDD".into()))
    );
    // The cursor stays on its game when the list changes around it.
    lobby.refresh(vec![
        game("BBBB", [Some("cy"), None], false),
        game("DDDD", [Some("dan"), Some("eve")], false),
    ]);
    assert!(matches!(&lobby.items[lobby.cursor], Item::Live(g) if g.code == "DDDD"));
}

#[test]
fn the_form_makes_the_game_asked_for() {
    let mut lobby = lobby(false);
    lobby.cursor = 1;
    assert_eq!(lobby.key(Key::plain(KeyCode::Enter)), None);
    // Russian, White, 10+5, casual, by code.
    for key in [
        KeyCode::Right,
        KeyCode::Right,
        KeyCode::Down,
        KeyCode::Left,
        KeyCode::Tab,
        KeyCode::Right,
        KeyCode::Down,
        KeyCode::Right,
        KeyCode::Down,
        KeyCode::Right,
    ] {
        assert_eq!(lobby.key(Key::plain(key)), None);
    }
    let Some(Choice::New(table)) = lobby.key(Key::plain(KeyCode::Enter)) else {
        panic!("a new game");
    };
    assert_eq!(table.variant, Variant::ALL[2]);
    assert_eq!(table.color, Some(Color::White));
    assert_eq!(table.clock, "10+5".parse().ok());
    assert!(!table.rated && table.private);
}

#[test]
fn a_guest_s_form_is_not_rated_and_esc_goes_back_to_the_list() {
    let mut lobby = lobby(true);
    assert_eq!(lobby.key(Key::char('n')), None);
    let Some(Panel::Form(form)) = &lobby.panel else {
        panic!("the form");
    };
    assert!(!form.rated, "a guest's form starts casual");
    // Rated asked for by hand: refused with the reason, and made casual.
    for key in [KeyCode::Down, KeyCode::Down, KeyCode::Down, KeyCode::Right] {
        assert_eq!(lobby.key(Key::plain(key)), None);
    }
    assert_eq!(lobby.key(Key::plain(KeyCode::Enter)), None);
    assert!(lobby.message.contains("not rated"), "{}", lobby.message);
    assert_eq!(lobby.key(Key::plain(KeyCode::Esc)), None);
    assert_eq!(lobby.panel, None);
    assert_eq!(lobby.message, "↑↓ choose, Enter goes; ? the keys; q leaves");
    // A guest has no saved games to open.
    assert_eq!(lobby.key(Key::char('o')), None);
}

#[test]
fn the_form_and_new_open_games_listed_alike() {
    // Listed for anyone by default both ways; `private` (or the form's last row) keeps it to the code.
    assert_eq!(Form::new().table().private, NewTable::default().private);
    assert!(!Form::new().table().private);
}

#[test]
fn a_code_is_typed_checked_and_joined() {
    let mut lobby = lobby(true);
    assert_eq!(lobby.key(Key::char('c')), None);
    for c in "k7q".chars() {
        assert_eq!(lobby.key(Key::char(c)), None);
    }
    assert_eq!(lobby.key(Key::plain(KeyCode::Enter)), None);
    assert!(
        lobby.message.contains("is not a game's code"),
        "{}",
        lobby.message
    );
    assert_eq!(lobby.key(Key::char('x')), None);
    assert_eq!(
        lobby.key(Key::plain(KeyCode::Enter)),
        Some(Choice::Join("K7QX".into()))
    );
    assert_eq!(lobby.key(Key::ctrl('c')), Some(Choice::Quit));
}

#[test]
fn the_lobby_follows_the_player_s_keys() {
    let mut keys = KeyMap::default();
    let chord = |text: &str| text.parse::<KeyChord>().expect("a key");
    keys.bind(Context::Lobby, "engine", &[chord("p")])
        .expect("bound");
    keys.bind(Context::Lobby, "quit", &[chord("x")])
        .expect("bound");
    let mut lobby = Lobby::new("ann", false, keys);
    assert_eq!(lobby.message, "↑↓ choose, Enter goes; ? the keys; x leaves");
    assert_eq!(lobby.key(Key::char('e')), None, "e is no longer bound");
    assert_eq!(lobby.key(Key::char('q')), None);
    assert_eq!(lobby.key(Key::char('p')), Some(Choice::Engine));
    assert_eq!(lobby.key(Key::char('x')), Some(Choice::Quit));
}

#[test]
fn the_form_cycles_through_the_offered_definitions_after_the_built_ins() {
    let defined = [
        crate::rules::defined::register(include_str!("../../../../../variants/leapers.toml")),
        crate::rules::defined::register(include_str!("../../../../../variants/holes.toml")),
    ]
    .map(|id| Variant::Defined(id.expect("the definition loads")));
    let mut lobby = lobby(false);
    lobby.offer(&defined);
    assert_eq!(lobby.key(Key::char('n')), None);
    // Left from English goes round to the last offered: the board with holes, shown by its name.
    assert_eq!(lobby.key(Key::plain(KeyCode::Left)), None);
    let Some(Panel::Form(form)) = &lobby.panel else {
        panic!("the form");
    };
    assert_eq!(form.values()[0], "English draughts with holes");
    assert_eq!(lobby.key(Key::plain(KeyCode::Left)), None);
    let Some(Panel::Form(form)) = &lobby.panel else {
        panic!("the form");
    };
    assert_eq!(form.values()[0], "Leapers");
    // Every built-in comes before them, and the list goes round.
    let titles: Vec<String> = (0..Variant::ALL.len() + 2)
        .map(|_| {
            assert_eq!(lobby.key(Key::plain(KeyCode::Right)), None);
            let Some(Panel::Form(form)) = &lobby.panel else {
                panic!("the form");
            };
            form.values()[0].clone()
        })
        .collect();
    assert_eq!(titles[0], "English draughts with holes");
    assert_eq!(titles[1], Variant::English.title());
    assert_eq!(titles[Variant::ALL.len()], Variant::Frysk.title());
    assert_eq!(titles[Variant::ALL.len() + 1], "Leapers");
    let Some(Choice::New(table)) = lobby.key(Key::plain(KeyCode::Enter)) else {
        panic!("a new game");
    };
    assert_eq!(table.variant, defined[0]);
    assert!(table.rated, "rated per variant, as the built-ins are");
    // Offering the same again adds nothing.
    lobby.offer(&[defined[0], defined[0], Variant::English]);
    assert_eq!(lobby.key(Key::char('n')), None);
    let Some(Panel::Form(form)) = &lobby.panel else {
        panic!("the form");
    };
    assert_eq!(form.variants.len(), Variant::ALL.len() + 1);
}

#[test]
fn tournaments_are_listed_entered_and_created_from_a_typed_line() {
    let mut lobby = lobby(false);
    lobby.list_events(vec![LobbyEvent {
        code: "T4RN".into(),
        summary: "Evening arena  arena 30 min".into(),
    }]);
    lobby.refresh(Vec::new());
    let at =
        |lobby: &Lobby, want: fn(&Item) -> bool| lobby.items.iter().position(want).expect("listed");
    lobby.cursor = at(&lobby, |i| matches!(i, Item::Event(_)));
    assert_eq!(
        lobby.key(Key::plain(KeyCode::Enter)),
        Some(Choice::Event("T4RN".into()))
    );
    lobby.cursor = at(&lobby, |i| matches!(i, Item::NewEvent));
    assert_eq!(lobby.key(Key::plain(KeyCode::Enter)), None);
    assert_eq!(lobby.panel, Some(Panel::NewEvent(NEW_EVENT_WORDS.into())));
    for c in "Club".chars() {
        assert_eq!(lobby.key(Key::plain(KeyCode::Char(c))), None);
    }
    lobby.key(Key::plain(KeyCode::Backspace));
    assert_eq!(
        lobby.key(Key::plain(KeyCode::Enter)),
        Some(Choice::NewEvent(format!("{NEW_EVENT_WORDS}Clu")))
    );
    assert_eq!(lobby.panel, None);
    // Esc goes back without creating; a huge paste of keys stays bounded.
    lobby.key(Key::plain(KeyCode::Enter));
    for _ in 0..1000 {
        lobby.key(Key::plain(KeyCode::Char('x')));
    }
    let Some(Panel::NewEvent(words)) = &lobby.panel else {
        panic!("the line is open");
    };
    assert_eq!(words.chars().count(), EVENT_TYPED_LIMIT);
    assert_eq!(lobby.key(Key::plain(KeyCode::Esc)), None);
    assert_eq!(lobby.panel, None);
    // A guest is offered no line for one.
    let mut guest = Lobby::new("gus", true, KeyMap::default());
    guest.refresh(Vec::new());
    assert!(!guest.items.contains(&Item::NewEvent));
}
