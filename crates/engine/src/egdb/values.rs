//! What a table says about a position, one byte each on disk and two bits each in memory.

/// The result of a position in the databases, for the side to move, with the distance to conversion: how many
/// plies until a capture or a crowning changes the material with the result still in hand (the winner takes
/// the shortest way, the loser the longest).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DbValue {
    /// The side to move wins; a conversion comes in this many plies.
    Win(u16),
    /// Neither side can force a win.
    Draw,
    /// The side to move loses; a conversion comes in this many plies (0: no move is left).
    Loss(u16),
}

/// The longest distance to conversion a value holds.
pub const MAX_DISTANCE: u16 = 0x7FFF;
/// The longest distance a one-byte table holds; tables with longer ones use two bytes a position.
pub const MAX_NARROW_DISTANCE: u16 = 127;

impl DbValue {
    /// The value as a word: 0 a draw, 1..=0x7FFF a win in that many plies, 0x8000 + n a loss in n plies.
    pub fn code(self) -> u16 {
        match self {
            DbValue::Draw => 0,
            DbValue::Win(n) => n.clamp(1, MAX_DISTANCE),
            DbValue::Loss(n) => 0x8000 | n.min(MAX_DISTANCE),
        }
    }

    /// The value of a word.
    pub fn from_code(code: u16) -> DbValue {
        match code {
            0 => DbValue::Draw,
            1..=0x7FFF => DbValue::Win(code),
            _ => DbValue::Loss(code & 0x7FFF),
        }
    }

    /// The value as a byte, for tables whose distances are all at most [`MAX_NARROW_DISTANCE`]: 0 a draw,
    /// 1..=127 a win, 128 + n a loss.
    pub fn narrow_code(self) -> u8 {
        match self {
            DbValue::Draw => 0,
            DbValue::Win(n) => n.clamp(1, MAX_NARROW_DISTANCE) as u8,
            DbValue::Loss(n) => 128 | n.min(MAX_NARROW_DISTANCE) as u8,
        }
    }

    /// The value of a byte.
    pub fn from_narrow_code(code: u8) -> DbValue {
        match code {
            0 => DbValue::Draw,
            1..=127 => DbValue::Win(u16::from(code)),
            _ => DbValue::Loss(u16::from(code & 0x7F)),
        }
    }

    /// The result without the distance.
    pub fn outcome(self) -> Wld {
        match self {
            DbValue::Win(_) => Wld::Win,
            DbValue::Draw => Wld::Draw,
            DbValue::Loss(_) => Wld::Loss,
        }
    }
}

/// A result without its distance.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Wld {
    /// The side to move wins.
    Win,
    /// Nobody can force a win.
    Draw,
    /// The side to move loses.
    Loss,
}

impl Wld {
    /// Two bits: 0 a draw, 1 a win, 2 a loss.
    #[inline]
    pub fn bits(self) -> u8 {
        match self {
            Wld::Draw => 0,
            Wld::Win => 1,
            Wld::Loss => 2,
        }
    }

    fn from_bits(bits: u8) -> Wld {
        match bits & 3 {
            1 => Wld::Win,
            2 => Wld::Loss,
            _ => Wld::Draw,
        }
    }
}

/// Outcomes two bits a position: how finished tables are kept in memory while larger ones are built.
#[derive(Clone, Debug, Default)]
pub struct Outcomes {
    bits: Vec<u8>,
}

impl Outcomes {
    /// The outcomes of values.
    pub fn from_values(values: impl ExactSizeIterator<Item = DbValue>) -> Outcomes {
        let mut bits = vec![0u8; values.len().div_ceil(4)];
        for (i, v) in values.enumerate() {
            bits[i / 4] |= v.outcome().bits() << (2 * (i % 4));
        }
        Outcomes { bits }
    }

    /// Outcomes already packed four to a byte, the first position in the low bits (as [`Wld::bits`]).
    pub fn from_packed(bits: Vec<u8>) -> Outcomes {
        Outcomes { bits }
    }

    /// The outcome of position `index`.
    #[inline]
    pub fn get(&self, index: u64) -> Wld {
        let byte = self.bits[(index / 4) as usize];
        Wld::from_bits(byte >> (2 * (index % 4)))
    }

    /// The memory the outcomes take, in bytes.
    pub fn bytes(&self) -> usize {
        self.bits.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip() {
        for code in 0..=255u8 {
            assert_eq!(DbValue::from_narrow_code(code).narrow_code(), code);
            let value = DbValue::from_narrow_code(code);
            assert_eq!(DbValue::from_code(value.code()), value);
        }
        for code in [0, 1, 200, 0x7FFF, 0x8000, 0x8001, 0xFFFF] {
            assert_eq!(DbValue::from_code(code).code(), code);
        }
        assert_eq!(DbValue::Loss(0).narrow_code(), 128);
        assert_eq!(DbValue::Win(3).outcome(), Wld::Win);
    }

    #[test]
    fn outcomes_pack_four_to_a_byte() {
        let codes = [0, 5, 130, 128, 1, 0, 129];
        let packed = Outcomes::from_values(codes.iter().map(|&c| DbValue::from_narrow_code(c)));
        let read: Vec<Wld> = (0..7).map(|i| packed.get(i)).collect();
        use Wld::*;
        assert_eq!(read, [Draw, Win, Loss, Loss, Win, Draw, Loss]);
        assert_eq!(packed.bytes(), 2);
        let by_hand = Outcomes::from_packed(vec![
            Win.bits() | Loss.bits() << 2 | Loss.bits() << 6,
            Loss.bits() << 4,
        ]);
        let read: Vec<Wld> = (0..7).map(|i| by_hand.get(i)).collect();
        assert_eq!(read, [Win, Loss, Draw, Loss, Draw, Draw, Loss]);
    }
}
