//! Move ordering: which move the node loop tries next, and what a cutoff teaches the killers and history.

use smallvec::SmallVec;

use super::{Moves, SearchRules, Searcher};

impl<S: SearchRules> Searcher<S> {
    /// Learns from a quiet move `m` that cut off at `ply` with `depth` left: a killer there, and history.
    pub(super) fn remember_cutoff(&mut self, m: S::Move, ply: usize, depth: i32) {
        let (from, to) = self.rules.history_slot(&m);
        let killers = &mut self.killers[ply];
        if killers[0] != m {
            killers.swap(0, 1);
            killers[0] = m;
        }
        let h = &mut self.history[from][to];
        *h = (*h + depth * depth).min(1 << 20);
    }

    /// Ordering scores: the table's move, then captures taking most, crownings, killers, then by history.
    // Inlined by hand: once the search became generic, the compiler stopped inlining this (and the collection
    // inside it) into the node loop, which cost English about 3% of its instructions (callgrind, bench).
    #[inline(always)]
    pub(super) fn score_moves(
        &self,
        pos: &S::Pos,
        moves: &Moves<S::Move>,
        tt_move: u32,
        ply: usize,
    ) -> SmallVec<[i32; 32]> {
        let rules = &self.rules;
        let killers = &self.killers[ply];
        // A plain loop rather than `collect`: the collection is not inlined in the generic search.
        let mut scores = SmallVec::new();
        for m in moves {
            let crowns = rules.crowns(pos, m);
            scores.push(if tt_move != 0 && rules.fingerprint(m) == tt_move {
                1 << 30
            } else if rules.is_capture(m) {
                (1 << 28) + rules.taken(m) as i32 * 1000 + i32::from(crowns) * 500
            } else if crowns {
                1 << 27
            } else if *m == killers[0] {
                1 << 26
            } else if *m == killers[1] {
                (1 << 26) - 1
            } else {
                let (from, to) = rules.history_slot(m);
                self.history[from][to]
            });
        }
        scores
    }
}

/// Moves the best-scored move at or after `i` to `i`.
// Inlined by hand for the same reason as `score_moves`.
#[inline(always)]
pub(super) fn pick_next<M>(moves: &mut Moves<M>, scores: &mut [i32], i: usize) {
    let best = (i..moves.len())
        .max_by_key(|&j| (scores[j], std::cmp::Reverse(j)))
        .unwrap_or(i);
    moves.swap(i, best);
    scores.swap(i, best);
}
