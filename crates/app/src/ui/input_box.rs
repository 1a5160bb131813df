//! The input box: what is typed, refused text held for a look, and the hint of what may be typed, with the
//! variant's own example moves.

use ratatui::buffer::Buffer;
use ratatui::layout::{Position as Cell, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};

use super::{Options, pane_block};
use crate::app::{App, Context, Focus};
use crate::engine::Player;
use crate::rules::{AnyPosition, Color, SquareName};

/// Examples of a move and a capture as this game writes them (`11-15, 11x18` in English, `c3-d4, c3xe5` in
/// Russian): one of the first moves of the player's own side, and a jump on along the same diagonal.
/// The side whose moves the example shows: the player's own (their seat at a table; at home the human's side,
/// or the side to move when both sides or neither are played by a human).
fn own_side(app: &App) -> Color {
    if let Some(seat) = app.table().and_then(|table| table.seat()) {
        return seat;
    }
    let human = |color| app.players().of(color) == Player::Human;
    match (human(Color::Black), human(Color::White)) {
        (true, false) => Color::Black,
        (false, true) => Color::White,
        _ => app.game().position().side_to_move(),
    }
}

fn move_examples(app: &App, options: &Options) -> String {
    let game_type = app.game().game_type();
    let style = options.notation_for(game_type.variant);
    let start = AnyPosition::start(game_type).with_side_to_move(own_side(app));
    let moves = start.legal_moves();
    // The middle of the first moves (11-15 of English's seven).
    let Some(mv) = moves.get(moves.len().div_ceil(2).min(moves.len().saturating_sub(1))) else {
        return ":help lists the commands".into();
    };
    let g = start.geometry();
    let name = |square| SquareName::new(square, style, g).to_string();
    let ((r0, c0), (r1, c1)) = (g.row_col(mv.from()), g.row_col(mv.to()));
    let beyond = (2 * r1)
        .checked_sub(r0)
        .zip((2 * c1).checked_sub(c0))
        .and_then(|(row, col)| g.at(row, col));
    match beyond {
        Some(landing) => format!(
            "{}-{}, {}x{}",
            name(mv.from()),
            name(mv.to()),
            name(mv.from()),
            name(landing)
        ),
        None => format!("{}-{}", name(mv.from()), name(mv.to())),
    }
}

/// Draws the input box; returns where the terminal cursor goes when the box has the keys.
pub fn draw(buf: &mut Buffer, area: Rect, app: &App, options: &Options) -> Option<Cell> {
    let theme = &options.theme;
    let focused = app.focus() == Focus::Input;
    // The title says who has the keys: the box while typing, the board otherwise.
    let title = if focused {
        " Typing · Enter plays, Esc cancels "
    } else {
        " Move or :command "
    };
    let block = pane_block(title, focused, theme);
    let inner = block.inner(area);
    block.render(area, buf);
    let input = app.input();
    if app.input_held() {
        // Refused text, kept to be looked at; the board has the keys.
        let line = Line::from(vec![
            Span::styled(input.value().to_string(), theme.quiet.crossed_out()),
            Span::styled(
                "  refused: type again, Backspace edits it, Esc clears",
                theme.quiet,
            ),
        ]);
        Paragraph::new(line).render(inner, buf);
        return None;
    }
    if input.value().is_empty() && !focused {
        let help = match app.preferences().keys.first_key(Context::Board, "help") {
            Some(key) => format!("{key} lists every key"),
            None => ":help lists every key".to_string(),
        };
        let watching = app.table().is_some_and(|t| t.seat().is_none());
        let hint = if app.setup().is_some() {
            format!("type :fen <FEN> to load a position, :fen to show this one; {help}")
        } else if watching {
            // A watcher has no move to type: what they may type is a chat line.
            format!("you are watching: :say TEXT talks to the table; {help}")
        } else {
            format!(
                "type a move ({}) or a :command; {help}",
                move_examples(app, options)
            )
        };
        Paragraph::new(Line::styled(hint, theme.quiet)).render(inner, buf);
        return None;
    }
    if input.value().is_empty() {
        // Opened for a move in coordinates (i): say what is expected, behind the cursor.
        let prompt =
            "a move in coordinates: c3-d4, or c3xe5xg3 for a capture (Enter plays, Esc cancels)";
        let rest = Rect {
            x: inner.x + 1,
            width: inner.width.saturating_sub(1),
            ..inner
        };
        Paragraph::new(Line::styled(prompt, theme.quiet)).render(rest, buf);
        return Some(Cell::new(inner.x, inner.y));
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
