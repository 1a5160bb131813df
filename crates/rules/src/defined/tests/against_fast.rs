//! The general generator against the fast one, on every built-in variant: the two share no code, so agreement
//! checks both.

use super::from_fast;
use crate::defined::{BUILTINS, DefinedPosition, builtin, perft};
use crate::{
    Brazilian, Canadian, Color, Czech, Duplicates, English, EnglishOn, International, Italian,
    Piece, Pool, Position, Role, RuleSet, Russian, Spanish, Square, Thai, perft as fast_perft,
};

/// A small fixed-seed generator, so that the random games are the same on every run.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

/// The start positions agree, perft from the start agrees to `depth`, and along a few random games every
/// position's perft agrees to depth 2 (with the positions converted from the fast board).
fn agrees<R: RuleSet>(name: &str, depth: u32) {
    let rules = builtin(name).expect("a built-in definition");
    let start = Position::<R>::start();
    assert_eq!(
        from_fast(&rules, &start),
        DefinedPosition::start(&rules),
        "{name} start"
    );
    let ours = DefinedPosition::start(&rules);
    for d in 1..=depth {
        assert_eq!(
            perft(&rules, &ours, d),
            fast_perft(&start, d, Duplicates::Keep),
            "{name} perft {d} from the start"
        );
    }
    let mut rng = Lcg(0x5eed ^ name.len() as u64);
    let (mut kings, mut captures) = (0, 0);
    for game in 0..4 {
        let mut pos = start;
        for ply in 0..120 {
            let defined = from_fast(&rules, &pos);
            // Deeper now and then: the third ply is where most rule differences would show.
            let deep = if ply % 10 == 5 { 3 } else { 2 };
            assert_eq!(
                perft(&rules, &defined, deep),
                fast_perft(&pos, deep, Duplicates::Keep),
                "{name} game {game} ply {ply}: {pos:?}"
            );
            let moves = pos.legal_moves_with_duplicates();
            if moves.is_empty() {
                break;
            }
            kings += usize::from(pos.pieces().any(|(_, p)| p.role == Role::King));
            captures += usize::from(moves[0].is_capture());
            pos = pos.play(&moves[rng.below(moves.len())]);
        }
    }
    // The games reach the parts of the rules the start does not: kings and captures.
    assert!(
        kings > 10 && captures > 10,
        "{name}: {kings} plies with kings, {captures} with captures"
    );
}

/// Positions of scattered men and kings, crowded enough for long capture routes: perft 2 agrees on each. Men
/// are kept off the row they would be crowned on, where no game puts them.
fn agrees_on_scattered_pieces<R: RuleSet>(name: &str, positions: usize) {
    let rules = builtin(name).expect("a built-in definition");
    let g = R::GEOMETRY;
    let mut rng = Lcg(0xb0a2d ^ name.len() as u64);
    for n in 0..positions {
        let side = if n % 2 == 0 {
            Color::White
        } else {
            Color::Black
        };
        let mut pos = Position::<R>::empty(side);
        for _ in 0..4 + rng.below(14) {
            let square = Square::from_index(rng.below(g.squares() as usize) as u8);
            let color = if rng.below(2) == 0 {
                Color::White
            } else {
                Color::Black
            };
            let on_far_row = g.row_col(square).0 == Position::<R>::crowning_row(color);
            let role = if on_far_row || rng.below(3) == 0 {
                Role::King
            } else {
                Role::Man
            };
            pos.set_piece(square, Some(Piece::new(color, role)));
        }
        assert_eq!(
            perft(&rules, &from_fast(&rules, &pos), 2),
            fast_perft(&pos, 2, Duplicates::Keep),
            "{name}: {pos:?}"
        );
    }
}

#[test]
fn scattered_pieces() {
    agrees_on_scattered_pieces::<English>("english", 300);
    agrees_on_scattered_pieces::<International>("international", 300);
    agrees_on_scattered_pieces::<Brazilian>("brazilian", 300);
    agrees_on_scattered_pieces::<Canadian>("canadian", 200);
    agrees_on_scattered_pieces::<Russian>("russian", 300);
    agrees_on_scattered_pieces::<Pool>("pool", 300);
    agrees_on_scattered_pieces::<Czech>("czech", 300);
    agrees_on_scattered_pieces::<Spanish>("spanish", 300);
    agrees_on_scattered_pieces::<Italian>("italian", 300);
    agrees_on_scattered_pieces::<Thai>("thai", 300);
    agrees_on_scattered_pieces::<EnglishOn<10>>("english-10", 200);
}

#[test]
fn english() {
    agrees::<English>("english", 5);
}

#[test]
fn english_on_other_boards() {
    agrees::<EnglishOn<6>>("english-6", 5);
    agrees::<EnglishOn<10>>("english-10", 4);
    agrees::<EnglishOn<12>>("english-12", 3);
    agrees::<EnglishOn<14>>("english-14", 3);
}

#[test]
fn international() {
    agrees::<International>("international", 4);
}

#[test]
fn antidraughts_and_breakthrough_move_as_international_and_end_by_their_goals() {
    use crate::{Antidraughts, Breakthrough, parse_fen};
    agrees::<Antidraughts>("antidraughts", 3);
    agrees::<Breakthrough>("breakthrough", 3);
    // The winners the definitions name are the fast rules' (checked by the game record in tests/rules/goals.rs).
    let anti = builtin("antidraughts").expect("built in");
    let blocked: Position<Antidraughts> = parse_fen("W:W6:B1").expect("FEN");
    assert_eq!(from_fast(&anti, &blocked).winner(&anti), Some(Color::White));
    let breakthrough = builtin("breakthrough").expect("built in");
    let crowned: Position<Breakthrough> = parse_fen("B:WK1:B45").expect("FEN");
    assert_eq!(
        from_fast(&breakthrough, &crowned).winner(&breakthrough),
        Some(Color::White)
    );
    let international = builtin("international").expect("built in");
    let plain: Position<International> = parse_fen("B:WK1:B45").expect("FEN");
    assert_eq!(
        from_fast(&international, &plain).winner(&international),
        None
    );
}

/// Frisian captures along files and ranks and its value precedence, in both generators; Frysk! is the same
/// rules from another start.
#[test]
fn frisian_and_frysk() {
    use crate::{Frisian, Frysk};
    agrees::<Frisian>("frisian", 4);
    agrees_on_scattered_pieces::<Frisian>("frisian", 400);
    // Frysk!'s random games are over (all taken) before they make kings: its start and tree only.
    let frysk = builtin("frysk").expect("a built-in definition");
    let start = Position::<Frysk>::start();
    assert_eq!(from_fast(&frysk, &start), DefinedPosition::start(&frysk));
    for d in 1..=7 {
        assert_eq!(
            perft(&frysk, &DefinedPosition::start(&frysk), d),
            fast_perft(&start, d, Duplicates::Keep),
            "frysk perft {d} from the start"
        );
    }
}

#[test]
fn brazilian() {
    agrees::<Brazilian>("brazilian", 5);
}

#[test]
fn canadian() {
    agrees::<Canadian>("canadian", 3);
}

#[test]
fn russian() {
    agrees::<Russian>("russian", 5);
}

#[test]
fn pool() {
    agrees::<Pool>("pool", 5);
}

#[test]
fn czech() {
    agrees::<Czech>("czech", 5);
}

#[test]
fn spanish() {
    agrees::<Spanish>("spanish", 5);
}

#[test]
fn italian() {
    agrees::<Italian>("italian", 5);
}

#[test]
fn thai() {
    agrees::<Thai>("thai", 5);
}

/// The published counts the project holds (the shared perft tables), at small depths.
#[test]
fn published_counts() {
    let table: &[(&str, &[u64])] = &[
        ("english", &[7, 49, 302, 1469, 7361]),
        ("international", &[9, 81, 658, 4265]),
        ("russian", &[7, 49, 302, 1469, 7482]),
        ("brazilian", &[7, 49, 302, 1469, 7473]),
        ("pool", &[7, 49, 302, 1469, 7482]),
    ];
    for (name, counts) in table {
        let rules = builtin(name).expect("a built-in definition");
        let start = DefinedPosition::start(&rules);
        for (depth, expected) in (1..).zip(counts.iter()) {
            assert_eq!(
                perft(&rules, &start, depth),
                *expected,
                "{name} perft {depth}"
            );
        }
    }
    // Czech, Spanish and Italian are published from depth 5.
    for (name, expected) in [("czech", 7361), ("spanish", 7361), ("italian", 7361)] {
        let rules = builtin(name).expect("a built-in definition");
        assert_eq!(
            perft(&rules, &DefinedPosition::start(&rules), 5),
            expected,
            "{name}"
        );
    }
}

#[test]
fn every_builtin_reads() {
    for (name, _) in BUILTINS {
        builtin(name).unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}

/// The two generators' speed on the same count, for the record: `cargo test --profile fast --lib
/// rules::defined::tests::against_fast::speed -- --ignored --nocapture`.
#[test]
#[ignore = "a timing, not a check"]
fn speed() {
    fn time<R: RuleSet>(name: &str, depth: u32) {
        let rules = builtin(name).expect("a built-in definition");
        let start = std::time::Instant::now();
        let ours = perft(&rules, &DefinedPosition::start(&rules), depth);
        let general = start.elapsed();
        let start = std::time::Instant::now();
        let fast = fast_perft(&Position::<R>::start(), depth, Duplicates::Keep);
        let bitboard = start.elapsed();
        assert_eq!(ours, fast);
        println!(
            "{name} perft {depth} = {ours}: general {general:?}, fast {bitboard:?}, ratio {:.0}",
            general.as_secs_f64() / bitboard.as_secs_f64().max(1e-9)
        );
    }
    time::<English>("english", 9);
    time::<International>("international", 6);
}
