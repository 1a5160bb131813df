//! Variants no fast generator plays: the examples shipped in `variants/`, with perft counted by hand.

use crate::Color;
use crate::defined::{DefinedPosition, DefinedRules, legal_moves, perft};

const LEAPERS: &str = include_str!("../../../../../variants/leapers.toml");
const HOLES: &str = include_str!("../../../../../variants/holes.toml");

/// White a1 b1 b2 against Black d4 d5 e5, frogs leaping over their own pieces. White: a1 over b1 to c1, b1 over
/// b2 to b3 (2). Black, either way: e5 over d5 to c5, d5 over d4 to d3 (4). White then has b1-b3, b1-d1 and
/// c1-a1 after a1-c1, or b2-b4 and b3-b1 after b1-b3, and no capture in any line (3+3+2+2 = 10).
#[test]
fn leapers_by_hand() {
    let rules = DefinedRules::from_toml(LEAPERS).expect("the example reads");
    let start = DefinedPosition::start(&rules);
    let counts: Vec<u64> = (1..=3).map(|d| perft(&rules, &start, d)).collect();
    assert_eq!(counts, [2, 4, 10], "\n{}", start.diagram(&rules));
}

/// A frog takes like a man, and leaps only over its own pieces, never an opponent's.
#[test]
fn a_leaper_jumps_its_own_and_takes_the_others() {
    let rules = DefinedRules::from_toml(LEAPERS).expect("the example reads");
    let frog = rules.kind_index("frog").expect("frog");
    let at = |name: &str| rules.cell_named("test", name).expect("a square");
    let mut pos = DefinedPosition::empty(&rules, Color::White);
    pos.cells[at("b2")] = Some((Color::White, frog));
    pos.cells[at("c2")] = Some((Color::Black, frog));
    let moves = legal_moves(&rules, &pos);
    assert!(
        moves.is_empty(),
        "an opponent's piece is not leapt: {moves:?}"
    );
    pos.cells[at("c3")] = Some((Color::Black, frog));
    let moves = legal_moves(&rules, &pos);
    assert_eq!(moves.len(), 1);
    assert_eq!(moves[0].captured, [at("c3")]);
    assert_eq!(moves[0].to(), at("d4"));
    let after = pos.play(&moves[0]);
    assert_eq!(after.cells[at("c3")], None);
    // Black's frog on c2 has nothing to take and no piece of its own to leap over.
    assert_eq!(after.winner(&rules), Some(Color::White));
}

/// English rules on 6x6 without d4 and c3. Black: a5-b4, c5-b4, e5-f4 (3); White: b2-a3, d2-e3, f2-e3 (3, 9).
/// Black's third ply: after a5-b4, 2 (b2-a3) or 3; after c5-b4, 3 or 4 or 4; after e5-f4, 5, 1 (f4xe3 after
/// d2-e3) or 4 (29).
#[test]
fn holes_by_hand() {
    let rules = DefinedRules::from_toml(HOLES).expect("the example reads");
    let start = DefinedPosition::start(&rules);
    let counts: Vec<u64> = (1..=3).map(|d| perft(&rules, &start, d)).collect();
    assert_eq!(counts, [3, 9, 29], "\n{}", start.diagram(&rules));
}

/// Nothing stands on a hole and nothing crosses one.
#[test]
fn holes_are_not_squares() {
    let rules = DefinedRules::from_toml(HOLES).expect("the example reads");
    assert!(rules.cell_named("test", "d4").is_err());
    let start = DefinedPosition::start(&rules);
    let d4 = 2 * rules.width + 3;
    assert!(!rules.playable[d4]);
    for mv in legal_moves(&rules, &start) {
        assert!(!mv.path.contains(&d4));
    }
}

/// A player with no move loses, or wins if the definition says so.
#[test]
fn the_end_follows_the_definition() {
    let rules = DefinedRules::from_toml(HOLES).expect("the example reads");
    let lost = DefinedPosition::empty(&rules, Color::White);
    assert_eq!(lost.winner(&rules), Some(Color::Black));
    let giveaway = HOLES.replace("no_moves = \"loses\"", "no_moves = \"wins\"");
    let rules = DefinedRules::from_toml(&giveaway).expect("the variant reads");
    assert_eq!(lost.winner(&rules), Some(Color::White));
}

/// A Thai king on c3 between men on d4 and b2: taken pieces leave at once, so after taking one it can turn
/// straight back over the square it came from and take the other, unless the definition forbids the turn.
#[test]
fn turning_back_between_captures_follows_the_definition() {
    const THAI: &str = include_str!("../builtin/thai.toml");
    for (text, taken) in [
        (THAI.to_string(), 2),
        (
            THAI.replace(
                "removal = \"at-once\"",
                "removal = \"at-once\"\nmay_reverse = false",
            ),
            1,
        ),
    ] {
        let rules = DefinedRules::from_toml(&text).expect("the variant reads");
        let (man, king) = (rules.kind_index("man"), rules.kind_index("king"));
        let (Some(man), Some(king)) = (man, king) else {
            panic!("Thai has men and kings");
        };
        let at = |name: &str| rules.cell_named("test", name).expect("a square");
        let mut pos = DefinedPosition::empty(&rules, Color::White);
        pos.cells[at("c3")] = Some((Color::White, king));
        pos.cells[at("d4")] = Some((Color::Black, man));
        pos.cells[at("b2")] = Some((Color::Black, man));
        let moves = legal_moves(&rules, &pos);
        assert_eq!(moves.len(), 2, "{moves:?}");
        assert!(moves.iter().all(|m| m.captured.len() == taken), "{moves:?}");
    }
}

/// The `value` precedence takes the most value, not the most pieces.
#[test]
fn the_value_precedence_weighs_the_pieces() {
    let text = include_str!("../builtin/english.toml")
        .replace("precedence = \"free\"", "precedence = \"value\"")
        .replace("letter = 'k'", "letter = 'k'\nvalue = 3");
    let rules = DefinedRules::from_toml(&text).expect("the variant reads");
    let (Some(man), Some(king)) = (rules.kind_index("man"), rules.kind_index("king")) else {
        panic!("English has men and kings");
    };
    let at = |name: &str| rules.cell_named("test", name).expect("a square");
    // White's man on d2 can take two men (c3, then c5) or one king (e3).
    let mut pos = DefinedPosition::empty(&rules, Color::White);
    pos.cells[at("d2")] = Some((Color::White, man));
    pos.cells[at("c3")] = Some((Color::Black, man));
    pos.cells[at("c5")] = Some((Color::Black, man));
    pos.cells[at("e3")] = Some((Color::Black, king));
    let moves = legal_moves(&rules, &pos);
    assert_eq!(moves.len(), 1, "{moves:?}");
    assert_eq!(moves[0].captured, [at("e3")]);
}

/// A position that does not fit the board, built by hand, has no moves rather than a panic.
#[test]
fn a_position_off_the_board_has_no_moves() {
    let rules = DefinedRules::from_toml(HOLES).expect("the example reads");
    let mut short = DefinedPosition::start(&rules);
    short.cells.truncate(5);
    let mut unknown_kind = DefinedPosition::start(&rules);
    let mut on_a_hole = DefinedPosition::start(&rules);
    let b4 = rules.cell_named("test", "b4").expect("a square");
    unknown_kind.cells[b4] = Some((Color::Black, 99));
    on_a_hole.cells[2 * rules.width + 3] = Some((Color::Black, 0));
    for pos in [short, unknown_kind, on_a_hole] {
        assert!(!pos.fits(&rules));
        assert!(legal_moves(&rules, &pos).is_empty());
        assert_eq!(perft(&rules, &pos, 2), 0);
        let _ = pos.diagram(&rules);
    }
}
