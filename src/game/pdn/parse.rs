//! The syntax of PDN files: games, tag pairs, move text, comments, variations and results.
//!
//! This layer knows nothing of the rules: it splits a file into games and each game into tags, main-line moves
//! (as text, with where they stand in the file) and a result. Replaying the moves is the next step. Reading is
//! forgiving of what real files do (move numbers with or without spaces or leading zeros, `1...` and `1. ...`,
//! CRLF, `%` line comments, a missing result at the end of a file) and strict about what makes no sense (a
//! comment inside a comment, a stray `.`, an unknown result).

use std::fmt;

use thiserror::Error;

use super::super::tags::Tags;

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
        Some(e) => format!(" {e:?}"),
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

/// Result tokens that end a game's move text.
const RESULTS: [&str; 7] = ["1-0", "0-1", "1/2-1/2", "*", "2-0", "0-2", "1-1"];

/// Values the `Result` tag may have: a result, or unknown.
fn is_result_tag_value(value: &str) -> bool {
    RESULTS.contains(&value) || value.is_empty() || value == "?"
}

/// Splits PDN text into games. A game with a syntax error is an `Err` naming where; reading goes on with the
/// next game.
pub fn parse_games(text: &str) -> Vec<Result<GameText, PdnError>> {
    let mut scanner = Scanner::new(text.strip_prefix('\u{feff}').unwrap_or(text));
    let mut games = Vec::new();
    loop {
        scanner.skip_blanks();
        if scanner.peek().is_none() {
            break;
        }
        let index = games.len() + 1;
        let mut game = GameText {
            index,
            line: scanner.line,
            ..GameText::default()
        };
        match game_body(&mut scanner, &mut game) {
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

/// A syntax error before it is tied to its game.
struct Failure {
    line: usize,
    column: usize,
    message: String,
}

/// A place in the text, for errors.
#[derive(Clone, Copy)]
struct Mark {
    line: usize,
    column: usize,
}

impl Mark {
    fn fail(self, message: impl Into<String>) -> Failure {
        Failure {
            line: self.line,
            column: self.column,
            message: message.into(),
        }
    }
}

struct Scanner<'a> {
    text: &'a str,
    pos: usize,
    line: usize,
    column: usize,
}

impl<'a> Scanner<'a> {
    fn new(text: &'a str) -> Self {
        Scanner {
            text,
            pos: 0,
            line: 1,
            column: 1,
        }
    }

    fn peek(&self) -> Option<char> {
        self.text[self.pos..].chars().next()
    }

    fn mark(&self) -> Mark {
        Mark {
            line: self.line,
            column: self.column,
        }
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += c.len_utf8();
        match c {
            '\n' => {
                self.line += 1;
                self.column = 1;
            }
            // A carriage return is part of a CRLF line end, not a column.
            '\r' => {}
            _ => self.column += 1,
        }
        Some(c)
    }

    fn take_while(&mut self, keep: impl Fn(char) -> bool) -> &'a str {
        let start = self.pos;
        while self.peek().is_some_and(&keep) {
            self.bump();
        }
        &self.text[start..self.pos]
    }

    /// Skips white space and `%` line comments (a `%` that starts a line hides the rest of it).
    fn skip_blanks(&mut self) {
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
    fn skip_to_next_game(&mut self) {
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

fn game_body(s: &mut Scanner, game: &mut GameText) -> Result<(), Failure> {
    loop {
        s.skip_blanks();
        if s.peek() != Some('[') {
            break;
        }
        let (name, value) = tag(s)?;
        game.tags.set(&name, &value);
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
            "expected the quoted value of tag {name}, found {}",
            found(s.peek())
        )));
    }
    s.bump();
    let mut value = String::new();
    loop {
        match s.bump() {
            Some('"') => break,
            Some('\\') => match s.bump() {
                Some(c @ ('"' | '\\')) => value.push(c),
                Some(c) => {
                    value.push('\\');
                    value.push(c);
                }
                None => return Err(value_at.fail(format!("the value of tag {name} never ends"))),
            },
            Some('\n') | None => {
                return Err(value_at.fail(format!("the value of tag {name} never ends")));
            }
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
            "the Result tag must be 1-0, 0-1, 1/2-1/2 or * (or 2-0, 0-2, 1-1), not {value:?}"
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
            '{' => {
                let text = comment(s)?;
                if main_line && !text.is_empty() {
                    let slot = match game.moves.last_mut() {
                        Some(m) => &mut m.comment,
                        None => &mut game.intro,
                    };
                    *slot = Some(match slot.take() {
                        Some(before) => format!("{before} {text}"),
                        None => text,
                    });
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
                    return Err(at.fail(format!("expected a move, found {dots:?}")));
                }
            }
            c if c.is_ascii_alphanumeric() => {
                // A word of digits and separators (`22x15`, `1/2-1/2`) or of coordinates (`c3-d4`, `a3b4`).
                let word = if c.is_ascii_digit() {
                    s.take_while(|c| c.is_ascii_digit() || matches!(c, '-' | 'x' | 'X' | ':' | '/'))
                } else {
                    s.take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | ':'))
                };
                if RESULTS.contains(&word) {
                    return finish(at, close, word.to_string());
                }
                if word.bytes().all(|b| b.is_ascii_digit()) && matches!(s.peek(), Some('.' | '…'))
                {
                    // A move number: 1. 1... 01. 12.
                    s.take_while(|c| c == '.' || c == '…');
                    continue;
                }
                if !looks_like_move(word) {
                    let rest = s.take_while(|c| c.is_alphanumeric());
                    return Err(at.fail(format!(
                        "expected a move, a move number or a result, found {:?}",
                        format!("{word}{rest}")
                    )));
                }
                // Some files glue a remark to a move without braces (`8-11Redoverstepped...`): keep the remark
                // as the move's comment.
                let remark = if s.peek().is_some_and(char::is_alphabetic) {
                    Some(
                        s.take_while(|c| !c.is_whitespace() && !"{}()[]".contains(c))
                            .to_string(),
                    )
                } else {
                    None
                };
                if main_line {
                    game.moves.push(MoveToken {
                        text: word.to_string(),
                        line: at.line,
                        column: at.column,
                        comment: remark,
                        annotations: Vec::new(),
                    });
                }
            }
            other => {
                return Err(at.fail(format!(
                    "expected a move, a move number or a result, found {}",
                    found(Some(other))
                )));
            }
        }
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
        Some(c) => format!("'{c}'"),
    }
}

impl fmt::Display for MoveToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(text: &str) -> GameText {
        let mut games = parse_games(text);
        assert_eq!(games.len(), 1, "{games:?}");
        games.remove(0).expect("parses")
    }

    fn moves(g: &GameText) -> Vec<&str> {
        g.moves.iter().map(|m| m.text.as_str()).collect()
    }

    fn error(text: &str) -> String {
        parse_games(text)
            .into_iter()
            .find_map(Result::err)
            .map(|e| e.to_string())
            .unwrap_or_else(|| panic!("{text:?} was accepted"))
    }

    #[test]
    fn tags_moves_and_result() {
        let g = one(
            "[Event \"Test\"]\r\n[White \"A \\\"B\\\" C\"]\r\n\r\n1. 11-15 23-19 2. 8-11 22-17 1/2-1/2\r\n",
        );
        assert_eq!(g.tags.get("Event"), Some("Test"));
        assert_eq!(g.tags.get("White"), Some("A \"B\" C"));
        assert_eq!(moves(&g), ["11-15", "23-19", "8-11", "22-17"]);
        assert_eq!(g.result.as_deref(), Some("1/2-1/2"));
        assert_eq!((g.moves[2].line, g.moves[2].column), (4, 19));
        assert_eq!(g.event(), "Test");
    }

    #[test]
    fn move_numbers_in_every_form() {
        for text in [
            "1.11-15 23-19 2.8-11 *",
            "01. 11-15 23-19 02. 8-11 *",
            "1. 11-15 1... 23-19 2. 8-11 *",
            "1. 11-15 1. ... 23-19 2. 8-11 *",
            "11-15 23-19 8-11 *",
            "1. 11-15 23-19 2. 8-11 …",
        ] {
            let g = one(text);
            assert_eq!(moves(&g), ["11-15", "23-19", "8-11"], "{text}");
        }
    }

    #[test]
    fn comments_annotations_and_variations() {
        let g = one(
            "{intro} 1. 11-15 {first} {second} 23-19! 2. 8-11 $14 (2. 9-13 {side (line)} (2. 10-14)) 22-17 (!?) *",
        );
        assert_eq!(moves(&g), ["11-15", "23-19", "8-11", "22-17"]);
        assert_eq!(g.intro.as_deref(), Some("intro"));
        assert_eq!(g.moves[0].comment.as_deref(), Some("first second"));
        assert_eq!(g.moves[1].annotations, ["!"]);
        assert_eq!(g.moves[2].annotations, ["$14"]);
        assert_eq!(g.moves[3].annotations, ["!?"]);
    }

    #[test]
    fn several_games_and_line_comments() {
        let games = parse_games(
            "% a file\n[Event \"1\"]\n1. 11-15 *\n\n[Event \"2\"]\n1. 9-13 1-0\n1. 10-14\n",
        );
        assert_eq!(games.len(), 3);
        assert!(games.iter().all(Result::is_ok));
        let third = games[2].as_ref().expect("ok");
        assert_eq!(third.result, None, "a file may end without a result");
        assert_eq!(third.line, 7);
    }

    #[test]
    fn a_game_without_result_ends_at_the_next_tags() {
        let games = parse_games("[Event \"1\"]\n1. 11-15\n[Event \"2\"]\n1. 9-13 *");
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].as_ref().map(|g| g.result.clone()), Ok(None));
    }

    #[test]
    fn a_remark_glued_to_a_move_becomes_its_comment() {
        let g = one("14. 10x19 24x15 15. 11x18x25 8-11Redoverstepped. 0-1");
        assert_eq!(moves(&g), ["10x19", "24x15", "11x18x25", "8-11"]);
        assert_eq!(g.moves[3].comment.as_deref(), Some("Redoverstepped."));
        assert_eq!(g.result.as_deref(), Some("0-1"));
    }

    #[test]
    fn coordinates_and_alphanumeric_moves() {
        assert_eq!(
            moves(&one("1.a3b4 c3-d4 c3xe5xg3 *")),
            ["a3b4", "c3-d4", "c3xe5xg3"]
        );
    }

    #[test]
    fn errors_are_located() {
        assert_eq!(
            error("1. 33-29 19-23 2. 35-30 { nested { comment } }"),
            "game 1: line 1, column 34: a comment cannot hold another '{' (the comment opened at line 1, column 25)"
        );
        assert_eq!(
            error("[Event \"E\"]\n1. 11-15 . 1-0"),
            "game 1 \"E\": line 2, column 10: expected a move, found \".\""
        );
        assert_eq!(
            error("[Result \"4-6\"]\n1. 11-15 4-6"),
            "game 1: line 1, column 9: the Result tag must be 1-0, 0-1, 1/2-1/2 or * (or 2-0, 0-2, 1-1), not \"4-6\""
        );
        assert_eq!(
            error("1. 11-15 {open"),
            "game 1: line 1, column 10: this comment never ends: expected '}'"
        );
        assert_eq!(
            error("1. 11-15 (9-13"),
            "game 1: line 1, column 10: this variation never ends: expected ')'"
        );
        assert_eq!(
            error("1. 11-15 (9-13 1-0) *"),
            "game 1: line 1, column 16: a result cannot stand inside the variation opened at line 1, column 10"
        );
        assert_eq!(
            error("[Event"),
            "game 1: line 1, column 7: expected the quoted value of tag Event, found the end of the file"
        );
        assert_eq!(
            error("[\"x\"]"),
            "game 1: line 1, column 2: expected a tag name after '[', found '\"'"
        );
        assert_eq!(
            error("[Event \"x"),
            "game 1: line 1, column 8: the value of tag Event never ends"
        );
        assert_eq!(
            error("[Event \"x\"\n"),
            "game 1: line 1, column 11: expected ']' to close the tag opened at column 1, found the end of the line"
        );
        assert_eq!(
            error("1. 11-15 $ *"),
            "game 1: line 1, column 10: expected a number after '$'"
        );
        assert_eq!(
            error("1. Bianco *"),
            "game 1: line 1, column 4: expected a move, a move number or a result, found \"Bianco\""
        );
        assert_eq!(
            error("1. 11-15 ] *"),
            "game 1: line 1, column 10: expected a move, a move number or a result, found ']'"
        );
        assert_eq!(
            error("1. 11-15 12 *"),
            "game 1: line 1, column 10: expected a move, a move number or a result, found \"12\""
        );
    }

    #[test]
    fn hostile_nesting_is_refused_without_harm() {
        let deep = format!("1. 11-15 {} *", "(".repeat(100_000));
        assert!(error(&deep).contains("variations are nested more than 64 deep"));
        let fine = format!("1. 11-15 {}9-13{} *", "(".repeat(10), ")".repeat(10));
        assert_eq!(moves(&one(&fine)), ["11-15"]);
    }

    #[test]
    fn one_bad_game_does_not_stop_the_others() {
        let games = parse_games(
            "[Event \"good\"]\n1. 11-15 *\n\n[Event \"bad\"]\n[Site \"x\"]\n1. 11-15 . *\n\n[Event \"after\"]\n1. 9-13 *\n",
        );
        assert_eq!(games.len(), 3);
        assert!(games[0].is_ok());
        assert_eq!(games[1].as_ref().map_err(|e| e.game), Err(2));
        assert_eq!(games[2].as_ref().map(|g| g.event()), Ok("after"));
        // A bad tag skips the rest of that game's tags too.
        let games = parse_games("[Event \"bad\" x]\n[Site \"s\"]\n1. 11-15 *\n[Event \"next\"]\n*");
        assert_eq!(games.len(), 2);
        assert_eq!(games[1].as_ref().map(|g| g.event()), Ok("next"));
    }

    #[test]
    fn move_shapes() {
        for ok in [
            "11-15", "22x15", "15x24x31", "c3-d4", "c3xe5xg3", "a3b4", "5:14", "32X28",
        ] {
            assert!(looks_like_move(ok), "{ok}");
        }
        for bad in [
            "11", "11-", "-15", "x", "11--15", "Bianco", "c-d", "11-15-", "1/2",
        ] {
            assert!(!looks_like_move(bad), "{bad}");
        }
    }
}
