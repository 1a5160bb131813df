//! Which problems a player is offered, and in what order: near their problem rating, easiest first for a
//! streak, and the problem of the day, the same for everyone on a UTC day.
//!
//! Problems are named by their position's FEN ([`Problem::key`]): the rating a problem earns stays with it
//! whatever collection it is read from.

use std::collections::HashMap;

use super::Problem;

/// The rating of a problem nobody has tried yet: a new player's.
pub const UNRATED: f64 = 1500.0;

/// The seconds of a UTC day.
const DAY: i64 = 24 * 60 * 60;

impl Problem {
    /// The problem's name in the records: its position's FEN.
    pub fn key(&self) -> String {
        super::fen_of(&self.start)
    }
}

/// The day (from 1970-01-01, UTC) that `unix_seconds` falls in.
pub fn utc_day(unix_seconds: i64) -> i64 {
    unix_seconds.div_euclid(DAY)
}

/// The problem of the day `day` among `count` problems (`None` without problems): a fixed scramble of the day
/// number, so that the problems come in an order that does not follow the collection's, and the same day
/// gives the same problem on every server.
pub fn problem_of_the_day(count: usize, day: i64) -> Option<usize> {
    if count == 0 {
        return None;
    }
    // SplitMix64's finaliser: every bit of the day moves every bit of the result.
    let mut z = (day as u64).wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^= z >> 31;
    Some((z % count as u64) as usize)
}

fn rating_of(problem: &Problem, ratings: &HashMap<String, f64>) -> f64 {
    ratings.get(&problem.key()).copied().unwrap_or(UNRATED)
}

/// `problems` nearest `player`'s rating first (by the problems' ratings; ties in the collection's order).
pub fn nearest_first(
    problems: Vec<Problem>,
    ratings: &HashMap<String, f64>,
    player: f64,
) -> Vec<Problem> {
    // The key is computed once a problem: a FEN is written for each.
    let mut keyed: Vec<(f64, Problem)> = problems
        .into_iter()
        .map(|p| ((rating_of(&p, ratings) - player).abs(), p))
        .collect();
    keyed.sort_by(|a, b| a.0.total_cmp(&b.0));
    keyed.into_iter().map(|(_, p)| p).collect()
}

/// `problems` easiest first (lowest rated), as a streak takes them: each harder than the one before.
pub fn easiest_first(problems: Vec<Problem>, ratings: &HashMap<String, f64>) -> Vec<Problem> {
    let mut keyed: Vec<(f64, Problem)> = problems
        .into_iter()
        .map(|p| (rating_of(&p, ratings), p))
        .collect();
    keyed.sort_by(|a, b| a.0.total_cmp(&b.0));
    keyed.into_iter().map(|(_, p)| p).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builtin_problems;

    #[test]
    fn the_problem_of_the_day_is_fixed_by_the_day_and_changes_with_it() {
        let n = builtin_problems().len();
        assert_eq!(problem_of_the_day(0, 20_000), None);
        let today = problem_of_the_day(n, 20_000);
        assert_eq!(today, problem_of_the_day(n, 20_000));
        assert!(today.is_some_and(|i| i < n));
        // Over a month every day is in range and more than one problem comes up.
        let month: Vec<usize> = (0..30)
            .filter_map(|d| problem_of_the_day(n, 20_000 + d))
            .collect();
        assert!(month.iter().all(|&i| i < n));
        assert!(month.iter().any(|&i| Some(i) != today));
        // A UTC day runs from midnight to midnight.
        assert_eq!(utc_day(0), 0);
        assert_eq!(utc_day(DAY - 1), 0);
        assert_eq!(utc_day(DAY), 1);
        assert_eq!(utc_day(-1), -1);
    }

    #[test]
    fn problems_are_ordered_by_their_ratings() {
        let problems = builtin_problems();
        let mut ratings = HashMap::new();
        ratings.insert(problems[2].key(), 1200.0);
        ratings.insert(problems[5].key(), 1900.0);
        let easy = easiest_first(problems.clone(), &ratings);
        assert_eq!(easy[0], problems[2]);
        assert_eq!(easy.last(), Some(&problems[5]));
        let near = nearest_first(problems.clone(), &ratings, 1950.0);
        assert_eq!(near[0], problems[5]);
        assert_eq!(near.last(), Some(&problems[2]));
        // Unrated problems keep the collection's order among themselves.
        assert_eq!(near[1], problems[0]);
    }
}
