//! The Frisian limit on a king's quiet moves: while a side still has men, one king may make at most three
//! non-capturing moves in a row; after the third that king may only capture, and the side moves another piece.
//!
//! The rule depends on the moves before, so it lives with the game, not the position. Sources: the Frisian
//! federation's rules as lidraughts and pydraughts word them ("it is not allowed to play more than three
//! non-capturing moves in a row with the same king ... This rule does not apply for a player that has no more
//! men left").

use crowned_rules::{Color, GamePosition, Move, MoveList, Role, Square};

/// The king of the side to move after `moves` that may not make another quiet move, if the rules limit king
/// moves and it has used them up. `positions[i]` is the position before `moves[i]`; the last position is the
/// one to move from.
pub fn barred_king<P: GamePosition>(positions: &[P], moves: &[Move]) -> Option<Square> {
    let now = positions.last()?;
    let limit = now.variant().king_moves_in_a_row() as usize;
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
pub fn is_barred(barred: Option<Square>, mv: &Move) -> bool {
    barred.is_some_and(|king| !mv.is_capture() && mv.from() == king)
}

/// The legal moves of `pos` less the quiet moves of the barred king.
pub fn allowed(pos: &impl GamePosition, barred: Option<Square>) -> MoveList {
    let mut moves = pos.legal_moves();
    moves.retain(|m| !is_barred(barred, m));
    moves
}

/// Each side's run of quiet moves by one king, as the Frisian limit counts them: the square the king stands on
/// and how many quiet moves in a row it has made. The search carries this from node to node, so that every node
/// has the moves the game would allow there, not only the root.
///
/// A run is kept only where it can still matter: for a side with men, and a king still on its square.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct KingRuns {
    /// By [`Color::index`]: the king's square and its quiet moves in a row (at least one).
    runs: [Option<(Square, u8)>; 2],
    /// Quiet moves in a row after which the king may only capture; 0 where the rules have no limit.
    limit: u8,
}

impl KingRuns {
    /// No runs, under rules that limit a king to `limit` quiet moves in a row (0: no limit).
    pub fn none(limit: u8) -> KingRuns {
        KingRuns {
            runs: [None; 2],
            limit,
        }
    }

    /// The quiet moves in a row after which a king may only capture (0: the rules have no limit).
    pub fn limit(&self) -> u8 {
        self.limit
    }

    /// `side`'s run: its king's square and the quiet moves it has made in a row.
    pub fn of(&self, side: Color) -> Option<(Square, u8)> {
        self.runs[side.index()]
    }

    /// Sets `side`'s run (`None` to end it).
    pub fn set(&mut self, side: Color, run: Option<(Square, u8)>) {
        self.runs[side.index()] = run;
    }

    /// The king of `side` that may make no more quiet moves, if it has made as many as the limit.
    pub fn barred(&self, side: Color) -> Option<Square> {
        let (square, count) = self.of(side)?;
        (self.limit > 0 && count >= self.limit).then_some(square)
    }
}

/// Both sides' runs after `moves` (see [`KingRuns`]), `positions[i]` being the position before `moves[i]` and
/// the last position the one to move from. Counted as [`barred_king`] counts the side to move's.
pub fn king_runs<P: GamePosition>(positions: &[P], moves: &[Move]) -> KingRuns {
    let Some(now) = positions.last() else {
        return KingRuns::none(0);
    };
    let limit = now.variant().king_moves_in_a_row();
    let mut runs = KingRuns::none(u8::try_from(limit).unwrap_or(u8::MAX));
    if limit == 0 {
        return runs;
    }
    // The last move is the other side's, the one before it the side to move's.
    for back in [1, 2] {
        let Some(last) = moves.len().checked_sub(back) else {
            continue;
        };
        let side = positions[last].side_to_move();
        if now.count(side, Role::Man) == 0 {
            continue;
        }
        let (mut ply, mut at, mut count) = (last, None, 0u32);
        loop {
            let (before, mv) = (&positions[ply], &moves[ply]);
            let by_king = before
                .piece_at(mv.from())
                .is_some_and(|p| p.color == side && p.role == Role::King);
            if !by_king || mv.is_capture() || at.is_some_and(|square| square != mv.to()) {
                break;
            }
            at = Some(mv.from());
            count += 1;
            if count >= limit || ply < 2 {
                break;
            }
            ply -= 2;
        }
        let king = moves[last].to();
        let still_there = now
            .piece_at(king)
            .is_some_and(|p| p.color == side && p.role == Role::King);
        if count > 0 && still_there {
            runs.set(side, Some((king, count as u8)));
        }
    }
    runs
}
