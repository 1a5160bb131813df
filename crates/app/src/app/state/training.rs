//! The problem trainer in the app: opening it, judging the player's moves and answering with the defence,
//! taking back a wrong move with its refutation told, hints, and going from problem to problem.

use super::App;
use crate::app::Orientation;
use crate::app::action::{Action, BrowseAction, Effect};
use crate::app::trainer::{
    Answered, Attempt, HintStage, HintStep, Judgement, Trainer, TrainingKind,
};
use crate::engine::{Player, Players};
use crate::game::AnyGame;
use crate::problems::check::ProverQuestion;
use crate::problems::{Problem, Prover, builtin_problems};
use crate::rules::{Color, English, Playable, SquareStyle, write_move};

use super::hints::Hint;

impl App {
    /// The trainer over `problems`, proving with `prover`, the first problem on the board. Without problems,
    /// the plain game.
    pub fn training(problems: Vec<Problem>, prover: Prover) -> (App, Vec<Effect>) {
        App::training_for(TrainingKind::Free, 0, problems, prover)
    }

    /// The trainer open for `kind` (over `problems` in the order they are to be offered), the player's best
    /// streak so far being `best_streak`; see [`App::training`].
    pub fn training_for(
        kind: TrainingKind,
        best_streak: i64,
        problems: Vec<Problem>,
        prover: Prover,
    ) -> (App, Vec<Effect>) {
        let humans = Players {
            black: Player::Human,
            white: Player::Human,
        };
        let Some(first) = problems.first() else {
            return App::with_game(AnyGame::default(), humans);
        };
        let game = AnyGame::from_position(first.start.into());
        let (mut app, effects) = App::with_game(game, humans);
        app.trainer = Some(Box::new(
            Trainer::new(problems, prover).with_kind(kind, best_streak),
        ));
        app.show_problem();
        (app, effects)
    }

    /// The trainer, when it is open.
    pub fn trainer(&self) -> Option<&Trainer> {
        self.trainer.as_deref()
    }

    /// `P`, `:problems`: the built-in problems, over the game (which is left as it stands).
    pub(super) fn open_problems(&mut self) -> Vec<Effect> {
        if self.trainer.is_some() {
            return Vec::new();
        }
        let problems = builtin_problems();
        if problems.is_empty() {
            self.status = "no problem could be proved".into();
            return Vec::new();
        }
        let mut effects = self.stop_thinking();
        self.players = Players {
            black: Player::Human,
            white: Player::Human,
        };
        self.trainer = Some(Box::new(Trainer::new(problems, Prover::new(None))));
        effects.extend(self.show_problem());
        effects
    }

    /// Sets the board to the problem on show, from its start.
    fn show_problem(&mut self) -> Vec<Effect> {
        let Some(trainer) = self.trainer.as_mut() else {
            return Vec::new();
        };
        trainer.restart();
        let start = trainer.problem().start;
        let heading = trainer.problem().heading();
        let effects = self.reset_to(AnyGame::from_position(start.into()));
        // The side to play at the bottom, as problems are printed (unless the settings fix the orientation).
        if self.preferences.orientation == Orientation::Auto {
            self.flipped = start.side_to_move() == Color::Black;
            self.play.fit_cursor(self.board(), self.flipped);
        }
        self.status = heading;
        effects
    }

    fn reset_to(&mut self, game: AnyGame) -> Vec<Effect> {
        // A reset starts the app afresh: the trainer is carried over it.
        let trainer = self.trainer.take();
        self.reset(game, self.players);
        self.trainer = trainer;
        self.hint = None;
        let effects = self.after_change();
        self.game_changed = false;
        effects
    }

    /// The trainer's hook after every action: it judges the moves played since the last one, then tells the
    /// outside world what it has decided, to keep.
    pub(super) fn trainer_after_action(&mut self, effects: &mut Vec<Effect>) {
        effects.extend(self.judge_problem_moves());
        if let Some(trainer) = self.trainer.as_mut() {
            effects.extend(trainer.take_news().into_iter().map(Effect::Trained));
        }
    }

    /// In a streak, the keys that go from problem to problem: on only past a problem solved, and from the
    /// start again once the streak is over; never back, never a hint.
    fn streak_action(&mut self, action: &Action) -> Option<Vec<Effect>> {
        let trainer = self.trainer.as_mut()?;
        if trainer.kind() != TrainingKind::Streak {
            return None;
        }
        let solved = matches!(trainer.attempt(), Attempt::Solved);
        match action {
            Action::Browse(BrowseAction::Forward) | Action::NewGame if trainer.streak_over() => {
                trainer.new_streak();
                Some(self.show_problem())
            }
            Action::Browse(BrowseAction::Forward) | Action::NewGame if !solved => {
                self.status = "a streak goes on by solving this one".into();
                Some(Vec::new())
            }
            Action::Browse(BrowseAction::Back) => {
                self.status = "a streak only goes forward".into();
                Some(Vec::new())
            }
            Action::Hint if !trainer.streak_over() => {
                self.status = "no hints in a streak".into();
                Some(Vec::new())
            }
            Action::PickAtCursor
            | Action::PickSquare(_)
            | Action::SubmitInput
            | Action::Submit(_)
            | Action::Undo
            | Action::Rematch
                if trainer.streak_over() =>
            {
                self.status = self.problem_status();
                Some(Vec::new())
            }
            _ => None,
        }
    }

    /// What the trainer does with an action before the game sees it; `None` passes it on.
    pub(super) fn training_action(&mut self, action: &Action) -> Option<Vec<Effect>> {
        if !matches!(action, Action::Proved { .. })
            && let Some(effects) = self.streak_action(action)
        {
            return Some(effects);
        }
        let trainer = self.trainer.as_mut()?;
        let count = trainer.len();
        let index = trainer.index();
        match action {
            Action::Proved { question, answer } => {
                let answered = self.trainer.as_mut()?.answered(*question, answer.clone());
                Some(answered.map_or_else(Vec::new, |a| self.take_answer(a)))
            }
            // The move tried waits for the prover: nothing else may be played meanwhile.
            Action::PickAtCursor
            | Action::PickSquare(_)
            | Action::SubmitInput
            | Action::Submit(_)
            | Action::Hint
                if trainer.is_checking() =>
            {
                self.status = "checking: a moment".into();
                Some(Vec::new())
            }
            Action::Hint => Some(self.problem_hint()),
            Action::Browse(BrowseAction::Forward) | Action::NewGame => {
                self.trainer.as_mut()?.go_to(index + 1);
                Some(self.show_problem())
            }
            Action::Browse(BrowseAction::Back) => {
                self.trainer.as_mut()?.go_to(index + count - 1);
                Some(self.show_problem())
            }
            Action::Undo | Action::Rematch => Some(self.show_problem()),
            Action::Redo
            | Action::Browse(BrowseAction::First)
            | Action::Browse(BrowseAction::Last)
            | Action::MoveNow => Some(Vec::new()),
            Action::Problems => Some(Vec::new()),
            _ if matches!(trainer.attempt(), Attempt::Solved)
                && matches!(
                    action,
                    Action::PickAtCursor | Action::PickSquare(_) | Action::SubmitInput
                ) =>
            {
                self.status = self.problem_status();
                Some(Vec::new())
            }
            _ => None,
        }
    }

    /// The hint: the piece of the solution's next move, then the whole move.
    fn problem_hint(&mut self) -> Vec<Effect> {
        let position = self.play.game().position();
        let Some(pos) = English::unwrap(&position) else {
            return Vec::new();
        };
        let Some(trainer) = self.trainer.as_mut() else {
            return Vec::new();
        };
        if matches!(trainer.attempt(), Attempt::Solved) {
            self.status = "solved: ] goes to the next problem".into();
            return Vec::new();
        }
        match trainer.next_hint(&pos) {
            HintStep::Ready(stage, mv) => self.show_hint(stage, mv),
            HintStep::Ask(number, question) => {
                self.status = "looking for a hint: a moment".into();
                return self.prove(number, question);
            }
            HintStep::Nothing => self.status = "no move keeps the result here".into(),
        }
        Vec::new()
    }

    /// Shows a hint: the piece (the cursor put on it), or the whole move.
    fn show_hint(&mut self, stage: HintStage, mv: crate::rules::Move) {
        let position = self.play.game().position();
        let Some(pos) = English::unwrap(&position) else {
            return;
        };
        match stage {
            HintStage::Piece => {
                self.put_cursor(mv.from());
                self.status = format!("hint: move the piece on {}", mv.from().number());
            }
            _ => {
                self.hint = Some(Hint {
                    position,
                    mv,
                    score: None,
                });
                self.status = format!("hint: {}", write_move(&pos, &mv, SquareStyle::Numbers));
            }
        }
    }

    /// The effect that asks the trainer's prover `question`, numbered `number`.
    fn prove(&self, number: u64, question: ProverQuestion) -> Vec<Effect> {
        let Some(trainer) = self.trainer.as_deref() else {
            return Vec::new();
        };
        vec![Effect::Prove {
            question: number,
            prover: trainer.prover().clone(),
            asked: question,
        }]
    }

    /// What the prover's answer does: the move kept and answered by the defence, or taken back; the hint shown.
    fn take_answer(&mut self, answered: Answered) -> Vec<Effect> {
        let mut effects = Vec::new();
        match answered {
            Answered::Hint(stage, mv) => self.show_hint(stage, mv),
            Answered::NoHint => self.status = "no move keeps the result here".into(),
            Answered::Move(judgement) => {
                effects.extend(self.apply_judgement(judgement));
                self.status = self.problem_status();
            }
        }
        effects
    }

    /// Carries out a judgement of the player's last move: the defence played, or the move taken back.
    fn apply_judgement(&mut self, judgement: Judgement) -> Vec<Effect> {
        match judgement {
            Judgement::Kept(Some(defence)) => self.play(defence),
            Judgement::Kept(None) => Vec::new(),
            Judgement::Wrong => {
                self.play.drop_last_move();
                let effects = self.after_change();
                self.game_changed = false;
                effects
            }
            Judgement::Ask(number, question) => self.prove(number, question),
        }
    }

    /// Judges the moves played since the last action: the player's is kept and answered, or taken back.
    fn judge_problem_moves(&mut self) -> Vec<Effect> {
        let mut effects = Vec::new();
        let Some(trainer) = self.trainer.as_mut() else {
            return effects;
        };
        let ply = self.play.game().ply();
        if ply <= trainer.judged() || trainer.is_checking() {
            return effects;
        }
        let at = trainer.judged();
        let (Some(before), Some(mv)) = (
            self.play
                .game()
                .position_at(at)
                .and_then(|p| English::unwrap(&p)),
            self.play.game().moves().get(at).copied(),
        ) else {
            return effects;
        };
        let judgement = trainer.judge(&before, &mv);
        effects.extend(self.apply_judgement(judgement));
        self.status = self.problem_status();
        effects
    }

    /// The status line in the trainer: how the attempt stands.
    fn problem_status(&self) -> String {
        let Some(trainer) = self.trainer.as_deref() else {
            return String::new();
        };
        match trainer.attempt() {
            Attempt::Solving if trainer.judged() == 0 => trainer.problem().heading(),
            Attempt::Solving => "right: go on".into(),
            Attempt::Checking { tried } => format!("checking {tried}: a moment"),
            Attempt::Wrong {
                tried,
                refutation,
                verdict,
            } => {
                let wrong = if refutation.is_empty() {
                    format!("{tried} is wrong: {verdict}")
                } else {
                    format!("{tried} is wrong: {refutation} and {verdict}")
                };
                if trainer.streak_over() {
                    format!(
                        "{wrong}; the streak ends at {}: ] starts a new one",
                        trainer.streak()
                    )
                } else {
                    wrong
                }
            }
            Attempt::Solved if trainer.kind() == TrainingKind::Streak && !trainer.streak_over() => {
                format!(
                    "solved! streak {}: ] for the next problem",
                    trainer.streak()
                )
            }
            Attempt::Solved => format!(
                "solved! {} of {} solved: ] for the next problem",
                trainer.solved_count(),
                trainer.len()
            ),
        }
    }
}
