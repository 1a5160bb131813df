//! Glicko-2 ratings, as Mark Glickman describes them in "Example of the Glicko-2 system" (2012): a rating, a
//! rating deviation (how sure the rating is) and a volatility (how erratic the player's results are), updated
//! once per rating period from the games played in it.

use std::f64::consts::PI;

/// The Glicko-2 scale factor between the familiar scale (1500 for a new player) and the internal one.
const SCALE: f64 = 173.7178;

/// The system constant: how much volatility may change in one period. Glickman suggests 0.3 to 1.2; 0.5 is
/// his example's.
pub const TAU: f64 = 0.5;

/// When the volatility iteration stops.
const EPSILON: f64 = 0.000_001;

/// A player's rating on the familiar scale.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    /// The rating (1500 for a new player).
    pub rating: f64,
    /// The rating deviation: about a third of the 95% interval's half-width (350 for a new player).
    pub deviation: f64,
    /// The volatility (0.06 for a new player).
    pub volatility: f64,
}

impl Default for Rating {
    /// A new player's rating.
    fn default() -> Rating {
        Rating {
            rating: 1500.0,
            deviation: 350.0,
            volatility: 0.06,
        }
    }
}

/// One game of a rating period, from the rated player's side.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RatedGame {
    /// The opponent's rating before the period.
    pub opponent: Rating,
    /// 1 for a win, 0.5 for a draw, 0 for a loss.
    pub score: f64,
}

fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (PI * PI)).sqrt()
}

fn expected(mu: f64, mu_j: f64, phi_j: f64) -> f64 {
    1.0 / (1.0 + (-g(phi_j) * (mu - mu_j)).exp())
}

/// The deviation above which a rating is provisional (shown `1500?`): lichess's threshold. A new player's 350
/// comes under it after 22 games against other new players (fewer against players whose ratings are settled).
pub const PROVISIONAL_DEVIATION: f64 = 110.0;

impl Rating {
    /// Whether the rating is not settled yet: its deviation is above [`PROVISIONAL_DEVIATION`].
    pub fn is_provisional(&self) -> bool {
        self.deviation > PROVISIONAL_DEVIATION
    }

    /// The rating after a period with `games` (none: the deviation grows, as the rating is less sure).
    pub fn after(self, games: &[RatedGame]) -> Rating {
        let mu = (self.rating - 1500.0) / SCALE;
        let phi = self.deviation / SCALE;
        let sigma = self.volatility;
        if games.is_empty() {
            let phi_star = (phi * phi + sigma * sigma).sqrt();
            return Rating {
                deviation: phi_star * SCALE,
                ..self
            };
        }
        let mut inverse_v = 0.0;
        let mut sum = 0.0;
        for game in games {
            let mu_j = (game.opponent.rating - 1500.0) / SCALE;
            let phi_j = game.opponent.deviation / SCALE;
            let e = expected(mu, mu_j, phi_j);
            inverse_v += g(phi_j).powi(2) * e * (1.0 - e);
            sum += g(phi_j) * (game.score - e);
        }
        let v = 1.0 / inverse_v;
        let delta = v * sum;
        let sigma = new_volatility(delta, phi, v, sigma);
        let phi_star = (phi * phi + sigma * sigma).sqrt();
        let phi = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
        let mu = mu + phi * phi * sum;
        Rating {
            rating: mu * SCALE + 1500.0,
            deviation: phi * SCALE,
            volatility: sigma,
        }
    }
}

/// Both players' ratings after one rated game between them, each game a rating period of its own: Black's and
/// White's ratings before it, and Black's score (1 for a win, 0.5 for a draw, 0 for a loss). A pure function:
/// the records read the ratings before and store the ratings after in one change, whatever keeps them.
pub fn after_game(black: Rating, white: Rating, black_score: f64) -> [Rating; 2] {
    let black_after = black.after(&[RatedGame {
        opponent: white,
        score: black_score,
    }]);
    let white_after = white.after(&[RatedGame {
        opponent: black,
        score: 1.0 - black_score,
    }]);
    [black_after, white_after]
}

/// Step 5 of the system: the new volatility, by the Illinois variant of regula falsi.
fn new_volatility(delta: f64, phi: f64, v: f64, sigma: f64) -> f64 {
    let a = (sigma * sigma).ln();
    let f = |x: f64| {
        let ex = x.exp();
        ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex).powi(2))
            - (x - a) / (TAU * TAU)
    };
    let mut big_a = a;
    let mut big_b = if delta * delta > phi * phi + v {
        (delta * delta - phi * phi - v).ln()
    } else {
        let mut k = 1.0;
        // f rises to the left without bound, so this ends; the cap is a guard against NaN input.
        while f(a - k * TAU) < 0.0 && k < 1000.0 {
            k += 1.0;
        }
        a - k * TAU
    };
    let mut f_a = f(big_a);
    let mut f_b = f(big_b);
    for _ in 0..100 {
        if (big_b - big_a).abs() <= EPSILON {
            break;
        }
        let big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
        let f_c = f(big_c);
        if f_c * f_b <= 0.0 {
            big_a = big_b;
            f_a = f_b;
        } else {
            f_a /= 2.0;
        }
        big_b = big_c;
        f_b = f_c;
    }
    (big_a / 2.0).exp()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, within: f64) -> bool {
        (a - b).abs() <= within
    }

    #[test]
    fn glickmans_example() {
        // The worked example of Glickman's paper: 1500 (RD 200, volatility 0.06) beats a 1400 (RD 30) and
        // loses to a 1550 (RD 100) and a 1700 (RD 300); he gets 1464.06, RD 151.52, volatility 0.05999.
        let player = Rating {
            rating: 1500.0,
            deviation: 200.0,
            volatility: 0.06,
        };
        let opponent = |rating, deviation| Rating {
            rating,
            deviation,
            volatility: 0.06,
        };
        let after = player.after(&[
            RatedGame {
                opponent: opponent(1400.0, 30.0),
                score: 1.0,
            },
            RatedGame {
                opponent: opponent(1550.0, 100.0),
                score: 0.0,
            },
            RatedGame {
                opponent: opponent(1700.0, 300.0),
                score: 0.0,
            },
        ]);
        assert!(close(after.rating, 1464.06, 0.01), "{after:?}");
        assert!(close(after.deviation, 151.52, 0.01), "{after:?}");
        assert!(close(after.volatility, 0.05999, 0.00001), "{after:?}");
    }

    #[test]
    fn a_period_without_games_makes_the_rating_less_sure() {
        let player = Rating::default();
        let after = player.after(&[]);
        assert_eq!(after.rating, player.rating);
        assert!(after.deviation > player.deviation);
        // A win against an equal raises the rating, a loss lowers it, a draw between equals leaves it.
        let equal = Rating::default();
        let won = player.after(&[RatedGame {
            opponent: equal,
            score: 1.0,
        }]);
        let lost = player.after(&[RatedGame {
            opponent: equal,
            score: 0.0,
        }]);
        let drawn = player.after(&[RatedGame {
            opponent: equal,
            score: 0.5,
        }]);
        assert!(won.rating > 1500.0 && lost.rating < 1500.0);
        assert!(close(drawn.rating, 1500.0, 1e-9));
        assert!(won.deviation < player.deviation);
    }

    #[test]
    fn one_game_moves_both_ratings_as_each_side_sees_it() {
        let strong = Rating {
            rating: 1700.0,
            ..Rating::default()
        };
        let weak = Rating::default();
        let [black, white] = after_game(strong, weak, 0.0);
        assert_eq!(
            black,
            strong.after(&[RatedGame {
                opponent: weak,
                score: 0.0
            }])
        );
        assert_eq!(
            white,
            weak.after(&[RatedGame {
                opponent: strong,
                score: 1.0
            }])
        );
        assert!(black.rating < strong.rating && white.rating > weak.rating);
    }

    #[test]
    fn a_new_rating_is_provisional_until_some_twenty_games_settle_it() {
        let mut rating = Rating::default();
        let mut games = 0;
        while rating.is_provisional() {
            assert!(
                games < 40,
                "still provisional after {games} games: {rating:?}"
            );
            let score = if games % 2 == 0 { 1.0 } else { 0.0 };
            rating = rating.after(&[RatedGame {
                opponent: Rating::default(),
                score,
            }]);
            games += 1;
        }
        // Against other new players, whose own ratings are as unsure: 22 games.
        assert_eq!(games, 22, "settled after {games} games");
    }
}
