//! The pairing of a Swiss round.
//!
//! The system is a **score-group pairing in the manner of the FIDE Dutch system** (FIDE Handbook C.04.3), simpler
//! than the full Dutch rules and named here so that a round can be paired by hand:
//!
//! 1. The players still in the event are ranked by points, then by seed (entrant number).
//! 2. With an odd number, the bye goes to the lowest-ranked player among those with the fewest byes (so no one
//!    has a second bye while someone has none: FIDE C.04.1 c); a bye is worth a point (C.04.1 f).
//! 3. Pairing goes down the ranking: the highest-ranked player still unpaired, P, is paired within their score
//!    group (the unpaired players on P's points, P first) the Dutch way, top half against bottom half: with the
//!    group's size s and h = s / 2, P's candidates are the group's players from place h on, then those above
//!    place h from the nearest up. A player whose group has no one left floats down: their candidates are the
//!    lower players in ranking order (the downfloater meets the top of the next group, as in Monrad pairing).
//! 4. The absolute criteria (C.04.1 b and C.04.3 A.6): no two players meet twice, and after the round no player
//!    has played one colour more than twice as often as the other nor the same colour three games running. A
//!    candidate that breaks one is skipped; when the choices made higher up leave someone without a candidate,
//!    the pairing goes back and takes the next candidate there (backtracking, within a fixed budget of steps).
//!    Only when no pairing keeps them all are the colour criteria dropped, and only when none keeps players from
//!    meeting twice is that allowed too.
//! 5. Colours: a colour the criteria force; otherwise the player who has moved first less often moves first;
//!    then each alternates from their last game; when both had the same last colour, the higher-ranked player
//!    alternates; in a first meeting of two players with no games, the higher-ranked moves first on odd boards
//!    (1, 3, ...) and second on even ones (as the Dutch system's initial colour does).

use super::standings;
use super::{Colour, Entrant, HalfPoints, Pairing, Round, RoundBoard};

/// How many steps the backtracking search may take for one set of criteria (all the byes tried) before it gives
/// up on them: a round of hundreds usually pairs in a few hundred steps; this bounds what an awkward history
/// could cost.
const BUDGET: u32 = 200_000;

/// What a player has done so far, as the pairing needs it.
#[derive(Clone, Debug)]
struct Past {
    entrant: Entrant,
    points: HalfPoints,
    opponents: Vec<Entrant>,
    colours: Vec<Colour>,
    byes: u32,
}

impl Past {
    fn balance(&self) -> i32 {
        self.colours
            .iter()
            .map(|c| if *c == Colour::First { 1 } else { -1 })
            .sum()
    }

    fn last(&self) -> Option<Colour> {
        self.colours.last().copied()
    }

    /// Which colours this player may have next without breaking the colour criteria: `[first, second]`.
    fn allowed(&self) -> [bool; 2] {
        let balance = self.balance();
        let n = self.colours.len();
        let twice = |c: Colour| n >= 2 && self.colours[n - 1] == c && self.colours[n - 2] == c;
        [
            balance < 2 && !twice(Colour::First),
            balance > -2 && !twice(Colour::Second),
        ]
    }
}

/// The criteria a search keeps, strictest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Criteria {
    Strict,
    NoRematch,
    Any,
}

/// Pairs the next round of a Swiss event of `entrants` entrants after `rounds`, among the `active` ones (those
/// not withdrawn; numbers out of range are ignored). The boards come in ranking order, results unknown. Two
/// players of `avoid` (one blocked the other) are kept apart as two who have met already: paired only when no
/// pairing of the round can do without it.
pub fn pair_round(
    entrants: u32,
    rounds: &[Round],
    active: &[Entrant],
    avoid: &[(Entrant, Entrant)],
) -> Round {
    let points = standings::points(entrants, rounds);
    let mut players: Vec<Past> = Vec::new();
    for &entrant in active {
        if entrant < entrants && !players.iter().any(|p| p.entrant == entrant) {
            players.push(Past {
                entrant,
                points: points[entrant as usize],
                opponents: Vec::new(),
                colours: Vec::new(),
                byes: 0,
            });
        }
    }
    for round in rounds {
        for p in players.iter_mut() {
            if round.bye == Some(p.entrant) {
                p.byes += 1;
            }
            if let Some(board) = round.boards.iter().find(|b| b.pairing.has(p.entrant)) {
                let (opponent, colour) = board.pairing.seen_by(p.entrant);
                p.opponents.push(opponent);
                p.colours.push(colour);
            }
        }
    }
    for &(a, b) in avoid {
        for (one, other) in [(a, b), (b, a)] {
            if let Some(p) = players.iter_mut().find(|p| p.entrant == one) {
                p.opponents.push(other);
            }
        }
    }
    players.sort_by(|a, b| b.points.cmp(&a.points).then(a.entrant.cmp(&b.entrant)));

    let bye_candidates: Vec<usize> = if players.len() % 2 == 1 {
        let fewest = players.iter().map(|p| p.byes).min().unwrap_or(0);
        (0..players.len())
            .rev()
            .filter(|&i| players[i].byes == fewest)
            .collect()
    } else {
        vec![usize::MAX]
    };
    for criteria in [Criteria::Strict, Criteria::NoRematch, Criteria::Any] {
        // One budget for all the byes tried under these criteria: the work of a round stays bounded however
        // many players there are.
        let mut budget = BUDGET;
        for &bye in &bye_candidates {
            let rest: Vec<&Past> = players
                .iter()
                .enumerate()
                .filter(|(i, _)| *i != bye)
                .map(|(_, p)| p)
                .collect();
            if let Some(pairs) = search(&rest, criteria, &mut budget) {
                return Round {
                    boards: pairs
                        .iter()
                        .enumerate()
                        .map(|(board, &(a, b))| RoundBoard {
                            pairing: colours(rest[a], rest[b], board),
                            result: None,
                        })
                        .collect(),
                    bye: players.get(bye).map(|p| p.entrant),
                };
            }
        }
    }
    // Unreachable: without criteria the first candidate always fits. Kept total rather than panicking.
    Round::default()
}

/// A pairing of all of `players` (ranked) that keeps `criteria`, as pairs of places, higher-ranked first.
fn search(players: &[&Past], criteria: Criteria, budget: &mut u32) -> Option<Vec<(usize, usize)>> {
    let mut paired = vec![false; players.len()];
    let mut out = Vec::with_capacity(players.len() / 2);
    // Without criteria the first candidate always fits: no going back, so no budget needed.
    let mut unbounded = u32::MAX;
    let budget = if criteria == Criteria::Any {
        &mut unbounded
    } else {
        budget
    };
    go(players, &mut paired, &mut out, criteria, budget).then_some(out)
}

fn go(
    players: &[&Past],
    paired: &mut [bool],
    out: &mut Vec<(usize, usize)>,
    criteria: Criteria,
    budget: &mut u32,
) -> bool {
    let Some(p) = paired.iter().position(|done| !done) else {
        return true;
    };
    if *budget == 0 {
        return false;
    }
    *budget -= 1;
    paired[p] = true;
    for c in candidates(players, paired, p) {
        if admissible(players[p], players[c], criteria) {
            paired[c] = true;
            out.push((p, c));
            if go(players, paired, out, criteria, budget) {
                return true;
            }
            out.pop();
            paired[c] = false;
        }
    }
    paired[p] = false;
    false
}

/// P's candidates in the order of rule 3: their score group folded, then the players below.
fn candidates(players: &[&Past], paired: &[bool], p: usize) -> Vec<usize> {
    let unpaired = (p + 1..players.len()).filter(|&i| !paired[i]);
    let group: Vec<usize> = unpaired
        .clone()
        .filter(|&i| players[i].points == players[p].points)
        .collect();
    let below = unpaired.filter(|&i| players[i].points != players[p].points);
    // The group with P at place 0 has size group.len() + 1; the bottom half starts at h, i.e. group[h - 1].
    let h = group.len().div_ceil(2);
    let mut order: Vec<usize> = Vec::with_capacity(players.len());
    if h > 0 {
        order.extend(&group[h - 1..]);
        order.extend(group[..h - 1].iter().rev());
    }
    order.extend(below);
    order
}

fn admissible(a: &Past, b: &Past, criteria: Criteria) -> bool {
    let rematch = a.opponents.contains(&b.entrant);
    match criteria {
        Criteria::Any => true,
        Criteria::NoRematch => !rematch,
        Criteria::Strict => {
            let (x, y) = (a.allowed(), b.allowed());
            !rematch && ((x[0] && y[1]) || (x[1] && y[0]))
        }
    }
}

/// The colours of a pair (`higher` ranked above `lower`) on board `board` (from 0), by rule 5.
fn colours(higher: &Past, lower: &Past, board: usize) -> Pairing {
    let (x, y) = (higher.allowed(), lower.allowed());
    let can_first = x[0] && y[1];
    let can_second = x[1] && y[0];
    let higher_first = if can_first != can_second {
        can_first
    } else {
        match higher.balance().cmp(&lower.balance()) {
            std::cmp::Ordering::Less => true,
            std::cmp::Ordering::Greater => false,
            std::cmp::Ordering::Equal => match (higher.last(), lower.last()) {
                (Some(h), Some(l)) if h != l => h == Colour::Second,
                (Some(h), _) => h == Colour::Second,
                (None, Some(l)) => l == Colour::First,
                (None, None) => board.is_multiple_of(2),
            },
        }
    };
    Pairing::ordered(higher.entrant, lower.entrant, higher_first)
}
