//! Zobrist keys: one random word per (piece kind, square) and one for the side to move, so that a position's
//! key is the XOR of the keys of what is on the board and can be updated move by move.

use super::rng::mix;
use crowned_rules::{Bits, Color, Position, RuleSet, Variant};

/// Bits of the widest layout: a 14x14 board takes 104, so 128 covers every board the rules know.
const LAYOUT_BITS: usize = 128;

/// Keys for black men, white men, black kings, white kings, per bit of the board layout. The first 64 of each
/// kind are the keys the 64-bit boards always had.
const fn table() -> [[u64; LAYOUT_BITS]; 4] {
    let mut keys = [[0u64; LAYOUT_BITS]; 4];
    let mut kind = 0;
    while kind < 4 {
        let mut bit = 0;
        while bit < LAYOUT_BITS {
            keys[kind][bit] = mix(0x5EED_0000_0000_0000 ^ ((kind as u64) << 8) ^ bit as u64);
            bit += 1;
        }
        kind += 1;
    }
    keys
}

static KEYS: [[u64; LAYOUT_BITS]; 4] = table();

/// XORed in when White is to move.
const WHITE_TO_MOVE: u64 = mix(0x5EED_0000_0000_1234);

/// XORed into every key of a rule set, so that the same layout under two rule sets (an 8x8 board is played by
/// seven of them) has two keys and one transposition table can serve every variant without mixing their
/// results. English keeps the keys it always had (no salt).
const fn salt<R: RuleSet>() -> u64 {
    if matches!(R::VARIANT, Variant::English) && R::GEOMETRY.width == 8 {
        0
    } else {
        mix(0x5A17_0000_0000_0000
            ^ ((R::VARIANT.game_type() as u64) << 16)
            ^ R::GEOMETRY.width as u64)
    }
}

fn kind(color: Color, king: bool) -> usize {
    color.index() + 2 * usize::from(king)
}

fn fold<B: Bits>(mut bits: B, keys: &[u64; LAYOUT_BITS]) -> u64 {
    let mut key = 0;
    while !bits.is_empty() {
        key ^= keys[bits.trailing_zeros() as usize];
        bits &= bits - B::ONE;
    }
    key
}

/// The key of a position, computed from scratch.
pub fn key<R: RuleSet>(pos: &Position<R>) -> u64 {
    let mut key = const { salt::<R>() };
    if pos.side_to_move() == Color::White {
        key ^= WHITE_TO_MOVE;
    }
    for color in Color::ALL {
        let own = pos.pieces[color.index()];
        key ^= fold(own & !pos.kings, &KEYS[kind(color, false)]);
        key ^= fold(own & pos.kings, &KEYS[kind(color, true)]);
    }
    key
}

/// The key after a move by the side to move of `before` (bits of the layout), from the key before it.
#[inline]
pub fn after<R: RuleSet>(
    key: u64,
    before: &Position<R>,
    from: R::Bits,
    to: R::Bits,
    captured: R::Bits,
    crowns: bool,
) -> u64 {
    let side = before.side_to_move();
    let was_king = !(before.kings & from).is_empty();
    let from_bit = from.trailing_zeros() as usize;
    let to_bit = to.trailing_zeros() as usize;
    let mut key = key ^ WHITE_TO_MOVE;
    key ^= KEYS[kind(side, was_king)][from_bit];
    key ^= KEYS[kind(side, was_king || crowns)][to_bit];
    if !captured.is_empty() {
        let them = side.opponent();
        key ^= fold(captured & !before.kings, &KEYS[kind(them, false)]);
        key ^= fold(captured & before.kings, &KEYS[kind(them, true)]);
    }
    key
}

#[cfg(test)]
mod tests {
    use super::*;
    use crowned_rules::{Canadian, English, International, Russian, parse_fen};

    fn walk<R: RuleSet>(stride: usize) -> usize {
        let mut pos: Position<R> = Position::start();
        let mut k = key(&pos);
        let mut seen = std::collections::HashSet::new();
        for step in 0..200 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[step * stride % moves.len()];
            let g = R::GEOMETRY;
            let from = R::Bits::bit(g.bit(m.from()));
            let to = R::Bits::bit(g.bit(m.to()));
            let captured = m
                .captured()
                .fold(R::Bits::ZERO, |acc, s| acc | R::Bits::bit(g.bit(s)));
            k = after(k, &pos, from, to, captured, m.crowns());
            pos = pos.play(&m);
            assert_eq!(k, key(&pos), "after {m:?}");
            seen.insert(k);
        }
        seen.len()
    }

    #[test]
    fn incremental_keys_match_keys_from_scratch() {
        assert!(walk::<English>(7) > 20);
        assert!(walk::<International>(5) > 20);
        assert!(walk::<Russian>(3) > 20);
        assert!(walk::<Canadian>(7) > 20);
        let a: Position = parse_fen("B:W21:B1").expect("valid");
        let b: Position = parse_fen("W:W21:B1").expect("valid");
        assert_ne!(key(&a), key(&b));
    }

    #[test]
    fn english_keys_are_unsalted_and_other_rules_differ() {
        let english: Position = Position::start();
        let russian: Position<Russian> = Position::start();
        assert_eq!(salt::<English>(), 0);
        // The same men on the same layout bits, under other rules, have another key.
        assert_eq!(english.pieces, russian.pieces);
        assert_ne!(key(&english), key(&russian.with_side_to_move(Color::Black)));
    }
}
