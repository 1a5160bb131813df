//! The words a board's squares are stored in: `u64` up to 10x10, `u128` for the larger boards.
//!
//! Each rule set names its word as [`RuleSet::Bits`](super::RuleSet::Bits), so 8x8 and 10x10 boards keep their
//! one-register sets and a 12x12 board (77 bits in the ghost-square layout) or a 14x14 board (104 bits) gets
//! two registers, with the same generator code compiled for each.

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, Not, Shl, Shr, Sub};

/// A set of squares as the bits of an unsigned integer.
pub trait Bits:
    Copy
    + Debug
    + Default
    + Eq
    + Ord
    + Hash
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitAndAssign
    + BitOr<Output = Self>
    + BitOrAssign
    + BitXor<Output = Self>
    + Not<Output = Self>
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
    + Sub<Output = Self>
{
    /// The empty set.
    const ZERO: Self;
    /// The set of bit 0 alone.
    const ONE: Self;
    /// The order in which a capture took its pieces, packed (see [`Bits::then_take`]).
    type Order: Copy + Debug + Default + Eq;

    /// The low bits of a `u128` (layouts are computed as `u128` at compile time and narrowed).
    fn from_u128(bits: u128) -> Self;
    /// The word widened to `u128`.
    fn to_u128(self) -> u128;
    /// How many bits are set.
    fn count_ones(self) -> u32;
    /// The index of the lowest set bit (the width when none is).
    fn trailing_zeros(self) -> u32;

    /// The set of one bit.
    #[inline(always)]
    fn bit(index: u32) -> Self {
        Self::ONE << index
    }

    /// Whether no bit is set.
    #[inline(always)]
    fn is_empty(self) -> bool {
        self == Self::ZERO
    }

    /// `order` followed by the piece on bit `index` (the `taken`-th piece of the capture, counting from 0).
    fn then_take(order: Self::Order, index: u32, taken: usize) -> Self::Order;
}

impl Bits for u64 {
    const ZERO: Self = 0;
    const ONE: Self = 1;
    /// Six bits a piece: up to 21 pieces, more than a side has on any board that fits 64 bits.
    type Order = u128;

    #[inline(always)]
    fn from_u128(bits: u128) -> Self {
        bits as u64
    }
    #[inline(always)]
    fn to_u128(self) -> u128 {
        u128::from(self)
    }
    #[inline(always)]
    fn count_ones(self) -> u32 {
        u64::count_ones(self)
    }
    #[inline(always)]
    fn trailing_zeros(self) -> u32 {
        u64::trailing_zeros(self)
    }
    #[inline(always)]
    fn then_take(order: u128, index: u32, _: usize) -> u128 {
        (order << 6) | u128::from(index)
    }
}

impl Bits for u128 {
    const ZERO: Self = 0;
    const ONE: Self = 1;
    /// Seven bits a piece, 18 to a word: 54 pieces, more than [`MAX_PATH`](super::MAX_PATH).
    type Order = [u128; 3];

    #[inline(always)]
    fn from_u128(bits: u128) -> Self {
        bits
    }
    #[inline(always)]
    fn to_u128(self) -> u128 {
        self
    }
    #[inline(always)]
    fn count_ones(self) -> u32 {
        u128::count_ones(self)
    }
    #[inline(always)]
    fn trailing_zeros(self) -> u32 {
        u128::trailing_zeros(self)
    }
    #[inline(always)]
    fn then_take(mut order: Self::Order, index: u32, taken: usize) -> Self::Order {
        if let Some(word) = order.get_mut(taken / 18) {
            // Bit indices of a layout up to 14x14 (104 bits) fit seven bits; 0 marks "no piece", so store
            // index + 1.
            *word |= u128::from(index + 1) << (7 * (taken % 18));
        }
        order
    }
}

/// The indices of the set bits, lowest first.
#[derive(Clone, Copy, Debug)]
pub(crate) struct BitIter<B>(pub(crate) B);

impl<B: Bits> Iterator for BitIter<B> {
    type Item = u32;

    #[inline(always)]
    fn next(&mut self) -> Option<u32> {
        if self.0.is_empty() {
            None
        } else {
            let bit = self.0.trailing_zeros();
            self.0 &= self.0 - B::ONE;
            Some(bit)
        }
    }
}

/// Moves every bit of `bits` by `shift` places (left for positive, right for negative).
#[inline(always)]
pub(crate) fn shift_bits<B: Bits>(bits: B, shift: i32) -> B {
    if shift >= 0 {
        bits << shift as u32
    } else {
        bits >> (-shift) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bit_iteration_in_both_widths() {
        assert_eq!(BitIter(0b1010_0001u64).collect::<Vec<_>>(), vec![0, 5, 7]);
        assert_eq!(BitIter(0u64).count(), 0);
        let wide = (1u128 << 100) | (1 << 64) | 1;
        assert_eq!(BitIter(wide).collect::<Vec<_>>(), vec![0, 64, 100]);
        assert_eq!(shift_bits(1u128 << 70, -7), 1 << 63);
        assert_eq!(shift_bits(1u64, 6), 64);
    }

    #[test]
    fn orders_differ_when_the_order_differs() {
        let ab = u128::then_take(u128::then_take([0; 3], 3, 0), 90, 1);
        let ba = u128::then_take(u128::then_take([0; 3], 90, 0), 3, 1);
        assert_ne!(ab, ba);
        let ab = u64::then_take(u64::then_take(0, 3, 0), 40, 1);
        let ba = u64::then_take(u64::then_take(0, 40, 0), 3, 1);
        assert_ne!(ab, ba);
    }
}
