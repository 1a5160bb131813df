//! Write-then-read identities for FEN and move notation, and readers that never panic, checked on random
//! positions and random text.
//!
//! The tests without `#[ignore]` run a modest number of cases for every build; the ignored ones run the same
//! properties on many more cases: `cargo test --profile fast --test rules notation_roundtrip -- --ignored`.

use crate::common;

use crowned::rules::{
    Canadian, Color, English, International, MoveText, Piece, Position, Role, RuleSet, Russian,
    Square, SquareStyle, Strictness, check_position, full_route, max_pieces, parse_fen, to_fen,
    write_move,
};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};

/// Cases for each property in an ordinary test run.
const QUICK: u32 = 96;
/// Cases for each property in the long, ignored run.
const LONG: u32 = 50_000;

const G: crowned::rules::Geometry = Position::<English>::GEOMETRY;

/// Random legal English positions: up to twelve pieces a side, men and kings anywhere but men never on their
/// crowning row, either side to move. Dense enough for long capture routes.
fn legal_position() -> impl Strategy<Value = Position> {
    (prop::collection::vec(0u8..7, 32), any::<bool>()).prop_map(|(cells, black)| {
        let side = if black { Color::Black } else { Color::White };
        let mut pos: Position = Position::empty(side);
        let mut counts = [0u32; 2];
        for (i, cell) in cells.into_iter().enumerate() {
            let square = Square::from_index(i as u8);
            let row = G.row_col(square).0;
            let piece = match cell {
                0 if row != Position::<English>::crowning_row(Color::Black) => {
                    Piece::new(Color::Black, Role::Man)
                }
                1 if row != Position::<English>::crowning_row(Color::White) => {
                    Piece::new(Color::White, Role::Man)
                }
                2 => Piece::new(Color::Black, Role::King),
                3 => Piece::new(Color::White, Role::King),
                _ => continue,
            };
            let count = &mut counts[piece.color.index()];
            if *count < max_pieces::<English>() {
                *count += 1;
                pos.set_piece(square, Some(piece));
            }
        }
        pos
    })
}

/// Legal positions: set up at random, or reached by random play from the start.
fn any_legal_position() -> impl Strategy<Value = Position> {
    prop_oneof![legal_position(), common::played_position(120)]
}

/// Positions worth writing moves for: the legal ones, and crowded boards beyond the piece limit (which the move
/// generator and the notation handle all the same) for long capture routes.
fn any_position() -> impl Strategy<Value = Position> {
    prop_oneof![any_legal_position(), common::arbitrary_position()]
}

fn run<S: Strategy>(cases: u32, strategy: S, test: impl Fn(S::Value) -> Result<(), TestCaseError>) {
    let mut runner = TestRunner::new(Config::with_cases(cases));
    if let Err(e) = runner.run(&strategy, test) {
        panic!("{e}");
    }
}

/// FEN written for a legal position reads back as the same position.
fn fen_round_trip(cases: u32) {
    run(cases, any_legal_position(), |pos| {
        prop_assert_eq!(check_position(&pos), Ok(()));
        written_fen_reads_back(&pos)
    });
}

/// FEN written for positions of the larger boards (10x10, 12x12) and another 8x8 rule set, reached by random
/// play from their starts, reads back as the same position.
fn fen_round_trip_on_other_boards(cases: u32) {
    run(cases, played_of::<International>(160), |pos| {
        written_fen_reads_back(&pos)
    });
    run(cases, played_of::<Canadian>(200), |pos| {
        written_fen_reads_back(&pos)
    });
    run(cases, played_of::<Russian>(120), |pos| {
        written_fen_reads_back(&pos)
    });
}

/// Positions of `R` reached by random play from its start: runs of men early, scattered men and kings later.
fn played_of<R: RuleSet>(max_plies: usize) -> impl Strategy<Value = Position<R>> {
    prop::collection::vec(any::<prop::sample::Index>(), 0..max_plies).prop_map(|choices| {
        let mut pos = Position::<R>::start();
        for choice in choices {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos = pos.play(&moves[choice.index(moves.len())]);
        }
        pos
    })
}

/// The FEN written for `pos` reads back as `pos`, is never longer than the squares listed one by one, and writes
/// every run of three or more squares of one kind of piece as one range.
fn written_fen_reads_back<R: RuleSet>(pos: &Position<R>) -> Result<(), TestCaseError> {
    let fen = to_fen(pos);
    prop_assert_eq!(parse_fen::<R>(&fen), Ok(*pos), "{}", fen);
    let one_by_one = square_by_square(pos);
    prop_assert_eq!(parse_fen::<R>(&one_by_one), Ok(*pos), "{}", one_by_one);
    prop_assert!(fen.len() <= one_by_one.len(), "{} {}", fen, one_by_one);
    for list in fen.split(':').skip(1) {
        let entries: Vec<(bool, u32, u32)> = list[1..]
            .split(',')
            .filter(|e| !e.is_empty())
            .map(|entry| {
                let king = entry.starts_with('K');
                let numbers = entry.trim_start_matches('K');
                let (first, last) = numbers.split_once('-').unwrap_or((numbers, numbers));
                (king, first.parse().unwrap_or(0), last.parse().unwrap_or(0))
            })
            .collect();
        for pair in entries.windows(2) {
            let ((king_a, first_a, last_a), (king_b, first_b, last_b)) = (pair[0], pair[1]);
            if king_a == king_b && last_a + 1 == first_b {
                // Only two single squares in a row may stand apart (a range would be no shorter).
                prop_assert!(
                    first_a == last_a && first_b == last_b,
                    "{} in {}",
                    list,
                    fen
                );
            }
        }
        for triple in entries.windows(3) {
            let continues = |a: (bool, u32, u32), b: (bool, u32, u32)| a.0 == b.0 && a.2 + 1 == b.1;
            prop_assert!(
                !(continues(triple[0], triple[1]) && continues(triple[1], triple[2])),
                "three in a row unranged: {}",
                fen
            );
        }
    }
    Ok(())
}

/// `pos` in FEN with every square listed on its own, as the canonical form once was.
fn square_by_square<R: RuleSet>(pos: &Position<R>) -> String {
    let mut out = pos.side_to_move().letter().to_string();
    for color in [Color::White, Color::Black] {
        out.push(':');
        out.push(color.letter());
        let squares: Vec<String> = pos
            .pieces()
            .filter(|(_, p)| p.color == color)
            .map(|(square, p)| match p.role {
                Role::King => format!("K{square}"),
                Role::Man => square.to_string(),
            })
            .collect();
        out.push_str(&squares.join(","));
    }
    out
}

/// Text near FEN (its letters, digits and punctuation) and any text at all: reading never panics, and whatever
/// is accepted is legal and writes back as a FEN that reads as the same position.
fn fen_reader_is_total(cases: u32) {
    let text = prop_oneof![
        "[BWKbwkHF0-9,:. \"-]{0,40}",
        "[BW]:[BW][K0-9,-]{0,30}:[BW][K0-9,-]{0,30}",
        any::<String>(),
    ];
    run(cases, text, |text| {
        if let Ok(pos) = parse_fen::<English>(&text) {
            prop_assert_eq!(check_position(&pos), Ok(()));
            prop_assert_eq!(parse_fen::<English>(&to_fen(&pos)), Ok(pos));
        }
        Ok(())
    });
}

/// Every legal move of a position, written short or in full, in numbers or in coordinates, reads back as that
/// move.
fn move_round_trip(cases: u32) {
    run(cases, any_position(), |pos| {
        for mv in pos.legal_moves_with_duplicates() {
            for style in SquareStyle::ALL {
                // The whole route names that very route.
                let route = full_route(&mv, style, G);
                let found =
                    MoveText::parse(&route, G).and_then(|t| t.find(&pos, Strictness::Exact));
                prop_assert_eq!(found, Ok(mv), "{} in {:?}", route, pos);
                // The short form names a move with the same effect (routes with one effect are one move).
                let short = write_move(&pos, &mv, style);
                let found = MoveText::parse(&short, G)
                    .and_then(|t| t.find(&pos, Strictness::Exact))
                    .map_err(|e| TestCaseError::fail(format!("{short} in {pos:?}: {e}")))?;
                prop_assert!(found.same_effect(&mv), "{} in {:?}", short, pos);
            }
        }
        Ok(())
    });
}

/// Text near move notation and any text at all: reading and finding never panic, and a move found is legal.
fn move_reader_is_total(cases: u32) {
    let text = prop_oneof![
        "[a-j0-9xX:\\- ]{0,24}",
        "[0-9]{1,3}([-x][0-9]{1,3}){1,4}",
        any::<String>(),
    ];
    run(cases, (text, any_position()), |(text, pos)| {
        if let Ok(written) = MoveText::parse(&text, G) {
            for strictness in [Strictness::Exact, Strictness::Squares] {
                if let Ok(mv) = written.find(&pos, strictness) {
                    prop_assert!(
                        pos.legal_moves_with_duplicates().contains(&mv),
                        "{} in {:?}",
                        text,
                        pos
                    );
                }
            }
        }
        Ok(())
    });
}

#[test]
fn fen_written_reads_back() {
    fen_round_trip(QUICK);
}

#[test]
fn fen_written_reads_back_on_the_larger_boards() {
    fen_round_trip_on_other_boards(QUICK / 2);
}

#[test]
fn fen_reading_never_panics() {
    fen_reader_is_total(QUICK * 4);
}

#[test]
fn moves_written_read_back() {
    move_round_trip(QUICK);
}

#[test]
fn move_reading_never_panics() {
    move_reader_is_total(QUICK * 4);
}

#[test]
#[ignore = "long: run with --release -- --ignored"]
fn fen_written_reads_back_long() {
    fen_round_trip(LONG);
}

#[test]
#[ignore = "long: run with --release -- --ignored"]
fn fen_written_reads_back_on_the_larger_boards_long() {
    fen_round_trip_on_other_boards(LONG / 10);
}

#[test]
#[ignore = "long: run with --release -- --ignored"]
fn fen_reading_never_panics_long() {
    fen_reader_is_total(LONG * 4);
}

#[test]
#[ignore = "long: run with --release -- --ignored"]
fn moves_written_read_back_long() {
    move_round_trip(LONG);
}

#[test]
#[ignore = "long: run with --release -- --ignored"]
fn move_reading_never_panics_long() {
    move_reader_is_total(LONG * 4);
}

/// A king's capture whose routes of the same effect differ, written short (`12x32`), reads back as the route the
/// legal moves keep, the one a game played from them holds: it was read back as another route of the same effect,
/// so a game written and read again held a different move (found by a match's game, its PDN read back).
#[test]
fn a_capture_written_short_reads_back_as_the_route_the_game_holds() {
    use crowned::rules::{AnyPosition, GameType, Variant};
    let line = "32-28 19-23 28x19 14x23 37-32 17-22 34-30 11-17 41-37 20-24 30x19x28 15-20 40-34 9-14 44-40 \
                14-19 34-29 3-9 40-34 20-25 35x15 5x25 45-40 17-21 28x17x26 19-23 32-27 9-14 29-24 10-15 24x22";
    let mut checked = 0;
    for variant in Variant::ALL {
        let mut pos = AnyPosition::start(GameType::standard(variant));
        let played = line
            .split(' ')
            .all(|text| match pos.parse_move(text, Strictness::Squares) {
                Ok(mv) => {
                    pos = pos.play(&mv);
                    true
                }
                Err(_) => false,
            });
        if !played {
            continue;
        }
        for mv in pos.legal_moves().iter() {
            let written = pos.write_move(mv, SquareStyle::Numbers);
            assert_eq!(
                pos.parse_move(&written, Strictness::Exact).as_ref(),
                Ok(mv),
                "{variant}: {written}"
            );
            checked += 1;
        }
    }
    assert!(checked > 0, "the line is legal in some variant");
}

/// Every legal move of every position along random games of every built-in variant, written as players write it,
/// reads back as that very move, its route included (a capture written short, whose same-effect routes differ,
/// was read back as another of them: the same position after it, but not the move the game held).
#[test]
fn every_move_written_reads_back_as_itself_in_every_variant() {
    use crowned::rules::{AnyPosition, GameType, Variant};
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = |below: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % below as u64) as usize
    };
    for variant in Variant::ALL {
        for _game in 0..6 {
            let mut pos = AnyPosition::start(GameType::standard(variant));
            for _ply in 0..120 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                for mv in moves.iter() {
                    for style in [SquareStyle::Numbers, SquareStyle::Coordinates] {
                        let written = pos.write_move(mv, style);
                        let read = pos.parse_move(&written, Strictness::Exact);
                        assert_eq!(read.as_ref(), Ok(mv), "{variant}: {written}");
                    }
                }
                pos = pos.play(&moves[next(moves.len())]);
            }
        }
    }
}
