//! Endgame databases. English draughts: the exact result of every position with few pieces, with the
//! distance to the next conversion, built by retrograde analysis (`lab::egdb_build`) and probed by the search
//! ([`Egdb`]).
//!
//! A database is a directory of table files, one per *signature* (how many men and kings each side has, the
//! side to move first), built in an order where every capture and crowning leads into a table already built.
//! The tables are optional: without them the engine plays as before; with them it knows endings exactly and
//! converts a won one into a won game (each move takes the shortest way to the next capture or crowning).
//!
//! The other rule sets on ordinary boards (international draughts first) have win/draw/loss tables without
//! distances ([`wld`]), numbered the same way.

pub mod file;
mod index;
mod probe;
mod values;
pub mod wld;

use std::path::{Path, PathBuf};
use std::sync::Arc;

pub use index::{Layout, Material, Sets, Shape, Squares};
pub use probe::{Egdb, Mismatch, OUTCOMES_BUDGET, loads_on_this_thread};
pub use values::{DbValue, MAX_DISTANCE, MAX_NARROW_DISTANCE, Outcomes, Wld};

/// What can go wrong building or reading the databases.
#[derive(Debug, thiserror::Error)]
pub enum EgdbError {
    /// A file could not be read or written.
    #[error("{}: {cause}", .path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said (in the message, so not repeated as a source).
        cause: std::io::Error,
    },
    /// A table file is damaged or not a table.
    #[error("{path}: {1}", path = .0.display())]
    Corrupt(PathBuf, String),
    /// A table another one depends on is not there.
    #[error("the table {0} is needed first")]
    Missing(String),
    /// A distance to conversion does not fit the table byte.
    #[error("a distance to conversion in {0} is longer than a table holds ({MAX_DISTANCE} plies)")]
    TooDeep(String),
    /// A worker thread failed.
    #[error("a worker thread failed")]
    Thread,
    /// The rule set has no tables of this kind.
    #[error(transparent)]
    Unsupported(#[from] wld::Unsupported),
    /// The directory holds no complete database.
    #[error("no endgame database in {}", .0.display())]
    Empty(PathBuf),
}

impl EgdbError {
    /// The file at `path` could not be read or written, for `cause`.
    pub fn io(path: &Path, cause: std::io::Error) -> EgdbError {
        EgdbError::Io {
            path: path.to_path_buf(),
            cause,
        }
    }
}

/// The databases in `dir`, opened for every engine given them, their files read ahead in the background (see
/// [`Egdb::warm_up`]). A missing database means none, silently; a
/// damaged one means none too, with a warning: the engine plays on without it.
///
/// With `keep_outcomes`, the search's probes are answered from win/draw/loss outcomes kept in memory (see
/// [`Egdb::pieces_in_memory`]); without, through the cache of blocks. Off by default in the program: by SPRT
/// it has not shown a gain worth the memory (hundreds of megabytes with 6-piece tables).
pub fn open_in(dir: &Path, keep_outcomes: bool) -> Option<Arc<Egdb>> {
    match Egdb::open(dir) {
        Ok(db) => {
            let db = Arc::new(match keep_outcomes {
                true => db,
                false => db.without_outcomes(),
            });
            db.warm_up();
            Some(db)
        }
        Err(EgdbError::Io { .. }) => None,
        Err(e) => {
            tracing::warn!("endgame database not used: {e}");
            None
        }
    }
}

/// The most pieces a build may ask for: the tables' numbering holds up to 9 of a kind, and 8 pieces are already
/// far beyond a day's build on a small machine.
pub const MAX_PIECES: u32 = 8;
