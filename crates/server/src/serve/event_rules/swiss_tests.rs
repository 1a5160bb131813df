//! The Swiss pairing and table checked against a round-by-round hand computation, and its criteria checked on
//! random events against a brute-force search.

use std::collections::HashSet;

use proptest::prelude::*;

use super::standings::{self, table};
use super::swiss::pair_round;
use super::{Colour, Entrant, GameResult, Pairing, Round};

/// The fixed results of the hand-computed event: the higher seed (lower number) wins, except that neighbours in
/// the seeding (numbers one apart) draw.
fn seeded_result(p: Pairing) -> GameResult {
    let (lo, hi) = (p.first.min(p.second), p.first.max(p.second));
    if hi - lo == 1 {
        GameResult::Draw
    } else if p.first == lo {
        GameResult::FirstWins
    } else {
        GameResult::SecondWins
    }
}

fn play(entrants: u32, rounds: usize, result: impl Fn(Pairing) -> GameResult) -> Vec<Round> {
    let active: Vec<Entrant> = (0..entrants).collect();
    let mut history = Vec::new();
    for _ in 0..rounds {
        let mut round = pair_round(entrants, &history, &active, &[]);
        for board in &mut round.boards {
            board.result = Some(result(board.pairing));
        }
        history.push(round);
    }
    history
}

fn b(first: Entrant, second: Entrant) -> Pairing {
    Pairing { first, second }
}

/// Seven players A..G (entrants 0..6), five rounds. Colours: F = moves first, S = second; points in points.
///
/// Round 1. All on 0, ranked A..G. Bye: the lowest-ranked, G. Group A..F (s = 6, h = 3): A-D, then B..F without
/// D (s = 4, h = 2) B-E, then C-F. No colours yet: higher seed F on boards 1 and 3, S on board 2.
/// Boards: A-D, E-B, C-F. Results: A, B, C win. Points: A1 B1 C1 G1 (bye) D0 E0 F0.
///
/// Round 2. Ranked A B C G (1) D E F (0). Bye: fewest byes (none) from the bottom: F. A's group is B C G (s = 4,
/// h = 2): C first, A-C (no rematch; A and C both F last, colours free). B: group G, B-G. D-E.
/// Colours: A-C equal balance, both F last: higher (A) alternates, S, so C-A. B (balance -1) moves first
/// against G (0): B-G. D (-1) against E (+1): D-E. Results: A beats C, B beats G, D-E draw.
/// Points: A2 B2 C1 F1 G1 D0.5 E0.5.
///
/// Round 3. Ranked A B (2) C F G (1) D E (0.5). Bye: E (lowest without one). A-B (group of two). C's group F G
/// (s = 3, h = 1): F is a rematch (round 1), so G; C has played F F, so must move second: G-C. F floats down to
/// D: F (-1) moves first against D (0): F-D. A (last S) against B (last F): A alternates to F: A-B.
/// Results: A-B draw, C beats G, D beats F. Points: A2.5 B2.5 C2 D1.5 E1.5 F1 G1.
///
/// Round 4. Ranked A B (2.5) C (2) D E (1.5) F G (1). Bye: D (lowest of A B C D without one). A: B is a rematch,
/// A floats: C rematch (round 2), E: A-E. B floats: C. F-G in their group. Colours: E (0) first against A (+1);
/// B (-1) first against C (+1); F and G both balance 0 and F last: higher (F) alternates to S: G-F.
/// Results: A beats E, B-C draw, G-F draw. Points: A3.5 B3 C2.5 D2.5 E1.5 F1.5 G1.5.
///
/// Round 5. Ranked A (3.5) B (3) C D (2.5) E F G (1.5). Bye: C (lowest of A B C without one). A alone on 3.5
/// meets the first below not yet met: B, D, E met; F: F (-1) first against A (0): F-A. B meets D (not met):
/// D (-1) first against B (0): D-B. E-G: G has played F F, must move second: E-G.
/// Results: A beats F, B beats D, E beats G.
///
/// Final points: A 4.5, B 4, C 3.5, D 2.5, E 2.5, F 1.5, G 1.5 (total 20 = 5 rounds x (3 games + 1 bye)).
///
/// Buchholz (opponents' final points; byes count nothing):
///   A: D 2.5 + C 3.5 + B 4 + E 2.5 + F 1.5 = 14;     B: E 2.5 + G 1.5 + A 4.5 + C 3.5 + D 2.5 = 14.5;
///   C: F 1.5 + A 4.5 + G 1.5 + B 4 = 11.5;          D: A 4.5 + E 2.5 + F 1.5 + B 4 = 12.5;
///   E: B 4 + D 2.5 + A 4.5 + G 1.5 = 12.5;          F: C 3.5 + D 2.5 + G 1.5 + A 4.5 = 12;
///   G: B 4 + C 3.5 + F 1.5 + E 2.5 = 11.5.
/// Sonneborn-Berger (beaten opponents' points + half the drawn ones'):
///   A: D 2.5 + C 3.5 + E 2.5 + F 1.5 + B 4/2 = 12;   B: E 2.5 + G 1.5 + D 2.5 + (A 4.5 + C 3.5)/2 = 10.5;
///   C: F 1.5 + G 1.5 + B 4/2 = 5;                   D: F 1.5 + E 2.5/2 = 2.75;   E: G 1.5 + D 2.5/2 = 2.75;
///   F: G 1.5/2 = 0.75;                              G: F 1.5/2 = 0.75.
/// Order: A, B, C; D and E tie on points, Buchholz and SB, so seed: D, E; F before G on Buchholz (12 to 11.5).
#[test]
fn seven_players_five_rounds_as_computed_by_hand() {
    let rounds = play(7, 5, seeded_result);
    let pairings: Vec<(Vec<Pairing>, Option<Entrant>)> = rounds
        .iter()
        .map(|r| (r.boards.iter().map(|x| x.pairing).collect(), r.bye))
        .collect();
    let (a, bb, c, d, e, f, g) = (0, 1, 2, 3, 4, 5, 6);
    assert_eq!(
        pairings,
        vec![
            (vec![b(a, d), b(e, bb), b(c, f)], Some(g)),
            (vec![b(c, a), b(bb, g), b(d, e)], Some(f)),
            (vec![b(a, bb), b(g, c), b(f, d)], Some(e)),
            (vec![b(e, a), b(bb, c), b(g, f)], Some(d)),
            (vec![b(f, a), b(d, bb), b(e, g)], Some(c)),
        ]
    );
    let got: Vec<(Entrant, u32, u32, u32)> = table(7, &rounds)
        .iter()
        .map(|l| (l.entrant, l.points, l.buchholz, l.sonneborn_berger))
        .collect();
    // Points and Buchholz in half points, Sonneborn-Berger in quarter points.
    assert_eq!(
        got,
        vec![
            (a, 9, 28, 48),
            (bb, 8, 29, 42),
            (c, 7, 23, 20),
            (d, 5, 25, 11),
            (e, 5, 25, 11),
            (f, 3, 24, 3),
            (g, 3, 23, 3),
        ]
    );
    let lines = table(7, &rounds);
    assert_eq!(standings::show_half(lines[1].buchholz), "14.5");
    assert_eq!(standings::show_quarter(lines[3].sonneborn_berger), "2.75");
    // Five byes went to G, F, E, D, C in turn; A and B never had one.
    let byes: Vec<u32> = (0..7)
        .map(|x| lines.iter().find(|l| l.entrant == x).map_or(9, |l| l.byes))
        .collect();
    assert_eq!(byes, vec![0, 0, 1, 1, 1, 1, 1]);
}

/// Two players one of whom blocked the other are kept apart while the round can be paired without them meeting,
/// and met only when nothing else pairs it.
#[test]
fn a_blocked_pair_is_kept_apart_while_the_round_allows() {
    // The first round would pair 0-2 and 1-3 (top half against bottom half).
    let free = pair_round(4, &[], &[0, 1, 2, 3], &[]);
    assert!(
        free.boards
            .iter()
            .any(|b| b.pairing.has(0) && b.pairing.has(2)),
        "{free:?}"
    );
    let round = pair_round(4, &[], &[0, 1, 2, 3], &[(0, 2)]);
    assert_eq!(round.boards.len(), 2);
    assert!(
        !round
            .boards
            .iter()
            .any(|b| b.pairing.has(0) && b.pairing.has(2)),
        "{round:?}"
    );
    // Two players only: they meet, as a Swiss round must pair them (or give both nothing to play).
    let round = pair_round(2, &[], &[0, 1], &[(0, 1)]);
    assert_eq!(round.boards.len(), 1);
}

/// A player withdrawn is not paired and keeps their points in the table.
#[test]
fn a_withdrawn_player_is_not_paired() {
    let first = pair_round(4, &[], &[0, 1, 2, 3], &[]);
    let mut first = first;
    for board in &mut first.boards {
        board.result = Some(GameResult::FirstWins);
    }
    let second = pair_round(4, std::slice::from_ref(&first), &[0, 1, 2], &[]);
    assert!(!second.involves(3));
    assert_eq!(second.boards.len(), 1);
    assert!(second.bye.is_some());
}

fn colour_ok(colours: &[Colour]) -> bool {
    let balance: i32 = colours
        .iter()
        .map(|c| if *c == Colour::First { 1 } else { -1 })
        .sum();
    let n = colours.len();
    balance.abs() <= 2
        && !(n >= 3 && colours[n - 1] == colours[n - 2] && colours[n - 2] == colours[n - 3])
}

fn colours_of(rounds: &[Round], who: Entrant) -> Vec<Colour> {
    rounds
        .iter()
        .filter_map(|r| {
            r.boards
                .iter()
                .find(|b| b.pairing.has(who))
                .map(|b| b.pairing.seen_by(who).1)
        })
        .collect()
}

/// Whether some pairing of `left` (with any bye among `bye_options` when odd) avoids rematches and, when
/// `with_colours`, keeps every colour history valid: a brute force, independent of the pairing's search.
fn pairing_exists(
    left: &[Entrant],
    bye_options: &[Entrant],
    rounds: &[Round],
    with_colours: bool,
) -> bool {
    fn all_paired(left: &[Entrant], rounds: &[Round], with_colours: bool) -> bool {
        let Some((&p, rest)) = left.split_first() else {
            return true;
        };
        rest.iter().enumerate().any(|(i, &q)| {
            let met = rounds.iter().any(|r| {
                r.boards
                    .iter()
                    .any(|b| b.pairing.has(p) && b.pairing.has(q))
            });
            let fits = |pc: Colour| {
                let mut a = colours_of(rounds, p);
                let mut b = colours_of(rounds, q);
                a.push(pc);
                b.push(pc.other());
                colour_ok(&a) && colour_ok(&b)
            };
            let colours = !with_colours || fits(Colour::First) || fits(Colour::Second);
            if met || !colours {
                return false;
            }
            let mut others = rest.to_vec();
            others.remove(i);
            all_paired(&others, rounds, with_colours)
        })
    }
    if left.len().is_multiple_of(2) {
        return all_paired(left, rounds, with_colours);
    }
    bye_options.iter().any(|bye| {
        let rest: Vec<Entrant> = left.iter().copied().filter(|x| x != bye).collect();
        all_paired(&rest, rounds, with_colours)
    })
}

fn event() -> impl Strategy<Value = (u32, usize, Vec<u8>)> {
    (2u32..=10).prop_flat_map(|n| (Just(n), 1..n as usize, prop::collection::vec(0u8..3, 64)))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn swiss_rounds_keep_the_criteria((n, rounds, results) in event()) {
        let active: Vec<Entrant> = (0..n).collect();
        let mut history: Vec<Round> = Vec::new();
        let mut next = results.iter().cycle();
        for _ in 0..rounds {
            let round = pair_round(n, &history, &active, &[]);
            // Everyone exactly once: on one board or with the bye.
            let mut seen = HashSet::new();
            for b in &round.boards {
                prop_assert!(b.pairing.first != b.pairing.second);
                prop_assert!(seen.insert(b.pairing.first) && seen.insert(b.pairing.second));
            }
            if let Some(bye) = round.bye {
                prop_assert!(seen.insert(bye));
            }
            prop_assert_eq!(seen.len(), n as usize);
            prop_assert_eq!(round.bye.is_some(), n % 2 == 1);
            // At most one bye each (fewer rounds than players).
            if let Some(bye) = round.bye {
                prop_assert!(history.iter().all(|r| r.bye != Some(bye)), "a second bye");
            }
            let fewest: Vec<Entrant> = active
                .iter()
                .copied()
                .filter(|&x| history.iter().all(|r| r.bye != Some(x)))
                .collect();
            let rematch = round.boards.iter().any(|b| {
                history.iter().any(|r| r.boards.iter().any(|o| o.pairing.has(b.pairing.first) && o.pairing.has(b.pairing.second)))
            });
            if rematch {
                prop_assert!(!pairing_exists(&active, &fewest, &history, false), "an avoidable rematch");
            }
            let mut after = history.clone();
            after.push(round.clone());
            let colours_kept = active.iter().all(|&x| colour_ok(&colours_of(&after, x)));
            if !colours_kept && !rematch {
                prop_assert!(!pairing_exists(&active, &fewest, &history, true), "avoidable colour trouble");
            }
            let mut round = round;
            for board in &mut round.boards {
                board.result = Some(match next.next().copied().unwrap_or(0) {
                    0 => GameResult::FirstWins,
                    1 => GameResult::SecondWins,
                    _ => GameResult::Draw,
                });
            }
            history.push(round);
        }
    }
}
