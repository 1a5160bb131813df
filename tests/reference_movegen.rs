//! The bitboard generator against a plain, obviously-correct one written from the rules text on an 8x8 array.
//!
//! Both list every legal move with its route and captures; they must agree on random positions (including many
//! kings, which the start position reaches only deep in the tree) and on positions from random games.

use std::collections::BTreeSet;

use crowned::rules::{Color, Geometry, Move, Piece, Position, Role, Square};
use proptest::prelude::*;

mod common;
use common::{arbitrary_position, played_position};

const G: Geometry = Geometry::EIGHT;

/// A move as the reference sees it: start, landing squares, captured squares (by number).
type Plain = (u32, Vec<u32>, BTreeSet<u32>);

fn square_at(row: i32, col: i32) -> Option<Square> {
    if (0..8).contains(&row) && (0..8).contains(&col) {
        G.at(row as u32, col as u32)
    } else {
        None
    }
}

/// All legal moves by the rules of English draughts, found the slow way, every route listed.
fn reference_moves(pos: &Position) -> BTreeSet<Plain> {
    let side = pos.side_to_move();
    let forward = if side == Color::Black { 1 } else { -1 };
    let crowning_row = if side == Color::Black { 7 } else { 0 };
    let mut captures = BTreeSet::new();
    let mut simple = BTreeSet::new();
    for (square, piece) in pos.pieces().filter(|(_, p)| p.color == side) {
        let (row, col) = G.row_col(square);
        let (row, col) = (row as i32, col as i32);
        let dirs: Vec<(i32, i32)> = match piece.role {
            Role::Man => vec![(forward, -1), (forward, 1)],
            Role::King => vec![(-1, -1), (-1, 1), (1, -1), (1, 1)],
        };
        for &(dr, dc) in &dirs {
            if let Some(to) = square_at(row + dr, col + dc)
                && pos.piece_at(to).is_none()
            {
                simple.insert((square.number(), vec![to.number()], BTreeSet::new()));
            }
        }
        let mut path = Vec::new();
        jumps(
            pos,
            square,
            piece,
            (row, col),
            &dirs,
            crowning_row,
            &mut path,
            &mut BTreeSet::new(),
            &mut captures,
        );
    }
    if captures.is_empty() {
        simple
    } else {
        captures
    }
}

#[allow(clippy::too_many_arguments)]
fn jumps(
    pos: &Position,
    start: Square,
    piece: Piece,
    (row, col): (i32, i32),
    dirs: &[(i32, i32)],
    crowning_row: i32,
    path: &mut Vec<u32>,
    taken: &mut BTreeSet<u32>,
    out: &mut BTreeSet<Plain>,
) {
    let mut went_on = false;
    for &(dr, dc) in dirs {
        let (Some(over), Some(land)) = (
            square_at(row + dr, col + dc),
            square_at(row + 2 * dr, col + 2 * dc),
        ) else {
            continue;
        };
        let enemy = pos.piece_at(over).is_some_and(|p| p.color != piece.color);
        // The landing square must be empty; the piece's own start square is empty once it has left.
        let free = pos.piece_at(land).is_none() || land == start;
        if !enemy || !free || taken.contains(&over.number()) {
            continue;
        }
        went_on = true;
        path.push(land.number());
        taken.insert(over.number());
        let crowned_here = piece.role == Role::Man && row + 2 * dr == crowning_row;
        if crowned_here {
            // Crowning ends the move.
            out.insert((start.number(), path.clone(), taken.clone()));
        } else {
            jumps(
                pos,
                start,
                piece,
                (row + 2 * dr, col + 2 * dc),
                dirs,
                crowning_row,
                path,
                taken,
                out,
            );
        }
        taken.remove(&over.number());
        path.pop();
    }
    if !went_on && !path.is_empty() {
        out.insert((start.number(), path.clone(), taken.clone()));
    }
}

fn plain(m: &Move) -> Plain {
    (
        m.from().number(),
        m.path().iter().map(|s| s.number()).collect(),
        m.captured().map(|s| s.number()).collect(),
    )
}

fn check_position(pos: &Position) {
    let expected = reference_moves(pos);
    let with_dups = pos.legal_moves_with_duplicates();
    let got: BTreeSet<Plain> = with_dups.iter().map(plain).collect();
    assert_eq!(
        got.len(),
        with_dups.len(),
        "a route listed twice in {pos:?}"
    );
    assert_eq!(got, expected, "moves differ in {pos:?}");
    // The merged list keeps exactly one route per (start, end, captured pieces).
    let merged = pos.legal_moves();
    let effects: BTreeSet<(u32, u32, BTreeSet<u32>)> = expected
        .iter()
        .map(|(f, p, c)| (*f, *p.last().expect("a move lands somewhere"), c.clone()))
        .collect();
    assert_eq!(merged.len(), effects.len(), "merged moves in {pos:?}");
    assert_eq!(
        pos.must_capture(),
        expected.iter().any(|(_, _, c)| !c.is_empty())
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(10_000))]

    #[test]
    fn agrees_on_random_positions(pos in arbitrary_position()) {
        check_position(&pos);
    }

    #[test]
    fn agrees_along_random_games(pos in played_position(120)) {
        check_position(&pos);
    }
}

#[test]
fn crowning_ends_a_capture() {
    // The white man on 11 takes 7 and is crowned on 2. As a king it could take 6 next, but the move ends.
    let pos: Position = crowned::rules::parse_fen("W:W11:B6,7").expect("valid");
    let moves = pos.legal_moves();
    assert_eq!(
        moves.iter().map(plain).collect::<Vec<_>>(),
        vec![(11, vec![2], BTreeSet::from([7]))]
    );
    assert!(moves[0].crowns());
    check_position(&pos);
}
