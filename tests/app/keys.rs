//! Whole games played with key presses through the key map and the app, as the terminal delivers them.

use crowned::app::{
    App, Effect, Key, KeyCode, Mode, Modifiers, Player, Players, Preferences, Question,
    action_for_key,
};
use crowned::engine::Level;
use crowned::game::{DrawReason, Game, Outcome, WinReason};
use crowned::rules::{Color, English, Piece, Position, Role, Square};

use crate::common;
mod cursor;

use common::app::{HUMANS, answer, app_from};

/// Presses keys written as a script: `<name>` for a special key (`<Up>`, `<Enter>`, `<Esc>`, `<Space>`,
/// `<Tab>`, `<Home>`, `<End>`, `<C-r>`), any other character for itself. The engine's turns are answered at
/// once (see `common::app::answer`) so whole games run without threads.
fn press(app: &mut App, script: &str) -> Vec<Effect> {
    let mut effects = Vec::new();
    let mut rest = script;
    while let Some(c) = rest.chars().next() {
        let (key, len) = if c == '<' {
            let end = rest.find('>').expect("closed key name");
            (named(&rest[1..end]), end + 1)
        } else {
            (Key::char(c), c.len_utf8())
        };
        rest = &rest[len..];
        if let Some(action) = action_for_key(app, key) {
            let now = app.update(action);
            effects = answer(app, now);
        }
    }
    effects
}

fn named(name: &str) -> Key {
    let code = match name {
        "Up" => KeyCode::Up,
        "Down" => KeyCode::Down,
        "Left" => KeyCode::Left,
        "Right" => KeyCode::Right,
        "Enter" => KeyCode::Enter,
        "Esc" => KeyCode::Esc,
        "Space" => KeyCode::Char(' '),
        "Tab" => KeyCode::Tab,
        "Home" => KeyCode::Home,
        "End" => KeyCode::End,
        "Backspace" => KeyCode::Backspace,
        "Delete" => KeyCode::Delete,
        "C-r" => return Key::new(KeyCode::Char('r'), Modifiers::CONTROL),
        "C-c" => return Key::new(KeyCode::Char('c'), Modifiers::CONTROL),
        other => panic!("unknown key <{other}>"),
    };
    Key::new(code, Modifiers::NONE)
}

#[test]
fn a_quick_win_with_the_cursor() {
    // The only capturer, 14 (c5), is selected for the player; its landing square 23 (e3) is two rows down and
    // two columns right (White at the bottom: rows go down the screen as the numbers rise). The cursor goes along
    // diagonals, as the pieces do: Down goes to d4 (towards the middle), Down again on along it to e3.
    let mut app = app_from("B:W18:B14", HUMANS);
    press(&mut app, "<Down><Down><Space>");
    assert_eq!(
        app.mode(),
        Mode::Over(Outcome::Win {
            winner: Color::Black,
            reason: WinReason::NoPieces
        }),
        "{}",
        app.status()
    );
}

#[test]
fn a_multi_jump_step_by_step_with_hjkl() {
    // 14 jumps 18 to 23, then 26 to 30: two steps of the same capture, with the turn held in between.
    let mut app = app_from("B:W17,18,25,26,32:B14", HUMANS);
    // Down twice along the diagonal (towards the middle first) lands on 23.
    press(&mut app, "jj ");
    assert_eq!(app.status(), "the capture goes on from 23");
    assert!(app.picker().is_continuing());
    assert_eq!(app.game().len(), 0);
    // Nothing but the next landing square is accepted: only 30 is offered, not 27.
    press(&mut app, "j ");
    assert_eq!(app.cursor_square(), Square::from_number(27, 32));
    assert_eq!(app.status(), "the capture must go on from 23: 30 next");
    // Up comes back to 23; Left and Right lean the diagonal right, and Down Down runs along it to 30.
    press(&mut app, "k");
    assert_eq!(app.cursor_square(), Square::from_number(23, 32));
    press(&mut app, "hljj ");
    assert_eq!(app.game().len(), 1, "{}", app.status());
    assert_eq!(app.game().position().side_to_move(), Color::White);
}

#[test]
fn a_draw_by_repetition_by_typed_moves() {
    let mut app = app_from("B:WK32:BK1", HUMANS);
    press(
        &mut app,
        "1-6<Enter>32-27<Enter>6-1<Enter>27-32<Enter>1-6<Enter>32-27<Enter>6-1<Enter>27-32<Enter>",
    );
    assert_eq!(
        app.mode(),
        Mode::Over(Outcome::Draw {
            reason: DrawReason::Repetition { times: 3 }
        })
    );
    assert!(app.status().contains("n: new game"));
}

#[test]
fn typing_errors_keep_the_text_and_backspace_mends_it() {
    let (mut app, _) = App::new(HUMANS);
    press(&mut app, "11-17<Enter>");
    assert_eq!(app.input().value(), "11-17");
    assert!(app.status().contains("11-17"), "{}", app.status());
    press(&mut app, "<Backspace><Backspace>15<Enter>");
    assert_eq!(app.game().len(), 1);
    assert!(app.input().value().is_empty());
    // Letters go into the box only once typing has started: `i` opens it for coordinates.
    press(&mut app, "ic3-d4<Enter>");
    assert_eq!(app.game().len(), 2, "c3-d4 is White's 22-18");
    assert_eq!(
        app.game()
            .move_text(2, crowned::rules::SquareStyle::Numbers)
            .as_deref(),
        Some("22-18")
    );
    // Esc throws the text away and gives the keys back to the board.
    press(&mut app, ":lev<Esc>j");
    assert!(app.input().value().is_empty());
    assert_eq!(app.focus(), crowned::app::Focus::Board);
}

#[test]
fn undo_and_redo_against_the_engine_and_a_whole_game() {
    let players = Players {
        black: Player::Human,
        white: Player::Engine(Level::Easy),
    };
    let (mut app, _) = App::new(players);
    press(&mut app, "11-15<Enter>");
    assert_eq!(app.game().ply(), 2, "the engine answered");
    press(&mut app, "u");
    assert_eq!(app.game().ply(), 0, "undo takes back the turn pair");
    press(&mut app, "<C-r>");
    assert_eq!(app.game().ply(), 2);
    press(&mut app, "uU");
    assert_eq!(app.game().ply(), 2);
    // Play on by cursor (Space on the preselected piece, then its first destination) until the game ends.
    for _ in 0..300 {
        if matches!(app.mode(), Mode::Over(_)) {
            break;
        }
        let pos = app.game().position();
        let mv = pos.legal_moves()[0];
        let effects = app.update(crowned::app::Action::PickSquare(mv.from()));
        assert!(effects.is_empty());
        for step in mv.path() {
            let effects = app.update(crowned::app::Action::PickSquare(*step));
            answer(&mut app, effects);
        }
    }
    assert!(matches!(app.mode(), Mode::Over(_)), "{}", app.status());
    // After the game: a rematch with colours swapped.
    press(&mut app, "r");
    assert_eq!(app.players(), players.swapped());
    assert!(!app.game().is_empty(), "the engine, now Black, has moved");
}

#[test]
fn browsing_with_brackets_and_the_history_pane() {
    let (mut app, _) = App::new(HUMANS);
    press(&mut app, "11-15<Enter>23-19<Enter>8-11<Enter>22-17<Enter>");
    press(&mut app, "[[");
    assert_eq!(app.mode(), Mode::Browsing { ply: 2 });
    press(&mut app, "]");
    assert_eq!(app.mode(), Mode::Browsing { ply: 3 });
    press(&mut app, "<Esc>");
    assert_eq!(app.mode(), Mode::Play);
    // Tab gives the arrows to the history; Home is the start, End the live position.
    press(&mut app, "<Tab><Up>");
    assert_eq!(app.mode(), Mode::Browsing { ply: 3 });
    press(&mut app, "<Home>");
    assert_eq!(app.mode(), Mode::Browsing { ply: 0 });
    press(&mut app, "<Down><Down>");
    assert_eq!(app.mode(), Mode::Browsing { ply: 2 });
    press(&mut app, "<End>");
    assert_eq!(app.mode(), Mode::Play);
    press(&mut app, "<Tab>");
    press(&mut app, "<Up>");
    assert_eq!(
        app.mode(),
        Mode::Play,
        "Tab gave the arrows back to the board"
    );
    assert_eq!(app.game().len(), 4, "browsing never changes the game");
}

#[test]
fn ctrl_c_quits_at_once_and_q_asks() {
    let (mut app, _) = App::new(HUMANS);
    press(&mut app, "11-15<Enter>");
    assert!(press(&mut app, "q").is_empty());
    assert_eq!(app.question(), Some(Question::Quit { leaving: false }));
    let effects = press(&mut app, "<C-c>");
    assert!(matches!(effects.last(), Some(Effect::Quit)));
}

#[test]
fn the_quit_question_is_answered_by_y_or_n_like_every_other() {
    let quits = |effects: &[Effect]| matches!(effects.last(), Some(Effect::Quit));
    let (mut app, _) = App::new(HUMANS);
    press(&mut app, "11-15<Enter>");
    // y quits: a player who answers as every other question is answered is not left in the game.
    press(&mut app, "q");
    assert!(app.status().contains("y or q: quit"), "{}", app.status());
    assert!(quits(&press(&mut app, "y")));
    // n stays, and nothing typed after it reaches the game by surprise.
    let (mut app, _) = App::new(HUMANS);
    press(&mut app, "11-15<Enter>q");
    assert!(!quits(&press(&mut app, "n")));
    assert_eq!(app.question(), None);
    assert_eq!(app.game().len(), 1);
    // Other keys leave the question asked: the game does not move under it.
    press(&mut app, "q");
    assert!(press(&mut app, "23-19<Enter>").is_empty());
    assert_eq!(app.game().len(), 1, "no move is played under the question");
    assert_eq!(app.question(), Some(Question::Quit { leaving: false }));
    // The quit key again confirms; Esc would have said no.
    assert!(quits(&press(&mut app, "q")));
    // A finished or empty game quits at once.
    let (mut app, _) = App::new(HUMANS);
    assert!(quits(&press(&mut app, "q")));
}

#[test]
fn a_refused_move_does_not_eat_the_next_command_keys() {
    let (mut app, _) = App::new(HUMANS);
    press(&mut app, "12-17<Enter>");
    assert!(app.status().contains("12-17"), "{}", app.status());
    // The text is held for a look, the board has the keys back.
    assert_eq!(app.input().value(), "12-17");
    assert!(app.input_held());
    assert_eq!(app.focus(), crowned::app::Focus::Board);
    // The next command key is a command: n opens the new-game dialog, and the refused text is let go.
    press(&mut app, "n");
    assert!(
        matches!(app.overlay(), Some(crowned::app::Overlay::Dialog(_))),
        "{:?}",
        app.overlay()
    );
    assert_eq!(app.input().value(), "");
    press(&mut app, "<Esc>");
    // A move typed after a refusal replaces the refused text instead of being added to it.
    press(&mut app, "12-17<Enter>9-13<Enter>");
    assert_eq!(app.game().len(), 1, "{}", app.status());
    assert_eq!(app.input().value(), "");
    // A refused :command too.
    let flipped = app.flipped();
    press(&mut app, ":levl<Enter>");
    assert_eq!(app.input().value(), ":levl");
    press(&mut app, "f");
    assert_ne!(app.flipped(), flipped, "f flipped the board");
    assert_eq!(
        app.input().value(),
        "",
        "instead of being typed after the refused text"
    );
}

#[test]
fn the_resume_question_takes_only_its_answers() {
    let mut saved = Game::<English>::new();
    saved.play_text("11-15").expect("legal");
    saved.play_text("23-19").expect("legal");
    let saved_players = Players {
        black: Player::Human,
        white: Player::Engine(Level::Hard),
    };
    let mut app = App::offering_resume(HUMANS, saved.clone().into(), saved_players);
    assert!(app.status().contains("Resume it?"));
    assert!(press(&mut app, "11-15qj").is_empty());
    assert!(
        app.resume_offer().is_some(),
        "other keys leave the question open"
    );
    assert!(app.game().is_empty());
    press(&mut app, "y");
    assert!(app.resume_offer().is_none());
    assert_eq!(app.game().moves(), saved.moves());
    assert_eq!(app.players(), saved_players);

    let mut app = App::offering_resume(HUMANS, saved.clone().into(), saved_players);
    let effects = press(&mut app, "<Esc>");
    let archived = effects.iter().find_map(|e| match e {
        Effect::Archive { game, players, .. } => Some((game.moves().to_vec(), *players)),
        _ => None,
    });
    assert_eq!(archived, Some((saved.moves().to_vec(), saved_players)));
    assert!(app.game().is_empty());
    assert_eq!(app.players(), HUMANS);
}

#[test]
fn a_new_game_keeps_the_unfinished_one() {
    let (mut app, _) = App::new(HUMANS);
    press(&mut app, "11-15<Enter>");
    let effects = press(&mut app, "n<Enter>");
    assert!(
        effects
            .iter()
            .any(|e| matches!(e, Effect::Archive { game, .. } if game.len() == 1)),
        "{effects:?}"
    );
    assert!(app.game().is_empty());
}

#[test]
fn a_remapped_key_works_and_the_old_one_no_longer_does() {
    let error = crowned::config::Settings::defaults()
        .overlaid(
            "[keys.board]\nundo = [\"x\", \"Backspace\"]\nflip = [\"F2\"]\n[keys.history]\nfirst = [\"0\"]\n",
            std::path::Path::new("config.toml"),
        )
        .expect_err("digits cannot be bound: they start typing a move");
    assert_eq!(error.setting(), Some("keys.history.first"));

    let settings = crowned::config::Settings::defaults()
        .overlaid(
            "[keys.board]\nundo = [\"x\", \"Backspace\"]\nflip = [\"F2\"]\n",
            std::path::Path::new("config.toml"),
        )
        .expect("valid settings");
    let (mut app, _) = App::new(HUMANS);
    app.set_preferences(Preferences::from(&settings));
    press(&mut app, "11-15<Enter>23-19<Enter>");
    assert_eq!(app.game().ply(), 2);
    press(&mut app, "u");
    assert_eq!(app.game().ply(), 2, "u is no longer undo");
    press(&mut app, "x");
    assert_eq!(app.game().ply(), 1, "x is");
    press(&mut app, "<Backspace>");
    assert_eq!(app.game().ply(), 0, "and so is Backspace");
    press(&mut app, "U");
    assert_eq!(app.game().ply(), 1, "redo keeps its keys");
    let flipped = app.flipped();
    press(&mut app, "f");
    assert_eq!(app.flipped(), flipped, "f is no longer flip");
    assert_eq!(
        action_for_key(&app, Key::new(KeyCode::F(2), Modifiers::NONE)),
        Some(crowned::app::Action::Flip)
    );
    // The help shows the keys bound, not the built-in ones.
    let help = crowned::app::key_help(&app.preferences().keys);
    let undo = help
        .iter()
        .find(|(_, what)| what.starts_with("undo"))
        .map(|(keys, _)| keys.as_str());
    assert_eq!(undo, Some("x, Backspace"));
}

#[test]
fn the_orientation_and_move_limit_settings_reach_every_new_game() {
    let settings = crowned::config::Settings::defaults()
        .overlaid(
            "[display]\norientation = \"white-bottom\"\n[game]\nmove-limit = 3\n",
            std::path::Path::new("config.toml"),
        )
        .expect("valid settings");
    let players = Players {
        black: Player::Human,
        white: Player::Engine(Level::Easy),
    };
    let (mut app, _) = App::new(players);
    assert!(
        app.flipped(),
        "by default Black is at the bottom against the engine"
    );
    app.set_preferences(Preferences::from(&settings));
    assert!(!app.flipped());
    assert_eq!(app.game().move_limit(), 3);
    // A new game from the dialog keeps both.
    press(&mut app, "n<Enter>");
    assert!(!app.flipped());
    assert_eq!(app.game().move_limit(), 3);
    // Three moves each with kings only: drawn by the shortened rule.
    let mut app = app_from("B:WK32:BK1", HUMANS);
    app.set_preferences(Preferences::from(&settings));
    press(
        &mut app,
        "1-6<Enter>32-27<Enter>6-10<Enter>27-23<Enter>10-15<Enter>23-18<Enter>",
    );
    assert!(
        matches!(
            app.mode(),
            Mode::Over(Outcome::Draw {
                reason: DrawReason::MoveLimit { .. }
            })
        ),
        "{:?}: {}",
        app.mode(),
        app.status()
    );
}

/// Presses the arrow keys that take the cursor to square `number`, whichever way up the board is.
/// Walks the cursor to a square with the arrows: the rows first, then along the row (two columns a press, the
/// cursor keeping to dark squares).
fn go_to(app: &mut App, number: u32) {
    let square = Square::from_number(number, 32).expect("a square");
    let (row, _) = Position::<English>::GEOMETRY.row_col(square);
    let (now_row, _) = app.cursor();
    let (down, right) = if app.flipped() {
        ("<Up>", "<Left>")
    } else {
        ("<Down>", "<Right>")
    };
    let (up, left) = if app.flipped() {
        ("<Down>", "<Right>")
    } else {
        ("<Up>", "<Left>")
    };
    let rows = row as i32 - now_row as i32;
    let mut script = String::new();
    for _ in 0..rows.abs() {
        script.push_str(if rows > 0 { down } else { up });
    }
    press(app, &script);
    let (_, col) = Position::<English>::GEOMETRY.row_col(square);
    let (_, now_col) = app.cursor();
    let cols = col as i32 - now_col as i32;
    script.clear();
    for _ in 0..cols.abs() / 2 {
        script.push_str(if cols > 0 { right } else { left });
    }
    press(app, &script);
    assert_eq!(app.cursor_square(), Some(square));
}

#[test]
fn a_position_set_up_by_keys_is_checked_then_played() {
    let (mut app, _) = App::new(HUMANS);
    press(&mut app, "11-15<Enter>");
    press(&mut app, "s");
    assert!(matches!(app.mode(), Mode::Setup(_)));
    assert_eq!(app.shown_position(), app.game().position());

    // An empty board cannot be played: the reason is given and setting up goes on.
    press(&mut app, "c<Enter>");
    assert_eq!(app.status(), "cannot start: Black has no pieces");
    assert!(matches!(app.mode(), Mode::Setup(_)));

    go_to(&mut app, 14);
    press(&mut app, "b");
    press(&mut app, "<Enter>");
    assert_eq!(app.status(), "cannot start: White has no pieces");
    go_to(&mut app, 2);
    press(&mut app, "w<Enter>");
    assert!(
        app.status()
            .contains("White man on 2 stands on its crowning row"),
        "{}",
        app.status()
    );
    // The same key again takes the man off; a king may stand there.
    press(&mut app, "wW");
    go_to(&mut app, 18);
    let side = app.shown_position().side_to_move();
    press(&mut app, "w t");
    assert_eq!(app.shown_position().side_to_move(), side.opponent());
    // Space cycled the white man on 18 into a white king.
    assert_eq!(
        app.shown_position()
            .piece_at(Square::from_number(18, 32).expect("18")),
        Some(Piece::new(Color::White, Role::King))
    );
    press(&mut app, "2<Enter>");
    assert_eq!(app.mode(), Mode::Play, "{}", app.status());
    let start = app.game().start();
    assert_eq!(
        start,
        crowned::rules::parse_fen::<English>("B:WK2,K18:B14")
            .expect("FEN")
            .into()
    );
    assert_eq!(app.players().white, Player::Engine(Level::Random));
    assert!(app.game().is_empty());
    assert!(app.game().is_set_up(), "a set-up game records its start");
}

#[test]
fn setting_up_refuses_thirteen_pieces() {
    let (mut app, _) = App::new(HUMANS);
    press(&mut app, "sr");
    go_to(&mut app, 13);
    press(&mut app, "b<Enter>");
    assert_eq!(
        app.status(),
        "cannot start: Black has 13 pieces; a side has at most 12"
    );
    press(&mut app, "<Delete><Enter>");
    assert_eq!(app.mode(), Mode::Play);
    assert_eq!(app.game().start(), Position::<English>::start().into());
    assert!(!app.game().is_set_up());
}

#[test]
fn esc_leaves_setting_up_with_the_game_as_it_was() {
    let (mut app, _) = App::new(Players {
        black: Player::Human,
        white: Player::Engine(Level::Easy),
    });
    press(&mut app, "11-15<Enter>");
    assert_eq!(app.game().len(), 2, "the engine answered");
    let before = app.game().clone();
    press(&mut app, "sc");
    assert_eq!(app.shown_position().pieces().len(), 0);
    press(&mut app, "<Esc>");
    assert_eq!(app.mode(), Mode::Play);
    assert_eq!(app.game().position(), before.position());
    assert_eq!(app.game().len(), 2);
    // Moves and undo are refused while setting up, with the way out.
    press(&mut app, "s");
    press(&mut app, "u");
    assert!(app.status().contains("Esc returns"), "{}", app.status());
    press(&mut app, "9-14<Enter>");
    assert!(
        app.status().contains("once the game starts"),
        "{}",
        app.status()
    );
}

#[test]
fn the_fen_command_shows_and_loads_positions() {
    let (mut app, _) = App::new(HUMANS);
    press(&mut app, ":fen<Enter>");
    assert_eq!(app.status(), "FEN (:copy fen copies it): B:W21-32:B1-12");
    press(&mut app, "11-15<Enter>");
    // A bad FEN stays in the box with the reason.
    press(&mut app, ":fen B:W18:B99<Enter>");
    assert!(app.status().starts_with("bad FEN"), "{}", app.status());
    assert_eq!(app.input().value(), ":fen B:W18:B99");
    press(&mut app, "<Esc>");
    // A FEN that parses but cannot be played is refused too.
    press(&mut app, ":fen B:W21-32:B1-13<Enter>");
    assert!(
        app.status().contains("Black has 13 pieces"),
        "{}",
        app.status()
    );
    press(&mut app, "<Esc>");
    // A good one starts a game from it; the unfinished game is kept.
    let effects = press(&mut app, ":fen W:W18:B14<Enter>");
    assert!(
        effects
            .iter()
            .any(|e| matches!(e, Effect::Archive { game, .. } if game.len() == 1))
    );
    assert_eq!(app.game().position().side_to_move(), Color::White);
    assert_eq!(app.game().len(), 0);
    // In setup, :fen fills the editor instead.
    press(&mut app, "s:fen B:W18,K5:B14<Enter>");
    assert!(matches!(app.mode(), Mode::Setup(_)));
    assert_eq!(app.shown_position().pieces().len(), 3);
    press(&mut app, ":fen<Enter>");
    assert_eq!(app.status(), "FEN (:copy fen copies it): B:WK5,18:B14");
}

#[test]
fn the_new_game_dialog_leads_to_setting_up_with_its_players() {
    let (mut app, _) = App::new(HUMANS);
    press(&mut app, "n<Down><Right>s");
    assert!(app.dialog().is_none());
    let Mode::Setup(setup) = app.mode() else {
        panic!("setting up, not {:?}", app.mode());
    };
    assert_eq!(setup.player(Color::White), Player::Engine(Level::Random));
    // Starting hands the first move to the engine when it plays the side to move.
    press(&mut app, "t");
    let effects = press(&mut app, "<Enter>");
    assert_eq!(app.mode(), Mode::Play, "{}", app.status());
    assert!(app.game().len() == 1 || effects.iter().any(|e| matches!(e, Effect::Think { .. })));
}

#[test]
fn messages_name_the_keys_as_bound() {
    let settings = crowned::config::Settings::defaults()
        .overlaid(
            "[keys.board]\nnew-game = [\"N\"]\nrematch = []\ncancel = [\"F2\"]\n",
            std::path::Path::new("config.toml"),
        )
        .expect("valid settings");
    let mut app = app_from("B:W18:B14", HUMANS);
    app.set_preferences(Preferences::from(&settings));
    press(&mut app, "14x23<Enter>");
    // A command without a key is named by its :command.
    assert!(
        app.status()
            .ends_with("N: new game, :rematch: rematch, [: browse"),
        "{}",
        app.status()
    );
    press(&mut app, "[");
    assert!(
        app.status().contains("(F2 returns to the game)"),
        "{}",
        app.status()
    );
}
