//! Variants defined in files, played through the app: by keys to the end of a game, saved and resumed, drawn on
//! the screen with the definition's own pieces and holes, and chosen in the new-game dialog.

use crowned::app::{Action, App, KeyCode, Mode};
use crowned::game::AnyGame;
use crowned::rules::defined::register;
use crowned::rules::{GameType, Square, Variant};
use crowned::store::{SavedGame, from_pdn, to_pdn};
use crowned::ui::{Options, PieceStyle};

use crate::common;

use common::app::{HUMANS, key, walk_to};
use common::screen::{render, screen, text};

fn defined(text: &str) -> GameType {
    GameType::standard(Variant::Defined(register(text).expect("the example loads")))
}

fn leapers() -> GameType {
    defined(include_str!("../../variants/leapers.toml"))
}

fn holes() -> GameType {
    defined(include_str!("../../variants/holes.toml"))
}

/// Plays a game of `game_type` by keys, a fixed choice of move each time, until it ends.
fn play_to_the_end(game_type: GameType) -> App {
    let (mut app, _) = App::with_game(AnyGame::new(game_type), HUMANS);
    let _ = app.update(Action::Resized {
        width: 80,
        height: 24,
    });
    assert!(app.fits(), "{game_type} fits 80x24");
    for ply in 0..500 {
        if app.game().outcome().is_some() {
            break;
        }
        let moves = app.game().position().legal_moves();
        let mv = moves[(ply * 7 + 3) % moves.len()];
        let before = app.game().len();
        if app.picker().selected() != Some(mv.from()) {
            walk_to(&mut app, mv.from());
            key(&mut app, KeyCode::Char(' '));
            assert_eq!(app.picker().selected(), Some(mv.from()), "{}", app.status());
        }
        for &land in mv.path() {
            walk_to(&mut app, land);
            key(&mut app, KeyCode::Char(' '));
        }
        assert_eq!(app.game().len(), before + 1, "{}", app.status());
        assert_eq!(app.game().moves()[before], mv);
    }
    app
}

#[test]
fn a_defined_game_plays_by_keys_to_its_end_saves_and_resumes() {
    for game_type in [leapers(), holes()] {
        let app = play_to_the_end(game_type);
        let game = app.game().clone();
        let outcome = game.outcome().expect("the game ended by its rules");
        assert!(matches!(app.mode(), Mode::Over(_)), "{:?}", app.mode());
        // Undo and redo walk the record as in any game.
        let (mut replay, _) = App::with_game(game.clone(), HUMANS);
        let _ = replay.update(Action::Undo);
        assert_eq!(replay.game().ply(), game.len() - 1);
        assert_eq!(replay.game().outcome(), None);
        let _ = replay.update(Action::Redo);
        assert_eq!(replay.game().outcome(), Some(outcome));
        // Saved as the autosave and the saved games are, then resumed.
        let saved = SavedGame {
            game: game.clone(),
            players: HUMANS,
            file: None,
            clock: None,
        };
        let text = to_pdn(&saved);
        let back = from_pdn(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(back.game.variant(), game.variant());
        assert_eq!(back.game.moves(), game.moves());
        let (resumed, _) = App::with_game(back.game, HUMANS);
        assert_eq!(resumed.game().position(), game.position());
        assert_eq!(resumed.game().outcome(), Some(outcome));
    }
}

#[test]
fn typed_moves_use_the_definition_s_coordinates() {
    let (mut app, _) = App::with_game(AnyGame::new(holes()), HUMANS);
    let _ = app.update(Action::Submit("e5-d4".into()));
    assert_eq!(app.game().len(), 0, "d4 is a hole: {}", app.status());
    let _ = app.update(Action::Submit("c5-b4".into()));
    assert_eq!(app.game().len(), 1, "{}", app.status());
    assert_eq!(
        app.game().move_text(1, Default::default()).as_deref(),
        Some("c5-b4")
    );
}

#[test]
fn the_new_game_dialog_offers_the_definitions_loaded() {
    let holes = holes();
    let (mut app, _) = App::new(HUMANS);
    let _ = app.update(Action::NewGame);
    for _ in 0..4 {
        key(&mut app, KeyCode::Up);
    }
    for _ in 0..Variant::ALL.len() + 64 {
        if app.dialog().map(|d| d.game_type) == Some(holes) {
            break;
        }
        key(&mut app, KeyCode::Right);
    }
    assert_eq!(app.dialog().map(|d| d.game_type), Some(holes));
    key(&mut app, KeyCode::Enter);
    assert_eq!(app.game().game_type(), holes);
    assert_eq!(app.mode(), Mode::Play);
}

fn holes_after_two_moves() -> App {
    let mut game = AnyGame::new(holes());
    for text in ["c5-b4", "b2-a3"] {
        game.play_text(text).expect("legal");
    }
    let (mut app, _) = App::with_game(game, HUMANS);
    let _ = app.update(Action::Resized {
        width: 80,
        height: 24,
    });
    app
}

#[test]
fn holes_unicode_80x24() {
    insta::assert_snapshot!(screen(&holes_after_two_moves(), 80, 24));
}

#[test]
fn holes_ascii_80x24() {
    let options = Options {
        pieces: PieceStyle::Ascii,
        ..Options::default()
    };
    insta::assert_snapshot!(text(&render(&holes_after_two_moves(), 80, 24, &options)));
}

/// Setting up a Leapers position: the cycle key puts each kind of each side in turn, the status names it, and
/// the panel lists the definition's pieces as the board draws them.
fn leapers_set_up(pieces: PieceStyle) -> String {
    let (mut app, _) = App::with_game(AnyGame::new(leapers()), HUMANS);
    let _ = app.update(Action::Resized {
        width: 80,
        height: 24,
    });
    key(&mut app, KeyCode::Char('s'));
    assert!(matches!(app.mode(), Mode::Setup(_)), "{}", app.status());
    key(&mut app, KeyCode::Char('c'));
    let named = |app: &App, name: &str| {
        let board = *app.game().position().defined().expect("a defined board");
        Square::from_index(
            board
                .entry()
                .square_named(name)
                .expect("a square of the board"),
        )
    };
    let c3 = named(&app, "c3");
    walk_to(&mut app, c3);
    key(&mut app, KeyCode::Char(' '));
    assert!(
        app.status().starts_with("black frog placed"),
        "{}",
        app.status()
    );
    key(&mut app, KeyCode::Char(' '));
    assert!(
        app.status().starts_with("white frog placed"),
        "{}",
        app.status()
    );
    key(&mut app, KeyCode::Char(' '));
    let Mode::Setup(setup) = app.mode() else {
        panic!("still setting up")
    };
    assert_eq!(
        setup.position().piece_at(c3),
        None,
        "the cycle comes back to empty"
    );
    key(&mut app, KeyCode::Char(' '));
    // A king key on a board whose pieces are never crowned says so and changes nothing.
    let e5 = named(&app, "e5");
    walk_to(&mut app, e5);
    key(&mut app, KeyCode::Char('W'));
    assert!(app.status().contains("no such piece"), "{}", app.status());
    let options = Options {
        pieces,
        ..Options::default()
    };
    text(&render(&app, 80, 24, &options))
}

#[test]
fn leapers_setup_unicode_80x24() {
    insta::assert_snapshot!(leapers_set_up(PieceStyle::Unicode));
}

#[test]
fn leapers_setup_ascii_80x24() {
    insta::assert_snapshot!(leapers_set_up(PieceStyle::Ascii));
}
