//! The game-over panel at the foot of the move list: who won and why, the result as PDN writes it, how long the
//! game was, and the keys for what comes next.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::Line;
use ratatui::widgets::{Block, Paragraph, Widget};

use super::Options;
use crate::app::{App, Context, Mode};
use crate::game::count;
use crate::rules::Color;

/// Rows of moves always left above the panel.
const MOVES_KEPT: u16 = 2;

/// The panel's content, laid out for the width it is given: the headline, the reason and the result wrap under
/// one indent, and the keys flow into as few lines as the width allows, so that none is cut on a narrow list.
pub struct GameOverPanel {
    headline: String,
    /// The reason and the result line, each wrapped on its own.
    text: Vec<String>,
    /// The keys and what they do (`n new game`), laid side by side.
    keys: Vec<String>,
    headline_style: Style,
    keys_style: Style,
    border: Style,
}

impl GameOverPanel {
    /// The lines inside a panel `width` cells wide (border included).
    fn lines(&self, width: u16) -> Vec<Line<'static>> {
        // A space either side inside the border.
        let room = usize::from(width.saturating_sub(4)).max(1);
        let indented = |text: &str, style: Style| {
            super::wrap_words(text, room)
                .into_iter()
                .map(move |line| Line::styled(format!(" {line}"), style))
        };
        let mut lines: Vec<Line<'static>> = indented(&self.headline, self.headline_style).collect();
        for text in &self.text {
            lines.extend(indented(text, Style::new()));
        }
        let mut row = String::new();
        for key in &self.keys {
            if !row.is_empty() && row.chars().count() + 2 + key.chars().count() > room {
                lines.push(Line::styled(format!(" {row}"), self.keys_style));
                row.clear();
            }
            if !row.is_empty() {
                row.push_str("  ");
            }
            row.push_str(key);
        }
        if !row.is_empty() {
            lines.push(Line::styled(format!(" {row}"), self.keys_style));
        }
        lines
    }

    /// How many rows of `area` (the move list's space) the panel takes: all it needs when there is room,
    /// fewer on a short screen, none when even that would hide every move.
    pub fn height(&self, area: Rect) -> u16 {
        let wanted = u16::try_from(self.lines(area.width).len() + 2).unwrap_or(u16::MAX);
        let room = area.height.saturating_sub(MOVES_KEPT);
        if room < 3 { 0 } else { wanted.min(room) }
    }

    /// Draws the panel into `area`. When it is shorter than its lines, the keys are kept and the text above them
    /// gives way first.
    pub fn render(self, area: Rect, buf: &mut Buffer) {
        let block = Block::bordered()
            .title(" Game over ")
            .border_style(self.border);
        let mut lines = self.lines(area.width);
        let rows = usize::from(area.height.saturating_sub(2));
        if lines.len() > rows {
            // The headline stays; the lines just under it give way to the keys.
            let cut = lines.len() - rows;
            lines.drain(1.min(lines.len())..(1 + cut).min(lines.len()));
        }
        Paragraph::new(lines).block(block).render(area, buf);
    }
}

/// The panel for the game on show, which is over.
pub fn panel(app: &App, options: &Options) -> GameOverPanel {
    let theme = &options.theme;
    let mut panel = GameOverPanel {
        headline: String::new(),
        text: Vec::new(),
        keys: Vec::new(),
        headline_style: theme.current,
        keys_style: theme.quiet,
        border: theme.focus,
    };
    let Mode::Over(outcome) = app.mode() else {
        return panel;
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
    panel.headline = headline;
    // The reason stands as a sentence of its own: "The same position occurred three times".
    panel.text.extend(reason.map(|reason| {
        let mut chars = reason.chars();
        chars
            .next()
            .map(|first| first.to_uppercase().chain(chars).collect())
            .unwrap_or_default()
    }));
    panel.text.push(format!(
        "{} after {}",
        game.result_token(Some(outcome)),
        count(game.moves_played(), "move", "moves")
    ));
    // A rated game at a table: how each player's rating moved, once the records hold the result.
    if let Some(table) = app.table() {
        let changes: Vec<String> = [Color::Black, Color::White]
            .into_iter()
            .filter_map(|color| table.seat_view(color))
            .filter_map(|seat| Some(format!("{} {}", seat.name, seat.rating_change()?)))
            .collect();
        if !changes.is_empty() {
            panel.text.push(format!("Ratings: {}", changes.join(", ")));
        }
    }
    panel.keys = match app.table() {
        // A game at a table was kept by the server: a player may offer a rematch; anyone may look back at it, or
        // go back to the lobby.
        Some(table) => {
            let mut keys = Vec::new();
            if table.in_event() {
                keys.push("the event's table follows".to_string());
            } else if table.seat().is_some() {
                keys.push(format!(
                    "{} rematch (colours swapped)",
                    key("rematch", ":rematch")
                ));
            }
            keys.push(format!("{} browse", key("back", "Tab")));
            keys.push(format!("{} back to the lobby", key("quit", ":quit")));
            keys
        }
        None => vec![
            format!("{} new game", key("new-game", ":new")),
            format!("{} rematch", key("rematch", ":rematch")),
            format!("{} browse", key("back", "Tab")),
            format!("{} save", key("save", ":save")),
            format!("{} analyse", key("analyse-game", ":analyse")),
        ],
    };
    panel
}
