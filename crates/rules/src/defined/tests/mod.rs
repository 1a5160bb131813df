//! Tests of the definitions and the general generator.

mod against_fast;
mod fairy;
mod malformed;
mod reference;
mod turkish;
mod turkish_fast;

use super::{DefinedPosition, DefinedRules};
use crate::{Position, Role, RuleSet};

/// The pieces and side to move of a fast generator's position, on the board of `rules`: men are the kind named
/// `man` and kings the kind named `king`.
pub(super) fn from_fast<R: RuleSet>(rules: &DefinedRules, pos: &Position<R>) -> DefinedPosition {
    let man = rules.kind_index("man").expect("a kind named man");
    let king = rules.kind_index("king").expect("a kind named king");
    let g = R::GEOMETRY;
    let mut out = DefinedPosition::empty(rules, pos.side_to_move());
    for (square, piece) in pos.pieces() {
        let (row, col) = g.row_col(square);
        let kind = match piece.role {
            Role::Man => man,
            Role::King => king,
        };
        out.cells[row as usize * rules.width + col as usize] = Some((piece.color, kind));
    }
    out
}
