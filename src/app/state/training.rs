//! The problem trainer in the app: opening it, judging the player's moves and answering with the defence,
//! taking back a wrong move with its refutation told, hints, and going from problem to problem.

use super::App;
use crate::app::action::{Action, Effect};
use crate::app::trainer::{Attempt, HintStage, Judgement, Trainer};
use crate::engine::{Player, Players};
use crate::game::AnyGame;
use crate::problems::{Problem, Prover, builtin_problems};
use crate::rules::{English, Playable, SquareStyle, write_move};

use super::hints::Hint;

impl App {
    /// The trainer over `problems`, proving with `prover`, the first problem on the board. Without problems,
    /// the plain game.
    pub fn training(problems: Vec<Problem>, prover: Prover) -> (App, Vec<Effect>) {
        let humans = Players {
            black: Player::Human,
            white: Player::Human,
        };
        let Some(first) = problems.first() else {
            return App::with_game(AnyGame::default(), humans);
        };
        let game = AnyGame::from_position(first.start.into());
        let (mut app, effects) = App::with_game(game, humans);
        app.trainer = Some(Box::new(Trainer::new(problems, prover)));
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

    /// What the trainer does with an action before the game sees it; `None` passes it on.
    pub(super) fn training_action(&mut self, action: &Action) -> Option<Vec<Effect>> {
        let trainer = self.trainer.as_mut()?;
        let count = trainer.len();
        let index = trainer.index();
        match action {
            Action::Hint => Some(self.problem_hint()),
            Action::BrowseForward | Action::NewGame => {
                self.trainer.as_mut()?.go_to(index + 1);
                Some(self.show_problem())
            }
            Action::BrowseBack => {
                self.trainer.as_mut()?.go_to(index + count - 1);
                Some(self.show_problem())
            }
            Action::Undo | Action::Rematch => Some(self.show_problem()),
            Action::Redo | Action::BrowseFirst | Action::BrowseLast | Action::MoveNow => {
                Some(Vec::new())
            }
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
        let position = self.play.game.position();
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
            Some((HintStage::Piece, mv)) => {
                self.put_cursor(mv.from());
                self.status = format!("hint: move the piece on {}", mv.from().number());
            }
            Some((_, mv)) => {
                self.hint = Some(Hint {
                    position,
                    mv,
                    score: None,
                });
                self.status = format!("hint: {}", write_move(&pos, &mv, SquareStyle::Numbers));
            }
            None => self.status = "no move keeps the result here".into(),
        }
        Vec::new()
    }

    /// Judges the moves played since the last action: the player's is kept and answered, or taken back.
    pub(super) fn judge_problem_moves(&mut self) -> Vec<Effect> {
        let mut effects = Vec::new();
        let Some(trainer) = self.trainer.as_mut() else {
            return effects;
        };
        let ply = self.play.game.ply();
        if ply <= trainer.judged {
            return effects;
        }
        let at = trainer.judged;
        let (Some(before), Some(mv)) = (
            self.play
                .game
                .position_at(at)
                .and_then(|p| English::unwrap(&p)),
            self.play.game.moves().get(at).copied(),
        ) else {
            return effects;
        };
        match trainer.judge(&before, &mv) {
            Judgement::Kept(Some(defence)) => {
                effects.extend(self.play(defence));
            }
            Judgement::Kept(None) => {}
            Judgement::Wrong => {
                self.play.game.undo();
                self.play.game.truncate();
                effects.extend(self.after_change());
                self.game_changed = false;
            }
        }
        self.status = self.problem_status();
        effects
    }

    /// The status line in the trainer: how the attempt stands.
    fn problem_status(&self) -> String {
        let Some(trainer) = self.trainer.as_deref() else {
            return String::new();
        };
        match trainer.attempt() {
            Attempt::Solving if trainer.judged == 0 => trainer.problem().heading(),
            Attempt::Solving => "right: go on".into(),
            Attempt::Wrong {
                tried,
                refutation,
                verdict,
            } => {
                if refutation.is_empty() {
                    format!("{tried} is wrong: {verdict}")
                } else {
                    format!("{tried} is wrong: {refutation} and {verdict}")
                }
            }
            Attempt::Solved => format!(
                "solved! {} of {} solved: ] for the next problem",
                trainer.solved_count(),
                trainer.len()
            ),
        }
    }
}
