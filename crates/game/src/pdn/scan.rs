//! Walking through PDN text character by character, knowing the line and column for messages.

/// A syntax error before it is tied to its game.
pub(super) struct Failure {
    pub(super) line: usize,
    pub(super) column: usize,
    pub(super) message: String,
}

/// A place in the text, for errors.
#[derive(Clone, Copy)]
pub(super) struct Mark {
    pub(super) line: usize,
    pub(super) column: usize,
}

impl Mark {
    pub(super) fn fail(self, message: impl Into<String>) -> Failure {
        Failure {
            line: self.line,
            column: self.column,
            message: message.into(),
        }
    }
}

pub(super) struct Scanner<'a> {
    pub(super) text: &'a str,
    pub(super) pos: usize,
    pub(super) line: usize,
    pub(super) column: usize,
}

impl<'a> Scanner<'a> {
    /// A scanner at the start of `text`, which starts at line `line`, column `column` of its file. The column
    /// matters beyond messages: only a `%` in the first column starts an escape line.
    pub(super) fn new(text: &'a str, line: usize, column: usize) -> Self {
        Scanner {
            text,
            pos: 0,
            line,
            column,
        }
    }

    pub(super) fn peek(&self) -> Option<char> {
        self.text[self.pos..].chars().next()
    }

    pub(super) fn mark(&self) -> Mark {
        Mark {
            line: self.line,
            column: self.column,
        }
    }

    pub(super) fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += c.len_utf8();
        advance(&mut self.line, &mut self.column, c);
        Some(c)
    }

    pub(super) fn take_while(&mut self, keep: impl Fn(char) -> bool) -> &'a str {
        let start = self.pos;
        while self.peek().is_some_and(&keep) {
            self.bump();
        }
        &self.text[start..self.pos]
    }

    /// Skips white space and `%` line comments (a `%` that starts a line hides the rest of it).
    pub(super) fn skip_blanks(&mut self) {
        loop {
            match self.peek() {
                Some(c) if c.is_whitespace() => {
                    self.bump();
                }
                Some('%') if self.column == 1 => {
                    self.take_while(|c| c != '\n');
                }
                _ => return,
            }
        }
    }

    /// After an error: moves to the next line that opens a tag section (a line starting with `[` that does not
    /// follow another tag line), or to the end.
    pub(super) fn skip_to_next_game(&mut self) {
        let mut previous_was_tag = self.text[..self.pos]
            .rsplit('\n')
            .next()
            .is_some_and(|l| l.trim_start().starts_with('['));
        loop {
            self.take_while(|c| c != '\n');
            if self.bump().is_none() {
                return;
            }
            let rest = &self.text[self.pos..];
            let line = rest.split('\n').next().unwrap_or("");
            let is_tag = line.trim_start().starts_with('[');
            if is_tag && !previous_was_tag {
                return;
            }
            previous_was_tag = is_tag;
        }
    }
}

/// Moves a line and column past `c`: a line end starts the next line; a carriage return is part of a CRLF line
/// end, not a column.
pub(super) fn advance(line: &mut usize, column: &mut usize, c: char) {
    match c {
        '\n' => {
            *line += 1;
            *column = 1;
        }
        '\r' => {}
        _ => *column += 1,
    }
}
