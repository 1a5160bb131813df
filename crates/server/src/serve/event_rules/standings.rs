//! The table of a Swiss event: points, then the tie-breaks Buchholz and Sonneborn-Berger.
//!
//! The tie-breaks are those of the FIDE Handbook (C.07, "Tie-Break Regulations"), in their plain form:
//! - **Buchholz**: the sum of the scores of the opponents a player met over the board;
//! - **Sonneborn-Berger**: the sum of the scores of the opponents the player beat, plus half the scores of those
//!   they drew with.
//!
//! A bye is worth a point to the player who has it (FIDE C.04.1 f) but adds nothing to either tie-break: there is
//! no opponent to count (FIDE's "virtual opponent" refinement is not used; it is a choice, named here so that the
//! table can be checked by hand). A game lost by forfeit counts as a game lost to its opponent.
//!
//! Scores are kept in half points; Sonneborn-Berger, which halves a half point, in quarter points.

use super::{Entrant, HalfPoints, PlayerScore, Round};

/// One line of a Swiss table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StandingsRow {
    /// Who.
    pub entrant: Entrant,
    /// Points, in half points (byes included).
    pub points: HalfPoints,
    /// Buchholz, in half points.
    pub buchholz: HalfPoints,
    /// Sonneborn-Berger, in quarter points.
    pub sonneborn_berger: u32,
    /// Games won, drawn, lost over the board.
    pub won: u32,
    /// Games drawn.
    pub drawn: u32,
    /// Games lost.
    pub lost: u32,
    /// Byes had.
    pub byes: u32,
}

/// Each entrant's points after `rounds` (games without a result count nothing yet), indexed by entrant.
pub fn points(entrants: u32, rounds: &[Round]) -> Vec<HalfPoints> {
    let mut points = vec![0; entrants as usize];
    for round in rounds {
        if let Some(p) = round.bye.and_then(|b| points.get_mut(b as usize)) {
            *p += PlayerScore::Win.half_points();
        }
        for board in &round.boards {
            let Some(result) = board.result else { continue };
            for who in [board.pairing.first, board.pairing.second] {
                if let Some(p) = points.get_mut(who as usize) {
                    *p += board.pairing.score_of(who, result).half_points();
                }
            }
        }
    }
    points
}

/// The table after `rounds`, best first: by points, then Buchholz, then Sonneborn-Berger, then seed.
pub fn table(entrants: u32, rounds: &[Round]) -> Vec<StandingsRow> {
    let points = points(entrants, rounds);
    let mut lines: Vec<StandingsRow> = (0..entrants)
        .map(|entrant| StandingsRow {
            entrant,
            points: points[entrant as usize],
            buchholz: 0,
            sonneborn_berger: 0,
            won: 0,
            drawn: 0,
            lost: 0,
            byes: 0,
        })
        .collect();
    for round in rounds {
        if let Some(line) = round.bye.and_then(|b| lines.get_mut(b as usize)) {
            line.byes += 1;
        }
        for board in &round.boards {
            let Some(result) = board.result else { continue };
            for who in [board.pairing.first, board.pairing.second] {
                let (opponent, _) = board.pairing.seen_by(who);
                let theirs = points.get(opponent as usize).copied().unwrap_or(0);
                let Some(line) = lines.get_mut(who as usize) else {
                    continue;
                };
                line.buchholz += theirs;
                match board.pairing.score_of(who, result) {
                    PlayerScore::Win => {
                        line.won += 1;
                        line.sonneborn_berger += 2 * theirs;
                    }
                    PlayerScore::Draw => {
                        line.drawn += 1;
                        line.sonneborn_berger += theirs;
                    }
                    PlayerScore::Loss => line.lost += 1,
                }
            }
        }
    }
    lines.sort_by(|a, b| {
        b.points
            .cmp(&a.points)
            .then(b.buchholz.cmp(&a.buchholz))
            .then(b.sonneborn_berger.cmp(&a.sonneborn_berger))
            .then(a.entrant.cmp(&b.entrant))
    });
    lines
}

/// Half points written as points: `3`, `2.5`.
pub fn show_half(half: HalfPoints) -> String {
    if half.is_multiple_of(2) {
        format!("{}", half / 2)
    } else {
        format!("{}.5", half / 2)
    }
}

/// Quarter points written as points: `3`, `2.5`, `1.25`, `0.75`.
pub fn show_quarter(quarter: u32) -> String {
    match quarter % 4 {
        0 => format!("{}", quarter / 4),
        1 => format!("{}.25", quarter / 4),
        2 => format!("{}.5", quarter / 4),
        _ => format!("{}.75", quarter / 4),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::serve::event_rules::{GameResult, Pairing, RoundBoard};

    fn board(first: Entrant, second: Entrant, result: GameResult) -> RoundBoard {
        RoundBoard {
            pairing: Pairing { first, second },
            result: Some(result),
        }
    }

    #[test]
    fn a_bye_is_a_point_without_tie_break() {
        // Round 1: 0 beats 1, 2 has the bye. Round 2: 2 draws with 0, 1 has the bye.
        let rounds = vec![
            Round {
                boards: vec![board(0, 1, GameResult::FirstWins)],
                bye: Some(2),
            },
            Round {
                boards: vec![board(2, 0, GameResult::Draw)],
                bye: Some(1),
            },
        ];
        // Points: 0 = 1 + 0.5 = 1.5; 1 = 0 + 1 = 1; 2 = 1 + 0.5 = 1.5.
        // Buchholz: 0 met 1 (1) and 2 (1.5) = 2.5; 2 met 0 (1.5) = 1.5; 1 met 0 (1.5) = 1.5.
        // SB: 0 beat 1 (1) + half of 2 (0.75) = 1.75; 2 drew 0: 0.75; 1: 0.
        let table = table(3, &rounds);
        let got: Vec<_> = table
            .iter()
            .map(|l| (l.entrant, l.points, l.buchholz, l.sonneborn_berger, l.byes))
            .collect();
        assert_eq!(got, vec![(0, 3, 5, 7, 0), (2, 3, 3, 3, 1), (1, 2, 3, 0, 1)]);
        assert_eq!(show_quarter(7), "1.75");
        assert_eq!(show_half(3), "1.5");
    }

    #[test]
    fn games_under_way_count_nothing() {
        let rounds = vec![Round {
            boards: vec![RoundBoard {
                pairing: Pairing {
                    first: 0,
                    second: 1,
                },
                result: None,
            }],
            bye: None,
        }];
        assert_eq!(points(2, &rounds), vec![0, 0]);
        assert!(
            table(2, &rounds)
                .iter()
                .all(|l| l.buchholz == 0 && l.won + l.lost == 0)
        );
    }
}
