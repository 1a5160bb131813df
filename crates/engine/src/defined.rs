//! The engine for variants defined by their players: a plain alpha-beta search, with an evaluation read off the
//! definition.
//!
//! The built-in rule sets have tuned searchers compiled for them; a definition has only its data, so this is the
//! textbook search: negamax alpha-beta with iterative deepening, a transposition table, killer and history move
//! ordering, captures searched one ply deeper at the horizon, the stop flag and time limits checked every few
//! nodes. It plays on the general generator's board, or for a definition that moves as Turkish draughts on the
//! fast generator's bitboards ([`games`]), which walk the same tree several times faster. The evaluation is
//! material by each kind's `value` (scaled to centipawns), a bonus for each step forward of a piece that can
//! still promote, and the definition's goal: no move loses (or wins, in the give-away game), promoting wins
//! where that is the rule.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use smallvec::SmallVec;

#[path = "defined_games.rs"]
mod games;

use super::rng::Rng;
use super::time_plan::TimePlan;
use super::{Level, Limits, Progress, Score, SearchResult};
use crowned_rules::Move;
use crowned_rules::defined::{DefinedBoard, DefinedMove, DefinedRules, NoMoves};
use games::{General, Generator, Turkish, WIN};

/// The deepest search.
const MAX_DEPTH: u32 = 64;
/// The depth of the `medium` level, and of `hard`.
const MEDIUM_DEPTH: u32 = 3;
const HARD_DEPTH: u32 = 6;
/// Entries of the transposition table (a power of two): a few megabytes, more than a move's search at
/// match speeds fills, and quickly cleared for each move.
const TABLE_ENTRIES: usize = 1 << 18;
/// Extra plies of captures at the horizon.
const CAPTURE_PLIES: u32 = 6;
/// Plies the killer moves are kept for: every ply a search reaches.
const PLIES: usize = (MAX_DEPTH + CAPTURE_PLIES + 2) as usize;
/// A move's history score is halved for all once one passes this, so that recent cut-offs count more.
const HISTORY_LIMIT: u32 = 1 << 24;

/// What the table knows of a position: the slot is the key's low bits, the whole key checks it is the same one.
#[derive(Clone, Copy)]
struct Entry {
    key: u64,
    score: i32,
    depth: u16,
    bound: Bound,
    /// The best move's index, or `NO_MOVE`.
    best: u16,
}

const NO_MOVE: u16 = u16::MAX;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Bound {
    Exact,
    Lower,
    Upper,
    /// Only the best move is worth keeping: the score came from a draw by repetition on the line, which holds
    /// only for the line that led there.
    MoveOnly,
}

const EMPTY: Entry = Entry {
    key: 0,
    score: 0,
    depth: 0,
    bound: Bound::MoveOnly,
    best: NO_MOVE,
};

struct Search<'a, G: Generator> {
    game: G,
    stop: &'a AtomicBool,
    deadline: Option<Instant>,
    nodes: u64,
    node_limit: Option<u64>,
    stopped: bool,
    /// Always replaced: a search at these speeds is short and the latest entries are the most useful.
    table: Vec<Entry>,
    /// Repetitions: the positions of the game since the last irreversible move, then those of the line.
    line: Vec<u64>,
    /// Whether a score below came from a repetition (and so must not be stored as the position's own).
    repeated: bool,
    /// Per ply, the two latest quiet moves that cut the search off: tried early in sibling positions.
    killers: Vec<[Option<G::Move>; 2]>,
    /// Per (from, to) of a quiet move, how much its cut-offs were worth: the order of the other quiet moves.
    history: Vec<u32>,
}

/// Chooses a move in a defined variant at `level`.
pub(super) fn think(
    board: &DefinedBoard,
    earlier: &[DefinedBoard],
    level: Level,
    limits: &Limits,
    seed: u64,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(&Progress),
) -> SearchResult {
    let moves = board.moves_with_routes();
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
    let pick = |rng: &mut Rng| moves[rng.below(moves.len())].0;
    let depth_cap = match level {
        Level::Random => return single(pick(&mut rng)),
        // The weak level looks one move ahead and sometimes plays at random, as a beginner would.
        Level::Easy if rng.below(3) == 0 => return single(pick(&mut rng)),
        Level::Easy => 1,
        Level::Medium => MEDIUM_DEPTH,
        Level::Hard => HARD_DEPTH,
        Level::Max => MAX_DEPTH,
    };
    let rules = &board.entry().rules;
    let root = board.to_position();
    let run = Run {
        board,
        earlier,
        moves: &moves,
        max_depth: limits.depth.unwrap_or(MAX_DEPTH).clamp(1, depth_cap),
        limits,
        stop,
    };
    match Turkish::new(rules, &root) {
        Some(game) => run.go(game, progress),
        None => run.go(General::new(rules), progress),
    }
}

/// One search of [`think`], on whichever [`Generator`] plays the rules.
struct Run<'a> {
    board: &'a DefinedBoard,
    earlier: &'a [DefinedBoard],
    moves: &'a [(Move, DefinedMove)],
    max_depth: u32,
    limits: &'a Limits,
    stop: &'a AtomicBool,
}

impl Run<'_> {
    fn go<G: Generator>(&self, game: G, progress: &mut dyn FnMut(&Progress)) -> SearchResult {
        let moves = self.moves;
        let first = moves[0].0;
        let plan = TimePlan::new(self.limits);
        let started = Instant::now();
        let root = game.position(&self.board.to_position());
        let cells = game.rules().width * game.rules().height;
        let root_moves: Vec<G::Move> = moves.iter().map(|(_, m)| game.convert(m)).collect();
        let line = self
            .earlier
            .iter()
            .map(|b| game.key(&game.position(&b.to_position())))
            .collect();
        let mut search = Search {
            game,
            stop: self.stop,
            deadline: plan.map(|p| started + p.hard),
            nodes: 0,
            node_limit: self.limits.nodes,
            stopped: false,
            table: vec![EMPTY; TABLE_ENTRIES],
            line,
            repeated: false,
            killers: vec![[None, None]; PLIES],
            history: vec![0; cells * cells],
        };
        let mut result = SearchResult {
            best: Some(first),
            score: Score::Centi(0),
            depth: 0,
            nodes: 0,
            pv: vec![first],
        };
        for depth in 1..=self.max_depth {
            let (score, best) = search.root(&root, &root_moves, depth);
            if search.stopped && depth > 1 {
                break;
            }
            let best = best.unwrap_or(0);
            result = SearchResult {
                best: Some(moves[best].0),
                score: to_score(score),
                depth,
                nodes: search.nodes,
                pv: vec![moves[best].0],
            };
            progress(&Progress {
                depth,
                score: result.score,
                nodes: search.nodes,
                elapsed: started.elapsed(),
                pv: result.pv.clone(),
            });
            let decided = score.abs() > WIN - MAX_DEPTH as i32 * 2;
            let on_time = plan.is_none_or(|p| p.go_on(started.elapsed(), 1.0));
            if search.stopped || decided || !on_time {
                break;
            }
        }
        result.nodes = search.nodes;
        result
    }
}

fn single(best: Move) -> SearchResult {
    SearchResult {
        best: Some(best),
        score: Score::Centi(0),
        depth: 0,
        nodes: 0,
        pv: vec![best],
    }
}

fn to_score(score: i32) -> Score {
    let bound = WIN - 2 * MAX_DEPTH as i32 - 2 * CAPTURE_PLIES as i32;
    if score > bound {
        Score::Win(((WIN - score) as u32).div_ceil(2))
    } else if score < -bound {
        Score::Loss(((WIN + score) as u32).div_ceil(2))
    } else {
        Score::Centi(score)
    }
}

/// The score of a side that has no move, or has lost to a promotion, `ply` plies from the root.
fn no_move_score(rules: &DefinedRules, ply: u32) -> i32 {
    match rules.no_moves {
        NoMoves::Loses => -(WIN - ply as i32),
        NoMoves::Wins => WIN - ply as i32,
    }
}

impl<G: Generator> Search<'_, G> {
    fn out_of_time(&mut self) -> bool {
        if self.nodes.is_multiple_of(256) {
            let late = self.deadline.is_some_and(|d| Instant::now() >= d);
            let too_many = self.node_limit.is_some_and(|n| self.nodes >= n);
            if late || too_many || self.stop.load(Ordering::Relaxed) {
                self.stopped = true;
            }
        }
        self.stopped
    }

    fn probe(&self, key: u64) -> Option<Entry> {
        let e = self.table[key as usize & (TABLE_ENTRIES - 1)];
        (e.key == key).then_some(e)
    }

    fn store(&mut self, key: u64, depth: u32, score: i32, bound: Bound, best: Option<usize>) {
        self.table[key as usize & (TABLE_ENTRIES - 1)] = Entry {
            key,
            score,
            depth: depth as u16,
            bound,
            best: best.map_or(NO_MOVE, |b| b.min(usize::from(NO_MOVE - 1)) as u16),
        };
    }

    fn root(&mut self, pos: &G::Pos, moves: &[G::Move], depth: u32) -> (i32, Option<usize>) {
        let key = self.game.key(pos);
        let mut order: Vec<usize> = (0..moves.len()).collect();
        if let Some(best) = self.probe(key).map(|e| usize::from(e.best)) {
            order.retain(|&i| i != best);
            order.insert(0, best);
        }
        let (mut alpha, beta) = (-WIN - 1, WIN + 1);
        let mut best = None;
        self.line.push(key);
        for i in order {
            let next = self.game.play(pos, &moves[i]);
            let score = -self.negamax(&next, depth - 1, 1, -beta, -alpha);
            if self.stopped {
                break;
            }
            if score > alpha || best.is_none() {
                alpha = score;
                best = Some(i);
            }
        }
        self.line.pop();
        if !self.stopped {
            self.store(key, depth, alpha, Bound::Exact, best);
        }
        (alpha, best)
    }

    /// The order to try `moves` in: the table's move, then captures (the most pieces first), the killers, and
    /// the other quiet moves by history.
    fn order(&self, moves: &[G::Move], first: Option<usize>, ply: u32) -> SmallVec<[usize; 48]> {
        let killers = &self.killers[(ply as usize).min(PLIES - 1)];
        let rank = |i: usize| -> u32 {
            let mv = &moves[i];
            let taken = self.game.taken(mv) as u32;
            if Some(i) == first {
                u32::MAX
            } else if taken > 0 {
                (1 << 30) + taken
            } else if killers[0].as_ref() == Some(mv) {
                (1 << 29) + 1
            } else if killers[1].as_ref() == Some(mv) {
                1 << 29
            } else {
                self.history[self.game.route(mv)]
            }
        };
        let mut order: SmallVec<[usize; 48]> = (0..moves.len()).collect();
        order.sort_by_cached_key(|&i| std::cmp::Reverse(rank(i)));
        order
    }

    /// A quiet move cut the search off `depth` plies from the horizon at `ply`: a killer there, and worth more.
    fn cut_by(&mut self, mv: &G::Move, depth: u32, ply: u32) {
        let killers = &mut self.killers[(ply as usize).min(PLIES - 1)];
        if killers[0].as_ref() != Some(mv) {
            killers[1] = killers[0].replace(mv.clone());
        }
        let slot = &mut self.history[self.game.route(mv)];
        *slot += depth * depth;
        if *slot > HISTORY_LIMIT {
            self.history.iter_mut().for_each(|h| *h /= 2);
        }
    }

    fn negamax(&mut self, pos: &G::Pos, depth: u32, ply: u32, mut alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        if self.out_of_time() {
            return 0;
        }
        if let Some(score) = self.game.ended(pos, ply) {
            return score;
        }
        let key = self.game.key(pos);
        // A position seen before on the line or in the game: a draw by repetition is near enough.
        if self.line.contains(&key) {
            self.repeated = true;
            return 0;
        }
        let moves = self.game.moves(pos);
        if moves.is_empty() {
            return no_move_score(self.game.rules(), ply);
        }
        let captures = moves.iter().any(|m| self.game.taken(m) > 0);
        if depth == 0 && (!captures || ply >= MAX_DEPTH + CAPTURE_PLIES) {
            return self.game.evaluate(pos);
        }
        let mut first = None;
        if let Some(e) = self.probe(key) {
            if u32::from(e.depth) >= depth {
                let usable = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => e.score >= beta,
                    Bound::Upper => e.score <= alpha,
                    Bound::MoveOnly => false,
                };
                if usable {
                    return e.score;
                }
            }
            first = Some(usize::from(e.best)).filter(|&b| b < moves.len());
        }
        // At the horizon only captures go on, one ply at a time.
        let next_depth = depth.saturating_sub(1);
        let original = alpha;
        let mut best_score = -WIN - 1;
        let mut best = None;
        let outer_repeated = std::mem::replace(&mut self.repeated, false);
        self.line.push(key);
        for i in self.order(&moves, first, ply) {
            let next = self.game.play(pos, &moves[i]);
            let score = -self.negamax(&next, next_depth, ply + 1, -beta, -alpha);
            if self.stopped {
                self.line.pop();
                return 0;
            }
            if score > best_score {
                best_score = score;
                best = Some(i);
            }
            alpha = alpha.max(score);
            if alpha >= beta {
                if self.game.taken(&moves[i]) == 0 {
                    self.cut_by(&moves[i], depth, ply);
                }
                break;
            }
        }
        self.line.pop();
        let bound = if self.repeated {
            Bound::MoveOnly
        } else if best_score <= original {
            Bound::Upper
        } else if best_score >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.repeated |= outer_repeated;
        self.store(key, depth, best_score, bound, best);
        best_score
    }
}

#[cfg(test)]
mod tests {
    use super::games::position_key;
    use super::*;
    use crowned_rules::defined::{DefinedPosition, register};
    use std::time::Duration;

    fn leapers() -> DefinedBoard {
        let id = register(include_str!("../../../variants/leapers.toml")).expect("loads");
        DefinedBoard::start(id)
    }

    #[test]
    fn every_level_plays_a_legal_move_and_the_search_sees_a_free_piece() {
        let board = leapers();
        let stop = AtomicBool::new(false);
        for level in Level::ALL {
            let result = think(&board, &[], level, &Limits::depth(3), 7, &stop, &mut |_| {});
            let best = result.best.expect("a move");
            assert!(board.legal_moves().contains(&best), "{level:?}");
        }
        // White to move takes Black's last piece, and sees that it wins.
        let id = board.id();
        let pos = crowned_rules::defined::from_fen(id, "W:Wa1,b2:Bc3").expect("fen");
        let result = think(
            &pos,
            &[],
            Level::Max,
            &Limits::depth(4),
            1,
            &stop,
            &mut |_| {},
        );
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
        let stop = AtomicBool::new(true);
        let limits = Limits::time(Duration::from_secs(30));
        let started = Instant::now();
        let result = think(&board, &[], Level::Max, &limits, 1, &stop, &mut |_| {});
        assert!(started.elapsed() < Duration::from_secs(5));
        assert!(board.legal_moves().contains(&result.best.expect("a move")));
    }
}
