//! The app's wiring of pondering ([`Pondering`](crate::app::pondering)): what it is told of the engine's
//! searches and moves, and when the engine may think on the person's time: while a person is to move against
//! `max` in a game in play on the player's own machine, and the engine has nothing else to do.

use super::App;
use crate::app::action::{Effect, Purpose};
use crate::app::mode::Mode;
use crate::app::pondering::{Expected, PONDERING_LEVEL};
use crate::engine::{Level, Player};
use crate::rules::{Color, Move};

impl App {
    /// The reply the engine is thinking about on the player's time, while it ponders.
    pub fn pondering_on(&self) -> Option<Move> {
        self.play.pondering().on()
    }

    /// Notes the line of the engine's move search `search`, for the reply it expects.
    pub(super) fn note_line(&mut self, search: u64, pv: &[Move]) {
        if self
            .play
            .thinking()
            .is_some_and(|t| t.search == search && t.purpose == Purpose::Move)
        {
            self.play.pondering_mut().note_line(search, pv);
        }
    }

    /// After the engine's move `mv` of search `search` was played: the reply its line expects, if the line
    /// began with that move.
    pub(super) fn expect_reply(&mut self, search: u64, mv: Option<Move>) {
        self.play.expect_reply(search, mv);
    }

    /// Whether search `search` is the ponder search; its answer (it ended by itself) is then noted and goes no
    /// further.
    pub(super) fn ponder_answered(&mut self, search: u64) -> bool {
        self.play.pondering_mut().answered(search)
    }

    /// The engine (at `level`, playing `side`) is to move: when the move just played is the one its ponder
    /// search expected, that search becomes the move's, with the time of a move from now.
    pub(super) fn ponder_hit(&mut self, level: Level, side: Color) -> Option<Vec<Effect>> {
        let search = self.play.take_ponder_hit(level)?;
        Some(vec![Effect::PonderHit {
            search,
            limits: self.move_limits(level, side),
        }])
    }

    /// The ponder hook after every action: starts, replaces or stops the ponder search so that it fits the
    /// state the action left. `effects` are the action's: any other search they start or stop ends the ponder
    /// search on the engine.
    pub(super) fn sync_ponder(&mut self, effects: &mut Vec<Effect>) {
        let engine_taken = effects.iter().any(|effect| {
            matches!(
                effect,
                Effect::Think { .. }
                    | Effect::Evaluate { .. }
                    | Effect::StopThinking
                    | Effect::MoveNow
                    | Effect::PonderHit { .. }
            )
        });
        let wanted = match engine_taken {
            true => None,
            false => self.ponder_wanted(),
        };
        effects.extend(self.play.follow_pondering(engine_taken, wanted));
    }

    /// What the engine would ponder on now: the reply it expects, while a person is to move against `max` in a
    /// game in play and the engine has nothing else to do.
    fn ponder_wanted(&self) -> Option<Expected> {
        let expected = self.play.pondering().expected_in(self.play.game())?;
        let side = self.play.game().position().side_to_move();
        let idle =
            self.play.thinking().is_none() && !self.analysing() && self.review_running().is_none();
        let wanted = self.preferences.ponder
            && idle
            && !self.paused
            && self.replay.is_none()
            && self.trainer.is_none()
            && self.table.is_none()
            && matches!(self.mode, Mode::Play | Mode::Browsing { .. })
            && self.players.of(side) == Player::Human
            && self.players.of(side.opponent()) == Player::Engine(PONDERING_LEVEL)
            && self.play.game().outcome().is_none();
        wanted.then_some(expected)
    }
}
