//! The screen as a test sees it: the app drawn on ratatui's TestBackend, and the frame as text.

use crowned::app::App;
use crowned::ui::{self, Options};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;

/// The app drawn on a `width` x `height` screen.
pub fn render(app: &App, width: u16, height: u16, options: &Options) -> Buffer {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("test terminal");
    terminal
        .draw(|frame| ui::draw(frame, app, options))
        .expect("draw");
    terminal.backend().buffer().clone()
}

/// The buffer as text, one line per row, trailing blanks kept so the frame's size shows.
pub fn text(buf: &Buffer) -> String {
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

/// The app drawn with the default options, as text.
pub fn screen(app: &App, width: u16, height: u16) -> String {
    text(&render(app, width, height, &Options::default()))
}

/// Whether the move list's first line has Black's `11-15` and White's answer after it: the engine has replied
/// to the opening move (whatever the screen, a test backend's or a terminal emulator's).
pub fn first_line_has_two_moves(screen: &str) -> bool {
    screen
        .lines()
        .filter_map(|line| line.split("1. 11-15").nth(1))
        .any(|rest| {
            rest.split_whitespace()
                .next()
                .is_some_and(|w| w.contains('-'))
        })
}
