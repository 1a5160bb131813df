//! Typing on the board and in the input box: what the app does around the box's own rules
//! ([`InputBox`](crate::app::input_box::InputBox)): the keys' focus, the status line, and a file's letter that may
//! start a move typed in coordinates.

use tui_input::InputRequest;

use super::App;
use crate::app::action::{Action, Effect};
use crate::app::cursor::Cursor;
use crate::app::mode::Focus;
use crate::config::Context;

/// A file's letter pressed on the board, with what its key changed as it was done, to take back if a digit
/// follows and the letter turns out to start a square (`h6-g5`).
#[derive(Clone, Debug)]
pub(in crate::app) struct LetterPressed {
    letter: char,
    cursor: Cursor,
    flipped: bool,
    analysis_open: bool,
    focus: Focus,
    status: String,
}

impl App {
    /// The input box's actions, and the keys' moves between the board, the box and the move history.
    pub(super) fn typing_action(&mut self, action: Action) -> Vec<Effect> {
        match action {
            Action::Submit(text) => {
                self.input.set(text);
                return self.submit_input();
            }
            Action::SubmitInput => return self.submit_input(),
            Action::Edit(request) => self.edit(request),
            Action::Paste(text) => self.paste(&text),
            Action::StartTyping => self.focus = Focus::Input,
            Action::ToggleHistoryFocus => {
                self.focus = match self.focus {
                    Focus::History => Focus::Board,
                    _ => Focus::History,
                };
                if self.focus == Focus::History {
                    self.status = format!(
                        "history: arrows step through the game, Home/End, {} returns to the board",
                        self.key(Context::Board, "history", "Tab")
                    );
                }
            }
            _ => {}
        }
        Vec::new()
    }

    /// One editing request from a key. Typing into a full box is refused with a message.
    pub(super) fn edit(&mut self, request: InputRequest) {
        match self.input.edit(request) {
            Ok(()) => self.follow_input(),
            Err(refused) => self.status = refused.to_string(),
        }
    }

    /// Pasted text goes in at the cursor as if typed, without its line breaks and other control characters.
    /// Text that would overflow the box is refused whole, with a message, so that nothing is cut silently.
    pub(super) fn paste(&mut self, text: &str) {
        match self.input.paste(text) {
            Ok(true) => self.follow_input(),
            Ok(false) => {}
            Err(refused) => self.status = refused.to_string(),
        }
    }

    /// A file's letter pressed on the board: what its key does alone is done now, and the letter is kept for the
    /// next key.
    pub(super) fn file_letter(&mut self, letter: char, then: Option<Action>) -> Vec<Effect> {
        let pressed = LetterPressed {
            letter,
            cursor: self.play.cursor(),
            flipped: self.flipped,
            analysis_open: self.analysis_open(),
            focus: self.focus,
            status: self.status.clone(),
        };
        let effects = match then {
            Some(action) => self.dispatch(action),
            None => {
                self.status =
                    format!("{letter} and a digit start a move in coordinates ({letter}3-…)");
                Vec::new()
            }
        };
        self.input.press_letter(pressed);
        effects
    }

    /// A digit straight after a file's letter: what the letter's key did is taken back, and the two start a move
    /// typed in coordinates.
    pub(super) fn type_square(&mut self, pressed: LetterPressed, digit: char) -> Vec<Effect> {
        let mut effects = Vec::new();
        if self.analysis_open() != pressed.analysis_open {
            effects.extend(self.toggle_analysis());
        }
        self.play.set_cursor(pressed.cursor);
        self.flipped = pressed.flipped;
        self.focus = pressed.focus;
        self.status = pressed.status;
        self.clear_input();
        self.edit(InputRequest::InsertChar(pressed.letter));
        self.edit(InputRequest::InsertChar(digit));
        effects
    }

    /// The input box's text was refused for `reason`: it is held in the box, shown as refused, and the board gets
    /// the keys back, so that the next command key is a command and the next move typed replaces the text.
    pub(super) fn refuse_input(&mut self, reason: String) {
        self.status = reason;
        if self.input.hold() {
            self.focus = Focus::Board;
        }
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
    use crate::app::INPUT_LIMIT;
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
