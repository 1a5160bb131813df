//! The settings screen, drawn over the game or the lobby: the look's rows, then every command's keys under its
//! context's heading, scrolled to keep the cursor in sight, with the screen's last word on its bottom line.
//!
//! Drawn without colour (the cursor's row in reverse video, headings in bold), so it reads the same in every
//! theme, the mono one included, and over a lobby that has no theme.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Block, Clear, Paragraph, Widget};

use crate::app::{Capture, Context, RowKind, SettingsScreen};

/// The widest the screen is drawn.
const WIDTH: u16 = 76;
/// The label's column.
const LABEL_WIDTH: usize = 24;

/// Draws `screen` in the middle of `area`.
pub fn draw(buf: &mut Buffer, area: Rect, screen: &SettingsScreen) {
    let width = WIDTH.min(area.width);
    let height = area.height.saturating_sub(2).max(area.height.min(5));
    let rect = Rect::new(
        area.x + (area.width - width) / 2,
        area.y + (area.height - height) / 2,
        width,
        height,
    );
    Clear.render(rect, buf);
    let title = format!(" Settings · {} ", screen.saved_in());
    let block = Block::bordered().title(title);
    let inner = block.inner(rect);
    block.render(rect, buf);
    if inner.height == 0 {
        return;
    }
    // The last line inside is the screen's word; the rows scroll above it.
    let rows_height = usize::from(inner.height.saturating_sub(1)).max(1);
    let (lines, cursor_line) = lines(screen, usize::from(inner.width));
    let first = cursor_line
        .saturating_sub(rows_height / 2)
        .min(lines.len().saturating_sub(rows_height));
    let shown: Vec<Line> = lines.into_iter().skip(first).take(rows_height).collect();
    Paragraph::new(shown).render(
        Rect::new(inner.x, inner.y, inner.width, inner.height.saturating_sub(1).max(1)),
        buf,
    );
    if inner.height > 1 {
        let message = clip(&format!(" {}", screen.message()), usize::from(inner.width));
        let bottom = Rect::new(inner.x, inner.y + inner.height - 1, inner.width, 1);
        Paragraph::new(Line::styled(message, Style::new().add_modifier(Modifier::BOLD)))
            .render(bottom, buf);
    }
}

/// Every line of the screen, headings included, and the line of the row with the cursor.
fn lines(screen: &SettingsScreen, width: usize) -> (Vec<Line<'static>>, usize) {
    let bold = Style::new().add_modifier(Modifier::BOLD);
    let mut lines = vec![Line::styled(" How it looks", bold)];
    let mut heading: Option<Context> = None;
    let mut cursor_line = 0;
    for (index, row) in screen.rows().iter().enumerate() {
        if let Some(context) = row.context()
            && heading != Some(context)
        {
            heading = Some(context);
            lines.push(Line::default());
            lines.push(Line::styled(format!(" Keys: {}", context_title(context)), bold));
        }
        let selected = index == screen.selected();
        let value = match (&row.kind, selected, screen.capture()) {
            (RowKind::Keys { .. }, true, Some(Capture::Replace)) => "press a key…".to_string(),
            (RowKind::Keys { .. }, true, Some(Capture::Add)) => format!("{} + press a key…", row.value()),
            (RowKind::Keys { .. }, _, _) => row.value(),
            _ => format!("‹ {} ›", row.value()),
        };
        let text = clip(&format!("   {:<LABEL_WIDTH$} {value}", row.label), width);
        if selected {
            cursor_line = lines.len();
            let padded = format!("{text:<width$}");
            lines.push(Line::styled(padded, Style::new().add_modifier(Modifier::REVERSED)));
        } else {
            lines.push(Line::raw(text));
        }
    }
    (lines, cursor_line)
}

/// Where a context's keys work, as the screen's headings say it.
fn context_title(context: Context) -> &'static str {
    match context {
        Context::Board => "the board",
        Context::History => "the move list",
        Context::Dialog => "the new-game dialog and the lobby's form",
        Context::Setup => "setting up a position",
        Context::List => "lists of games",
        Context::Replay => "replaying a game",
        Context::Lobby => "a server's lobby",
    }
}

/// `text` cut to `width` characters, `…` at the end when cut.
fn clip(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        return text.to_string();
    }
    let kept: String = text.chars().take(width.saturating_sub(1)).collect();
    format!("{kept}…")
}
