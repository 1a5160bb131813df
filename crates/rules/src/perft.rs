//! Perft: counting the leaves of the legal-move tree, the standard check of a move generator.

use std::marker::PhantomData;

use super::bits::Bits;
use super::movegen::{self, BlackMoves, CaptureSink, Mover, Sink, WhiteMoves};
use super::moves::Move;
use super::position::Position;
use super::replies;
use super::ruleset::RuleSet;
use super::square::Color;
use super::surface::GamePosition;

/// How capture routes with the same effect (same piece, same pieces taken, same end) are counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Duplicates {
    /// Every order of capture counts, as in the published perft tables. (Routes that take the same pieces in
    /// the same order differ only in where a flying king stopped between captures; they count once.)
    #[default]
    Keep,
    /// Routes with the same effect count once, as they are one move for a player.
    Merge,
}

/// The number of leaf positions `depth` plies below `pos`. Depth 0 counts the position itself.
///
/// A position where the game is over by its goal before any move is looked for (breakthrough: a side has
/// crowned a king) is a leaf: the game has no move after it, whatever pieces could still move.
///
/// ```
/// use crowned_rules::{Duplicates, Position, perft};
///
/// let start: Position = Position::start();
/// assert_eq!(perft(&start, 6, Duplicates::Keep), 36768);
/// ```
pub fn perft<R: RuleSet>(pos: &Position<R>, depth: u32, duplicates: Duplicates) -> u64 {
    perft_by_depth(pos, depth, duplicates)
        .last()
        .copied()
        .unwrap_or(1)
}

/// The number of positions at every depth from 1 to `depth` below `pos`, from one walk of the tree: entry `i`
/// is perft `i + 1`. Empty for depth 0.
pub fn perft_by_depth<R: RuleSet>(
    pos: &Position<R>,
    depth: u32,
    duplicates: Duplicates,
) -> Vec<u64> {
    if depth == 0 {
        return Vec::new();
    }
    // levels[r] counts the positions with r plies still to go; the walk returns levels[0].
    let mut levels = vec![0u64; depth as usize + 1];
    levels[0] = match (pos.side_to_move(), duplicates) {
        (Color::Black, Duplicates::Keep) => {
            count_tree::<R, BlackMoves, true>(pos, depth, &mut levels)
        }
        (Color::Black, Duplicates::Merge) => {
            count_tree::<R, BlackMoves, false>(pos, depth, &mut levels)
        }
        (Color::White, Duplicates::Keep) => {
            count_tree::<R, WhiteMoves, true>(pos, depth, &mut levels)
        }
        (Color::White, Duplicates::Merge) => {
            count_tree::<R, WhiteMoves, false>(pos, depth, &mut levels)
        }
    };
    levels.truncate(depth as usize);
    levels.reverse();
    levels
}

/// What [`perft_reporting`] tells as the count goes on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PerftReport {
    /// The number of positions `depth` plies below the root, final. Depths come in order, 1 first.
    Depth {
        /// Plies below the root.
        depth: u32,
        /// Positions at that depth.
        nodes: u64,
    },
    /// The walk to the full depth begins, one root move after another.
    DeepWalk {
        /// How many root moves it will walk.
        root_moves: usize,
    },
    /// A root move of the walk to the full depth is done.
    RootMove {
        /// How many root moves are done, this one included.
        done: usize,
        /// The move.
        mv: Move,
        /// The leaves below it at the full depth, as [`divide`] counts them.
        leaves: u64,
    },
}

/// Perft to every depth from 1 to `depth`, reporting each depth as soon as it is known and each root move of the
/// deepest walk as it is done, for long counts that should show progress.
///
/// Every depth comes from one walk of the tree only at the very end, so the walk is done twice: first to two
/// plies less, which reports every depth but the last two at about a twentieth of the cost of the full walk
/// (English draughts has about 4.6 moves a position), then to the full depth root move by root move, which
/// reports the last two. The counts are those of [`GamePosition::perft_by_depth`]: any rules', built in or
/// defined, each counted by its own generator.
pub fn perft_reporting<P: GamePosition>(
    pos: &P,
    depth: u32,
    duplicates: Duplicates,
    report: &mut dyn FnMut(PerftReport),
) {
    // Below this the whole count takes a blink and a first walk would only repeat it.
    const FIRST_WALK_FROM: u32 = 4;
    let mut reported = 0;
    if depth >= FIRST_WALK_FROM {
        for (d, nodes) in (1..).zip(pos.perft_by_depth(depth - 2, duplicates)) {
            report(PerftReport::Depth { depth: d, nodes });
            reported = d;
        }
    }
    if depth == 0 {
        return;
    }
    let moves = pos.perft_moves(duplicates);
    report(PerftReport::DeepWalk {
        root_moves: moves.len(),
    });
    // levels[i] counts the positions i + 1 plies below the root.
    let mut levels = vec![0u64; depth as usize];
    levels[0] = moves.len() as u64;
    for (done, mv) in (1..).zip(moves.iter()) {
        let below = pos.play(mv).perft_by_depth(depth - 1, duplicates);
        for (level, nodes) in levels[1..].iter_mut().zip(&below) {
            *level += nodes;
        }
        report(PerftReport::RootMove {
            done,
            mv: *mv,
            leaves: below.last().copied().unwrap_or(1),
        });
    }
    for (d, nodes) in (1..).zip(levels).skip(reported as usize) {
        report(PerftReport::Depth { depth: d, nodes });
    }
}

/// Perft split by root move: each legal move with the number of leaves below it at `depth` plies in all.
pub fn divide<R: RuleSet>(
    pos: &Position<R>,
    depth: u32,
    duplicates: Duplicates,
) -> Vec<(Move, u64)> {
    pos.perft_moves(duplicates)
        .into_iter()
        .map(|m| {
            let below = perft(&pos.play(&m), depth.saturating_sub(1), duplicates);
            (m, below)
        })
        .collect()
}

/// Whether the game is over at `pos` by its goal, before any move is looked for: then it has no moves in the
/// count. Always `false`, at no cost, under goals other than breakthrough's.
#[cfg_attr(not(debug_assertions), inline(always))]
fn goal_reached<R: RuleSet>(pos: &Position<R>) -> bool {
    pos.crowned_winner().is_some()
}

/// The number of moves at a leaf's parent: none once the goal is reached.
#[cfg_attr(not(debug_assertions), inline(always))]
fn leaf_moves<R: RuleSet, S: Mover, const DUP: bool>(pos: &Position<R>) -> u64 {
    if goal_reached(pos) {
        return 0;
    }
    movegen::count::<R, S, DUP>(pos)
}

/// The recursion, with the side to move and the duplicate mode as type parameters. Returns the number of leaves
/// and adds the positions met on the way to `levels` (indexed by plies still to go). Children are visited as the
/// generator finds them, without a move list; the last ply is counted without playing the moves, and at the
/// last but one the replies to all quiet moves are counted at once where possible.
fn count_tree<R: RuleSet, S: Mover, const DUP: bool>(
    pos: &Position<R>,
    depth: u32,
    levels: &mut [u64],
) -> u64 {
    levels[depth as usize] += 1;
    if goal_reached(pos) {
        return 0;
    }
    if depth == 1 {
        return movegen::count::<R, S, DUP>(pos);
    }
    if depth == 2 {
        // The bulk count of replies cannot tell a move that reaches the goal (its replies do not count).
        let bulk = R::GOAL != super::Goal::FirstKingWins;
        if let Some(replies) = bulk
            .then(|| replies::count_replies::<R, S, DUP>(pos))
            .flatten()
        {
            levels[1] += replies.moves;
            return replies.replies;
        }
        let mut leaves = Leaves::<R, S, DUP> {
            pos,
            moves: 0,
            total: 0,
            side: PhantomData,
        };
        movegen::generate::<R, S, _, DUP>(pos, &mut leaves);
        levels[1] += leaves.moves;
        return leaves.total;
    }
    let mut visit = Subtrees::<R, S, DUP> {
        pos,
        depth: depth - 1,
        levels,
        total: 0,
        side: PhantomData,
    };
    movegen::generate::<R, S, _, DUP>(pos, &mut visit);
    visit.total
}

/// Adds up the subtrees below each move it is given.
struct Subtrees<'a, R: RuleSet, S: Mover, const DUP: bool> {
    pos: &'a Position<R>,
    depth: u32,
    levels: &'a mut [u64],
    total: u64,
    side: PhantomData<S>,
}

impl<R: RuleSet, S: Mover, const DUP: bool> Sink<R::Bits> for Subtrees<'_, R, S, DUP> {
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn simple(&mut self, from: R::Bits, to: R::Bits, crowns: bool) {
        let child = self.pos.after(S::COLOR, from, to, R::Bits::ZERO, crowns);
        self.total += count_tree::<R, S::Next, DUP>(&child, self.depth, self.levels);
    }
}

impl<R: RuleSet, S: Mover, const DUP: bool> CaptureSink<R::Bits> for Subtrees<'_, R, S, DUP> {
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn capture(&mut self, from: R::Bits, to: R::Bits, captured: R::Bits, _: &[u8], crowns: bool) {
        let child = self.pos.after(S::COLOR, from, to, captured, crowns);
        self.total += count_tree::<R, S::Next, DUP>(&child, self.depth, self.levels);
    }
}

/// Adds up the number of replies to each move it is given, counting the moves too.
struct Leaves<'a, R: RuleSet, S: Mover, const DUP: bool> {
    pos: &'a Position<R>,
    moves: u64,
    total: u64,
    side: PhantomData<S>,
}

impl<R: RuleSet, S: Mover, const DUP: bool> Sink<R::Bits> for Leaves<'_, R, S, DUP> {
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn simple(&mut self, from: R::Bits, to: R::Bits, crowns: bool) {
        let child = self.pos.after(S::COLOR, from, to, R::Bits::ZERO, crowns);
        self.moves += 1;
        self.total += leaf_moves::<R, S::Next, DUP>(&child);
    }
}

impl<R: RuleSet, S: Mover, const DUP: bool> CaptureSink<R::Bits> for Leaves<'_, R, S, DUP> {
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn capture(&mut self, from: R::Bits, to: R::Bits, captured: R::Bits, _: &[u8], crowns: bool) {
        let child = self.pos.after(S::COLOR, from, to, captured, crowns);
        self.moves += 1;
        self.total += leaf_moves::<R, S::Next, DUP>(&child);
    }
}

/// Perft without bulk counting, under any rules: every leaf is played. Much slower than a rule set's own count;
/// kept as a reference for tests and benches, and the count of rules without one of their own.
pub fn perft_by_playing<P: GamePosition>(pos: &P, depth: u32, duplicates: Duplicates) -> u64 {
    if depth == 0 {
        return 1;
    }
    pos.perft_moves(duplicates)
        .iter()
        .map(|m| perft_by_playing(&pos.play(m), depth - 1, duplicates))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{English, parse_fen};

    fn reported(pos: &Position<English>, depth: u32, duplicates: Duplicates) -> Vec<PerftReport> {
        let mut seen = Vec::new();
        perft_reporting(pos, depth, duplicates, &mut |r| seen.push(r));
        seen
    }

    #[test]
    fn reporting_gives_every_depth_in_order_with_the_counts_of_one_walk() {
        let circling: Position = parse_fen("B:W10,11,18,19:BK14").expect("valid");
        for pos in [Position::start(), circling] {
            for duplicates in [Duplicates::Keep, Duplicates::Merge] {
                for depth in 0..=6 {
                    let seen = reported(&pos, depth, duplicates);
                    let depths: Vec<(u32, u64)> = seen
                        .iter()
                        .filter_map(|r| match r {
                            PerftReport::Depth { depth, nodes } => Some((*depth, *nodes)),
                            _ => None,
                        })
                        .collect();
                    let expected: Vec<(u32, u64)> =
                        (1..).zip(perft_by_depth(&pos, depth, duplicates)).collect();
                    assert_eq!(depths, expected, "{pos:?} {depth}");
                    let split: Vec<(Move, u64)> = seen
                        .iter()
                        .filter_map(|r| match r {
                            PerftReport::RootMove { mv, leaves, .. } => Some((*mv, *leaves)),
                            _ => None,
                        })
                        .collect();
                    if depth > 0 {
                        assert_eq!(split, divide(&pos, depth, duplicates), "{depth}");
                    }
                }
            }
        }
    }

    #[test]
    fn lower_depths_come_before_the_deep_walk() {
        let seen = reported(&Position::start(), 6, Duplicates::Keep);
        let walk = seen
            .iter()
            .position(|r| matches!(r, PerftReport::DeepWalk { root_moves: 7 }))
            .expect("the deep walk");
        assert_eq!(
            seen[..walk],
            [1, 2, 3, 4].map(|depth| PerftReport::Depth {
                depth,
                nodes: perft(&Position::<English>::start(), depth, Duplicates::Keep)
            })
        );
        assert_eq!(seen.len(), 4 + 1 + 7 + 2);
    }
}
