//! How deep a move is searched beyond the plain depth: the hash move extended when it is singular (every other
//! move fails well below its score), and late quiet moves reduced by how far the static score is from the window.

use super::{Here, SearchRules, Searcher, from_table};
use crate::score::{DB_WIN, MAX_PLY};
use crate::search_params::SearchParams;
use crate::tt::{Bound, Entry};

/// How much shallower than the node the table's entry may have been searched for its hash move to be tried as
/// singular: a shallower score says too little about the move.
const SINGULAR_ENTRY_SLACK: i32 = 3;

impl<S: SearchRules> Searcher<S> {
    /// The fingerprint of the hash move at this node if it is singular, else 0.
    ///
    /// The hash move is singular when a search of every other move, at about half the depth, fails below the
    /// move's stored score less the margin: the line hangs on that one move, which then earns a ply more. Tried
    /// only where the table holds a lower bound or exact score for the move from a search nearly as deep, and
    /// while the line is shorter than twice the iteration's depth, so that extensions cannot make it grow
    /// without end.
    pub(super) fn singular_move(
        &mut self,
        here: &Here<S::Pos>,
        entry: &Entry,
        depth: i32,
        ply: usize,
    ) -> u32 {
        let params = &self.params;
        if params.singular_depth == 0
            || depth < params.singular_depth
            || ply == 0
            || ply as i32 >= 2 * self.root_depth
            || ply >= MAX_PLY / 2
            || entry.best == 0
            || entry.bound == Bound::Upper
            || i32::from(entry.depth) < depth - SINGULAR_ENTRY_SLACK
        {
            return 0;
        }
        let stored = from_table(entry.score, ply);
        // Database and search wins are not sharpened by a ply more.
        if stored.abs() >= DB_WIN - MAX_PLY as i32 {
            return 0;
        }
        let bar = stored - params.singular_margin;
        self.excluded[ply] = entry.best;
        let others = self.node(here, (depth - 1) / 2, ply, bar - 1, bar);
        self.excluded[ply] = 0;
        // The search of the others used this ply's line; the node's own line starts empty again.
        self.pv_len[ply] = 0;
        if !self.stopped && others < bar {
            entry.best
        } else {
            0
        }
    }
}

/// Plies added to a late quiet move's reduction at a node whose static score is `standing` (when it is not a
/// win) and window's lower bound `alpha`: one for each `eval_reduction_margin` the score is below alpha, at most
/// `eval_reduction_max`; one less when the score is at or above alpha, where a quiet move may well raise it.
pub(super) fn eval_reduction(standing: Option<i32>, alpha: i32, params: &SearchParams) -> i32 {
    let Some(standing) = standing else {
        return 0;
    };
    if params.eval_reduction_margin <= 0 {
        return 0;
    }
    if standing >= alpha {
        return -1;
    }
    // Both are bounded (scores are within the win bounds), so the difference does not overflow.
    ((alpha - standing) / params.eval_reduction_margin).min(params.eval_reduction_max)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(margin: i32, max: i32) -> SearchParams {
        SearchParams {
            eval_reduction_margin: margin,
            eval_reduction_max: max,
            ..SearchParams::default()
        }
    }

    #[test]
    fn a_static_score_far_below_alpha_reduces_more_and_one_above_it_less() {
        let p = params(50, 2);
        assert_eq!(eval_reduction(Some(0), 0, &p), -1);
        assert_eq!(eval_reduction(Some(80), 0, &p), -1);
        assert_eq!(eval_reduction(Some(-49), 0, &p), 0);
        assert_eq!(eval_reduction(Some(-50), 0, &p), 1);
        assert_eq!(eval_reduction(Some(-120), 0, &p), 2);
        assert_eq!(eval_reduction(Some(-5000), 0, &p), 2, "capped");
        assert_eq!(eval_reduction(None, 0, &p), 0, "no static score, no change");
    }

    #[test]
    fn without_a_margin_the_static_score_changes_no_reduction() {
        let p = params(0, 2);
        for standing in [-5000, -100, 0, 100] {
            assert_eq!(eval_reduction(Some(standing), 0, &p), 0);
        }
    }
}
