//! The Frisian limit on a king's quiet moves, as the search carries it from node to node.
//!
//! The rule (three quiet moves in a row by one king while its side has men; then that king may only capture)
//! depends on the moves before a position, so the game keeps it ([`KingRuns`]) and the search must too: a
//! search that filtered the root alone would see, below it, kings making a fourth quiet move, and score lines
//! the rules forbid. Each node carries both sides' runs in layout bits; the transposition table keys them in, as
//! two positions that differ only in a run have different moves.
//!
//! Under rules without the limit every method returns at once on a constant, so the search pays nothing.

use super::moves::SearchMove;
use crowned_game::KingRuns;
use crowned_rules::{Bits, Color, Position, RuleSet};

/// Each side's run (by [`Color::index`]): the layout bit of the king that made it and its quiet moves in a row
/// (0: no run).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Runs {
    at: [u8; 2],
    count: [u8; 2],
}

/// The limit of the rule set `R` (0: none).
#[inline(always)]
fn limit<R: RuleSet>() -> u8 {
    R::VARIANT.king_moves_in_a_row() as u8
}

/// Whether `side` still has men, which is what keeps the rule in force for it.
#[inline(always)]
fn has_men<R: RuleSet>(pos: &Position<R>, side: Color) -> bool {
    !(pos.pieces[side.index()] & !pos.kings).is_empty()
}

impl Runs {
    /// The runs of a game's situation, in the layout of `R`.
    pub(crate) fn of<R: RuleSet>(runs: &KingRuns) -> Runs {
        let mut out = Runs::default();
        if limit::<R>() == 0 {
            return out;
        }
        for side in [Color::Black, Color::White] {
            if let Some((square, count)) = runs.of(side) {
                out.at[side.index()] = R::GEOMETRY.bit(square) as u8;
                out.count[side.index()] = count.min(limit::<R>());
            }
        }
        out
    }

    /// The layout bit of the side to move's king that may not make another quiet move, if there is one.
    #[inline(always)]
    pub(crate) fn barred<R: RuleSet>(self, pos: &Position<R>) -> Option<u8> {
        let side = pos.side_to_move();
        let s = side.index();
        (limit::<R>() > 0 && self.count[s] >= limit::<R>() && has_men(pos, side))
            .then_some(self.at[s])
    }

    /// The runs after the side to move plays `m` in `pos`: its own goes on with a quiet king move of the king
    /// that made it (or starts with another king's) and ends with any other move; the other side's ends when
    /// its king is taken.
    #[inline(always)]
    pub(crate) fn after<R: RuleSet>(self, pos: &Position<R>, m: SearchMove<R::Bits>) -> Runs {
        if limit::<R>() == 0 {
            return self;
        }
        let s = pos.side_to_move().index();
        let o = 1 - s;
        let mut next = self;
        let by_king = !(pos.kings & R::Bits::bit(u32::from(m.from))).is_empty();
        if by_king && !m.is_capture() {
            let goes_on = self.count[s] > 0 && self.at[s] == m.from;
            next.at[s] = m.to;
            next.count[s] = if goes_on {
                (self.count[s] + 1).min(limit::<R>())
            } else {
                1
            };
        } else {
            (next.at[s], next.count[s]) = (0, 0);
        }
        if self.count[o] > 0 && !(m.captured & R::Bits::bit(u32::from(self.at[o]))).is_empty() {
            (next.at[o], next.count[o]) = (0, 0);
        }
        next
    }

    /// What the runs add to the position's key in the transposition table: nothing where they cannot change
    /// the moves of any line from here (no run, or a side without men), so those positions still share entries.
    #[inline(always)]
    pub(crate) fn key<R: RuleSet>(self, pos: &Position<R>) -> u64 {
        if limit::<R>() == 0 {
            return 0;
        }
        let mut key = 0;
        for side in [Color::Black, Color::White] {
            let s = side.index();
            if self.count[s] > 0 && has_men(pos, side) {
                let word = (s as u64) << 16 | u64::from(self.at[s]) << 8 | u64::from(self.count[s]);
                key ^= mix(word);
            }
        }
        key
    }
}

/// A 64-bit mix of a small number (splitmix64's finaliser): keys that differ in one run differ everywhere.
#[inline(always)]
fn mix(word: u64) -> u64 {
    let mut z = word.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[cfg(test)]
#[path = "king_runs_tests.rs"]
mod tests;
