//! New games from tournament ballots, chosen in the new-game dialog: drawn at random or picked from the deck,
//! their moves played, their name in the move list and the PDN, and played again with the colours swapped.

use crowned::app::{Action, App, OPENING_TAG, Player, Players, Timer, deck_size};
use crowned::engine::{Level, eleven_man_ballots};

use crate::common::app::HUMANS;
use crate::common::screen::screen;

/// Opens the dialog, goes up to the opening line and steps right `steps` times, then starts.
fn start_from_dialog(app: &mut App, steps: usize) {
    let _ = app.update(Action::NewGame);
    let _ = app.update(Action::Up);
    for _ in 0..steps {
        let _ = app.update(Action::Right);
    }
    let _ = app.update(Action::PickAtCursor);
    while app.animation().is_some() {
        let _ = app.update(Action::Timer(Timer::Animation));
    }
}

fn moves(app: &App) -> Vec<String> {
    (1..=app.game().len())
        .filter_map(|ply| {
            app.game()
                .move_text(ply, crowned::rules::SquareStyle::Numbers)
        })
        .collect()
}

#[test]
fn a_chosen_ballot_is_played_and_named() {
    let (mut app, _) = App::new(HUMANS);
    // Standard, drawn at random, then the first ballot of the deck.
    start_from_dialog(&mut app, 2);
    assert_eq!(moves(&app), ["9-13", "21-17", "5-9"]);
    assert_eq!(
        app.game().tags().get(OPENING_TAG),
        Some("3-move ballot 1: 9-13 21-17 5-9")
    );
    assert!(
        app.status().starts_with("3-move ballot 1"),
        "{}",
        app.status()
    );
    assert!(screen(&app, 80, 24).contains("3-move ballot 1: 9-13 21-17 5-9"));
    assert!(
        app.game()
            .to_pdn()
            .contains("[Opening \"3-move ballot 1: 9-13 21-17 5-9\"]")
    );
    // The ballot's moves are the game's: they can be browsed but the player moves from after them.
    assert_eq!(app.game().ply(), 3);
}

#[test]
fn a_rematch_plays_the_same_ballot_with_the_colours_swapped() {
    let players = Players {
        black: Player::Human,
        white: Player::Engine(Level::Medium),
    };
    let (mut app, _) = App::new(players);
    app.set_seed(11);
    start_from_dialog(&mut app, 1);
    let drawn = app
        .game()
        .tags()
        .get(OPENING_TAG)
        .expect("a ballot")
        .to_string();
    let first_moves = moves(&app);
    assert_eq!(first_moves.len(), 3);
    let _ = app.update(Action::Rematch);
    assert_eq!(app.players(), players.swapped());
    assert_eq!(app.game().tags().get(OPENING_TAG), Some(drawn.as_str()));
    assert_eq!(moves(&app)[..3], first_moves[..]);
}

#[test]
fn random_ballots_follow_the_seed_and_cover_the_deck() {
    let drawn = |seed: u64, games: usize| -> Vec<String> {
        let (mut app, _) = App::new(HUMANS);
        app.set_seed(seed);
        (0..games)
            .map(|_| {
                start_from_dialog(&mut app, 1);
                app.game().tags().get(OPENING_TAG).unwrap_or("").to_string()
            })
            .collect()
    };
    let first = drawn(3, 40);
    assert_eq!(first, drawn(3, 40), "the same seed draws the same ballots");
    assert_ne!(first, drawn(4, 40));
    let mut different = first.clone();
    different.sort();
    different.dedup();
    assert!(different.len() > 25, "{} different of 40", different.len());
    assert!(first.iter().all(|name| name.starts_with("3-move ballot ")));
    assert_eq!(deck_size(), 157);
}

#[test]
fn the_standard_start_and_other_variants_have_no_ballot() {
    let (mut app, _) = App::new(HUMANS);
    start_from_dialog(&mut app, 0);
    assert!(app.game().is_empty());
    assert_eq!(app.game().tags().get(OPENING_TAG), None);
    // On another variant the opening line is not offered: the dialog's Up from Black reaches the men's rows.
    let _ = app.update(Action::NewGame);
    for _ in 0..6 {
        let _ = app.update(Action::Up);
    }
    let _ = app.update(Action::Right);
    let shown = screen(&app, 80, 24);
    assert!(!shown.contains("Start "), "{shown}");
}

#[test]
fn new_game_dialog_with_a_ballot_80x24() {
    let (mut app, _) = App::new(HUMANS);
    let _ = app.update(Action::NewGame);
    let _ = app.update(Action::Up);
    for _ in 0..18 {
        let _ = app.update(Action::Right);
    }
    insta::assert_snapshot!(screen(&app, 80, 24));
}

#[test]
fn the_ballot_command_starts_a_chosen_or_drawn_ballot() {
    let (mut app, _) = App::new(HUMANS);
    let _ = app.update(Action::Submit(":ballot 17".into()));
    assert_eq!(
        app.game().tags().get(OPENING_TAG),
        Some("3-move ballot 17: 9-13 23-19 6-9")
    );
    let _ = app.update(Action::Submit(":ballot".into()));
    assert!(
        app.game()
            .tags()
            .get(OPENING_TAG)
            .is_some_and(|name| name.starts_with("3-move ballot "))
    );
    for bad in [":ballot 0", ":ballot 158", ":ballot x"] {
        let _ = app.update(Action::Submit(bad.into()));
        assert!(
            app.status().contains("from 1 to 157"),
            "{bad}: {}",
            app.status()
        );
    }
}

#[test]
fn an_eleven_man_ballot_is_played_named_and_played_again_by_a_rematch() {
    let players = Players {
        black: Player::Human,
        white: Player::Engine(Level::Random),
    };
    let (mut app, _) = App::new(players);
    // Standard, a 3-move ballot drawn, the 3-move deck, an 11-man ballot drawn, then 11-man ballot 1.
    let _ = app.update(Action::NewGame);
    let _ = app.update(Action::Up);
    for _ in 0..deck_size() + 3 {
        let _ = app.update(Action::Right);
    }
    insta::assert_snapshot!(
        "new_game_dialog_with_an_eleven_man_ballot_80x24",
        screen(&app, 80, 24)
    );
    let _ = app.update(Action::PickAtCursor);
    while app.animation().is_some() {
        let _ = app.update(Action::Timer(Timer::Animation));
    }
    let first = &eleven_man_ballots()[0];
    assert_eq!(moves(&app), first.moves());
    assert_eq!(app.game().start().to_fen(), first.start_fen());
    assert_eq!(
        app.game().tags().get(OPENING_TAG),
        Some(first.name().as_str())
    );
    // The whole name is on screen at 80x24, its moves wrapped onto a second line.
    let shown = screen(&app, 80, 24);
    assert!(shown.contains("11-man ballot 1: 5 and 21 off"), "{shown}");
    let [black, white] = first.moves();
    assert!(shown.contains(&format!("{black} {white}")), "{shown}");
    // A rematch: the same opening, the colours swapped.
    let _ = app.update(Action::Rematch);
    assert_eq!(app.players(), players.swapped());
    assert_eq!(
        app.game().tags().get(OPENING_TAG),
        Some(first.name().as_str())
    );
    assert_eq!(app.game().start().to_fen(), first.start_fen());
}

#[test]
fn the_eleven_command_starts_a_chosen_or_drawn_eleven_man_ballot() {
    let (mut app, _) = App::new(HUMANS);
    let _ = app.update(Action::Submit(":eleven 137".into()));
    let chosen = &eleven_man_ballots()[136];
    assert_eq!(
        app.game().tags().get(OPENING_TAG),
        Some(chosen.name().as_str())
    );
    assert_eq!(app.game().len(), 2);
    let _ = app.update(Action::Submit(":eleven".into()));
    let drawn = app.game().tags().get(OPENING_TAG).unwrap_or_default();
    assert!(drawn.starts_with("11-man ballot "), "{drawn}");
    for bad in ["0", "2501", "x"] {
        let _ = app.update(Action::Submit(format!(":eleven {bad}")));
        assert!(
            app.status().contains("a number from 1 to 2500"),
            "{bad}: {}",
            app.status()
        );
    }
}
