//! Analysing a whole game (`:analyse`): the engine judges every position of the game in turn, in the
//! background, then the moves that threw away the most are marked in the record (`?!`, `?`, `??`), with the
//! engine's judgement as their comment, and the evaluation over the game is drawn as a graph.
//!
//! A move is marked only when the engine's search of the position before it (to [`REVIEW_DEPTH`] plies) chose
//! another move, and by what playing it instead cost its player: the share of the points the chosen move
//! promised less the share the move played leaves, seen as deep (the search of the position after it, one ply
//! short of the full depth: what the search before saw of its best move). A share is the score's
//! [`expectation`](crate::engine::Score::expectation): a man up from a level position is about 0.64. A cost of
//! [`DUBIOUS`] or more is `?!`, [`MISTAKE`] `?`, and [`BLUNDER`] `??`: from a level position, about half a man,
//! one man and two men, and throwing a won game away is always `??`. The comment names the better move, as
//! `best was 9-14: +0.20 for Black, not +1.10 for White`. The engine's own choice is never marked; forced moves
//! are never marked, and marks already in the record (an annotator's) are kept.
//!
//! The review's searches wait for the game's own (a move, a draw offer, a hint) and come before the analysis
//! panel's; they are started by [`App::sync_analysis`].

use super::App;
use crate::app::action::Effect;
use crate::app::keymap::Context;
use crate::app::mode::Mode;
use crate::engine::{Limits, Score};
use crate::game::MoveMark;
use crate::rules::{AnyPosition, Color, Move};

/// The depth every position is searched to: a few seconds for a whole game on two cores, deep enough to see the
/// tactics that decide games between people.
pub const REVIEW_DEPTH: u32 = 16;

/// The cost, in expected share of the points, from which a move is dubious (`?!`).
pub const DUBIOUS: f64 = 0.06;
/// A mistake (`?`).
pub const MISTAKE: f64 = 0.12;
/// A blunder (`??`).
pub const BLUNDER: f64 = 0.25;

/// A game being analysed, or analysed.
#[derive(Clone, Debug)]
pub(in crate::app) struct Review {
    /// The positions of the game analysed, the start first.
    positions: Vec<AnyPosition>,
    /// The engine's judgement of each, once searched.
    judged: Vec<Option<Judged>>,
    /// The search under way: its number and the ply it judges.
    running: Option<(u64, usize)>,
    /// The best move the search under way has reported.
    best: Option<Move>,
    /// The score the search under way reported one ply short of [`REVIEW_DEPTH`].
    one_short: Option<Score>,
}

/// What the review's search of one position found, each score for the side to move there.
#[derive(Clone, Copy, Debug)]
struct Judged {
    /// The score at [`REVIEW_DEPTH`]: what the position is worth, and what its best move promises.
    score: Score,
    /// The move the search chose, when it reported one.
    best: Option<Move>,
    /// The score one ply short of [`REVIEW_DEPTH`] (the deeper one when the search ended sooner): what the
    /// move that led here is worth from the position before, seen as deep as that position's own search
    /// saw its best move. Comparing it with the deeper score would count the horizon's effect (draughts
    /// searches of odd and even depths differ) as the player's mistake.
    one_short: Score,
}

/// What the review panel shows.
#[derive(Clone, Debug, PartialEq)]
pub struct ReviewView {
    /// Positions judged so far, and in all.
    pub done: usize,
    /// Positions in all.
    pub total: usize,
    /// The expected share of the points of `viewer` after each ply judged so far (0 to 1).
    pub curve: Vec<f64>,
    /// The side whose share the curve shows.
    pub viewer: Color,
    /// How many moves of each side were marked `?!`, `?` and `??` (once the review is over).
    pub counts: [(Color, [usize; 3]); 2],
}

impl App {
    /// `:analyse`: starts analysing the game on show (again, if it was).
    pub(super) fn start_review(&mut self) -> Vec<Effect> {
        if matches!(self.mode, Mode::Setup(_)) {
            self.status = "setting up: there is no game to analyse yet".into();
            return Vec::new();
        }
        if self.table.as_ref().is_some_and(|t| t.seat.is_some())
            && self.play.game.outcome().is_none()
        {
            self.status = "no analysis while you play a person at a table".into();
            return Vec::new();
        }
        if self.play.game.is_empty() {
            self.status = "no moves to analyse yet".into();
            return Vec::new();
        }
        let positions: Vec<AnyPosition> = (0..=self.play.game.len())
            .filter_map(|ply| self.play.game.position_at(ply))
            .collect();
        self.review = Some(Review {
            judged: vec![None; positions.len()],
            positions,
            running: None,
            best: None,
            one_short: None,
        });
        // Moves as the move list numbers them (one by each side), and the positions actually searched.
        let moves = crate::game::moves_played(&self.play.game.start(), self.play.game.len());
        self.status = format!(
            "analysing the game: {} ({} positions, each searched {REVIEW_DEPTH} plies deep)",
            crate::game::count(moves, "move", "moves"),
            self.play.game.len() + 1
        );
        Vec::new()
    }

    /// What the review panel shows, while a review is under way or done.
    pub fn review_view(&self) -> Option<ReviewView> {
        let review = self.review.as_ref()?;
        let viewer = self.viewpoint();
        let curve = review
            .judged
            .iter()
            .zip(&review.positions)
            .map_while(|(judged, position)| {
                let score = judged.as_ref()?.score;
                let share = score.expectation();
                Some(if position.side_to_move() == viewer {
                    share
                } else {
                    1.0 - share
                })
            })
            .collect::<Vec<_>>();
        let counts = [Color::Black, Color::White].map(|side| {
            let mut counts = [0; 3];
            for ply in 1..review.positions.len() {
                if review.positions[ply - 1].side_to_move() != side {
                    continue;
                }
                match self.play.game.mark(ply) {
                    Some(MoveMark::Dubious) => counts[0] += 1,
                    Some(MoveMark::Mistake) => counts[1] += 1,
                    Some(MoveMark::Blunder) => counts[2] += 1,
                    _ => {}
                }
            }
            (side, counts)
        });
        Some(ReviewView {
            done: review.judged.iter().filter(|j| j.is_some()).count(),
            total: review.positions.len(),
            curve,
            viewer,
            counts,
        })
    }

    /// The next position the review has to judge, if any.
    pub(super) fn review_wants(&self) -> Option<usize> {
        let review = self.review.as_ref()?;
        review.judged.iter().position(Option::is_none)
    }

    /// Judges position `ply` of the review (the caller checked that the engine is free): `true` when a search
    /// for it runs, `false` when it needed none.
    pub(super) fn review_search(&mut self, ply: usize, effects: &mut Vec<Effect>) -> bool {
        let Some(review) = self.review.as_ref() else {
            return false;
        };
        if review.running.is_some_and(|(_, running)| running == ply) {
            return true;
        }
        let position = review.positions[ply];
        if position.legal_moves().is_empty() {
            // The side to move has lost: nothing to search.
            self.review_judged(ply, Score::Loss(0));
            return false;
        }
        let search = self.play.next_search_number();
        let situation = super::analysis::situation_at(&self.play.game, ply);
        if let Some(review) = self.review.as_mut() {
            review.running = Some((search, ply));
            review.best = None;
            review.one_short = None;
        }
        effects.push(Effect::Evaluate {
            search,
            situation,
            limits: Limits::depth(REVIEW_DEPTH),
        });
        true
    }

    /// Drops the review when the game it analysed has changed under it (a move taken back and another played,
    /// a new game): its judgements no longer belong to these moves. Moves played after it keep it.
    pub(super) fn drop_stale_review(&mut self) {
        let stale = self.review.as_ref().is_some_and(|review| {
            review.positions.len() > self.play.game.len() + 1
                || review
                    .positions
                    .iter()
                    .enumerate()
                    .any(|(ply, position)| self.play.game.position_at(ply) != Some(*position))
        });
        if stale {
            self.review = None;
        }
    }

    /// The review's search under way, if any.
    pub(super) fn review_running(&self) -> Option<u64> {
        self.review.as_ref()?.running.map(|(search, _)| search)
    }

    /// Whether `search` is the review's search under way.
    pub(super) fn is_review_search(&self, search: u64) -> bool {
        self.review
            .as_ref()
            .and_then(|r| r.running)
            .is_some_and(|(running, _)| running == search)
    }

    /// Forgets the review's search under way (replaced on the engine by another).
    pub(super) fn review_search_replaced(&mut self) {
        if let Some(review) = self.review.as_mut() {
            review.running = None;
        }
    }

    /// A report of the review's search: its best move so far, and its score one ply short of the full depth.
    pub(super) fn review_progress(&mut self, search: u64, depth: u32, score: Score, pv: &[Move]) {
        if self.is_review_search(search)
            && let Some(review) = self.review.as_mut()
        {
            review.best = pv.first().copied().or(review.best);
            if depth + 1 == REVIEW_DEPTH {
                review.one_short = Some(score);
            }
        }
    }

    /// The review's search judged its position.
    pub(super) fn review_answer(&mut self, search: u64, score: Score) {
        let Some((_, ply)) = self.review.as_ref().and_then(|r| r.running) else {
            return;
        };
        if self.is_review_search(search) {
            self.review_judged(ply, score);
        }
    }

    fn review_judged(&mut self, ply: usize, score: Score) {
        let Some(review) = self.review.as_mut() else {
            return;
        };
        review.judged[ply] = Some(Judged {
            score,
            best: review.best.take(),
            one_short: review.one_short.take().unwrap_or(score),
        });
        review.running = None;
        if review.judged.iter().all(Option::is_some) {
            self.finish_review();
        }
    }

    /// Marks the moves that cost the most, with the engine's view as their comment.
    fn finish_review(&mut self) {
        let Some(review) = self.review.as_ref() else {
            return;
        };
        let notation = self.play.game.variant().notation();
        let mut marks = Vec::new();
        for ply in 1..review.positions.len() {
            let before = review.positions[ply - 1];
            let (Some(judged_before), Some(judged_after)) =
                (review.judged[ply - 1], review.judged[ply])
            else {
                continue;
            };
            let (score_before, best) = (judged_before.score, judged_before.best);
            if before.legal_moves().len() < 2 {
                continue;
            }
            // Only a move the engine's search of the position before did not choose can be marked: that search
            // names the better move, and its score is the better move's worth.
            let played = self.play.game.moves().get(ply - 1).copied();
            let Some(best) = best.filter(|b| played.is_some_and(|p| !b.same_effect(&p))) else {
                continue;
            };
            // Both from the mover's side: the position after the move is judged for the opponent, one ply short
            // of the full depth, as deep as the search before saw its own best move.
            let after = judged_after.one_short.flipped();
            let cost = score_before.expectation() - after.expectation();
            let mark = if cost >= BLUNDER {
                MoveMark::Blunder
            } else if cost >= MISTAKE {
                MoveMark::Mistake
            } else if cost >= DUBIOUS {
                MoveMark::Dubious
            } else {
                continue;
            };
            let side = before.side_to_move();
            // Short enough for two lines of the move list at 80x24: the better move and its worth, then what the
            // move played left.
            let comment = format!(
                "best was {}: {}, not {}",
                before.write_move(&best, notation),
                score_before.describe(side),
                after.describe(side)
            );
            marks.push((ply, mark, comment));
        }
        let mut marked = 0;
        for (ply, mark, comment) in marks {
            if self.play.game.mark(ply).is_none() {
                self.play.game.set_mark(ply, Some(mark));
                if self.play.game.comment(ply).is_none() {
                    self.play.game.set_comment(ply, Some(comment));
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
            _ => self.play.game.ply(),
        };
        let text = text.map(str::trim).filter(|t| !t.is_empty());
        self.play.game.set_comment(ply, text.map(str::to_string));
        let what = match ply {
            0 => "the start".to_string(),
            _ => self
                .play
                .game
                .move_text(ply, self.play.game.variant().notation())
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
            Some(_) => self.play.game.len(),
            None => self.play.game.ply(),
        };
        let shown = match self.mode {
            Mode::Browsing { ply } => ply,
            _ => self.play.game.ply(),
        };
        let marked = |ply: &usize| self.play.game.mark(*ply).is_some();
        let target = if forward {
            (shown + 1..=len).find(marked)
        } else {
            (1..shown).rev().find(marked)
        };
        let Some(ply) = target else {
            self.status = if (1..=len).any(|p| self.play.game.mark(p).is_some()) {
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
