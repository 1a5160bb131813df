//! Perft: counting the leaves of the legal-move tree, the standard check of a move generator.

use super::movegen::{self, BlackMoves, Mover, WhiteMoves};
use super::moves::{Move, MoveList};
use super::position::Position;
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

/// The recursion, with the side to move and the duplicate mode as type parameters. The last ply is counted
/// without playing the moves ("bulk counting").
fn count_tree<R: RuleSet, S: Mover, const DUP: bool>(pos: &Position<R>, depth: u32) -> u64 {
    if depth == 1 {
        return movegen::count::<R, S, DUP>(pos);
    }
    let mut list = MoveList::new();
    movegen::generate::<R, S, DUP>(pos, &mut list);
    list.iter()
        .map(|m| count_tree::<R, S::Next, DUP>(&pos.play(m), depth - 1))
        .sum()
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
