//! What the engine thinks of a position: an estimate, a forced result, or a result from the endgame databases.

use std::fmt;

use super::MAN;

/// Scores at or beyond this are wins found by the search.
pub(crate) const WIN: i32 = 30_000;

/// The score of a game over at `ply`, for the side to move: won (sooner is better) or lost (later is better).
#[inline]
pub(crate) fn terminal_score(won: bool, ply: usize) -> i32 {
    if won {
        WIN - ply as i32
    } else {
        -WIN + ply as i32
    }
}
/// Scores at or beyond this (less the ply) are wins the endgame databases know: above any evaluation, below
/// any win the search sees to the end.
pub(crate) const DB_WIN: i32 = 20_000;
/// A win the win/draw/loss tables know, without its distance: above any evaluation (at most `DB_WIN / 4`), far
/// below the proven scores.
pub(crate) const KNOWN_WIN: i32 = DB_WIN / 2;
/// The deepest the search goes along any line (captures are followed past the nominal depth).
pub(crate) const MAX_PLY: usize = 128;
/// The deepest iteration the search starts.
pub(crate) const MAX_DEPTH: u32 = 96;

/// The slope of the win probability: `sigmoid(SLOPE * score in men)`. The tuned hand-written evaluation's
/// fitted scale (0.00569 per hundredth of a man), so that the network's scores are in the same units.
pub const SLOPE: f32 = 0.569;

/// A score from the point of view of the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// An estimate in hundredths of a man.
    Centi(i32),
    /// A forced win in this many moves of the side to move.
    Win(u32),
    /// A forced loss in this many moves of the side to move.
    Loss(u32),
    /// A win the endgame databases prove.
    DatabaseWin,
    /// A loss the endgame databases prove.
    DatabaseLoss,
}

impl Score {
    /// The score of a search's internal value (centi-men, or a win or loss offset from the bounds).
    pub(crate) fn from_internal(score: i32) -> Score {
        let bound = WIN - MAX_PLY as i32;
        let database = DB_WIN - MAX_PLY as i32;
        if score > bound {
            Score::Win(((WIN - score) as u32).div_ceil(2))
        } else if score < -bound {
            Score::Loss(((WIN + score) as u32).div_ceil(2))
        } else if score > database {
            Score::DatabaseWin
        } else if score < -database {
            Score::DatabaseLoss
        } else {
            Score::Centi(score)
        }
    }
}

impl Score {
    /// The same score from the other side's point of view.
    pub fn flipped(self) -> Score {
        match self {
            Score::Centi(c) => Score::Centi(-c),
            Score::Win(n) => Score::Loss(n),
            Score::Loss(n) => Score::Win(n),
            Score::DatabaseWin => Score::DatabaseLoss,
            Score::DatabaseLoss => Score::DatabaseWin,
        }
    }

    /// The share of the points the side it belongs to can expect, 0 to 1: certain for a forced or database
    /// result, and for an estimate the win probability the evaluation is fitted to (`sigmoid(SLOPE * men)`).
    pub fn expectation(self) -> f64 {
        match self {
            Score::Win(_) | Score::DatabaseWin => 1.0,
            Score::Loss(_) | Score::DatabaseLoss => 0.0,
            Score::Centi(c) => {
                let men = f64::from(c) / f64::from(MAN);
                1.0 / (1.0 + (-f64::from(SLOPE) * men).exp())
            }
        }
    }

    /// The score in words that say whose view it is, for `side`, the side it belongs to: `+0.40 for White`
    /// (always naming the side that is better), `level`, `White wins in 3 moves`.
    pub fn describe(self, side: crowned_rules::Color) -> String {
        let moves = |n: u32| crowned_game::count(n as usize, "move", "moves");
        match self {
            Score::Centi(0) => "level".to_string(),
            Score::Centi(c) => {
                let better = if c > 0 { side } else { side.opponent() };
                format!(
                    "+{:.2} for {better}",
                    f64::from(c.unsigned_abs()) / f64::from(MAN)
                )
            }
            Score::Win(n) => format!("{side} wins in {}", moves(n)),
            Score::Loss(n) => format!("{} wins in {}", side.opponent(), moves(n)),
            Score::DatabaseWin => format!("database win for {side}"),
            Score::DatabaseLoss => format!("database win for {}", side.opponent()),
        }
    }
}

impl fmt::Display for Score {
    /// `35`, `-120`, `win3`, `loss2`, `dbwin`: the form `crowned think` prints.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Centi(c) => write!(f, "{c}"),
            Score::Win(n) => write!(f, "win{n}"),
            Score::Loss(n) => write!(f, "loss{n}"),
            Score::DatabaseWin => write!(f, "dbwin"),
            Score::DatabaseLoss => write!(f, "dbloss"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expectations_rise_with_the_score_and_mirror() {
        assert_eq!(Score::Centi(0).expectation(), 0.5);
        assert_eq!(Score::Win(3).expectation(), 1.0);
        assert_eq!(Score::DatabaseLoss.expectation(), 0.0);
        let scores = [-400, -100, -10, 0, 10, 100, 400].map(Score::Centi);
        for pair in scores.windows(2) {
            assert!(pair[0].expectation() < pair[1].expectation(), "{pair:?}");
        }
        for score in scores {
            let sum = score.expectation() + score.flipped().expectation();
            assert!((sum - 1.0).abs() < 1e-12, "{score:?}");
        }
        // A man up is about a 64% share.
        let man = Score::Centi(MAN).expectation();
        assert!((0.63..0.65).contains(&man), "{man}");
    }

    #[test]
    fn scores_in_words_name_the_side() {
        use crowned_rules::Color;
        assert_eq!(Score::Centi(40).describe(Color::White), "+0.40 for White");
        assert_eq!(Score::Centi(-125).describe(Color::White), "+1.25 for Black");
        assert_eq!(Score::Centi(0).describe(Color::Black), "level");
        assert_eq!(Score::Win(1).describe(Color::Black), "Black wins in 1 move");
        assert_eq!(
            Score::Loss(3).describe(Color::Black),
            "White wins in 3 moves"
        );
        assert_eq!(Score::Loss(3).flipped(), Score::Win(3));
        assert_eq!(Score::Centi(7).flipped(), Score::Centi(-7));
    }

    #[test]
    fn score_forms() {
        assert_eq!(Score::from_internal(35).to_string(), "35");
        assert_eq!(Score::from_internal(WIN - 1).to_string(), "win1");
        assert_eq!(Score::from_internal(WIN - 5).to_string(), "win3");
        assert_eq!(Score::from_internal(-WIN + 4).to_string(), "loss2");
        assert_eq!(Score::from_internal(DB_WIN - 7).to_string(), "dbwin");
        assert_eq!(Score::from_internal(-DB_WIN + 2), Score::DatabaseLoss);
        assert_eq!(Score::DatabaseWin.flipped(), Score::DatabaseLoss);
        assert_eq!(
            Score::DatabaseLoss.describe(crowned_rules::Color::Black),
            "database win for White"
        );
    }
}
