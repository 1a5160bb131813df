//! The problem trainer's records in PostgreSQL: the [`Records`](super::Records) calls about problems, written
//! against a client inside the caller's transaction.

use postgres::{GenericClient, Row};

use super::RecordsError;
use super::postgres::PostgresRecords;
use super::problems::ProblemRecords;
use super::problems::{ProblemOutcome, ProblemStanding};
use super::ratings::{Attempt, ProblemRows, rate_attempt};
use super::unix_now;
use crate::serve::ids::Fingerprint;
use crate::serve::rating::Rating;

fn rating_of(row: &Row, first: usize) -> Result<Rating, RecordsError> {
    Ok(Rating {
        rating: row.try_get(first)?,
        deviation: row.try_get(first + 1)?,
        volatility: row.try_get(first + 2)?,
    })
}

/// A player's standing (a new player's when they have none); `lock` locks their row for an update.
fn standing_of(
    c: &mut impl GenericClient,
    player: &Fingerprint,
    lock: bool,
) -> Result<ProblemStanding, RecordsError> {
    let sql = format!(
        "SELECT rating, deviation, volatility, attempts, solved, best_streak
         FROM player_problem_ratings WHERE fingerprint = $1{}",
        if lock { " FOR UPDATE" } else { "" }
    );
    match c.query_opt(&sql, &[&player.as_str()])? {
        Some(row) => Ok(ProblemStanding {
            rating: rating_of(&row, 0)?,
            attempts: row.try_get(3)?,
            solved: row.try_get(4)?,
            best_streak: row.try_get(5)?,
        }),
        None => Ok(ProblemStanding::default()),
    }
}

/// A player's standing.
pub(super) fn standing(
    c: &mut impl GenericClient,
    player: &Fingerprint,
) -> Result<ProblemStanding, RecordsError> {
    standing_of(c, player, false)
}

/// Every rated problem's rating.
pub(super) fn ratings(c: &mut impl GenericClient) -> Result<Vec<(String, Rating)>, RecordsError> {
    c.query(super::problems::sql::PROBLEM_RATINGS, &[])?
        .iter()
        .map(|row| Ok((row.try_get(0)?, rating_of(row, 1)?)))
        .collect()
}

/// A new player's rating, as the rows made before their first change hold it.
fn fresh() -> (f64, f64, f64) {
    let r = Rating::default();
    (r.rating, r.deviation, r.volatility)
}

/// Records an attempt, rating it when it is the player's first at the problem (call inside a transaction).
pub(super) fn attempt(
    c: &mut impl GenericClient,
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
    rate_attempt(&mut Rows(c), &attempt)
}

/// The problem trainer's rows in PostgreSQL, by a client inside the attempt's transaction.
struct Rows<'a, C>(&'a mut C);

impl<C: GenericClient> ProblemRows for Rows<'_, C> {
    fn lock_standings(
        &mut self,
        player: &Fingerprint,
        problem: &str,
    ) -> Result<(ProblemStanding, Rating, i64), RecordsError> {
        let (rating, deviation, volatility) = fresh();
        // Two nodes recording the same player's attempts at once: the second waits for the first's rows, so
        // that both changes count. Rows are made first for a new player and problem, so that there is one to
        // lock.
        self.0.execute(
            "INSERT INTO player_problem_ratings
                 (fingerprint, rating, deviation, volatility, attempts, solved, best_streak)
             VALUES ($1, $2, $3, $4, 0, 0, 0) ON CONFLICT (fingerprint) DO NOTHING",
            &[&player.as_str(), &rating, &deviation, &volatility],
        )?;
        let before = standing_of(self.0, player, true)?;
        self.0.execute(
            "INSERT INTO problem_ratings (problem, rating, deviation, volatility, attempts)
             VALUES ($1, $2, $3, $4, 0) ON CONFLICT (problem) DO NOTHING",
            &[&problem, &rating, &deviation, &volatility],
        )?;
        let row = self.0.query_one(
            "SELECT rating, deviation, volatility, attempts FROM problem_ratings WHERE problem = $1 FOR UPDATE",
            &[&problem],
        )?;
        Ok((before, rating_of(&row, 0)?, row.try_get(3)?))
    }

    fn tried(&mut self, player: &Fingerprint, problem: &str) -> Result<bool, RecordsError> {
        Ok(self
            .0
            .query_one(super::problems::sql::TRIED, &[&player.as_str(), &problem])?
            .try_get(0)?)
    }

    fn store_player(
        &mut self,
        player: &Fingerprint,
        standing: &ProblemStanding,
    ) -> Result<(), RecordsError> {
        self.0.execute(
            super::problems::sql::STORE_PLAYER,
            &[
                &player.as_str(),
                &standing.rating.rating,
                &standing.rating.deviation,
                &standing.rating.volatility,
                &standing.attempts,
                &standing.solved,
                &standing.best_streak,
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
            super::problems::sql::STORE_PROBLEM,
            &[
                &problem,
                &rating.rating,
                &rating.deviation,
                &rating.volatility,
                &attempts,
            ],
        )?;
        Ok(())
    }

    fn add_attempt(&mut self, attempt: &Attempt<'_>, rated: bool) -> Result<(), RecordsError> {
        self.0.execute(
            super::problems::sql::ADD_ATTEMPT,
            &[
                &attempt.player.as_str(),
                &attempt.problem,
                &attempt.solved,
                &rated,
                &attempt.at,
            ],
        )?;
        Ok(())
    }
}

/// Notes a streak of `length` problems; the player's best streak after it (call inside a transaction).
pub(super) fn streak(
    c: &mut impl GenericClient,
    player: &Fingerprint,
    length: i64,
) -> Result<i64, RecordsError> {
    let (rating, deviation, volatility) = fresh();
    let row = c.query_one(
        "INSERT INTO player_problem_ratings
             (fingerprint, rating, deviation, volatility, attempts, solved, best_streak)
         VALUES ($1, $2, $3, $4, 0, 0, $5)
         ON CONFLICT (fingerprint) DO UPDATE
             SET best_streak = GREATEST(player_problem_ratings.best_streak, EXCLUDED.best_streak)
         RETURNING best_streak",
        &[&player.as_str(), &rating, &deviation, &volatility, &length],
    )?;
    Ok(row.try_get(0)?)
}

impl ProblemRecords for PostgresRecords {
    fn problem_standing(&mut self, player: &Fingerprint) -> Result<ProblemStanding, RecordsError> {
        self.write(|c| standing(c, player))
    }

    fn problem_ratings(&mut self) -> Result<Vec<(String, Rating)>, RecordsError> {
        self.write(ratings)
    }

    fn record_problem_attempt(
        &mut self,
        player: &Fingerprint,
        problem: &str,
        solved: bool,
    ) -> Result<ProblemOutcome, RecordsError> {
        let at = unix_now();
        self.write(|c| attempt(c, player, problem, solved, at))
    }

    fn note_problem_streak(
        &mut self,
        player: &Fingerprint,
        length: u32,
    ) -> Result<i64, RecordsError> {
        self.write(|c| streak(c, player, i64::from(length)))
    }
}
