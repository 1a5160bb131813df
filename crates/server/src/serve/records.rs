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

use super::identity::Identity;
use super::ids::{Fingerprint, GameId, RoomCode};
use super::rating::Rating;

pub mod backup;
pub mod conduct;
pub mod creations;
pub mod links;
pub mod migrate;
pub mod news;
mod postgres;
mod postgres_conduct;
mod postgres_games;
mod postgres_problems;
mod postgres_tournaments;
pub mod problems;
mod ratings;
mod sqlite;
mod sqlite_problems;
mod sqlite_tournaments;
pub mod tournaments;

pub use crate::config::{PostgresUrl, UrlError};
pub use postgres::PostgresRecords;
pub(crate) use postgres::{MIGRATION_LOCK, MIGRATIONS as POSTGRES_MIGRATIONS};
pub use problems::{ProblemOutcome, ProblemStanding};
pub use sqlite::SqliteRecords;
pub use tournaments::{
    EntryRecord, Kind, PairingRecord, Stage, TournamentChange, TournamentRecord, TournamentSpec,
};

/// Where the server's records are kept, and what it asks of them: the players it has seen, the games with their
/// moves and clocks, the results with the ratings they change, and what the lobby and a restarted server read.
///
/// Every call takes the records mutably, reads too: a client of a database server needs its connection to
/// itself for each query. Calls block; the trait is used from blocking threads.
pub trait Records:
    conduct::Conduct + news::News + creations::EventCreations + links::BrowserLinks + Send
{
    /// Notes that `identity` has connected (their latest name kept).
    fn seen(&mut self, identity: &Identity) -> Result<(), RecordsError>;

    /// Everyone who has connected, by display name, with their key's fingerprint, first seen first.
    fn players(&mut self) -> Result<Vec<(String, Fingerprint)>, RecordsError>;

    /// Records a game that starts; its number.
    fn start_game(&mut self, game: &NewGame) -> Result<GameId, RecordsError>;

    /// Records the move at `ply` (from 0) of a game in progress, with both clocks after it (milliseconds,
    /// Black's then White's) when the game has clocks. The same move written twice (a write tried again after
    /// its answer was lost) is kept once; another move at a ply already written is [`RecordsError::PlyTaken`].
    fn add_move(
        &mut self,
        game: GameId,
        ply: usize,
        text: &str,
        clocks: Option<[u64; 2]>,
    ) -> Result<(), RecordsError>;

    /// Notes both clocks of a game in progress as they stand after `ply` moves (milliseconds, Black's then
    /// White's), replacing the last note: what a restart goes on from, so that time used since the last move is
    /// not given back.
    fn note_clocks(
        &mut self,
        game: GameId,
        ply: usize,
        clocks: [u64; 2],
    ) -> Result<(), RecordsError>;

    /// Takes back the moves from `ply` on (an agreed takeback), and the clocks noted at them.
    fn take_back(&mut self, game: GameId, ply: usize) -> Result<(), RecordsError>;

    /// Ends a game with its result; when the game is rated, both players' ratings in its variant change by
    /// [`rating::after_game`](super::rating::after_game). Atomic: the result and both ratings change together
    /// or not at all. A game not in progress is [`RecordsError::NoGame`].
    fn record_result(&mut self, game: GameId, result: &FinishedGame) -> Result<(), RecordsError>;

    /// Makes the writes `writes` does one change: if it fails (or the change cannot be kept) nothing of it is
    /// kept, and the error is returned. Not nested: `writes` does not call it again.
    fn all_or_nothing(
        &mut self,
        writes: &mut dyn FnMut(&mut dyn Records) -> Result<(), RecordsError>,
    ) -> Result<(), RecordsError>;

    /// The moves of a game so far, in order: what a restarted server replays.
    fn moves(&mut self, game: GameId) -> Result<Vec<String>, RecordsError>;

    /// The games that started and have not ended: those a restarted server resumes.
    fn unfinished(&mut self) -> Result<Vec<GameId>, RecordsError>;

    /// Every game that started and has not ended, with what resuming it needs.
    fn unfinished_games(&mut self) -> Result<Vec<Unfinished>, RecordsError>;

    /// The games not ended in which `player` has a seat (what a player coming back rejoins), oldest first.
    fn unfinished_games_of(
        &mut self,
        player: &Fingerprint,
    ) -> Result<Vec<Unfinished>, RecordsError>;

    /// The game not ended that is joined by `code`, if there is one: what a node taking a room over resumes.
    /// PostgreSQL's read first waits for a write to the game that is being made to be kept or refused, so that
    /// the room's new owner reads every move its old owner was let write.
    fn unfinished_game(&mut self, code: &RoomCode) -> Result<Option<Unfinished>, RecordsError>;

    /// A player's rating in a variant (a new player's when they have none) and their rated games in it.
    fn rating(
        &mut self,
        player: &Fingerprint,
        variant: &str,
    ) -> Result<(Rating, i64), RecordsError>;

    /// The best `count` players of a variant by rating.
    fn leaderboard(&mut self, variant: &str, count: usize) -> Result<Vec<Standing>, RecordsError>;

    /// Every finished game's result and PDN, oldest first.
    fn finished_games(&mut self) -> Result<Vec<(String, String)>, RecordsError>;

    /// The finished games a player took part in, as PDN, oldest first.
    fn games_of(&mut self, player: &Fingerprint) -> Result<Vec<String>, RecordsError>;

    /// Records a new tournament, waiting to start. A code already taken is an error of the database.
    fn create_tournament(&mut self, spec: &TournamentSpec) -> Result<(), RecordsError>;

    /// Records one change to the tournament `code` as it happens (an entry, a pairing, a result...).
    fn change_tournament(
        &mut self,
        code: &RoomCode,
        change: &TournamentChange,
    ) -> Result<(), RecordsError>;

    /// The tournament `code` as kept: how it was set up, its entrants, pairings, results and byes.
    fn tournament(&mut self, code: &RoomCode) -> Result<Option<TournamentRecord>, RecordsError>;

    /// Every tournament kept, with where it stands, by start time.
    fn tournaments(&mut self) -> Result<Vec<(TournamentSpec, Stage)>, RecordsError>;

    /// The PDN of a tournament's finished games, in the order they were paired.
    fn tournament_games(&mut self, code: &RoomCode) -> Result<Vec<String>, RecordsError>;

    /// The pairings of the tournament `code` whose result is not kept but whose game has ended: each one's round,
    /// board and the game's result as PDN writes it (`1-0`). What an event taken over or restarted learns of the
    /// games that ended where it did not hear of them.
    fn tournament_games_ended(
        &mut self,
        code: &RoomCode,
    ) -> Result<Vec<(u32, u32, String)>, RecordsError>;

    /// A player's standing in the problem trainer: their problem rating, problems tried and solved, best
    /// streak (a new player's when they have tried none).
    fn problem_standing(&mut self, player: &Fingerprint) -> Result<ProblemStanding, RecordsError>;

    /// Every problem's rating, by the problem's name (its FEN), for the problems tried at least once.
    fn problem_ratings(&mut self) -> Result<Vec<(String, Rating)>, RecordsError>;

    /// Records `player`'s attempt at `problem` (named by its FEN): solved (no wrong move, no hint) or not. The
    /// player's first attempt at a problem is rated, a win or a loss against the problem, both ratings changing
    /// by [`rating::after_game`](super::rating::after_game); later ones are kept unrated. Atomic. The player
    /// must have been [`seen`](Records::seen).
    fn record_problem_attempt(
        &mut self,
        player: &Fingerprint,
        problem: &str,
        solved: bool,
    ) -> Result<ProblemOutcome, RecordsError>;

    /// Notes a streak of `length` problems solved one after another; the player's best streak after it.
    fn note_problem_streak(
        &mut self,
        player: &Fingerprint,
        length: u32,
    ) -> Result<i64, RecordsError>;
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
    /// A write to a game whose room this node does not hold (another node has taken it over, or this node's
    /// lease on it has lapsed): refused, the game left as it was. The room is no longer this node's to run.
    #[error(
        "the server's records: this node does not hold the room {} any more; the write is refused",
        .code.as_ref().map_or("(no code)", RoomCode::as_str)
    )]
    NotHeld {
        /// The room's code (`None` for a game from before rooms had codes, which no node may lease).
        code: Option<RoomCode>,
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

/// A game as it starts: who plays what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewGame<'a> {
    /// The variant's name.
    pub variant: &'a str,
    /// Black's key fingerprint.
    pub black: &'a Fingerprint,
    /// White's.
    pub white: &'a Fingerprint,
    /// Whether the game changes ratings.
    pub rated: bool,
    /// The time control as written (`5+3`), empty for none.
    pub clock: &'a str,
    /// The code the game is joined by.
    pub code: &'a RoomCode,
    /// The definition (TOML text) of a variant written as one; `None` for a built-in variant.
    pub definition: Option<&'a str>,
}

/// A game that started and has not ended, as a restarted server resumes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unfinished {
    /// Its number in the records.
    pub id: GameId,
    /// The variant's name.
    pub variant: String,
    /// Black's key fingerprint and name.
    pub black: (Fingerprint, String),
    /// White's.
    pub white: (Fingerprint, String),
    /// Whether it is rated.
    pub rated: bool,
    /// The time control as written, empty for none.
    pub clock: String,
    /// The code it was joined by.
    pub code: Option<RoomCode>,
    /// The definition (TOML text) of a variant written as one; `None` for a built-in variant.
    pub definition: Option<String>,
    /// Its moves, in order.
    pub moves: Vec<String>,
    /// Black's and White's time left in milliseconds, when the game has clocks: as they stood when last noted
    /// ([`Records::note_clocks`]) if that was after the last move, else after the last move (if there is one).
    pub clocks: Option<[u64; 2]>,
}

/// How a game ended, as the records keep it.
#[derive(Clone, Debug, PartialEq)]
pub struct FinishedGame<'a> {
    /// Its result as the variant writes it (`1-0`, `0-1`, `1/2-1/2`... from Black's side).
    pub result: &'a str,
    /// The whole game as PDN.
    pub pdn: &'a str,
    /// Black's score for the ratings, when the game is rated: 1, 0.5 or 0.
    pub black_score: f64,
}

impl FinishedGame<'_> {
    /// Whether the game changes its players' ratings (when it is rated): not when it has no result (`*`, a game
    /// called off because a side made no first move in time).
    pub fn counts(&self) -> bool {
        self.result != "*"
    }
}

/// A player's line in the leaderboard.
#[derive(Clone, Debug, PartialEq)]
pub struct Standing {
    /// Their display name.
    pub name: String,
    /// Their rating in the variant.
    pub rating: Rating,
    /// Rated games played in it.
    pub games: i64,
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod postgres_tests;

#[cfg(test)]
mod postgres_fence_tests;

#[cfg(test)]
mod tournament_tests;

#[cfg(test)]
mod problem_tests;
