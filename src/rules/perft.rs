//! Perft: counting the leaves of the legal-move tree, the standard check of a move generator.

use std::marker::PhantomData;

use super::movegen::{self, BlackMoves, Mover, Sink, WhiteMoves};
use super::moves::Move;
use super::position::Position;
use super::replies;
use super::ruleset::RuleSet;
use super::square::Color;

/// How capture routes with the same effect (same piece, same pieces taken, same end) are counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Duplicates {
    /// Every route counts, as in the published perft tables.
    #[default]
    Keep,
    /// Routes with the same effect count once, as they are one move for a player.
    Merge,
}

/// The number of leaf positions `depth` plies below `pos`. Depth 0 counts the position itself.
pub fn perft<R: RuleSet>(pos: &Position<R>, depth: u32, duplicates: Duplicates) -> u64 {
    if depth == 0 {
        return 1;
    }
    match (pos.side_to_move(), duplicates) {
        (Color::Black, Duplicates::Keep) => count_tree::<R, BlackMoves, true>(pos, depth),
        (Color::Black, Duplicates::Merge) => count_tree::<R, BlackMoves, false>(pos, depth),
        (Color::White, Duplicates::Keep) => count_tree::<R, WhiteMoves, true>(pos, depth),
        (Color::White, Duplicates::Merge) => count_tree::<R, WhiteMoves, false>(pos, depth),
    }
}

/// Perft split by root move: each legal move with the number of leaves below it at `depth` plies in all.
pub fn divide<R: RuleSet>(
    pos: &Position<R>,
    depth: u32,
    duplicates: Duplicates,
) -> Vec<(Move, u64)> {
    let moves = match duplicates {
        Duplicates::Keep => pos.legal_moves_with_duplicates(),
        Duplicates::Merge => pos.legal_moves(),
    };
    moves
        .into_iter()
        .map(|m| {
            let below = perft(&pos.play(&m), depth.saturating_sub(1), duplicates);
            (m, below)
        })
        .collect()
}

/// The recursion, with the side to move and the duplicate mode as type parameters. Children are visited as the
/// generator finds them, without a move list, and the last ply is counted without playing the moves ("bulk
/// counting").
fn count_tree<R: RuleSet, S: Mover, const DUP: bool>(pos: &Position<R>, depth: u32) -> u64 {
    if depth == 1 {
        return movegen::count::<R, S, DUP>(pos);
    }
    if depth == 2 {
        if let Some(n) = replies::count_replies::<R, S, DUP>(pos) {
            return n;
        }
        // Count the replies to each move in the loop that finds the moves, with no call per child.
        let mut leaves = Leaves::<R, S, DUP> {
            pos,
            total: 0,
            side: PhantomData,
        };
        movegen::generate::<R, S, _, DUP>(pos, &mut leaves);
        return leaves.total;
    }
    let mut visit = Subtrees::<R, S, DUP> {
        pos,
        depth: depth - 1,
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
    total: u64,
    side: PhantomData<S>,
}

impl<R: RuleSet, S: Mover, const DUP: bool> Sink for Subtrees<'_, R, S, DUP> {
    #[inline(always)]
    fn simple(&mut self, from: u64, to: u64, crowns: bool) {
        let child = self.pos.after(S::COLOR, from, to, 0, crowns);
        self.total += count_tree::<R, S::Next, DUP>(&child, self.depth);
    }

    #[inline(always)]
    fn capture(&mut self, from: u64, to: u64, captured: u64, _: &[u8], crowns: bool) {
        let child = self.pos.after(S::COLOR, from, to, captured, crowns);
        self.total += count_tree::<R, S::Next, DUP>(&child, self.depth);
    }
}

/// Adds up the number of replies to each move it is given.
struct Leaves<'a, R: RuleSet, S: Mover, const DUP: bool> {
    pos: &'a Position<R>,
    total: u64,
    side: PhantomData<S>,
}

impl<R: RuleSet, S: Mover, const DUP: bool> Sink for Leaves<'_, R, S, DUP> {
    #[inline(always)]
    fn simple(&mut self, from: u64, to: u64, crowns: bool) {
        let child = self.pos.after(S::COLOR, from, to, 0, crowns);
        self.total += movegen::count::<R, S::Next, DUP>(&child);
    }

    #[inline(always)]
    fn capture(&mut self, from: u64, to: u64, captured: u64, _: &[u8], crowns: bool) {
        let child = self.pos.after(S::COLOR, from, to, captured, crowns);
        self.total += movegen::count::<R, S::Next, DUP>(&child);
    }
}

/// Perft without bulk counting: every leaf is played. Much slower; kept as a reference for tests and benches.
pub fn perft_by_playing<R: RuleSet>(pos: &Position<R>, depth: u32, duplicates: Duplicates) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = match duplicates {
        Duplicates::Keep => pos.legal_moves_with_duplicates(),
        Duplicates::Merge => pos.legal_moves(),
    };
    moves
        .iter()
        .map(|m| perft_by_playing(&pos.play(m), depth - 1, duplicates))
        .sum()
}
