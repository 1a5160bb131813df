//! The numbers that shape the full search: its window, pruning margins and reductions, gathered in one value so
//! that a match can compare two settings of one of them without editing the search.

/// The search's margins and reductions. [`SearchParams::default`] holds the values the engine plays with.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchParams {
    /// The first iteration searched in a window around the previous score rather than a full one.
    pub aspiration_depth: i32,
    /// Half the width of that window, in hundredths of a man.
    pub aspiration_window: i32,
    /// How far a bound of the window moves when the score falls outside it.
    pub aspiration_widen: i32,
    /// The deepest node whose static score may cut it off at once, far enough above beta.
    pub futility_depth: i32,
    /// How far above beta, per ply of depth left, the static score must be for that.
    pub futility_margin: i32,
    /// The deepest node whose quiet moves may be skipped when the static score is far below alpha.
    pub quiet_prune_depth: i32,
    /// How far below alpha, per ply of depth left, the static score must be for that.
    pub quiet_prune_margin: i32,
    /// The deepest node whose late quiet moves are skipped outside the principal variation.
    pub late_move_depth: i32,
    /// Quiet moves tried before late ones are skipped there, at any depth.
    pub late_move_base: usize,
    /// Further quiet moves tried for each ply of depth left.
    pub late_move_per_ply: usize,
    /// The shallowest node whose late quiet moves are searched less deeply first.
    pub reduction_depth: i32,
    /// The reduction's constant part, in plies: `base + ln(depth) * ln(move number) / divisor`, rounded down.
    pub reduction_base: f32,
    /// The reduction's divisor of the product of the logarithms.
    pub reduction_divisor: f32,
}

impl Default for SearchParams {
    fn default() -> SearchParams {
        SearchParams {
            aspiration_depth: 5,
            aspiration_window: 40,
            aspiration_widen: 200,
            futility_depth: 4,
            futility_margin: 60,
            quiet_prune_depth: 3,
            quiet_prune_margin: 90,
            late_move_depth: 3,
            late_move_base: 3,
            late_move_per_ply: 2,
            reduction_depth: 3,
            reduction_base: 0.5,
            reduction_divisor: 1.6,
        }
    }
}

/// The depths and move numbers a reduction is looked up by (beyond, the last row or column serves).
const REDUCTION_INDEX: usize = 64;

/// Plies to take off a late quiet move, by depth and move number, computed once from the parameters: more for
/// later moves and deeper searches (it grows with the logarithms of both).
#[derive(Clone)]
pub(crate) struct Reductions(Box<[[u8; REDUCTION_INDEX]; REDUCTION_INDEX]>);

impl Reductions {
    /// The table of `params`.
    pub(crate) fn new(params: &SearchParams) -> Reductions {
        let mut table = Box::new([[0u8; REDUCTION_INDEX]; REDUCTION_INDEX]);
        for (d, row) in table.iter_mut().enumerate().skip(1) {
            for (i, r) in row.iter_mut().enumerate() {
                let value = params.reduction_base
                    + (d as f32).ln() * (i as f32 + 1.0).ln() / params.reduction_divisor;
                // `as` saturates: a negative value is no reduction, a huge one the most a byte holds.
                *r = value as u8;
            }
        }
        Reductions(table)
    }

    /// The reduction at `depth` for the move at `index` in the order tried.
    #[inline]
    pub(crate) fn get(&self, depth: i32, index: usize) -> i32 {
        let d = (depth.max(0) as usize).min(REDUCTION_INDEX - 1);
        i32::from(self.0[d][index.min(REDUCTION_INDEX - 1)])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_reductions_grow_with_depth_and_move_number() {
        let table = Reductions::new(&SearchParams::default());
        assert_eq!(table.get(1, 10), 0);
        assert_eq!(table.get(3, 1), 0);
        assert!(table.get(8, 10) > table.get(4, 10));
        assert!(table.get(8, 20) >= table.get(8, 10));
        assert_eq!(table.get(200, 200), table.get(63, 63));
    }
}
