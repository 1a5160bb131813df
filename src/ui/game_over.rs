//! The game-over panel at the foot of the move list: who won and why, the result as PDN writes it, how long the
//! game was, and the keys for what comes next.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Block, Paragraph, Widget, Wrap};

use super::Options;
use crate::app::{App, Context, Mode};
use crate::game::count;

/// Rows of moves always left above the panel.
const MOVES_KEPT: u16 = 2;

/// The panel's lines, ready to draw.
pub struct Panel<'a> {
    lines: Vec<Line<'a>>,
    border: ratatui::style::Style,
}

impl Panel<'_> {
    /// How many rows of `area` (the move list's space) the panel takes: all it needs when there is room,
    /// fewer on a short screen, none when even that would hide every move.
    pub fn height(&self, area: Rect) -> u16 {
        let wanted = u16::try_from(self.lines.len() + 2).unwrap_or(u16::MAX);
        let room = area.height.saturating_sub(MOVES_KEPT);
        if room < 3 { 0 } else { wanted.min(room) }
    }

    /// Draws the panel into `area`.
    pub fn render(self, area: Rect, buf: &mut Buffer) {
        let block = Block::bordered()
            .title(" Game over ")
            .border_style(self.border);
        Paragraph::new(self.lines)
            .wrap(Wrap { trim: false })
            .block(block)
            .render(area, buf);
    }
}

/// The panel for the game on show, which is over.
pub fn panel<'a>(app: &App, options: &Options) -> Panel<'a> {
    let theme = &options.theme;
    let Mode::Over(outcome) = app.mode() else {
        return Panel {
            lines: Vec::new(),
            border: theme.focus,
        };
    };
    let sentence = outcome.to_string();
    // "Black wins: White has no pieces left" reads as a headline and its reason.
    let (headline, reason) = match sentence.split_once(": ") {
        Some((headline, reason)) => (headline.to_string(), Some(reason.to_string())),
        None => (sentence, None),
    };
    let key = |name: &str, fallback: &str| {
        app.preferences()
            .keys
            .first_key(Context::Board, name)
            .map_or_else(|| fallback.to_string(), |k| k.to_string())
    };
    let game = app.game();
    let mut lines = vec![Line::styled(format!(" {headline}"), theme.current)];
    if let Some(reason) = reason {
        lines.push(Line::from(format!(" {reason}")));
    }
    lines.push(Line::from(format!(
        " {} after {}",
        game.result_token(Some(outcome)),
        count(game.moves_played(), "move", "moves")
    )));
    let hints = match app.table() {
        // A game at a table was kept by the server: a player may offer a rematch; anyone may look back at it, or
        // go back to the lobby.
        Some(table) => {
            let mut hints = Vec::new();
            if table.seat.is_some() {
                hints.push(format!(
                    " {} rematch (colours swapped)",
                    key("rematch", ":rematch")
                ));
            }
            hints.push(format!(" {} browse", key("back", "Tab")));
            hints.push(format!(" {} back to the lobby", key("quit", ":quit")));
            hints
        }
        None => vec![
            format!(
                " {} new game  {} rematch",
                key("new-game", ":new"),
                key("rematch", ":rematch")
            ),
            format!(
                " {} browse  {} save",
                key("back", "Tab"),
                key("save", ":save")
            ),
            format!(" {} analyse the game", key("analyse-game", ":analyse")),
        ],
    };
    lines.extend(
        hints
            .into_iter()
            .map(|hint| Line::styled(hint, theme.quiet)),
    );
    Panel {
        lines,
        border: theme.focus,
    }
}
