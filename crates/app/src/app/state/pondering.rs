//! Pondering: the engine thinks on its opponent's time.
//!
//! When `max` has moved against a person, its search's line names the reply it expects. While the person
//! thinks, the engine searches the position after that reply with no limit. If the person plays it (a "ponder
//! hit", three times in four between equal engines), that search becomes the engine's move: it is given the
//! time of a move from then on, and has the time already spent on top. Any other move stops it, and the engine
//! starts afresh on the real position, with what it learnt in its transposition table.
//!
//! Like the analysis panel, the ponder search is started and stopped by comparing what is wanted with what runs
//! after every action ([`App::sync_ponder`]): each session has one search at a time, so any other search the app
//! asks for (a hint, the analysis, a judgement of a draw offer) replaces it, and anything that changes the game
//! (an undo, a new game, a pause, the end of the game) stops it. It is for a game on the player's own machine:
//! a server turns it off, since its engine threads are shared by every player.

use super::App;
use crate::app::action::{Effect, Purpose, Thinking};
use crate::app::mode::Mode;
use crate::engine::{AnySituation, Level, Player};
use crate::rules::{AnyPosition, Color, Move};

/// The level that ponders: the only one that plays with all the time it is given (the weaker ones stop of their
/// own accord, so more time would not make them stronger).
const PONDERING_LEVEL: Level = Level::Max;

/// The reply the engine expects to the move it is about to play: the first two moves of its search's line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::app) struct Line {
    /// The move search the line is from.
    search: u64,
    /// The engine's move.
    first: Move,
    /// The reply it expects.
    reply: Move,
}

/// The expected reply in the position the engine's move left.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::app) struct Expected {
    /// The position after the engine's move, and its ply.
    position: AnyPosition,
    ply: usize,
    /// The reply.
    reply: Move,
}

/// A ponder search on the engine's service.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::app) struct Ponder {
    /// Its number.
    search: u64,
    /// What it ponders on: the expected reply in this position.
    on: Expected,
    /// The position after the reply, the one searched.
    after: AnyPosition,
    /// Whether it already answered (a search that ends by itself: a forced move, a position the databases
    /// know). A hit on it starts a new search, which its tables make quick.
    ended: bool,
}

impl App {
    /// The reply the engine is thinking about on the player's time, while it ponders.
    pub fn pondering_on(&self) -> Option<Move> {
        self.play
            .ponder
            .filter(|ponder| !ponder.ended)
            .map(|ponder| ponder.on.reply)
    }

    /// Notes the line of the engine's move search `search`, for the reply it expects.
    pub(super) fn note_line(&mut self, search: u64, pv: &[Move]) {
        let ours = self
            .play
            .thinking
            .is_some_and(|t| t.search == search && t.purpose == Purpose::Move);
        if let (true, [first, reply, ..]) = (ours, pv) {
            self.play.line = Some(Line {
                search,
                first: *first,
                reply: *reply,
            });
        }
    }

    /// After the engine's move `mv` of search `search` was played: the reply its line expects, if the line
    /// began with that move.
    pub(super) fn expect_reply(&mut self, search: u64, mv: Option<Move>) {
        let line = self.play.line.take();
        self.play.expected = line
            .filter(|line| line.search == search && Some(line.first) == mv)
            .map(|line| Expected {
                position: self.play.game.position(),
                ply: self.play.game.ply(),
                reply: line.reply,
            });
    }

    /// Whether search `search` is the ponder search; its answer (it ended by itself) is then noted and goes no
    /// further.
    pub(super) fn ponder_answered(&mut self, search: u64) -> bool {
        match self.play.ponder.as_mut() {
            Some(ponder) if ponder.search == search => {
                ponder.ended = true;
                true
            }
            _ => false,
        }
    }

    /// The engine (at `level`, playing `side`) is to move: when the move just played is the one its ponder
    /// search expected, that search becomes the move's, with the time of a move from now.
    pub(super) fn ponder_hit(&mut self, level: Level, side: Color) -> Option<Vec<Effect>> {
        let ponder = self.play.ponder?;
        let hit = !ponder.ended
            && level == PONDERING_LEVEL
            && self.play.game.ply() == ponder.on.ply + 1
            && self.play.game.position() == ponder.after;
        if !hit {
            return None;
        }
        self.play.ponder = None;
        self.play.thinking = Some(Thinking {
            search: ponder.search,
            purpose: Purpose::Move,
            depth: None,
            score: None,
        });
        Some(vec![Effect::PonderHit {
            search: ponder.search,
            limits: self.move_limits(level, side),
        }])
    }

    /// Starts, replaces or stops the ponder search so that it fits the state after an action. `effects` are
    /// the action's: any other search they start or stop ends the ponder search on the engine.
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
        if engine_taken {
            self.play.ponder = None;
            return;
        }
        let wanted = self.ponder_wanted();
        match (self.play.ponder, wanted) {
            (Some(ponder), Some(expected)) if ponder.on == expected => {}
            (Some(_), None) => {
                self.play.ponder = None;
                effects.push(Effect::StopThinking);
            }
            // A new ponder search replaces any other on the engine.
            (_, Some(expected)) => self.start_pondering(expected, effects),
            (None, None) => {}
        }
    }

    /// What the engine would ponder on now: the reply it expects, while a person is to move against `max` in a
    /// game in play and the engine has nothing else to do.
    fn ponder_wanted(&self) -> Option<Expected> {
        let expected = self.play.expected?;
        let side = self.play.game.position().side_to_move();
        let idle =
            self.play.thinking.is_none() && !self.analysing() && self.review_running().is_none();
        let wanted = self.preferences.ponder
            && idle
            && !self.paused
            && self.replay.is_none()
            && self.trainer.is_none()
            && self.table.is_none()
            && matches!(self.mode, Mode::Play | Mode::Browsing { .. })
            && self.players.of(side) == Player::Human
            && self.players.of(side.opponent()) == Player::Engine(PONDERING_LEVEL)
            && self.play.game.outcome().is_none()
            && self.play.game.ply() == expected.ply
            && self.play.game.position() == expected.position;
        wanted.then_some(expected)
    }

    /// Starts pondering on `expected`, unless its reply is not a legal move (a line from a search cut short
    /// may hold anything the tables said).
    fn start_pondering(&mut self, expected: Expected, effects: &mut Vec<Effect>) {
        let mut after = self.play.game.clone();
        if after.play(&expected.reply).is_err() || after.outcome().is_some() {
            self.play.expected = None;
            if self.play.ponder.take().is_some() {
                effects.push(Effect::StopThinking);
            }
            return;
        }
        let search = self.play.next_search_number();
        self.play.ponder = Some(Ponder {
            search,
            on: expected,
            after: after.position(),
            ended: false,
        });
        effects.push(Effect::Ponder {
            search,
            situation: AnySituation::of_game(&after),
            level: PONDERING_LEVEL,
        });
    }
}
