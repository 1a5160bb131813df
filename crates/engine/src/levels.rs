//! The playing levels below full strength, and the choice of what each level does.

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use super::engine_rules::EngineRules;
use super::engine_rules::evaluate_rules as evaluate;
use super::moves::{MoveBuf, SearchMove, moves_of};
use super::rng::Rng;
use super::score::{WIN, terminal_score};
use super::variants::king_value;
use super::{Engine, Level, Limits, Score, SearchResult};
use crowned_rules::{Move, Position, Role, RuleSet};

/// The depth of the `medium` level's plain minimax.
pub const MEDIUM_DEPTH: u32 = 5;
/// The deepest the `hard` level searches.
pub const HARD_DEPTH: u32 = 8;

impl Level {
    /// What a search at this level is given when a move may take `think_time`. Every level is given the time
    /// as its limit: the weaker ones stop sooner of their own accord (`hard` at its depth, `medium` after its
    /// fixed search), so the time only bounds them.
    pub fn limits(self, think_time: Duration) -> Limits {
        Limits::time(think_time)
    }
}

/// A uniformly random legal move (`legal` is not empty).
pub(super) fn random(legal: &[Move], rng: &mut Rng) -> SearchResult {
    single(legal[rng.below(legal.len())], Score::Centi(0), 0, 0)
}

/// The limits of the `hard` level: those given, but never deeper than [`HARD_DEPTH`].
pub(super) fn hard_limits(limits: &Limits) -> Limits {
    Limits {
        depth: Some(limits.depth.unwrap_or(HARD_DEPTH).min(HARD_DEPTH)),
        ..*limits
    }
}

fn single(best: Move, score: Score, depth: u32, nodes: u64) -> SearchResult {
    SearchResult {
        best: Some(best),
        score,
        depth,
        nodes,
        pv: vec![best],
    }
}

/// A beginner's choice: take kings, crown, keep the back row, do not leave the moved piece to be taken;
/// otherwise anything. One move deep, so it walks into shots.
pub(super) fn easy<R: RuleSet>(pos: &Position<R>, legal: &[Move], rng: &mut Rng) -> SearchResult {
    let side = pos.side_to_move();
    let back_row = Position::<R>::crowning_row(side.opponent());
    let g = R::GEOMETRY;
    // A king taken is worth 300 and a crowning 150 where kings are short (as always in English); where they
    // fly, the same ratios to the evaluation's value of a king.
    let king = const { king_value::<R>() };
    let (take_king, crown) = if R::FLYING_KINGS {
        (king + 170, king)
    } else {
        (300, 150)
    };
    let their_men = pos.count(side.opponent(), Role::Man);
    let scored = legal.iter().map(|m| {
        let mut score = 0;
        for square in m.captured() {
            score += match pos.piece_at(square).map(|p| p.role) {
                Some(Role::King) => take_king,
                _ => 100,
            };
        }
        if m.crowns() {
            score += crown;
        }
        let after = pos.play(m);
        let replies = after.legal_moves();
        if replies.iter().any(|r| r.captured().any(|s| s == m.to())) {
            score -= 120;
        } else if replies.iter().any(|r| r.is_capture()) {
            score -= 40;
        }
        let moving_man = pos.piece_at(m.from()).is_some_and(|p| p.role == Role::Man);
        if moving_man && g.row_col(m.from()).0 == back_row && their_men > 0 {
            score -= 40;
        }
        score += rng.below(30) as i32;
        (score, *m)
    });
    let (score, best) = scored.max_by_key(|(s, _)| *s).unwrap_or((0, legal[0]));
    single(best, Score::Centi(score), 1, legal.len() as u64)
}

/// A plain fixed-depth minimax (with alpha-beta, which gives the same values) over the evaluation, every root
/// move scored exactly, and a random choice among the best.
pub(super) fn medium<R: EngineRules>(
    engine: &Engine,
    pos: &Position<R>,
    limits: &Limits,
    rng: &mut Rng,
) -> SearchResult {
    let depth = limits.depth.unwrap_or(MEDIUM_DEPTH).clamp(1, MEDIUM_DEPTH);
    let mut plain = Plain {
        nodes: 0,
        stop: engine.stop(),
        deadline: limits.time.map(|t| Instant::now() + t),
        stopped: false,
    };
    let mut root = MoveBuf::new();
    moves_of(pos, &mut root);
    let mut best_score = -WIN - 1;
    let mut best: Vec<SearchMove<R::Bits>> = Vec::new();
    for &m in &root {
        let score = -plain.negamax(&m.play(pos), depth as i32 - 1, 1, -WIN, WIN);
        if plain.stopped && !best.is_empty() {
            break;
        }
        if score > best_score {
            best_score = score;
            best.clear();
        }
        if score == best_score {
            best.push(m);
        }
    }
    let chosen = best[rng.below(best.len())];
    let mv = chosen.to_move(pos).unwrap_or_else(|| pos.legal_moves()[0]);
    single(mv, Score::from_internal(best_score), depth, plain.nodes)
}

struct Plain<'a> {
    nodes: u64,
    stop: &'a std::sync::atomic::AtomicBool,
    deadline: Option<Instant>,
    stopped: bool,
}

impl Plain<'_> {
    fn negamax<R: EngineRules>(
        &mut self,
        pos: &Position<R>,
        depth: i32,
        ply: i32,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        self.nodes += 1;
        if self.nodes & 1023 == 0
            && (self.stop.load(Ordering::Relaxed)
                || self.deadline.is_some_and(|d| Instant::now() >= d))
        {
            self.stopped = true;
        }
        if let Some(winner) = pos.crowned_winner() {
            return terminal_score(winner == pos.side_to_move(), ply as usize);
        }
        let mut moves = MoveBuf::new();
        moves_of(pos, &mut moves);
        if moves.is_empty() {
            return terminal_score(
                pos.winner_without_moves() == pos.side_to_move(),
                ply as usize,
            );
        }
        if depth <= 0 || self.stopped {
            return evaluate(pos);
        }
        let mut best = -WIN;
        for &m in &moves {
            let score = -self.negamax(&m.play(pos), depth - 1, ply + 1, -beta, -alpha);
            best = best.max(score);
            alpha = alpha.max(score);
            if alpha >= beta {
                break;
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_level_is_given_the_time() {
        let time = Duration::from_millis(750);
        for level in Level::ALL {
            assert_eq!(level.limits(time), Limits::time(time), "{level}");
        }
    }
}
