//! Perft under any rules, through the rules' one surface ([`GamePosition`]): the count that reports as it goes,
//! the count split by root move, and the count by playing every move. Each rule set counts below the root with
//! its own generator ([`GamePosition::perft_by_depth`]: the built-in ones with their fast walk,
//! [`perft`](crate::perft)).

use super::moves::Move;
use super::perft::Duplicates;
use super::surface::GamePosition;

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
            leaves: deepest(&below),
        });
    }
    for (d, nodes) in (1..).zip(levels).skip(reported as usize) {
        report(PerftReport::Depth { depth: d, nodes });
    }
}

/// Perft split by root move: each legal move with the number of leaves below it at `depth` plies in all.
pub fn divide<P: GamePosition>(pos: &P, depth: u32, duplicates: Duplicates) -> Vec<(Move, u64)> {
    pos.perft_moves(duplicates)
        .into_iter()
        .map(|m| {
            let below = pos
                .play(&m)
                .perft_by_depth(depth.saturating_sub(1), duplicates);
            (m, deepest(&below))
        })
        .collect()
}

/// The leaves of a count by depth: its deepest level, or the position itself when it went no deeper.
fn deepest(levels: &[u64]) -> u64 {
    levels.last().copied().unwrap_or(1)
}

/// Perft without bulk counting, under any rules: every leaf is played. Much slower than a rule set's own count;
/// kept as the reference the rule sets' counts are held to, in tests and benches.
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
    use crate::{English, Position, parse_fen, perft, perft_by_depth};

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
