//! The pieces as the network sees them, and the first layer's sums for both views.

use super::{HIDDEN, Network};
use crate::rules::position::compress;
use crate::rules::{Color, English, Position, RuleSet};

/// The four kinds of piece as square sets (bit i: square i + 1), in Black's frame: Black's men, Black's kings,
/// White's men, White's kings.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pieces(pub [u32; 4]);

impl Pieces {
    /// The pieces of `pos`.
    #[inline]
    pub fn of(pos: &Position<English>) -> Pieces {
        let squares = |bits: u64| compress(English::GEOMETRY, bits) as u32;
        let black = pos.pieces[Color::Black.index()];
        let white = pos.pieces[Color::White.index()];
        Pieces([
            squares(black & !pos.kings),
            squares(black & pos.kings),
            squares(white & !pos.kings),
            squares(white & pos.kings),
        ])
    }

    /// How many features differ between `self` and `other` in one view: the cost of going from one to the other.
    #[inline]
    pub fn distance(&self, other: &Pieces) -> u32 {
        (0..4).map(|k| (self.0[k] ^ other.0[k]).count_ones()).sum()
    }

    /// Pieces on the board.
    #[inline]
    pub fn count(&self) -> u32 {
        self.0.iter().map(|s| s.count_ones()).sum()
    }

    /// The features set in `view`'s view, each once.
    pub fn features(&self, view: Color) -> impl Iterator<Item = usize> + '_ {
        (0..4).flat_map(move |kind| {
            squares_of(self.0[kind]).map(move |square| feature(view, kind, square))
        })
    }
}

/// The feature of a piece of `kind` (Black's frame: 0 Black man, 1 Black king, 2 White man, 3 White king) on
/// square index `square`, in `view`'s view: its own pieces first, and for White the board turned half round.
#[inline(always)]
pub fn feature(view: Color, kind: usize, square: usize) -> usize {
    match view {
        Color::Black => kind * 32 + square,
        Color::White => (kind ^ 2) * 32 + (31 - square),
    }
}

fn squares_of(mut set: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let i = set.trailing_zeros() as usize;
            set &= set - 1;
            i
        })
    })
}

/// The first layer's sums for Black's view and White's view of one position.
#[derive(Clone, Debug, PartialEq, Eq)]
#[repr(align(64))]
pub struct Accumulator {
    /// Indexed by [`Color::index`].
    pub(crate) views: [[i16; HIDDEN]; 2],
}

impl Accumulator {
    /// The sums for `pieces`, from nothing.
    pub fn new(net: &Network, pieces: &Pieces) -> Accumulator {
        let mut acc = Accumulator {
            views: [net.first_bias; 2],
        };
        for view in [Color::Black, Color::White] {
            for f in pieces.features(view) {
                add(&mut acc.views[view.index()], net.column(f));
            }
        }
        acc
    }

    /// Moves the sums from the position of `from` to that of `to`: a column added for each piece that is new,
    /// one taken away for each piece that is gone.
    #[inline]
    pub fn update(&mut self, net: &Network, from: &Pieces, to: &Pieces) {
        for kind in 0..4 {
            let (was, is) = (from.0[kind], to.0[kind]);
            for square in squares_of(is & !was) {
                for view in [Color::Black, Color::White] {
                    add(
                        &mut self.views[view.index()],
                        net.column(feature(view, kind, square)),
                    );
                }
            }
            for square in squares_of(was & !is) {
                for view in [Color::Black, Color::White] {
                    sub(
                        &mut self.views[view.index()],
                        net.column(feature(view, kind, square)),
                    );
                }
            }
        }
    }
}

// Wrapping arithmetic: the true sums fit in 16 bits (the weights are bounded when trained), and wrapping is
// exact modulo 2^16, so an intermediate sum out of range cannot spoil the result; it also vectorises cleanly.
#[inline(always)]
fn add(sums: &mut [i16; HIDDEN], column: &[i16; HIDDEN]) {
    for (s, w) in sums.iter_mut().zip(column) {
        *s = s.wrapping_add(*w);
    }
}

#[inline(always)]
fn sub(sums: &mut [i16; HIDDEN], column: &[i16; HIDDEN]) {
    for (s, w) in sums.iter_mut().zip(column) {
        *s = s.wrapping_sub(*w);
    }
}
