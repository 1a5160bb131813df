//! The game in play and what goes with it: the moves it allows, the board cursor, the engine's searches, the
//! pace of a game between engines, the move being shown along its path and its bursts, and the clocks. The app
//! owns one and lends it to its parts; everything here is about the game itself, nothing about what is open over
//! it.

use super::action::{Effect, Purpose, Thinking};
use super::animation::Animation;
use super::burst::Burst;
use super::clocks::Clocks;
use super::cursor::Cursor;
use super::pace::Pace;
use super::picking::Picker;
use super::pondering::{Expected, Pondering};
use crate::game::{AnyGame, TimeControl};
use crate::rules::{AnyPosition, Geometry, Square};

/// The game in play and its moving parts.
#[derive(Clone, Debug)]
pub(super) struct InPlay {
    pub(super) game: AnyGame,
    /// The moves of the live position, and the one being picked.
    pub(super) picker: Picker,
    /// The board cursor, always on a playable square.
    pub(super) cursor: Cursor,
    /// The search the app is waiting for.
    pub(super) thinking: Option<Thinking>,
    /// Searches asked for so far: each has its own number, so that a late answer is never taken for another's.
    /// Only [`InPlay::next_search_number`] and the searches begun here count them.
    searches: u64,
    /// Moves being shown stepping along their path.
    pub(super) animation: Option<Animation>,
    /// The capture effect's bursts on show (empty when it is off or nothing was taken lately).
    pub(super) burst: Burst,
    /// The pace of a game between engines, and the move that waits for it.
    pub(super) pace: Pace,
    /// The clocks, and the time control new games get.
    pub(super) clocks: Clocks,
    /// The engine's thinking on the person's time.
    pub(super) pondering: Pondering,
}

impl InPlay {
    /// `game` from its position as it stands, the cursor where a new game puts it on a board seen from this
    /// side (`flipped`: Black at the bottom), fresh clocks of `time_control`.
    pub(super) fn new(game: AnyGame, flipped: bool, time_control: Option<TimeControl>) -> InPlay {
        let board = game.geometry();
        InPlay {
            picker: Picker::for_game(&game),
            cursor: Cursor::on(start_square(board), board, flipped),
            game,
            thinking: None,
            searches: 0,
            animation: None,
            burst: Burst::default(),
            pace: Pace::default(),
            clocks: Clocks::new(time_control),
            pondering: Pondering::default(),
        }
    }

    /// Takes over from `old`, the game this one replaces, what outlives a game: the search numbers (they go on
    /// rising, so that an answer from the old game is never taken for one in the new), the time control (with
    /// fresh clocks of it) and the front end's time; and the old game's ponder search, so that it is seen to be
    /// stopped.
    pub(super) fn carry_over(&mut self, old: &InPlay) {
        self.searches = old.searches;
        self.pondering.carry_over(&old.pondering);
        self.clocks.carry_over(&old.clocks);
    }

    /// A new search for `purpose`, now the one waited for; its number.
    pub(super) fn begin_search(&mut self, purpose: Purpose) -> u64 {
        let search = self.next_search_number();
        self.thinking = Some(Thinking {
            search,
            purpose,
            depth: None,
            score: None,
        });
        search
    }

    /// The number of a new search that is not the one the game waits for (the analysis, a review).
    pub(super) fn next_search_number(&mut self) -> u64 {
        self.searches += 1;
        self.searches
    }

    /// The pondering's next step after an action ([`Pondering::follow`]): a ponder search begun gets its number
    /// from the game's count, as every search does.
    pub(super) fn follow_pondering(
        &mut self,
        engine_taken: bool,
        wanted: Option<Expected>,
    ) -> Vec<Effect> {
        let searches = &mut self.searches;
        self.pondering.follow(engine_taken, wanted, &self.game, || {
            *searches += 1;
            *searches
        })
    }

    /// After the game changed: the moves of the new live position.
    pub(super) fn refresh_picker(&mut self) {
        self.picker = Picker::for_game(&self.game);
    }

    /// The position on show when nothing is browsed or set up: the step of a move being shown along its path, or
    /// the live position.
    pub(super) fn live_picture(&self) -> AnyPosition {
        match &self.animation {
            Some(animation) => *animation.picture(),
            None => self.game.position(),
        }
    }

    /// Keeps the cursor on `board` seen from this side: after a change of board it starts again where a new
    /// game puts it.
    pub(super) fn fit_cursor(&mut self, board: Geometry, flipped: bool) {
        if self.cursor.square().index() >= board.squares() {
            self.cursor = Cursor::on(start_square(board), board, flipped);
        } else {
            self.cursor = self.cursor.turned(board, flipped);
        }
    }
}

/// Where the cursor starts before a move places it: the first square of the second row below the middle (a3,
/// square 21, on 8x8; square 31 on 10x10).
pub(super) fn start_square(board: Geometry) -> Square {
    // Kept on the board: a defined board may have fewer squares than its size suggests.
    Square::from_index(
        ((board.height / 2 + 1) * (board.width / 2)).min(board.squares().saturating_sub(1)),
    )
}
