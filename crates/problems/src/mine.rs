//! Mining problems from games: positions where exactly one move keeps the win or the draw.
//!
//! Every position of every game is asked for a proof ([`Prover::verdict`]); one proved a win or a draw with
//! two moves or more to choose from, of which one keeps the result and every other is proved to let it go
//! ([`Prover::refutes`]), is a problem, written with the proved line as its solution.

use super::{Problem, ProblemGoal, Prover, Verdict, prove_problem};
use crate::game::pdn::{parse_games, replay_english};

/// Proofs the prover may remember between two positions; past this it starts again from nothing (a few
/// hundred megabytes at most, with one position's own proofs).
const REMEMBERED: usize = 1_000_000;

/// What mining a file found.
#[derive(Clone, Debug, Default)]
pub struct Mined {
    /// The problems, in the order of the games and their moves.
    pub problems: Vec<Problem>,
    /// Games read.
    pub games: usize,
    /// Positions looked at.
    pub positions: usize,
    /// Games that could not be read or replayed.
    pub unreadable: usize,
}

/// Mines every game of a PDN text; `progress` is told after each game (games done so far).
pub fn mine_games(text: &str, prover: &mut Prover, progress: &mut dyn FnMut(usize)) -> Mined {
    let mut mined = Mined::default();
    for (i, parsed) in parse_games(text).into_iter().enumerate() {
        mined.games += 1;
        let Ok(game) = parsed else {
            mined.unreadable += 1;
            continue;
        };
        let replayed = replay_english(&game);
        if replayed.error.is_some() && replayed.game.is_empty() {
            mined.unreadable += 1;
            continue;
        }
        let name = match game.event() {
            "" | "?" => format!("game {}", i + 1),
            event => event.to_string(),
        };
        let record = &replayed.game;
        for ply in 0..=record.len() {
            let Some(pos) = record.position_at(ply) else {
                break;
            };
            // What was proved for the last positions helps with the next (a game's positions share their
            // lines), but kept for a whole file it grows without end: some gigabytes in twenty games.
            if prover.remembered() > REMEMBERED {
                prover.forget();
            }
            mined.positions += 1;
            let number = crate::game::MoveNumber::of_ply(record.start(), ply);
            let at = format!("{name}, {number}");
            if let Some(problem) = problem_at(pos, prover, &at) {
                // A position met again (the same shot in two games) is one problem.
                if !mined.problems.iter().any(|p| p.start == problem.start) {
                    mined.problems.push(problem);
                }
            }
        }
        progress(i + 1);
    }
    mined
}

/// The problem at `pos`, if exactly one move keeps its proved result; `title` says where it was found.
pub fn problem_at(
    pos: &crate::rules::Position,
    prover: &mut Prover,
    title: &str,
) -> Option<Problem> {
    let moves = pos.legal_moves();
    if moves.len() < 2 {
        return None;
    }
    let goal = match prover.verdict(pos) {
        Verdict::Win(_) => ProblemGoal::Win,
        Verdict::Draw => ProblemGoal::Draw,
        _ => return None,
    };
    let mut keeping = None;
    for m in &moves {
        if prover.keeps(pos, m, goal) {
            if keeping.is_some() {
                return None;
            }
            keeping = Some(*m);
        } else if !prover.refutes(pos, m, goal) {
            // Neither proved to keep nor to lose the result: the position proves nothing about uniqueness.
            return None;
        }
    }
    keeping?;
    prove_problem(title, *pos, None, &[], prover).ok()
}
