//! Hints: the engine suggests a move to the person to move, without playing it.
//!
//! A hint is a search of its own (at the hint level of the settings, or the one `:hint LEVEL` names), answered
//! like an engine's move but kept beside the game: it is shown (marked on the board, named on the status line)
//! only while the position it was found for is the one in play, so any move, undo or new game makes it go away
//! by itself.

use super::App;
use crate::app::action::{Effect, Purpose};
use crate::app::mode::Mode;
use crate::engine::{AnySituation, Level, Player, Score};
use crate::rules::{AnyPosition, Move};

/// A move the engine suggests, and the position it is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hint {
    /// The position the hint was found in.
    pub(super) position: AnyPosition,
    /// The suggested move.
    pub mv: Move,
    /// How the search judged the position, for the side to move, when it said.
    pub score: Option<Score>,
}

impl App {
    /// The hint for the position in play, while it is on show.
    pub fn hint(&self) -> Option<&Hint> {
        self.hint.as_ref().filter(|hint| {
            matches!(self.mode, Mode::Play) && hint.position == self.play.game().position()
        })
    }

    /// Whether the engine is looking for a hint.
    pub fn finding_hint(&self) -> bool {
        self.play
            .thinking()
            .is_some_and(|t| t.purpose == Purpose::Hint)
    }

    /// Asks the engine for a hint at `level` (the settings' hint level when `None`), or says why not.
    pub(super) fn ask_hint(&mut self, level: Option<Level>) -> Vec<Effect> {
        if let Err(refusal) = self.hint_refusal() {
            self.status = refusal;
            return Vec::new();
        }
        if self.hint().is_some() && level.is_none() {
            // Asked again for the same position: the answer is on the board already.
            return Vec::new();
        }
        let level = level.unwrap_or(self.preferences.hint_level);
        let search = self.play.begin_search(Purpose::Hint);
        self.status = format!("looking for a hint ({level})…");
        vec![Effect::Think {
            search,
            situation: AnySituation::of_game(self.play.game()),
            level,
            limits: level.limits(self.preferences.hint_time),
        }]
    }

    /// `:hint [LEVEL]`.
    pub(super) fn hint_command(&mut self, argument: Option<&str>) -> Result<Vec<Effect>, String> {
        let level = argument
            .map(|text| text.parse::<Level>().map_err(|e| e.to_string()))
            .transpose()?;
        Ok(self.ask_hint(level))
    }

    /// Why no hint can be asked for now, if none can.
    fn hint_refusal(&self) -> Result<(), String> {
        let browsing = |what: &str| format!("a hint is for the position in play: {what}");
        match self.mode {
            Mode::Play => {}
            Mode::Over(outcome) => return Err(format!("{outcome}: there is no move to hint at")),
            Mode::Browsing { .. } if self.replay.is_some() => {
                return Err(browsing("this game is a record being replayed"));
            }
            Mode::Browsing { .. } => {
                return Err(browsing(&format!(
                    "{} returns to it",
                    self.key(crate::app::keymap::Context::Board, "last", "End")
                )));
            }
            Mode::Setup(_) => return Err("setting up: start the game first".into()),
        }
        if self.replay.is_some() {
            return Err(browsing("this game is a record being replayed"));
        }
        let side = self.play.game().position().side_to_move();
        match self.players.of(side) {
            Player::Human => {}
            Player::Engine(_) => {
                return Err("the engine is to move: a hint is for your move".into());
            }
            Player::Remote => return Err("it is your opponent's move".into()),
        }
        match self.play.thinking().map(|t| t.purpose) {
            Some(Purpose::Hint) => Err("already looking for a hint".into()),
            Some(Purpose::DrawOffer) => Err("the engine is considering your draw offer".into()),
            Some(Purpose::Move) | None => Ok(()),
        }
    }

    /// The engine's answer to hint search `search` (the caller checked that it is the one awaited): kept and
    /// shown while its position is in play.
    pub(super) fn hint_found(&mut self, mv: Option<Move>) {
        let score = self.play.stop_waiting().and_then(|t| t.score);
        self.hint = mv.map(|mv| Hint {
            position: self.play.game().position(),
            mv,
            score,
        });
        // The move itself is named on the status line beside the message, in the notation on show.
        self.status = match self.hint {
            Some(_) => self.mode_message(),
            None => "the engine found no move to suggest".into(),
        };
    }
}
