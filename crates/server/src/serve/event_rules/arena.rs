//! The arena: a fixed time in which players are paired as soon as they are free, scored with streaks.
//!
//! Scoring is lidraughts's, which keeps the arena rules of lichess (lidraughts is a fork of lichess's server,
//! lila), as published in the arena FAQ (<https://lichess.org/tournament/help>, "How are scores calculated?"):
//! a win has a base score of 2 points, a draw 1, a loss 0; after two wins in a row a player is "on fire" (a
//! double-point streak) and every following game counts double (a win 4, a draw 2) until a game that is not a
//! win. So two wins and a draw make 6 (2 + 2 + 2), three wins 8 (2 + 2 + 4), two wins, a loss and a draw 5
//! (2 + 2 + 0 + 1). Berserk (half the clock for an extra point) is not offered here.
//!
//! Pairing follows the same FAQ in spirit: a player who is free is paired at once with a free player of a near
//! score, never with the opponent of their previous game.

use super::{Colour, Entrant, Pairing, PlayerScore};

/// One player of an arena, as the pairing and the table see them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ArenaPlayer {
    /// Who.
    pub entrant: Entrant,
    /// Arena points so far.
    pub points: u32,
    /// Wins in a row at the end of the last game (two or more: on fire).
    pub wins_in_row: u32,
    /// Games won, drawn, lost.
    pub won: u32,
    /// Games drawn.
    pub drawn: u32,
    /// Games lost.
    pub lost: u32,
    /// The opponent of the last game, never paired again at once.
    pub last_opponent: Option<Entrant>,
    /// Games played moving first minus games played moving second.
    pub colour_balance: i32,
    /// The colour of the last game.
    pub last_colour: Option<Colour>,
}

impl ArenaPlayer {
    /// A new player of the arena.
    pub fn new(entrant: Entrant) -> ArenaPlayer {
        ArenaPlayer {
            entrant,
            ..ArenaPlayer::default()
        }
    }

    /// Whether the next game counts double (the last two games were wins).
    pub fn on_fire(&self) -> bool {
        self.wins_in_row >= 2
    }

    /// What a game with `score` is worth to this player now.
    pub fn worth(&self, score: PlayerScore) -> u32 {
        let base = score.half_points();
        if self.on_fire() { 2 * base } else { base }
    }

    /// Notes a finished game against `opponent` played with `colour`; the points it brought.
    pub fn record(&mut self, opponent: Entrant, colour: Colour, score: PlayerScore) -> u32 {
        let gained = self.worth(score);
        self.points += gained;
        match score {
            PlayerScore::Win => {
                self.won += 1;
                self.wins_in_row += 1;
            }
            PlayerScore::Draw => {
                self.drawn += 1;
                self.wins_in_row = 0;
            }
            PlayerScore::Loss => {
                self.lost += 1;
                self.wins_in_row = 0;
            }
        }
        self.last_opponent = Some(opponent);
        self.colour_balance += match colour {
            Colour::First => 1,
            Colour::Second => -1,
        };
        self.last_colour = Some(colour);
        gained
    }

    /// Games played.
    pub fn games(&self) -> u32 {
        self.won + self.drawn + self.lost
    }
}

/// The order of an arena's table (and of its pairing): points, then the player with more wins, then the earlier
/// entrant.
pub fn rank(a: &ArenaPlayer, b: &ArenaPlayer) -> std::cmp::Ordering {
    b.points
        .cmp(&a.points)
        .then(b.won.cmp(&a.won))
        .then(a.entrant.cmp(&b.entrant))
}

/// Pairs the players who are free now: the best placed with the next best placed who was not their last
/// opponent and may meet them (`may_meet`: neither has blocked the other), and so on down the list. A player
/// left over (an odd number free, or only their last opponent free) waits for the next player to become free.
pub fn pair_free(
    free: &[ArenaPlayer],
    may_meet: impl Fn(Entrant, Entrant) -> bool,
) -> Vec<Pairing> {
    let mut order: Vec<&ArenaPlayer> = free.iter().collect();
    order.sort_by(|a, b| rank(a, b));
    order.dedup_by_key(|p| p.entrant);
    let mut taken = vec![false; order.len()];
    let mut pairings = Vec::new();
    for i in 0..order.len() {
        if taken[i] {
            continue;
        }
        let p = order[i];
        let partner = (i + 1..order.len()).find(|&j| {
            !taken[j]
                && p.last_opponent != Some(order[j].entrant)
                && order[j].last_opponent != Some(p.entrant)
                && may_meet(p.entrant, order[j].entrant)
        });
        if let Some(j) = partner {
            taken[i] = true;
            taken[j] = true;
            pairings.push(colours(p, order[j]));
        }
    }
    pairings
}

/// Who moves first of two paired players (`higher` placed better): the one who has moved first less often,
/// then the one who moved second last time, then the better placed.
fn colours(higher: &ArenaPlayer, lower: &ArenaPlayer) -> Pairing {
    let higher_first = match higher.colour_balance.cmp(&lower.colour_balance) {
        std::cmp::Ordering::Less => true,
        std::cmp::Ordering::Greater => false,
        std::cmp::Ordering::Equal => match (higher.last_colour, lower.last_colour) {
            (Some(Colour::First), Some(Colour::Second)) => false,
            (Some(Colour::Second), Some(Colour::First)) => true,
            _ => true,
        },
    };
    Pairing::ordered(higher.entrant, lower.entrant, higher_first)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::HashSet;

    fn play(p: &mut ArenaPlayer, scores: &[PlayerScore]) -> Vec<u32> {
        scores
            .iter()
            .map(|&s| p.record(99, Colour::First, s))
            .collect()
    }

    #[test]
    fn streaks_score_as_the_published_examples() {
        use PlayerScore::*;
        // The FAQ's examples: W W D = 6, W W W = 8, W W L D = 5.
        let mut p = ArenaPlayer::new(0);
        assert_eq!(play(&mut p, &[Win, Win, Draw]), vec![2, 2, 2]);
        assert_eq!(p.points, 6);
        let mut p = ArenaPlayer::new(0);
        assert_eq!(play(&mut p, &[Win, Win, Win]), vec![2, 2, 4]);
        let mut p = ArenaPlayer::new(0);
        assert_eq!(play(&mut p, &[Win, Win, Loss, Draw]), vec![2, 2, 0, 1]);
        assert_eq!(p.points, 5);
        // A streak lasts until a game that is not a win: W W W W D W W = 2 2 4 4 2 2 2.
        let mut p = ArenaPlayer::new(0);
        assert_eq!(
            play(&mut p, &[Win, Win, Win, Win, Draw, Win, Win]),
            vec![2, 2, 4, 4, 2, 2, 2]
        );
        assert_eq!(p.points, 18);
        assert!(p.on_fire());
    }

    #[test]
    fn pairs_near_scores_and_never_the_last_opponent() {
        let mut a = ArenaPlayer::new(0);
        let mut b = ArenaPlayer::new(1);
        let c = ArenaPlayer::new(2);
        a.record(1, Colour::First, PlayerScore::Win);
        b.record(0, Colour::Second, PlayerScore::Loss);
        // a (2 points) must not meet b again; c is next.
        let pairs = pair_free(&[a.clone(), b.clone(), c.clone()], |_, _| true);
        assert_eq!(
            pairs,
            vec![Pairing {
                first: 2,
                second: 0
            }]
        );
        // Only a and b free: they wait.
        assert!(pair_free(&[a.clone(), b.clone()], |_, _| true).is_empty());
        // c has blocked a: b, not a, meets c; a waits.
        let apart = |x: Entrant, y: Entrant| !matches!((x, y), (0, 2) | (2, 0));
        let pairs = pair_free(&[a.clone(), b, c.clone()], apart);
        assert_eq!(pairs.len(), 1);
        assert!(!pairs[0].has(0), "{pairs:?}");
        assert!(pair_free(&[a, c], apart).is_empty(), "never paired");
    }

    fn players() -> impl Strategy<Value = Vec<ArenaPlayer>> {
        prop::collection::vec(
            (0u32..20, 0u32..3, prop::option::of(0u32..30), -2i32..3),
            0..30,
        )
        .prop_map(|raw| {
            raw.into_iter()
                .enumerate()
                .map(|(i, (points, won, last, balance))| ArenaPlayer {
                    entrant: i as u32,
                    points,
                    won,
                    last_opponent: last.filter(|&l| l != i as u32),
                    colour_balance: balance,
                    ..ArenaPlayer::default()
                })
                .collect()
        })
    }

    proptest! {
        #[test]
        fn free_players_are_paired_once_never_with_the_last_opponent(free in players()) {
            let pairs = pair_free(&free, |_, _| true);
            let mut seen = HashSet::new();
            for p in &pairs {
                prop_assert!(p.first != p.second);
                prop_assert!(seen.insert(p.first) && seen.insert(p.second), "someone paired twice");
                let first = &free[p.first as usize];
                let second = &free[p.second as usize];
                prop_assert!(first.last_opponent != Some(p.second) && second.last_opponent != Some(p.first));
            }
            // Nobody left waiting could have been paired with another who is left waiting.
            let waiting: Vec<_> = free.iter().filter(|p| !seen.contains(&p.entrant)).collect();
            for (i, a) in waiting.iter().enumerate() {
                for b in &waiting[i + 1..] {
                    prop_assert!(a.last_opponent == Some(b.entrant) || b.last_opponent == Some(a.entrant));
                }
            }
        }
    }
}
