//! Every variant and board played through the app by keys: the cursor keys walk to each square and Space picks
//! it, move after move, until the game ends by its own rules. Then the record goes to PDN and comes back.

use crowned::app::{Action, App, KeyCode, Mode};
use crowned::game::AnyGame;
use crowned::game::pdn::{open_game, parse_games};
use crowned::rules::{ENGLISH_SIZES, GameType, Variant};

use crate::common;

use common::app::{HUMANS, key, walk_to};

/// Every game type the app offers: each variant on its own board, and English rules on each other board.
fn game_types() -> Vec<GameType> {
    let mut all: Vec<GameType> = Variant::ALL.into_iter().map(GameType::standard).collect();
    for size in ENGLISH_SIZES.into_iter().filter(|&s| s != 8) {
        all.push(GameType::new(Variant::English, Some(size), None).expect("an English board"));
    }
    all
}

/// Plays a whole game of `game_type` by keys, choosing moves by a fixed rule, and returns the game.
fn play_by_keys(game_type: GameType, max_plies: usize) -> AnyGame {
    let (mut app, _) = App::with_game(AnyGame::new(game_type), HUMANS);
    let _ = app.update(Action::Resized {
        width: 80,
        height: 24,
    });
    assert!(app.fits(), "{game_type} fits 80x24");
    for ply in 0..max_plies {
        if app.game().outcome().is_some() {
            break;
        }
        let position = app.game().position();
        let moves = position.legal_moves();
        let mv = moves[(ply * 7 + 3) % moves.len()];
        let before = app.game().len();
        // A piece already selected (the only capturing piece) is not picked again.
        if app.picker().selected() != Some(mv.from()) {
            walk_to(&mut app, mv.from());
            key(&mut app, KeyCode::Char(' '));
            assert_eq!(
                app.picker().selected(),
                Some(mv.from()),
                "{game_type}: {}",
                app.status()
            );
        }
        for &land in mv.path() {
            walk_to(&mut app, land);
            key(&mut app, KeyCode::Char(' '));
        }
        assert_eq!(
            app.game().len(),
            before + 1,
            "{game_type}: {}",
            app.status()
        );
        assert!(app.game().moves()[before].same_effect(&mv));
    }
    app.game().clone()
}

#[test]
fn every_variant_plays_by_keys_and_its_record_reads_back() {
    for game_type in game_types() {
        let game = play_by_keys(game_type, 400);
        assert!(game.len() >= 10, "{game_type}: only {} moves", game.len());
        assert!(game.outcome().is_some() || game.len() == 400, "{game_type}");
        let text = game.to_pdn();
        let parsed = parse_games(&text);
        let read = parsed[0].as_ref().expect("its own PDN");
        let (back, error) = open_game(read, None);
        assert_eq!(error, None, "{game_type}:\n{text}");
        assert_eq!(back.game_type(), game_type);
        // Routes that take the same pieces to the same square are one move (a Frisian man can go round a ring
        // of pieces either way): the record keeps the move, not necessarily the route.
        assert_eq!(back.moves().len(), game.moves().len(), "{game_type}");
        for (read, played) in back.moves().iter().zip(game.moves()) {
            assert!(
                read.same_effect(played),
                "{game_type}: {read:?} for {played:?}"
            );
        }
        assert_eq!(back.outcome(), game.outcome(), "{game_type}");
    }
}

#[test]
fn the_new_game_dialog_starts_each_variant() {
    let (mut app, _) = App::new(HUMANS);
    let _ = app.update(Action::NewGame);
    for _ in 0..4 {
        key(&mut app, KeyCode::Up);
    }
    for variant in Variant::ALL.into_iter().skip(1) {
        key(&mut app, KeyCode::Right);
        assert_eq!(app.dialog().map(|d| d.game_type.variant), Some(variant));
    }
    // Back to Canadian draughts, the largest board.
    for _ in 0..Variant::ALL.len() {
        if app.dialog().map(|d| d.game_type.variant) == Some(Variant::Canadian) {
            break;
        }
        key(&mut app, KeyCode::Left);
    }
    key(&mut app, KeyCode::Enter);
    assert_eq!(app.game().variant(), Variant::Canadian);
    assert_eq!(app.board().width, 12);
    assert_eq!(app.mode(), Mode::Play);
    // A rematch keeps the variant.
    let _ = app.update(Action::Rematch);
    assert_eq!(app.game().variant(), Variant::Canadian);
    // Typed moves use the variant's squares: 1-72 on 12x12.
    let _ = app.update(Action::Submit("32-37".into()));
    assert_eq!(
        app.game().len(),
        0,
        "not a move from the start: {}",
        app.status()
    );
    let first = app.game().position().legal_moves()[0];
    let text = app
        .game()
        .position()
        .write_move(&first, crowned::rules::SquareStyle::Numbers);
    let _ = app.update(Action::Submit(text.clone()));
    assert_eq!(app.game().len(), 1, "{text}: {}", app.status());
}

#[test]
fn setup_and_fen_follow_the_variant() {
    let international = GameType::standard(Variant::International);
    let (mut app, _) = App::with_game(AnyGame::new(international), HUMANS);
    let _ = app.update(Action::Submit(":fen".into()));
    assert!(
        app.status().contains("W:W31-50") || app.status().contains("W:W31,"),
        "{}",
        app.status()
    );
    let _ = app.update(Action::Submit(":fen W:W45:B5".into()));
    assert_eq!(app.game().variant(), Variant::International);
    assert_eq!(app.game().position().pieces().len(), 2, "{}", app.status());
    // A man of White on Black's back row cannot stand there.
    let _ = app.update(Action::Submit(":fen W:W3:BK48".into()));
    assert!(app.status().contains("crowning row"), "{}", app.status());
}

/// Presses each character of `text` as a key, Enter for `\n`.
fn type_keys(app: &mut App, text: &str) {
    for c in text.chars() {
        key(
            app,
            if c == '\n' {
                KeyCode::Enter
            } else {
                KeyCode::Char(c)
            },
        );
    }
}

#[test]
fn coordinates_are_typed_with_no_prefix_where_letters_are_also_keys() {
    for variant in [Variant::Russian, Variant::Brazilian, Variant::English] {
        let (mut app, _) = App::with_game(AnyGame::new(GameType::standard(variant)), HUMANS);
        // c is no key at all, h moves the cursor, a opens the analysis panel, f flips the board: followed by a
        // digit, each is the start of a square instead, and what it did alone is taken back.
        let first = app.game().position().legal_moves()[0];
        let g = app.board();
        let written = format!(
            "{}-{}",
            g.coordinate(first.from()),
            g.coordinate(first.to())
        );
        type_keys(&mut app, &format!("{written}\n"));
        assert_eq!(
            app.game().len(),
            1,
            "{variant}: {written}: {}",
            app.status()
        );
        let (cursor, flipped, panel) = (app.cursor_square(), app.flipped(), app.analysis_open());
        for letter in ['h', 'a', 'f', 'c'] {
            type_keys(&mut app, &format!("{letter}9"));
            assert_eq!(app.input().value(), format!("{letter}9"), "{variant}");
            assert_eq!(
                (app.cursor_square(), app.flipped(), app.analysis_open()),
                (cursor, flipped, panel),
                "{variant}: {letter} was taken back"
            );
            key(&mut app, KeyCode::Esc);
        }
        // Alone, the keys keep their meaning.
        type_keys(&mut app, "f");
        assert_ne!(app.flipped(), flipped, "{variant}: f alone flips");
    }
}

#[test]
fn messages_name_squares_in_the_game_s_notation() {
    // Russian, White to move: c3-d4 f6-e5 leaves d4 to take e5.
    let (mut app, _) = App::with_game(AnyGame::new(GameType::standard(Variant::Russian)), HUMANS);
    type_keys(&mut app, "c3-d4\nf6-e5\n");
    assert_eq!(app.game().len(), 2, "{}", app.status());
    assert!(
        app.status()
            .contains("a capture is compulsory (d4 can take)"),
        "{}",
        app.status()
    );
    // The only capturer is selected; picking it again says why it stays, in coordinates.
    let d4 = app
        .picker()
        .selected()
        .expect("d4 is selected for the player");
    let _ = app.update(Action::PickSquare(d4));
    assert!(
        app.status().contains("the piece on d4 is the only one"),
        "{}",
        app.status()
    );
    assert!(app.status().contains("(f6)"), "{}", app.status());
}

/// The status line's rows at `width` x `height` (the two rows above the input box), without their margin.
fn status_rows(app: &App, width: u16, height: u16) -> Vec<String> {
    let shown = common::screen::screen(app, width, height);
    let rows: Vec<&str> = shown.lines().collect();
    rows[rows.len() - 5..rows.len() - 3]
        .iter()
        .map(|row| row.trim().to_string())
        .filter(|row| !row.is_empty())
        .collect()
}

#[test]
fn a_fen_on_the_status_line_is_whole_or_marked_as_cut_on_every_board() {
    // A 10x10 game after some moves: its FEN wraps onto the second row, whole.
    let mut game = AnyGame::new(GameType::standard(Variant::International));
    for _ in 0..12 {
        let mv = game.position().legal_moves()[0];
        game.play(&mv).expect("legal");
    }
    let fen = game.position().to_fen();
    let (mut app, _) = App::with_game(game, HUMANS);
    let _ = app.update(Action::Resized {
        width: 80,
        height: 24,
    });
    let _ = app.update(Action::Submit(":fen".into()));
    let rows = status_rows(&app, 80, 24);
    let joined: String = rows.concat().replace(' ', "");
    assert!(joined.ends_with(&fen.replace(' ', "")), "{fen} in {rows:?}");
    // A 12x12 position with every man apart: too long for two rows at 80 columns, so it ends with an
    // ellipsis, and what is shown is the FEN's beginning.
    let white: Vec<String> = (8..=66).step_by(2).map(|s| s.to_string()).collect();
    let black: Vec<String> = (1..=59).step_by(2).map(|s| s.to_string()).collect();
    let scattered = format!("W:W{}:B{}", white.join(","), black.join(","));
    let canadian = GameType::standard(Variant::Canadian);
    let (mut app, _) = App::with_game(AnyGame::new(canadian), HUMANS);
    let _ = app.update(Action::Resized {
        width: 80,
        height: 24,
    });
    let _ = app.update(Action::Submit(format!(":fen {scattered}")));
    assert_eq!(
        app.game().position().to_fen(),
        scattered,
        "{}",
        app.status()
    );
    let _ = app.update(Action::Submit(":fen".into()));
    let rows = status_rows(&app, 80, 24);
    assert_eq!(rows.len(), 2, "{rows:?}");
    let last = rows[1].strip_suffix('…').expect("marked as cut").trim_end();
    let shown = format!("{}{last}", rows[0])
        .trim_start_matches("FEN (:copy fen copies it):")
        .trim()
        .to_string();
    assert!(
        shown.len() > 100 && scattered.starts_with(&shown),
        "{shown}"
    );
    // The whole of it is one :copy away.
    let effects = app.update(Action::Submit(":copy fen".into()));
    assert!(
        effects
            .iter()
            .any(|e| matches!(e, crowned::app::Effect::Copy(text) if *text == scattered)),
        "{effects:?}"
    );
}
