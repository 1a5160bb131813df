//! The problem trainer's records in SQLite: the [`Records`](super::Records) calls about problems.

use rusqlite::{Connection, OptionalExtension, Savepoint, TransactionBehavior, params};

use super::problems::ProblemRecords;
use super::problems::{ProblemOutcome, ProblemStanding};
use super::ratings::{Attempt, ProblemRows, rate_attempt};
use super::sqlite::SqliteRecords;
use super::unix_now;
use super::{RecordsError, for_sqlite};
use crate::serve::ids::Fingerprint;
use crate::serve::rating::Rating;

fn rating_of(row: &rusqlite::Row<'_>, first: usize) -> rusqlite::Result<Rating> {
    Ok(Rating {
        rating: row.get(first)?,
        deviation: row.get(first + 1)?,
        volatility: row.get(first + 2)?,
    })
}

/// A player's standing (a new player's when they have none).
pub(super) fn standing(
    db: &Connection,
    player: &Fingerprint,
) -> Result<ProblemStanding, RecordsError> {
    let row = db
        .query_row(
            "SELECT rating, deviation, volatility, attempts, solved, best_streak
             FROM player_problem_ratings WHERE fingerprint = ?1",
            params![player],
            |row| {
                Ok(ProblemStanding {
                    rating: rating_of(row, 0)?,
                    attempts: row.get(3)?,
                    solved: row.get(4)?,
                    best_streak: row.get(5)?,
                })
            },
        )
        .optional()?;
    Ok(row.unwrap_or_default())
}

/// Every rated problem's rating.
pub(super) fn ratings(db: &Connection) -> Result<Vec<(String, Rating)>, RecordsError> {
    let mut query = db.prepare_cached(super::problems::sql::PROBLEM_RATINGS)?;
    let rows = query
        .query_map([], |row| Ok((row.get(0)?, rating_of(row, 1)?)))?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(rows)
}

fn problem_rating(db: &Connection, problem: &str) -> Result<(Rating, i64), RecordsError> {
    let row = db
        .query_row(
            "SELECT rating, deviation, volatility, attempts FROM problem_ratings WHERE problem = ?1",
            params![problem],
            |row| Ok((rating_of(row, 0)?, row.get(3)?)),
        )
        .optional()?;
    Ok(row.unwrap_or((Rating::default(), 0)))
}

/// Runs `work` as one change: a transaction that takes the write lock at once (a transaction that read first
/// and wrote later would be refused at once, without waiting, had another connection written between), or a
/// savepoint inside a batch already under way (`all_or_nothing`, which holds the lock).
fn one_change<T>(
    db: &mut Connection,
    work: impl FnOnce(&Connection) -> Result<T, RecordsError>,
) -> Result<T, RecordsError> {
    if db.is_autocommit() {
        let tx = db.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let value = work(&tx)?;
        tx.commit()?;
        Ok(value)
    } else {
        let tx: Savepoint<'_> = db.savepoint()?;
        let value = work(&tx)?;
        tx.commit()?;
        Ok(value)
    }
}

/// Records an attempt, rating it when it is the player's first at the problem: all in one change.
pub(super) fn attempt(
    db: &mut Connection,
    player: &Fingerprint,
    problem: &str,
    solved: bool,
    at: i64,
) -> Result<ProblemOutcome, RecordsError> {
    one_change(db, |tx| attempt_in(tx, player, problem, solved, at))
}

fn attempt_in(
    tx: &Connection,
    player: &Fingerprint,
    problem: &str,
    solved: bool,
    at: i64,
) -> Result<ProblemOutcome, RecordsError> {
    let attempt = Attempt {
        player,
        problem,
        solved,
        at,
    };
    rate_attempt(&mut Rows(tx), &attempt)
}

/// The problem trainer's rows in SQLite, on a connection inside the attempt's transaction.
struct Rows<'a>(&'a Connection);

impl ProblemRows for Rows<'_> {
    fn lock_standings(
        &mut self,
        player: &Fingerprint,
        problem: &str,
    ) -> Result<(ProblemStanding, Rating, i64), RecordsError> {
        // SQLite lets one writer in at a time: the transaction already holds the file's write lock.
        let (rating, attempts) = problem_rating(self.0, problem)?;
        Ok((standing(self.0, player)?, rating, attempts))
    }

    fn tried(&mut self, player: &Fingerprint, problem: &str) -> Result<bool, RecordsError> {
        Ok(self.0.query_row(
            &for_sqlite(super::problems::sql::TRIED),
            params![player, problem],
            |row| row.get(0),
        )?)
    }

    fn store_player(
        &mut self,
        player: &Fingerprint,
        standing: &ProblemStanding,
    ) -> Result<(), RecordsError> {
        self.0.execute(
            &for_sqlite(super::problems::sql::STORE_PLAYER),
            params![
                player,
                standing.rating.rating,
                standing.rating.deviation,
                standing.rating.volatility,
                standing.attempts,
                standing.solved,
                standing.best_streak
            ],
        )?;
        Ok(())
    }

    fn store_problem(
        &mut self,
        problem: &str,
        rating: Rating,
        attempts: i64,
    ) -> Result<(), RecordsError> {
        self.0.execute(
            &for_sqlite(super::problems::sql::STORE_PROBLEM),
            params![
                problem,
                rating.rating,
                rating.deviation,
                rating.volatility,
                attempts
            ],
        )?;
        Ok(())
    }

    fn add_attempt(&mut self, attempt: &Attempt<'_>, rated: bool) -> Result<(), RecordsError> {
        self.0.execute(
            &for_sqlite(super::problems::sql::ADD_ATTEMPT),
            params![
                attempt.player,
                attempt.problem,
                attempt.solved,
                rated,
                attempt.at
            ],
        )?;
        Ok(())
    }
}

/// Notes a streak of `length` problems; the player's best streak after it.
pub(super) fn streak(
    db: &mut Connection,
    player: &Fingerprint,
    length: i64,
) -> Result<i64, RecordsError> {
    one_change(db, |tx| streak_in(tx, player, length))
}

fn streak_in(tx: &Connection, player: &Fingerprint, length: i64) -> Result<i64, RecordsError> {
    let before = standing(tx, player)?;
    let best = before.best_streak.max(length);
    tx.execute(
        "INSERT INTO player_problem_ratings
             (fingerprint, rating, deviation, volatility, attempts, solved, best_streak)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
         ON CONFLICT (fingerprint) DO UPDATE SET best_streak = ?7",
        params![
            player,
            before.rating.rating,
            before.rating.deviation,
            before.rating.volatility,
            before.attempts,
            before.solved,
            best
        ],
    )?;
    Ok(best)
}

impl ProblemRecords for SqliteRecords {
    fn problem_standing(&mut self, player: &Fingerprint) -> Result<ProblemStanding, RecordsError> {
        standing(&self.db, player)
    }

    fn problem_ratings(&mut self) -> Result<Vec<(String, Rating)>, RecordsError> {
        ratings(&self.db)
    }

    fn record_problem_attempt(
        &mut self,
        player: &Fingerprint,
        problem: &str,
        solved: bool,
    ) -> Result<ProblemOutcome, RecordsError> {
        attempt(&mut self.db, player, problem, solved, unix_now())
    }

    fn note_problem_streak(
        &mut self,
        player: &Fingerprint,
        length: u32,
    ) -> Result<i64, RecordsError> {
        streak(&mut self.db, player, i64::from(length))
    }
}
