//! Perft against the published tables in the shared reference data, and the fast counter against the plain one.

use std::path::PathBuf;

use crowned::rules::{
    Brazilian, Canadian, Czech, Duplicates, English, International, Italian, Pool, Position,
    RuleSet, Russian, Spanish, Thai, divide, parse_fen, perft, perft_by_depth, perft_by_playing,
};
use proptest::prelude::*;

use crate::common;
use common::{arbitrary_position, played_position};

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

/// Checks the blocks whose id starts with `prefix` at every depth up to `max_depth` with at most `max_nodes`
/// leaves; returns how many entries were checked.
/// The position of a table. The published Thai tables start from twelve men a side (dctl's test positions),
/// more than a Thai game has, so the pieces are placed without the piece-count check there.
fn table_position<R: RuleSet>(fen: &str) -> Position<R> {
    if let Ok(pos) = parse_fen::<R>(fen) {
        return pos;
    }
    let on_czech_board: Position<Czech> = parse_fen(fen).expect("table FEN");
    let mut pos = Position::<R>::empty(on_czech_board.side_to_move());
    for (square, piece) in on_czech_board.pieces() {
        assert!(
            pos.set_piece(square, Some(piece)),
            "square {square} on the board"
        );
    }
    pos
}

fn check_blocks<R: RuleSet>(
    blocks: &[Block],
    prefix: &str,
    max_depth: u32,
    max_nodes: u64,
) -> usize {
    let mut checked = 0;
    for block in blocks.iter().filter(|b| b.id.starts_with(prefix)) {
        let pos = table_position::<R>(&block.fen);
        let duplicates = if block.id.ends_with("-nodup") {
            Duplicates::Merge
        } else {
            Duplicates::Keep
        };
        let wanted: Vec<(u32, u64)> = block
            .counts
            .iter()
            .copied()
            .filter(|(d, n)| *d <= max_depth && *n <= max_nodes)
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

#[test]
fn english_tables() {
    let Some(text) = data_file("english.perft") else {
        return;
    };
    let blocks = read_blocks(&text);
    let checked = check_blocks::<English>(&blocks, "start", MAX_TEST_DEPTH, u64::MAX);
    // Depths 1-11 with duplicates, and depth 11 without.
    assert!(checked >= 12, "only {checked} table entries checked");
}

/// The other variants' rule sets against their published tables: the generator is the same code, with the
/// rule parameters changed.
#[test]
fn variant_tables() {
    let Some(text) = data_file("variants.perft") else {
        return;
    };
    let blocks = read_blocks(&text);
    let checked = check_blocks::<International>(&blocks, "international-start", 30, 7_000_000)
        + check_blocks::<Russian>(&blocks, "russian", 30, 25_000_000)
        + check_blocks::<Brazilian>(&blocks, "brazilian", 30, 25_000_000)
        + check_blocks::<Pool>(&blocks, "pool", 30, 25_000_000)
        + check_blocks::<Czech>(&blocks, "czech", 30, 25_000_000)
        + check_blocks::<Spanish>(&blocks, "spanish", 30, 25_000_000)
        + check_blocks::<Italian>(&blocks, "italian", 30, 25_000_000)
        + check_blocks::<Thai>(&blocks, "thai", 30, 25_000_000);
    assert!(checked >= 50, "only {checked} variant entries checked");
}

/// Every published count of the variants, to depth 12 (billions of nodes: minutes in release).
#[test]
#[ignore = "minutes in release; run with --ignored"]
fn variant_tables_in_full() {
    let Some(text) = data_file("variants.perft") else {
        return;
    };
    let blocks = read_blocks(&text);
    let all = u64::MAX;
    let checked = check_blocks::<International>(&blocks, "international", 11, all)
        + check_blocks::<Russian>(&blocks, "russian", 12, all)
        + check_blocks::<Brazilian>(&blocks, "brazilian", 12, all)
        + check_blocks::<Pool>(&blocks, "pool", 12, all)
        + check_blocks::<Czech>(&blocks, "czech", 12, all)
        + check_blocks::<Spanish>(&blocks, "spanish", 12, all)
        + check_blocks::<Italian>(&blocks, "italian", 12, all)
        + check_blocks::<Thai>(&blocks, "thai", 12, all);
    assert!(checked >= 80, "only {checked} variant entries checked");
}

/// Canadian draughts from the start, routes with the same effect counted once: the counts of the "Perft on large
/// boards" thread of the FMJD forum (laatste.info, topic 4563), as Rein Halbersma's dctl library tests them
/// (`test/src/ai/traversal/initial/large.cpp`). Not in the shared tables, so quoted here with their source.
const CANADIAN_START_NODUP: [u64; 10] = [
    11,
    121,
    1_222,
    10_053,
    79_049,
    584_100,
    4_369_366,
    31_839_056,
    237_209_258,
    1_761_652_936,
];

#[test]
fn canadian_published_counts() {
    let start: Position<Canadian> = Position::start();
    let walked = perft_by_depth(&start, 7, Duplicates::Merge);
    assert_eq!(walked, CANADIAN_START_NODUP[..7]);
}

#[test]
#[ignore = "a minute in release; run with --ignored"]
fn canadian_published_counts_in_full() {
    let start: Position<Canadian> = Position::start();
    let walked = perft_by_depth(&start, 9, Duplicates::Merge);
    assert_eq!(walked, CANADIAN_START_NODUP[..9]);
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

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// The same along random games, where positions look like real play.
    #[test]
    fn fast_counter_matches_along_random_games(pos in played_position(90), merge in any::<bool>()) {
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
