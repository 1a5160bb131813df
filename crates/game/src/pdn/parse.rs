//! The syntax of PDN files: games, tag pairs, move text, comments, variations and results.
//!
//! This layer knows nothing of the rules: it splits a file into games and each game into tags, main-line moves
//! (as text, with where they stand in the file) and a result. Replaying the moves is the next step. Reading is
//! forgiving of what real files do (move numbers with or without spaces or leading zeros, `1...` and `1. ...`,
//! CRLF, `%` line comments, a missing result at the end of a file) and strict about what makes no sense (a
//! comment inside a comment, a stray `.`, an unknown result).

use std::fmt;

use thiserror::Error;

use super::scan::{Failure, Mark, Scanner};
use super::split::{MAX_PIECE_BYTES, PdnPiece, RESULTS, pieces_of_str};
use crate::tags::Tags;
use crowned_rules::{clipped, quoted};

/// A syntax error, with the game it belongs to and where it is.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("game {game}{}: line {line}, column {column}: {message}", describe(.event))]
pub struct PdnError {
    /// 1-based index of the game in the file.
    pub game: usize,
    /// The game's `Event` tag, if it was read before the error.
    pub event: Option<String>,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
    /// What was expected and what was found.
    pub message: String,
}

fn describe(event: &Option<String>) -> String {
    match event {
        Some(e) => format!(" {}", quoted(e)),
        None => String::new(),
    }
}

/// A main-line move as written, with where it stands and what follows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveToken {
    /// The move as written, such as `22x15` or `c3-d4`.
    pub text: String,
    /// 1-based line of the move.
    pub line: usize,
    /// 1-based column of the move.
    pub column: usize,
    /// The comment after the move, if any (several are joined with a space).
    pub comment: Option<String>,
    /// Move strengths (`!?`) and numeric annotation glyphs (`$3`) given after the move.
    pub annotations: Vec<String>,
}

impl MoveToken {
    /// The move's mark: the first annotation that marks a move (`!?`, `$5`); NAGs about positions are not kept.
    pub fn mark(&self) -> Option<crate::marks::MoveMark> {
        self.annotations
            .iter()
            .find_map(|a| crate::marks::MoveMark::from_annotation(a))
    }
}

/// One game as written: its tags, its main line and its result token.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct GameText {
    /// 1-based index of the game in the file.
    pub index: usize,
    /// 1-based line where the game starts.
    pub line: usize,
    /// The tag pairs.
    pub tags: Tags,
    /// A comment before the first move.
    pub intro: Option<String>,
    /// The main-line moves; variations are checked and left out.
    pub moves: Vec<MoveToken>,
    /// The result that ends the move text (`1-0`, `0-1`, `1/2-1/2`, `*`, `2-0`, `0-2`, `1-1`), if there is one.
    pub result: Option<String>,
}

impl GameText {
    /// The `Event` tag, or an empty string.
    pub fn event(&self) -> &str {
        self.tags.get("Event").unwrap_or("")
    }
}

/// How deep variations may nest; deeper is refused rather than risking the reader's stack.
const MAX_VARIATION_DEPTH: usize = 64;

/// Values the `Result` tag may have: a result, or unknown.
fn is_result_tag_value(value: &str) -> bool {
    RESULTS.contains(&value) || value.is_empty() || value == "?"
}

/// Splits PDN text into games. A game with a syntax error is an `Err` naming where; reading goes on with the
/// next game.
pub fn parse_games(text: &str) -> Vec<Result<GameText, PdnError>> {
    let mut games = Vec::new();
    for piece in pieces_of_str(text) {
        let first = games.len() + 1;
        games.extend(piece.games(first));
    }
    games
}

/// Parses a piece of a file that starts at line `line`, column `column` (a piece may start where a game ended
/// in the middle of a line), and whose first game is game `first` of the file (see [`PdnPieces`](super::PdnPieces)
/// for reading a file piece by piece).
pub fn parse_piece(
    text: &str,
    line: usize,
    column: usize,
    first: usize,
) -> Vec<Result<GameText, PdnError>> {
    let mut scanner = Scanner::new(text, line, column);
    let mut games = Vec::new();
    loop {
        scanner.skip_blanks();
        if scanner.peek().is_none() {
            break;
        }
        let index = first + games.len();
        let mut game = GameText {
            index,
            line: scanner.line,
            ..GameText::default()
        };
        let mut tags = Vec::new();
        let body = game_body(&mut scanner, &mut game, &mut tags);
        // Gathered first and made into tags once: setting them one by one would search the list each time.
        game.tags = tags.into_iter().collect();
        match body {
            Ok(()) => games.push(Ok(game)),
            Err(failure) => {
                games.push(Err(PdnError {
                    game: index,
                    event: game.tags.get("Event").map(str::to_string),
                    line: failure.line,
                    column: failure.column,
                    message: failure.message,
                }));
                scanner.skip_to_next_game();
            }
        }
    }
    games
}

fn game_body(
    s: &mut Scanner,
    game: &mut GameText,
    tags: &mut Vec<(String, String)>,
) -> Result<(), Failure> {
    loop {
        s.skip_blanks();
        if s.peek() != Some('[') {
            break;
        }
        tags.push(tag(s)?);
    }
    game.result = elements(s, game, None, 0)?;
    Ok(())
}

/// Reads one `[Name "value"]` pair.
fn tag(s: &mut Scanner) -> Result<(String, String), Failure> {
    let open = s.mark();
    s.bump();
    s.take_while(|c| c == ' ' || c == '\t');
    let name_at = s.mark();
    let name = s
        .take_while(|c| c.is_ascii_alphanumeric() || c == '_')
        .to_string();
    if name.is_empty() {
        return Err(name_at.fail(format!(
            "expected a tag name after '[', found {}",
            found(s.peek())
        )));
    }
    s.take_while(|c| c == ' ' || c == '\t');
    let value_at = s.mark();
    if s.peek() != Some('"') {
        return Err(value_at.fail(format!(
            "expected the quoted value of tag {}, found {}",
            clipped(&name),
            found(s.peek())
        )));
    }
    s.bump();
    let mut value = String::new();
    let never_ends = |at: Mark, why: &str| {
        at.fail(format!(
            "the value of tag {} never ends{why}",
            clipped(&name)
        ))
    };
    loop {
        match s.bump() {
            Some('"') => break,
            // PDN escapes only a quote and a backslash; any other backslash is kept as written (real files
            // have paths like `C:\games`). A value cannot go on past its line, even after a backslash: no
            // writer could give such a value back.
            Some('\\') => match s.peek() {
                Some(c @ ('"' | '\\')) => {
                    s.bump();
                    value.push(c);
                }
                Some('\n' | '\r') => {
                    return Err(never_ends(
                        value_at,
                        ": a backslash cannot carry it on to the next line",
                    ));
                }
                None => return Err(never_ends(value_at, "")),
                Some(_) => value.push('\\'),
            },
            Some('\n') | None => return Err(never_ends(value_at, "")),
            Some(c) => value.push(c),
        }
    }
    s.take_while(|c| c == ' ' || c == '\t');
    if s.peek() != Some(']') {
        return Err(s.mark().fail(format!(
            "expected ']' to close the tag opened at column {}, found {}",
            open.column,
            found(s.peek())
        )));
    }
    s.bump();
    if name == "Result" && !is_result_tag_value(&value) {
        return Err(value_at.fail(format!(
            "the Result tag must be 1-0, 0-1, 1/2-1/2 or * (or 2-0, 0-2, 1-1), not {}",
            quoted(&value)
        )));
    }
    Ok((name, value))
}

/// Reads move text up to a result, the end of a variation (when `close` is given), the next game's tags or
/// the end of the file. Moves go into `game` only on the main line (`close` is `None`). Returns the result.
fn elements(
    s: &mut Scanner,
    game: &mut GameText,
    close: Option<Mark>,
    depth: usize,
) -> Result<Option<String>, Failure> {
    let main_line = close.is_none();
    loop {
        s.skip_blanks();
        let at = s.mark();
        let Some(c) = s.peek() else {
            return match close {
                Some(open) => Err(open.fail("this variation never ends: expected ')'")),
                None => Ok(None),
            };
        };
        match c {
            '[' if main_line => return Ok(None),
            ')' if !main_line => {
                s.bump();
                return Ok(None);
            }
            '{' | ';' => {
                let text = if c == '{' {
                    comment(s)?
                } else {
                    line_comment(s)
                };
                if main_line {
                    add_comment(game, text);
                }
            }
            '(' => {
                if let Some(strength) = bracketed_strength(s) {
                    annotate(game, main_line, strength);
                } else if depth >= MAX_VARIATION_DEPTH {
                    return Err(at.fail(format!(
                        "variations are nested more than {MAX_VARIATION_DEPTH} deep"
                    )));
                } else {
                    s.bump();
                    elements(s, game, Some(at), depth + 1)?;
                }
            }
            '$' => {
                s.bump();
                let digits = s.take_while(|c| c.is_ascii_digit());
                if digits.is_empty() {
                    return Err(at.fail("expected a number after '$'"));
                }
                let nag = format!("${digits}");
                annotate(game, main_line, nag);
            }
            '!' | '?' => {
                let marks = s.take_while(|c| c == '!' || c == '?').to_string();
                annotate(game, main_line, marks);
            }
            '*' => {
                s.bump();
                return finish(at, close, "*".to_string());
            }
            '…' => {
                s.bump();
            }
            '.' => {
                let dots = s.take_while(|c| c == '.');
                if dots.len() != 3 {
                    return Err(at.fail(format!("expected a move, found {}", quoted(dots))));
                }
            }
            c if c.is_ascii_alphanumeric() => match word(s, at)? {
                Word::Result(result) => return finish(at, close, result),
                Word::MoveNumber => {}
                Word::Move(token) => {
                    if main_line {
                        game.moves.push(token);
                    }
                }
            },
            other => {
                return Err(at.fail(format!(
                    "expected a move, a move number or a result, found {}",
                    found(Some(other))
                )));
            }
        }
    }
}

/// A word of move text.
enum Word {
    /// A result: `1-0`, `*`...
    Result(String),
    /// A move number: `1.`, `1...`, `12.`.
    MoveNumber,
    /// A move, with a remark glued to it if there was one.
    Move(MoveToken),
}

/// Reads a word of digits and separators (`22x15`, `1/2-1/2`) or of coordinates (`c3-d4`, `a3b4`) starting at
/// `at`, and what follows it that belongs to it (a move number's dots, a remark glued to a move).
fn word(s: &mut Scanner, at: Mark) -> Result<Word, Failure> {
    let start = s.pos;
    let word = if s.peek().is_some_and(|c| c.is_ascii_digit()) {
        s.take_while(|c| c.is_ascii_digit() || matches!(c, '-' | 'x' | 'X' | ':' | '/'))
    } else {
        s.take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | ':'))
    };
    if RESULTS.contains(&word) {
        return Ok(Word::Result(word.to_string()));
    }
    if word.bytes().all(|b| b.is_ascii_digit()) && matches!(s.peek(), Some('.' | '…')) {
        s.take_while(|c| c == '.' || c == '…');
        return Ok(Word::MoveNumber);
    }
    if !looks_like_move(word) {
        s.take_while(|c| c.is_alphanumeric());
        return Err(at.fail(format!(
            "expected a move, a move number or a result, found {}",
            quoted(&s.text[start..s.pos])
        )));
    }
    let text = word.to_string();
    // Some files glue a remark to a move without braces (`8-11Redoverstepped...`): keep the remark as the
    // move's comment.
    let comment = if s.peek().is_some_and(char::is_alphabetic) {
        Some(
            s.take_while(|c| !c.is_whitespace() && !"{}()[]".contains(c))
                .to_string(),
        )
    } else {
        None
    };
    Ok(Word::Move(MoveToken {
        text,
        line: at.line,
        column: at.column,
        comment,
        annotations: Vec::new(),
    }))
}

/// A comment on the main line goes with the move before it, or before the first move.
fn add_comment(game: &mut GameText, text: String) {
    if text.is_empty() {
        return;
    }
    let slot = match game.moves.last_mut() {
        Some(m) => &mut m.comment,
        None => &mut game.intro,
    };
    // Appended in place: making a new string for each comment would copy all the earlier ones again, which is
    // quadratic for a move with many comments.
    match slot {
        Some(before) => {
            before.push(' ');
            before.push_str(&text);
        }
        None => *slot = Some(text),
    }
}

/// A result ends the main line; inside a variation it is an error.
fn finish(at: Mark, close: Option<Mark>, result: String) -> Result<Option<String>, Failure> {
    match close {
        None => Ok(Some(result)),
        Some(open) => Err(at.fail(format!(
            "a result cannot stand inside the variation opened at line {}, column {}",
            open.line, open.column
        ))),
    }
}

fn annotate(game: &mut GameText, main_line: bool, annotation: String) {
    if main_line && let Some(m) = game.moves.last_mut() {
        m.annotations.push(annotation);
    }
}

/// Reads `{...}`; returns its text with white space runs made single spaces.
fn comment(s: &mut Scanner) -> Result<String, Failure> {
    let open = s.mark();
    s.bump();
    let mut text = String::new();
    loop {
        let at = s.mark();
        match s.bump() {
            Some('}') => break,
            Some('{') => {
                return Err(at.fail(format!(
                    "a comment cannot hold another '{{' (the comment opened at line {}, column {})",
                    open.line, open.column
                )));
            }
            Some(c) => text.push(c),
            None => return Err(open.fail("this comment never ends: expected '}'")),
        }
    }
    Ok(text.split_whitespace().collect::<Vec<_>>().join(" "))
}

/// Reads a `;` comment, which runs to the end of its line and may hold braces; returns its text with white
/// space runs made single spaces.
fn line_comment(s: &mut Scanner) -> String {
    s.bump();
    let mut text = String::new();
    while let Some(c) = s.peek() {
        if c == '\n' {
            break;
        }
        text.push(c);
        s.bump();
    }
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Reads a move strength in brackets, like `(!?)`, if that is what comes next; otherwise reads nothing.
fn bracketed_strength(s: &mut Scanner) -> Option<String> {
    // A strength is a few marks: look no further than a short stretch, so that long text stays linear.
    let rest: String = s.text[s.pos + 1..].chars().take(16).collect();
    let (inner, _) = rest.split_once(')')?;
    let marks = inner.trim();
    if !marks.is_empty() && marks.chars().all(|c| c == '!' || c == '?') {
        let len = inner.chars().count() + 2;
        for _ in 0..len {
            s.bump();
        }
        Some(marks.to_string())
    } else {
        None
    }
}

/// Whether a word has the shape of a move: squares (numbers, or a letter and a number) joined by `-`, `x` or
/// `:`, or coordinates written together (`a3b4`).
fn looks_like_move(word: &str) -> bool {
    let bytes = word.as_bytes();
    let mut squares = 0;
    let mut i = 0;
    let mut expect_square = true;
    while i < bytes.len() {
        if expect_square {
            if bytes[i].is_ascii_alphabetic() && bytes[i] != b'x' && bytes[i] != b'X' {
                i += 1;
            }
            let digits = bytes[i..].iter().take_while(|b| b.is_ascii_digit()).count();
            if digits == 0 {
                return false;
            }
            i += digits;
            squares += 1;
            expect_square = false;
        } else {
            match bytes[i] {
                b'-' | b'x' | b'X' | b':' => {
                    i += 1;
                    expect_square = true;
                }
                b if b.is_ascii_alphabetic() => expect_square = true,
                _ => return false,
            }
        }
    }
    squares >= 2 && !expect_square
}

fn found(c: Option<char>) -> String {
    match c {
        None => "the end of the file".to_string(),
        Some('\n' | '\r') => "the end of the line".to_string(),
        // Control characters are shown escaped, never sent to the terminal as they are.
        Some(c) if c.is_control() => format!("'{}'", c.escape_debug()),
        Some(c) => format!("'{c}'"),
    }
}

impl fmt::Display for MoveToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// A piece of a file read as PDN.
impl<T: AsRef<str>> PdnPiece<T> {
    /// The piece's games, parsed, the first being game `first` of the file; a piece that was too long is one
    /// game that is an error.
    pub fn games(&self, first: usize) -> Vec<Result<GameText, PdnError>> {
        if self.too_long {
            return vec![Err(PdnError {
                game: first,
                event: None,
                line: self.line,
                column: self.column,
                message: format!(
                    "the game starting here runs on for more than {} MiB without a result or the next \
                     game's tags; it is skipped",
                    MAX_PIECE_BYTES >> 20
                ),
            })];
        }
        parse_piece(self.text.as_ref(), self.line, self.column, first)
    }
}

#[cfg(test)]
#[path = "parse_tests.rs"]
mod tests;
