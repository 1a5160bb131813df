//! Pondering, a part of the app: the engine thinks on its opponent's time.
//!
//! When `max` has moved against a person, its search's line names the reply it expects. While the person
//! thinks, the engine searches the position after that reply with no limit. If the person plays it (a "ponder
//! hit", three times in four between equal engines), that search becomes the engine's move: it is given the
//! time of a move from then on, and has the time already spent on top. Any other move stops it, and the engine
//! starts afresh on the real position, with what it learnt in its transposition table.
//!
//! Like the analysis panel, the ponder search is started and stopped by comparing what is wanted with what runs
//! after every action (the app's ponder hook, [`Pondering::follow`]): each session has one search at a time, so any other search the app
//! asks for (a hint, the analysis, a judgement of a draw offer) replaces it, and anything that changes the game
//! (an undo, a new game, a pause, the end of the game) stops it. It is for a game on the player's own machine:
//! a server turns it off, since its engine threads are shared by every player.
//!
//! The part keeps the line of the engine's move search, the reply it expects once its move is played, and the
//! ponder search under way; the app tells it what happens and asks it what to do.

use super::action::Effect;
use crate::engine::{AnySituation, Level};
use crate::game::AnyGame;
use crate::rules::{AnyPosition, Move};

/// The level that ponders: the only one that plays with all the time it is given (the weaker ones stop of their
/// own accord, so more time would not make them stronger).
pub(super) const PONDERING_LEVEL: Level = Level::Max;

/// The reply the engine expects to the move it is about to play: the first two moves of its search's line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Line {
    /// The move search the line is from.
    search: u64,
    /// The engine's move.
    first: Move,
    /// The reply it expects.
    reply: Move,
}

/// The expected reply in the position the engine's move left.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Expected {
    /// The position after the engine's move, and its ply.
    position: AnyPosition,
    ply: usize,
    /// The reply.
    reply: Move,
}

/// A ponder search on the engine's service.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Ponder {
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

/// The engine's thinking on the opponent's time.
#[derive(Clone, Debug, Default)]
pub(super) struct Pondering {
    /// The line of the engine's move search under way, for the reply it expects.
    line: Option<Line>,
    /// The reply the engine expects to its last move, in the position that move left.
    expected: Option<Expected>,
    /// The ponder search, if one runs.
    ponder: Option<Ponder>,
}

impl Pondering {
    /// For a game that replaces `old`'s: its ponder search, if any, so that it is seen to be stopped; nothing
    /// of its lines.
    pub(super) fn carry_over(&mut self, old: &Pondering) {
        self.ponder = old.ponder;
    }

    /// The reply the engine is thinking about, while it ponders.
    pub(super) fn on(&self) -> Option<Move> {
        self.ponder
            .filter(|ponder| !ponder.ended)
            .map(|ponder| ponder.on.reply)
    }

    /// Notes the line of the engine's move search `search`, for the reply it expects.
    pub(super) fn note_line(&mut self, search: u64, pv: &[Move]) {
        if let [first, reply, ..] = pv {
            self.line = Some(Line {
                search,
                first: *first,
                reply: *reply,
            });
        }
    }

    /// The engine's move `mv` of search `search` was played, leaving `game`: the reply its line expects, if
    /// the line began with that move.
    pub(super) fn expect_reply(&mut self, search: u64, mv: Option<Move>, game: &AnyGame) {
        let line = self.line.take();
        self.expected = line
            .filter(|line| line.search == search && Some(line.first) == mv)
            .map(|line| Expected {
                position: game.position(),
                ply: game.ply(),
                reply: line.reply,
            });
    }

    /// Whether search `search` is the ponder search; its answer (it ended by itself) is then noted and goes no
    /// further.
    pub(super) fn answered(&mut self, search: u64) -> bool {
        match self.ponder.as_mut() {
            Some(ponder) if ponder.search == search => {
                ponder.ended = true;
                true
            }
            _ => false,
        }
    }

    /// The engine (at `level`) is to move in `game`: when the move just played is the one the ponder search
    /// expected, that search is the move's, and its number is returned.
    pub(super) fn hit(&mut self, level: Level, game: &AnyGame) -> Option<u64> {
        let ponder = self.ponder?;
        let hit = !ponder.ended
            && level == PONDERING_LEVEL
            && game.ply() == ponder.on.ply + 1
            && game.position() == ponder.after;
        if !hit {
            return None;
        }
        self.ponder = None;
        Some(ponder.search)
    }

    /// The reply the engine expects in `game` as it stands, if it expects one there.
    pub(super) fn expected_in(&self, game: &AnyGame) -> Option<Expected> {
        self.expected
            .filter(|expected| game.ply() == expected.ply && game.position() == expected.position)
    }

    /// Fits the ponder search to the state after an action. `engine_taken`: the action's effects start or stop
    /// another search, which ends the ponder search on the engine; `wanted`: what the engine may ponder on now
    /// in `game`, if anything; `next_search` numbers a new search. The effects to add.
    pub(super) fn follow(
        &mut self,
        engine_taken: bool,
        wanted: Option<Expected>,
        game: &AnyGame,
        next_search: impl FnOnce() -> u64,
    ) -> Vec<Effect> {
        if engine_taken {
            self.ponder = None;
            return Vec::new();
        }
        match (self.ponder, wanted) {
            (Some(ponder), Some(expected)) if ponder.on == expected => Vec::new(),
            (Some(_), None) => {
                self.ponder = None;
                vec![Effect::StopThinking]
            }
            // A new ponder search replaces any other on the engine.
            (_, Some(expected)) => self.start(expected, game, next_search),
            (None, None) => Vec::new(),
        }
    }

    /// Starts pondering on `expected` in `game`, unless its reply is not a legal move (a line from a search cut
    /// short may hold anything the tables said).
    fn start(
        &mut self,
        expected: Expected,
        game: &AnyGame,
        next_search: impl FnOnce() -> u64,
    ) -> Vec<Effect> {
        let mut after = game.clone();
        if after.play(&expected.reply).is_err() || after.outcome().is_some() {
            self.expected = None;
            return match self.ponder.take() {
                Some(_) => vec![Effect::StopThinking],
                None => Vec::new(),
            };
        }
        let search = next_search();
        self.ponder = Some(Ponder {
            search,
            on: expected,
            after: after.position(),
            ended: false,
        });
        vec![Effect::Ponder {
            search,
            situation: AnySituation::of_game(&after),
            level: PONDERING_LEVEL,
        }]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(game: &AnyGame, text: &str) -> Move {
        let mut copy = game.clone();
        copy.play_text(text).expect("a legal move");
        copy.moves()[game.len()]
    }

    #[test]
    fn the_expected_reply_is_pondered_and_a_hit_hands_the_search_over() {
        let mut game = AnyGame::default();
        let (first, reply) = (mv(&game, "11-15"), {
            let mut after = game.clone();
            after.play_text("11-15").expect("legal");
            mv(&after, "23-19")
        });
        let mut pondering = Pondering::default();
        pondering.note_line(5, &[first, reply]);
        game.play_text("11-15").expect("legal");
        pondering.expect_reply(5, Some(first), &game);
        let expected = pondering.expected_in(&game).expect("a reply is expected");
        let started = pondering.follow(false, Some(expected), &game, || 9);
        assert!(matches!(
            started.as_slice(),
            [Effect::Ponder { search: 9, .. }]
        ));
        assert_eq!(pondering.on(), Some(reply));
        // Wanted again, it goes on; another search on the engine ends it.
        assert!(
            pondering
                .follow(false, Some(expected), &game, || 10)
                .is_empty()
        );
        game.play_text("23-19").expect("legal");
        assert_eq!(
            pondering.hit(Level::Medium, &game),
            None,
            "only max ponders"
        );
        assert_eq!(pondering.hit(PONDERING_LEVEL, &game), Some(9));
        assert_eq!(pondering.on(), None);
    }

    #[test]
    fn a_line_of_another_move_expects_nothing() {
        let mut game = AnyGame::default();
        let (first, other) = (mv(&game, "11-15"), mv(&game, "9-13"));
        let mut pondering = Pondering::default();
        pondering.note_line(5, &[first, first]);
        game.play_text("9-13").expect("legal");
        pondering.expect_reply(5, Some(other), &game);
        assert_eq!(pondering.expected_in(&game), None);
        assert!(pondering.follow(false, None, &game, || 1).is_empty());
    }
}
