//! The evaluation of a defined variant's position, read off its definition: what each kind of piece is worth,
//! how far the pieces that promote have come, and in a won ending the pressure that converts it.
//!
//! A definition's `value` is what the capture precedence counts, and many definitions leave it at one for every
//! kind (Turkish: "kings and men count alike" when choosing a capture). Played as worth, that would make a king no
//! better than a man, and the engine would neither crown nor keep its kings; so a kind that others promote to, and
//! that the definition does not value above them, is worth three of them here.
//!
//! A side far ahead against a few pieces can still draw by wandering until the draw rule ends the game: the
//! material does not change as it shuffles, so the search sees nothing to gain. The mop-up term (as chess
//! engines use in won endings) gives it a slope to climb: the weaker side's pieces pushed towards the edges and
//! corners, the stronger side's promoted pieces closing in on them.

use crowned_rules::Color;
use crowned_rules::defined::{DefinedPosition, DefinedRules, MAX_KINDS, NoMoves};

/// A promoted kind's worth against the kinds that promote to it, where the definition gives it no more.
const PROMOTED_WORTH: i32 = 3;
/// Centipawns a side must be ahead by for the mop-up term: more than a man.
const MOP_UP_LEAD: i32 = 150;
/// The weaker side has at most this many pieces for the mop-up term.
const MOP_UP_PIECES: usize = 3;
/// Per cell: a weaker piece's distance from the centre, and a promoted piece's distance to its nearest one.
const EDGE_WEIGHT: i32 = 10;
const CHASE_WEIGHT: i32 = 4;

/// What each kind is worth in hundredths, by index.
pub(crate) fn worths(rules: &DefinedRules) -> [i32; MAX_KINDS] {
    let mut worth = [0; MAX_KINDS];
    for (k, kind) in rules.kinds.iter().enumerate().take(MAX_KINDS) {
        worth[k] = 100 * kind.value as i32;
        let from = rules
            .kinds
            .iter()
            .filter(|other| other.promotion.is_some_and(|(to, _)| to == k))
            .map(|other| other.value)
            .max();
        if let Some(from) = from.filter(|&from| kind.value <= from) {
            worth[k] = PROMOTED_WORTH * 100 * from as i32;
        }
    }
    worth
}

/// The evaluation for the side to move: material by worth, how far pieces that promote have come, and in a
/// won ending the mop-up term. The kinds' worths ([`worths`]) are worked out once, by the search.
pub(crate) fn evaluate_with(
    rules: &DefinedRules,
    worth: &[i32; MAX_KINDS],
    pos: &DefinedPosition,
) -> i32 {
    let mut material = [0i32; 2];
    let mut progress = [0i32; 2];
    let mut pieces = [0usize; 2];
    for (cell, occupant) in pos.cells.iter().enumerate() {
        let Some((color, kind)) = *occupant else {
            continue;
        };
        let k = &rules.kinds[kind];
        let c = color.index();
        material[c] += worth[kind];
        pieces[c] += 1;
        if let Some((_, row)) = k.promotion {
            progress[c] += 6 * rules.row_from_own_side(cell, color).min(row) as i32;
        }
    }
    let (me, them) = (pos.side.index(), pos.side.opponent().index());
    let mut score = material[me] + progress[me] - material[them] - progress[them];
    match rules.no_moves {
        // In the give-away game material is a burden, and there is nothing to mop up.
        NoMoves::Wins => -score,
        NoMoves::Loses => {
            let lead = material[me] - material[them];
            let weaker = if lead > 0 { them } else { me };
            if mops_up(lead, pieces[weaker]) {
                let strong = if lead > 0 {
                    pos.side
                } else {
                    pos.side.opponent()
                };
                let mop = mop_up(rules, pos, strong);
                score += if strong == pos.side { mop } else { -mop };
            }
            score
        }
    }
}

/// Whether the mop-up term counts: one side leads by `lead` (either sign) and the other has `weaker_pieces`.
pub(crate) fn mops_up(lead: i32, weaker_pieces: usize) -> bool {
    lead.abs() >= MOP_UP_LEAD && weaker_pieces <= MOP_UP_PIECES
}

/// The stronger side's gain from the weaker side's pieces near the edges and its promoted pieces near them.
fn mop_up(rules: &DefinedRules, pos: &DefinedPosition, strong: Color) -> i32 {
    let (width, height) = (rules.width as i32, rules.height as i32);
    let at = |cell: usize| ((cell / rules.width) as i32, (cell % rules.width) as i32);
    let weak: Vec<(i32, i32)> = pos
        .cells
        .iter()
        .enumerate()
        .filter(|(_, o)| o.is_some_and(|(c, _)| c != strong))
        .map(|(cell, _)| at(cell))
        .collect();
    let mut mop = 0;
    for &(row, col) in &weak {
        // Twice the distance from the centre, so that even boards have a whole number.
        let off_centre = (2 * row - (height - 1)).abs() + (2 * col - (width - 1)).abs();
        mop += EDGE_WEIGHT * off_centre / 2;
    }
    for (cell, occupant) in pos.cells.iter().enumerate() {
        let Some((color, kind)) = *occupant else {
            continue;
        };
        if color != strong || !rules.kinds[kind].is_king {
            continue;
        }
        let (row, col) = at(cell);
        let nearest = weak
            .iter()
            .map(|&(r, c)| (r - row).abs().max((c - col).abs()))
            .min()
            .unwrap_or(0);
        mop -= CHASE_WEIGHT * nearest;
    }
    mop
}

#[cfg(test)]
#[path = "defined_eval_tests.rs"]
mod tests;
