//! What is drawn over or instead of the main screen: the help, the new-game dialog, and the "enlarge the
//! window" screen.

use ratatui::buffer::Buffer;
use ratatui::layout::{Alignment, Rect};
use ratatui::text::Line;
use ratatui::widgets::{Block, Clear, Paragraph, Widget, Wrap};

use super::Options;
use super::layout::{MIN_HEIGHT, MIN_WIDTH};
use crate::app::{COMMANDS, Context, KeyMap, NewGameDialog, Players, key_help};
use crate::game::Game;
use crate::rules::Color;

/// A rectangle of at most `width` x `height` in the middle of `area`.
fn centred(area: Rect, width: u16, height: u16) -> Rect {
    let width = width.min(area.width);
    let height = height.min(area.height);
    Rect::new(
        area.x + (area.width - width) / 2,
        area.y + (area.height - height) / 2,
        width,
        height,
    )
}

/// The help overlay: every key bound and every command.
pub fn help(buf: &mut Buffer, area: Rect, keys: &KeyMap, options: &Options) {
    let entries = key_help(keys);
    let keys_width = entries
        .iter()
        .map(|(keys, _)| keys.chars().count())
        .max()
        .unwrap_or(0)
        .max(16);
    let text_width = entries
        .iter()
        .map(|(_, what)| what.chars().count())
        .max()
        .unwrap_or(0);
    let mut lines: Vec<Line> = entries
        .iter()
        .map(|(keys, what)| Line::from(format!(" {keys:<keys_width$} {what}")))
        .collect();
    // The blank line before the commands goes first when the screen is short.
    if lines.len() + 4 <= usize::from(area.height) {
        lines.push(Line::default());
    }
    lines.push(Line::from(format!(" Commands: {COMMANDS}")));
    // Room for the commands line to wrap once.
    let height = lines.len() as u16 + 3;
    let width = u16::try_from(keys_width + text_width + 4)
        .unwrap_or(u16::MAX)
        .max(68);
    boxed(
        buf,
        centred(area, width, height),
        " Keys (any key closes) ",
        lines,
        options,
    );
}

/// Lines in a bordered box over whatever was drawn there.
fn boxed(buf: &mut Buffer, rect: Rect, title: &str, lines: Vec<Line>, options: &Options) {
    Clear.render(rect, buf);
    Paragraph::new(lines)
        .wrap(Wrap { trim: false })
        .block(
            Block::bordered()
                .title(title)
                .border_style(options.theme.focus),
        )
        .render(rect, buf);
}

/// The new-game dialog: who plays each side.
pub fn new_game(
    buf: &mut Buffer,
    area: Rect,
    dialog: &NewGameDialog,
    keys: &KeyMap,
    options: &Options,
) {
    let key = |name: &str| {
        keys.first_key(Context::Dialog, name)
            .map_or_else(|| "-".to_string(), |k| k.to_string())
    };
    let mut lines = vec![Line::default()];
    for (row, color) in [Color::Black, Color::White].into_iter().enumerate() {
        let player = dialog.players.of(color).to_string();
        let marker = if row == dialog.row { '>' } else { ' ' };
        let line = Line::from(format!(
            " {marker} {:<6} < {player:^16} >",
            color.to_string()
        ));
        lines.push(if row == dialog.row {
            line.style(options.theme.current)
        } else {
            line
        });
    }
    lines.push(Line::default());
    lines.push(Line::styled(
        format!(
            " {}/{}: side   {}/{}: player",
            key("up"),
            key("down"),
            key("left"),
            key("right")
        ),
        options.theme.quiet,
    ));
    lines.push(Line::styled(
        format!(" {}: start    {}: cancel", key("pick"), key("cancel")),
        options.theme.quiet,
    ));
    let height = lines.len() as u16 + 2;
    boxed(buf, centred(area, 40, height), " New game ", lines, options);
}

/// Shown instead of the game when the screen is too small to draw it.
pub fn too_small(buf: &mut Buffer, area: Rect) {
    let text = format!(
        "Enlarge the window to at least {MIN_WIDTH}x{MIN_HEIGHT} (it is {}x{}). The game goes on when it fits; \
         Ctrl-c quits.",
        area.width, area.height
    );
    let height = 4.min(area.height);
    let rect = Rect::new(
        area.x,
        area.y + (area.height - height) / 2,
        area.width,
        height,
    );
    Paragraph::new(text)
        .alignment(Alignment::Center)
        .wrap(Wrap { trim: true })
        .render(rect, buf);
}

/// The question asked at start when an unfinished game was saved.
pub fn resume(buf: &mut Buffer, area: Rect, game: &Game, players: Players, options: &Options) {
    let date = game.tags().get("Date").unwrap_or("an earlier session");
    let lines = vec![
        Line::default(),
        Line::from(format!(" An unfinished game from {date}:")),
        Line::from(format!(
            " Black {}, White {}, {} moves played.",
            players.black,
            players.white,
            game.ply()
        )),
        Line::default(),
        Line::from(" y, Enter: resume it"),
        Line::from(" n, Esc:   new game (it is kept in saved games)"),
    ];
    let height = lines.len() as u16 + 2;
    boxed(buf, centred(area, 60, height), " Resume? ", lines, options);
}
