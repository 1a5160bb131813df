//! The game in play and what goes with it: the moves it allows, the board cursor, the engine's searches, the
//! pace of a game between engines, the move being shown along its path and its bursts, and the clocks. The app
//! owns one and lends it to its parts; everything here is about the game itself, nothing about what is open over
//! it.
//!
//! Its fields are its own. What it keeps true: the picker holds the moves of the game's live position (every
//! change of the game goes through here and refreshes it), each search has its own number, the clocks follow the
//! moves played, taken back and played again, and the cursor stays on a playable square.

use super::action::{Effect, Purpose, Thinking};
use super::animation::Animation;
use super::burst::Burst;
use super::clocks::Clocks;
use super::cursor::{Cursor, CursorStep};
use super::pace::Pace;
use super::picking::{Pick, PickError, Picker};
use super::pondering::{Expected, Pondering};
use crate::engine::Level;
use crate::game::{AnyGame, GameError, MoveMark, Tags, TimeControl};
use crate::rules::{AnyPosition, Geometry, Move, Square};

/// The game in play and its moving parts.
#[derive(Clone, Debug)]
pub(super) struct InPlay {
    game: AnyGame,
    /// The moves of the live position, and the one being picked.
    picker: Picker,
    /// The board cursor, always on a playable square.
    cursor: Cursor,
    /// The search the app is waiting for.
    thinking: Option<Thinking>,
    /// Searches asked for so far: each has its own number, so that a late answer is never taken for another's.
    /// Only [`InPlay::next_search_number`] and the searches begun here count them.
    searches: u64,
    /// Moves being shown stepping along their path.
    animation: Option<Animation>,
    /// The capture effect's bursts on show (empty when it is off or nothing was taken lately).
    burst: Burst,
    /// The pace of a game between engines, and the move that waits for it.
    pace: Pace,
    /// The clocks, and the time control new games get.
    clocks: Clocks,
    /// The engine's thinking on the person's time.
    pondering: Pondering,
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

    /// The game.
    pub(super) fn game(&self) -> &AnyGame {
        &self.game
    }

    /// Plays `mv` in the game and presses the mover's clock.
    pub(super) fn play_move(&mut self, mv: &Move) -> Result<(), GameError> {
        self.game.play(mv)?;
        self.clocks.press();
        self.refresh_picker();
        Ok(())
    }

    /// Takes back one move, and the increment its mover's clock earned for it (the first move of each side is
    /// not timed, so earned none); `false` with nothing to take back.
    pub(super) fn undo_move(&mut self) -> bool {
        if !self.game.undo() {
            return false;
        }
        let (ply, mover) = (self.game.ply(), self.game.position().side_to_move());
        self.clocks.take_back(mover, ply);
        self.refresh_picker();
        true
    }

    /// Plays one move of the redo line again, and gives its mover back the increment [`InPlay::undo_move`]
    /// took; `false` with nothing to replay.
    pub(super) fn redo_move(&mut self) -> bool {
        let (ply, mover) = (self.game.ply(), self.game.position().side_to_move());
        if !self.game.redo() {
            return false;
        }
        self.clocks.replay(mover, ply);
        self.refresh_picker();
        true
    }

    /// Takes back the last move for good (no redo line keeps it, its clock time stays spent): a trainer's
    /// verdict that the move was wrong.
    pub(super) fn drop_last_move(&mut self) {
        self.game.undo();
        self.game.truncate();
        self.refresh_picker();
    }

    /// Withdraws a declared ending (a resignation, an agreed draw); `false` when the game has none.
    pub(super) fn withdraw_ending(&mut self) -> bool {
        let withdrawn = self.game.outcome().is_some() && self.game.withdraw();
        if withdrawn {
            self.refresh_picker();
        }
        withdrawn
    }

    /// Ends the game as `declare` says (a resignation, an agreed draw, a flag fallen), or says why it cannot.
    pub(super) fn end_with(
        &mut self,
        declare: impl FnOnce(&mut AnyGame) -> Result<(), GameError>,
    ) -> Result<(), GameError> {
        let ended = declare(&mut self.game);
        self.refresh_picker();
        ended
    }

    /// Takes `game` in place of the one in play, as it stands (a table's game after a takeback, an ending, a
    /// game joined part-way).
    pub(super) fn replace_game(&mut self, game: AnyGame) {
        self.game = game;
        self.refresh_picker();
    }

    /// Follows the move-limit setting: it is the English draw rule's length; the other variants keep their
    /// federations' rules (see the README's "Draw rules by variant").
    pub(super) fn follow_move_limit(&mut self, limit: u32) {
        if self.game.variant() == crate::rules::Variant::English {
            self.game.set_move_limit(limit);
        }
    }

    /// Sets the comment after move `ply` (1-based); `false` when there is no such move.
    pub(super) fn set_comment(&mut self, ply: usize, comment: Option<String>) -> bool {
        self.game.set_comment(ply, comment)
    }

    /// Sets the mark of move `ply` (1-based); `false` when there is no such move.
    pub(super) fn set_mark(&mut self, ply: usize, mark: Option<MoveMark>) -> bool {
        self.game.set_mark(ply, mark)
    }

    /// The game's tags, to change.
    pub(super) fn tags_mut(&mut self) -> &mut Tags {
        self.game.tags_mut()
    }

    /// The moves of the live position, and the one being picked.
    pub(super) fn picker(&self) -> &Picker {
        &self.picker
    }

    /// Picks `square` in the live position for the move being made.
    pub(super) fn pick(&mut self, square: Square) -> Result<Pick, PickError> {
        self.picker.pick(&self.game.position(), square)
    }

    /// Lets go of the piece being picked.
    pub(super) fn drop_selection(&mut self) {
        self.picker.drop_selection();
    }

    /// The board cursor.
    pub(super) fn cursor(&self) -> Cursor {
        self.cursor
    }

    /// Moves the cursor one square along `step` on `board` seen from this side.
    pub(super) fn step_cursor(&mut self, step: CursorStep, board: Geometry, flipped: bool) {
        self.cursor = self.cursor.step(step, board, flipped);
    }

    /// Puts the cursor on `square` of `board` seen from this side.
    pub(super) fn put_cursor(&mut self, square: Square, board: Geometry, flipped: bool) {
        self.cursor = Cursor::on(square, board, flipped);
    }

    /// Takes the cursor as the input box left it (typed moves move it too).
    pub(super) fn set_cursor(&mut self, cursor: Cursor) {
        self.cursor = cursor;
    }

    /// The search the app is waiting for.
    pub(super) fn thinking(&self) -> Option<Thinking> {
        self.thinking
    }

    /// Stops waiting for the search under way; it, if there was one.
    pub(super) fn stop_waiting(&mut self) -> Option<Thinking> {
        self.thinking.take()
    }

    /// How far search `search` has gone, when it is the one waited for.
    pub(super) fn note_progress(&mut self, search: u64, depth: u32, score: crate::engine::Score) {
        if let Some(thinking) = self.thinking.as_mut().filter(|t| t.search == search) {
            thinking.depth = Some(depth);
            thinking.score = Some(score);
        }
    }

    /// The engine (at `level`) is to move: when the move just played is the one the ponder search expected,
    /// that search becomes the move's, now the one waited for; its number.
    pub(super) fn take_ponder_hit(&mut self, level: Level) -> Option<u64> {
        let search = self.pondering.hit(level, &self.game)?;
        self.thinking = Some(Thinking {
            search,
            purpose: Purpose::Move,
            depth: None,
            score: None,
        });
        Some(search)
    }

    /// The engine's move `mv` of search `search` was played: the reply its line expects, if the line began
    /// with that move.
    pub(super) fn expect_reply(&mut self, search: u64, mv: Option<Move>) {
        self.pondering.expect_reply(search, mv, &self.game);
    }

    /// The engine's thinking on the person's time.
    pub(super) fn pondering(&self) -> &Pondering {
        &self.pondering
    }

    /// The engine's thinking on the person's time, to change.
    pub(super) fn pondering_mut(&mut self) -> &mut Pondering {
        &mut self.pondering
    }

    /// The pace of a game between engines.
    pub(super) fn pace(&self) -> &Pace {
        &self.pace
    }

    /// The pace of a game between engines, to change.
    pub(super) fn pace_mut(&mut self) -> &mut Pace {
        &mut self.pace
    }

    /// The clocks.
    pub(super) fn clocks(&self) -> &Clocks {
        &self.clocks
    }

    /// The clocks, to set, run or stop.
    pub(super) fn clocks_mut(&mut self) -> &mut Clocks {
        &mut self.clocks
    }

    /// The move being shown stepping along its path.
    pub(super) fn animation(&self) -> Option<&Animation> {
        self.animation.as_ref()
    }

    /// The capture effect's bursts on show.
    pub(super) fn burst(&self) -> &Burst {
        &self.burst
    }

    /// Shows `mv`, just played from `before`, stepping along its path from landing `seen`: the pieces taken as
    /// it begins (the jumps already seen, or all of them when nothing is left to show), or `None` when another
    /// move is still being shown and this one waits its turn.
    pub(super) fn show_move(
        &mut self,
        before: AnyPosition,
        mv: Move,
        seen: usize,
    ) -> Option<Vec<Square>> {
        if let Some(animation) = self.animation.as_mut() {
            animation.then(before, mv);
            return None;
        }
        self.animation = Animation::new(before, mv, seen, before.geometry());
        Some(match &self.animation {
            Some(animation) => animation.trail().into_iter().skip(1).collect(),
            None => mv.captured().collect(),
        })
    }

    /// The move being shown takes its next step: the pieces that step takes, and whether steps are left (the
    /// move's showing ends when none are); `None` when nothing is being shown.
    pub(super) fn step_showing(&mut self) -> Option<(Vec<Square>, bool)> {
        let animation = self.animation.as_mut()?;
        let taken = animation.taken_next();
        let still = animation.advance();
        if !still {
            self.animation = None;
        }
        Some((taken, still))
    }

    /// Bursts begin on `squares`; whether none was running (so a timer is wanted).
    pub(super) fn add_bursts(&mut self, squares: Vec<Square>) -> bool {
        self.burst.add(squares)
    }

    /// The bursts' next frame; whether any is still on show.
    pub(super) fn advance_bursts(&mut self) -> bool {
        self.burst.advance()
    }

    /// Ends the bursts on show.
    pub(super) fn clear_bursts(&mut self) {
        self.burst = Burst::default();
    }

    /// Shows the game as it stands at once: the move being shown lands, the bursts end.
    pub(super) fn end_showing(&mut self) {
        self.animation = None;
        self.burst = Burst::default();
    }

    /// Starts the picking over in the live position: the moves as they are, nothing picked (but the one piece
    /// that must capture). Every change of the game here does it; a part leaving its own screen does it too.
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

#[cfg(test)]
mod tests {
    use super::*;

    /// What the picker offers: the pieces that may move, whether they must capture, and the piece picked.
    fn offered(picker: &Picker) -> (Vec<Square>, bool, Option<Square>) {
        (picker.movable(), picker.must_capture(), picker.selected())
    }

    /// The picker holds what a fresh one for the game would: the live position's moves, nothing picked but a
    /// piece that alone must capture.
    fn in_step(play: &InPlay) {
        assert_eq!(
            offered(play.picker()),
            offered(&Picker::for_game(play.game()))
        );
    }

    #[test]
    fn every_change_of_the_game_leaves_the_moves_to_pick_in_step() {
        let mut play = InPlay::new(AnyGame::default(), false, None);
        in_step(&play);
        for _ in 0..6 {
            let mv = play.game().position().legal_moves()[0];
            play.play_move(&mv).expect("a legal move");
            in_step(&play);
        }
        // A piece picked and then a move taken back: the pick goes with the position it was made in.
        let piece = play.picker().movable()[0];
        assert!(play.pick(piece).is_ok());
        assert_eq!(play.picker().selected(), Some(piece));
        assert!(play.undo_move());
        in_step(&play);
        assert!(play.redo_move());
        in_step(&play);
        play.drop_last_move();
        in_step(&play);
        assert!(!play.redo_move(), "a move dropped for good is not replayed");
        play.end_with(AnyGame::agree_draw)
            .expect("a game in play can be drawn");
        assert!(play.game().outcome().is_some());
        in_step(&play);
        assert!(play.withdraw_ending());
        assert!(play.game().outcome().is_none());
        in_step(&play);
        play.replace_game(AnyGame::default());
        assert_eq!(play.game().ply(), 0);
        in_step(&play);
    }
}
