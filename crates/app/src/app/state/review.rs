//! The app's wiring of the review of a whole game ([`Review`](crate::app::review)): starting it, its panel, its
//! share of the engine, the marks it leaves in the game, and the moves it lets the player jump between; and
//! `:comment`, the player's own word on a move.

use super::App;
use crate::app::action::Effect;
use crate::app::mode::Mode;
use crate::app::review::{Asked, REVIEW_DEPTH, Review, ReviewView};
use crate::config::Context;
use crate::engine::Score;
use crate::rules::Move;

impl App {
    /// `:analyse`: starts analysing the game on show (again, if it was).
    pub(super) fn start_review(&mut self) -> Vec<Effect> {
        if matches!(self.mode, Mode::Setup(_)) {
            self.status = "setting up: there is no game to analyse yet".into();
            return Vec::new();
        }
        if self.table.as_ref().is_some_and(|t| t.seat().is_some())
            && self.play.game().outcome().is_none()
        {
            self.status = "no analysis while you play a person at a table".into();
            return Vec::new();
        }
        if self.play.game().is_empty() {
            self.status = "no moves to analyse yet".into();
            return Vec::new();
        }
        self.review = Some(Review::of(self.play.game()));
        // Moves as the move list numbers them (one by each side), and the positions actually searched.
        let moves = crate::game::moves_played(&self.play.game().start(), self.play.game().len());
        self.status = format!(
            "analysing the game: {} ({} positions, each searched {REVIEW_DEPTH} plies deep)",
            crate::game::count(moves, "move", "moves"),
            self.play.game().len() + 1
        );
        Vec::new()
    }

    /// What the review panel shows, while a review is under way or done.
    pub fn review_view(&self) -> Option<ReviewView> {
        let review = self.review.as_ref()?;
        Some(review.view(self.play.game(), self.viewpoint()))
    }

    /// The next position the review has to judge, if any.
    pub(super) fn review_wants(&self) -> Option<usize> {
        self.review.as_ref()?.wants()
    }

    /// Judges position `ply` of the review (the caller checked that the engine is free): `true` when a search
    /// for it runs, `false` when it needed none.
    pub(super) fn review_search(&mut self, ply: usize, effects: &mut Vec<Effect>) -> bool {
        let Some(review) = self.review.as_mut() else {
            return false;
        };
        match review.ask(ply, || self.play.next_search_number()) {
            Asked::Running => true,
            Asked::Start { search } => {
                effects.push(Review::search_effect(search, self.play.game(), ply));
                true
            }
            Asked::Lost => {
                if review.wants().is_none() {
                    self.finish_review();
                }
                false
            }
        }
    }

    /// Drops the review when the game it analysed has changed under it: its judgements no longer belong to
    /// these moves.
    pub(super) fn drop_stale_review(&mut self) {
        if self
            .review
            .as_ref()
            .is_some_and(|review| review.is_stale(self.play.game()))
        {
            self.review = None;
        }
    }

    /// The review's search under way, if any.
    pub(super) fn review_running(&self) -> Option<u64> {
        self.review.as_ref()?.running()
    }

    /// Whether `search` is the review's search under way.
    pub(super) fn is_review_search(&self, search: u64) -> bool {
        self.review_running() == Some(search)
    }

    /// Forgets the review's search under way (replaced on the engine by another).
    pub(super) fn review_search_replaced(&mut self) {
        if let Some(review) = self.review.as_mut() {
            review.replaced();
        }
    }

    /// A report of a search, for the review if it is the review's.
    pub(super) fn review_progress(&mut self, search: u64, depth: u32, score: Score, pv: &[Move]) {
        if let Some(review) = self.review.as_mut() {
            review.progress(search, depth, score, pv);
        }
    }

    /// A search's judgement, for the review if it is the review's.
    pub(super) fn review_answer(&mut self, search: u64, score: Score) {
        if self
            .review
            .as_mut()
            .is_some_and(|review| review.answer(search, score))
        {
            self.finish_review();
        }
    }

    /// Marks the moves that cost the most, with the engine's view as their comment (marks already in the
    /// record, an annotator's, are kept).
    fn finish_review(&mut self) {
        let Some(review) = self.review.as_ref() else {
            return;
        };
        let mut marked = 0;
        for found in review.marks(self.play.game()) {
            if self.play.game().mark(found.ply).is_none() {
                self.play.set_mark(found.ply, Some(found.mark));
                if self.play.game().comment(found.ply).is_none() {
                    self.play.set_comment(found.ply, Some(found.comment));
                }
                marked += 1;
            }
        }
        self.status = format!(
            "analysed: {} marked ({} and {} jump between the marked moves)",
            crate::game::count(marked, "move", "moves"),
            self.key(Context::Board, "next-mark", "-"),
            self.key(Context::Board, "previous-mark", "-")
        );
    }

    /// `:comment TEXT`: the comment on the move on show of the player's own game (`:comment` alone removes it).
    pub(super) fn comment_command(&mut self, text: Option<&str>) -> Result<Vec<Effect>, String> {
        if self.replay.is_some() {
            return Err(format!(
                "a record being replayed is not changed: {} continues it as a game of your own",
                self.key(Context::Replay, "continue", ":continue")
            ));
        }
        if self.table.is_some() {
            return Err("the table keeps the game: comments are for your own games".into());
        }
        if let Mode::Setup(_) = self.mode {
            return Err("setting up: there is no move to comment on".into());
        }
        let ply = match self.mode {
            Mode::Browsing { ply } => ply,
            _ => self.play.game().ply(),
        };
        let text = text.map(str::trim).filter(|t| !t.is_empty());
        self.play.set_comment(ply, text.map(str::to_string));
        let what = match ply {
            0 => "the start".to_string(),
            _ => self
                .play
                .game()
                .move_text(ply, self.play.game().variant().notation())
                .unwrap_or_default(),
        };
        self.status = match text {
            Some(_) => format!("comment added to {what}"),
            None => format!("comment on {what} removed"),
        };
        self.game_changed = true;
        Ok(Vec::new())
    }

    /// Shows the next (or previous) marked move of the game.
    pub(super) fn jump_to_mark(&mut self, forward: bool) -> Vec<Effect> {
        // In a game, the moves taken back are not browsed; in a replay every move is.
        let len = match self.replay {
            Some(_) => self.play.game().len(),
            None => self.play.game().ply(),
        };
        let shown = match self.mode {
            Mode::Browsing { ply } => ply,
            _ => self.play.game().ply(),
        };
        let marked = |ply: &usize| self.play.game().mark(*ply).is_some();
        let target = if forward {
            (shown + 1..=len).find(marked)
        } else {
            (1..shown).rev().find(marked)
        };
        let Some(ply) = target else {
            self.status = if (1..=len).any(|p| self.play.game().mark(p).is_some()) {
                format!(
                    "no marked move {} this one",
                    if forward { "after" } else { "before" }
                )
            } else {
                "no marked moves: :analyse marks the costly ones".into()
            };
            return Vec::new();
        };
        if self.replay.is_none() && ply == len {
            self.leave_browsing();
        } else {
            self.mode = Mode::Browsing { ply };
            self.status = self.mode_message();
        }
        Vec::new()
    }
}
