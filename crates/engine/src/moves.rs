//! Moves as the search handles them: bits of the board layout, collected straight from the generator.

use smallvec::SmallVec;

use super::zobrist;
use crowned_rules::movegen::{BlackMoves, CaptureSink, Sink, WhiteMoves, generate};
use crowned_rules::position::compress;
use crowned_rules::{Bits, Color, Move, Position, RuleSet};

/// A move as the search handles it: bits of the board layout, in the word `B` of the rule set's board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct SearchMove<B> {
    /// The pieces taken.
    pub captured: B,
    /// The bit index the piece moves from.
    pub from: u8,
    /// The bit index it ends on.
    pub to: u8,
    /// Whether a man is crowned.
    pub crowns: bool,
}

impl<B: Bits> SearchMove<B> {
    /// A non-zero 32-bit fingerprint for the transposition table and the history tables.
    pub(crate) fn fingerprint(self) -> u32 {
        // The high half of a wide word is folded onto the low half first; for a 64-bit board it is zero and
        // the fingerprint is the same as it always was.
        let wide = self.captured.to_u128();
        let captured = (wide ^ (wide >> 64)) as u64;
        let folded = (captured ^ (captured >> 20) ^ (captured >> 40)) as u32 & 0xF_FFFF;
        (u32::from(self.from) | u32::from(self.to) << 6 | folded << 12) + 1
    }

    /// Whether the move takes a piece.
    pub fn is_capture(self) -> bool {
        !self.captured.is_empty()
    }

    /// How many pieces the move takes.
    pub(crate) fn taken(self) -> u32 {
        self.captured.count_ones()
    }

    /// The position after this move.
    pub fn play<R: RuleSet<Bits = B>>(self, pos: &Position<R>) -> Position<R> {
        pos.after(
            pos.side_to_move(),
            B::bit(u32::from(self.from)),
            B::bit(u32::from(self.to)),
            self.captured,
            self.crowns,
        )
    }

    /// The Zobrist key after this move, from the key of `pos`.
    pub(crate) fn key_after<R: RuleSet<Bits = B>>(self, key: u64, pos: &Position<R>) -> u64 {
        zobrist::after(
            key,
            pos,
            B::bit(u32::from(self.from)),
            B::bit(u32::from(self.to)),
            self.captured,
            self.crowns,
        )
    }

    /// The public move this stands for in `pos`.
    pub(crate) fn to_move<R: RuleSet<Bits = B>>(self, pos: &Position<R>) -> Option<Move> {
        let g = R::GEOMETRY;
        let captured = compress(g, self.captured);
        pos.legal_moves().into_iter().find(|m| {
            g.bit(m.from()) == u32::from(self.from)
                && g.bit(m.to()) == u32::from(self.to)
                && m.captured().fold(0u128, |acc, s| acc | 1 << s.index()) == captured
        })
    }
}

/// The moves of one node.
pub type MoveBuf<B> = SmallVec<[SearchMove<B>; 32]>;

struct Collect<'a, B>(&'a mut MoveBuf<B>);

impl<B: Bits> Sink<B> for Collect<'_, B> {
    #[inline(always)]
    fn simple(&mut self, from: B, to: B, crowns: bool) {
        self.0.push(SearchMove {
            captured: B::ZERO,
            from: from.trailing_zeros() as u8,
            to: to.trailing_zeros() as u8,
            crowns,
        });
    }
}

impl<B: Bits> CaptureSink<B> for Collect<'_, B> {
    #[inline(always)]
    fn capture(&mut self, from: B, to: B, captured: B, _: &[u8], crowns: bool) {
        self.0.push(SearchMove {
            captured,
            from: from.trailing_zeros() as u8,
            to: to.trailing_zeros() as u8,
            crowns,
        });
    }
}

/// The legal moves of `pos`, routes with the same effect merged.
pub fn moves_of<R: RuleSet>(pos: &Position<R>, out: &mut MoveBuf<R::Bits>) {
    out.clear();
    let mut sink = Collect(out);
    match pos.side_to_move() {
        Color::Black => generate::<R, BlackMoves, _, false>(pos, &mut sink),
        Color::White => generate::<R, WhiteMoves, _, false>(pos, &mut sink),
    }
}
