//! What the draw rules count, kept for every point of a game as it grows: moves without progress, how often
//! each position has stood on the board, and how long each drawn-in-time ending has lasted.
//!
//! Kept as the game grows rather than found by scanning back, so that asking for a point's outcome costs the
//! same however long the game (a game without the move limit can go on for ever).

use std::collections::HashMap;

use super::draws::{Counting, DrawRules, MAX_ENDING_RULES};
use super::outcome::DrawReason;
use crowned_rules::{GamePosition, Move};

/// How long each of a variant's ending rules has held at one point, in single moves (0 where it does not).
type EndingCounts = [u32; MAX_ENDING_RULES];

/// What the draw rules count at one point of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Point {
    /// The moves before this point since the last progress ([`GamePosition::is_progress`]: a capture or a
    /// move by a piece that may still be crowned).
    pub(super) quiet: u32,
    /// The moves before this point since the last capture: as far back as a position may come back (where men
    /// move sideways, as in Turkish draughts, a man's move can be undone; where they only move forward, no
    /// position before one can stand again, and this reaches no further than `quiet` does in effect).
    since_capture: u32,
    /// The times this point's position has stood on the board since the last capture, this one included.
    pub(super) repeats: u32,
    /// The last point before this one with the same position, if any (to put `last_seen` back on truncating).
    earlier: Option<usize>,
    /// The moves for which each of the variant's ending rules has held here.
    endings: EndingCounts,
}

/// The draw counts of every point of a game; index `i` is the point after `i` moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Counts<P: GamePosition> {
    /// One per point (a single vector keeps a game small: it is moved around whole).
    pub(super) points: Vec<Point>,
    /// Where each position stood last.
    last_seen: HashMap<P, usize>,
}

impl<P: GamePosition> Counts<P> {
    /// The counts of a game that has not started: its start stands once.
    pub(super) fn new(start: P) -> Self {
        Counts {
            points: vec![Point {
                quiet: 0,
                since_capture: 0,
                repeats: 1,
                earlier: None,
                endings: [0; MAX_ENDING_RULES],
            }],
            last_seen: HashMap::from([(start, 0)]),
        }
    }

    /// Counts `mv`, played from `before` (the last point) to `after`.
    pub(super) fn push(&mut self, before: &P, mv: &Move, after: P, rules: &DrawRules) {
        let ply = self.points.len();
        let last = self.points[ply - 1];
        let quiet = if before.is_progress(mv) {
            0
        } else {
            last.quiet + 1
        };
        let since_capture = if mv.is_capture() {
            0
        } else {
            last.since_capture + 1
        };
        let earlier = self.last_seen.insert(after, ply);
        let repeats = match earlier {
            // Only positions since the last capture count.
            Some(e) if e + since_capture as usize >= ply => self.points[e].repeats + 1,
            _ => 1,
        };
        self.points.push(Point {
            quiet,
            since_capture,
            repeats,
            earlier,
            endings: next_endings(&last.endings, before, mv, &after, rules),
        });
    }

    /// Keeps the counts of the first `points` points; `positions` are the game's positions before it drops
    /// the rest.
    pub(super) fn truncate(&mut self, points: usize, positions: &[P]) {
        for ply in (points..self.points.len()).rev() {
            let position = positions[ply];
            match self.points[ply].earlier {
                Some(e) => self.last_seen.insert(position, e),
                None => self.last_seen.remove(&position),
            };
        }
        self.points.truncate(points);
    }

    /// Counts the ending rules again under `rules`, for the game's `positions` and `moves` (the other counts
    /// do not depend on the rules).
    pub(super) fn recount_endings(&mut self, positions: &[P], moves: &[Move], rules: &DrawRules) {
        let mut previous = [0; MAX_ENDING_RULES];
        for (ply, point) in self.points.iter_mut().enumerate() {
            if let Some(mv) = ply.checked_sub(1).and_then(|p| moves.get(p)) {
                previous = next_endings(&previous, &positions[ply - 1], mv, &positions[ply], rules);
            }
            point.endings = previous;
        }
    }

    /// The draw the rules give at point `ply`, if any. An ending rule is named before the move limit when both
    /// apply, as the more telling of the two (in Russian draughts three kings against one reach both at once).
    pub(super) fn draw(&self, ply: usize, rules: &DrawRules) -> Option<DrawReason> {
        let point = &self.points[ply];
        if rules.repetitions > 0 && point.repeats >= rules.repetitions {
            return Some(DrawReason::Repetition {
                times: rules.repetitions,
            });
        }
        let ending = rules
            .endings
            .iter()
            .zip(point.endings)
            .find(|(rule, count)| rule.moves > 0 && *count >= 2 * rule.moves);
        if let Some((rule, _)) = ending {
            return Some(DrawReason::Ending {
                ending: rule.ending,
                moves: rule.moves,
            });
        }
        (rules.quiet_moves > 0 && point.quiet >= 2 * rules.quiet_moves).then_some(
            DrawReason::MoveLimit {
                moves: rules.quiet_moves,
            },
        )
    }
}

/// The ending counts after `mv` takes `before` (with counts `previous`) to `after`: a rule that holds goes on
/// counting while it held before too (and, for a rule counted from the last change, nothing was captured or
/// crowned); otherwise it starts again from 0.
fn next_endings<P: GamePosition>(
    previous: &EndingCounts,
    before: &P,
    mv: &Move,
    after: &P,
    rules: &DrawRules,
) -> EndingCounts {
    let changed = mv.is_capture() || mv.crowns();
    let mut counts = [0; MAX_ENDING_RULES];
    for ((count, rule), previous) in counts.iter_mut().zip(rules.endings.iter()).zip(previous) {
        if rule.ending.holds(after) {
            let reset = changed && rule.counting == Counting::FromLastChange;
            if !reset && rule.ending.holds(before) {
                *count = previous + 1;
            }
        }
    }
    counts
}
