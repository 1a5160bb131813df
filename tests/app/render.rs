//! Render snapshots of the main screens, drawn with ratatui's TestBackend (text only; styles are checked by
//! the tests that look at single cells).

use crowned::app::{Action, App, GameList, ListPurpose, Player, Players, SetupAction, Timer};
use crowned::app::{BrowseAction, HelpAction};
use crowned::engine::Level;
use crowned::game::AnyGame;
use crowned::rules::{GameType, Geometry};
use crowned::store::games_in_text;
use crowned::ui::{self, Glyphs as _, Options, PieceStyle, Theme, ThemeName};
use ratatui::buffer::Buffer;

use crate::common;

use common::app::{HUMANS, app_from, sq};
use common::screen::{render, screen, text};

const VS_ENGINE: Players = Players {
    black: Player::Human,
    white: Player::Engine(Level::Medium),
};

/// Does `action`, then lets any move it starts showing step to its end (as the animation timer would).
fn act(app: &mut App, action: Action) {
    let _ = app.update(action);
    while app.animation().is_some() {
        let _ = app.update(Action::Timer(Timer::Animation));
    }
}

fn played(moves: &str, players: Players) -> App {
    let (mut app, _) = App::new(players);
    for mv in moves.split_whitespace() {
        act(&mut app, Action::Submit(mv.into()));
        assert!(app.input().value().is_empty(), "{mv}: {}", app.status());
    }
    app
}

#[test]
fn start_80x24() {
    let (app, _) = App::new(VS_ENGINE);
    insta::assert_snapshot!(screen(&app, 80, 24));
}

#[test]
fn start_120x40() {
    let (app, _) = App::new(VS_ENGINE);
    insta::assert_snapshot!(screen(&app, 120, 40));
}

#[test]
fn compulsory_capture_marked_80x24() {
    // Black's 14 and 15 can both take; White's last move, 22-18, is shown.
    let (mut app, _) = App::with_game(
        AnyGame::from_fen(GameType::default(), "W:W22,30:B14,15,1").expect("test FEN"),
        HUMANS,
    );
    act(&mut app, Action::Submit("22-18".into()));
    insta::assert_snapshot!(screen(&app, 80, 24));
}

#[test]
fn multi_jump_continuation_120x40() {
    let (mut app, _) = App::with_game(
        AnyGame::from_fen(GameType::default(), "B:W17,18,25,26,32:B14").expect("test FEN"),
        HUMANS,
    );
    let _ = app.update(Action::PickSquare(sq(23)));
    insta::assert_snapshot!(screen(&app, 120, 40));
}

#[test]
fn browsing_80x24() {
    let mut app = played("11-15 23-19 8-11 22-17 9-13 17-14 10x17 21x14 6-10", HUMANS);
    let _ = app.update(Action::Browse(BrowseAction::Back));
    let _ = app.update(Action::Browse(BrowseAction::Back));
    insta::assert_snapshot!(screen(&app, 80, 24));
}

#[test]
fn game_over_80x24() {
    let (mut app, _) = App::with_game(
        AnyGame::from_fen(GameType::default(), "B:W18:B14").expect("test FEN"),
        HUMANS,
    );
    act(&mut app, Action::Submit("14x23".into()));
    insta::assert_snapshot!(screen(&app, 80, 24));
}

#[test]
fn help_80x24() {
    let (mut app, _) = App::new(VS_ENGINE);
    let _ = app.update(Action::Help(HelpAction::Toggle));
    insta::assert_snapshot!(screen(&app, 80, 24));
}

#[test]
fn new_game_dialog_80x24() {
    let (mut app, _) = App::new(VS_ENGINE);
    let _ = app.update(Action::NewGame);
    let _ = app.update(Action::Down);
    insta::assert_snapshot!(screen(&app, 80, 24));
}

#[test]
fn typing_a_move_80x24() {
    let (mut app, _) = App::new(VS_ENGINE);
    let _ = app.update(Action::Submit("11-16x".into()));
    insta::assert_snapshot!(screen(&app, 80, 24));
}

#[test]
fn i_asks_for_a_move_in_coordinates() {
    let (mut app, _) = App::new(VS_ENGINE);
    let _ = app.update(Action::StartTyping);
    let shown = screen(&app, 80, 24);
    assert!(shown.contains("a move in coordinates: c3-d4"), "{shown}");
    // The box says that it has the keys.
    assert!(
        shown.contains("Typing · Enter plays, Esc cancels"),
        "{shown}"
    );
}

#[test]
fn too_small_40x12() {
    let (app, _) = App::new(VS_ENGINE);
    insta::assert_snapshot!(screen(&app, 40, 12));
}

#[test]
fn ascii_and_kings_at_the_minimum_size() {
    let (app, _) = App::with_game(
        AnyGame::from_fen(GameType::default(), "W:WK10,18,24:B12,K15,22").expect("test FEN"),
        HUMANS,
    );
    let options = Options {
        pieces: PieceStyle::Ascii,
        ..Options::default()
    };
    let shown = text(&render(
        &app,
        ui::min_size(Geometry::EIGHT).0,
        ui::min_size(Geometry::EIGHT).1,
        &options,
    ));
    assert!(!shown.chars().any(|c| "●○♛♕".contains(c)));
    insta::assert_snapshot!(shown);
}

#[test]
fn setting_up_80x24() {
    let (mut app, _) = App::new(VS_ENGINE);
    let _ = app.update(Action::Setup(SetupAction::Open));
    let _ = app.update(Action::Submit(":fen W:W18,K5,30:B14,K27".into()));
    insta::assert_snapshot!(screen(&app, 80, 24));
}

const TWO_GAMES: &str = "[Event \"Club night\"]\n[Date \"2026.11.20\"]\n[Black \"Ann\"]\n[White \"Bob\"]\n\
    [Result \"*\"]\n1. 11-15 23-19 2. 8-11 19-16 3. 12-16 *\n\n[Event \"Second\"]\n[Black \"Cy\"]\n\
    [White \"Di\"]\n[Result \"1-0\"]\n1. 9-13 22-18 1-0\n";

#[test]
fn a_list_of_games_80x24() {
    let list = GameList::new(
        "club.pdn",
        games_in_text(TWO_GAMES, "club.pdn"),
        ListPurpose::Replay,
    );
    let app = App::choosing(list, VS_ENGINE);
    insta::assert_snapshot!(screen(&app, 80, 24));
}

#[test]
fn replaying_a_broken_record_at_its_end_80x24() {
    let entry = games_in_text(TWO_GAMES, "club.pdn").remove(0);
    let mut app = App::replaying(entry, VS_ENGINE);
    let _ = app.update(Action::Browse(BrowseAction::Last));
    insta::assert_snapshot!(screen(&app, 80, 24));
}

/// Where the centre of `square`'s rectangle is drawn on a board of `geometry`.
fn centre_xy(buf: &Buffer, app: &App, geometry: Geometry, square: u32) -> (u16, u16) {
    let layout = ui::ScreenLayout::new(buf.area, geometry).expect("big enough");
    let number =
        u8::try_from(u32::from(geometry.width) * u32::from(geometry.height) / 2).expect("a size");
    let target = crowned::rules::Square::from_number(square, number).expect("a square");
    (0..u16::from(geometry.height))
        .flat_map(|row| (0..u16::from(geometry.width)).map(move |col| (row, col)))
        .map(|(row, col)| layout.square_rect(row, col))
        .map(|rect| (rect.x + rect.width / 2, rect.y + rect.height / 2))
        .find(|&(x, y)| layout.square_at(x, y, app.flipped()) == Some(target))
        .unwrap_or_else(|| panic!("square {square} not drawn"))
}

/// The cell at the centre of a square's rectangle on the 8x8 board.
fn centre_of(buf: &Buffer, app: &App, square: u32) -> ratatui::buffer::Cell {
    buf[centre_xy(buf, app, Geometry::EIGHT, square)].clone()
}

/// The text from two cells left of `square`'s centre to two right, `dy` rows below the centre.
fn around(buf: &Buffer, app: &App, geometry: Geometry, square: u32, dy: i16) -> String {
    let (x, y) = centre_xy(buf, app, geometry, square);
    let y = y.saturating_add_signed(dy);
    (x - 2..=x + 2).map(|x| buf[(x, y)].symbol()).collect()
}

#[test]
fn highlights_have_colour_and_marks_and_no_color_keeps_the_marks() {
    // Black must capture with 14 (selected for the player); 23 is its destination.
    let (app, _) = App::with_game(
        AnyGame::from_fen(GameType::default(), "B:W18:B14,1").expect("test FEN"),
        HUMANS,
    );
    for no_color in [false, true] {
        let options = Options {
            theme: Theme::new(ThemeName::Classic, no_color),
            ..Options::default()
        };
        let buf = render(&app, 80, 24, &options);
        let selected = centre_of(&buf, &app, 14);
        let destination = centre_of(&buf, &app, 23);
        let plain = centre_of(&buf, &app, 1);
        assert_eq!(selected.symbol(), "●");
        assert_eq!(
            destination.symbol(),
            "•",
            "a destination is marked by a glyph"
        );
        if no_color {
            assert_eq!(selected.bg, ratatui::style::Color::Reset);
            assert_eq!(plain.fg, ratatui::style::Color::Reset);
        } else {
            assert_ne!(selected.bg, plain.bg, "the selection has its own colour");
            assert_ne!(destination.bg, plain.bg);
        }
    }
}

#[test]
fn the_cursor_on_the_selected_piece_shows_both_marks() {
    // 14 is the only capturer, selected for the player; the cursor is put on it.
    let (app, _) = App::with_game(
        AnyGame::from_fen(GameType::default(), "B:W18:B14,1").expect("test FEN"),
        HUMANS,
    );
    assert_eq!(app.cursor_square(), Some(sq(14)));
    for (pieces, wide) in [(PieceStyle::Unicode, "[(●)]"), (PieceStyle::Ascii, "[(b)]")] {
        let options = Options {
            pieces,
            ..Options::default()
        };
        let buf = render(&app, 80, 24, &options);
        assert_eq!(around(&buf, &app, Geometry::EIGHT, 14, 0), wide);
    }
    // The cursor moved off it: the selection's own marks, and the cursor's elsewhere.
    let mut app = app;
    let _ = app.update(Action::Right);
    let buf = render(&app, 80, 24, &Options::default());
    assert_eq!(around(&buf, &app, Geometry::EIGHT, 14, 0), " (●) ");
    // On a board whose squares are three cells wide there is room for one mark a side: a mark of their own.
    let (app, _) = App::with_game(
        AnyGame::from_fen(
            GameType::standard(crowned::rules::Variant::International),
            "W:W28:B23,1",
        )
        .expect("test FEN"),
        HUMANS,
    );
    let selected = app
        .picker()
        .selected()
        .expect("the only capturer is selected");
    assert_eq!(app.cursor_square(), Some(selected));
    let buf = render(&app, 80, 24, &Options::default());
    let marks: String = around(&buf, &app, Geometry::TEN, selected.number(), 0)
        .chars()
        .skip(1)
        .take(3)
        .collect();
    assert_eq!(marks, "»○«");
}

#[test]
fn landing_squares_and_the_last_move_start_are_told_apart() {
    for pieces in [PieceStyle::Unicode, PieceStyle::Ascii] {
        assert_ne!(pieces.destination(), pieces.departed());
        assert_ne!(pieces.destination(), pieces.taken());
    }
}

#[test]
fn a_game_over_panel_with_a_long_reason_keeps_its_keys_and_its_indent_80x24() {
    // Kings going back and forth: a draw by repetition, whose reason takes two lines of the panel.
    let mut app = app_from("B:WK32:BK1", HUMANS);
    for mv in "1-6 32-27 6-1 27-32 1-6 32-27 6-1 27-32".split_whitespace() {
        act(&mut app, Action::Submit(mv.into()));
    }
    let shown = screen(&app, 80, 24);
    let panel: Vec<&str> = shown
        .lines()
        .filter_map(|line| line.split_once("││").map(|(_, panel)| panel))
        .collect();
    assert!(panel.iter().any(|l| l.contains("A analyse")), "{shown}");
    assert!(panel.iter().any(|l| l.contains("S save")), "{shown}");
    // Every line of text starts one space in, the reason's second line too.
    let reason: Vec<&&str> = panel
        .iter()
        .filter(|l| l.contains("position") || l.contains("times"))
        .collect();
    assert_eq!(
        reason.len(),
        2,
        "the reason wraps onto a second line\n{shown}"
    );
    for line in panel
        .iter()
        .filter(|l| !l.trim_end_matches('│').trim().is_empty())
    {
        assert!(
            line.starts_with(' ') && !line.starts_with("  "),
            "{line:?}\n{shown}"
        );
    }
    insta::assert_snapshot!(shown);
}

#[test]
fn a_long_game_over_keeps_players_and_result_in_view_80x24() {
    // A long game (the first legal move each time, 50 single moves) drawn by agreement: the move list
    // scrolls, its top and the panel stay.
    let (mut app, _) = App::new(HUMANS);
    for _ in 0..50 {
        let position = app.game().position();
        let Some(mv) = position.legal_moves().first().copied() else {
            break;
        };
        let text = position.write_move(&mv, crowned::rules::SquareStyle::Numbers);
        act(&mut app, Action::Submit(text));
    }
    assert!(app.game().len() > 30, "long enough to scroll");
    act(&mut app, Action::Submit(":draw".into()));
    act(&mut app, Action::Answer(true));
    let shown = screen(&app, 80, 24);
    assert!(
        shown.contains("Black human") && shown.contains("1/2-1/2"),
        "{shown}"
    );
    insta::assert_snapshot!(shown);
}

#[test]
fn a_big_screen_gets_a_big_board_200x60() {
    let app = played("11-15 23-19 8-11 22-17", HUMANS);
    let shown = screen(&app, 200, 60);
    let layout = ui::ScreenLayout::new(ratatui::layout::Rect::new(0, 0, 200, 60), Geometry::EIGHT)
        .expect("fits");
    assert_eq!(layout.square_size, (12, 6));
    insta::assert_snapshot!(shown);
}

#[test]
fn big_squares_draw_big_pieces_told_apart_without_colour() {
    let app = app_from("W:WK22,30:BK11,3", HUMANS);
    let options = Options {
        theme: Theme::new(ThemeName::Classic, true),
        ..Options::default()
    };
    let buf = render(&app, 200, 60, &options);
    let row_of = |square: u32, dy: i16| around(&buf, &app, Geometry::EIGHT, square, dy);
    // Black's pieces are filled discs, White's outlines; a king wears its crown in the middle.
    assert_eq!(row_of(3, 0), "█████");
    assert_eq!(row_of(11, 0), "██♛██");
    assert_eq!(row_of(30, -1), "╭───╮");
    assert_eq!(row_of(22, 0), "│ ♕ │");
    // On 80x24 the squares are small: one glyph a piece.
    let small = render(&app, 80, 24, &options);
    assert!(text(&small).contains('♛') && !text(&small).contains('█'));
}

#[test]
fn a_wide_move_list_lays_its_moves_out_in_columns_200x60() {
    let (app, _) = App::with_game(endless_game(200), HUMANS);
    let shown = screen(&app, 200, 60);
    // The list is wide enough for three columns of moves: all hundred numbers are on screen.
    for number in [1, 50, 51, 100] {
        assert!(
            shown.contains(&format!(" {number}. ")),
            "move {number}\n{shown}"
        );
    }
    let widest = shown
        .lines()
        .map(|line| line.matches(". ").count())
        .max()
        .unwrap_or(0);
    assert!(widest >= 3, "three moves side by side on a line\n{shown}");
    // On 80x24 the list keeps its single column, ending at the last move.
    let narrow = screen(&app, 80, 24);
    assert!(narrow.contains("100. "), "{narrow}");
    assert!(
        narrow.lines().all(|line| line.matches(". ").count() <= 1),
        "{narrow}"
    );
}

#[test]
fn a_long_status_wraps_onto_its_second_row_80x24() {
    let (mut app, _) = App::new(HUMANS);
    let _ = app.update(Action::Submit(":frobnicate".into()));
    let shown = screen(&app, 80, 24);
    // Nothing is cut in the middle of a word at the window's edge.
    let status: Vec<&str> = shown.lines().skip(19).take(2).collect();
    assert!(status[1].trim_start().starts_with(':'), "{status:?}");
    insta::assert_snapshot!(shown);
}

#[test]
fn resigning_asks_in_a_box_over_the_board_80x24() {
    let mut app = played("11-15", HUMANS);
    let _ = app.update(Action::Submit(":resign".into()));
    insta::assert_snapshot!(screen(&app, 80, 24));
}

#[test]
fn the_last_move_is_marked_in_colour_and_without_it() {
    // White's 22-18 just ended on 18 after starting from 22; Black's 14x23 in the next position takes 18.
    let mut app = played("11-15 23-19 8-11 22-17 9-13 17-14 10x17", HUMANS);
    act(&mut app, Action::Submit("21x14".into()));
    for (no_color, pieces) in [(false, PieceStyle::Unicode), (true, PieceStyle::Ascii)] {
        let options = Options {
            theme: Theme::new(ThemeName::Classic, no_color),
            pieces,
            ..Options::default()
        };
        let buf = render(&app, 80, 24, &options);
        let (from, to, taken, plain) = (
            centre_of(&buf, &app, 21),
            centre_of(&buf, &app, 14),
            centre_of(&buf, &app, 17),
            centre_of(&buf, &app, 13),
        );
        // Marks that need no colour: a ring (unlike a landing square's dot) where it started, the taken piece crossed out, brackets at the end.
        let (dot, cross) = match pieces {
            PieceStyle::Unicode => ("◌", "×"),
            PieceStyle::Ascii => (".", "x"),
        };
        assert_eq!(from.symbol(), dot);
        assert_eq!(taken.symbol(), cross);
        let layout = ui::ScreenLayout::new(buf.area, Geometry::EIGHT).expect("fits");
        let left_of_end = (0..8)
            .flat_map(|row| (0..8).map(move |col| (row, col)))
            .map(|(row, col)| layout.square_rect(row, col))
            .find(|r| {
                let (x, y) = (r.x + r.width / 2, r.y + r.height / 2);
                buf[(x, y)].symbol() == to.symbol()
                    && layout.square_at(x, y, app.flipped()) == Some(sq(14))
            })
            .map(|r| {
                buf[(r.x + r.width / 2 - 1, r.y + r.height / 2)]
                    .symbol()
                    .to_string()
            });
        let open = match pieces {
            PieceStyle::Unicode => "‹",
            PieceStyle::Ascii => "<",
        };
        assert_eq!(left_of_end.as_deref(), Some(open));
        if no_color {
            assert_eq!(to.bg, ratatui::style::Color::Reset);
        } else {
            assert_ne!(to.bg, plain.bg, "and a colour of its own");
        }
        if pieces == PieceStyle::Ascii {
            insta::assert_snapshot!("last_move_marks_ascii_mono_80x24", text(&buf));
        } else {
            insta::assert_snapshot!("last_move_marks_colour_80x24", text(&buf));
        }
    }
}

/// A game far longer than 65,535 moves, with the draw rule off: three kings a side wander at random, never
/// offering a capture and never coming back to a position twice when they can help it (a third time would draw).
fn endless_game(plies: usize) -> AnyGame {
    use std::collections::HashMap;
    let start = crowned::rules::parse_fen("B:WK22,K31,K32:BK1,K2,K11").expect("a position");
    let mut game = crowned::game::Game::<crowned::rules::English>::from_position(start);
    game.set_move_limit(0);
    let mut seen: HashMap<_, u32> = HashMap::new();
    let mut state = 0x9e37_79b9_7f4a_7c15_u64;
    while game.ply() < plies {
        let position = *game.position();
        let mut moves: Vec<_> = position.legal_moves().iter().copied().collect();
        // A fixed shuffle (xorshift), so the test is the same on every run.
        for i in (1..moves.len()).rev() {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            moves.swap(i, (state % (i as u64 + 1)) as usize);
        }
        let quiet = |mv: &crowned::rules::Move| {
            !position
                .play(mv)
                .legal_moves()
                .iter()
                .any(|reply| reply.is_capture())
        };
        let times = |mv: &crowned::rules::Move| seen.get(&position.play(mv)).copied().unwrap_or(0);
        let choice = moves
            .iter()
            .find(|mv| quiet(mv) && times(mv) == 0)
            .or_else(|| moves.iter().find(|mv| quiet(mv) && times(mv) < 2))
            .copied();
        match choice {
            Some(choice) => {
                *seen.entry(position.play(&choice)).or_default() += 1;
                game.play(&choice).expect("legal");
            }
            None => {
                // A dead end: never come here again, and step back to choose otherwise.
                seen.insert(position, 2);
                assert!(game.undo(), "no way on from the start");
            }
        }
        assert!(
            game.outcome().is_none(),
            "the game ended after {} moves",
            game.len()
        );
    }
    game.into()
}

#[test]
fn the_move_list_follows_a_game_longer_than_sixteen_bits_count() {
    // 70,000 lines of moves: more than a 16-bit scroll can reach.
    let game = endless_game(140_000);
    let (mut app, _) = App::with_game(game, HUMANS);
    let shown = screen(&app, 80, 24);
    assert!(
        shown.contains("70000. "),
        "the last moves are in view:\n{shown}"
    );
    // Browsing back keeps the shown move in view wherever it is.
    for _ in 0..1_000 {
        let _ = app.update(Action::Browse(BrowseAction::Back));
    }
    let shown = screen(&app, 80, 24);
    assert!(shown.contains("69500. "), "{shown}");
}
