//! Ending a game by the players' word: resigning (after a question, so that a slip of the keyboard does not lose
//! a game), quitting a game in progress (asked the same way) and offering a draw. Against the engine a draw offer is judged by a short search: the engine accepts
//! when it does not think itself better, and says why when it declines. Between two people the other side is
//! asked.

use std::time::Duration;

use super::App;
use crate::app::action::{Action, Effect, Purpose};
use crate::app::mode::Mode;
use crate::app::overlay::Question;
use crate::config::Context;
use crate::engine::{AnySituation, Level, Player, Score};
use crate::game::{AnyGame, GameError};
use crate::rules::Color;

/// How much better, in hundredths of a man, the engine may judge its position and still accept a draw: a fifth
/// of a man, well under any material edge, so that it takes a draw in a level position and declines when it
/// has something real.
pub const DRAW_MARGIN: i32 = 20;

/// The longest the engine judges a position for a draw offer: long enough for a deep search, short enough that
/// the answer feels immediate.
pub const JUDGING_TIME: Duration = Duration::from_millis(500);

impl App {
    /// Quits, asking first (a yes/no question) while a game is in progress; the key again confirms.
    pub(super) fn quit(&mut self) -> Vec<Effect> {
        let in_progress = !self.play.game().is_empty() && self.play.game().outcome().is_none();
        match self.question() {
            Some(Question::Quit { .. }) => {
                self.overlay.close_panel();
                return self.quit_now();
            }
            Some(_) => {
                // Another question waits: it is answered first, so that an offer is never left unanswered.
                self.status = "answer the question first: y or n (Ctrl-c quits at once)".into();
                return Vec::new();
            }
            None => {}
        }
        if !in_progress {
            return self.quit_now();
        }
        let seat = self.table.as_ref().filter(|t| t.seat().is_some());
        self.overlay.ask(Question::Quit {
            leaving: seat.is_some(),
        });
        let key = self.key(Context::Board, "quit", "y");
        self.status = match seat {
            Some(table) => format!(
                "leave the table? y or {key}: leave (`join {}` comes back to your seat), n: stay",
                table.code()
            ),
            None => format!("quit? y or {key}: quit, n: play on"),
        };
        Vec::new()
    }

    /// Stops the engine and quits.
    pub(super) fn quit_now(&mut self) -> Vec<Effect> {
        let mut effects = self.stop_thinking();
        effects.push(Effect::Quit);
        effects
    }

    /// `:resign`: asks first, so that a slip of the keyboard does not lose a game.
    pub(super) fn ask_to_resign(&mut self) -> Vec<Effect> {
        if let Some(refusal) = self.declaring_refusal() {
            self.status = refusal;
            return Vec::new();
        }
        if let Some(Err(why)) = self.table.as_ref().map(|_| self.seated()) {
            self.status = why;
            return Vec::new();
        }
        let question = Question::Resign(self.player_at_keyboard());
        self.overlay.ask(question);
        self.status = question.text();
        Vec::new()
    }

    /// `:draw`: the other person is asked, the engine judges, and with nobody at the board it is drawn at once.
    pub(super) fn offer_draw(&mut self) -> Vec<Effect> {
        if let Some(refusal) = self.declaring_refusal() {
            self.status = refusal;
            return Vec::new();
        }
        if self.table.is_some() {
            return self.offer_draw_at_table();
        }
        let side = self.player_at_keyboard();
        if !self.has_human() {
            // Nobody plays: whoever watches may call the game a draw.
            return self.agree_draw();
        }
        if self.engine_side().is_none() {
            let question = Question::Draw { from: side };
            self.overlay.ask(question);
            self.status = question.text();
            return Vec::new();
        }
        // Against the engine: it judges the position with a short search of its own.
        let mut effects = self.stop_thinking();
        let search = self.play.begin_search(Purpose::DrawOffer);
        // A position is judged at full strength, whatever level plays.
        let time = self.preferences.think_time.min(JUDGING_TIME);
        effects.push(Effect::Evaluate {
            search,
            situation: AnySituation::of_game(self.play.game()),
            limits: Level::Max.limits(time),
        });
        self.status = "you offer a draw: the engine considers it".into();
        effects
    }

    /// Why the game cannot be resigned or drawn now, if it cannot.
    fn declaring_refusal(&self) -> Option<String> {
        if self.replay.is_some() {
            return Some(format!(
                "a record is being replayed, not played ({} continues from here as a new game)",
                self.key(Context::Replay, "continue", ":continue")
            ));
        }
        if let Mode::Setup(_) = self.mode {
            return Some("setting up: there is no game to end until it starts".into());
        }
        if let Some(outcome) = self.play.game().outcome() {
            return Some(format!("{outcome} already"));
        }
        if self
            .play
            .thinking()
            .is_some_and(|t| t.purpose == Purpose::DrawOffer)
        {
            return Some("the engine is considering your draw offer".into());
        }
        None
    }

    /// The side of the person at the keyboard: the one human against the engine, else the side to move.
    fn player_at_keyboard(&self) -> Color {
        if let Some(seat) = self.table.as_ref().and_then(|t| t.seat()) {
            return seat;
        }
        match self.engine_side() {
            Some(engine) => engine.opponent(),
            None => self.play.game().position().side_to_move(),
        }
    }

    /// The engine's side in a game of one person against the engine.
    fn engine_side(&self) -> Option<Color> {
        match (self.players.black, self.players.white) {
            (Player::Human, Player::Engine(_)) => Some(Color::White),
            (Player::Engine(_), Player::Human) => Some(Color::Black),
            _ => None,
        }
    }

    /// While a question is open only its answers count (and help, Ctrl-C and what the engine and the outside
    /// world report); `None` for the actions that go on as usual.
    pub(super) fn question_action(
        &mut self,
        question: Question,
        action: &Action,
    ) -> Option<Vec<Effect>> {
        let answer = match action {
            Action::Answer(yes) => *yes,
            Action::Cancel => false,
            Action::Interrupt | Action::Quit => return None,
            help if help.is_help() => return None,
            _ if !action.from_player() => return None,
            _ => {
                self.status = question.text();
                return Some(Vec::new());
            }
        };
        self.overlay.close_panel();
        Some(match (question, answer) {
            (Question::Offered(kind), accept) => self.answer_offer(kind, accept),
            (Question::Resign(_), true) if self.table.is_some() => {
                self.status = "you resign".into();
                vec![Effect::Table(crate::app::table::TableRequest::Resign)]
            }
            (Question::Resign(side), true) => {
                let mut effects = self.stop_thinking();
                effects.extend(self.end_with(|game| game.resign(side)));
                effects
            }
            (Question::Draw { .. }, true) => self.agree_draw(),
            (Question::Resign(_), false) => {
                self.status = format!("playing on. {}", self.mode_message());
                Vec::new()
            }
            (Question::Quit { .. }, true) => self.quit_now(),
            (Question::Quit { .. }, false) => {
                self.status = format!("playing on. {}", self.mode_message());
                Vec::new()
            }
            (Question::Draw { from }, false) => {
                self.status = format!(
                    "{} declines the draw. {}",
                    from.opponent(),
                    self.mode_message()
                );
                Vec::new()
            }
        })
    }

    /// The engine's judgement of the position came: it accepts the draw unless it thinks itself better.
    pub(super) fn draw_offer_judged(&mut self, search: u64, score: Score) -> Vec<Effect> {
        let wanted = self
            .play
            .thinking()
            .is_some_and(|t| t.search == search && t.purpose == Purpose::DrawOffer);
        let Some(engine) = self.engine_side().filter(|_| wanted) else {
            return Vec::new();
        };
        self.play.stop_waiting();
        let side_to_move = self.play.game().position().side_to_move();
        let for_engine = if side_to_move == engine {
            score
        } else {
            score.flipped()
        };
        let accepts = match for_engine {
            Score::Loss(_) | Score::DatabaseLoss => true,
            Score::Win(_) | Score::DatabaseWin => false,
            Score::Centi(c) => c <= DRAW_MARGIN,
        };
        if accepts {
            let effects = self.agree_draw();
            if matches!(self.mode, Mode::Over(_)) {
                self.status = format!("The engine accepts. {}", self.mode_message());
            }
            return effects;
        }
        let effects = self.next_turn();
        self.status = format!(
            "The engine declines the draw: it sees {}. {}",
            for_engine.describe(engine),
            self.mode_message()
        );
        effects
    }

    fn agree_draw(&mut self) -> Vec<Effect> {
        let mut effects = self.stop_thinking();
        effects.extend(self.end_with(AnyGame::agree_draw));
        effects
    }

    /// Ends the game as `declare` says, or says why it cannot end that way.
    fn end_with(
        &mut self,
        declare: impl FnOnce(&mut AnyGame) -> Result<(), GameError>,
    ) -> Vec<Effect> {
        match self.play.end_with(declare) {
            Ok(()) => self.after_change(),
            Err(GameError::Over(outcome)) => {
                self.status = format!("{outcome} already");
                Vec::new()
            }
            Err(e) => {
                self.status = e.to_string();
                Vec::new()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::preferences::Preferences;
    use crate::engine::Players;

    fn preferences(think_time: Duration) -> Preferences {
        Preferences {
            think_time,
            ..Preferences::default()
        }
    }

    #[test]
    fn every_search_carries_the_thinking_time_of_the_moment_it_is_asked_for() {
        let players = Players {
            black: Player::Human,
            white: Player::Engine(Level::Hard),
        };
        let (mut app, _) = App::new(players);
        app.set_preferences(preferences(Duration::from_secs(3)));
        let _ = app.update(Action::Submit("11-15".into()));
        let effects = app.update(Action::Undo);
        assert!(effects.iter().all(|e| !matches!(e, Effect::Think { .. })));
        let effects = app.update(Action::Submit("11-15".into()));
        let limits = effects.iter().find_map(|e| match e {
            Effect::Think { level, limits, .. } => Some((*level, *limits)),
            _ => None,
        });
        let three = Duration::from_secs(3);
        assert_eq!(limits, Some((Level::Hard, Level::Hard.limits(three))));

        // A draw offer is judged at full strength, for at most the judging time.
        let effects = app.update(Action::Submit(":draw".into()));
        let judged = effects.iter().find_map(|e| match e {
            Effect::Evaluate { limits, .. } => Some(*limits),
            _ => None,
        });
        assert_eq!(judged, Some(Level::Max.limits(JUDGING_TIME)));

        // A shorter thinking time shortens the judging too.
        let short = Duration::from_millis(200);
        let mut app = App::new(players).0;
        app.set_preferences(preferences(short));
        let _ = app.update(Action::Submit("11-15".into()));
        let effects = app.update(Action::Submit(":draw".into()));
        let judged = effects.iter().find_map(|e| match e {
            Effect::Evaluate { limits, .. } => Some(*limits),
            _ => None,
        });
        assert_eq!(judged, Some(Level::Max.limits(short)));
    }
}
