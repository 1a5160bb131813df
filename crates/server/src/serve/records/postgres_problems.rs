//! The problem trainer's records in PostgreSQL: the [`Records`](super::Records) calls about problems, written
//! against a client inside the caller's transaction.

use postgres::{GenericClient, Row};

use super::RecordsError;
use super::problems::{ProblemOutcome, ProblemStanding, score};
use crate::serve::ids::Fingerprint;
use crate::serve::rating::{Rating, after_game};

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
    c.query(
        "SELECT problem, rating, deviation, volatility FROM problem_ratings",
        &[],
    )?
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
    let (rating, deviation, volatility) = fresh();
    // Two nodes recording the same player's attempts at once: the second waits for the first's rows, so that
    // both changes count. Rows are made first for a new player and problem, so that there is one to lock.
    c.execute(
        "INSERT INTO player_problem_ratings
             (fingerprint, rating, deviation, volatility, attempts, solved, best_streak)
         VALUES ($1, $2, $3, $4, 0, 0, 0) ON CONFLICT (fingerprint) DO NOTHING",
        &[&player.as_str(), &rating, &deviation, &volatility],
    )?;
    let before = standing_of(c, player, true)?;
    c.execute(
        "INSERT INTO problem_ratings (problem, rating, deviation, volatility, attempts)
         VALUES ($1, $2, $3, $4, 0) ON CONFLICT (problem) DO NOTHING",
        &[&problem, &rating, &deviation, &volatility],
    )?;
    let row = c.query_one(
        "SELECT rating, deviation, volatility, attempts FROM problem_ratings WHERE problem = $1 FOR UPDATE",
        &[&problem],
    )?;
    let problem_before = rating_of(&row, 0)?;
    let problem_attempts: i64 = row.try_get(3)?;
    let tried: bool = c
        .query_one(
            "SELECT EXISTS (SELECT 1 FROM problem_attempts WHERE fingerprint = $1 AND problem = $2)",
            &[&player.as_str(), &problem],
        )?
        .try_get(0)?;
    let outcome = if tried {
        ProblemOutcome {
            rated: false,
            player: before.rating,
            problem: problem_before,
        }
    } else {
        let [player_after, problem_after] =
            after_game(before.rating, problem_before, score(solved));
        c.execute(
            "UPDATE player_problem_ratings SET rating = $2, deviation = $3, volatility = $4, attempts = $5,
                 solved = $6 WHERE fingerprint = $1",
            &[
                &player.as_str(),
                &player_after.rating,
                &player_after.deviation,
                &player_after.volatility,
                &(before.attempts + 1),
                &(before.solved + i64::from(solved)),
            ],
        )?;
        c.execute(
            "UPDATE problem_ratings SET rating = $2, deviation = $3, volatility = $4, attempts = $5
             WHERE problem = $1",
            &[
                &problem,
                &problem_after.rating,
                &problem_after.deviation,
                &problem_after.volatility,
                &(problem_attempts + 1),
            ],
        )?;
        ProblemOutcome {
            rated: true,
            player: player_after,
            problem: problem_after,
        }
    };
    c.execute(
        "INSERT INTO problem_attempts (fingerprint, problem, solved, rated, at) VALUES ($1, $2, $3, $4, $5)",
        &[&player.as_str(), &problem, &solved, &outcome.rated, &at],
    )?;
    Ok(outcome)
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
