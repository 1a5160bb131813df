//! Turkish draughts' fast generator against the general one: the same moves in the same order and form, and the
//! same perft, from the start, along random games, on scattered pieces, and against pydraughts' counts.

use super::reference::{TURKISH as PYDRAUGHTS, from_fen};
use crate::Color;
use crate::defined::{
    BUILTINS, DefinedMove, DefinedPosition, DefinedRules, builtin, legal_moves,
    legal_moves_general, perft, perft_general,
};

const TURKISH: &str = include_str!("../builtin/turkish.toml");

/// A small fixed-seed generator, so that the positions are the same on every run.
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

fn turkish() -> DefinedRules {
    let rules = builtin("turkish").expect("built in");
    assert!(rules.has_fast_turkish());
    rules
}

/// The two generators' moves, which must be the same list; returned for the caller to play.
fn same_moves(rules: &DefinedRules, pos: &DefinedPosition) -> Vec<DefinedMove> {
    let fast = legal_moves(rules, pos);
    assert_eq!(
        fast,
        legal_moves_general(rules, pos),
        "{:?} to move\n{}",
        pos.side,
        pos.diagram(rules)
    );
    fast
}

#[test]
fn the_built_in_and_copies_that_move_alike_get_the_fast_generator_and_no_other() {
    assert!(turkish().has_fast_turkish());
    // What does not change a move: the name, the pieces' names and looks, their values, the start, the ending.
    let renamed = TURKISH
        .replace("name = \"Turkish draughts\"", "name = \"Dama\"")
        .replace("glyph = \"⛀\"", "glyph = \"○\"")
        .replace("first = \"white\"", "first = \"black\"")
        .replace("\"a2\", ", "")
        .replace("quiet_moves = 0", "quiet_moves = 30")
        .replace("one_each_moves = 2", "one_each_moves = 3");
    let copy = DefinedRules::from_toml(&renamed).expect("reads");
    assert_ne!(copy, turkish());
    assert!(copy.has_fast_turkish());
    // Anything that does.
    for (from, to) in [
        ("may_reverse = false", "may_reverse = true"),
        ("removal = \"at-once\"", "removal = \"at-end\""),
        ("precedence = \"majority\"", "precedence = \"free\""),
        (
            "crowning = \"only-at-end\"",
            "crowning = \"continues-as-king\"",
        ),
        ("range = \"flying\"", "range = \"short\""),
        ("range = \"slide\"", "range = \"step\""),
        (
            "captures = { directions = [\"forward\", \"sideways\"] }",
            "captures = { directions = [\"forward\"] }",
        ),
        (
            "promotion = { to = \"king\" }",
            "promotion = { to = \"king\", row = 7 }",
        ),
        ("playable = \"all\"", "playable = \"all\"\nholes = [\"d4\"]"),
    ] {
        assert!(TURKISH.contains(from), "{from}");
        let changed = DefinedRules::from_toml(&TURKISH.replace(from, to)).expect(to);
        assert!(!changed.has_fast_turkish(), "{to}");
    }
    for (name, _) in BUILTINS.iter().filter(|(name, _)| *name != "turkish") {
        assert!(
            !builtin(name).expect("built in").has_fast_turkish(),
            "{name}"
        );
    }
}

#[test]
fn perft_from_the_start_agrees() {
    let rules = turkish();
    let start = DefinedPosition::start(&rules);
    for depth in 0..=6 {
        assert_eq!(
            perft(&rules, &start, depth),
            perft_general(&rules, &start, depth),
            "perft {depth}"
        );
    }
}

/// pydraughts' counts (the project's reference table) by both generators.
#[test]
fn both_generators_equal_pydraughts() {
    let rules = turkish();
    for (fen, expected) in PYDRAUGHTS {
        let pos = if *fen == "start" {
            DefinedPosition::start(&rules)
        } else {
            from_fen(&rules, fen)
        };
        for (depth, &count) in (1..).zip(expected.iter()) {
            assert_eq!(
                perft(&rules, &pos, depth),
                count,
                "fast, {fen} perft {depth}"
            );
            if depth <= 4 {
                let general = perft_general(&rules, &pos, depth);
                assert_eq!(general, count, "general, {fen} perft {depth}");
            }
        }
    }
}

/// Random games from the start: every position's moves are the same list, and its perft 2 (3 now and then) the
/// same count. The games reach kings, long captures and crowning in a capture.
#[test]
fn random_games_agree() {
    let rules = turkish();
    let king = rules.kind_index("king").expect("king");
    let mut rng = Lcg(0x7e4b);
    let (mut kings, mut long, mut crowned, mut plies) = (0, 0, 0, 0);
    for game in 0..60 {
        let mut pos = DefinedPosition::start(&rules);
        for ply in 0..200 {
            let moves = same_moves(&rules, &pos);
            let deep = if ply % 8 == 3 { 3 } else { 2 };
            assert_eq!(
                perft(&rules, &pos, deep),
                perft_general(&rules, &pos, deep),
                "game {game} ply {ply}\n{}",
                pos.diagram(&rules)
            );
            if moves.is_empty() {
                break;
            }
            plies += 1;
            kings += usize::from(pos.cells.iter().flatten().any(|&(_, k)| k == king));
            long += usize::from(moves[0].captured.len() >= 3);
            let mv = &moves[rng.below(moves.len())];
            let man = pos.cells[mv.from].is_some_and(|(_, k)| k != king);
            crowned += usize::from(man && mv.becomes == king && !mv.captured.is_empty());
            pos = pos.play(mv);
        }
    }
    let reached = format!(
        "{plies} plies: {kings} with kings, {long} with captures of 3 or more, {crowned} crownings in a capture"
    );
    println!("{reached}");
    assert!(kings > 500 && long > 20 && crowned > 3, "{reached}");
}

/// Deeper: perft 7 from the start (about ten million leaves, seconds for the general generator), and perft 4
/// along random games: `cargo test --profile fast --lib turkish_fast::deeper -- --ignored`.
#[test]
#[ignore = "seconds in an optimised build, minutes in a debug one"]
fn deeper() {
    let rules = turkish();
    let start = DefinedPosition::start(&rules);
    assert_eq!(perft(&rules, &start, 7), perft_general(&rules, &start, 7));
    let mut rng = Lcg(0xdee9);
    for game in 0..20 {
        let mut pos = DefinedPosition::start(&rules);
        for ply in 0..150 {
            if ply % 5 == 0 {
                assert_eq!(
                    perft(&rules, &pos, 4),
                    perft_general(&rules, &pos, 4),
                    "game {game} ply {ply}\n{}",
                    pos.diagram(&rules)
                );
            }
            let moves = same_moves(&rules, &pos);
            if moves.is_empty() {
                break;
            }
            pos = pos.play(&moves[rng.below(moves.len())]);
        }
    }
}

/// Scattered men and kings, crowded enough for long flying captures, men anywhere (a FEN may put them on either
/// edge): the same moves and perft 2 on each.
#[test]
fn scattered_pieces_agree() {
    let rules = turkish();
    let mut rng = Lcg(0x5ca7);
    let mut long = 0;
    for n in 0..3000 {
        let side = if n % 2 == 0 {
            Color::White
        } else {
            Color::Black
        };
        let mut pos = DefinedPosition::empty(&rules, side);
        for _ in 0..2 + rng.below(30) {
            let color = if rng.below(3) == 0 {
                side
            } else {
                side.opponent()
            };
            let kind = usize::from(rng.below(3) == 0);
            pos.cells[rng.below(64)] = Some((color, kind));
        }
        let moves = same_moves(&rules, &pos);
        long += usize::from(moves.first().is_some_and(|m| m.captured.len() >= 4));
        assert_eq!(
            perft(&rules, &pos, 2),
            perft_general(&rules, &pos, 2),
            "{side:?} to move\n{}",
            pos.diagram(&rules)
        );
    }
    println!("{long} positions of 3000 with captures of 4 or more");
    assert!(long > 50, "{long} positions with captures of 4 or more");
}

/// Positions that do not fit the rules have no moves in either generator, and perft 0 is still 1.
#[test]
fn positions_that_do_not_fit_have_no_moves() {
    let rules = turkish();
    let mut pos = DefinedPosition::start(&rules);
    pos.cells[0] = Some((Color::White, 2));
    assert!(same_moves(&rules, &pos).is_empty());
    assert_eq!(perft(&rules, &pos, 2), 0);
    assert_eq!(perft(&rules, &pos, 0), 1);
    pos.cells.truncate(10);
    assert!(same_moves(&rules, &pos).is_empty());
    assert_eq!(perft(&rules, &pos, 1), 0);
    let empty = DefinedPosition::empty(&rules, Color::Black);
    assert!(same_moves(&rules, &empty).is_empty());
    assert_eq!(perft(&rules, &empty, 3), 0);
}

/// A king that may stop on several squares behind a piece and then take straight on: one move per end, written
/// with the first of those squares, as the general generator lists it; each square it stops on is a move of its
/// own only where the capture ends there.
#[test]
fn routes_through_any_square_behind_a_piece_are_one_move() {
    let rules = turkish();
    let mut pos = DefinedPosition::empty(&rules, Color::White);
    let at = |name: &str| rules.cell_named("test", name).expect("a square");
    let king = rules.kind_index("king").expect("king");
    pos.cells[at("a1")] = Some((Color::White, king));
    for name in ["a2", "a6"] {
        pos.cells[at(name)] = Some((Color::Black, 0));
    }
    let moves = same_moves(&rules, &pos);
    // Over a2 to any of a3-a5, then over a6 to a7 or a8: two moves, by a3.
    assert_eq!(moves.len(), 2, "{moves:?}");
    for m in &moves {
        assert_eq!(m.path[0], at("a3"), "{m:?}");
        assert_eq!(m.captured, [at("a2"), at("a6")]);
    }
    // With a piece to take beside a4 as well, stopping on a4 is a route of its own (it turns there).
    pos.cells[at("b4")] = Some((Color::Black, 0));
    pos.cells[at("a6")] = None;
    pos.cells[at("d4")] = Some((Color::Black, 0));
    let moves = same_moves(&rules, &pos);
    // Over a2 to a4, over b4 to c4, over d4 to any of e4-h4.
    assert!(
        moves.iter().all(|m| m.path[..2] == [at("a4"), at("c4")]),
        "{moves:?}"
    );
    assert_eq!(moves.len(), 4, "{moves:?}");
}

/// A man on the far row (set up so) that steps sideways is crowned by the step, in both generators.
#[test]
fn a_man_stepping_along_the_far_row_is_crowned() {
    let rules = turkish();
    let king = rules.kind_index("king").expect("king");
    let mut pos = DefinedPosition::empty(&rules, Color::Black);
    pos.cells[rules.cell_named("test", "d1").expect("d1")] = Some((Color::Black, 0));
    let moves = same_moves(&rules, &pos);
    assert_eq!(moves.len(), 2, "{moves:?}");
    assert!(moves.iter().all(|m| m.becomes == king));
}

/// The general and fast Turkish generators and international draughts' fast generator on perft from their
/// starts, in one run, for the record: `cargo test --profile fast --lib turkish_fast::speed -- --ignored
/// --nocapture`.
#[test]
#[ignore = "a timing, not a check"]
fn speed() {
    use crate::{Duplicates, International, Position, perft as fast_perft};
    use std::time::Instant;
    fn report(what: &str, depth: u32, run: impl Fn() -> u64) -> f64 {
        let began = Instant::now();
        let leaves = run();
        let seconds = began.elapsed().as_secs_f64().max(1e-9);
        let rate = leaves as f64 / seconds;
        println!(
            "{what} perft {depth} = {leaves}: {seconds:.3} s, {:.2} M leaves/s",
            rate / 1e6
        );
        rate
    }
    let rules = turkish();
    let start = DefinedPosition::start(&rules);
    let general = report("turkish general", 6, || perft_general(&rules, &start, 6));
    let fast = report("turkish fast", 7, || perft(&rules, &start, 7));
    let international = Position::<International>::start();
    let bitboard = report("international fast", 8, || {
        fast_perft(&international, 8, Duplicates::Keep)
    });
    println!(
        "turkish fast / general: {:.0}x; international fast / turkish fast: {:.1}x",
        fast / general,
        bitboard / fast
    );
}
