//! The general generator against an independent implementation: pydraughts, a Python draughts library that shares
//! nothing with crowned. Its counts were computed once by `crates/reference/pydraughts_perft.py` (pydraughts 0.6.7,
//! run as that script's header says) and are quoted here like a published table; none comes from crowned.
//!
//! pydraughts lists every route of a flying king separately (one per square it stops on between two captures);
//! the script counts moves as crowned's `perft` does, once per start, order of pieces taken and end, and the
//! counts below are those. Its numbering of squares (the playable squares row by row from the top, left to right,
//! 1 first) is read by [`from_fen`]. Two bugs of pydraughts are corrected by the script: its Turkish kings' quiet
//! moves pass over pieces along their line; the script drops those moves (see its `passes_over_a_piece`), which
//! takes its Turkish start perft 5 from 85146 to 85090. And its Frisian choice of the most valuable capture adds
//! float values whose sum depends on the order of capture; the script adds them exactly (`frisian_legal`).
//!
//! pydraughts lists moves after a breakthrough game has ended (a side has crowned): the script counts a position it
//! says is over as having none, as the game and crowned's count do.
//!
//! Frisian men and kings that can go round a ring of pieces either way take the same pieces in another order, so
//! these counts, like crowned's, keep both routes (dctl's unique counts differ from depth 4: the fast generator's
//! tests hold both).

use crate::Color;
use crate::defined::{DefinedPosition, DefinedRules, builtin, perft};

/// A position from PDN FEN as pydraughts writes it (`W:W18,K30:B5,K1`: side to move, then each side's squares,
/// `K` for a king), square `n` being the `n`th playable cell counted row by row from the top. Men are the kind
/// named `man`, kings the kind named `king`.
pub(super) fn from_fen(rules: &DefinedRules, fen: &str) -> DefinedPosition {
    let cells: Vec<usize> = (0..rules.playable.len())
        .filter(|&c| rules.playable[c])
        .collect();
    let man = rules.kind_index("man").expect("a kind named man");
    let king = rules.kind_index("king").expect("a kind named king");
    let mut fields = fen.split(':');
    let side = match fields.next() {
        Some("W") => Color::White,
        Some("B") => Color::Black,
        other => panic!("{fen}: no side to move ({other:?})"),
    };
    let mut pos = DefinedPosition::empty(rules, side);
    for field in fields {
        let (color, squares) = match field.split_at(1) {
            ("W", rest) => (Color::White, rest),
            ("B", rest) => (Color::Black, rest),
            _ => panic!("{fen}: {field:?} is not a side's squares"),
        };
        for square in squares.split(',').filter(|s| !s.is_empty()) {
            let (kind, number) = match square.strip_prefix('K') {
                Some(number) => (king, number),
                None => (man, square),
            };
            let n: usize = number.parse().expect("a square number");
            pos.cells[cells[n - 1]] = Some((color, kind));
        }
    }
    pos
}

/// perft from `pos` to each depth, as many as `expected` holds.
fn counts(rules: &DefinedRules, pos: &DefinedPosition, expected: &[u64]) -> Vec<u64> {
    (1..=expected.len() as u32)
        .map(|d| perft(rules, pos, d))
        .collect()
}

/// Each variant's start and set-up positions against pydraughts' counts; `deep` takes every depth the script gave,
/// otherwise the first `shallow` of each.
fn agrees(name: &str, table: &[(&str, &[u64])], shallow: usize, deep: bool) {
    let rules = builtin(name).expect("a built-in definition");
    for (fen, expected) in table {
        let pos = if *fen == "start" {
            DefinedPosition::start(&rules)
        } else {
            from_fen(&rules, fen)
        };
        let expected = if deep {
            expected
        } else {
            &expected[..shallow.min(expected.len())]
        };
        assert_eq!(
            counts(&rules, &pos, expected),
            expected,
            "{name} from {fen}\n{}",
            pos.diagram(&rules)
        );
    }
}

// pydraughts' counts, from `crates/reference/pydraughts_perft.py` (pydraughts 0.6.7). pydraughts' variant names:
// "standard" is international draughts; the rest are crowned's names. English in pydraughts starts with White at
// the bottom to move, the colours of crowned's English swapped and the board turned, which counts the same.

pub(super) const TURKISH: &[(&str, &[u64])] = &[
    ("start", &[8, 64, 708, 7538, 85090]),
    (
        "W:WK57,44,45,30:B28,20,12,36,35,22,14",
        &[19, 37, 388, 1279],
    ),
    (
        "W:WK36,51:B35,19,21,28,13,44,46,54",
        &[10, 168, 1320, 16668],
    ),
    ("W:W19,K64:B11,4,6,43,22", &[1, 6, 142, 819]),
    ("B:WK29,K40,50,51,53:BK20,27,38,43,K9", &[1, 4, 112, 2788]),
    ("W:WK41,51:B43,45,28,18,33,13", &[3, 9, 137, 404]),
    ("W:WK36,55:B20,52,22,15", &[1, 6, 102, 776]),
];

const INTERNATIONAL: &[(&str, &[u64])] = &[
    ("start", &[9, 81, 658, 4265]),
    ("W:WK46,28,33,34,39:B9,12,17,19,22,23,K45", &[6, 10, 26, 90]),
    ("W:W6,7,31,32,K50:B11,12,21,22,K3,36", &[2, 2, 22, 204]),
    (
        "B:W20,21,22,29,31,32,33,K48:B2,7,13,K4,K44",
        &[4, 33, 430, 3542],
    ),
];

const ENGLISH: &[(&str, &[u64])] = &[
    ("start", &[7, 49, 302, 1469, 7361, 36768]),
    (
        "B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29",
        &[5, 38, 178, 1378, 5836],
    ),
];

const ITALIAN: &[(&str, &[u64])] = &[
    ("start", &[7, 49, 302, 1469, 7361, 36473]),
    ("W:W21,22,23,K30,28:B10,14,15,18,K6,K9", &[1, 1, 5, 32]),
];

const RUSSIAN: &[(&str, &[u64])] = &[
    ("start", &[7, 49, 302, 1469, 7482, 37986]),
    ("W:W18,19,27,K30:B5,6,7,14,22,K1", &[3, 9, 83, 484]),
];

const BRAZILIAN: &[(&str, &[u64])] = &[
    ("start", &[7, 49, 302, 1469, 7473]),
    ("W:W18,19,27,K30:B5,6,7,14,22,K1", &[1, 1, 9, 55]),
];

const ANTIDRAUGHTS: &[(&str, &[u64])] = &[("start", &[9, 81, 658, 4265])];

/// Breakthrough ends when a side crowns: pydraughts goes on listing moves after it (its `legal_moves` does not
/// ask whether the game is over), so the script counts a position it calls over (`is_over`) as having none, as
/// the game does. Positions with the end inside the tree: crowning by a plain move, by a capture ending on the
/// far row, and captures that pass the far row and end as a man.
const BREAKTHROUGH: &[(&str, &[u64])] = &[
    ("start", &[9, 81, 658, 4265]),
    (
        "B:W28,31,33,34,36,37,38,41,42,43,45,46,49,50:B1,3,4,5,6,7,8,10,11,12,13,21,24,30",
        &[1, 0, 0],
    ),
    ("W:W7,32,37,38:B4,19,23,44", &[6, 23, 100, 437]),
    ("W:W12,31,48:B2,19,38", &[6, 16, 38, 94]),
    ("W:W15,22,36,45,47:B3,9,10,18,26,34", &[2, 2, 12, 45]),
    ("B:W20,31,35,42,43,50:B1,5,14,26,39", &[2, 2, 6, 20]),
];

/// Kings of both sides capturing along diagonals, files and ranks. In the third position a white king takes all
/// five black pieces by 38 routes (23 moves by order of capture); pydraughts' own choice of the most valuable
/// capture keeps 23 routes, as its float values depend on the order the pieces are added in: the script adds
/// them exactly (its `frisian_legal`), and an enumeration written from the rules alone finds the same 38.
const FRISIAN: &[(&str, &[u64])] = &[
    ("start", &[9, 81, 658, 3880]),
    ("W:W31,32,33,K46,28:B17,18,22,23,K3", &[1, 3, 20]),
    ("W:WK44,K11,27:BK6,23,8,28", &[8, 19, 86]),
    ("B:WK48,K5,11,41,18:BK31,K24,12,15,3", &[4, 51, 87]),
    ("W:WK7,K24,33:BK46,40,9,23", &[7, 58, 154]),
];

/// A side left without a move (it wins) inside the tree.
const ANTIDRAUGHTS_ENDS: &[(&str, &[u64])] = &[("B:W27,28,33:B17,21,22", &[1, 2, 3, 0])];

const FRYSK: &[(&str, &[u64])] = &[("start", &[9, 81, 657, 5329, 41829])];

#[test]
fn turkish_equals_pydraughts() {
    agrees("turkish", TURKISH, 4, false);
}

#[test]
fn international_equals_pydraughts() {
    agrees("international", INTERNATIONAL, 3, false);
}

#[test]
fn the_8x8_diagonal_variants_equal_pydraughts() {
    agrees("english", ENGLISH, 4, false);
    agrees("italian", ITALIAN, 4, false);
    agrees("russian", RUSSIAN, 4, false);
    agrees("brazilian", BRAZILIAN, 4, false);
}

#[test]
fn antidraughts_and_breakthrough_equal_pydraughts() {
    agrees("antidraughts", ANTIDRAUGHTS, 3, false);
    agrees("antidraughts", ANTIDRAUGHTS_ENDS, 4, false);
    agrees("breakthrough", BREAKTHROUGH, 4, false);
}

#[test]
fn frisian_and_frysk_equal_pydraughts() {
    agrees("frisian", FRISIAN, 3, false);
    agrees("frysk", FRYSK, 4, false);
}

/// The fast generators against the same counts, at the set-up positions where a game ends inside the tree or
/// kings capture along every line.
#[test]
fn the_fast_generators_equal_pydraughts_where_games_end_and_kings_turn() {
    use crate::{Antidraughts, Breakthrough, Duplicates, Frisian, Position, RuleSet, parse_fen};
    fn fast<R: RuleSet>(table: &[(&str, &[u64])]) {
        for (fen, expected) in table.iter().filter(|(fen, _)| *fen != "start") {
            let pos: Position<R> = parse_fen(fen).expect("FEN");
            let found: Vec<u64> = (1..=expected.len() as u32)
                .map(|depth| crate::perft(&pos, depth, Duplicates::Keep))
                .collect();
            assert_eq!(found, *expected, "{fen}");
        }
    }
    fast::<Breakthrough>(BREAKTHROUGH);
    fast::<Frisian>(FRISIAN);
    fast::<Antidraughts>(ANTIDRAUGHTS_ENDS);
}

/// Every depth the script gave (Turkish to 5 from the start, English, Italian and Russian to 6): slow in a debug
/// build; `cargo test --profile fast --lib reference -- --ignored`.
#[test]
#[ignore]
fn every_variant_equals_pydraughts_deeper() {
    for (name, table) in [
        ("turkish", TURKISH),
        ("international", INTERNATIONAL),
        ("english", ENGLISH),
        ("italian", ITALIAN),
        ("russian", RUSSIAN),
        ("brazilian", BRAZILIAN),
        ("antidraughts", ANTIDRAUGHTS),
        ("antidraughts", ANTIDRAUGHTS_ENDS),
        ("breakthrough", BREAKTHROUGH),
        ("frisian", FRISIAN),
        ("frysk", FRYSK),
    ] {
        agrees(name, table, 0, true);
    }
}
