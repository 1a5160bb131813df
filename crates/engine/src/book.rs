//! An opening book of English draughts: positions crowned analysed before a game (`crowned book build`), each
//! with the value of its moves after that analysis was minimaxed, so that `max` can play the best one at once.
//!
//! The file is text, one position a line: its FEN, then each move analysed as its whole route and its value in
//! hundredths of a man for the side that plays it (`B:W21-32:B1-12 11-15=14 9-13=6 ...`), after a first line
//! that names the format and says how the book was made. A move is matched against the legal moves of the
//! position when the book is used, so a damaged or foreign file can make the engine play a weaker move, never an
//! illegal one.

use std::collections::HashMap;
use std::fmt::Write as _;

use thiserror::Error;

use super::nnue::Pieces;
use crowned_rules::{
    Color, English, Move, Position, RuleSet, SquareStyle, full_route, parse_fen, to_fen,
};

/// The first line of every book file, before what made it.
const HEADER: &str = "# crowned opening book 1";

/// The most moves a line may hold: more than any position of English draughts has.
const MOST_MOVES: usize = 64;

/// Why a book file cannot be read.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum BookError {
    /// The first line is not a crowned book's.
    #[error("not a crowned opening book (its first line should be \"{HEADER} ...\")")]
    NotABook,
    /// A line that does not read.
    #[error("line {line}: {reason}")]
    Line {
        /// The line's number, from 1.
        line: usize,
        /// What is wrong with it.
        reason: String,
    },
}

/// A position as the book keys it: the four kinds of piece and the side to move.
#[derive(Clone, Copy, Debug, Hash, PartialEq, Eq)]
struct Key {
    pieces: [u64; 4],
    white_to_move: bool,
}

impl Key {
    fn of(pos: &Position<English>) -> Key {
        Key {
            pieces: Pieces::of(pos).0,
            white_to_move: pos.side_to_move() == Color::White,
        }
    }
}

/// One analysed move of a book position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookMove {
    /// The whole route (`11-15`, `15x24x31`).
    pub route: String,
    /// Its value for the side that plays it, in hundredths of a man.
    pub value: i32,
}

/// One position of the book.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Entry {
    fen: String,
    moves: Vec<BookMove>,
}

/// An opening book: positions and the values of their moves.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Book {
    /// What made it (the rest of the first line), kept to be written back.
    about: String,
    entries: HashMap<Key, Entry>,
}

impl Book {
    /// An empty book, `about` saying how it is being made.
    pub fn new(about: &str) -> Book {
        Book {
            about: about.replace(['\n', '\r'], " "),
            entries: HashMap::new(),
        }
    }

    /// How the book was made, as its first line says.
    pub fn about(&self) -> &str {
        &self.about
    }

    /// Positions in the book.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the book has no positions.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Sets the values of `pos`'s moves (replacing what the book had for it).
    pub fn insert(&mut self, pos: &Position<English>, moves: &[(Move, i32)]) {
        let moves = moves
            .iter()
            .map(|(m, value)| BookMove {
                route: route(m),
                value: *value,
            })
            .collect();
        self.entries.insert(
            Key::of(pos),
            Entry {
                fen: to_fen(pos),
                moves,
            },
        );
    }

    /// The analysed moves of `pos` that are legal there, best first, if the book has the position.
    pub fn moves(&self, pos: &Position<English>) -> Option<Vec<(Move, i32)>> {
        let entry = self.entries.get(&Key::of(pos))?;
        let legal = pos.legal_moves();
        let mut found: Vec<(Move, i32)> = entry
            .moves
            .iter()
            .filter_map(|b| {
                let m = legal.iter().find(|m| route(m) == b.route)?;
                Some((*m, b.value))
            })
            .collect();
        found.sort_by_key(|&(_, value)| std::cmp::Reverse(value));
        (!found.is_empty()).then_some(found)
    }

    /// The book's best move in `pos` and its value, if the book has the position.
    pub fn best(&self, pos: &Position<English>) -> Option<(Move, i32)> {
        self.moves(pos)?.first().copied()
    }

    /// The book as its file: the header, then one line a position, in FEN order so that the same book is always
    /// the same file.
    pub fn to_text(&self) -> String {
        let mut out = format!("{HEADER} {}\n", self.about);
        let mut entries: Vec<&Entry> = self.entries.values().collect();
        entries.sort_by(|a, b| a.fen.cmp(&b.fen));
        for entry in entries {
            out.push_str(&entry.fen);
            for m in &entry.moves {
                // Writing to a String cannot fail.
                let _ = write!(out, " {}={}", m.route, m.value);
            }
            out.push('\n');
        }
        out
    }

    /// Reads a book file. Blank lines and `#` lines after the first are skipped; anything else that does not
    /// read is an error with its line, so that a damaged book is noticed rather than half used.
    pub fn from_text(text: &str) -> Result<Book, BookError> {
        let mut lines = text.lines();
        let about = lines
            .next()
            .and_then(|first| first.strip_prefix(HEADER))
            .ok_or(BookError::NotABook)?;
        let mut book = Book::new(about.trim());
        for (n, line) in lines.enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let bad = |reason: String| BookError::Line {
                line: n + 2,
                reason,
            };
            let mut words = line.split_whitespace();
            let fen = words.next().unwrap_or_default();
            let pos: Position<English> =
                parse_fen(fen).map_err(|e| bad(format!("the position: {e}")))?;
            let mut moves = Vec::new();
            for word in words {
                if moves.len() == MOST_MOVES {
                    return Err(bad(format!("more than {MOST_MOVES} moves")));
                }
                let (route, value) = word
                    .split_once('=')
                    .ok_or_else(|| bad(format!("{word:?} is not route=value")))?;
                let value: i32 = value
                    .parse()
                    .map_err(|_| bad(format!("{value:?} is not a whole number")))?;
                if route.is_empty()
                    || !route
                        .bytes()
                        .all(|b| b.is_ascii_digit() || b == b'-' || b == b'x')
                {
                    return Err(bad(format!("{route:?} is not a move's route")));
                }
                moves.push(BookMove {
                    route: route.to_string(),
                    value,
                });
            }
            if moves.is_empty() {
                return Err(bad("a position with no moves".to_string()));
            }
            book.entries.insert(
                Key::of(&pos),
                Entry {
                    fen: to_fen(&pos),
                    moves,
                },
            );
        }
        Ok(book)
    }
}

/// A move's whole route in numbers: the form the book keeps, the same for a move however it was found.
fn route(m: &Move) -> String {
    full_route(m, SquareStyle::Numbers, English::GEOMETRY)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn start() -> Position<English> {
        Position::start()
    }

    #[test]
    fn a_book_reads_back_as_it_was_written_and_plays_its_best_legal_move() {
        let pos = start();
        let legal = pos.legal_moves();
        let mut book = Book::new("depth 4, 1 position");
        let values: Vec<(Move, i32)> = legal
            .iter()
            .zip([5, 30, -10])
            .map(|(m, v)| (*m, v))
            .collect();
        book.insert(&pos, &values);
        let text = book.to_text();
        let read = Book::from_text(&text).expect("reads back");
        assert_eq!(read, book);
        assert_eq!(read.to_text(), text);
        assert_eq!(read.about(), "depth 4, 1 position");
        assert_eq!(read.best(&pos), Some((legal[1], 30)));
        let after = pos.play(&legal[0]);
        assert_eq!(read.best(&after), None, "a position it does not hold");
    }

    #[test]
    fn moves_that_are_not_legal_there_are_never_played() {
        let text = format!("{HEADER} hand-made\nB:W21-32:B1-12 22-18=500 30-26=400 11-15=7\n");
        let book = Book::from_text(&text).expect("reads");
        let pos = start();
        let (best, value) = book.best(&pos).expect("11-15 is legal");
        assert_eq!((route(&best), value), ("11-15".to_string(), 7));
        let none = format!("{HEADER} x\nB:W21-32:B1-12 22-18=500\n");
        assert_eq!(Book::from_text(&none).expect("reads").best(&pos), None);
    }

    #[test]
    fn damaged_books_are_refused_with_their_line() {
        assert_eq!(Book::from_text(""), Err(BookError::NotABook));
        assert_eq!(
            Book::from_text("B:W21-32:B1-12 11-15=3"),
            Err(BookError::NotABook)
        );
        for (body, says) in [
            ("B:W21-32:B1-12 11-15", "route=value"),
            ("B:W21-32:B1-12 11-15=x", "whole number"),
            ("B:W21-32:B1-12 11-15=99999999999", "whole number"),
            ("B:W21-32:B1-12", "no moves"),
            ("B:Wbad 11-15=3", "the position"),
            ("B:W21-32:B1-12 11/15=3", "route"),
        ] {
            let text = format!("{HEADER} x\n\n# a comment\n{body}\n");
            match Book::from_text(&text) {
                Err(BookError::Line { line: 4, reason }) => {
                    assert!(reason.contains(says), "{body}: {reason}")
                }
                other => panic!("{body}: {other:?}"),
            }
        }
        let many = format!(
            "{HEADER} x\nB:W21-32:B1-12{}\n",
            " 11-15=1".repeat(MOST_MOVES + 1)
        );
        assert!(matches!(
            Book::from_text(&many),
            Err(BookError::Line { line: 2, .. })
        ));
    }
}
