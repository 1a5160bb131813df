//! The definitions loaded for play in this process, each behind a small `Copy` id.
//!
//! Positions, moves and variant names are copied everywhere (the app, the engine, the files), so they cannot
//! carry a definition by value. Loading a definition here checks that it can be played, keeps it for the life of
//! the process and hands back a [`DefinedId`]; everything else carries the id. Loading the same text again gives
//! the same id, and the registry holds at most [`MAX_DEFINITIONS`] definitions of at most
//! [`MAX_DEFINITION_BYTES`] each, so no input (a PDN file full of definitions, a client of the server) can make
//! it grow without bound. Because of that bound, entries are leaked on purpose: a `&'static` entry is what lets a
//! defined variant's name be a `&'static str` like every built-in's.

use std::sync::Mutex;

use thiserror::Error;

use super::error::DefinitionError;
use super::rules::{Cell, DefinedRules};
use crate::{DefinedShape, MAX_PATH};

/// The most definitions one process loads.
pub const MAX_DEFINITIONS: usize = 256;
/// The longest definition text accepted, in bytes (the examples are about 2 000).
pub const MAX_DEFINITION_BYTES: usize = 64 * 1024;
/// The most playable squares a definition played here may have: a move names squares by one byte and its
/// captures by a 128-bit set.
pub const MAX_PLAY_SQUARES: usize = 128;

/// A definition loaded for play: its place in the registry, and the definition itself (kept for the life of
/// the process), so that reaching it takes no lookup. Two ids are equal when they name the same place.
#[derive(Clone, Copy)]
pub struct DefinedId {
    entry: &'static Registered,
}

impl PartialEq for DefinedId {
    fn eq(&self, other: &Self) -> bool {
        self.entry.index == other.entry.index
    }
}

impl Eq for DefinedId {}

impl std::hash::Hash for DefinedId {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.entry.index.hash(state);
    }
}

impl PartialOrd for DefinedId {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for DefinedId {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.entry.index.cmp(&other.entry.index)
    }
}

impl std::fmt::Debug for DefinedId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "DefinedId({} {:?})",
            self.entry.index, self.entry.rules.name
        )
    }
}

/// Why a definition cannot be loaded for play.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum RegistryError {
    /// The definition itself is wrong.
    #[error(transparent)]
    Definition(#[from] DefinitionError),
    /// The text is longer than any definition needs to be.
    #[error("the definition is {bytes} bytes long; at most {MAX_DEFINITION_BYTES} are allowed")]
    TooLong {
        /// Its length.
        bytes: usize,
    },
    /// More playable squares than a move can name.
    #[error(
        "the board has {squares} playable squares; games are played on at most {MAX_PLAY_SQUARES} \
         (`crowned variant` still checks and counts it)"
    )]
    TooManySquares {
        /// Its playable squares.
        squares: usize,
    },
    /// More pieces on one side than one move can take.
    #[error("a side starts with {pieces} pieces; games are played with at most {MAX_PATH} each")]
    TooManyPieces {
        /// The larger side's pieces.
        pieces: usize,
    },
    /// The registry is full.
    #[error("{MAX_DEFINITIONS} variant definitions are loaded already; no more can be")]
    Full,
}

/// A definition as loaded for play: its rules, its text, and how squares map to cells.
#[derive(Debug)]
pub struct Registered {
    /// The rules.
    pub rules: DefinedRules,
    /// The text it was read from (line ends made `\n`), which PDN files carry with a game.
    pub text: String,
    /// The cell of each square: squares number the playable cells row by row from the top left.
    pub cells: Vec<Cell>,
    /// The square of each cell, for playable cells.
    pub squares: Vec<Option<u8>>,
    /// Its squares as the board code sees them.
    pub shape: &'static DefinedShape,
    /// Its place in the registry.
    index: u16,
}

impl Registered {
    /// How many squares the board has.
    pub fn square_count(&self) -> usize {
        self.cells.len()
    }

    /// The coordinate name of a square (`c3`), or `?` for one off the board.
    pub fn square_name(&self, square: u8) -> String {
        self.cells
            .get(usize::from(square))
            .map_or_else(|| "?".to_string(), |&cell| self.rules.name_of(cell))
    }

    /// The square a coordinate names, if it is a playable square of this board.
    pub fn square_named(&self, name: &str) -> Option<u8> {
        let cell = self.rules.cell_named("", name).ok()?;
        self.squares.get(cell).copied().flatten()
    }
}

/// The definitions loaded so far, in load order; held while loading so that two threads loading one text agree.
static LOADED: Mutex<Vec<&'static Registered>> = Mutex::new(Vec::new());

/// The text as the registry keys it: line ends made `\n`, trailing blanks and lines trimmed.
fn canonical(text: &str) -> String {
    let mut out: String = text
        .lines()
        .map(str::trim_end)
        .collect::<Vec<_>>()
        .join("\n");
    out.truncate(out.trim_end().len());
    out.push('\n');
    out
}

/// Reads, checks and loads a definition for play; the same text gives the same id.
pub fn register(text: &str) -> Result<DefinedId, RegistryError> {
    if text.len() > MAX_DEFINITION_BYTES {
        return Err(RegistryError::TooLong { bytes: text.len() });
    }
    let text = canonical(text);
    // Poisoning only means another thread panicked mid-load; the list itself is always whole.
    let mut loaded = LOADED.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(entry) = loaded.iter().find(|r| r.text == text) {
        return Ok(entry.id());
    }
    let rules = DefinedRules::from_toml(&text)?;
    check_playable(&rules)?;
    if loaded.len() >= MAX_DEFINITIONS {
        return Err(RegistryError::Full);
    }
    let cells: Vec<Cell> = (0..rules.playable.len())
        .filter(|&c| rules.playable[c])
        .collect();
    let mut squares = vec![None; rules.playable.len()];
    for (square, &cell) in cells.iter().enumerate() {
        squares[cell] = Some(square as u8);
    }
    let width = rules.width;
    let shape: &'static DefinedShape = Box::leak(Box::new(DefinedShape {
        squares: Box::leak(squares.clone().into_boxed_slice()),
        cells: Box::leak(
            cells
                .iter()
                .map(|&c| ((c / width) as u8, (c % width) as u8))
                .collect::<Vec<_>>()
                .into_boxed_slice(),
        ),
        holes: Box::leak(
            (0..rules.playable.len())
                .map(|c| rules.holes.contains(&c))
                .collect::<Vec<_>>()
                .into_boxed_slice(),
        ),
    }));
    let entry: &'static Registered = Box::leak(Box::new(Registered {
        rules,
        text,
        cells,
        squares,
        shape,
        index: loaded.len() as u16,
    }));
    loaded.push(entry);
    Ok(entry.id())
}

/// What keeps a checked definition from being played here.
fn check_playable(rules: &DefinedRules) -> Result<(), RegistryError> {
    let squares = rules.playable.iter().filter(|&&p| p).count();
    if squares > MAX_PLAY_SQUARES {
        return Err(RegistryError::TooManySquares { squares });
    }
    for side in [crate::Color::Black, crate::Color::White] {
        let pieces = rules
            .start
            .iter()
            .flatten()
            .filter(|(c, _)| *c == side)
            .count();
        if pieces > MAX_PATH {
            return Err(RegistryError::TooManyPieces { pieces });
        }
    }
    Ok(())
}

impl Registered {
    /// The id it is known by.
    pub fn id(&'static self) -> DefinedId {
        DefinedId { entry: self }
    }
}

/// Every definition loaded so far, in the order they were loaded.
pub fn loaded() -> Vec<DefinedId> {
    let loaded = LOADED.lock().unwrap_or_else(|e| e.into_inner());
    loaded.iter().map(|r| r.id()).collect()
}

/// The loaded definition whose name is `name` (in any case), the first loaded when several are.
pub fn find_by_name(name: &str) -> Option<DefinedId> {
    loaded()
        .into_iter()
        .find(|id| id.get().rules.name.eq_ignore_ascii_case(name.trim()))
}

impl DefinedId {
    /// The definition behind the id.
    pub fn get(self) -> &'static Registered {
        self.entry
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LEAPERS: &str = include_str!("../../../../variants/leapers.toml");

    #[test]
    fn the_same_text_gives_the_same_id_and_squares_follow_the_rows() {
        let a = register(LEAPERS).expect("leapers load");
        let b = register(&LEAPERS.replace('\n', "\r\n")).expect("with CRLF");
        assert_eq!(a, b);
        let entry = a.get();
        assert_eq!(entry.square_count(), 25);
        assert_eq!(entry.square_name(0), "a5");
        assert_eq!(entry.square_name(24), "e1");
        assert_eq!(entry.square_named("e1"), Some(24));
        assert_eq!(entry.square_named("f1"), None);
        assert_eq!(find_by_name("LEAPERS"), Some(a));
    }

    #[test]
    fn definitions_that_cannot_be_played_are_refused() {
        let big = LEAPERS
            .replace("width = 5", "width = 16")
            .replace("height = 5", "height = 16");
        assert!(matches!(
            register(&big),
            Err(RegistryError::TooManySquares { squares: 256 })
        ));
        let shared =
            include_str!("../../../../variants/holes.toml").replace("letter = 'k'", "letter = 'M'");
        let err = register(&shared).expect_err("two kinds drawn as m");
        assert!(err.to_string().contains("has the letter of"), "{err}");
        assert!(matches!(
            register("name = 1"),
            Err(RegistryError::Definition(_))
        ));
        let long = format!("# {}\n{LEAPERS}", "x".repeat(MAX_DEFINITION_BYTES));
        assert!(matches!(
            register(&long),
            Err(RegistryError::TooLong { .. })
        ));
    }
}
