//! The review of a whole game (`:analyse`), a part of the app: the engine judges every position of the game in turn, in the
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
//! panel's: the app shares the engine after every action. The review's fields are its own: the app asks and
//! tells it through the methods below.

use super::action::Effect;
use crate::engine::{Limits, Score};
use crate::game::{AnyGame, MoveMark};
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
pub(super) struct Review {
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

/// What the review does about the position it asks to judge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Asked {
    /// Its search is already under way.
    Running,
    /// A search numbered `search` is to be started on it.
    Start {
        /// The new search's number.
        search: u64,
    },
    /// Nothing to search: the side to move there has no move, and has lost. It is judged so.
    Lost,
}

/// A move the review marks, with the engine's judgement as its comment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Marked {
    /// The ply of the move (1 for the first move).
    pub(super) ply: usize,
    /// How much it cost its player.
    pub(super) mark: MoveMark,
    /// The better move and what each left.
    pub(super) comment: String,
}

impl Review {
    /// A review of `game` as it stands, with nothing judged yet.
    pub(super) fn of(game: &AnyGame) -> Review {
        let positions: Vec<AnyPosition> = (0..=game.len())
            .filter_map(|ply| game.position_at(ply))
            .collect();
        Review {
            judged: vec![None; positions.len()],
            positions,
            running: None,
            best: None,
            one_short: None,
        }
    }

    /// What the review panel shows of `game` (the game reviewed, with its marks), for `viewer`.
    pub(super) fn view(&self, game: &AnyGame, viewer: Color) -> ReviewView {
        let curve = self
            .judged
            .iter()
            .zip(&self.positions)
            .map_while(|(judged, position)| {
                let share = judged.as_ref()?.score.expectation();
                Some(if position.side_to_move() == viewer {
                    share
                } else {
                    1.0 - share
                })
            })
            .collect::<Vec<_>>();
        let counts = [Color::Black, Color::White].map(|side| {
            let mut counts = [0; 3];
            for ply in 1..self.positions.len() {
                if self.positions[ply - 1].side_to_move() != side {
                    continue;
                }
                match game.mark(ply) {
                    Some(MoveMark::Dubious) => counts[0] += 1,
                    Some(MoveMark::Mistake) => counts[1] += 1,
                    Some(MoveMark::Blunder) => counts[2] += 1,
                    _ => {}
                }
            }
            (side, counts)
        });
        ReviewView {
            done: self.judged.iter().filter(|j| j.is_some()).count(),
            total: self.positions.len(),
            curve,
            viewer,
            counts,
        }
    }

    /// The next position to judge, if any.
    pub(super) fn wants(&self) -> Option<usize> {
        self.judged.iter().position(Option::is_none)
    }

    /// Asks to judge position `ply` (the app checked that the engine is free); `next_search` numbers a new
    /// search.
    pub(super) fn ask(&mut self, ply: usize, next_search: impl FnOnce() -> u64) -> Asked {
        if self.running.is_some_and(|(_, running)| running == ply) {
            return Asked::Running;
        }
        if self.positions[ply].legal_moves().is_empty() {
            self.judge(ply, Score::Loss(0));
            return Asked::Lost;
        }
        let search = next_search();
        self.running = Some((search, ply));
        self.best = None;
        self.one_short = None;
        Asked::Start { search }
    }

    /// The search the app starts for [`Asked::Start`]: a full-strength judgement to [`REVIEW_DEPTH`].
    pub(super) fn search_effect(search: u64, game: &AnyGame, ply: usize) -> Effect {
        Effect::Evaluate {
            search,
            situation: super::analysis::situation_at(game, ply),
            limits: Limits::depth(REVIEW_DEPTH),
        }
    }

    /// Whether `game` has changed under the review (a move taken back and another played, a new game): its
    /// judgements no longer belong to these moves. Moves played after it keep it.
    pub(super) fn is_stale(&self, game: &AnyGame) -> bool {
        self.positions.len() > game.len() + 1
            || self
                .positions
                .iter()
                .enumerate()
                .any(|(ply, position)| game.position_at(ply) != Some(*position))
    }

    /// The review's search under way, if any.
    pub(super) fn running(&self) -> Option<u64> {
        self.running.map(|(search, _)| search)
    }

    /// Forgets the search under way: another replaced it on the engine.
    pub(super) fn replaced(&mut self) {
        self.running = None;
    }

    /// A report of a search: if it is the review's, its best move so far and its score one ply short of the
    /// full depth are kept.
    pub(super) fn progress(&mut self, search: u64, depth: u32, score: Score, pv: &[Move]) {
        if self.running() == Some(search) {
            self.best = pv.first().copied().or(self.best);
            if depth + 1 == REVIEW_DEPTH {
                self.one_short = Some(score);
            }
        }
    }

    /// A search judged its position: if it is the review's, the judgement is kept. Whether every position is
    /// judged now (the review is done, and its [`Review::marks`] are due).
    pub(super) fn answer(&mut self, search: u64, score: Score) -> bool {
        match self.running {
            Some((running, ply)) if running == search => self.judge(ply, score),
            _ => false,
        }
    }

    /// Keeps the judgement of position `ply`; whether every position is judged now.
    fn judge(&mut self, ply: usize, score: Score) -> bool {
        self.judged[ply] = Some(Judged {
            score,
            best: self.best.take(),
            one_short: self.one_short.take().unwrap_or(score),
        });
        self.running = None;
        self.judged.iter().all(Option::is_some)
    }

    /// The moves of `game` that cost the most, by the judgements so far, with the engine's view as their comment.
    pub(super) fn marks(&self, game: &AnyGame) -> Vec<Marked> {
        let notation = game.variant().notation();
        let mut marks = Vec::new();
        for ply in 1..self.positions.len() {
            let before = self.positions[ply - 1];
            let (Some(judged_before), Some(judged_after)) =
                (self.judged[ply - 1], self.judged[ply])
            else {
                continue;
            };
            let (score_before, best) = (judged_before.score, judged_before.best);
            if before.legal_moves().len() < 2 {
                continue;
            }
            // Only a move the engine's search of the position before did not choose can be marked: that search
            // names the better move, and its score is the better move's worth.
            let played = game.moves().get(ply - 1).copied();
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
            marks.push(Marked { ply, mark, comment });
        }
        marks
    }
}
