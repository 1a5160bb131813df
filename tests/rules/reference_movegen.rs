//! The bitboard generator against a plain, obviously-correct one written from the rules text, for every variant.
//!
//! The reference (`crates/reference`) takes the rules as data ([`RefRules`]) and finds moves on a square array,
//! one jump at a time. Three kinds of test here:
//! - each rule set the library has is compared with the reference on random positions (any mix of men and kings,
//!   which the start position reaches only deep in the tree), along random games, and at every node of the tree
//!   from the start position (`rule_set_tests!`, one line per rule set);
//! - the reference alone counts the tree from the start of each variant and must match the published perft
//!   tables, which shows it right on its own, including for the variants the library does not play yet;
//! - the reference alone on hand-made positions, one per rule, with the exact list of moves the rules give.

use crowned::rules::{
    Brazilian, Color, English, International, Pool, Position, Russian, parse_fen,
};
use proptest::prelude::*;

use crate::common;
use crowned_reference as reference;

use reference::compare::{check_position, check_tree, compare_position};
use reference::positions::{random_game, random_position};
use reference::{Board, RefRules, legal_routes, perft};

/// The longest random game the property tests play.
const GAME_PLIES: usize = 150;

/// The comparison tests for one rule set, in a module of its own:
/// `rule_set_tests!(module, RuleSetType, reference rules, tree: depth, positions: cases, games: cases)`.
/// `tree` is the depth of the full tree from the start that is checked node by node, and two plies deeper with
/// `--ignored`. Each ply costs about five times the last: on 8x8 boards depth 6 takes half a second a rule set in
/// the tests' build, depth 7 two seconds and depth 8 ten, so the suite stops one ply short of two seconds. The
/// random games below check as many positions as these trees and deeper ones (3,000 games of up to 150 plies;
/// English's tree has some 46,000 nodes to depth 6 and 225,000 to depth 7): the tree is there for every line of
/// the opening.
/// `positions` is the number of random positions, and `games` the number of random games, checked at every
/// position along them.
macro_rules! rule_set_tests {
    ($name:ident, $rule_set:ty, $rules:expr, tree: $depth:expr, positions: $positions:expr, games: $games:expr) => {
        mod $name {
            use super::*;
            use proptest::test_runner::TestRunner;

            const RULES: RefRules = $rules;

            proptest! {
                #![proptest_config(ProptestConfig::with_cases($positions))]

                #[test]
                fn agrees_on_random_positions(pos in random_position::<$rule_set>()) {
                    check_position(&RULES, &pos);
                }
            }

            proptest! {
                #![proptest_config(ProptestConfig::with_cases($games))]

                #[test]
                fn agrees_along_random_games(game in random_game::<$rule_set>(GAME_PLIES)) {
                    for pos in &game {
                        check_position(&RULES, pos);
                    }
                }
            }

            #[test]
            fn agrees_on_every_node_of_the_tree_from_the_start() {
                let nodes = check_tree(&RULES, &Position::<$rule_set>::start(), $depth);
                assert!(nodes > 1 + $depth as u64, "only {nodes} nodes");
            }

            #[test]
            #[ignore = "heavy: up to a minute each in the tests' build"]
            fn agrees_on_every_node_two_plies_deeper() {
                let nodes = check_tree(&RULES, &Position::<$rule_set>::start(), $depth + 2);
                assert!(nodes > 3 + $depth as u64, "only {nodes} nodes");
            }

            #[test]
            #[ignore = "heavy: ten times the random positions"]
            fn agrees_on_ten_times_more_random_positions() {
                let mut runner = TestRunner::new(ProptestConfig::with_cases(10 * $positions));
                runner
                    .run(&random_position::<$rule_set>(), |pos| {
                        check_position(&RULES, &pos);
                        Ok(())
                    })
                    .unwrap_or_else(|failure| panic!("{failure}"));
            }

            #[test]
            fn starts_as_the_rules_say() {
                assert_eq!(
                    Board::from_position(&Position::<$rule_set>::start()),
                    Board::start(&RULES)
                );
            }
        }
    };
}

rule_set_tests!(english, English, RefRules::english(8), tree: 6, positions: 20_000, games: 3000);
rule_set_tests!(russian, Russian, RefRules::russian(), tree: 6, positions: 20_000, games: 3000);
rule_set_tests!(brazilian, Brazilian, RefRules::brazilian(), tree: 6, positions: 20_000, games: 3000);
rule_set_tests!(pool, Pool, RefRules::pool(), tree: 6, positions: 20_000, games: 3000);
rule_set_tests!(international, International, RefRules::international(), tree: 5, positions: 5000, games: 1000);

// The rule sets beyond the first five, and English rules on the other boards. The Thai line compares with
// the reference's default reading (a king may turn back after a capture); `thai_king_reversal_agreement` says
// which of the two readings the fast generator follows.
use crowned::rules::{Canadian, Czech, EnglishOn, Italian, Spanish, Thai};

rule_set_tests!(italian, Italian, RefRules::italian(), tree: 6, positions: 20_000, games: 3000);
rule_set_tests!(spanish, Spanish, RefRules::spanish(), tree: 6, positions: 20_000, games: 3000);
rule_set_tests!(czech, Czech, RefRules::czech(), tree: 6, positions: 20_000, games: 3000);
rule_set_tests!(thai, Thai, RefRules::thai(), tree: 5, positions: 20_000, games: 3000);
rule_set_tests!(canadian, Canadian, RefRules::canadian(), tree: 4, positions: 2000, games: 300);
rule_set_tests!(english_6, EnglishOn<6>, RefRules::english(6), tree: 9, positions: 20_000, games: 3000);
rule_set_tests!(english_on_8, EnglishOn<8>, RefRules::english(8), tree: 6, positions: 2000, games: 300);
rule_set_tests!(english_10, EnglishOn<10>, RefRules::english(10), tree: 5, positions: 5000, games: 1000);
rule_set_tests!(english_12, EnglishOn<12>, RefRules::english(12), tree: 4, positions: 2000, games: 300);
rule_set_tests!(english_14, EnglishOn<14>, RefRules::english(14), tree: 4, positions: 2000, games: 300);

/// Which reading of the Thai king (may it turn straight back after a capture?) the fast generator follows:
/// both are compared with it on the same random positions, and exactly one must agree on all of them (both
/// agreeing would mean the positions never told them apart). Run with `--nocapture` to see the counts.
#[test]
fn thai_king_reversal_agreement() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let readings = [
        ("may turn back", RefRules::thai()),
        (
            "may not turn back",
            RefRules {
                king_may_reverse: false,
                ..RefRules::thai()
            },
        ),
    ];
    let mut disagreements = [0u32; 2];
    let mut runner = TestRunner::deterministic();
    for _ in 0..5000 {
        let pos = random_position::<Thai>()
            .new_tree(&mut runner)
            .expect("a position")
            .current();
        for (count, (_, rules)) in disagreements.iter_mut().zip(&readings) {
            *count += u32::from(compare_position(rules, &pos).is_err());
        }
    }
    for ((name, _), count) in readings.iter().zip(disagreements) {
        println!("Thai king {name}: differs from the fast generator on {count} of 5000 positions");
    }
    assert_eq!(
        disagreements.iter().filter(|&&n| n == 0).count(),
        1,
        "exactly one reading should agree everywhere: {disagreements:?}"
    );
}

/// English positions denser than any game reaches (any number of pieces a side), kept from the first version
/// of this test: the capture search must not depend on there being at most 12 pieces a side.
mod english_dense {
    use super::*;
    use common::arbitrary_position;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]

        #[test]
        fn agrees_on_dense_positions(pos in arbitrary_position()) {
            check_position(&RefRules::english(8), &pos);
        }
    }
}

/// The comparison is not vacuous: against the wrong rules (free choice where the majority rule holds), the
/// fast generator's moves are found to differ, and the message says how.
#[test]
fn the_comparison_fails_under_the_wrong_rules() {
    // Brazilian: only the man on 21 may capture (two pieces); under free choice 28x19 would be legal too.
    let pos: Position<Brazilian> = parse_fen("W:W21,28:B10,17,24").expect("valid");
    assert_eq!(compare_position(&RefRules::brazilian(), &pos), Ok(()));
    let difference = compare_position(&RefRules::russian(), &pos).expect_err("rules differ here");
    assert!(
        difference.contains("only in the reference: [(28, [24], 19)]"),
        "{difference}"
    );
}

/// The reference's moves for `fen` under `rules`, as sorted route texts (`9x2x11`), each marked
/// ` (crowned)` if the man is crowned, compared with `expected` (sorted here too).
#[track_caller]
fn assert_routes(rules: &RefRules, fen: &str, expected: &[&str]) {
    let board = Board::from_fen(rules.size, fen);
    let mut got: Vec<String> = legal_routes(rules, &board)
        .iter()
        .map(|m| {
            let crown = if m.crowns { " (crowned)" } else { "" };
            format!("{}{crown}", m.text())
        })
        .collect();
    got.sort();
    let mut expected: Vec<String> = expected.iter().map(|s| s.to_string()).collect();
    expected.sort();
    assert_eq!(got, expected, "moves for {fen}{board:?}");
}

/// Every variant, by name, with its reference rules.
fn all_rules() -> [(&'static str, RefRules); 10] {
    [
        ("english", RefRules::english(8)),
        ("international", RefRules::international()),
        ("russian", RefRules::russian()),
        ("brazilian", RefRules::brazilian()),
        ("pool", RefRules::pool()),
        ("italian", RefRules::italian()),
        ("spanish", RefRules::spanish()),
        ("czech", RefRules::czech()),
        ("thai", RefRules::thai()),
        ("canadian", RefRules::canadian()),
    ]
}

/// The 8x8 variants whose men capture forwards only.
fn forward_only() -> [RefRules; 5] {
    [
        RefRules::english(8),
        RefRules::italian(),
        RefRules::spanish(),
        RefRules::czech(),
        RefRules::thai(),
    ]
}

// ---- The reference alone against the published perft tables ----------------------------------------------
//
// The counts are from `shared/data/perft` (Aart Bik's and OEIS A133046 for English; Rein Halbersma's dctl test
// tables, citing the damforum and shashki.com threads, for the others). They count one move per start, end and
// order of capture, as `RefMove::order_key` does. They are the published figures, not the fast generator's.

/// The start position of the tables: 12 men a side on 8x8 (the Thai table too), 20 on 10x10.
fn table_start(size: u8, side: Color) -> Board {
    match size {
        8 => Board::from_fen(8, &format!("{}:W21-32:B1-12", side.letter())),
        10 => Board::from_fen(10, &format!("{}:W31-50:B1-20", side.letter())),
        _ => panic!("no table for {size}x{size}"),
    }
}

#[track_caller]
fn assert_perft(rules: &RefRules, start: &Board, counts: &[(u32, u64)]) {
    for &(depth, nodes) in counts {
        assert_eq!(perft(rules, start, depth), nodes, "perft {depth}");
    }
}

#[test]
fn reference_perft_english() {
    assert_perft(
        &RefRules::english(8),
        &Board::start(&RefRules::english(8)),
        &[(1, 7), (2, 49), (3, 302), (4, 1469), (5, 7361), (6, 36768)],
    );
}

/// Russian and pool first differ at depth 8 (a man crowned in a capture goes on as a king in one, as a man in
/// the other); Brazilian, with the majority rule, at 5.
#[test]
fn reference_perft_russian_brazilian_pool() {
    assert_perft(
        &RefRules::russian(),
        &table_start(8, Color::White),
        &[(5, 7482), (6, 37986), (8, 929905)],
    );
    assert_perft(
        &RefRules::brazilian(),
        &table_start(8, Color::White),
        &[(5, 7473), (6, 37628), (8, 907836)],
    );
    assert_perft(
        &RefRules::pool(),
        &table_start(8, Color::Black),
        &[(5, 7482), (6, 37986), (8, 929902)],
    );
}

#[test]
fn reference_perft_international() {
    assert_perft(
        &RefRules::international(),
        &table_start(10, Color::White),
        &[
            (1, 9),
            (2, 81),
            (3, 658),
            (4, 4265),
            (5, 27117),
            (6, 167140),
        ],
    );
}

/// Spanish and Italian first differ from English at depth 6 (the majority rule), and from each other at 9 (the
/// Italian rules on kings).
#[test]
fn reference_perft_spanish_italian() {
    let start = table_start(8, Color::White);
    assert_perft(&RefRules::spanish(), &start, &[(6, 36473), (9, 3860866)]);
    assert_perft(&RefRules::italian(), &start, &[(6, 36473), (9, 3860875)]);
}

/// Czech and Thai (from the table's 12-men start, Black first) match English until kings appear, and differ
/// at depth 9. The Thai count is the same whether or not a king may turn back after a capture (also at depths
/// 10 and 11), so it does not settle that question.
#[test]
fn reference_perft_czech_thai() {
    assert_perft(
        &RefRules::czech(),
        &table_start(8, Color::White),
        &[(6, 36768), (9, 3963671)],
    );
    assert_perft(
        &RefRules::thai(),
        &table_start(8, Color::Black),
        &[(6, 36768), (9, 3963648)],
    );
}

/// One depth further for each. About a minute in release.
#[test]
#[ignore = "heavy: minutes in release"]
fn reference_perft_deep() {
    let white = table_start(8, Color::White);
    assert_perft(&RefRules::russian(), &white, &[(9, 4570667)]);
    assert_perft(&RefRules::brazilian(), &white, &[(9, 4431847)]);
    assert_perft(
        &RefRules::pool(),
        &table_start(8, Color::Black),
        &[(9, 4570615)],
    );
    assert_perft(
        &RefRules::international(),
        &table_start(10, Color::White),
        &[(7, 1049442)],
    );
    assert_perft(&RefRules::czech(), &white, &[(10, 18368918)]);
    assert_perft(&RefRules::spanish(), &white, &[(10, 17743464)]);
    assert_perft(&RefRules::italian(), &white, &[(10, 17761384)]);
    assert_perft(
        &RefRules::thai(),
        &table_start(8, Color::Black),
        &[(10, 18363523)],
    );
}

// ---- The reference alone on hand-made positions, one per rule ---------------------------------------------
//
// Square numbers on 8x8, row by row from the top: 1-4 on row 0 (b8 d8 f8 h8), 5-8 on row 1 (a7 ...), and so on
// to 29-32 on row 7 (a1 c1 e1 g1). White's men move up (to lower numbers), Black's down.

#[test]
fn each_variant_starts_with_its_own_men_and_side() {
    let expected = [
        ("english", 12, Color::Black, 7),
        ("international", 20, Color::White, 9),
        ("russian", 12, Color::White, 7),
        ("brazilian", 12, Color::White, 7),
        ("pool", 12, Color::Black, 7),
        ("italian", 12, Color::White, 7),
        ("spanish", 12, Color::White, 7),
        ("czech", 12, Color::White, 7),
        ("thai", 8, Color::White, 7),
        // 12x12: six men on the front row, each with two steps but the one on the edge.
        ("canadian", 30, Color::White, 11),
    ];
    for ((name, rules), (want_name, men, side, moves)) in all_rules().into_iter().zip(expected) {
        assert_eq!(name, want_name);
        let start = Board::start(&rules);
        assert_eq!(start.side, side, "{name}");
        for color in Color::ALL {
            assert_eq!(start.pieces_of(color).len(), men, "{name} {color}");
        }
        assert_eq!(legal_routes(&rules, &start).len(), moves, "{name}");
    }
    // English on every size: `size / 2 - 1` rows of men; on the front row each man has two steps but the one on
    // the edge.
    for size in [6, 8, 10, 12, 14] {
        let rules = RefRules::english(size);
        let start = Board::start(&rules);
        let per_row = size as usize / 2;
        assert_eq!(start.pieces_of(Color::Black).len(), per_row * (per_row - 1));
        assert_eq!(start.side, Color::Black);
        assert_eq!(legal_routes(&rules, &start).len(), size as usize - 1);
    }
    // English on the smallest board (3 squares a row): the black men on 4-6 step to 7-9; 4, on the edge, has one
    // step.
    assert_routes(
        &RefRules::english(6),
        "B:W13-18:B1-6",
        &["4-7", "5-7", "5-8", "6-8", "6-9"],
    );
}

/// The reference on the boards seen in a mirror (a1 light), read through the library's Italian and Spanish
/// positions: White's front row is 21-24 on b3 d3 f3 h3, and 24, on the right edge, has one step (to 20),
/// where on the usual board 21, on the left edge, has one (to 17).
#[test]
fn italian_and_spanish_boards_are_mirrored() {
    fn texts<R: crowned::rules::RuleSet>(rules: &RefRules, fen: &str) -> Vec<String> {
        let pos: Position<R> = parse_fen(fen).expect("valid");
        let mut texts: Vec<String> = legal_routes(rules, &Board::from_position(&pos))
            .iter()
            .map(|m| m.text())
            .collect();
        texts.sort();
        texts
    }
    let mirrored = [
        "21-17", "21-18", "22-18", "22-19", "23-19", "23-20", "24-20",
    ];
    let fen = "W:W21-24:B9-12";
    assert_eq!(texts::<Italian>(&RefRules::italian(), fen), mirrored);
    assert_eq!(texts::<Spanish>(&RefRules::spanish(), fen), mirrored);
    assert_eq!(
        texts::<Czech>(&RefRules::czech(), fen),
        [
            "21-17", "22-17", "22-18", "23-18", "23-19", "24-19", "24-20"
        ]
    );
}

#[test]
fn crowning_in_a_capture() {
    // The white man on 9 takes 6 and reaches the far row on 2; beyond 7 the diagonal runs on to 11, 16, 20.
    let fen = "W:W9:B6,7";
    for rules in forward_only() {
        assert_routes(&rules, fen, &["9x2 (crowned)"]);
    }
    // Russian: crowned at once, it goes on as a flying king and may stop anywhere beyond 7.
    assert_routes(
        &RefRules::russian(),
        fen,
        &["9x2x11 (crowned)", "9x2x16 (crowned)", "9x2x20 (crowned)"],
    );
    // Pool and Brazilian: it goes on as a man (backwards) and is not crowned where it ends.
    for rules in [RefRules::pool(), RefRules::brazilian()] {
        assert_routes(&rules, fen, &["9x2x11"]);
    }
}

#[test]
fn men_capture_backwards_only_where_the_rules_allow() {
    // The white man on 22 has a black man behind it on 26, and 31 beyond is empty.
    for rules in forward_only() {
        assert_routes(&rules, "W:W22:B26", &["22-17", "22-18"]);
    }
    for rules in [RefRules::russian(), RefRules::brazilian(), RefRules::pool()] {
        assert_routes(&rules, "W:W22:B26", &["22x31"]);
    }
}

#[test]
fn a_capture_goes_round_through_the_start_square() {
    // The black king on 14 can take the four white men either way round, ending where it started: two orders
    // of capture, one set of pieces.
    let board = Board::from_fen(8, "B:W10,11,18,19:BK14");
    let rules = RefRules::english(8);
    let routes = legal_routes(&rules, &board);
    let texts: Vec<String> = routes.iter().map(|m| m.text()).collect();
    assert_eq!(texts, ["14x7x16x23x14", "14x23x16x7x14"]);
    assert_ne!(routes[0].order_key(), routes[1].order_key());
    assert_eq!(routes[0].set_key(), routes[1].set_key());
}

#[test]
fn flying_king_lands_where_it_can_go_on() {
    // The white king on 29 takes 22; of the squares beyond, only 18 lets it take 23 next.
    assert_routes(
        &RefRules::russian(),
        "W:WK29:B22,23",
        &["29x18x27", "29x18x32"],
    );
    // Without a second piece to take it may stop anywhere beyond.
    assert_routes(
        &RefRules::russian(),
        "W:WK29:B22",
        &["29x18", "29x15", "29x11", "29x8", "29x4"],
    );
    // A short king takes only what is next to it.
    assert_routes(&RefRules::english(8), "W:WK29:B22", &["29-25"]);
}

#[test]
fn routes_through_other_squares_taking_the_same_pieces_in_order_are_one_move() {
    // The king on 29 takes 22, may stop on 18 or 15, and from either takes 11 further along: four routes, but
    // only two moves by order of capture (ending on 8 or on 4).
    let board = Board::from_fen(8, "W:WK29:B11,22");
    let routes = legal_routes(&RefRules::russian(), &board);
    let mut texts: Vec<String> = routes.iter().map(|m| m.text()).collect();
    texts.sort();
    assert_eq!(texts, ["29x15x4", "29x15x8", "29x18x4", "29x18x8"]);
    let keys: std::collections::BTreeSet<_> = routes.iter().map(|m| m.order_key()).collect();
    assert_eq!(
        keys.into_iter().collect::<Vec<_>>(),
        [(29, vec![22, 11], 4), (29, vec![22, 11], 8)]
    );
}

#[test]
fn majority_rule() {
    // The man on 21 can take 17 and then 10; the man on 28 only 24.
    let fen = "W:W21,28:B10,17,24";
    assert_routes(&RefRules::russian(), fen, &["21x14x7", "28x19"]);
    assert_routes(&RefRules::pool(), fen, &["21x14x7", "28x19"]);
    assert_routes(&RefRules::brazilian(), fen, &["21x14x7"]);
}

#[test]
fn italian_men_do_not_take_kings() {
    // The white man on 22 faces a black king on 18 with 15 empty behind it.
    assert_routes(&RefRules::italian(), "W:W22:BK18", &["22-17"]);
    assert_routes(&RefRules::english(8), "W:W22:BK18", &["22x15"]);
    // A king takes a king.
    assert_routes(&RefRules::italian(), "W:WK22:BK18", &["22x15"]);
    // A black man does not take a white king either.
    assert_routes(&RefRules::italian(), "B:WK15:B11", &["11-16"]);
    assert_routes(&RefRules::italian(), "B:W15:B11", &["11x18"]);
}

#[test]
fn italian_precedence() {
    let italian = RefRules::italian();
    let english = RefRules::english(8);
    // (1) The most pieces: 22 takes 18 and 11, 28 only 24.
    let most = "W:W22,28:B11,18,24";
    assert_routes(&italian, most, &["22x15x8"]);
    assert_routes(&english, most, &["22x15x8", "28x19"]);
    // (2) As many pieces, a king before a man: the man on 21 and the king on 32 each take one.
    let king_first = "W:W21,K32:B17,27";
    assert_routes(&italian, king_first, &["32x23"]);
    assert_routes(&english, king_first, &["21x14", "32x23"]);
    // (3) Then the most kings: both kings take one piece; 28's is a king.
    let most_kings = "W:WK22,K28:B18,K24";
    assert_routes(&italian, most_kings, &["28x19"]);
    assert_routes(&english, most_kings, &["22x15", "28x19"]);
    // (4) Then the king taken first: the king on 18 takes king 14 then man 6, or man 15 then king 8.
    let earliest = "W:WK18:BK14,6,15,K8";
    assert_routes(&italian, earliest, &["18x9x2"]);
    assert_routes(&english, earliest, &["18x11x4", "18x9x2"]);
}

#[test]
fn spanish_precedence() {
    let spanish = RefRules::spanish();
    // As many pieces (one each): the capture taking a king. Men may take kings in Spanish.
    let kings = "W:W22,28:B18,K24";
    assert_routes(&spanish, kings, &["28x19"]);
    assert_routes(&RefRules::brazilian(), kings, &["22x15", "28x19"]);
    // But more pieces first: two men rather than one king.
    assert_routes(&spanish, "W:W22,28:B11,18,K24", &["22x15x8"]);
}

#[test]
fn czech_king_must_capture() {
    let czech = RefRules::czech();
    // The man on 21 can take 17, the king on 32 can take 27 (stopping anywhere beyond): the king must.
    assert_routes(
        &czech,
        "W:W21,K32:B17,27",
        &["32x23", "32x18", "32x14", "32x9", "32x5"],
    );
    assert_routes(
        &RefRules::pool(),
        "W:W21,K32:B17,27",
        &["21x14", "32x23", "32x18", "32x14", "32x9", "32x5"],
    );
    // No king can capture (the one on 29 is blocked by its own man): any man's capture, free choice.
    assert_routes(&czech, "W:W21,22,K29:B17,18", &["21x14", "22x13", "22x15"]);
}

#[test]
fn thai_king_lands_right_behind() {
    let thai = RefRules::thai();
    // The king on 29 takes 22 (next to it) or 18 (further along), landing right behind only.
    assert_routes(&thai, "W:WK29:B22", &["29x18"]);
    assert_routes(&thai, "W:WK29:B18", &["29x15"]);
    assert_routes(
        &RefRules::russian(),
        "W:WK29:B18",
        &["29x15", "29x11", "29x8", "29x4"],
    );
    // With the square behind taken it cannot capture; it still flies for ordinary moves.
    assert_routes(&thai, "W:WK29:B22,18", &["29-25"]);
    assert_routes(
        &thai,
        "W:WK29:B4",
        &["29-25", "29-22", "29-18", "29-15", "29-11", "29-8"],
    );
}

#[test]
fn thai_captured_pieces_go_at_once_and_the_king_may_turn_back() {
    // The king on 22 takes 15 (landing on 11) or 25 (landing on 29). Since each piece leaves the board when
    // taken, the way back is clear: turning straight back it passes its start square and takes the other.
    let fen = "W:WK22:B15,25";
    assert_routes(&RefRules::thai(), fen, &["22x11x29", "22x29x11"]);
    let no_turning_back = RefRules {
        king_may_reverse: false,
        ..RefRules::thai()
    };
    assert_routes(&no_turning_back, fen, &["22x11", "22x29"]);
    // If the pieces stayed until the move ends, the one just taken would block the way back.
    let pieces_stay = RefRules {
        captured_removed_at_once: false,
        ..RefRules::thai()
    };
    assert_routes(&pieces_stay, fen, &["22x11", "22x29"]);
}
