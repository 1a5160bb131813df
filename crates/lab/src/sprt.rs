//! The sequential probability ratio test that decides engine matches, and the Elo difference they measured.
//!
//! Games are counted in pairs (one opening played with both colours), so each pair scores 0, ½, 1, 1½ or 2 for
//! the first player: the pentanomial model, which removes the noise of unbalanced openings that counting single
//! games keeps. The log-likelihood ratio is the generalised SPRT's normal approximation (M. Van den Bergh, "A
//! practical introduction to the GSPRT", 2016): `LLR = N (s1 - s0) (2 s - s0 - s1) / (2 var)`, with `s` and `var`
//! the mean and variance of the pair scores and `s0`, `s1` the scores the two Elo bounds predict.

use std::fmt;

use thiserror::Error;

/// Pairs played before the test may decide: with fewer, the measured variance is too rough to trust.
pub const MIN_PAIRS: usize = 20;

/// A test of `elo0` (no better than this) against `elo1` (at least this much better).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// The Elo difference of the null hypothesis.
    pub elo0: f64,
    /// The Elo difference of the alternative.
    pub elo1: f64,
    /// The chance of accepting `elo1` when `elo0` is true.
    pub alpha: f64,
    /// The chance of accepting `elo0` when `elo1` is true.
    pub beta: f64,
}

/// What the test decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtVerdict {
    /// The first player is no better than `elo0`.
    Elo0,
    /// The first player is at least `elo1` better.
    Elo1,
}

/// Bounds that do not make a test.
#[derive(Clone, Debug, Error, PartialEq)]
#[error(
    "the SPRT's bounds are two Elo differences, the first below the second, between -1000 and 1000; not {0} and {1}"
)]
pub struct SprtError(pub f64, pub f64);

impl Sprt {
    /// A test between `elo0` and `elo1` with 5% error either way.
    pub fn new(elo0: f64, elo1: f64) -> Result<Sprt, SprtError> {
        let sane = |e: f64| e.is_finite() && e.abs() <= 1000.0;
        if !(sane(elo0) && sane(elo1) && elo0 < elo1) {
            return Err(SprtError(elo0, elo1));
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha: 0.05,
            beta: 0.05,
        })
    }

    /// The lower and upper bounds of the log-likelihood ratio: below the first `elo0` is accepted, above the
    /// second `elo1`.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of the pairs so far.
    pub fn llr(&self, pairs: &Pairs) -> f64 {
        if pairs.count() == 0 {
            return 0.0;
        }
        // Outcomes not seen yet count as a thousandth of a pair each, so that a clean sweep (no variance at
        // all) still measures something.
        let Some((n, mean, variance)) =
            moments(pairs.0.map(|c| if c == 0 { 1e-3 } else { c as f64 }))
        else {
            return 0.0;
        };
        let (s0, s1) = (score_of(self.elo0), score_of(self.elo1));
        n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * variance)
    }

    /// The decision, once there is one.
    pub fn verdict(&self, pairs: &Pairs) -> Option<SprtVerdict> {
        if pairs.count() < MIN_PAIRS {
            return None;
        }
        let llr = self.llr(pairs);
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Some(SprtVerdict::Elo1)
        } else if llr <= lower {
            Some(SprtVerdict::Elo0)
        } else {
            None
        }
    }
}

/// Pairs of games by the first player's points in the pair: index 0 for 0, 1 for ½, ... 4 for 2 points.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pairs(pub [usize; 5]);

impl Pairs {
    /// Counts a pair in which the first player scored `half_points` (0 to 4) halves.
    pub fn add(&mut self, half_points: usize) {
        self.0[half_points.min(4)] += 1;
    }

    /// Pairs counted.
    pub fn count(&self) -> usize {
        self.0.iter().sum()
    }

    /// The number of pairs, and the mean and variance of a pair's score (0 to 1).
    fn moments(&self) -> Option<(f64, f64, f64)> {
        moments(self.0.map(|c| c as f64))
    }

    /// The Elo difference these pairs measure, with its 95% interval; `None` before the first pair.
    pub fn elo(&self) -> Option<EloEstimate> {
        let (n, mean, variance) = self.moments()?;
        let spread = 1.96 * (variance / n).sqrt();
        Some(EloEstimate {
            elo: elo_of(mean),
            low: elo_of(mean - spread),
            high: elo_of(mean + spread),
            score: mean,
        })
    }
}

/// An Elo difference measured by a match.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    /// The most likely difference.
    pub elo: f64,
    /// The lower end of the 95% interval.
    pub low: f64,
    /// The upper end of the 95% interval.
    pub high: f64,
    /// The first player's score, 0 to 1.
    pub score: f64,
}

impl fmt::Display for EloEstimate {
    /// `+35.2 Elo (95%: +10.1 to +60.8), score 55.0%`; a clean sweep is `+inf`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Adding zero turns a negative zero into zero, which prints without a sign.
        write!(
            f,
            "{:+.1} Elo (95%: {:+.1} to {:+.1}), score {:.1}%",
            self.elo + 0.0,
            self.low + 0.0,
            self.high + 0.0,
            self.score * 100.0
        )
    }
}

/// The number of pairs, and the mean and variance of a pair's score (0 to 1), from counts by half points.
fn moments(counts: [f64; 5]) -> Option<(f64, f64, f64)> {
    let n: f64 = counts.iter().sum();
    if n <= 0.0 {
        return None;
    }
    let score = |i: usize| i as f64 / 4.0;
    let mean = counts
        .iter()
        .enumerate()
        .map(|(i, c)| c * score(i))
        .sum::<f64>()
        / n;
    let variance = counts
        .iter()
        .enumerate()
        .map(|(i, c)| c * (score(i) - mean).powi(2))
        .sum::<f64>()
        / n;
    Some((n, mean, variance))
}

/// The expected score of a player `elo` points stronger (logistic model).
fn score_of(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo difference that predicts `score` (infinite for 0 and 1).
fn elo_of(score: f64) -> f64 {
    let score = score.clamp(0.0, 1.0);
    -400.0 * (1.0 / score - 1.0).log10()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_and_elo_invert() {
        for elo in [-300.0, -20.0, 0.0, 5.0, 100.0] {
            assert!((elo_of(score_of(elo)) - elo).abs() < 1e-9);
        }
        assert!((score_of(0.0) - 0.5).abs() < 1e-12);
        assert_eq!(elo_of(1.0), f64::INFINITY);
        assert_eq!(elo_of(0.0), f64::NEG_INFINITY);
    }

    #[test]
    fn bounds_are_the_usual_ones() {
        let sprt = Sprt::new(0.0, 10.0).expect("valid");
        let (lower, upper) = sprt.bounds();
        assert!((lower + 2.944).abs() < 1e-3 && (upper - 2.944).abs() < 1e-3);
        for (a, b) in [(5.0, 5.0), (10.0, 0.0), (f64::NAN, 1.0), (0.0, 2000.0)] {
            assert!(Sprt::new(a, b).is_err(), "{a} {b}");
        }
    }

    #[test]
    fn a_clearly_stronger_player_is_accepted_and_an_equal_one_rejected() {
        let sprt = Sprt::new(0.0, 20.0).expect("valid");
        // Mostly won pairs: far above 20 Elo.
        let strong = Pairs([2, 10, 30, 40, 18]);
        assert_eq!(sprt.verdict(&strong), Some(SprtVerdict::Elo1));
        // Perfectly even: the LLR falls with every pair until elo0 is accepted.
        let even = Pairs([10, 100, 300, 100, 10]);
        assert!(sprt.llr(&even) < 0.0);
        assert_eq!(sprt.verdict(&even), Some(SprtVerdict::Elo0));
        // Too few pairs decide nothing, however lopsided.
        assert_eq!(sprt.verdict(&Pairs([0, 0, 1, 2, 10])), None);
        // No variance at all still decides: a clean sweep is a gain, nothing but draws is none.
        assert_eq!(
            sprt.verdict(&Pairs([0, 0, 0, 0, 30])),
            Some(SprtVerdict::Elo1)
        );
        assert_eq!(
            sprt.verdict(&Pairs([0, 0, 30, 0, 0])),
            Some(SprtVerdict::Elo0)
        );
        assert_eq!(sprt.llr(&Pairs::default()), 0.0);
    }

    #[test]
    fn elo_with_its_interval() {
        let even = Pairs([5, 20, 50, 20, 5]).elo().expect("pairs");
        assert!(
            even.elo.abs() < 1e-9 && even.low < -10.0 && even.high > 10.0,
            "{even}"
        );
        let ahead = Pairs([0, 5, 40, 40, 15]).elo().expect("pairs");
        assert!(
            ahead.elo > 50.0 && ahead.low > 0.0 && ahead.low < ahead.elo && ahead.high > ahead.elo
        );
        assert_eq!(Pairs::default().elo(), None);
        assert!(ahead.to_string().contains("Elo (95%: +"), "{ahead}");
    }

    #[test]
    fn a_simulated_match_between_equals_rarely_accepts_a_gain() {
        // Equal players with many draws: the test should accept elo1 in about alpha of the runs at most.
        let sprt = Sprt::new(0.0, 10.0).expect("valid");
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut wrong = 0;
        for _ in 0..200 {
            let mut pairs = Pairs::default();
            let verdict = loop {
                // Each game: win 20%, draw 60%, loss 20%.
                let game = |r: u64| match r % 10 {
                    0 | 1 => 2,
                    2 | 3 => 0,
                    _ => 1,
                };
                pairs.add(game(next()) + game(next()));
                if let Some(v) = sprt.verdict(&pairs) {
                    break v;
                }
                if pairs.count() > 20_000 {
                    break SprtVerdict::Elo0;
                }
            };
            wrong += usize::from(verdict == SprtVerdict::Elo1);
        }
        assert!(
            wrong <= 20,
            "{wrong} of 200 accepted a gain that is not there"
        );
    }
}
