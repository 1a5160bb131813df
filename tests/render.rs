//! Render snapshots of the main screens, drawn with ratatui's TestBackend (text only; styles are checked by
//! the tests that look at single cells).

use crowned::app::{Action, App, Player, Players};
use crowned::engine::Level;
use crowned::game::Game;
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
