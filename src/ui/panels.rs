//! The move history, the status line and the input box.

use ratatui::buffer::Buffer;
use ratatui::layout::{Position as Cell, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};

use super::{Options, pane_block};
use crate::app::{App, Context, Focus, Mode, Setup, Thinking};
use crate::engine::{MAN, Score};
use crate::rules::{Color, Piece, Role};

/// Lines above the moves: one for each player and a blank one.
const HEADER_LINES: usize = 3;

/// Width of a move's column in the history.
const MOVE_WIDTH: usize = 9;

/// Draws the move history: the players, then the moves two to a line, the shown move highlighted and kept in
/// view, moves that were taken back (the redo line) dimmed.
pub fn history(buf: &mut Buffer, area: Rect, app: &App, options: &Options) {
    let theme = &options.theme;
    let title = match app.replay() {
        Some(replay) => format!(" Moves · {} ", replay.source),
        None => " Moves ".to_string(),
    };
    let block = pane_block(title, app.focus() == Focus::History, theme);
    let inner = block.inner(area);
    block.render(area, buf);

    let game = app.game();
    let mut lines: Vec<Line> = [Color::Black, Color::White]
        .into_iter()
        .map(|color| {
            let glyph = options.pieces.glyph(Piece::new(color, Role::Man));
            // A replayed game shows who played it in the record; a game being played, who plays it here.
            let player = match app.replay() {
                Some(replay) => replay.names[color.index()].clone(),
                None => app.players().of(color).to_string(),
            };
            Line::from(format!(" {glyph} {:<6}{player}", color.to_string()))
        })
        .collect();
    lines.push(Line::default());

    let shown = match app.mode() {
        Mode::Browsing { ply } => ply,
        _ => game.ply(),
    };
    // A game set up with White to move starts its first line with "...".
    let offset = usize::from(game.start().side_to_move() == Color::White);
    let mut current_line = HEADER_LINES;
    let mut spans: Vec<Span> = Vec::new();
    for ply in 1..=game.len() {
        let slot = ply - 1 + offset;
        if slot % 2 == 0 || spans.is_empty() {
            spans.push(Span::raw(format!("{:>3}. ", slot / 2 + 1)));
            if slot % 2 == 1 {
                spans.push(Span::raw(format!("{:<MOVE_WIDTH$} ", "...")));
            }
        }
        let text = game.move_text(ply, options.notation).unwrap_or_default();
        let style = if ply == shown {
            current_line = lines.len();
            theme.current
        } else if ply > game.ply() {
            theme.quiet
        } else {
            Style::new()
        };
        spans.push(Span::styled(format!("{text:<MOVE_WIDTH$}"), style));
        spans.push(Span::raw(" "));
        if slot % 2 == 1 {
            lines.push(Line::from(std::mem::take(&mut spans)));
        }
    }
    if !spans.is_empty() {
        lines.push(Line::from(spans));
    }
    if game.is_empty() {
        lines.push(Line::styled("   no moves yet", theme.quiet));
    }
    if let Some(error) = app.replay().and_then(|r| r.error.as_deref()) {
        lines.push(Line::default());
        let width = usize::from(inner.width).saturating_sub(4).max(10);
        let text = format!("! The record stops here: {error}");
        lines.extend(
            super::wrap_words(&text, width)
                .into_iter()
                .map(|line| Line::styled(format!("   {line}"), theme.quiet)),
        );
    }
    if let Some(outcome) = game.outcome().filter(|_| game.ply() == game.len()) {
        lines.push(Line::default());
        let result = match outcome.winner() {
            Some(winner) => format!("{winner} wins"),
            None => "Draw".to_string(),
        };
        lines.push(Line::from(format!("   {result}")));
    }
    // Scroll just enough to keep the shown move in view.
    let height = usize::from(inner.height);
    let scroll = (current_line + 1).saturating_sub(height);
    let scroll = u16::try_from(scroll).unwrap_or(u16::MAX);
    Paragraph::new(lines).scroll((scroll, 0)).render(inner, buf);
}

/// Draws the setup panel in place of the move history: the side to move, the players, the pieces and the keys.
pub fn setup(buf: &mut Buffer, area: Rect, app: &App, setup: &Setup, options: &Options) {
    let block = pane_block(" Set up a position ", false, &options.theme);
    let inner = block.inner(area);
    block.render(area, buf);
    let position = setup.position();
    let key = |name: &str| {
        app.preferences()
            .keys
            .first_key(Context::Setup, name)
            .map_or_else(String::new, |k| format!(" ({k})"))
    };
    let mut lines = vec![Line::from(format!(
        " {} to move{}",
        position.side_to_move(),
        key("side")
    ))];
    for (color, key) in [
        (Color::Black, key("black-player")),
        (Color::White, key("white-player")),
    ] {
        let glyph = options.pieces.glyph(Piece::new(color, Role::Man));
        let count = |role, one, many| match position.count(color, role) {
            1 => format!("1 {one}"),
            n => format!("{n} {many}"),
        };
        lines.push(Line::from(format!(
            " {glyph} {:<6}{}{key}",
            color.to_string(),
            setup.player(color)
        )));
        lines.push(Line::styled(
            format!(
                "   {}, {}",
                count(Role::Man, "man", "men"),
                count(Role::King, "king", "kings")
            ),
            options.theme.quiet,
        ));
    }
    lines.push(Line::default());
    lines.extend(
        app.preferences()
            .keys
            .help(Context::Setup)
            .into_iter()
            // The panel is narrow: the first of several keys stands for them (the help lists them all).
            .map(|(keys, what)| {
                let keys = keys.split(", ").next().unwrap_or_default();
                Line::from(format!(" {keys:<6} {what}"))
            }),
    );
    lines.push(Line::from(format!(
        " {:<6} show, or :fen <FEN> load",
        ":fen"
    )));
    Paragraph::new(lines).render(inner, buf);
}

/// Draws the status line: the app's message and, while the engine thinks, how far it has got.
pub fn status(buf: &mut Buffer, area: Rect, app: &App) {
    let mut text = format!(" {}", app.status());
    if let Some(thinking) = app.thinking() {
        text.push_str(&thinking_text(thinking));
    }
    Paragraph::new(text).render(area, buf);
}

fn thinking_text(thinking: Thinking) -> String {
    match (thinking.depth, thinking.score) {
        (Some(depth), Some(score)) => format!(" · depth {depth}, {}", score_text(score)),
        _ => String::new(),
    }
}

/// A score for the side to move, in men: `+0.35`, or the distance to a forced result.
fn score_text(score: Score) -> String {
    match score {
        Score::Centi(c) => format!("eval {:+.2}", f64::from(c) / f64::from(MAN)),
        Score::Win(n) => format!("wins in {n}"),
        Score::Loss(n) => format!("loses in {n}"),
    }
}

/// Draws the input box; returns where the terminal cursor goes when the box has the keys.
pub fn input(buf: &mut Buffer, area: Rect, app: &App, options: &Options) -> Option<Cell> {
    let theme = &options.theme;
    let focused = app.focus() == Focus::Input;
    let block = pane_block(" Move or :command ", focused, theme);
    let inner = block.inner(area);
    block.render(area, buf);
    let input = app.input();
    if input.value().is_empty() && !focused {
        let help = match app.preferences().keys.first_key(Context::Board, "help") {
            Some(key) => format!("{key} lists every key"),
            None => ":help lists every key".to_string(),
        };
        let hint = if app.setup().is_some() {
            format!("type :fen <FEN> to load a position, :fen to show this one; {help}")
        } else {
            format!("type a move (11-15, 22x15) or a :command; {help}")
        };
        Paragraph::new(Line::styled(hint, theme.quiet)).render(inner, buf);
        return None;
    }
    // Keep the cursor in view when the text is wider than the box.
    let width = usize::from(inner.width.saturating_sub(1));
    let scroll = input.visual_scroll(width);
    Paragraph::new(input.value())
        .scroll((0, u16::try_from(scroll).unwrap_or(0)))
        .render(inner, buf);
    let column = input.visual_cursor().saturating_sub(scroll);
    focused.then(|| Cell::new(inner.x + u16::try_from(column).unwrap_or(0), inner.y))
}
