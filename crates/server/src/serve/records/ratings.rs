//! The rating rules of the records, written once for every driver: which results change ratings, how, and what
//! a problem attempt does to the player's and the problem's ratings.
//!
//! A driver supplies its rows ([`RatingRows`], [`ProblemRows`]) inside the transaction that records the result or
//! the attempt, in its own dialect; the rules here decide what is read and written, so that SQLite and
//! PostgreSQL cannot drift apart in what a result does.

use super::problems::{ProblemOutcome, ProblemStanding};
use super::{FinishedGame, RecordsError};
use crate::serve::ids::Fingerprint;
use crate::serve::rating::{Rating, after_game};

/// The ratings' records: read by the lobby, the leaderboard and the pairing of rated games.
pub trait RatingRecords {
    /// A player's rating in a variant (a new player's when they have none) and their rated games in it.
    fn rating(
        &mut self,
        player: &Fingerprint,
        variant: &str,
    ) -> Result<(Rating, i64), RecordsError>;

    /// The best `count` players of a variant by rating.
    fn leaderboard(&mut self, variant: &str, count: usize) -> Result<Vec<Standing>, RecordsError>;
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

/// The game ratings' rows as one driver keeps them, inside the transaction that records a result.
pub(super) trait RatingRows {
    /// Makes the two players' ratings this transaction's alone until it ends, where the database needs it (a
    /// database that several servers write); one that lets one writer in at a time has nothing to do.
    fn lock_players(&mut self, a: &Fingerprint, b: &Fingerprint) -> Result<(), RecordsError>;

    /// A player's rating in a variant and their rated games in it (a new player's, and 0, when they have none).
    fn rating_row(
        &mut self,
        player: &Fingerprint,
        variant: &str,
    ) -> Result<(Rating, i64), RecordsError>;

    /// Writes a player's rating in a variant, with their rated games in it.
    fn store_rating_row(
        &mut self,
        player: &Fingerprint,
        variant: &str,
        rating: Rating,
        games: i64,
    ) -> Result<(), RecordsError>;
}

/// A game ended, as its row in the records says: what decides whether and how its result rates its players.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct EndedGame {
    /// The variant's name (ratings are kept per variant).
    pub(super) variant: String,
    /// Black's key fingerprint.
    pub(super) black: Fingerprint,
    /// White's.
    pub(super) white: Fingerprint,
    /// Whether the game was started rated.
    pub(super) rated: bool,
}

/// Changes both players' ratings by a game's result, when it counts: the game is rated, has a result, and is not
/// a player against themselves. Call inside the transaction that writes the result.
pub(super) fn rate_game(
    rows: &mut impl RatingRows,
    game: &EndedGame,
    result: &FinishedGame,
) -> Result<(), RecordsError> {
    if !(game.rated && game.black != game.white && result.counts()) {
        return Ok(());
    }
    rows.lock_players(&game.black, &game.white)?;
    let (black_before, black_games) = rows.rating_row(&game.black, &game.variant)?;
    let (white_before, white_games) = rows.rating_row(&game.white, &game.variant)?;
    let [black_after, white_after] = after_game(black_before, white_before, result.black_score);
    rows.store_rating_row(&game.black, &game.variant, black_after, black_games + 1)?;
    rows.store_rating_row(&game.white, &game.variant, white_after, white_games + 1)?;
    Ok(())
}

/// The problem trainer's rows as one driver keeps them, inside the transaction that records an attempt.
pub(super) trait ProblemRows {
    /// The player's problem standing and the problem's rating with its rated attempts (a new player's or
    /// problem's when there is no row), both made this transaction's alone until it ends where the database
    /// needs it.
    fn lock_standings(
        &mut self,
        player: &Fingerprint,
        problem: &str,
    ) -> Result<(ProblemStanding, Rating, i64), RecordsError>;

    /// Whether the player has tried the problem before.
    fn tried(&mut self, player: &Fingerprint, problem: &str) -> Result<bool, RecordsError>;

    /// Writes the player's standing (rating, attempts and solves; their best streak is left as it is).
    fn store_player(
        &mut self,
        player: &Fingerprint,
        standing: &ProblemStanding,
    ) -> Result<(), RecordsError>;

    /// Writes the problem's rating with its rated attempts.
    fn store_problem(
        &mut self,
        problem: &str,
        rating: Rating,
        attempts: i64,
    ) -> Result<(), RecordsError>;

    /// Keeps the attempt itself.
    fn add_attempt(&mut self, attempt: &Attempt<'_>, rated: bool) -> Result<(), RecordsError>;
}

/// One attempt at a problem.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Attempt<'a> {
    /// Who tried.
    pub(super) player: &'a Fingerprint,
    /// The problem, named by its FEN.
    pub(super) problem: &'a str,
    /// Whether it was solved without a wrong move or a hint.
    pub(super) solved: bool,
    /// When, in seconds since the Unix epoch.
    pub(super) at: i64,
}

/// The score of an attempt for the player: a solve is a win against the problem, anything else a loss.
fn score(solved: bool) -> f64 {
    if solved { 1.0 } else { 0.0 }
}

/// Records an attempt; the player's first at a problem is a rated game against it, later ones change nothing.
/// Call inside the transaction that keeps the attempt.
pub(super) fn rate_attempt(
    rows: &mut impl ProblemRows,
    attempt: &Attempt<'_>,
) -> Result<ProblemOutcome, RecordsError> {
    let (before, problem_before, problem_attempts) =
        rows.lock_standings(attempt.player, attempt.problem)?;
    let outcome = if rows.tried(attempt.player, attempt.problem)? {
        ProblemOutcome {
            rated: false,
            player: before.rating,
            problem: problem_before,
        }
    } else {
        let [player_after, problem_after] =
            after_game(before.rating, problem_before, score(attempt.solved));
        let after = ProblemStanding {
            rating: player_after,
            attempts: before.attempts + 1,
            solved: before.solved + i64::from(attempt.solved),
            best_streak: before.best_streak,
        };
        rows.store_player(attempt.player, &after)?;
        rows.store_problem(attempt.problem, problem_after, problem_attempts + 1)?;
        ProblemOutcome {
            rated: true,
            player: player_after,
            problem: problem_after,
        }
    };
    rows.add_attempt(attempt, outcome.rated)?;
    Ok(outcome)
}

/// The SQL of these records, written once for both databases (SQLite takes it through
/// [`for_sqlite`](super::for_sqlite)).
pub(super) mod sql {
    /// The best players of a variant.
    pub(in super::super) const LEADERBOARD: &str =
        "SELECT players.name, rating, deviation, volatility, games FROM ratings
         JOIN players USING (fingerprint) WHERE variant = $1 ORDER BY rating DESC LIMIT $2";

    /// A player's rating in a variant, with their rated games.
    pub(in super::super) const RATING: &str = "SELECT rating, deviation, volatility, games FROM ratings WHERE fingerprint = $1 AND variant = $2";

    /// A player's rating in a variant, written.
    pub(in super::super) const STORE_RATING: &str =
        "INSERT INTO ratings (fingerprint, variant, rating, deviation, volatility, games)
         VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (fingerprint, variant) DO UPDATE
         SET rating = $3, deviation = $4, volatility = $5, games = $6";
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;

    /// Rows in memory, with every call noted: the rules seen apart from any database.
    #[derive(Default)]
    struct Memory {
        ratings: HashMap<(Fingerprint, String), (Rating, i64)>,
        locked: Vec<(Fingerprint, Fingerprint)>,
        standings: HashMap<Fingerprint, ProblemStanding>,
        problems: HashMap<String, (Rating, i64)>,
        attempts: Vec<(Fingerprint, String, bool, bool)>,
    }

    impl RatingRows for Memory {
        fn lock_players(&mut self, a: &Fingerprint, b: &Fingerprint) -> Result<(), RecordsError> {
            self.locked.push((a.clone(), b.clone()));
            Ok(())
        }

        fn rating_row(
            &mut self,
            player: &Fingerprint,
            variant: &str,
        ) -> Result<(Rating, i64), RecordsError> {
            let key = (player.clone(), variant.to_string());
            Ok(self.ratings.get(&key).copied().unwrap_or_default())
        }

        fn store_rating_row(
            &mut self,
            player: &Fingerprint,
            variant: &str,
            rating: Rating,
            games: i64,
        ) -> Result<(), RecordsError> {
            let key = (player.clone(), variant.to_string());
            self.ratings.insert(key, (rating, games));
            Ok(())
        }
    }

    impl ProblemRows for Memory {
        fn lock_standings(
            &mut self,
            player: &Fingerprint,
            problem: &str,
        ) -> Result<(ProblemStanding, Rating, i64), RecordsError> {
            let standing = self.standings.get(player).copied().unwrap_or_default();
            let (rating, attempts) = self.problems.get(problem).copied().unwrap_or_default();
            Ok((standing, rating, attempts))
        }

        fn tried(&mut self, player: &Fingerprint, problem: &str) -> Result<bool, RecordsError> {
            Ok(self
                .attempts
                .iter()
                .any(|(p, name, _, _)| p == player && name == problem))
        }

        fn store_player(
            &mut self,
            player: &Fingerprint,
            standing: &ProblemStanding,
        ) -> Result<(), RecordsError> {
            self.standings.insert(player.clone(), *standing);
            Ok(())
        }

        fn store_problem(
            &mut self,
            problem: &str,
            rating: Rating,
            attempts: i64,
        ) -> Result<(), RecordsError> {
            self.problems
                .insert(problem.to_string(), (rating, attempts));
            Ok(())
        }

        fn add_attempt(&mut self, attempt: &Attempt<'_>, rated: bool) -> Result<(), RecordsError> {
            self.attempts.push((
                attempt.player.clone(),
                attempt.problem.to_string(),
                attempt.solved,
                rated,
            ));
            Ok(())
        }
    }

    fn key(name: &str) -> Fingerprint {
        Fingerprint::new(format!("SHA256:{name}"))
    }

    fn game(black: &str, white: &str, rated: bool) -> EndedGame {
        EndedGame {
            variant: "english".into(),
            black: key(black),
            white: key(white),
            rated,
        }
    }

    fn result(text: &str, black_score: f64) -> FinishedGame<'_> {
        FinishedGame {
            result: text,
            pdn: "",
            black_score,
        }
    }

    #[test]
    fn a_rated_win_moves_both_ratings_apart_and_counts_a_game_each() {
        let mut rows = Memory::default();
        rate_game(&mut rows, &game("ann", "bob", true), &result("1-0", 1.0)).expect("rated");
        let (ann, ann_games) = rows.rating_row(&key("ann"), "english").expect("a row");
        let (bob, bob_games) = rows.rating_row(&key("bob"), "english").expect("a row");
        let fresh = Rating::default();
        assert!(ann.rating > fresh.rating && bob.rating < fresh.rating);
        assert_eq!((ann_games, bob_games), (1, 1));
        assert_eq!(rows.locked, vec![(key("ann"), key("bob"))]);
        // The same numbers as the rating system gives for the game on its own.
        assert_eq!([ann, bob], after_game(fresh, fresh, 1.0));
    }

    #[test]
    fn unrated_games_games_without_a_result_and_self_play_change_nothing() {
        for (ended, finished) in [
            (game("ann", "bob", false), result("1-0", 1.0)),
            (game("ann", "bob", true), result("*", 0.5)),
            (game("ann", "ann", true), result("1-0", 1.0)),
        ] {
            let mut rows = Memory::default();
            rate_game(&mut rows, &ended, &finished).expect("nothing to write");
            assert!(rows.ratings.is_empty() && rows.locked.is_empty());
        }
    }

    #[test]
    fn only_the_first_attempt_at_a_problem_is_rated() {
        let mut rows = Memory::default();
        let ann = key("ann");
        let attempt = |solved| Attempt {
            player: &ann,
            problem: "W:W31:B1",
            solved,
            at: 7,
        };
        let first = rate_attempt(&mut rows, &attempt(true)).expect("rated");
        assert!(first.rated && first.player.rating > Rating::default().rating);
        let standing = rows.standings[&ann];
        assert_eq!((standing.attempts, standing.solved), (1, 1));
        assert_eq!(rows.problems["W:W31:B1"].1, 1);

        let again = rate_attempt(&mut rows, &attempt(false)).expect("kept");
        assert!(!again.rated);
        assert_eq!(again.player, first.player);
        assert_eq!(again.problem, first.problem);
        assert_eq!(rows.standings[&ann], standing);
        assert_eq!(rows.attempts.len(), 2);
        assert_eq!(
            rows.attempts.iter().map(|a| a.3).collect::<Vec<_>>(),
            [true, false]
        );
    }

    #[test]
    fn a_failed_first_attempt_is_a_rated_loss_that_keeps_the_best_streak() {
        let mut rows = Memory::default();
        let ann = key("ann");
        rows.standings.insert(
            ann.clone(),
            ProblemStanding {
                best_streak: 4,
                ..ProblemStanding::default()
            },
        );
        let outcome = rate_attempt(
            &mut rows,
            &Attempt {
                player: &ann,
                problem: "B:W32:B5",
                solved: false,
                at: 1,
            },
        )
        .expect("rated");
        assert!(outcome.rated && outcome.problem.rating > Rating::default().rating);
        let standing = rows.standings[&ann];
        assert_eq!(
            (standing.attempts, standing.solved, standing.best_streak),
            (1, 0, 4)
        );
    }
}
