//! The input box: a line of text with a length limit, the refused text it may hold, and a file's letter just
//! pressed on the board in case a digit follows.
//!
//! The limit keeps every keystroke and every paste cheap whatever arrives: editing a line of at most
//! [`INPUT_LIMIT`] characters costs next to nothing, and a paste is checked against the limit before anything
//! is copied, so a megabyte of pasted text is refused in one pass over it.

use thiserror::Error;
use tui_input::{Input, InputRequest};

use super::state::typing::LetterPressed;

/// The most characters the input box holds. The longest useful line is a position (`:fen` with 24 pieces is
/// about 100 characters, a 12x12 board's 60 pieces about 250); a file name for `:save` is shorter still.
pub const INPUT_LIMIT: usize = 1024;

/// Why the box did not take what was typed or pasted (the text already there stays as it is).
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub(super) enum InputRefused {
    /// A character typed into a full box.
    #[error("the input box is full ({INPUT_LIMIT} characters)")]
    Full,
    /// A paste that would overflow the box: refused whole, so that nothing is cut silently.
    #[error("paste refused: {size} characters is more than the input box holds ({INPUT_LIMIT})")]
    PasteTooLong {
        /// The paste's length in characters.
        size: usize,
    },
}

/// The input box's state.
#[derive(Clone, Debug, Default)]
pub(super) struct InputBox {
    text: Input,
    /// Whether the text was refused and is held: typing replaces it, other edits work on it.
    held: bool,
    /// A file's letter just pressed on the board, and what its key changed, in case a digit follows.
    letter: Option<LetterPressed>,
}

impl InputBox {
    /// The text and its cursor.
    pub(super) fn input(&self) -> &Input {
        &self.text
    }

    /// The text.
    pub(super) fn value(&self) -> &str {
        self.text.value()
    }

    /// Whether the text was refused and is held in the box.
    pub(super) fn is_held(&self) -> bool {
        self.held
    }

    /// One editing request. A character typed over held text replaces it, as over selected text.
    pub(super) fn edit(&mut self, request: InputRequest) -> Result<(), InputRefused> {
        let typed = matches!(request, InputRequest::InsertChar(_));
        if std::mem::take(&mut self.held) && typed {
            self.text.reset();
        }
        if typed && self.text.value().chars().count() >= INPUT_LIMIT {
            return Err(InputRefused::Full);
        }
        self.text.handle(request);
        Ok(())
    }

    /// Pasted text goes in at the cursor as if typed, without its line breaks and other control characters.
    /// Returns whether anything went in.
    pub(super) fn paste(&mut self, text: &str) -> Result<bool, InputRefused> {
        if std::mem::take(&mut self.held) {
            self.text.reset();
        }
        // One pass over the paste, stopping as soon as it is known to be too long: the time depends on the
        // limit, not on the size of the paste.
        let room = INPUT_LIMIT.saturating_sub(self.text.value().chars().count());
        let mut pasted = String::new();
        let mut typed = text.chars().filter(|c| !c.is_control());
        for c in typed.by_ref().take(room) {
            pasted.push(c);
        }
        if typed.next().is_some() {
            return Err(InputRefused::PasteTooLong {
                size: text.chars().count(),
            });
        }
        if pasted.is_empty() {
            return Ok(false);
        }
        let value = self.text.value();
        let cursor = self.text.cursor();
        let split = value
            .char_indices()
            .nth(cursor)
            .map_or(value.len(), |(i, _)| i);
        let joined = format!("{}{pasted}{}", &value[..split], &value[split..]);
        let cursor = cursor + pasted.chars().count();
        self.text = Input::new(joined).with_cursor(cursor);
        Ok(true)
    }

    /// Puts `text` in the box, as if typed.
    pub(super) fn set(&mut self, text: String) {
        self.text = Input::new(text);
    }

    /// Empties the box, refused text included.
    pub(super) fn clear(&mut self) {
        self.held = false;
        self.text.reset();
    }

    /// Holds the text as refused, when there is any; whether there was.
    pub(super) fn hold(&mut self) -> bool {
        self.held = !self.text.value().is_empty();
        self.held
    }

    /// Remembers a file's letter just pressed on the board.
    pub(super) fn press_letter(&mut self, pressed: LetterPressed) {
        self.letter = Some(pressed);
    }

    /// The file's letter pressed just before, if the last key was one (it waits for one key only).
    pub(super) fn take_letter(&mut self) -> Option<LetterPressed> {
        self.letter.take()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_box_refuses_one_more_character_and_keeps_its_text() {
        let mut input = InputBox::default();
        assert_eq!(input.paste(&"1".repeat(INPUT_LIMIT)), Ok(true));
        assert_eq!(
            input.edit(InputRequest::InsertChar('2')),
            Err(InputRefused::Full)
        );
        assert_eq!(input.value().len(), INPUT_LIMIT);
        // Editing that does not add a character still works.
        assert_eq!(input.edit(InputRequest::DeletePrevChar), Ok(()));
        assert_eq!(input.value().len(), INPUT_LIMIT - 1);
    }

    #[test]
    fn a_paste_too_long_is_refused_whole_and_control_characters_are_dropped() {
        let mut input = InputBox::default();
        input.set("11-".into());
        assert_eq!(
            input.paste(&"x".repeat(INPUT_LIMIT)),
            Err(InputRefused::PasteTooLong { size: INPUT_LIMIT })
        );
        assert_eq!(input.value(), "11-");
        assert_eq!(input.paste("1\r\n5\u{1b}"), Ok(true));
        assert_eq!(input.value(), "11-15");
        assert_eq!(input.paste("\n"), Ok(false));
    }

    #[test]
    fn held_text_is_replaced_by_typing_and_edited_by_other_requests() {
        let mut input = InputBox::default();
        input.set("11-16".into());
        assert!(input.hold());
        input.edit(InputRequest::DeletePrevChar).expect("room");
        assert_eq!(input.value(), "11-1");
        assert!(!input.is_held());
        assert!(input.hold());
        input.edit(InputRequest::InsertChar('9')).expect("room");
        assert_eq!(input.value(), "9");
        input.clear();
        assert!(!input.hold(), "an empty box holds nothing");
    }
}
