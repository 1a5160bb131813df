//! The problem trainer's own state: the collection, the problem on show, how far it is solved, the hint
//! given, the solved count. The app (`state/training.rs`) plays the moves; this part judges them.
//!
//! A move on the solution's main line is judged at once (the line was proved when the problem was loaded). A
//! move off it needs the prover, which may search for a second: the trainer asks a [`Question`], waits
//! ([`Attempt::Checking`]), and takes the [`Answer`] when the worker brings it back (`Trainer::answered`).

use crate::problems::check::{Answer, ProverQuestion, SharedProver};
use crate::problems::{Problem, Prover, Verdict, line_text};
use crate::rules::{Move, Position, SquareStyle, write_move};

/// How the problem on show stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Attempt {
    /// The player is to find the next move.
    Solving,
    /// The move tried is off the main line and being checked by the prover.
    Checking {
        /// The move tried, in numbers.
        tried: String,
    },
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

/// What the trainer is open for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TrainingKind {
    /// Problems to try at will, nothing kept (the local trainer).
    Free,
    /// Problems for the player's problem rating: each problem's first try counts.
    Rated,
    /// The problem of the day (rated as [`TrainingKind::Rated`]).
    Daily,
    /// Problems one after another, getting harder, until the first miss (rated too).
    Streak,
}

/// What the trainer tells the outside world (a server keeps it in its records).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TrainingNews {
    /// The first try at a problem is decided: solved (no wrong move, no hint), or not.
    Attempt {
        /// The problem, named by its position's FEN.
        problem: String,
        /// Whether it was solved.
        solved: bool,
    },
    /// The streak under way has reached this many problems.
    Streak(u32),
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
    prover: SharedProver,
    /// The question asked of the prover and not answered yet, with its number.
    asked: Option<(u64, ProverQuestion)>,
    /// The number of the last question asked.
    questions: u64,
    /// Plies of the game on show that have been judged (the player's) or played (the defence).
    judged: usize,
    /// Whether every move so far is the solution's main line (the defence then follows it too).
    on_line: bool,
    attempt: Attempt,
    hint: HintStage,
    kind: TrainingKind,
    /// Whether each problem's first try has been decided (and told).
    decided: Vec<bool>,
    /// Problems solved one after another in a streak, and whether the streak has ended with a miss.
    streak: u32,
    streak_over: bool,
    /// The best streak before this one (from the records), and the best now.
    best_streak: i64,
    /// What is to be told, oldest first.
    news: Vec<TrainingNews>,
}

/// What becomes of a move the player made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Judgement {
    /// It keeps the result; the defence answers with this move (none: the game is over or the problem solved).
    Kept(Option<Move>),
    /// It lets the result go: take it back.
    Wrong,
    /// The prover must be asked: this question, numbered so that a late answer is known.
    Ask(u64, ProverQuestion),
}

/// What a hint asked for gives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HintStep {
    /// The next stage, and the solution's move.
    Ready(HintStage, Move),
    /// The prover must be asked: this question, numbered.
    Ask(u64, ProverQuestion),
    /// No hint: the trainer is waiting for the prover, or no move keeps the result.
    Nothing,
}

/// What an answer of the prover's gives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answered {
    /// The judgement of the move asked about.
    Move(Judgement),
    /// The hint's next stage and the move.
    Hint(HintStage, Move),
    /// No move keeps the result.
    NoHint,
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
            prover: SharedProver::new(prover),
            asked: None,
            questions: 0,
            judged: 0,
            on_line: true,
            attempt: Attempt::Solving,
            hint: HintStage::None,
            kind: TrainingKind::Free,
            decided: vec![false; n],
            streak: 0,
            streak_over: false,
            best_streak: 0,
            news: Vec::new(),
        }
    }

    /// The trainer open for `kind`; `best_streak` is the player's best streak so far.
    pub fn with_kind(mut self, kind: TrainingKind, best_streak: i64) -> Trainer {
        self.kind = kind;
        self.best_streak = best_streak;
        self
    }

    /// What the trainer is open for.
    pub fn kind(&self) -> TrainingKind {
        self.kind
    }

    /// Problems solved one after another in the streak under way (or just ended).
    pub fn streak(&self) -> u32 {
        self.streak
    }

    /// Whether the streak has ended with a miss.
    pub fn streak_over(&self) -> bool {
        self.streak_over
    }

    /// The player's best streak, this one included.
    pub fn best_streak(&self) -> i64 {
        self.best_streak.max(i64::from(self.streak))
    }

    /// Takes what is to be told, oldest first.
    pub(crate) fn take_news(&mut self) -> Vec<TrainingNews> {
        std::mem::take(&mut self.news)
    }

    /// Starts a new streak from the first problem.
    pub(crate) fn new_streak(&mut self) {
        // The streak that ended stays the best if it was.
        self.best_streak = self.best_streak();
        self.streak = 0;
        self.streak_over = false;
        self.go_to(0);
    }

    /// Decides the problem on show's first try, once, and tells it when the trainer keeps count.
    fn decide(&mut self, solved: bool) {
        if self.decided[self.index] {
            return;
        }
        self.decided[self.index] = true;
        if self.kind != TrainingKind::Free {
            self.news.push(TrainingNews::Attempt {
                problem: crate::rules::to_fen(&self.problems[self.index].start),
                solved,
            });
        }
    }

    /// A miss (a wrong move, or a hint taken): the first try is lost, and a streak ends.
    fn miss(&mut self) {
        self.decide(false);
        if self.kind == TrainingKind::Streak {
            self.streak_over = true;
        }
    }

    /// Plies of the game on show the trainer has judged (the player's moves) or played (the defence's): a move
    /// past them is the player's, to be judged.
    pub(crate) fn judged(&self) -> usize {
        self.judged
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

    /// The prover, shared with the worker that answers the trainer's questions.
    pub fn prover(&self) -> &SharedProver {
        &self.prover
    }

    /// Whether a question is waiting for the prover's answer.
    pub fn is_checking(&self) -> bool {
        self.asked.is_some()
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
        // An answer still to come is about the attempt given up: it is let go when it arrives.
        self.asked = None;
        self.judged = 0;
        self.on_line = true;
        self.attempt = Attempt::Solving;
        self.hint = HintStage::None;
    }

    /// The next hint for `pos` (the solver to move): the piece, then the whole move. Off the main line the
    /// prover is asked first, and [`Trainer::answered`] gives the hint.
    pub(crate) fn next_hint(&mut self, pos: &Position) -> HintStep {
        if self.asked.is_some() {
            return HintStep::Nothing;
        }
        if self.on_line
            && let Some(mv) = self.problems[self.index].solution.get(self.judged).copied()
        {
            return HintStep::Ready(self.advance_hint(), mv);
        }
        let question = ProverQuestion::Hint {
            pos: *pos,
            goal: self.problem().goal,
        };
        let number = self.ask(question.clone());
        HintStep::Ask(number, question)
    }

    fn advance_hint(&mut self) -> HintStage {
        // A hint gives the answer away: the try no longer counts as solved.
        self.miss();
        self.hint = match self.hint {
            HintStage::None => HintStage::Piece,
            HintStage::Piece | HintStage::Move => HintStage::Move,
        };
        self.hint
    }

    fn ask(&mut self, question: ProverQuestion) -> u64 {
        self.questions += 1;
        self.asked = Some((self.questions, question));
        self.questions
    }

    /// Judges the player's `mv` from `pos` (the solver to move): on the main line at once, with the line's
    /// defence; off it, by asking the prover.
    pub(crate) fn judge(&mut self, pos: &Position, mv: &Move) -> Judgement {
        let main = self.problems[self.index].solution.get(self.judged).copied();
        if !(self.on_line && main == Some(*mv)) {
            let question = ProverQuestion::Move {
                pos: *pos,
                mv: *mv,
                goal: self.problem().goal,
            };
            self.attempt = Attempt::Checking {
                tried: write_move(pos, mv, SquareStyle::Numbers),
            };
            let number = self.ask(question.clone());
            return Judgement::Ask(number, question);
        }
        self.judged += 1;
        self.hint = HintStage::None;
        self.attempt = Attempt::Solving;
        let after = pos.play(mv);
        if after.legal_moves().is_empty() || self.line_done() {
            self.solve();
            return Judgement::Kept(None);
        }
        // The line goes on past the solver's move (else it would be done): its next move is the defence.
        let defence = self.problems[self.index].solution.get(self.judged).copied();
        if let Some(d) = defence {
            self.judged += 1;
            if after.play(&d).legal_moves().is_empty() || self.line_done() {
                self.solve();
            }
        }
        Judgement::Kept(defence)
    }

    /// Takes the prover's answer to question `number`: for a move, how it is judged; for a hint, the hint. An
    /// answer to a question no longer waited for (the player went on to another problem) is `None`.
    pub(crate) fn answered(&mut self, number: u64, answer: Answer) -> Option<Answered> {
        let (_, question) = self.asked.take_if(|(n, _)| *n == number)?;
        match (question, answer) {
            (ProverQuestion::Hint { .. }, Answer::Hint(Some(mv))) => {
                Some(Answered::Hint(self.advance_hint(), mv))
            }
            (ProverQuestion::Hint { .. }, _) => Some(Answered::NoHint),
            (
                ProverQuestion::Move { pos, mv, .. },
                Answer::Lost {
                    refutation,
                    verdict,
                },
            ) => {
                self.misses[self.index] += 1;
                self.miss();
                let after = pos.play(&mv);
                let defender = after.side_to_move();
                let verdict = match verdict {
                    Verdict::Win(_) => format!("{defender} wins"),
                    Verdict::Draw => format!("{defender} draws"),
                    _ => "no win can be proved after it".to_string(),
                };
                self.attempt = Attempt::Wrong {
                    tried: write_move(&pos, &mv, SquareStyle::Numbers),
                    refutation: line_text(&after, &refutation),
                    verdict,
                };
                Some(Answered::Move(Judgement::Wrong))
            }
            (ProverQuestion::Move { pos, mv, .. }, Answer::Kept { defence, draw_held }) => {
                self.on_line = false;
                self.judged += 1;
                self.hint = HintStage::None;
                self.attempt = Attempt::Solving;
                let after = pos.play(&mv);
                match defence {
                    None => self.solve(),
                    Some(d) => {
                        self.judged += 1;
                        if after.play(&d).legal_moves().is_empty() || draw_held {
                            self.solve();
                        }
                    }
                }
                Some(Answered::Move(Judgement::Kept(defence)))
            }
            // A move's question answered as a hint's: never asked so; the move stands unjudged, tried again.
            (ProverQuestion::Move { .. }, Answer::Hint(_)) => {
                self.attempt = Attempt::Solving;
                Some(Answered::Move(Judgement::Wrong))
            }
        }
    }

    fn line_done(&self) -> bool {
        self.on_line && self.judged >= self.problems[self.index].solution.len()
    }

    fn solve(&mut self) {
        self.attempt = Attempt::Solved;
        self.solved[self.index] = true;
        self.decide(true);
        if self.kind == TrainingKind::Streak && !self.streak_over {
            self.streak += 1;
            self.news.push(TrainingNews::Streak(self.streak));
        }
    }
}
