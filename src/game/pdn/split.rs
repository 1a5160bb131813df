//! Cutting PDN text into pieces of whole games without parsing it, so that a file can be read one game at a
//! time from a stream.
//!
//! A new piece starts at a line whose first character (after white space) is `[`, when move text (anything
//! that is not a tag, a blank or a `%` line) has come since the last cut or the last tag, and the line is not
//! inside a comment.
//! Tag pairs never span lines and a comment is the only thing that does, so such a line always starts a new
//! game's tags. Each piece is then parsed on its own; a syntax error can never swallow the games after it.

use std::borrow::Cow;
use std::io::{self, BufRead};

/// Where the lexer stands at the end of a line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum State {
    /// Move text or blanks.
    #[default]
    Text,
    /// Inside `{...}`.
    Comment,
    /// Inside `[...]`, outside its quoted value.
    Tag,
    /// Inside a tag's quoted value.
    Value,
    /// Just after a backslash in a tag's value.
    Escape,
}

/// Decides, line by line, where a new game starts.
#[derive(Debug, Default)]
pub(super) struct Splitter {
    state: State,
    moves_seen: bool,
}

impl Splitter {
    /// Takes the next line, its line end included; returns whether a new piece starts with it.
    pub(super) fn starts_piece(&mut self, line: &str) -> bool {
        let cut =
            self.state == State::Text && self.moves_seen && line.trim_start().starts_with('[');
        if cut {
            self.moves_seen = false;
        }
        if self.state == State::Text && line.starts_with('%') {
            // An escape line: the reader skips it whole.
            return cut;
        }
        for c in line.chars() {
            self.state = match (self.state, c) {
                (State::Text, '{') => {
                    self.moves_seen = true;
                    State::Comment
                }
                // Tags after move text on the same line (`0-1 [Event "..."]`) start the next game there; its
                // tag section goes on over the next lines, which must stay in this piece.
                (State::Text, '[') => {
                    self.moves_seen = false;
                    State::Tag
                }
                (State::Text, c) => {
                    if !c.is_whitespace() {
                        self.moves_seen = true;
                    }
                    State::Text
                }
                (State::Comment, '}') => State::Text,
                (State::Comment, _) => State::Comment,
                // A tag ends at its line's end, whether it was closed or is an error.
                (State::Tag | State::Value | State::Escape, '\n') => State::Text,
                (State::Tag, '"') => State::Value,
                (State::Tag, ']') => State::Text,
                (State::Tag, _) => State::Tag,
                (State::Value, '\\') => State::Escape,
                (State::Value, '"') => State::Tag,
                (State::Value | State::Escape, _) => State::Value,
            };
        }
        cut
    }
}

/// A piece of PDN text holding whole games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Piece<T> {
    /// The text.
    pub text: T,
    /// The 1-based line of the file where it starts.
    pub line: usize,
    /// How many bytes of the file have been read once this piece is complete.
    pub bytes_read: u64,
}

/// The pieces of a text, borrowed from it. A byte-order mark at the start is left out.
pub(super) fn pieces_of_str(text: &str) -> impl Iterator<Item = Piece<&str>> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut splitter = Splitter::default();
    let mut lines = text.split_inclusive('\n');
    let (mut start, mut end, mut line, mut next_line) = (0, 0, 1, 1);
    std::iter::from_fn(move || {
        loop {
            let Some(current) = lines.next() else {
                if start == end {
                    return None;
                }
                let piece = Piece {
                    text: &text[start..end],
                    line,
                    bytes_read: end as u64,
                };
                start = end;
                return Some(piece);
            };
            let cut = splitter.starts_piece(current) && start < end;
            let piece = cut.then(|| Piece {
                text: &text[start..end],
                line,
                bytes_read: end as u64,
            });
            if cut {
                start = end;
                line = next_line;
            }
            end += current.len();
            next_line += 1;
            if piece.is_some() {
                return piece;
            }
        }
    })
}

/// The pieces of a PDN stream, read line by line: only one piece is held at a time. Bytes that are not UTF-8
/// become replacement characters (old archives are often Latin-1), as `String::from_utf8_lossy` makes them.
pub struct Pieces<R> {
    reader: R,
    splitter: Splitter,
    /// The piece being gathered.
    text: String,
    /// The line where it starts, and the line the next line read is.
    line: usize,
    next_line: usize,
    bytes: Vec<u8>,
    bytes_read: u64,
    done: bool,
}

impl<R: BufRead> Pieces<R> {
    /// Pieces read from `reader`.
    pub fn new(reader: R) -> Self {
        Pieces {
            reader,
            splitter: Splitter::default(),
            text: String::new(),
            line: 1,
            next_line: 1,
            bytes: Vec::new(),
            bytes_read: 0,
            done: false,
        }
    }

    /// How many bytes have been read so far.
    pub fn bytes_read(&self) -> u64 {
        self.bytes_read
    }

    fn finish(&mut self) -> Option<Piece<String>> {
        self.done = true;
        (!self.text.is_empty()).then(|| Piece {
            text: std::mem::take(&mut self.text),
            line: self.line,
            bytes_read: self.bytes_read,
        })
    }
}

impl<R: BufRead> Iterator for Pieces<R> {
    type Item = io::Result<Piece<String>>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        loop {
            self.bytes.clear();
            let read = match self.reader.read_until(b'\n', &mut self.bytes) {
                Ok(read) => read,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    self.done = true;
                    return Some(Err(e));
                }
            };
            if read == 0 {
                return self.finish().map(Ok);
            }
            let before = self.bytes_read;
            self.bytes_read += read as u64;
            // A line end is never inside a multi-byte character, so decoding line by line gives what decoding
            // the whole file would.
            let decoded = String::from_utf8_lossy(&self.bytes);
            let line: Cow<str> = match decoded.strip_prefix('\u{feff}') {
                Some(rest) if self.next_line == 1 => Cow::Owned(rest.to_string()),
                _ => decoded,
            };
            let cut = self.splitter.starts_piece(&line) && !self.text.is_empty();
            let this_line = self.next_line;
            self.next_line += 1;
            if cut {
                let piece = Piece {
                    text: std::mem::replace(&mut self.text, line.into_owned()),
                    line: self.line,
                    bytes_read: before,
                };
                self.line = this_line;
                return Some(Ok(piece));
            }
            self.text.push_str(&line);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(text: &str) -> Vec<(String, usize)> {
        let from_str: Vec<_> = pieces_of_str(text)
            .map(|p| (p.text.to_string(), p.line))
            .collect();
        let streamed: Vec<_> = Pieces::new(text.as_bytes())
            .map(|p| p.map(|p| (p.text, p.line)).expect("reads"))
            .collect();
        assert_eq!(from_str, streamed, "both ways cut alike");
        from_str
    }

    #[test]
    fn games_are_cut_where_their_tags_start() {
        let text = "[Event \"1\"]\n[Site \"s\"]\n1. 11-15 *\n\n[Event \"2\"]\n1. 9-13 1-0\n";
        assert_eq!(
            split(text),
            [
                ("[Event \"1\"]\n[Site \"s\"]\n1. 11-15 *\n\n".to_string(), 1),
                ("[Event \"2\"]\n1. 9-13 1-0\n".to_string(), 5)
            ]
        );
    }

    #[test]
    fn no_cut_inside_comments_tag_values_or_escape_lines() {
        for text in [
            "1. 11-15 {a comment\n[Event \"not a tag\"]\n} *\n",
            "1. 11-15 *\n%[Event \"hidden\"]\n",
            "[Event \"x\"]\n\n[Site \"y\"]\n1. 11-15 *\n",
            "[Event \"{\"]\n[Site \"y\"]\n1. 11-15 *\n",
            "[Event \"a\\\"{\"]\n[Site \"y\"]\n1. 11-15 *\n",
        ] {
            assert_eq!(split(text).len(), 1, "{text}");
        }
        // A game whose tags start on the line its previous game ends keeps its other tags.
        assert_eq!(
            split("1. 11-15 0-1 [Event \"b\"]\n[Date \"d\"]\n1. 9-13 *\n[Event \"c\"]\n*\n").len(),
            2
        );
        // A tag's line end closes it even when the tag is broken.
        assert_eq!(split("[Event \"x\n1. 11-15 *\n[Event \"y\"]\n*\n").len(), 2);
    }

    #[test]
    fn byte_order_marks_and_bad_bytes() {
        assert_eq!(
            split("\u{feff}[Event \"1\"]\n*\n"),
            [("[Event \"1\"]\n*\n".to_string(), 1)]
        );
        let bytes = b"[Event \"caf\xe9\"]\n1. 11-15 *\n[Event \"b\"]\n*";
        let pieces: Vec<_> = Pieces::new(&bytes[..]).map(|p| p.expect("reads")).collect();
        assert_eq!(pieces.len(), 2);
        assert_eq!(pieces[0].text, "[Event \"caf\u{fffd}\"]\n1. 11-15 *\n");
        assert_eq!(pieces[0].bytes_read, 26);
        assert_eq!(pieces[1].bytes_read, bytes.len() as u64);
        assert!(split("").is_empty());
    }
}
