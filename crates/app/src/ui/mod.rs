//! Pure rendering: the app's state drawn into a ratatui frame. Nothing here changes state or touches a terminal,
//! so the same code draws to a local terminal, a test buffer or an SSH channel.

mod analysis;
mod board;
pub mod event;
mod game_over;
mod input_box;
pub mod lobby;
mod overlays;
mod panels;
mod problems;
mod review;
pub mod settings;
mod setup_panel;
mod theme;

pub use crate::app::{ScreenLayout, min_size};
pub use theme::{Glyphs, PieceStyle, Theme, ThemeName, UnknownPieceStyle, UnknownTheme};

use ratatui::Frame;
use ratatui::style::Style;
use ratatui::text::Line;
use ratatui::widgets::{Block, BorderType};

use crate::app::{App, Overlay};
use crate::config::Settings;
use crate::rules::{SquareStyle, Variant};

/// How the screen looks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Colours.
    pub theme: Theme,
    /// Piece glyphs.
    pub pieces: PieceStyle,
    /// Whether playable squares show their numbers (when they are big enough).
    pub square_numbers: bool,
    /// How the move list writes moves; `None` for each variant's own way ([`Variant::notation`]).
    pub notation: Option<SquareStyle>,
    /// Whether the squares the selected piece can go to are marked.
    pub legal_moves: bool,
}

impl Options {
    /// How the settings say the screen looks; `no_color` (the `NO_COLOR` convention) turns the colours off
    /// whatever the theme.
    pub fn of(settings: &Settings, no_color: bool) -> Options {
        let display = &settings.display;
        Options {
            theme: Theme::new(display.theme, no_color),
            pieces: display.pieces,
            square_numbers: display.square_numbers,
            notation: display.notation,
            legal_moves: display.legal_moves,
        }
    }
}

impl Default for Options {
    fn default() -> Self {
        Options {
            theme: Theme::new(ThemeName::default(), false),
            pieces: PieceStyle::default(),
            square_numbers: true,
            notation: None,
            legal_moves: true,
        }
    }
}

impl Options {
    /// How moves of a variant are written on screen.
    pub fn notation_for(&self, variant: Variant) -> SquareStyle {
        self.notation.unwrap_or(variant.notation())
    }
}

/// Draws the whole screen for `app`.
pub fn draw(frame: &mut Frame, app: &App, options: &Options) {
    let area = frame.area();
    let Some(layout) = ScreenLayout::new(area, app.board()) else {
        overlays::too_small(frame.buffer_mut(), area, app);
        // Only the help is drawn over it: nothing else can be answered unseen.
        if let Some(Overlay::Help(help)) = app.overlay() {
            let keys = &app.preferences().keys;
            overlays::help(frame.buffer_mut(), area, keys, help, options);
        }
        return;
    };
    let buf = frame.buffer_mut();
    board::draw(buf, &layout, app, options);
    match (app.setup(), app.trainer()) {
        (Some(setup), _) => setup_panel::draw(buf, layout.history, app, setup, options),
        (None, Some(trainer)) => problems::draw(buf, layout.history, app, trainer, options),
        (None, None) => {
            let (list, review_panel, analysis_panel) = analysis::split(layout.history, app);
            panels::history(buf, list, app, options);
            if let Some(panel) = review_panel {
                review::draw(buf, panel, app, options);
            }
            if let Some(panel) = analysis_panel {
                analysis::draw(buf, panel, app, options);
            }
        }
    }
    panels::status(buf, layout.status, app, options);
    if let Some(cursor) = input_box::draw(buf, layout.input, app, options) {
        frame.set_cursor_position(cursor);
    }
    if let Some(overlay) = app.overlay() {
        overlays::draw(frame.buffer_mut(), area, &layout, overlay, app, options);
    }
}

/// A pane's bordered block, its border bold when the pane has the keys.
fn pane_block<'a>(title: impl Into<Line<'a>>, focused: bool, theme: &Theme) -> Block<'a> {
    let block = Block::bordered().title(title);
    if focused {
        block
            .border_type(BorderType::Thick)
            .border_style(theme.focus)
    } else {
        block.border_style(Style::new())
    }
}

/// `text` in at most `rows` lines of at most `width` characters, broken between words; when it does not fit,
/// the last line ends at a word boundary with `ellipsis` (a word longer than a line is broken across lines).
fn fit_words(text: &str, width: usize, rows: usize, ellipsis: &str) -> Vec<String> {
    let mut lines = wrap_words(text, width);
    if lines.len() <= rows {
        return lines;
    }
    lines.truncate(rows);
    let Some(last) = lines.last_mut() else {
        return lines;
    };
    let room = width.saturating_sub(ellipsis.chars().count());
    // Drop whole words from the end until the ellipsis fits after a space.
    while last.chars().count() + 1 > room {
        match last.rfind(' ') {
            Some(space) => last.truncate(space),
            None => {
                *last = last.chars().take(room.saturating_sub(1)).collect();
                break;
            }
        }
    }
    last.push(' ');
    last.push_str(ellipsis);
    lines
}

/// `text` in lines of at most `width` characters, broken between words. A word longer than a line (a position in
/// FEN, a long line of play) is broken across lines, after a comma or colon where one comes late enough, and
/// never cut.
fn wrap_words(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    if width == 0 {
        return lines;
    }
    let mut line = String::new();
    for word in text.split_whitespace() {
        let used = line.chars().count() + usize::from(!line.is_empty());
        let length = word.chars().count();
        if used + length <= width || length <= width {
            if used + length > width {
                lines.push(std::mem::take(&mut line));
            } else if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(word);
            continue;
        }
        // The long word starts on this line when a fair part of it fits there.
        let mut room = width.saturating_sub(used);
        if room < width / 4 || room == 0 {
            if !line.is_empty() {
                lines.push(std::mem::take(&mut line));
            }
            room = width;
        } else if !line.is_empty() {
            line.push(' ');
        }
        let mut rest = word;
        loop {
            let (head, tail) = break_word(rest, room);
            line.push_str(head);
            if tail.is_empty() {
                break;
            }
            lines.push(std::mem::take(&mut line));
            rest = tail;
            room = width;
        }
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// `word` split into a first part of at most `room` characters (at least one) and the rest: after the last comma
/// or colon in the second half of the room when there is one, else at the room's end.
fn break_word(word: &str, room: usize) -> (&str, &str) {
    let room = room.max(1);
    let Some((cut, _)) = word.char_indices().nth(room) else {
        return (word, "");
    };
    let head = &word[..cut];
    let at = head
        .char_indices()
        .rev()
        .find(|&(i, c)| matches!(c, ',' | ':') && head[..i].chars().count() >= room / 2)
        .map_or(cut, |(i, c)| i + c.len_utf8());
    word.split_at(at)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_messages_wrap_then_end_with_an_ellipsis_at_a_word() {
        let text = "a capture is compulsory (22, 23 can take) and the engine is thinking";
        assert_eq!(
            fit_words(text, 30, 2, "…"),
            [
                "a capture is compulsory (22,",
                "23 can take) and the engine …"
            ]
        );
        assert_eq!(fit_words(text, 80, 1, "…"), [text]);
        assert_eq!(fit_words(text, 20, 1, "..."), ["a capture is ..."]);
        for width in 4..40 {
            for line in fit_words(text, width, 1, "...") {
                assert!(line.chars().count() <= width, "{width}: {line:?}");
            }
        }
        assert!(fit_words("", 10, 1, "…").is_empty());
    }

    #[test]
    fn a_word_longer_than_a_line_is_broken_across_lines_never_cut() {
        let fen = "W:W1,3,5,7,9,12,14,16,18,20:B31,33,35,37,39,42,44,46,48,50";
        let lines = wrap_words(&format!("FEN: {fen}"), 30);
        assert_eq!(
            lines,
            [
                "FEN: W:W1,3,5,7,9,12,14,16,18,",
                "20:B31,33,35,37,39,42,44,46,",
                "48,50"
            ]
        );
        assert_eq!(lines.concat(), format!("FEN: {fen}"));
        // Too long for the rows there are: the end is marked, not silently dropped.
        let fitted = fit_words(&format!("FEN: {fen}"), 30, 2, "…");
        assert_eq!(fitted.len(), 2);
        assert!(fitted[1].ends_with(" …"), "{fitted:?}");
        for width in 1..70 {
            let lines = wrap_words(fen, width);
            assert_eq!(lines.concat(), fen, "{width}");
            assert!(
                lines.iter().all(|l| l.chars().count() <= width),
                "{width}: {lines:?}"
            );
        }
        assert!(wrap_words(fen, 0).is_empty());
    }
}
