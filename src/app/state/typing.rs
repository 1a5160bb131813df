//! The input box: typing and pasting, with a length limit.
//!
//! The limit keeps every keystroke and every paste cheap whatever arrives: editing a line of at most
//! [`INPUT_LIMIT`] characters costs next to nothing, and a paste is checked against the limit before anything
//! is copied, so a megabyte of pasted text is refused in one pass over it.

use tui_input::{Input, InputRequest};

use super::App;
use crate::app::mode::Focus;

/// The most characters the input box holds. The longest useful line is a position (`:fen` with 24 pieces is
/// about 100 characters, a 12x12 board's 60 pieces about 250); a file name for `:save` is shorter still.
pub const INPUT_LIMIT: usize = 1024;

impl App {
    /// One editing request from a key. Typing into a full box is refused with a message.
    pub(super) fn edit(&mut self, request: InputRequest) {
        if matches!(request, InputRequest::InsertChar(_))
            && self.input.value().chars().count() >= INPUT_LIMIT
        {
            self.status = format!("the input box is full ({INPUT_LIMIT} characters)");
            return;
        }
        self.input.handle(request);
        self.follow_input();
    }

    /// Pasted text goes in at the cursor as if typed, without its line breaks and other control characters.
    /// Text that would overflow the box is refused whole, with a message, so that nothing is cut silently.
    pub(super) fn paste(&mut self, text: &str) {
        // One pass over the paste, stopping as soon as it is known to be too long: the time depends on the
        // limit, not on the size of the paste.
        let room = INPUT_LIMIT.saturating_sub(self.input.value().chars().count());
        let mut pasted = String::new();
        let mut typed = text.chars().filter(|c| !c.is_control());
        for c in typed.by_ref().take(room) {
            pasted.push(c);
        }
        if typed.next().is_some() {
            let size = text.chars().count();
            self.status = format!(
                "paste refused: {size} characters is more than the input box holds ({INPUT_LIMIT})"
            );
            return;
        }
        if pasted.is_empty() {
            return;
        }
        let value = self.input.value();
        let cursor = self.input.cursor();
        let split = value
            .char_indices()
            .nth(cursor)
            .map_or(value.len(), |(i, _)| i);
        let joined = format!("{}{pasted}{}", &value[..split], &value[split..]);
        let cursor = cursor + pasted.chars().count();
        self.input = Input::new(joined).with_cursor(cursor);
        self.follow_input();
    }

    /// The focus follows the box: typing starts on the first character, and emptying the box gives the keys
    /// back to the board.
    fn follow_input(&mut self) {
        self.focus = if self.input.value().is_empty() {
            Focus::Board
        } else {
            Focus::Input
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::action::Action;
    use crate::engine::{Player, Players};

    fn app() -> App {
        App::new(Players {
            black: Player::Human,
            white: Player::Human,
        })
        .0
    }

    fn typed(app: &mut App, text: &str) {
        for c in text.chars() {
            let _ = app.update(Action::Edit(InputRequest::InsertChar(c)));
        }
    }

    #[test]
    fn a_paste_goes_in_at_the_cursor_without_line_breaks() {
        let mut app = app();
        typed(&mut app, "1115");
        let _ = app.update(Action::Edit(InputRequest::GoToPrevChar));
        let _ = app.update(Action::Edit(InputRequest::GoToPrevChar));
        let _ = app.update(Action::Paste("-\r\n".into()));
        assert_eq!(app.input().value(), "11-15");
        assert_eq!(app.input().cursor(), 3);
        assert_eq!(app.focus(), Focus::Input);
    }

    #[test]
    fn a_paste_longer_than_the_box_is_refused_whole() {
        let mut app = app();
        typed(&mut app, "9");
        let _ = app.update(Action::Paste("x".repeat(INPUT_LIMIT)));
        assert_eq!(app.input().value(), "9", "nothing of it goes in");
        assert!(app.status().contains("paste refused"), "{}", app.status());
        // Exactly what fits goes in.
        let _ = app.update(Action::Paste("x".repeat(INPUT_LIMIT - 1)));
        assert_eq!(app.input().value().chars().count(), INPUT_LIMIT);
    }

    #[test]
    fn typing_stops_at_the_limit() {
        let mut app = app();
        let _ = app.update(Action::Paste("1".repeat(INPUT_LIMIT)));
        typed(&mut app, "2");
        assert!(!app.input().value().contains('2'));
        assert!(app.status().contains("full"), "{}", app.status());
    }

    #[test]
    fn a_paste_of_multibyte_characters_splits_at_characters() {
        let mut app = app();
        typed(&mut app, "éé");
        let _ = app.update(Action::Edit(InputRequest::GoToPrevChar));
        let _ = app.update(Action::Paste("ü".into()));
        assert_eq!(app.input().value(), "éüé");
    }
}
