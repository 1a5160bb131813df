//! Endgame databases for English draughts: the exact result of every position with few pieces, with the
//! distance to the next conversion, built by retrograde analysis ([`build()`]) and probed by the search
//! ([`Egdb`]).
//!
//! A database is a directory of table files, one per *signature* (how many men and kings each side has, the
//! side to move first), built in an order where every capture and crowning leads into a table already built.
//! The tables are optional: without them the engine plays as before; with them it knows endings exactly and
//! converts a won one into a won game (each move takes the shortest way to the next capture or crowning).

mod build;
mod file;
mod index;
mod probe;
mod values;

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

pub use index::{Layout, Material, Squares};
pub use probe::{Egdb, Mismatch};
pub use values::{DbValue, MAX_DISTANCE, MAX_NARROW_DISTANCE, Outcome, Outcomes};

use build::{Solved, outcomes_of_stored, solve_pair};
use file::{TableFile, file_name, write_table};

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
    /// The directory holds no complete database.
    #[error("no endgame database in {}", .0.display())]
    Empty(PathBuf),
}

impl EgdbError {
    fn io(path: &Path, cause: std::io::Error) -> EgdbError {
        EgdbError::Io {
            path: path.to_path_buf(),
            cause,
        }
    }
}

/// Where the engines of this process look for the database (set once, by the program at start).
static DEFAULT_DIR: OnceLock<PathBuf> = OnceLock::new();
/// The database found there, opened by the first engine that asks.
static SHARED: OnceLock<Option<Arc<Egdb>>> = OnceLock::new();

/// Makes `dir` the place every engine of this process looks for the database. Without it (as in tests)
/// engines play without one. Only the first call counts.
pub fn look_in(dir: PathBuf) {
    let _ = DEFAULT_DIR.set(dir);
}

/// The database every engine of this process uses, if [`look_in`] named a directory holding one. It is opened
/// once; a missing or damaged database means none (the engine plays on without it).
pub fn shared() -> Option<Arc<Egdb>> {
    SHARED
        .get_or_init(|| {
            let dir = DEFAULT_DIR.get()?;
            match Egdb::open(dir) {
                Ok(db) => Some(Arc::new(db)),
                Err(EgdbError::Io { .. }) => None,
                Err(e) => {
                    tracing::warn!("endgame database not used: {e}");
                    None
                }
            }
        })
        .clone()
}

/// The most pieces a build may ask for: the tables' numbering holds up to 9 of a kind, and 8 pieces are already
/// far beyond a day's build on a small machine.
pub const MAX_PIECES: u32 = 8;

/// One table, built or found on disk, as the build reports it.
#[derive(Clone, Debug)]
pub struct TableReport {
    /// Its signature.
    pub material: Material,
    /// Positions in it.
    pub positions: u64,
    /// Wins, draws and losses for the side to move (zero when read from disk).
    pub counts: [u64; 3],
    /// The longest distance to conversion.
    pub longest: u16,
    /// The file's size.
    pub bytes: u64,
    /// Time spent on it.
    pub time: Duration,
    /// Whether it was already on disk (an earlier, interrupted build).
    pub resumed: bool,
}

/// How many positions the tables of up to `pieces` pieces hold.
pub fn positions_up_to(pieces: u32) -> u64 {
    Material::all_up_to(pieces)
        .into_iter()
        .map(|m| Layout::new(m).size())
        .sum()
}

/// Builds every table of up to `pieces` pieces into `dir`, on `threads` threads, keeping the tables already
/// there (a build that was interrupted goes on where it stopped; a damaged table is built again).
/// `advance` is told of positions as they are done; `report` of each table as it is finished.
pub fn build(
    dir: &Path,
    pieces: u32,
    threads: usize,
    advance: &(dyn Fn(u64) + Sync),
    report: &mut dyn FnMut(&TableReport),
) -> Result<(), EgdbError> {
    std::fs::create_dir_all(dir).map_err(|e| EgdbError::io(dir, e))?;
    let mut solved = Solved::default();
    let mut done = HashSet::new();
    for m in Material::all_up_to(pieces.min(MAX_PIECES)) {
        if !done.insert(m) {
            continue;
        }
        let pair: Vec<Material> = if m.swapped() == m {
            vec![m]
        } else {
            done.insert(m.swapped());
            vec![m, m.swapped()]
        };
        let started = Instant::now();
        if let Some(tables) = read_pair(dir, &pair) {
            // A table that does not read back whole is built again with its pair.
            if let Ok(loaded) = load_pair(&tables, &solved, threads) {
                for (layout, outcomes, longest) in loaded {
                    advance(layout.size());
                    report(&TableReport {
                        material: layout.material(),
                        positions: layout.size(),
                        counts: [0; 3],
                        longest,
                        bytes: std::fs::metadata(dir.join(file_name(layout.material())))
                            .map_or(0, |md| md.len()),
                        time: started.elapsed(),
                        resumed: true,
                    });
                    solved.insert(layout, outcomes);
                }
                continue;
            }
        }
        for solution in solve_pair(&pair, &solved, threads, advance)? {
            let material = solution.layout.material();
            let bytes = write_table(&dir.join(file_name(material)), material, &solution.stored)?;
            report(&TableReport {
                material,
                positions: solution.layout.size(),
                counts: solution.counts,
                longest: solution.longest,
                bytes,
                time: started.elapsed(),
                resumed: false,
            });
            solved.insert(solution.layout, solution.outcomes);
        }
    }
    Ok(())
}

/// The exact outcomes of tables on disk, with their longest distances.
fn load_pair(
    tables: &[TableFile],
    solved: &Solved,
    threads: usize,
) -> Result<Vec<(Layout, Outcomes, u16)>, EgdbError> {
    tables
        .iter()
        .map(|table| {
            let layout = Layout::new(table.material());
            let stored = table.read_all()?;
            let outcomes = outcomes_of_stored(&layout, &stored, solved, threads)?;
            Ok((layout, outcomes, stored.longest()))
        })
        .collect()
}

/// The tables of `pair` if both are on disk and whole.
fn read_pair(dir: &Path, pair: &[Material]) -> Option<Vec<TableFile>> {
    pair.iter()
        .map(|&m| {
            let table = TableFile::open(&dir.join(file_name(m))).ok()?;
            let size = Layout::new(m).size();
            (table.material() == m && table.positions() == size).then_some(table)
        })
        .collect()
}

#[cfg(test)]
mod tests;
