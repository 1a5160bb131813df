//! The problem trainer's own state: the collection, the problem on show, how far it is solved, the hint
//! given, the solved count. The app (`state/training.rs`) plays the moves; this part judges them.

use crate::problems::{Goal, Problem, Prover, line_text};
use crate::rules::{Move, Position, SquareStyle, write_move};

/// How the problem on show stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Attempt {
    /// The player is to find the next move.
    Solving,
    /// The last move tried was wrong: it was taken back, and this is why.
    Wrong {
        /// The move tried, in numbers.
        tried: String,
        /// The line that refutes it (the other side's best answer and what follows), in numbers; empty when the
        /// loss of the result is proved but no line is shown.
        refutation: String,
        /// What the refutation achieves: "White wins", "White draws".
        verdict: String,
    },
    /// Solved: the result is reached, or the solution played out.
    Solved,
}

/// How much of the solution's next move the hints have given away.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HintStage {
    /// Nothing yet.
    None,
    /// The piece to move.
    Piece,
    /// The whole move.
    Move,
}

/// The trainer.
#[derive(Clone, Debug)]
pub struct Trainer {
    problems: Vec<Problem>,
    index: usize,
    solved: Vec<bool>,
    /// Wrong moves tried on each problem.
    misses: Vec<u32>,
    prover: Prover,
    /// Plies of the game on show that have been judged (the player's) or played (the defence).
    pub(crate) judged: usize,
    /// Whether every move so far is the solution's main line (the defence then follows it too).
    pub(crate) on_line: bool,
    attempt: Attempt,
    hint: HintStage,
}

/// What becomes of a move the player made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Judgement {
    /// It keeps the result; the defence answers with this move (none: the game is over or the problem solved).
    Kept(Option<Move>),
    /// It lets the result go: take it back.
    Wrong,
}

impl Trainer {
    /// A trainer over `problems` (at least one), proving with `prover`.
    pub fn new(problems: Vec<Problem>, prover: Prover) -> Trainer {
        let n = problems.len();
        Trainer {
            problems,
            index: 0,
            solved: vec![false; n],
            misses: vec![0; n],
            prover,
            judged: 0,
            on_line: true,
            attempt: Attempt::Solving,
            hint: HintStage::None,
        }
    }

    /// The problem on show.
    pub fn problem(&self) -> &Problem {
        &self.problems[self.index]
    }

    /// Its number, from 0.
    pub fn index(&self) -> usize {
        self.index
    }

    /// Problems in the collection.
    pub fn len(&self) -> usize {
        self.problems.len()
    }

    /// Whether the collection is empty (never, once made by the app).
    pub fn is_empty(&self) -> bool {
        self.problems.is_empty()
    }

    /// Problems solved so far.
    pub fn solved_count(&self) -> usize {
        self.solved.iter().filter(|s| **s).count()
    }

    /// Whether the problem on show has been solved (now or before).
    pub fn is_solved(&self) -> bool {
        self.solved[self.index]
    }

    /// Wrong moves tried on the problem on show.
    pub fn misses(&self) -> u32 {
        self.misses[self.index]
    }

    /// How the attempt stands.
    pub fn attempt(&self) -> &Attempt {
        &self.attempt
    }

    /// How far the hints have gone.
    pub fn hint_stage(&self) -> HintStage {
        self.hint
    }

    /// Goes to problem `index` (wrapping), to be tried from its start.
    pub(crate) fn go_to(&mut self, index: usize) {
        self.index = index % self.problems.len().max(1);
        self.restart();
    }

    /// The problem on show, from its start again.
    pub(crate) fn restart(&mut self) {
        self.judged = 0;
        self.on_line = true;
        self.attempt = Attempt::Solving;
        self.hint = HintStage::None;
    }

    /// The next hint for `pos` (the solver to move): the piece, then the whole move.
    pub(crate) fn next_hint(&mut self, pos: &Position) -> Option<(HintStage, Move)> {
        let mv = self.solving_move(pos)?;
        self.hint = match self.hint {
            HintStage::None => HintStage::Piece,
            HintStage::Piece | HintStage::Move => HintStage::Move,
        };
        Some((self.hint, mv))
    }

    /// The move the solution plays next from `pos`: the main line's while on it, else the fastest that keeps
    /// the result.
    fn solving_move(&mut self, pos: &Position) -> Option<Move> {
        if self.on_line
            && let Some(mv) = self.problems[self.index].solution.get(self.judged)
        {
            return Some(*mv);
        }
        let goal = self.problem().goal;
        self.prover.solving_move(pos, goal)
    }

    /// Judges the player's `mv` from `pos` (the solver to move), and finds the defence when it is kept.
    pub(crate) fn judge(&mut self, pos: &Position, mv: &Move) -> Judgement {
        let goal = self.problem().goal;
        let main = self.problems[self.index].solution.get(self.judged).copied();
        let on_line = self.on_line && main == Some(*mv);
        // The main line's moves were proved when the problem was loaded.
        if !on_line && !self.prover.keeps(pos, mv, goal) {
            self.misses[self.index] += 1;
            let after = pos.play(mv);
            let refutation = self.prover.line(&after, 8);
            let defender = after.side_to_move();
            let verdict = match self.prover.verdict(&after) {
                crate::problems::Verdict::Win(_) => format!("{defender} wins"),
                crate::problems::Verdict::Draw => format!("{defender} draws"),
                _ => "no win can be proved after it".to_string(),
            };
            self.attempt = Attempt::Wrong {
                tried: write_move(pos, mv, SquareStyle::Numbers),
                refutation: line_text(&after, &refutation),
                verdict,
            };
            return Judgement::Wrong;
        }
        self.on_line = on_line;
        self.judged += 1;
        self.hint = HintStage::None;
        self.attempt = Attempt::Solving;
        let after = pos.play(mv);
        if after.legal_moves().is_empty() || self.line_done() {
            self.solve();
            return Judgement::Kept(None);
        }
        let defence = if self.on_line {
            self.problems[self.index].solution.get(self.judged).copied()
        } else {
            None
        };
        let defence = defence.or_else(|| self.prover.defence(&after, goal));
        if let Some(d) = defence {
            self.judged += 1;
            let next = after.play(&d);
            if next.legal_moves().is_empty() || self.line_done() {
                self.solve();
            } else if !self.on_line
                && goal == Goal::Draw
                && self.prover.verdict(&next) == crate::problems::Verdict::Draw
            {
                // Off the main line a draw has no end to reach: holding it through the defence is the solution.
                self.solve();
            }
        }
        Judgement::Kept(defence)
    }

    fn line_done(&self) -> bool {
        self.on_line && self.judged >= self.problems[self.index].solution.len()
    }

    fn solve(&mut self) {
        self.attempt = Attempt::Solved;
        self.solved[self.index] = true;
    }
}
