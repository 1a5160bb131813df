//! Cutting PDN text into pieces of whole games without parsing it, so that a file can be read one game at a
//! time from a stream.
//!
//! A light lexer follows the text character by character, knowing only what it takes to see where a game
//! ends: comments (`{...}` and `;` to the end of the line), tag pairs, `%` escape lines, how deep in
//! variations the text is, and the words of move text. A new piece starts:
//!
//! - at the first thing that is not blank after a result token (`1-0`, `0-1`, `1/2-1/2`, `*`, `2-0`, `0-2`,
//!   `1-1`: the parser's own list) standing as a whole word of move text outside any variation, where the
//!   parser ends the game too. This may be in the middle of a line (`11-15 23-19 1-0 9-14 22-17 0-1` is two
//!   pieces), so a piece knows the column it starts at as well as its line;
//! - at a `[` in move text when move text (a comment counts) has come since the last cut: the next game's tags
//!   start there, and the parser ends the game before them.
//!
//! The blanks after a game stay with it. A result inside a comment, a tag value or a variation, or one that is
//! only part of a longer word (`11-0`, `1-01`, `a1-0`, a remark glued to a move), cuts nothing: wherever the
//! lexer cuts, the parser ends a game, so the pieces read as the whole text does. (Only after a syntax error
//! may they differ: the parser then skips to the next tag line, but never past the end of its piece, so
//! reading starts again at the next game's end.)
//!
//! Each piece is then parsed on its own. A file of games that all end with a result or start with tags is read
//! in memory proportional to its largest game, however it is laid out: [`PdnPieces`] reads the stream in chunks
//! of a line or at most [`CHUNK_BYTES`], so even one enormous line of many games is never held whole, and a
//! piece that grows past [`MAX_PIECE_BYTES`] without its game ending is let go as it is read and stands for one
//! game that cannot be read.

use std::io::{self, BufRead};

/// Result tokens that end a game's move text: the splitter cuts files into games after them, and the parser
/// reads them as results.
pub(super) const RESULTS: [&str; 7] = ["1-0", "0-1", "1/2-1/2", "*", "2-0", "0-2", "1-1"];

/// How much of a line [`PdnPieces`] reads at once; a longer line is read in parts.
pub const CHUNK_BYTES: usize = 64 * 1024;

/// How long a piece may grow before its game has ended: far more than any real game (a long annotated game is
/// tens of kilobytes), little enough that holding and parsing it costs little.
pub const MAX_PIECE_BYTES: usize = 1024 * 1024;

/// The longest result token, `1/2-1/2`.
const LONGEST_RESULT: usize = 7;

/// Where the lexer stands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum State {
    /// Between the words of move text, or in blanks.
    #[default]
    Gap,
    /// In a word of move text: a move, a move number or a result. A word that starts with a digit goes on with
    /// digits and `-x:/` (the parser's rule, which makes `1/2-1/2` one word), one that starts with a letter with
    /// letters, digits and `-:`.
    Word { digits: bool },
    /// In a remark glued to a move (`8-11Redoverstepped.`), which runs to white space or a bracket.
    Remark,
    /// In the number of a `$` glyph.
    Glyph,
    /// Inside `{...}`.
    Comment,
    /// In a `;` comment or a `%` escape line, both of which run to the end of the line.
    ToLineEnd,
    /// Inside `[...]`, outside its quoted value.
    Tag,
    /// Inside a tag's quoted value.
    Value,
    /// Just after a backslash in a tag's value.
    Escape,
}

/// Decides, character by character, where a new piece starts.
#[derive(Debug)]
pub(super) struct Splitter {
    state: State,
    /// Move text (anything but tags, blanks and `%` lines) has come since the last cut.
    moves_seen: bool,
    /// A result has ended the game: the next thing that is not blank starts a new piece.
    ended: bool,
    /// How many variations are open.
    depth: usize,
    /// The word being read, as far as it could still be a result; `word_len` goes past the buffer for a word
    /// too long to be one.
    word: [u8; LONGEST_RESULT],
    word_len: usize,
    /// The line and column of the next character, counted as the parser counts them.
    line: usize,
    column: usize,
}

impl Default for Splitter {
    fn default() -> Self {
        Splitter {
            state: State::Gap,
            moves_seen: false,
            ended: false,
            depth: 0,
            word: [0; LONGEST_RESULT],
            word_len: 0,
            line: 1,
            column: 1,
        }
    }
}

impl Splitter {
    /// Reads `text`, which follows what was read before, up to where a new piece starts: returns that offset
    /// (the character there is not read yet, and is the first one of the next call), or `None` when all of
    /// `text` belongs to the current piece. A piece is never empty: no cut comes before the piece's first
    /// character.
    pub(super) fn next_cut(&mut self, text: &str) -> Option<usize> {
        for (at, c) in text.char_indices() {
            self.end_word(c);
            if self.cuts_before(c) {
                self.moves_seen = false;
                self.ended = false;
                self.depth = 0;
                return Some(at);
            }
            self.take(c);
        }
        None
    }

    /// The line and column of the next character: where a piece starts after a cut.
    pub(super) fn position(&self) -> (usize, usize) {
        (self.line, self.column)
    }

    /// Ends the word, remark or glyph number being read if `c` cannot go on with it; a word that ends as a
    /// result outside any variation ends the game.
    fn end_word(&mut self, c: char) {
        match self.state {
            State::Word { digits } => {
                let goes_on = if digits {
                    c.is_ascii_digit() || matches!(c, '-' | 'x' | 'X' | ':' | '/')
                } else {
                    c.is_ascii_alphanumeric() || matches!(c, '-' | ':')
                };
                if goes_on {
                    return;
                }
                let word = self.word.get(..self.word_len).unwrap_or_default();
                self.state =
                    if digits && self.depth == 0 && RESULTS.iter().any(|r| r.as_bytes() == word) {
                        self.ended = true;
                        State::Gap
                    } else if c.is_alphabetic() {
                        // The parser keeps letters glued to a move as a remark, up to white space or a bracket.
                        State::Remark
                    } else {
                        State::Gap
                    };
            }
            State::Remark if c.is_whitespace() || "{}()[]".contains(c) => self.state = State::Gap,
            State::Glyph if !c.is_ascii_digit() => self.state = State::Gap,
            _ => {}
        }
    }

    /// Whether a new piece starts with `c`, read between words: at the first thing after a result that is not
    /// blank, or at the tags of a game that ended without one.
    fn cuts_before(&self, c: char) -> bool {
        self.state == State::Gap
            && !c.is_whitespace()
            && !self.starts_escape_line(c)
            && (self.ended || (c == '[' && self.moves_seen))
    }

    /// A `%` in the first column hides the rest of its line, as the parser reads it.
    fn starts_escape_line(&self, c: char) -> bool {
        c == '%' && self.column == 1
    }

    /// Reads `c`.
    fn take(&mut self, c: char) {
        self.state = match (self.state, c) {
            (State::Gap, c) if c.is_whitespace() => State::Gap,
            (State::Gap, c) if self.starts_escape_line(c) => State::ToLineEnd,
            (State::Gap, '[') => State::Tag,
            (State::Gap, c) => {
                self.moves_seen = true;
                self.start_token(c)
            }
            (State::Word { digits }, c) => {
                if let Some(slot) = self.word.get_mut(self.word_len) {
                    // Word characters are ASCII.
                    *slot = c as u8;
                }
                self.word_len = self.word_len.saturating_add(1);
                State::Word { digits }
            }
            (State::Remark | State::Glyph, _) => self.state,
            (State::Comment, '}') => State::Gap,
            (State::Comment, _) => State::Comment,
            (State::ToLineEnd, '\n') => State::Gap,
            (State::ToLineEnd, _) => State::ToLineEnd,
            // A tag ends at its line's end, whether it was closed or is an error.
            (State::Tag | State::Value | State::Escape, '\n') => State::Gap,
            (State::Tag, '"') => State::Value,
            (State::Tag, ']') => State::Gap,
            (State::Tag, _) => State::Tag,
            (State::Value, '\\') => State::Escape,
            (State::Value, '"') => State::Tag,
            (State::Value | State::Escape, _) => State::Value,
        };
        super::scan::advance(&mut self.line, &mut self.column, c);
    }

    /// The state after `c`, read between words of move text.
    fn start_token(&mut self, c: char) -> State {
        match c {
            '{' => State::Comment,
            ';' => State::ToLineEnd,
            '(' => {
                self.depth = self.depth.saturating_add(1);
                State::Gap
            }
            ')' => {
                self.depth = self.depth.saturating_sub(1);
                State::Gap
            }
            '*' => {
                // A result on its own, even glued to a move (`11-15*`), as the parser reads it.
                self.ended = self.depth == 0;
                State::Gap
            }
            '$' => State::Glyph,
            c if c.is_ascii_alphanumeric() => {
                self.word[0] = c as u8;
                self.word_len = 1;
                State::Word {
                    digits: c.is_ascii_digit(),
                }
            }
            // Move number dots, `…`, `!?` marks, and anything the parser will refuse.
            _ => State::Gap,
        }
    }
}

/// A piece of PDN text holding whole games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PdnPiece<T> {
    /// The text.
    pub text: T,
    /// The 1-based line of the file where it starts.
    pub line: usize,
    /// The 1-based column where it starts, in characters: 1 unless a game ended earlier on its line.
    pub column: usize,
    /// How many bytes of the file have been read once this piece is complete.
    pub bytes_read: u64,
    /// The piece went on past [`MAX_PIECE_BYTES`] without its game ending, so its text was let go as it was read
    /// and `text` is empty: it stands for one game that cannot be read.
    pub too_long: bool,
}

/// The pieces of a text, borrowed from it. A byte-order mark at the start is left out. The text is already in
/// memory, so no piece is too long here.
pub(super) fn pieces_of_str(text: &str) -> impl Iterator<Item = PdnPiece<&str>> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut splitter = Splitter::default();
    let (mut start, mut line, mut column) = (0, 1, 1);
    std::iter::from_fn(move || {
        if start == text.len() {
            return None;
        }
        let end = splitter
            .next_cut(&text[start..])
            .map_or(text.len(), |cut| start + cut);
        let piece = PdnPiece {
            text: &text[start..end],
            line,
            column,
            bytes_read: end as u64,
            too_long: false,
        };
        (line, column) = splitter.position();
        start = end;
        Some(piece)
    })
}

/// The pieces of a PDN stream, read a line (or [`CHUNK_BYTES`] of it) at a time: only one piece and one chunk
/// are held at once. Bytes that are not UTF-8 become replacement characters (old archives are often Latin-1),
/// as `String::from_utf8_lossy` makes them.
pub struct PdnPieces<R> {
    reader: R,
    splitter: Splitter,
    /// The most a chunk holds.
    chunk_limit: usize,
    /// The piece being gathered, where it starts, and whether it grew too long to keep.
    text: String,
    line: usize,
    column: usize,
    too_long: bool,
    /// The bytes of the last chunk read: the first `decoded` of them are decoded into `chunk`, the rest are the
    /// start of a character the chunk limit cut in two, kept for the next chunk.
    raw: Vec<u8>,
    decoded: usize,
    chunk: String,
    /// The end of each replacement character in `chunk`, with the end of the bytes it replaces in `raw`: the
    /// only places where offsets in the two differ.
    replaced: Vec<(usize, usize)>,
    /// How much of `chunk` has gone into pieces.
    taken: usize,
    /// Bytes of the stream before `raw`, and read so far.
    before_chunk: u64,
    bytes_read: u64,
    done: bool,
}

impl<R: BufRead> PdnPieces<R> {
    /// Pieces read from `reader`.
    pub fn new(reader: R) -> Self {
        Self::with_chunk_limit(reader, CHUNK_BYTES)
    }

    /// Pieces read in chunks of at most `limit` bytes (at least 4, so that a chunk can hold any character).
    fn with_chunk_limit(reader: R, limit: usize) -> Self {
        PdnPieces {
            reader,
            splitter: Splitter::default(),
            chunk_limit: limit.max(4),
            text: String::new(),
            line: 1,
            column: 1,
            too_long: false,
            raw: Vec::new(),
            decoded: 0,
            chunk: String::new(),
            replaced: Vec::new(),
            taken: 0,
            before_chunk: 0,
            bytes_read: 0,
            done: false,
        }
    }

    /// How many bytes have been read so far.
    pub fn bytes_read(&self) -> u64 {
        self.bytes_read
    }

    /// Reads the next chunk; false at the end of the stream.
    fn refill(&mut self) -> io::Result<bool> {
        self.raw.drain(..self.decoded);
        self.before_chunk += self.decoded as u64;
        let read = read_chunk(&mut self.reader, &mut self.raw, self.chunk_limit)?;
        self.bytes_read += read as u64;
        if self.raw.is_empty() {
            return Ok(false);
        }
        if self.before_chunk == 0 && self.raw.starts_with(BYTE_ORDER_MARK) {
            self.raw.drain(..BYTE_ORDER_MARK.len());
            self.before_chunk = BYTE_ORDER_MARK.len() as u64;
        }
        self.decoded = if read == 0 || self.raw.ends_with(b"\n") {
            self.raw.len()
        } else {
            complete_prefix(&self.raw)
        };
        self.chunk.clear();
        self.replaced.clear();
        let mut raw_end = 0;
        for part in self.raw[..self.decoded].utf8_chunks() {
            self.chunk.push_str(part.valid());
            raw_end += part.valid().len() + part.invalid().len();
            // One replacement character for each bad sequence, as `String::from_utf8_lossy` makes them.
            if !part.invalid().is_empty() {
                self.chunk.push(char::REPLACEMENT_CHARACTER);
                self.replaced.push((self.chunk.len(), raw_end));
            }
        }
        self.taken = 0;
        Ok(true)
    }

    /// How many bytes of the stream come before offset `at` of the chunk.
    fn stream_offset(&self, at: usize) -> u64 {
        // A cut is never inside a replacement character: past the last one before it, bytes are the same.
        let (chunk_at, raw_at) = match self.replaced.partition_point(|&(end, _)| end <= at) {
            0 => (0, 0),
            n => self.replaced[n - 1],
        };
        self.before_chunk + (raw_at + at - chunk_at) as u64
    }

    /// Adds `chunk[from..to]` to the piece, or lets it go if the piece has grown too long.
    fn keep(&mut self, from: usize, to: usize) {
        if self.too_long {
            return;
        }
        if self.text.len() + (to - from) > MAX_PIECE_BYTES {
            self.too_long = true;
            self.text = String::new();
            return;
        }
        self.text.push_str(&self.chunk[from..to]);
    }

    /// The piece gathered so far, complete once `bytes_read` bytes of the stream are read; the next one starts
    /// where the splitter stands.
    fn complete(&mut self, bytes_read: u64) -> PdnPiece<String> {
        let piece = PdnPiece {
            text: std::mem::take(&mut self.text),
            line: self.line,
            column: self.column,
            bytes_read,
            too_long: std::mem::take(&mut self.too_long),
        };
        (self.line, self.column) = self.splitter.position();
        piece
    }
}

impl<R: BufRead> Iterator for PdnPieces<R> {
    type Item = io::Result<PdnPiece<String>>;

    fn next(&mut self) -> Option<Self::Item> {
        while !self.done {
            if self.taken == self.chunk.len() {
                match self.refill() {
                    Ok(true) => continue,
                    Ok(false) => {
                        self.done = true;
                        let any = !self.text.is_empty() || self.too_long;
                        return any.then(|| Ok(self.complete(self.bytes_read)));
                    }
                    Err(e) => {
                        self.done = true;
                        return Some(Err(e));
                    }
                }
            }
            let from = self.taken;
            let cut = self.splitter.next_cut(&self.chunk[from..]);
            self.taken = cut.map_or(self.chunk.len(), |cut| from + cut);
            self.keep(from, self.taken);
            if cut.is_some() {
                return Some(Ok(self.complete(self.stream_offset(self.taken))));
            }
        }
        None
    }
}

/// The UTF-8 byte-order mark.
const BYTE_ORDER_MARK: &[u8] = b"\xef\xbb\xbf";

/// Appends to `buf` the bytes up to the next line end (included), the end of the stream, or until `buf` holds
/// `limit` bytes; returns how many were read, 0 at the end of the stream.
fn read_chunk<R: BufRead>(reader: &mut R, buf: &mut Vec<u8>, limit: usize) -> io::Result<usize> {
    let mut read = 0;
    while buf.len() < limit {
        let available = match reader.fill_buf() {
            Ok(available) => available,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            break;
        }
        let room = &available[..available.len().min(limit - buf.len())];
        let (n, line_end) = match room.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (room.len(), false),
        };
        buf.extend_from_slice(&room[..n]);
        reader.consume(n);
        read += n;
        if line_end {
            break;
        }
    }
    Ok(read)
}

/// How much of `bytes` ends on a character boundary: all of it, unless it ends with the start of a character
/// whose other bytes have not come yet. (Bytes that cannot be UTF-8 count as whole: they become replacement
/// characters wherever the chunk ends.)
fn complete_prefix(bytes: &[u8]) -> usize {
    for back in 1..=bytes.len().min(3) {
        let b = bytes[bytes.len() - back];
        if b & 0xc0 == 0x80 {
            // A continuation byte: its character started further back.
            continue;
        }
        let needs = match b {
            0xc0..=0xdf => 2,
            0xe0..=0xef => 3,
            0xf0..=0xf7 => 4,
            _ => 1,
        };
        return if needs > back {
            bytes.len() - back
        } else {
            bytes.len()
        };
    }
    bytes.len()
}

#[cfg(test)]
#[path = "split_tests.rs"]
mod tests;
