//! The engine in variants defined by their players: the one search ([`Searcher`]) walking the definition's
//! rules, with an evaluation read off the definition.
//!
//! A definition has only its data, so the search walks it on the general generator's board, or for a definition
//! that moves as Turkish draughts on the fast generator's bitboards ([`games`]), which walk the same tree several
//! times faster. The evaluation is material by each kind's `value` (scaled to centipawns), a bonus for each step
//! forward of a piece that can still promote, and the definition's goal: no move loses (or wins, in the give-away
//! game), promoting wins where that is the rule. The search has no network, databases or tuned parameters here:
//! the defaults serve.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

#[path = "defined_games.rs"]
mod games;

use super::rng::Rng;
use super::search::{Root, SearchRules, Searcher};
use super::tt::TranspositionTable;
use super::{EngineConfig, Level, Limits, Progress, Score, SearchResult};
use crowned_game::KingRuns;
use crowned_rules::defined::DefinedBoard;
use games::{General, Turkish};

/// The depth of the `medium` level, and of `hard`: a definition's nodes are slower than a built-in rule set's.
const MEDIUM_DEPTH: u32 = 3;
const HARD_DEPTH: u32 = 6;

/// What a defined variant's search shares with the engine: its table, stop flag and setup.
pub(super) struct EngineParts<'a> {
    pub(super) table: &'a Arc<TranspositionTable>,
    pub(super) stop: &'a Arc<AtomicBool>,
    pub(super) config: &'a EngineConfig,
}

/// Chooses a move in a defined variant at `level`, `earlier` being the positions since the last capture.
pub(super) fn think(
    board: &DefinedBoard,
    earlier: &[DefinedBoard],
    level: Level,
    limits: &Limits,
    seed: u64,
    shared: EngineParts<'_>,
    progress: &mut dyn FnMut(&Progress),
) -> SearchResult {
    let moves = board.legal_moves();
    let mut rng = Rng::new(seed);
    if moves.is_empty() {
        return SearchResult {
            best: None,
            score: Score::Loss(0),
            depth: 0,
            nodes: 0,
            pv: Vec::new(),
        };
    }
    let pick = |rng: &mut Rng| moves[rng.below(moves.len())];
    let depth_cap = match level {
        Level::Random => return single(pick(&mut rng)),
        // The weak level looks one move ahead and sometimes plays at random, as a beginner would.
        Level::Easy if rng.below(3) == 0 => return single(pick(&mut rng)),
        Level::Easy => Some(1),
        Level::Medium => Some(MEDIUM_DEPTH),
        Level::Hard => Some(HARD_DEPTH),
        Level::Max => None,
    };
    let limits = Limits {
        depth: match (limits.depth, depth_cap) {
            (Some(depth), Some(cap)) => Some(depth.min(cap)),
            (depth, cap) => depth.or(cap),
        },
        ..*limits
    };
    let id = board.id();
    let root = board.to_position();
    let earlier: Vec<_> = earlier.iter().map(DefinedBoard::to_position).collect();
    match Turkish::new(id, &root) {
        Some(rules) => {
            let (root, earlier) = (
                rules.position(&root),
                earlier.iter().map(|p| rules.position(p)).collect(),
            );
            search(rules, root, earlier, &limits, shared, progress)
        }
        None => {
            let rules = General::new(id);
            let (root, earlier) = (
                rules.position(&root),
                earlier.iter().map(|p| rules.position(p)).collect(),
            );
            search(rules, root, earlier, &limits, shared, progress)
        }
    }
}

/// The search of `rules` from `root`, `earlier` before it.
fn search<S: SearchRules>(
    rules: S,
    root: S::Pos,
    earlier: Vec<S::Pos>,
    limits: &Limits,
    shared: EngineParts<'_>,
    progress: &mut dyn FnMut(&Progress),
) -> SearchResult {
    let mut searcher = Searcher::new(
        rules,
        Arc::clone(shared.table),
        Arc::clone(shared.stop),
        shared.config,
    );
    let root = Root {
        position: &root,
        earlier: &earlier,
        // A definition's quiet-move limit counts its own moves, which the search does not tell apart: it is left
        // to the game, and the search looks for repetitions back to the last capture.
        move_limit_plies: 0,
        king_runs: KingRuns::none(0),
    };
    searcher.search_from(&root, limits, progress)
}

fn single(best: crowned_rules::Move) -> SearchResult {
    SearchResult {
        best: Some(best),
        score: Score::Centi(0),
        depth: 0,
        nodes: 0,
        pv: vec![best],
    }
}

#[cfg(test)]
mod tests {
    use super::games::position_key;
    use super::*;
    use crowned_rules::defined::{DefinedPosition, register};
    use std::time::{Duration, Instant};

    /// [`think`] with a small table of its own and the default setup.
    fn think_alone(
        board: &DefinedBoard,
        level: Level,
        limits: &Limits,
        seed: u64,
        stop: &Arc<AtomicBool>,
    ) -> SearchResult {
        let table = Arc::new(TranspositionTable::new(1));
        let config = EngineConfig::default();
        let shared = EngineParts {
            table: &table,
            stop,
            config: &config,
        };
        think(board, &[], level, limits, seed, shared, &mut |_| {})
    }

    fn leapers() -> DefinedBoard {
        let id = register(include_str!("../../../variants/leapers.toml")).expect("loads");
        DefinedBoard::start(id)
    }

    #[test]
    fn every_level_plays_a_legal_move_and_the_search_sees_a_free_piece() {
        let board = leapers();
        let stop = Arc::new(AtomicBool::new(false));
        for level in Level::ALL {
            let result = think_alone(&board, level, &Limits::depth(3), 7, &stop);
            let best = result.best.expect("a move");
            assert!(board.legal_moves().contains(&best), "{level:?}");
        }
        // White to move takes Black's last piece, and sees that it wins.
        let id = board.id();
        let pos = crowned_rules::defined::from_fen(id, "W:Wa1,b2:Bc3").expect("fen");
        let result = think_alone(&pos, Level::Max, &Limits::depth(4), 1, &stop);
        let best = result.best.expect("a move");
        assert!(best.is_capture(), "{best:?}");
        assert_eq!(result.score, Score::Win(1));
    }

    #[test]
    fn keys_tell_positions_apart_and_agree_on_equal_ones() {
        let id = crowned_rules::defined::load_builtin("turkish")
            .expect("built in")
            .expect("loads");
        let rules = &id.get().rules;
        let mut pos = DefinedPosition::start(rules);
        let mut rng = Rng::new(5);
        let mut seen: Vec<DefinedPosition> = Vec::new();
        for _ in 0..80 {
            let moves = crowned_rules::defined::legal_moves(rules, &pos);
            if moves.is_empty() {
                break;
            }
            seen.push(pos.clone());
            pos = pos.play(&moves[rng.below(moves.len())]);
        }
        for a in &seen {
            for b in &seen {
                assert_eq!(position_key(a) == position_key(b), a == b);
            }
            let mut other = a.clone();
            other.side = a.side.opponent();
            assert_ne!(position_key(a), position_key(&other));
        }
    }

    #[test]
    fn a_raised_stop_flag_ends_the_search_with_a_legal_move() {
        let board = leapers();
        let stop = Arc::new(AtomicBool::new(true));
        let limits = Limits::time(Duration::from_secs(30));
        let started = Instant::now();
        let result = think_alone(&board, Level::Max, &limits, 1, &stop);
        assert!(started.elapsed() < Duration::from_secs(5));
        assert!(board.legal_moves().contains(&result.best.expect("a move")));
    }
}
