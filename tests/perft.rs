//! Perft against the published tables in the shared reference data, and the fast counter against the plain one.

use std::path::PathBuf;

use crowned::rules::{
    Brazilian, Color, Duplicates, English, International, Piece, Pool, Position, Role, RuleSet,
    Russian, Square, divide, parse_fen, perft, perft_by_depth, perft_by_playing,
};
use proptest::prelude::*;

/// The deepest published depth checked in the normal test run (depth 12 is in the benchmark).
const MAX_TEST_DEPTH: u32 = 11;

struct Block {
    id: String,
    fen: String,
    counts: Vec<(u32, u64)>,
}

fn data_file(name: &str) -> Option<String> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/data/perft")
        .join(name);
    match std::fs::read_to_string(&path) {
        Ok(text) => Some(text),
        Err(e) => {
            eprintln!(
                "skipped: reference data {} not readable: {e}",
                path.display()
            );
            None
        }
    }
}

/// Reads the `id` / `fen` / `perft <depth> <nodes>` blocks of a `.perft` file.
fn read_blocks(text: &str) -> Vec<Block> {
    let mut blocks: Vec<Block> = Vec::new();
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, value) = line.split_once(' ').expect("key and value");
        match key {
            "id" => blocks.push(Block {
                id: value.to_string(),
                fen: String::new(),
                counts: Vec::new(),
            }),
            "fen" => blocks.last_mut().expect("fen after id").fen = value.to_string(),
            "perft" => {
                let (depth, nodes) = value.split_once(' ').expect("depth and nodes");
                blocks
                    .last_mut()
                    .expect("perft after id")
                    .counts
                    .push((depth.parse().expect("depth"), nodes.parse().expect("nodes")));
            }
            other => panic!("unknown line {other:?}"),
        }
    }
    blocks
}

#[test]
fn english_tables() {
    let Some(text) = data_file("english.perft") else {
        return;
    };
    let blocks = read_blocks(&text);
    assert!(
        blocks.len() >= 2,
        "expected the start and start-nodup blocks"
    );
    let mut checked = 0;
    for block in blocks {
        let pos: Position<English> = parse_fen(&block.fen).expect("table FEN");
        let duplicates = if block.id.ends_with("-nodup") {
            Duplicates::Merge
        } else {
            Duplicates::Keep
        };
        let deepest = block
            .counts
            .iter()
            .map(|(d, _)| *d)
            .filter(|d| *d <= MAX_TEST_DEPTH)
            .max()
            .unwrap_or(0);
        let walked = perft_by_depth(&pos, deepest, duplicates);
        for (depth, expected) in block.counts.iter().filter(|(d, _)| *d <= MAX_TEST_DEPTH) {
            assert_eq!(
                walked[*depth as usize - 1],
                *expected,
                "{} perft {depth}",
                block.id
            );
            checked += 1;
        }
    }
    assert!(checked >= 12, "only {checked} table entries checked");
}

/// Counts for a variant's blocks up to `max_nodes` leaves per entry; returns how many entries were checked.
fn check_variant<R: RuleSet>(blocks: &[Block], prefix: &str, max_nodes: u64) -> usize {
    let mut checked = 0;
    for block in blocks.iter().filter(|b| b.id.starts_with(prefix)) {
        let pos: Position<R> = parse_fen(&block.fen).expect("table FEN");
        let duplicates = if block.id.ends_with("-nodup") {
            Duplicates::Merge
        } else {
            Duplicates::Keep
        };
        let wanted: Vec<(u32, u64)> = block
            .counts
            .iter()
            .copied()
            .filter(|(_, n)| *n <= max_nodes)
            .collect();
        let Some(deepest) = wanted.iter().map(|(d, _)| *d).max() else {
            continue;
        };
        let walked = perft_by_depth(&pos, deepest, duplicates);
        for (depth, expected) in wanted {
            assert_eq!(
                walked[depth as usize - 1],
                expected,
                "{} perft {depth}",
                block.id
            );
            checked += 1;
        }
    }
    checked
}

/// The other variants' rule sets against their published tables: the generator is the same code, with the
/// rule parameters changed.
#[test]
fn variant_tables() {
    let Some(text) = data_file("variants.perft") else {
        return;
    };
    let blocks = read_blocks(&text);
    let checked = check_variant::<International>(&blocks, "international-start", 7_000_000)
        + check_variant::<Russian>(&blocks, "russian", 25_000_000)
        + check_variant::<Brazilian>(&blocks, "brazilian", 25_000_000)
        + check_variant::<Pool>(&blocks, "pool", 25_000_000);
    assert!(checked >= 36, "only {checked} variant entries checked");
}

#[test]
fn single_depth_agrees_with_one_walk() {
    let start: Position = Position::start();
    let walked = perft_by_depth(&start, 8, Duplicates::Keep);
    for (depth, nodes) in (1..).zip(&walked) {
        assert_eq!(perft(&start, depth, Duplicates::Keep), *nodes);
    }
    assert_eq!(perft(&start, 0, Duplicates::Keep), 1);
    assert!(perft_by_depth(&start, 0, Duplicates::Keep).is_empty());
}

#[test]
fn divide_adds_up() {
    let start: Position = Position::start();
    let split = divide(&start, 6, Duplicates::Keep);
    assert_eq!(split.len(), 7);
    assert_eq!(split.iter().map(|(_, n)| n).sum::<u64>(), 36768);
}

#[test]
fn duplicate_routes_counted_both_ways() {
    // The black king on 14 can circle four white men either way round; both routes end on 14.
    let pos: Position = parse_fen("B:W10,11,18,19:BK14").expect("valid");
    assert_eq!(perft(&pos, 1, Duplicates::Keep), 2);
    assert_eq!(perft(&pos, 1, Duplicates::Merge), 1);
    assert_eq!(perft_by_playing(&pos, 1, Duplicates::Keep), 2);
}

#[test]
fn no_pieces_or_no_moves_means_no_leaves() {
    let lost: Position = parse_fen("W:W:B1").expect("valid");
    assert_eq!(perft(&lost, 3, Duplicates::Keep), 0);
    assert!(lost.is_lost());
    // White's man on 29 is blocked by black men on 25 and 22 (which it cannot take: 18 is occupied).
    let blocked: Position = parse_fen("W:W29:B25,22,18").expect("valid");
    assert!(blocked.is_lost());
}

fn arbitrary_position() -> impl Strategy<Value = Position> {
    (prop::collection::vec(0u8..7, 32), any::<bool>()).prop_map(|(cells, black)| {
        let side = if black { Color::Black } else { Color::White };
        let mut pos: Position = Position::empty(side);
        for (i, cell) in cells.into_iter().enumerate() {
            let square = Square::from_index(i as u8);
            let row = Position::<English>::GEOMETRY.row_col(square).0;
            let piece = match cell {
                0 if row != 7 => Some(Piece::new(Color::Black, Role::Man)),
                1 if row != 0 => Some(Piece::new(Color::White, Role::Man)),
                2 => Some(Piece::new(Color::Black, Role::King)),
                3 => Some(Piece::new(Color::White, Role::King)),
                _ => None,
            };
            pos.set_piece(square, piece);
        }
        pos
    })
}

/// A position reached by random play from the start: mostly men early, kings later.
fn played_position() -> impl Strategy<Value = Position> {
    prop::collection::vec(any::<prop::sample::Index>(), 0..90).prop_map(|choices| {
        let mut pos: Position = Position::start();
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

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// The same along random games, where positions look like real play.
    #[test]
    fn fast_counter_matches_along_random_games(pos in played_position(), merge in any::<bool>()) {
        let duplicates = if merge { Duplicates::Merge } else { Duplicates::Keep };
        let walked = perft_by_depth(&pos, 4, duplicates);
        for depth in 1..=4 {
            prop_assert_eq!(walked[depth as usize - 1], perft_by_playing(&pos, depth, duplicates));
        }
    }

    /// The fast counter (bulk counting, replies counted in bulk) equals playing out every leaf.
    #[test]
    fn fast_counter_matches_playing_every_leaf(pos in arbitrary_position(), merge in any::<bool>()) {
        let duplicates = if merge { Duplicates::Merge } else { Duplicates::Keep };
        let walked = perft_by_depth(&pos, 4, duplicates);
        for depth in 1..=4 {
            prop_assert_eq!(walked[depth as usize - 1], perft_by_playing(&pos, depth, duplicates));
        }
    }
}
