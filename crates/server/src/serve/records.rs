//! The server's records: who has played, the games they played, and their ratings.
//!
//! What the server needs of them is the [`Records`] trait; [`SqliteRecords`] keeps them in one SQLite file, and
//! [`PostgresRecords`] in a PostgreSQL database that several servers may share ([`Place`] says which). Every
//! write is atomic on its own (a result changes both ratings with it, or nothing), and a batch of writes may be
//! made one change ([`Records::all_or_nothing`]): the recorder writes many moves with one sync to the disk.
//!
//! The calls block (on the disk, or on a database server): a server makes them from a thread of its own, never
//! from its event loop.

use rusqlite::ErrorCode;
use thiserror::Error;

use super::ids::{GameId, TableCode};

pub mod backup;
pub mod conduct;
pub mod creations;
pub mod events;
mod games;
pub mod links;
pub mod migrate;
pub mod news;
mod players;
mod postgres;
mod postgres_conduct;
mod postgres_events;
mod postgres_games;
mod postgres_problems;
pub mod problems;
mod ratings;
mod schema;
mod sqlite;
mod sqlite_events;
mod sqlite_problems;

pub use crate::config::{PostgresUrl, UrlError};
pub use events::EventRecords;
pub use events::{
    EntryRecord, EventChange, EventKind, EventRecord, EventSpec, PairingRecord, Stage,
};
pub use games::{FinishedGame, GameRecords, NewGame, Unfinished};
pub use players::PlayerRecords;
pub(crate) use postgres::MIGRATION_LOCK;
pub use postgres::PostgresRecords;
pub use problems::ProblemRecords;
pub use problems::{ProblemOutcome, ProblemStanding};
pub use ratings::{RatingRecords, Standing};
pub(crate) use schema::POSTGRES_MIGRATIONS;
pub use sqlite::SqliteRecords;

/// The seconds since the Unix epoch now: the time the records write, and the time events count in.
pub fn unix_now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
}

/// Where the server's records are kept, and what it asks of them: the players it has seen, the games with their
/// moves and clocks, the results with the ratings they change, and what the lobby and a restarted server read.
///
/// Every call takes the records mutably, reads too: a client of a database server needs its connection to
/// itself for each query. Calls block; the trait is used from blocking threads.
pub trait Records:
    PlayerRecords
    + GameRecords
    + RatingRecords
    + EventRecords
    + ProblemRecords
    + conduct::Conduct
    + news::NewsRecords
    + creations::EventCreations
    + links::BrowserLinks
    + Send
{
    /// Makes the writes `writes` does one change: if it fails (or the change cannot be kept) nothing of it is
    /// kept, and the error is returned. Not nested: `writes` does not call it again.
    fn all_or_nothing(
        &mut self,
        writes: &mut dyn FnMut(&mut dyn Records) -> Result<(), RecordsError>,
    ) -> Result<(), RecordsError>;
}

/// A statement written once for both databases, in PostgreSQL's numbered parameters (`$1`), as SQLite is given
/// it (`?1`). SQLite would take `$1` too, but as a name numbered in the order names first appear, so that a
/// statement using `$2` before `$1` would bind its values the wrong way round.
pub(super) fn for_sqlite(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len());
    let mut chars = sql.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '$' && chars.peek().is_some_and(char::is_ascii_digit) {
            out.push('?');
        } else {
            out.push(c);
        }
    }
    out
}

/// What goes wrong with the records.
#[derive(Debug, Error)]
pub enum RecordsError {
    /// SQLite failed.
    #[error("the server's records: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// The file was written by a newer program.
    #[error(
        "the server's records are of schema version {found}, newer than this program's {known}; run the newer program"
    )]
    TooNew {
        /// The file's version.
        found: i64,
        /// The newest this program knows.
        known: i64,
    },
    /// A game that is not in the records.
    #[error("no game {0} in the records")]
    NoGame(GameId),
    /// PostgreSQL failed (its messages never hold the password).
    #[error("the server's records: {0}")]
    Postgres(#[from] ::postgres::Error),
    /// The records' URL cannot be used.
    #[error("the server's records: {0}")]
    Url(String),
    /// A write to a game whose table this node does not hold (another node has taken it over, or this node's
    /// lease on it has lapsed): refused, the game left as it was. The table is no longer this node's to run.
    #[error(
        "the server's records: this node does not hold the table {} any more; the write is refused",
        .code.as_ref().map_or("(no code)", TableCode::as_str)
    )]
    NotHeld {
        /// The table's code (`None` for a game from before tables had codes, which no node may lease).
        code: Option<TableCode>,
    },
    /// Another live process is running as this node (it renewed its leases within the last lease term).
    #[error(
        "another server named `{node}` is running on these records (it renewed its leases within the last lease \
         term); give this one another name (--node-name) or stop the other"
    )]
    NodeNameLive {
        /// The name.
        node: String,
    },
    /// Another move was written at this ply of the game already.
    #[error("the server's records: game {game} has another move at ply {ply} already")]
    PlyTaken {
        /// The game.
        game: GameId,
        /// The ply.
        ply: usize,
    },
    /// A value in the records that this program never writes (a hand-edited or newer database).
    #[error("the server's records hold {0}, which this program does not write")]
    Unreadable(String),
    /// The connection was lost as a transaction was being committed, and the database did not answer again in
    /// time to say whether it kept it: what the transaction wrote may be in the records or not.
    #[error(
        "the server's records: the connection was lost as a write was committed, and whether it was kept is not known yet"
    )]
    CommitUnknown,
    /// The connection to the records was lost and is not back yet.
    #[error("the server's records: the connection was lost")]
    Lost,
    /// A transaction given up by its writer (one of the commits in it was refused, and the rest is written
    /// again without it).
    #[error("the server's records: the transaction was given up")]
    GivenUp,
}

impl RecordsError {
    /// Whether the trouble is the disk's (full, read-only, failing, busy) or the database server's (the
    /// connection lost, the server stopping, too many connections): worth trying again later, where any other
    /// error would come back the same.
    pub fn is_storage(&self) -> bool {
        match self {
            RecordsError::Lost => return true,
            RecordsError::Postgres(e) => return postgres_is_storage(e),
            _ => {}
        }
        let RecordsError::Sqlite(rusqlite::Error::SqliteFailure(failure, _)) = self else {
            return false;
        };
        matches!(
            failure.code,
            ErrorCode::DiskFull
                | ErrorCode::SystemIoFailure
                | ErrorCode::ReadOnly
                | ErrorCode::DatabaseBusy
                | ErrorCode::DatabaseLocked
                | ErrorCode::CannotOpen
                | ErrorCode::OutOfMemory
        )
    }
}

/// Whether a PostgreSQL error is the server's or the network's passing trouble rather than the request's.
fn postgres_is_storage(e: &::postgres::Error) -> bool {
    use ::postgres::error::SqlState;
    if e.is_closed() {
        return true;
    }
    let Some(code) = e.code() else {
        // No answer from the server at all: the network (a refused or timed-out connection).
        return std::error::Error::source(e).is_some_and(|source| source.is::<std::io::Error>());
    };
    // Class 08: the connection failed; 53: the server is short of disk, memory or connections.
    let class = code.code().get(..2);
    matches!(class, Some("08" | "53"))
        || [
            SqlState::ADMIN_SHUTDOWN,
            SqlState::CRASH_SHUTDOWN,
            SqlState::CANNOT_CONNECT_NOW,
            SqlState::T_R_SERIALIZATION_FAILURE,
            SqlState::T_R_DEADLOCK_DETECTED,
            SqlState::LOCK_NOT_AVAILABLE,
            SqlState::READ_ONLY_SQL_TRANSACTION,
        ]
        .contains(code)
}

/// Where the records are kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Place {
    /// An SQLite file, which one server uses at a time.
    Sqlite(std::path::PathBuf),
    /// A PostgreSQL database, which several servers may share.
    Postgres(PostgresUrl),
}

impl std::fmt::Display for Place {
    /// The file, or the URL without its password.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Place::Sqlite(path) => write!(f, "{}", path.display()),
            Place::Postgres(url) => write!(f, "{url}"),
        }
    }
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod postgres_tests;

#[cfg(test)]
mod postgres_fence_tests;

#[cfg(test)]
mod event_tests;

#[cfg(test)]
mod problem_tests;
