//! Zobrist keys: one random word per (piece kind, square) and one for the side to move, so that a position's
//! key is the XOR of the keys of what is on the board and can be updated move by move.

use super::rng::mix;
use crate::rules::{Color, Position};

/// Keys for black men, white men, black kings, white kings, per bit of the board layout (64 covers every board
/// that fits a word).
const fn table() -> [[u64; 64]; 4] {
    let mut keys = [[0u64; 64]; 4];
    let mut kind = 0;
    while kind < 4 {
        let mut bit = 0;
        while bit < 64 {
            keys[kind][bit] = mix(0x5EED_0000_0000_0000 ^ ((kind as u64) << 8) ^ bit as u64);
            bit += 1;
        }
        kind += 1;
    }
    keys
}

static KEYS: [[u64; 64]; 4] = table();

/// XORed in when White is to move.
const WHITE_TO_MOVE: u64 = mix(0x5EED_0000_0000_1234);

fn kind(color: Color, king: bool) -> usize {
    color.index() + 2 * usize::from(king)
}

fn fold(mut bits: u64, keys: &[u64; 64]) -> u64 {
    let mut key = 0;
    while bits != 0 {
        key ^= keys[bits.trailing_zeros() as usize];
        bits &= bits - 1;
    }
    key
}

/// The key of a position, computed from scratch.
pub fn key(pos: &Position) -> u64 {
    let mut key = if pos.side_to_move() == Color::White {
        WHITE_TO_MOVE
    } else {
        0
    };
    for color in Color::ALL {
        let own = pos.pieces[color.index()];
        key ^= fold(own & !pos.kings, &KEYS[kind(color, false)]);
        key ^= fold(own & pos.kings, &KEYS[kind(color, true)]);
    }
    key
}

/// The key after a move by the side to move of `before` (bits of the layout), from the key before it.
#[inline]
pub fn after(key: u64, before: &Position, from: u64, to: u64, captured: u64, crowns: bool) -> u64 {
    let side = before.side_to_move();
    let was_king = before.kings & from != 0;
    let from_bit = from.trailing_zeros() as usize;
    let to_bit = to.trailing_zeros() as usize;
    let mut key = key ^ WHITE_TO_MOVE;
    key ^= KEYS[kind(side, was_king)][from_bit];
    key ^= KEYS[kind(side, was_king || crowns)][to_bit];
    if captured != 0 {
        let them = side.opponent();
        key ^= fold(captured & !before.kings, &KEYS[kind(them, false)]);
        key ^= fold(captured & before.kings, &KEYS[kind(them, true)]);
    }
    key
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::parse_fen;

    #[test]
    fn incremental_keys_match_keys_from_scratch() {
        let mut pos: Position = Position::start();
        let mut k = key(&pos);
        let mut seen = std::collections::HashSet::new();
        for step in 0..200 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[step * 7 % moves.len()];
            let g = Position::<crate::rules::English>::GEOMETRY;
            let from = 1u64 << g.bit(m.from());
            let to = 1u64 << g.bit(m.to());
            let captured = m.captured().fold(0, |acc, s| acc | 1u64 << g.bit(s));
            k = after(k, &pos, from, to, captured, m.crowns());
            pos = pos.play(&m);
            assert_eq!(k, key(&pos), "after {m:?}");
            seen.insert(k);
        }
        assert!(seen.len() > 20);
        let a: Position = parse_fen("B:W21:B1").expect("valid");
        let b: Position = parse_fen("W:W21:B1").expect("valid");
        assert_ne!(key(&a), key(&b));
    }
}
