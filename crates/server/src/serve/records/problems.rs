//! What the records keep of the problem trainer: each player's problem rating (Glicko-2, as the game ratings,
//! with their best streak), each problem's own rating, and every attempt.
//!
//! A problem is rated as a player: a player's first try at a problem is a game between them, won by the player
//! when they solve it without a wrong move or a hint, lost otherwise. Later tries at the same problem are kept
//! but change no rating (the answer is known by then). A problem is named by its position's FEN, which stays
//! the same whatever collection it comes in.

use super::RecordsError;
use crate::serve::ids::Fingerprint;
use crate::serve::rating::Rating;

/// The problem trainer's records.
pub trait ProblemRecords {
    /// A player's standing in the problem trainer: their problem rating, problems tried and solved, best
    /// streak (a new player's when they have tried none).
    fn problem_standing(&mut self, player: &Fingerprint) -> Result<ProblemStanding, RecordsError>;

    /// Every problem's rating, by the problem's name (its FEN), for the problems tried at least once.
    fn problem_ratings(&mut self) -> Result<Vec<(String, Rating)>, RecordsError>;

    /// Records `player`'s attempt at `problem` (named by its FEN): solved (no wrong move, no hint) or not. The
    /// player's first attempt at a problem is rated, a win or a loss against the problem, both ratings changing
    /// by [`rating::after_game`](crate::serve::rating::after_game); later ones are kept unrated. Atomic. The player
    /// must have been [`seen`](super::PlayerRecords::seen).
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

/// A player's standing in the problem trainer (by default, a player who has tried no problem).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ProblemStanding {
    /// Their problem rating (a new player's when they have tried none).
    pub rating: Rating,
    /// Problems tried for the rating (first tries).
    pub attempts: i64,
    /// Of those, solved.
    pub solved: i64,
    /// The longest run of problems solved one after another in streak mode.
    pub best_streak: i64,
}

/// What an attempt did to the ratings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ProblemOutcome {
    /// Whether it was rated (the player's first try at the problem).
    pub rated: bool,
    /// The player's problem rating after it.
    pub player: Rating,
    /// The problem's rating after it.
    pub problem: Rating,
}

/// The SQL of these records, written once for both databases (SQLite takes it through
/// [`for_sqlite`](super::for_sqlite)).
pub(super) mod sql {
    /// Every rated problem's rating.
    pub(in super::super) const PROBLEM_RATINGS: &str =
        "SELECT problem, rating, deviation, volatility FROM problem_ratings";

    /// Whether a player has tried a problem.
    pub(in super::super) const TRIED: &str =
        "SELECT EXISTS (SELECT 1 FROM problem_attempts WHERE fingerprint = $1 AND problem = $2)";

    /// An attempt, kept.
    pub(in super::super) const ADD_ATTEMPT: &str = "INSERT INTO problem_attempts (fingerprint, problem, solved, rated, at) VALUES ($1, $2, $3, $4, $5)";

    /// A player's standing after a rated attempt (their best streak is written only with a new row).
    pub(in super::super) const STORE_PLAYER: &str = "INSERT INTO player_problem_ratings
             (fingerprint, rating, deviation, volatility, attempts, solved, best_streak)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (fingerprint) DO UPDATE SET rating = $2, deviation = $3, volatility = $4,
             attempts = $5, solved = $6";

    /// A problem's rating after a rated attempt, with its rated attempts.
    pub(in super::super) const STORE_PROBLEM: &str =
        "INSERT INTO problem_ratings (problem, rating, deviation, volatility, attempts)
         VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (problem) DO UPDATE SET rating = $2, deviation = $3, volatility = $4, attempts = $5";
}
