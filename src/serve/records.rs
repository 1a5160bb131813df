//! The server's records in SQLite: who has played, the games they played, and their ratings.
//!
//! One file in the data folder, in write-ahead-log mode with full syncs: every change is a transaction, and a
//! transaction that has returned is on disk, so a crash at any moment loses at most the change being written.
//! The schema carries its version (`PRAGMA user_version`); opening a file of an older version applies the
//! migrations after it, each in a transaction of its own, and a file of a newer version is refused rather than
//! misread.
//!
//! The calls block on the disk: a server makes them from a thread of its own, never from its event loop.

use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

use rusqlite::{Connection, OptionalExtension, params};
use thiserror::Error;

use super::identity::Identity;
use super::ids::{Fingerprint, GameId, RoomCode};
use super::rating::{Game as RatedGame, Rating};

/// The schema, one migration per version: `MIGRATIONS[n]` takes a file from version `n` to `n + 1`.
const MIGRATIONS: &[&str] = &[
    // Version 1: players, games with their moves, ratings per variant.
    "CREATE TABLE players (
         fingerprint TEXT PRIMARY KEY,
         name TEXT NOT NULL,
         first_seen INTEGER NOT NULL,
         last_seen INTEGER NOT NULL
     );
     CREATE TABLE games (
         id INTEGER PRIMARY KEY,
         variant TEXT NOT NULL,
         black TEXT NOT NULL REFERENCES players(fingerprint),
         white TEXT NOT NULL REFERENCES players(fingerprint),
         rated INTEGER NOT NULL,
         clock TEXT NOT NULL,
         started INTEGER NOT NULL,
         ended INTEGER,
         result TEXT,
         pdn TEXT
     );
     CREATE INDEX games_black ON games(black);
     CREATE INDEX games_white ON games(white);
     CREATE TABLE moves (
         game INTEGER NOT NULL REFERENCES games(id),
         ply INTEGER NOT NULL,
         text TEXT NOT NULL,
         PRIMARY KEY (game, ply)
     );
     CREATE TABLE ratings (
         fingerprint TEXT NOT NULL REFERENCES players(fingerprint),
         variant TEXT NOT NULL,
         rating REAL NOT NULL,
         deviation REAL NOT NULL,
         volatility REAL NOT NULL,
         games INTEGER NOT NULL,
         PRIMARY KEY (fingerprint, variant)
     );",
    // Version 2: the code a game is joined by, and both clocks after each move (a restarted server resumes
    // the clocks where they stood).
    "ALTER TABLE games ADD COLUMN code TEXT;
     ALTER TABLE moves ADD COLUMN black_ms INTEGER;
     ALTER TABLE moves ADD COLUMN white_ms INTEGER;",
    // Version 3: both clocks as they stood a moment ago (every few seconds while one runs, and as the server
    // stops), after `ply` moves: a restart goes on from them rather than from the last move's.
    "CREATE TABLE clocks (
         game INTEGER PRIMARY KEY REFERENCES games(id),
         ply INTEGER NOT NULL,
         black_ms INTEGER NOT NULL,
         white_ms INTEGER NOT NULL
     );",
];

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
    /// Its moves, in order.
    pub moves: Vec<String>,
    /// Black's and White's time left in milliseconds, when the game has clocks: as they stood when last noted
    /// ([`Records::note_clocks`]) if that was after the last move, else after the last move (if there is one).
    pub clocks: Option<[u64; 2]>,
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

/// The open records.
pub struct Records {
    db: Connection,
}

fn now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

impl Records {
    /// Opens (or creates) the records at `path`, bringing an older schema up to date.
    pub fn open(path: &Path) -> Result<Records, RecordsError> {
        let db = Connection::open(path)?;
        Records::set_up(db)
    }

    /// Records in memory, gone when dropped (for tests).
    pub fn in_memory() -> Result<Records, RecordsError> {
        Records::set_up(Connection::open_in_memory()?)
    }

    fn set_up(db: Connection) -> Result<Records, RecordsError> {
        // WAL lets readers (a `games` listing) go on while a move is written; FULL makes each commit durable.
        db.pragma_update(None, "journal_mode", "WAL")?;
        db.pragma_update(None, "synchronous", "FULL")?;
        db.pragma_update(None, "foreign_keys", "ON")?;
        db.busy_timeout(std::time::Duration::from_secs(5))?;
        let mut records = Records { db };
        records.migrate()?;
        Ok(records)
    }

    /// The schema version of the open file.
    pub fn version(&self) -> Result<i64, RecordsError> {
        Ok(self
            .db
            .pragma_query_value(None, "user_version", |row| row.get(0))?)
    }

    fn migrate(&mut self) -> Result<(), RecordsError> {
        let known = MIGRATIONS.len() as i64;
        let found = self.version()?;
        if found > known {
            return Err(RecordsError::TooNew { found, known });
        }
        for (version, sql) in MIGRATIONS.iter().enumerate().skip(found as usize) {
            let tx = self.db.transaction()?;
            tx.execute_batch(sql)?;
            tx.pragma_update(None, "user_version", version as i64 + 1)?;
            tx.commit()?;
        }
        Ok(())
    }

    /// Notes that `identity` has connected (their latest name kept).
    pub fn seen(&self, identity: &Identity) -> Result<(), RecordsError> {
        let at = now();
        self.db.execute(
            "INSERT INTO players (fingerprint, name, first_seen, last_seen) VALUES (?1, ?2, ?3, ?3)
             ON CONFLICT (fingerprint) DO UPDATE SET name = ?2, last_seen = ?3",
            params![identity.fingerprint, identity.name, at],
        )?;
        Ok(())
    }

    /// Everyone who has connected, by display name, with their key's fingerprint, first seen first.
    pub fn players(&self) -> Result<Vec<(String, Fingerprint)>, RecordsError> {
        let mut query = self
            .db
            .prepare_cached("SELECT name, fingerprint FROM players ORDER BY first_seen, name")?;
        let rows = query
            .query_map([], |row| Ok((row.get(0)?, row.get(1)?)))?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(rows)
    }

    /// Records a game that starts; its number.
    pub fn start_game(&self, game: &NewGame) -> Result<GameId, RecordsError> {
        self.db.execute(
            "INSERT INTO games (variant, black, white, rated, clock, started, code)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            params![
                game.variant,
                game.black,
                game.white,
                game.rated,
                game.clock,
                now(),
                game.code
            ],
        )?;
        Ok(GameId::new(self.db.last_insert_rowid()))
    }

    /// Records the move at `ply` (from 0) of a game in progress, with both clocks after it (milliseconds, Black's
    /// then White's) when the game has clocks.
    pub fn add_move(
        &self,
        game: GameId,
        ply: usize,
        text: &str,
        clocks: Option<[u64; 2]>,
    ) -> Result<(), RecordsError> {
        let [black, white] = clocks.map_or([None, None], |[b, w]| [Some(b as i64), Some(w as i64)]);
        self.db.execute(
            "INSERT INTO moves (game, ply, text, black_ms, white_ms) VALUES (?1, ?2, ?3, ?4, ?5)",
            params![game, ply as i64, text, black, white],
        )?;
        Ok(())
    }

    /// Every game that started and has not ended, with what resuming it needs.
    pub fn unfinished_games(&self) -> Result<Vec<Unfinished>, RecordsError> {
        let mut query = self.db.prepare_cached(
            "SELECT games.id, variant, black, b.name, white, w.name, rated, clock, code FROM games
             JOIN players b ON b.fingerprint = black JOIN players w ON w.fingerprint = white
             WHERE ended IS NULL ORDER BY games.id",
        )?;
        let mut games = query
            .query_map([], |row| {
                Ok(Unfinished {
                    id: row.get(0)?,
                    variant: row.get(1)?,
                    black: (row.get(2)?, row.get(3)?),
                    white: (row.get(4)?, row.get(5)?),
                    rated: row.get(6)?,
                    clock: row.get(7)?,
                    code: row.get(8)?,
                    moves: Vec::new(),
                    clocks: None,
                })
            })?
            .collect::<Result<Vec<_>, _>>()?;
        for game in &mut games {
            game.moves = self.moves(game.id)?;
            let after_move = self
                .db
                .query_row(
                    "SELECT black_ms, white_ms FROM moves WHERE game = ?1 ORDER BY ply DESC LIMIT 1",
                    params![game.id],
                    |row| {
                        let (b, w): (Option<i64>, Option<i64>) = (row.get(0)?, row.get(1)?);
                        Ok(b.zip(w).map(|(b, w)| [b.max(0) as u64, w.max(0) as u64]))
                    },
                )
                .optional()?
                .flatten();
            // Noted after the last move (not before a move or a takeback since): the later of the two.
            let noted = self
                .db
                .query_row(
                    "SELECT black_ms, white_ms FROM clocks WHERE game = ?1 AND ply = ?2",
                    params![game.id, game.moves.len() as i64],
                    |row| {
                        let (b, w): (i64, i64) = (row.get(0)?, row.get(1)?);
                        Ok([b.max(0) as u64, w.max(0) as u64])
                    },
                )
                .optional()?;
            game.clocks = noted.or(after_move);
        }
        Ok(games)
    }

    /// Notes both clocks of a game in progress as they stand after `ply` moves (milliseconds, Black's then
    /// White's), replacing the last note: what a restart goes on from, so that time used since the last move is
    /// not given back.
    pub fn note_clocks(
        &self,
        game: GameId,
        ply: usize,
        clocks: [u64; 2],
    ) -> Result<(), RecordsError> {
        let [black, white] = clocks.map(|ms| i64::try_from(ms).unwrap_or(i64::MAX));
        self.db.execute(
            "INSERT INTO clocks (game, ply, black_ms, white_ms) VALUES (?1, ?2, ?3, ?4)
             ON CONFLICT (game) DO UPDATE SET ply = ?2, black_ms = ?3, white_ms = ?4",
            params![game, ply as i64, black, white],
        )?;
        Ok(())
    }

    /// Starts a transaction that the calls up to [`Records::commit`] join: many changes, one sync to the disk.
    pub fn begin(&self) -> Result<(), RecordsError> {
        self.db.execute_batch("BEGIN IMMEDIATE")?;
        Ok(())
    }

    /// Commits the transaction [`Records::begin`] started.
    pub fn commit(&self) -> Result<(), RecordsError> {
        self.db.execute_batch("COMMIT")?;
        Ok(())
    }

    /// Lets the file grow to at most `pages` pages (SQLite then answers as on a full disk), or as far as SQLite
    /// allows with `None`: a test's full disk.
    #[cfg(test)]
    pub(crate) fn limit_pages(&self, pages: Option<u64>) {
        let pages = match pages {
            Some(pages) => pages,
            None => u64::from(u32::MAX - 1),
        };
        let _ = self
            .db
            .query_row(&format!("PRAGMA max_page_count = {pages}"), [], |_| Ok(()));
    }

    /// Refuses every write from now on (SQLite answers as on a read-only disk), or takes them again: a test's
    /// failing disk.
    #[cfg(test)]
    pub(crate) fn refuse_writes(&self, refuse: bool) {
        let _ = self
            .db
            .execute_batch(&format!("PRAGMA query_only = {}", u8::from(refuse)));
    }

    /// The file's size in pages now.
    #[cfg(test)]
    pub(crate) fn pages(&self) -> u64 {
        self.db
            .query_row("PRAGMA page_count", [], |row| row.get::<_, i64>(0))
            .map_or(0, |pages| pages.unsigned_abs())
    }

    /// Undoes the transaction [`Records::begin`] started, if one is open (SQLite may have ended it itself on a
    /// full disk; then there is nothing to undo).
    pub fn roll_back(&self) {
        if !self.db.is_autocommit() {
            let _ = self.db.execute_batch("ROLLBACK");
        }
    }

    /// Takes back the moves from `ply` on (an agreed takeback).
    pub fn take_back(&self, game: GameId, ply: usize) -> Result<(), RecordsError> {
        self.db.execute(
            "DELETE FROM moves WHERE game = ?1 AND ply >= ?2",
            params![game, ply as i64],
        )?;
        // Clocks noted at a move no longer played are of no use.
        self.db.execute(
            "DELETE FROM clocks WHERE game = ?1 AND ply >= ?2",
            params![game, ply as i64],
        )?;
        Ok(())
    }

    /// The moves of a game so far, in order: what a restarted server replays.
    pub fn moves(&self, game: GameId) -> Result<Vec<String>, RecordsError> {
        let mut query = self
            .db
            .prepare_cached("SELECT text FROM moves WHERE game = ?1 ORDER BY ply")?;
        let moves = query
            .query_map(params![game], |row| row.get(0))?
            .collect::<Result<Vec<String>, _>>()?;
        Ok(moves)
    }

    /// The games that started and have not ended: those a restarted server resumes.
    pub fn unfinished(&self) -> Result<Vec<GameId>, RecordsError> {
        let mut query = self
            .db
            .prepare_cached("SELECT id FROM games WHERE ended IS NULL ORDER BY id")?;
        let ids = query
            .query_map([], |row| row.get(0))?
            .collect::<Result<Vec<GameId>, _>>()?;
        Ok(ids)
    }

    /// Ends a game with its result (`1-0`, `0-1`, `1/2-1/2` from Black's side... as the variant writes it), its
    /// PDN, and Black's score (1, 0.5 or 0) for the ratings when the game is rated. One transaction: the result
    /// and both ratings change together or not at all.
    pub fn finish_game(
        &mut self,
        game: GameId,
        result: &str,
        pdn: &str,
        black_score: f64,
    ) -> Result<(), RecordsError> {
        // A savepoint rather than a transaction: it nests inside a batch begun with `begin`.
        let tx = self.db.savepoint()?;
        let row: Option<(String, Fingerprint, Fingerprint, bool)> = tx
            .query_row(
                "SELECT variant, black, white, rated FROM games WHERE id = ?1 AND ended IS NULL",
                params![game],
                |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?)),
            )
            .optional()?;
        let Some((variant, black, white, rated)) = row else {
            return Err(RecordsError::NoGame(game));
        };
        tx.execute(
            "UPDATE games SET ended = ?2, result = ?3, pdn = ?4 WHERE id = ?1",
            params![game, now(), result, pdn],
        )?;
        if rated && black != white {
            let black_before = rating_in(&tx, &black, &variant)?;
            let white_before = rating_in(&tx, &white, &variant)?;
            let black_after = black_before.0.after(&[RatedGame {
                opponent: white_before.0,
                score: black_score,
            }]);
            let white_after = white_before.0.after(&[RatedGame {
                opponent: black_before.0,
                score: 1.0 - black_score,
            }]);
            store_rating(&tx, &black, &variant, black_after, black_before.1 + 1)?;
            store_rating(&tx, &white, &variant, white_after, white_before.1 + 1)?;
        }
        tx.commit()?;
        Ok(())
    }

    /// A player's rating in a variant (a new player's when they have none) and their rated games in it.
    pub fn rating(
        &self,
        fingerprint: &Fingerprint,
        variant: &str,
    ) -> Result<(Rating, i64), RecordsError> {
        rating_in(&self.db, fingerprint, variant)
    }

    /// The best `count` players of a variant by rating.
    pub fn leaderboard(&self, variant: &str, count: usize) -> Result<Vec<Standing>, RecordsError> {
        let mut query = self.db.prepare_cached(
            "SELECT players.name, rating, deviation, volatility, games FROM ratings
             JOIN players USING (fingerprint) WHERE variant = ?1 ORDER BY rating DESC LIMIT ?2",
        )?;
        let rows = query
            .query_map(params![variant, count as i64], |row| {
                Ok(Standing {
                    name: row.get(0)?,
                    rating: Rating {
                        rating: row.get(1)?,
                        deviation: row.get(2)?,
                        volatility: row.get(3)?,
                    },
                    games: row.get(4)?,
                })
            })?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(rows)
    }

    /// Every finished game's result and PDN, oldest first.
    pub fn finished_games(&self) -> Result<Vec<(String, String)>, RecordsError> {
        let mut query = self
            .db
            .prepare_cached("SELECT result, pdn FROM games WHERE ended IS NOT NULL ORDER BY id")?;
        let games = query
            .query_map([], |row| Ok((row.get(0)?, row.get(1)?)))?
            .collect::<Result<Vec<(String, String)>, _>>()?;
        Ok(games)
    }

    /// The finished games a player took part in, as PDN, oldest first.
    pub fn games_of(&self, fingerprint: &Fingerprint) -> Result<Vec<String>, RecordsError> {
        let mut query = self.db.prepare_cached(
            "SELECT pdn FROM games WHERE (black = ?1 OR white = ?1) AND ended IS NOT NULL ORDER BY id",
        )?;
        let games = query
            .query_map(params![fingerprint], |row| row.get(0))?
            .collect::<Result<Vec<String>, _>>()?;
        Ok(games)
    }
}

fn rating_in(
    db: &Connection,
    fingerprint: &Fingerprint,
    variant: &str,
) -> Result<(Rating, i64), RecordsError> {
    let row = db
        .query_row(
            "SELECT rating, deviation, volatility, games FROM ratings WHERE fingerprint = ?1 AND variant = ?2",
            params![fingerprint, variant],
            |row| {
                Ok((
                    Rating {
                        rating: row.get(0)?,
                        deviation: row.get(1)?,
                        volatility: row.get(2)?,
                    },
                    row.get(3)?,
                ))
            },
        )
        .optional()?;
    Ok(row.unwrap_or((Rating::default(), 0)))
}

fn store_rating(
    db: &Connection,
    fingerprint: &Fingerprint,
    variant: &str,
    rating: Rating,
    games: i64,
) -> Result<(), RecordsError> {
    db.execute(
        "INSERT INTO ratings (fingerprint, variant, rating, deviation, volatility, games)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)
         ON CONFLICT (fingerprint, variant) DO UPDATE
         SET rating = ?3, deviation = ?4, volatility = ?5, games = ?6",
        params![
            fingerprint,
            variant,
            rating.rating,
            rating.deviation,
            rating.volatility,
            games
        ],
    )?;
    Ok(())
}

#[cfg(test)]
mod tests;
