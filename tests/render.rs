//! Render snapshots of the main screens, drawn with ratatui's TestBackend (text only; styles are checked by
//! the tests that look at single cells).

use crowned::app::{Action, App, GameList, ListPurpose, Player, Players, SetupAction};
use crowned::engine::Level;
use crowned::game::Game;
use crowned::store::games_in_text;
use crowned::ui::{self, Options, PieceStyle, Theme, ThemeName};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;

const HUMANS: Players = Players {
    black: Player::Human,
    white: Player::Human,
};

const VS_ENGINE: Players = Players {
    black: Player::Human,
    white: Player::Engine(Level::Medium),
};

fn render(app: &App, width: u16, height: u16, options: &Options) -> Buffer {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("test terminal");
    terminal
        .draw(|frame| ui::draw(frame, app, options))
        .expect("draw");
    terminal.backend().buffer().clone()
}

/// The buffer as text, one line per row, trailing blanks kept so the frame's size shows.
fn text(buf: &Buffer) -> String {
    let area = buf.area;
    let mut out = String::new();
    for y in 0..area.height {
        for x in 0..area.width {
            out.push_str(buf[(x, y)].symbol());
        }
        out.push('\n');
    }
    out
}

fn screen(app: &App, width: u16, height: u16) -> String {
    text(&render(app, width, height, &Options::default()))
}

fn played(moves: &str, players: Players) -> App {
    let (mut app, _) = App::new(players);
    for mv in moves.split_whitespace() {
        app.update(Action::Submit(mv.into()));
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
        Game::from_fen("W:W22,30:B14,15,1").expect("test FEN"),
        HUMANS,
    );
    app.update(Action::Submit("22-18".into()));
    insta::assert_snapshot!(screen(&app, 80, 24));
}

#[test]
fn multi_jump_continuation_120x40() {
    let (mut app, _) = App::with_game(
        Game::from_fen("B:W17,18,25,26,32:B14").expect("test FEN"),
        HUMANS,
    );
    app.update(Action::PickSquare(sq(23)));
    insta::assert_snapshot!(screen(&app, 120, 40));
}

#[test]
fn browsing_80x24() {
    let mut app = played("11-15 23-19 8-11 22-17 9-13 17-14 10x17 21x14 6-10", HUMANS);
    app.update(Action::BrowseBack);
    app.update(Action::BrowseBack);
    insta::assert_snapshot!(screen(&app, 80, 24));
}

#[test]
fn game_over_80x24() {
    let (mut app, _) = App::with_game(Game::from_fen("B:W18:B14").expect("test FEN"), HUMANS);
    app.update(Action::Submit("14x23".into()));
    insta::assert_snapshot!(screen(&app, 80, 24));
}

#[test]
fn help_80x24() {
    let (mut app, _) = App::new(VS_ENGINE);
    app.update(Action::ToggleHelp);
    insta::assert_snapshot!(screen(&app, 80, 24));
}

#[test]
fn new_game_dialog_80x24() {
    let (mut app, _) = App::new(VS_ENGINE);
    app.update(Action::NewGame);
    app.update(Action::Down);
    insta::assert_snapshot!(screen(&app, 80, 24));
}

#[test]
fn typing_a_move_80x24() {
    let (mut app, _) = App::new(VS_ENGINE);
    app.update(Action::Submit("11-16x".into()));
    insta::assert_snapshot!(screen(&app, 80, 24));
}

#[test]
fn too_small_40x12() {
    let (app, _) = App::new(VS_ENGINE);
    insta::assert_snapshot!(screen(&app, 40, 12));
}

#[test]
fn ascii_and_kings_at_the_minimum_size() {
    let (app, _) = App::with_game(
        Game::from_fen("W:WK10,18,24:B12,K15,22").expect("test FEN"),
        HUMANS,
    );
    let options = Options {
        pieces: PieceStyle::Ascii,
        ..Options::default()
    };
    let shown = text(&render(&app, ui::MIN_WIDTH, ui::MIN_HEIGHT, &options));
    assert!(!shown.chars().any(|c| "●○♛♕".contains(c)));
    insta::assert_snapshot!(shown);
}

#[test]
fn setting_up_80x24() {
    let (mut app, _) = App::new(VS_ENGINE);
    app.update(Action::Setup(SetupAction::Open));
    app.update(Action::Submit(":fen W:W18,K5,30:B14,K27".into()));
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
    app.update(Action::BrowseLast);
    insta::assert_snapshot!(screen(&app, 80, 24));
}

fn sq(n: u32) -> crowned::rules::Square {
    crowned::rules::Square::from_number(n, 32).expect("test square")
}

/// The cell at the centre of a square's rectangle.
fn centre_of(buf: &Buffer, app: &App, square: u32) -> ratatui::buffer::Cell {
    let layout = ui::ScreenLayout::new(buf.area).expect("big enough");
    for row in 0..8 {
        for col in 0..8 {
            let rect = layout.square_rect(row, col);
            let (x, y) = (rect.x + rect.width / 2, rect.y + rect.height / 2);
            if layout.square_at(x, y, app.flipped()) == Some(sq(square)) {
                return buf[(x, y)].clone();
            }
        }
    }
    panic!("square {square} not drawn");
}

#[test]
fn highlights_have_colour_and_marks_and_no_color_keeps_the_marks() {
    // Black must capture with 14 (selected for the player); 23 is its destination.
    let (app, _) = App::with_game(Game::from_fen("B:W18:B14,1").expect("test FEN"), HUMANS);
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
