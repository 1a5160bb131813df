//! The trainer's questions to the prover, asked off the app's thread: whether a move off the solution's main
//! line keeps the result (and the defence to it, or the refutation), and which move a hint gives off the line.
//!
//! A question can take the prover up to its node budget several times over (about a second at worst), far too
//! long for a state machine that answers every key within a frame. So the app only asks ([`ProverQuestion`]) and a
//! worker answers ([`SharedProver::answer`]); the answer comes back to the app as an action.

use std::fmt;
use std::sync::{Arc, Mutex, PoisonError};

use super::{ProblemGoal, Prover, Verdict};
use crate::rules::{Move, Position};

/// The most positions a shared prover remembers before a question: past it, it forgets them all first, so that
/// a trainer left open for hours (on a server, one per player) holds a bounded memory.
pub const MAX_REMEMBERED: usize = 250_000;

/// Plies of a refutation shown to the player.
pub const REFUTATION_PLIES: usize = 8;

/// What the trainer asks the prover.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProverQuestion {
    /// Does the solver's `mv` from `pos` keep `goal`? If it does, the defence to it; if not, the refutation.
    Move {
        /// The position the move is played from (the solver to move).
        pos: Position,
        /// The move.
        mv: Move,
        /// What the solver must keep.
        goal: ProblemGoal,
    },
    /// The move that keeps `goal` fastest from `pos` (the solver to move), for a hint.
    Hint {
        /// The position.
        pos: Position,
        /// What the solver must keep.
        goal: ProblemGoal,
    },
}

/// The prover's answer to a [`ProverQuestion`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// The move keeps the result.
    Kept {
        /// The defender's answer (`None`: the defender has no move left).
        defence: Option<Move>,
        /// Whether, after the defence, a draw is proved held (off the main line a draw has no end to reach, so
        /// holding it through the defence solves the problem).
        draw_held: bool,
    },
    /// The move lets the result go.
    Lost {
        /// The line that refutes it, from the position after it (may be empty: the loss is proved, no line
        /// found within the plies shown).
        refutation: Vec<Move>,
        /// What is proved after it, for the side that answers it.
        verdict: Verdict,
    },
    /// The move a hint gives (`None`: no move keeps the result).
    Hint(Option<Move>),
}

/// Answers `question` with `prover`.
pub fn answer(prover: &mut Prover, question: &ProverQuestion) -> Answer {
    match *question {
        ProverQuestion::Move { pos, mv, goal } => {
            if !prover.keeps(&pos, &mv, goal) {
                let after = pos.play(&mv);
                let refutation = prover.line(&after, REFUTATION_PLIES);
                let verdict = prover.verdict(&after);
                return Answer::Lost {
                    refutation,
                    verdict,
                };
            }
            let after = pos.play(&mv);
            if after.legal_moves().is_empty() {
                return Answer::Kept {
                    defence: None,
                    draw_held: false,
                };
            }
            let defence = prover.defence(&after, goal);
            let draw_held = match defence {
                Some(d) if goal == ProblemGoal::Draw => {
                    prover.verdict(&after.play(&d)) == Verdict::Draw
                }
                _ => false,
            };
            Answer::Kept { defence, draw_held }
        }
        ProverQuestion::Hint { pos, goal } => Answer::Hint(prover.solving_move(&pos, goal)),
    }
}

/// A prover that the trainer and the worker answering its questions share: the worker proves, and what it
/// proves is remembered for the trainer's next question about the same problem. The trainer never proves on
/// its own thread, so the lock is only ever waited on by a worker.
#[derive(Clone)]
pub struct SharedProver(Arc<Mutex<Prover>>);

impl SharedProver {
    /// Shares `prover`.
    pub fn new(prover: Prover) -> SharedProver {
        SharedProver(Arc::new(Mutex::new(prover)))
    }

    /// Answers `question` (blocks while it proves: call it off the app's thread).
    pub fn answer(&self, question: &ProverQuestion) -> Answer {
        // A worker that panicked mid-proof leaves only a cache of what was proved before: still true.
        let mut prover = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        if prover.remembered() > MAX_REMEMBERED {
            prover.forget();
        }
        answer(&mut prover, question)
    }

    /// Forgets what has been proved (the next problem is proved on its own).
    pub fn forget(&self) {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .forget();
    }
}

impl fmt::Debug for SharedProver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SharedProver")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builtin_problems;

    #[test]
    fn a_wrong_move_gets_a_refutation_and_a_right_one_a_defence() {
        let problem = builtin_problems()
            .into_iter()
            .find(|p| p.title == "Gould's Problems #12")
            .expect("built in");
        let prover = SharedProver::new(Prover::new(None));
        let pos = problem.start;
        let right = problem.solution[0];
        let kept = prover.answer(&ProverQuestion::Move {
            pos,
            mv: right,
            goal: problem.goal,
        });
        assert!(
            matches!(
                kept,
                Answer::Kept {
                    defence: Some(_),
                    ..
                }
            ),
            "{kept:?}"
        );
        let wrong = pos
            .legal_moves()
            .iter()
            .copied()
            .find(|m| *m != right && !Prover::new(None).keeps(&pos, m, problem.goal))
            .expect("a wrong move");
        let lost = prover.answer(&ProverQuestion::Move {
            pos,
            mv: wrong,
            goal: problem.goal,
        });
        assert!(matches!(lost, Answer::Lost { .. }), "{lost:?}");
        let hint = prover.answer(&ProverQuestion::Hint {
            pos,
            goal: problem.goal,
        });
        let Answer::Hint(Some(mv)) = hint else {
            panic!("no hint: {hint:?}");
        };
        assert!(Prover::new(None).keeps(&pos, &mv, problem.goal));
    }
}
