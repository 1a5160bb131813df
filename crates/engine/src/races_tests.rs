//! Races of men on concrete positions. On the 10x10 board square 26 is the left edge of the sixth row from
//! the top, 5 the right end of the top row and 25 the right edge of the fifth.

use super::*;
use crate::engine_rules::EngineRules;
use crate::engine_rules::evaluate_rules;
use crowned_rules::{Breakthrough, Frisian, Frysk, International, Piece, parse_fen};

fn at<R: RuleSet>(fen: &str) -> Position<R> {
    parse_fen(fen).expect("valid FEN")
}

/// The rows to go of each side's nearest free man.
fn nearest<R: RuleSet>(fen: &str) -> (Option<i32>, Option<i32>) {
    let pos = at::<R>(fen);
    (
        free_men(&pos, Color::White).nearest,
        free_men(&pos, Color::Black).nearest,
    )
}

#[test]
fn men_far_apart_are_both_free() {
    assert_eq!(nearest::<Breakthrough>("W:W26:B5"), (Some(5), Some(9)));
    // Wider cones where pieces capture along the rows too, but the men are still out of each other's way.
    assert_eq!(nearest::<Frisian>("W:W26:B5"), (Some(5), Some(9)));
}

#[test]
fn a_man_ahead_within_reach_stops_a_runner() {
    // Black 17 stands two rows ahead of White 26 and two columns over: it meets the man, and is met in turn.
    assert_eq!(nearest::<Breakthrough>("W:W26:B5,17"), (None, Some(9)));
    // Black 3 is five rows ahead of White 28 and one column over.
    assert_eq!(nearest::<Breakthrough>("W:W28:B3"), (None, None));
}

#[test]
fn a_man_diagonally_behind_may_take_backwards() {
    // Black 33 stands right behind White 28: either may take the other.
    assert_eq!(nearest::<Breakthrough>("W:W28:B33"), (None, None));
}

#[test]
fn a_king_stops_every_man() {
    assert_eq!(nearest::<Frisian>("W:W26:BK5"), (None, None));
    assert_eq!(nearest::<Frisian>("W:WK26:B5"), (None, None));
}

#[test]
fn the_side_to_move_wins_an_even_race() {
    // Five rows to go each, out of each other's way: the side to move crowns first.
    let white = at::<Breakthrough>("W:W26:B25");
    let black = at::<Breakthrough>("B:W26:B25");
    assert!(race_for_black(&white, Races::Decisive) < -300);
    assert!(race_for_black(&black, Races::Decisive) > 300);
    assert!(evaluate_rules(&white) > 300, "{}", evaluate_rules(&white));
    assert!(evaluate_rules(&black) > 300, "{}", evaluate_rules(&black));
}

#[test]
fn a_won_race_outweighs_material() {
    // White is two men down, but its man on 26 crowns long before anything of Black's: Black's men are at
    // home, all out of its way on the right.
    let pos = at::<Breakthrough>("W:W26:B4,5,10");
    assert!(evaluate_rules(&pos) > 0, "{}", evaluate_rules(&pos));
}

#[test]
fn only_the_racing_rule_sets_count_races() {
    assert_eq!(Breakthrough::RACES, Races::Decisive);
    assert_eq!(Frisian::RACES, Races::Ignored);
    assert_eq!(Frysk::RACES, Races::Ignored);
    assert_eq!(International::RACES, Races::Ignored);
    let pos = at::<International>("W:W26:B25");
    assert_eq!(race_for_black(&pos, International::RACES), 0);
}

/// The same position with the board turned half a circle and the colours swapped.
fn mirror<R: RuleSet>(pos: &Position<R>) -> Position<R> {
    let last = R::GEOMETRY.squares() - 1;
    let mut out = Position::<R>::empty(pos.side_to_move().opponent());
    for (square, piece) in pos.pieces() {
        let turned = Square::from_index(last - square.index());
        out.set_piece(turned, Some(Piece::new(piece.color.opponent(), piece.role)));
    }
    out
}

#[test]
fn races_score_mirrored_positions_alike() {
    for fen in [
        "W:W26:B5",
        "B:W26:B25",
        "W:W26:B5,17",
        "W:W28:B33",
        "B:W26,31,44:B1,3,5,12",
        "W:W16,36:B29,35",
    ] {
        // Frisian's zones (captures along files and ranks too) and Breakthrough's, under the one scoring used.
        let races = Races::Decisive;
        let pos = at::<Frisian>(fen);
        let turned = mirror(&pos);
        assert_eq!(
            race_for_black(&pos, races),
            -race_for_black(&turned, races),
            "{fen}"
        );
        let pos = at::<Breakthrough>(fen);
        let turned = mirror(&pos);
        assert_eq!(
            race_for_black(&pos, races),
            -race_for_black(&turned, races),
            "{fen}"
        );
    }
}
