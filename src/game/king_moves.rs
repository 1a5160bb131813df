//! The Frisian limit on a king's quiet moves: while a side still has men, one king may make at most three
//! non-capturing moves in a row; after the third that king may only capture, and the side moves another piece.
//!
//! The rule depends on the moves before, so it lives with the game, not the position. Sources: the Frisian
//! federation's rules as lidraughts and pydraughts word them ("it is not allowed to play more than three
//! non-capturing moves in a row with the same king ... This rule does not apply for a player that has no more
//! men left").

use crate::rules::{Move, MoveList, Position, Role, RuleSet, Square};

/// The king of the side to move after `moves` that may not make another quiet move, if the rules limit king
/// moves and it has used them up. `positions[i]` is the position before `moves[i]`; the last position is the
/// one to move from.
pub(crate) fn barred_king<R: RuleSet>(positions: &[Position<R>], moves: &[Move]) -> Option<Square> {
    let limit = R::VARIANT.king_moves_in_a_row() as usize;
    let now = positions.last()?;
    let side = now.side_to_move();
    if limit == 0 || now.count(side, Role::Man) == 0 {
        return None;
    }
    // Walk back over the side's own moves (every second one): quiet moves by one king, each starting where the
    // one before it ended.
    let mut at = None;
    let mut count = 0;
    let mut ply = moves.len();
    while ply >= 2 && count < limit {
        let (before, mv) = (&positions[ply - 2], &moves[ply - 2]);
        let by_king = before
            .piece_at(mv.from())
            .is_some_and(|p| p.color == side && p.role == Role::King);
        if !by_king || mv.is_capture() || at.is_some_and(|square| square != mv.to()) {
            break;
        }
        at = Some(mv.from());
        count += 1;
        ply -= 2;
    }
    let king = moves.len().checked_sub(2).map(|last| moves[last].to())?;
    let still_there = now
        .piece_at(king)
        .is_some_and(|p| p.color == side && p.role == Role::King);
    (count >= limit && still_there).then_some(king)
}

/// Whether `mv` is a quiet move of the barred king.
pub(crate) fn is_barred(barred: Option<Square>, mv: &Move) -> bool {
    barred.is_some_and(|king| !mv.is_capture() && mv.from() == king)
}

/// The legal moves of `pos` less the quiet moves of the barred king.
pub(crate) fn allowed(pos: &Position<impl RuleSet>, barred: Option<Square>) -> MoveList {
    let mut moves = pos.legal_moves();
    moves.retain(|m| !is_barred(barred, m));
    moves
}
