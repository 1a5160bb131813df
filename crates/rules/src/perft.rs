//! Perft: counting the leaves of the legal-move tree, the standard check of a move generator.

use std::marker::PhantomData;

use super::bits::Bits;
use super::movegen::{self, BlackMoves, CaptureSink, Mover, Sink, WhiteMoves};
use super::position::Position;
use super::replies;
use super::ruleset::RuleSet;
use super::square::Color;

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
