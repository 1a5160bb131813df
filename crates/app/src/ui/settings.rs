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

use crate::app::{Capture, Context, SettingsScreen};
use crate::config::RowKind;

/// The widest the screen is drawn.
const WIDTH: u16 = 76;
/// The label's column.
const LABEL_WIDTH: usize = 24;
/// The most lines the screen's word takes at the bottom.
const MESSAGE_LINES: usize = 3;

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
    // The screen's word at the bottom (wrapped: a reason is told whole, up to three lines); the rows scroll
    // above it.
    let bold = Style::new().add_modifier(Modifier::BOLD);
    let mut said = super::wrap_words(
        screen.message(),
        usize::from(inner.width.saturating_sub(2)).max(1),
    );
    said.truncate(MESSAGE_LINES.min(usize::from(inner.height.saturating_sub(1))));
    let said_height = u16::try_from(said.len()).unwrap_or(0);
    let rows_height = usize::from(inner.height.saturating_sub(said_height)).max(1);
    let (lines, cursor_line) = lines(screen, usize::from(inner.width));
    let first = cursor_line
        .saturating_sub(rows_height / 2)
        .min(lines.len().saturating_sub(rows_height));
    let shown: Vec<Line> = lines.into_iter().skip(first).take(rows_height).collect();
    let rows_area = Rect::new(inner.x, inner.y, inner.width, inner.height - said_height);
    Paragraph::new(shown).render(rows_area, buf);
    let bottom = Rect::new(
        inner.x,
        inner.y + inner.height - said_height,
        inner.width,
        said_height,
    );
    let said: Vec<Line> = said
        .into_iter()
        .map(|line| Line::styled(format!(" {line}"), bold))
        .collect();
    Paragraph::new(said).render(bottom, buf);
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
            lines.push(Line::styled(
                format!(" Keys: {}", context_title(context)),
                bold,
            ));
        }
        let selected = index == screen.selected();
        let value = match (&row.kind, selected, screen.capture()) {
            (RowKind::Keys { .. }, true, Some(Capture::Replace)) => "press a key…".to_string(),
            (RowKind::Keys { .. }, true, Some(Capture::Add)) => {
                format!("{} + press a key…", row.value())
            }
            (RowKind::Keys { .. }, _, _) => row.value(),
            _ => format!("‹ {} ›", row.value()),
        };
        let text = clip(&format!("   {:<LABEL_WIDTH$} {value}", row.label), width);
        if selected {
            cursor_line = lines.len();
            let padded = format!("{text:<width$}");
            lines.push(Line::styled(
                padded,
                Style::new().add_modifier(Modifier::REVERSED),
            ));
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
        Context::Event => "a tournament's screen",
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

#[cfg(test)]
mod tests {
    use ratatui::buffer::Buffer;

    use super::*;
    use crate::app::{Key, KeyCode};

    fn screen() -> SettingsScreen {
        crate::app::sample_screen()
    }

    fn drawn(screen: &SettingsScreen, width: u16, height: u16) -> String {
        let area = Rect::new(0, 0, width, height);
        let mut buf = Buffer::empty(area);
        draw(&mut buf, area, screen);
        (0..height)
            .map(|y| {
                (0..width)
                    .map(|x| buf[(x, y)].symbol())
                    .collect::<String>()
                    .trim_end()
                    .to_string()
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    #[test]
    fn the_settings_screen_80x24() {
        let mut screen = screen();
        insta::assert_snapshot!(drawn(&screen, 80, 24));
        // Far down the keys, waiting for one, with a reason too long for a line.
        screen.key(Key::plain(KeyCode::End));
        screen.key(Key::plain(KeyCode::Enter));
        let shown = drawn(&screen, 80, 24);
        assert!(
            shown.contains("leave                    press a key…"),
            "{shown}"
        );
        assert!(shown.contains("Keys: a tournament's screen"), "{shown}");
        let edit = crate::config::SettingEdit {
            table: "display".into(),
            name: "theme".into(),
            value: crate::config::SettingValue::Word("mono".into()),
        };
        screen.answered(
            &edit,
            Err("config.toml: line 4: engine.time: a number of seconds above 0 and at most 86400; mend the \
                 file first (the change holds until you leave)"
                .into()),
        );
        let shown = drawn(&screen, 80, 24);
        assert!(
            shown.contains("mend the"),
            "the reason is told whole: {shown}"
        );
        assert!(
            shown.contains("leave)"),
            "the reason is told whole: {shown}"
        );
    }

    #[test]
    fn any_size_is_drawn_without_a_panic() {
        let screen = screen();
        for (width, height) in [(0, 0), (1, 1), (3, 2), (10, 3), (20, 5), (400, 200)] {
            let _ = drawn(&screen, width, height);
        }
    }
}
