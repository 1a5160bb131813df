//! The server's records in SQLite.
//!
//! One file in the data folder, in write-ahead-log mode with full syncs: every change is a transaction, and a
//! transaction that has returned is on disk, so a crash at any moment loses at most the change being written.
//! The schema carries its version (`PRAGMA user_version`); opening a file of an older version applies the
//! migrations after it, each in a transaction of its own, and a file of a newer version is refused rather than
//! misread.

use std::path::Path;

use rusqlite::{Connection, OptionalExtension, params};

use super::conduct::{Ban, BanTarget, Blocked, PlayerReport, SqliteConduct};
use super::ratings::{EndedGame, RatingRows, rate_game};
use super::schema::SQLITE_MIGRATIONS;
use super::unix_now;
use super::{
    FinishedGame, GameRecords, NewGame, PlayerRecords, RatingRecords, Records, RecordsError,
    Standing, Unfinished, for_sqlite,
};
use crate::serve::identity::Identity;
use crate::serve::ids::{Fingerprint, GameId, TableCode};
use crate::serve::rating::Rating;

/// The records in one SQLite file.
pub struct SqliteRecords {
    /// The open file (its tests look into it).
    pub(super) db: Connection,
}

impl SqliteRecords {
    /// Opens (or creates) the records at `path`, bringing an older schema up to date.
    pub fn open(path: &Path) -> Result<SqliteRecords, RecordsError> {
        let db = Connection::open(path)?;
        SqliteRecords::set_up(db)
    }

    /// Records in memory, gone when dropped (for tests).
    pub fn in_memory() -> Result<SqliteRecords, RecordsError> {
        SqliteRecords::set_up(Connection::open_in_memory()?)
    }

    fn set_up(db: Connection) -> Result<SqliteRecords, RecordsError> {
        // WAL lets readers (a `games` listing) go on while a move is written; FULL makes each commit durable.
        db.pragma_update(None, "journal_mode", "WAL")?;
        db.pragma_update(None, "synchronous", "FULL")?;
        db.pragma_update(None, "foreign_keys", "ON")?;
        db.busy_timeout(std::time::Duration::from_secs(5))?;
        let mut records = SqliteRecords { db };
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
        let known = SQLITE_MIGRATIONS.len() as i64;
        let found = self.version()?;
        if found > known {
            return Err(RecordsError::TooNew { found, known });
        }
        for (version, sql) in SQLITE_MIGRATIONS.iter().enumerate().skip(found as usize) {
            let tx = self.db.transaction()?;
            tx.execute_batch(sql)?;
            tx.pragma_update(None, "user_version", version as i64 + 1)?;
            tx.commit()?;
        }
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
}

impl SqliteRecords {
    /// The games not ended that `condition` (on the games' columns, with `params`) picks, oldest first, with
    /// what resuming each needs.
    fn unfinished_where(
        &mut self,
        condition: &str,
        params: &[&dyn rusqlite::ToSql],
    ) -> Result<Vec<Unfinished>, RecordsError> {
        let mut query = self.db.prepare(&format!(
            "SELECT games.id, variant, black, b.name, white, w.name, rated, clock, code, definition FROM games
             JOIN players b ON b.fingerprint = black JOIN players w ON w.fingerprint = white
             WHERE ended IS NULL AND {condition} ORDER BY games.id"
        ))?;
        let mut games = query
            .query_map(params, |row| {
                Ok(Unfinished {
                    id: row.get(0)?,
                    variant: row.get(1)?,
                    black: (row.get(2)?, row.get(3)?),
                    white: (row.get(4)?, row.get(5)?),
                    rated: row.get(6)?,
                    clock: row.get(7)?,
                    code: row.get(8)?,
                    definition: row.get(9)?,
                    moves: Vec::new(),
                    clocks: None,
                })
            })?
            .collect::<Result<Vec<_>, _>>()?;
        drop(query);
        for game in &mut games {
            game.moves = self.moves(game.id)?;
            let after_move = self
                .db
                .query_row(
                    &for_sqlite(super::games::sql::LAST_MOVE_CLOCKS),
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
                    &for_sqlite(super::games::sql::NOTED_CLOCKS),
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
}

impl PlayerRecords for SqliteRecords {
    fn seen(&mut self, identity: &Identity) -> Result<(), RecordsError> {
        let at = unix_now();
        self.db.execute(
            &for_sqlite(super::players::sql::SEEN),
            params![identity.fingerprint, identity.name, at],
        )?;
        Ok(())
    }

    fn players(&mut self) -> Result<Vec<(String, Fingerprint)>, RecordsError> {
        let mut query = self.db.prepare_cached(super::players::sql::PLAYERS)?;
        let rows = query
            .query_map([], |row| Ok((row.get(0)?, row.get(1)?)))?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(rows)
    }
}

impl GameRecords for SqliteRecords {
    fn start_game(&mut self, game: &NewGame) -> Result<GameId, RecordsError> {
        self.db.execute(
            "INSERT INTO games (variant, black, white, rated, clock, started, code, definition)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            params![
                game.variant,
                game.black,
                game.white,
                game.rated,
                game.clock,
                unix_now(),
                game.code,
                game.definition
            ],
        )?;
        Ok(GameId::new(self.db.last_insert_rowid()))
    }

    fn add_move(
        &mut self,
        game: GameId,
        ply: usize,
        text: &str,
        clocks: Option<[u64; 2]>,
    ) -> Result<(), RecordsError> {
        let [black, white] = clocks.map_or([None, None], |[b, w]| [Some(b as i64), Some(w as i64)]);
        let written = self.db.execute(
            &for_sqlite(super::games::sql::ADD_MOVE),
            params![game, ply as i64, text, black, white],
        )?;
        // The same move again (a write tried again) is kept once; another one at that ply is refused.
        if written == 0 {
            let kept: String = self.db.query_row(
                &for_sqlite(super::games::sql::MOVE_AT),
                params![game, ply as i64],
                |row| row.get(0),
            )?;
            if kept != text {
                return Err(RecordsError::PlyTaken { game, ply });
            }
        }
        Ok(())
    }

    fn note_clocks(
        &mut self,
        game: GameId,
        ply: usize,
        clocks: [u64; 2],
    ) -> Result<(), RecordsError> {
        let [black, white] = clocks.map(|ms| i64::try_from(ms).unwrap_or(i64::MAX));
        self.db.execute(
            &for_sqlite(super::games::sql::NOTE_CLOCKS),
            params![game, ply as i64, black, white],
        )?;
        Ok(())
    }

    fn take_back(&mut self, game: GameId, ply: usize) -> Result<(), RecordsError> {
        self.db.execute(
            &for_sqlite(super::games::sql::TAKE_BACK_MOVES),
            params![game, ply as i64],
        )?;
        // Clocks noted at a move no longer played are of no use.
        self.db.execute(
            &for_sqlite(super::games::sql::TAKE_BACK_CLOCKS),
            params![game, ply as i64],
        )?;
        Ok(())
    }

    fn record_result(&mut self, game: GameId, result: &FinishedGame) -> Result<(), RecordsError> {
        // A savepoint rather than a transaction: it nests inside a batch (`all_or_nothing`).
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
            &for_sqlite(super::games::sql::END),
            params![game, unix_now(), result.result, result.pdn],
        )?;
        let ended = EndedGame {
            variant,
            black,
            white,
            rated,
        };
        rate_game(&mut Rows(&tx), &ended, result)?;
        tx.commit()?;
        Ok(())
    }

    fn moves(&mut self, game: GameId) -> Result<Vec<String>, RecordsError> {
        let mut query = self
            .db
            .prepare_cached(&for_sqlite(super::games::sql::MOVES))?;
        let moves = query
            .query_map(params![game], |row| row.get(0))?
            .collect::<Result<Vec<String>, _>>()?;
        Ok(moves)
    }

    fn unfinished(&mut self) -> Result<Vec<GameId>, RecordsError> {
        let mut query = self.db.prepare_cached(super::games::sql::UNFINISHED)?;
        let ids = query
            .query_map([], |row| row.get(0))?
            .collect::<Result<Vec<GameId>, _>>()?;
        Ok(ids)
    }

    fn unfinished_codes(&mut self) -> Result<Vec<TableCode>, RecordsError> {
        let mut query = self
            .db
            .prepare_cached(super::games::sql::UNFINISHED_CODES)?;
        let codes = query
            .query_map([], |row| row.get::<_, String>(0))?
            .map(|code| code.map(TableCode::new))
            .collect::<Result<Vec<TableCode>, _>>()?;
        Ok(codes)
    }

    fn unfinished_games(&mut self) -> Result<Vec<Unfinished>, RecordsError> {
        self.unfinished_where("TRUE", params![])
    }

    fn unfinished_games_of(
        &mut self,
        player: &Fingerprint,
    ) -> Result<Vec<Unfinished>, RecordsError> {
        self.unfinished_where("(black = ?1 OR white = ?1)", params![player])
    }

    fn unfinished_game(&mut self, code: &TableCode) -> Result<Option<Unfinished>, RecordsError> {
        let found = self.unfinished_where("code = ?1", params![code])?;
        Ok(found.into_iter().next())
    }

    fn finished_games(&mut self) -> Result<Vec<(String, String)>, RecordsError> {
        let mut query = self.db.prepare_cached(super::games::sql::FINISHED)?;
        let games = query
            .query_map([], |row| Ok((row.get(0)?, row.get(1)?)))?
            .collect::<Result<Vec<(String, String)>, _>>()?;
        Ok(games)
    }

    fn games_of(&mut self, fingerprint: &Fingerprint) -> Result<Vec<String>, RecordsError> {
        let mut query = self
            .db
            .prepare_cached(&for_sqlite(super::games::sql::GAMES_OF))?;
        let games = query
            .query_map(params![fingerprint], |row| row.get(0))?
            .collect::<Result<Vec<String>, _>>()?;
        Ok(games)
    }
}

impl RatingRecords for SqliteRecords {
    fn rating(
        &mut self,
        fingerprint: &Fingerprint,
        variant: &str,
    ) -> Result<(Rating, i64), RecordsError> {
        Rows(&self.db).rating_row(fingerprint, variant)
    }

    fn leaderboard(&mut self, variant: &str, count: usize) -> Result<Vec<Standing>, RecordsError> {
        let mut query = self
            .db
            .prepare_cached(&for_sqlite(super::ratings::sql::LEADERBOARD))?;
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
}

impl Records for SqliteRecords {
    fn all_or_nothing(
        &mut self,
        writes: &mut dyn FnMut(&mut dyn Records) -> Result<(), RecordsError>,
    ) -> Result<(), RecordsError> {
        // Immediate: the write lock is taken now, so that a batch never fails half-way for want of it.
        self.db.execute_batch("BEGIN IMMEDIATE")?;
        let done = writes(self).and_then(|()| Ok(self.db.execute_batch("COMMIT")?));
        // SQLite may have ended the transaction itself (a full disk): then there is nothing to undo.
        if done.is_err() && !self.db.is_autocommit() {
            let _ = self.db.execute_batch("ROLLBACK");
        }
        done
    }
}

/// The rating rules' rows in SQLite, read and written on a connection inside the result's transaction.
pub(super) struct Rows<'a>(pub(super) &'a Connection);

impl RatingRows for Rows<'_> {
    fn lock_players(&mut self, _: &Fingerprint, _: &Fingerprint) -> Result<(), RecordsError> {
        // SQLite lets one writer in at a time: the transaction already holds the file's write lock.
        Ok(())
    }

    fn rating_row(
        &mut self,
        fingerprint: &Fingerprint,
        variant: &str,
    ) -> Result<(Rating, i64), RecordsError> {
        let row = self
            .0
            .query_row(
                &for_sqlite(super::ratings::sql::RATING),
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

    fn store_rating_row(
        &mut self,
        fingerprint: &Fingerprint,
        variant: &str,
        rating: Rating,
        games: i64,
    ) -> Result<(), RecordsError> {
        self.0.execute(
            &for_sqlite(super::ratings::sql::STORE_RATING),
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
}

impl super::conduct::Conduct for SqliteRecords {
    fn set_block(
        &mut self,
        player: &Fingerprint,
        other: &Fingerprint,
        name: &str,
        on: bool,
    ) -> Result<bool, RecordsError> {
        SqliteConduct(&self.db).set_block((player, other, name), on, unix_now())
    }

    fn blocks_of(&mut self, player: &Fingerprint) -> Result<Vec<Blocked>, RecordsError> {
        SqliteConduct(&self.db).blocks_of(player)
    }

    fn blocked_between(&mut self, a: &Fingerprint, b: &Fingerprint) -> Result<bool, RecordsError> {
        SqliteConduct(&self.db).blocked_between(a, b)
    }

    fn blocks_among(
        &mut self,
        players: &[Fingerprint],
    ) -> Result<Vec<(Fingerprint, Fingerprint)>, RecordsError> {
        SqliteConduct(&self.db).blocks_among(players)
    }

    fn add_report(&mut self, report: &PlayerReport) -> Result<(), RecordsError> {
        SqliteConduct(&self.db).add_report(report)
    }

    fn reports(&mut self, count: usize) -> Result<Vec<PlayerReport>, RecordsError> {
        SqliteConduct(&self.db).reports(count)
    }

    fn ban(&mut self, ban: &Ban) -> Result<(), RecordsError> {
        SqliteConduct(&self.db).ban(ban)
    }

    fn unban(&mut self, target: &BanTarget) -> Result<bool, RecordsError> {
        SqliteConduct(&self.db).unban(target)
    }

    fn bans(&mut self) -> Result<Vec<Ban>, RecordsError> {
        SqliteConduct(&self.db).bans()
    }

    fn ban_on(
        &mut self,
        key: Option<&Fingerprint>,
        address: std::net::IpAddr,
    ) -> Result<Option<Ban>, RecordsError> {
        SqliteConduct(&self.db).ban_on(key, address)
    }
}
