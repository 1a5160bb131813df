//! Render snapshots of the other boards: 10x10 and 12x12 at 80x24 (the smallest usual terminal) and at 120x40,
//! the mirrored Italian board, Russian draughts' move list in coordinates, and each of the newer variants
//! (Frisian, Frysk!, antidraughts, breakthrough, Turkish) at both sizes.

use crowned::app::{Action, App, KeyCode, Player, Players};
use crowned::engine::Level;
use crowned::game::AnyGame;
use crowned::rules::defined::load_builtin;
use crowned::rules::{AnyPosition, Color, GameType, Variant};
use crowned::ui;

use crate::common;

use common::screen::screen;

const VS_ENGINE: Players = Players {
    black: Player::Human,
    white: Player::Engine(Level::Medium),
};

/// A game of `game_type` after the first `plies` legal moves (the first in the generator's order each time).
fn opened(game_type: GameType, plies: usize) -> App {
    let mut game = AnyGame::new(game_type);
    for _ in 0..plies {
        let mv = game.position().legal_moves()[0];
        game.play(&mv).expect("legal");
    }
    let (mut app, _) = App::with_game(game, VS_ENGINE);
    let _ = app.update(Action::Resized {
        width: 80,
        height: 24,
    });
    app
}

#[test]
fn international_80x24() {
    let app = opened(GameType::standard(Variant::International), 3);
    insta::assert_snapshot!(screen(&app, 80, 24));
}

#[test]
fn international_120x40() {
    let app = opened(GameType::standard(Variant::International), 3);
    insta::assert_snapshot!(screen(&app, 120, 40));
}

#[test]
fn canadian_80x24() {
    let app = opened(GameType::standard(Variant::Canadian), 2);
    insta::assert_snapshot!(screen(&app, 80, 24));
}

#[test]
fn canadian_120x40() {
    let app = opened(GameType::standard(Variant::Canadian), 2);
    insta::assert_snapshot!(screen(&app, 120, 40));
}

#[test]
fn english_14x14_at_its_minimum_size() {
    let game_type = GameType::new(Variant::English, Some(14), None).expect("a board");
    let app = opened(game_type, 1);
    let (width, height) = ui::min_size(app.board());
    insta::assert_snapshot!(screen(&app, width, height));
}

#[test]
fn russian_moves_in_coordinates_80x24() {
    let app = opened(GameType::standard(Variant::Russian), 4);
    let shown = screen(&app, 80, 24);
    let first = app
        .game()
        .move_text(1, crowned::rules::SquareStyle::Coordinates)
        .expect("a first move");
    assert!(
        first.starts_with(|c: char| c.is_ascii_lowercase()),
        "{first}"
    );
    assert!(
        shown.contains(&first),
        "the move list is in coordinates:\n{shown}"
    );
    insta::assert_snapshot!(shown);
}

#[test]
fn italian_mirrored_80x24() {
    let app = opened(GameType::standard(Variant::Italian), 0);
    insta::assert_snapshot!(screen(&app, 80, 24));
}

#[test]
fn a_big_board_on_a_small_screen_asks_for_its_own_size() {
    let app = opened(GameType::standard(Variant::Canadian), 0);
    let (width, height) = ui::min_size(app.board());
    let shown = screen(&app, width - 1, height);
    assert!(
        shown.contains(&format!("at least {width}x{height}")),
        "{shown}"
    );
}

#[test]
fn big_boards_at_80x24_number_their_edge_squares_and_hints_follow_the_variant() {
    let game_types = [
        GameType::standard(Variant::International),
        GameType::standard(Variant::Canadian),
        GameType::new(Variant::English, Some(14), None).expect("a board"),
    ];
    for game_type in game_types {
        let app = opened(game_type, 0);
        let shown = screen(&app, 80, 24);
        let side = u32::from(app.board().width);
        let per_row = side / 2;
        // Every row begins with the number of its first square on screen (turned round, the row's highest).
        let numbers: Vec<u32> = shown
            .lines()
            .filter_map(|line| line.strip_prefix('┃'))
            .filter_map(|rest| rest.get(..2).and_then(|label| label.trim().parse().ok()))
            .collect();
        assert_eq!(
            numbers.len() as u32,
            side,
            "{game_type}: a number a row\n{shown}"
        );
        assert!(
            numbers
                .iter()
                .all(|n| (n - 1) % per_row == 0 || n % per_row == 0),
            "{game_type}: each is a row's first or last square {numbers:?}"
        );
        // The input box's example is a first move of the player's own side (the human's, whoever moves first),
        // written as this game writes moves.
        let example = shown
            .split("type a move (")
            .nth(1)
            .and_then(|rest| rest.split(',').next())
            .expect("an example");
        let human = [Color::Black, Color::White]
            .into_iter()
            .find(|&c| app.players().of(c) == Player::Human)
            .expect("a human side");
        assert!(
            AnyPosition::start(game_type)
                .with_side_to_move(human)
                .parse_move(example, crowned::rules::Strictness::Exact)
                .is_ok(),
            "{game_type}: {example}"
        );
    }
}

/// The newer variants after a few moves, at the smallest usual terminal and a large one.
fn newer_variant(variant: Variant, plies: usize, width: u16, height: u16) -> String {
    let mut app = opened(GameType::standard(variant), plies);
    let _ = app.update(Action::Resized { width, height });
    screen(&app, width, height)
}

fn turkish() -> Variant {
    Variant::Defined(
        load_builtin("turkish")
            .expect("Turkish is built in")
            .expect("its definition loads"),
    )
}

#[test]
fn frisian_80x24() {
    insta::assert_snapshot!(newer_variant(Variant::Frisian, 4, 80, 24));
}

#[test]
fn frisian_120x40() {
    insta::assert_snapshot!(newer_variant(Variant::Frisian, 4, 120, 40));
}

#[test]
fn frysk_80x24() {
    insta::assert_snapshot!(newer_variant(Variant::Frysk, 4, 80, 24));
}

#[test]
fn frysk_120x40() {
    insta::assert_snapshot!(newer_variant(Variant::Frysk, 4, 120, 40));
}

#[test]
fn antidraughts_80x24() {
    insta::assert_snapshot!(newer_variant(Variant::Antidraughts, 3, 80, 24));
}

#[test]
fn antidraughts_120x40() {
    insta::assert_snapshot!(newer_variant(Variant::Antidraughts, 3, 120, 40));
}

#[test]
fn breakthrough_80x24() {
    insta::assert_snapshot!(newer_variant(Variant::Breakthrough, 3, 80, 24));
}

#[test]
fn breakthrough_120x40() {
    insta::assert_snapshot!(newer_variant(Variant::Breakthrough, 3, 120, 40));
}

#[test]
fn turkish_80x24() {
    insta::assert_snapshot!(newer_variant(turkish(), 4, 80, 24));
}

#[test]
fn turkish_120x40() {
    insta::assert_snapshot!(newer_variant(turkish(), 4, 120, 40));
}

#[test]
fn the_rules_page_is_one_key_away_and_tab_turns_to_the_keys() {
    let mut app = opened(GameType::standard(Variant::Frisian), 0);
    common::app::press(&mut app, KeyCode::Char('R'));
    let shown = screen(&app, 80, 24);
    assert!(shown.contains("Frisian draughts"), "{shown}");
    assert!(shown.contains("at most three"), "{shown}");
    insta::assert_snapshot!(shown);
    // The page scrolls where 24 rows do not hold it, and Tab turns to the keys and back.
    common::app::press(&mut app, KeyCode::Down);
    assert!(
        screen(&app, 80, 24).contains("Rules 2-"),
        "{}",
        screen(&app, 80, 24)
    );
    common::app::press(&mut app, KeyCode::Tab);
    let keys = screen(&app, 80, 24);
    assert!(
        keys.contains(" Keys 1-") && keys.contains("Tab rules"),
        "{keys}"
    );
    common::app::press(&mut app, KeyCode::Tab);
    assert!(screen(&app, 80, 24).contains("Rules"));
    common::app::press(&mut app, KeyCode::Esc);
    assert!(app.overlay().is_none(), "{:?}", app.overlay());
    // The command does the same, and the page follows the game's variant.
    let mut antidraughts = opened(GameType::standard(Variant::Antidraughts), 0);
    let _ = antidraughts.update(Action::Submit(":rules".into()));
    let shown = screen(&antidraughts, 120, 40);
    assert!(shown.contains("The other way round"), "{shown}");
    assert!(!shown.contains("at most three"), "{shown}");
}
