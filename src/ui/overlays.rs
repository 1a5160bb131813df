//! What is drawn over or instead of the main screen: the help, the new-game dialog, and the "enlarge the
//! window" screen.

use ratatui::buffer::Buffer;
use ratatui::layout::{Alignment, Rect};
use ratatui::text::Line;
use ratatui::widgets::{Block, Clear, Paragraph, Widget, Wrap};

use super::Options;
use super::layout::{MIN_HEIGHT, MIN_WIDTH};
use crate::app::{COMMANDS, GameEntry, GameList, KEY_HELP, NewGameDialog, Players};
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

/// The help overlay: every key and every command.
pub fn help(buf: &mut Buffer, area: Rect, options: &Options) {
    let mut lines: Vec<Line> = KEY_HELP
        .iter()
        .map(|(keys, what)| Line::from(format!(" {keys:<16} {what}")))
        .collect();
    lines.push(Line::default());
    lines.push(Line::from(format!(" Commands: {COMMANDS}")));
    // Room for the commands line to wrap once.
    let height = lines.len() as u16 + 3;
    boxed(
        buf,
        centred(area, 68, height),
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
pub fn new_game(buf: &mut Buffer, area: Rect, dialog: &NewGameDialog, options: &Options) {
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
        " up/down: side   left/right: player",
        options.theme.quiet,
    ));
    lines.push(Line::styled(
        " Enter: start    Esc: cancel",
        options.theme.quiet,
    ));
    lines.push(Line::styled(
        " s: set up a position first",
        options.theme.quiet,
    ));
    let height = lines.len() as u16 + 2;
    boxed(buf, centred(area, 40, height), " New game ", lines, options);
}

/// The list of games to choose from: date, players, result and length, the selected one marked and kept in
/// view, and its problem (if it has one) below.
pub fn game_list(buf: &mut Buffer, area: Rect, list: &GameList, options: &Options) {
    let rect = centred(area, 78, area.height.saturating_sub(2).max(8));
    // Borders, the heading, and two lines at the bottom for the selected game's problem and the keys.
    let rows = usize::from(rect.height.saturating_sub(6)).max(1);
    let first = list.selected.saturating_sub(rows - 1);
    let width = usize::from(rect.width.saturating_sub(2));
    let mut lines = vec![Line::styled(
        fit(
            format!(
                "   {:<10} {:<20} {:<20} {:<7} {:>5}",
                "Date", "Black", "White", "Result", "Moves"
            ),
            width,
        ),
        options.theme.quiet,
    )];
    for (i, entry) in list.entries.iter().enumerate().skip(first).take(rows) {
        let marker = if i == list.selected { '>' } else { ' ' };
        let flag = if entry.error.is_some() { '!' } else { ' ' };
        let text = fit(
            format!(
                " {marker}{flag}{:<10} {:<20} {:<20} {:<7} {:>5}",
                clip(entry.tag("Date"), 10),
                clip(entry.tag("Black"), 20),
                clip(entry.tag("White"), 20),
                clip(entry.result(), 7),
                moves_of(entry)
            ),
            width,
        );
        lines.push(if i == list.selected {
            Line::styled(text, options.theme.current)
        } else {
            Line::from(text)
        });
    }
    while lines.len() < rows + 1 {
        lines.push(Line::default());
    }
    let chosen = list.chosen();
    let about = match chosen.and_then(|e| e.error.as_deref()) {
        Some(error) => format!(" ! {error}"),
        None => chosen.map_or_else(String::new, |e| format!("   {}", e.tag("Event"))),
    };
    lines.push(Line::from(fit(about, width)));
    lines.push(Line::styled(
        " Enter: open   up/down, PgUp/PgDn, Home/End: choose   Esc: close",
        options.theme.quiet,
    ));
    let title = format!(" {} ({} games) ", list.title, list.entries.len());
    boxed(buf, rect, &title, lines, options);
}

/// The length of a game as records number it: a move is one by each side.
fn moves_of(entry: &GameEntry) -> usize {
    entry.game.len().div_ceil(2)
}

/// At most `width` characters of `text`.
fn clip(text: &str, width: usize) -> String {
    text.chars().take(width).collect()
}

/// A line cut to `width` characters, so that a long one is not wrapped onto the next.
fn fit(text: String, width: usize) -> String {
    if text.chars().count() <= width {
        text
    } else {
        clip(&text, width)
    }
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
