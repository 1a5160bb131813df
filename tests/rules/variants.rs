//! Rule parameters beyond English draughts, each shown on a position where it decides the legal moves.

use crowned::rules::{
    Brazilian, English, Geometry, International, Pool, Position, RuleSet, Russian, SquareStyle,
    full_route, parse_fen,
};

fn moves<R: RuleSet>(fen: &str) -> Vec<String> {
    let pos: Position<R> = parse_fen(fen).expect("test FEN");
    pos.legal_moves()
        .iter()
        .map(|m| {
            let crown = if m.crowns() { " (crowned)" } else { "" };
            format!(
                "{}{crown}",
                full_route(m, SquareStyle::Numbers, R::GEOMETRY)
            )
        })
        .collect()
}

/// A white man on 9 takes 6 and reaches the far row on 2; beyond 7 the diagonal runs on to 11, 16 and 20.
const CROWNING_MID_CAPTURE: &str = "W:W9:B6,7";

#[test]
fn english_crowning_ends_the_move() {
    assert_eq!(moves::<English>(CROWNING_MID_CAPTURE), ["9x2 (crowned)"]);
}

#[test]
fn russian_man_goes_on_as_a_flying_king() {
    assert_eq!(
        moves::<Russian>(CROWNING_MID_CAPTURE),
        ["9x2x11 (crowned)", "9x2x16 (crowned)", "9x2x20 (crowned)"]
    );
}

#[test]
fn pool_man_goes_on_as_a_man_and_is_not_crowned() {
    assert_eq!(moves::<Pool>(CROWNING_MID_CAPTURE), ["9x2x11"]);
}

#[test]
fn flying_king_must_stop_where_it_can_go_on() {
    // The white king on 29 takes 22; of the squares beyond, only 18 lets it take 23 next.
    assert_eq!(moves::<Russian>("W:WK29:B22,23"), ["29x18x27", "29x18x32"]);
    // Without a second piece to take it may stop anywhere beyond.
    assert_eq!(
        moves::<Russian>("W:WK29:B22"),
        ["29x4", "29x8", "29x11", "29x15", "29x18"]
    );
}

#[test]
fn flying_king_simple_moves_run_the_whole_diagonal() {
    // The black man on 4 blocks the end of the long diagonal.
    assert_eq!(
        moves::<Russian>("W:WK29:B4"),
        ["29-8", "29-11", "29-15", "29-18", "29-22", "29-25"]
    );
    assert_eq!(moves::<English>("W:WK29:B4"), ["29-25"]);
}

#[test]
fn majority_rule_keeps_only_the_longest_capture() {
    // White's man on 28 can take 24 alone; the man on 21 can take 17 and then 10.
    let fen = "W:W21,28:B10,17,24";
    assert_eq!(moves::<Russian>(fen), ["21x14x7", "28x19"]);
    assert_eq!(moves::<Brazilian>(fen), ["21x14x7"]);
}

#[test]
fn international_board_starts_with_twenty_men_each() {
    let start: Position<International> = Position::start();
    assert_eq!(International::GEOMETRY, Geometry::TEN);
    assert_eq!(start.pieces().count(), 40);
    assert_eq!(start.legal_moves().len(), 9);
}
