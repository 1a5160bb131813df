//! The full-strength search: iterative deepening principal variation search with a transposition table, move
//! ordering by hash move, killers and history, and captures searched out to quiet positions.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::egdb::{self, Egdb, Wld};
use super::engine_rules::EngineRules;
use super::king_runs::Runs;
use super::nnue::NetCache;
use super::score::{DB_WIN, KNOWN_WIN, MAX_DEPTH, MAX_PLY, WIN, terminal_score};
use super::search_params::{Reductions, SearchParams};
use super::situation::Situation;
use super::time_plan::{TimePlan, Unrest};
use super::tt::{Bound, TranspositionTable};
use super::{EngineConfig, Evaluation, Limits, Progress, Score, SearchResult};
use crowned_game::KingRuns;
use crowned_rules::Move;
use ordering::pick_next;
pub(crate) use rules::{Fast, HISTORY_SQUARES, Moves, SearchRules};

mod ordering;
mod rules;
mod singular;

/// A node of the search: the position, its key, the plies since the last irreversible move, and the kings'
/// runs of quiet moves (Frisian).
struct Here<P> {
    pos: P,
    key: u64,
    quiet: u32,
    runs: Runs,
}

/// Where a search starts: the position, the positions before it since the last irreversible move (oldest first),
/// the move limit in plies (0: none) and the kings' runs.
pub(crate) struct Root<'a, P> {
    pub(crate) position: &'a P,
    pub(crate) earlier: &'a [P],
    pub(crate) move_limit_plies: u32,
    pub(crate) king_runs: KingRuns,
}

/// The search state kept between searches: the transposition table and the ordering heuristics.
///
/// The state is typed by the rules it walks ([`SearchRules`]), as its moves are theirs; the table is not, and
/// is shared: by the searchers of several rule sets, and by the threads of one search.
pub(crate) struct Searcher<S: SearchRules> {
    rules: S,
    tt: Arc<TranspositionTable>,
    /// Cutoff counts by the layout bits of a quiet move's squares. 128 covers the widest layout (104 bits); an
    /// 8x8 board uses the first 36 of each row, so the cache lines it touches are the ones a 64-wide table had.
    history: Box<[[i32; HISTORY_SQUARES]; HISTORY_SQUARES]>,
    killers: [[S::Move; 2]; MAX_PLY],
    pv: Box<[[S::Move; MAX_PLY]; MAX_PLY]>,
    pv_len: [usize; MAX_PLY],
    /// Keys of the positions on the way to the current node (game history first).
    path: Vec<u64>,
    /// Plies without capture or man move at each entry of `path`.
    quiet: Vec<u32>,
    move_limit: u32,
    nodes: u64,
    stop: Arc<AtomicBool>,
    deadline: Option<Instant>,
    node_limit: Option<u64>,
    stopped: bool,
    /// The next node looks at the clock and the stop flag whatever its count (set after a costly probe).
    look_now: bool,
    /// Plies added to every iteration's depth: the helper threads of a parallel search search a little
    /// deeper than the main one, so that they do not all do the same work.
    depth_offset: u32,
    /// A helper leaves the table's generation to the main searcher.
    helper: bool,
    /// The endgame databases, probed where the rule set has them ([`EngineRules::probe`]).
    egdb: Option<Arc<Egdb>>,
    /// The win/draw/loss tables are probed only below this many pieces: the root's count, so that a search
    /// inside a table's ending finds its own way to a conversion (the tables know no distances: every won move
    /// would look alike) and takes a conversion they hold won.
    outcomes_below: u32,
    /// The evaluation asked for, and the network's accumulators when the rule set has a network for it.
    evaluation: Evaluation,
    net: Option<Box<NetCache>>,
    /// The margins and reductions, and the reductions' table computed from them.
    params: SearchParams,
    reductions: Reductions,
    /// The hash move's fingerprint left out at each ply while a singular search looks at the others (0: none).
    excluded: [u32; MAX_PLY],
    /// The depth of the iteration under way, which bounds how long a line extensions may make.
    root_depth: i32,
}

impl<R: EngineRules> Searcher<Fast<R>> {
    /// A searcher of the built-in rule set `R` using `tt` as its transposition table, set up as `config` says.
    pub fn with_table(
        tt: Arc<TranspositionTable>,
        stop: Arc<AtomicBool>,
        config: &EngineConfig,
    ) -> Searcher<Fast<R>> {
        Searcher::new(Fast::default(), tt, stop, config)
    }

    /// Searches `situation` within `limits`, calling `progress` after each completed depth.
    pub fn search(
        &mut self,
        situation: &Situation<R>,
        limits: &Limits,
        progress: &mut dyn FnMut(&Progress),
    ) -> SearchResult {
        let root = Root {
            position: &situation.position,
            earlier: &situation.earlier,
            move_limit_plies: situation.move_limit_plies,
            king_runs: situation.king_runs,
        };
        self.search_from(&root, limits, progress)
    }
}

/// `N` default moves: the "no move" of the killers and of the principal variation.
fn no_moves<M: Default, const N: usize>() -> [M; N] {
    std::array::from_fn(|_| M::default())
}

impl<S: SearchRules> Searcher<S> {
    /// A searcher of `rules` using `tt` as its transposition table, set up as `config` says.
    pub(crate) fn new(
        rules: S,
        tt: Arc<TranspositionTable>,
        stop: Arc<AtomicBool>,
        config: &EngineConfig,
    ) -> Searcher<S> {
        let params = rules.search_params();
        let net = rules.network(config.evaluation);
        // The table of lines is built on the heap: a hundred kilobytes or more is too much for a thread's stack.
        let pv: Vec<[S::Move; MAX_PLY]> = (0..MAX_PLY).map(|_| no_moves()).collect();
        let pv = pv
            .into_boxed_slice()
            .try_into()
            .unwrap_or_else(|_| unreachable!("MAX_PLY rows were made"));
        let mut searcher = Searcher {
            rules,
            tt,
            history: Box::new([[0; HISTORY_SQUARES]; HISTORY_SQUARES]),
            killers: no_moves::<[S::Move; 2], MAX_PLY>(),
            pv,
            pv_len: [0; MAX_PLY],
            path: Vec::new(),
            quiet: Vec::new(),
            move_limit: 80,
            nodes: 0,
            stop,
            deadline: None,
            node_limit: None,
            stopped: false,
            look_now: false,
            depth_offset: 0,
            helper: false,
            egdb: None,
            outcomes_below: 0,
            evaluation: config.evaluation,
            net,
            params,
            reductions: Reductions::new(&params),
            excluded: [0; MAX_PLY],
            root_depth: 0,
        };
        searcher.configure(config);
        searcher
    }

    /// Follows `config` from now on: its databases, evaluation and search parameters. The network's
    /// accumulators are made again only when the evaluation changes.
    pub fn configure(&mut self, config: &EngineConfig) {
        self.egdb = config.egdb.clone();
        if config.evaluation != self.evaluation {
            self.evaluation = config.evaluation;
            self.net = self.rules.network(config.evaluation);
        }
        let params = config.params.over(self.rules.search_params());
        if params != self.params {
            self.params = params;
            self.reductions = Reductions::new(&params);
        }
    }

    /// Makes this searcher a helper of a parallel search, searching `plies` deeper at each iteration.
    pub fn make_helper(&mut self, plies: u32) {
        self.depth_offset = plies;
        self.helper = true;
    }

    /// Replaces the flag that stops the search. The node loop reads the flag through the same field as before,
    /// so a per-search flag costs nothing per node.
    pub fn set_stop_flag(&mut self, stop: Arc<AtomicBool>) {
        self.stop = stop;
    }

    /// Forgets what earlier searches learned (for reproducible results).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.history.iter_mut().for_each(|row| row.fill(0));
        self.killers = no_moves::<[S::Move; 2], MAX_PLY>();
    }

    /// Searches from `root` within `limits`, calling `progress` after each completed depth.
    pub(crate) fn search_from(
        &mut self,
        situation: &Root<S::Pos>,
        limits: &Limits,
        progress: &mut dyn FnMut(&Progress),
    ) -> SearchResult {
        let started = Instant::now();
        self.nodes = 0;
        self.stopped = false;
        // A fixed time per move is a budget to spend whole, less a margin for what happens after the search
        // stops (returning the move, the time check's own granularity); a clock's time is planned move by move.
        let plan = TimePlan::new(limits);
        self.deadline = plan.map(|p| started + p.hard);
        let mut unrest = Unrest::default();
        self.node_limit = limits.nodes;
        self.move_limit = situation.move_limit_plies;
        if !self.helper {
            self.tt.new_search();
        }
        self.history.iter_mut().flatten().for_each(|h| *h /= 8);

        let root = situation.position;
        self.outcomes_below = self.rules.pieces(root);
        self.path.clear();
        self.quiet.clear();
        for (i, p) in situation.earlier.iter().enumerate() {
            self.path.push(self.rules.key(p));
            self.quiet.push(i as u32);
        }
        let here = Here {
            pos: root.clone(),
            key: self.rules.key(root),
            quiet: situation.earlier.len() as u32,
            runs: self.rules.runs(&situation.king_runs),
        };

        let mut root_moves = Moves::new();
        self.rules.moves(root, here.runs, &mut root_moves);
        let mut result = SearchResult {
            best: None,
            score: Score::Loss(0),
            depth: 0,
            nodes: 0,
            pv: Vec::new(),
        };
        if root_moves.is_empty() {
            return result;
        }
        // A first answer before any search, so that even an instant stop returns a legal move.
        result.best = self.rules.to_move(root, &root_moves[0]);
        result.score = Score::Centi(0);

        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let mut previous: i32 = 0;
        let first = (1 + self.depth_offset).min(max_depth);
        for depth in first..=max_depth {
            self.root_depth = depth as i32;
            let window = self.params.aspiration_window;
            let (mut alpha, mut beta) = if depth as i32 >= self.params.aspiration_depth
                && previous.abs() < WIN - MAX_PLY as i32
            {
                (previous - window, previous + window)
            } else {
                (-WIN, WIN)
            };
            let score = loop {
                let score = self.node(&here, depth as i32, 0, alpha, beta);
                if self.stopped {
                    break score;
                }
                if score <= alpha {
                    alpha = (alpha - self.params.aspiration_widen).max(-WIN);
                } else if score >= beta {
                    beta = (beta + self.params.aspiration_widen).min(WIN);
                } else {
                    break score;
                }
                if alpha == -WIN && beta == WIN {
                    break self.node(&here, depth as i32, 0, alpha, beta);
                }
            };
            if self.stopped && depth > first {
                break;
            }
            let score_fall = previous - score;
            previous = score;
            let pv: Vec<Move> = self.principal_variation(root);
            let best_changed = depth > 1 && pv.first().copied() != result.best;
            result = SearchResult {
                best: pv.first().copied().or(result.best),
                score: Score::from_internal(score),
                depth,
                nodes: self.nodes,
                pv,
            };
            progress(&Progress {
                depth,
                score: result.score,
                nodes: self.nodes,
                elapsed: started.elapsed(),
                pv: result.pv.clone(),
            });
            if self.stopped || root_moves.len() == 1 && depth >= 2 {
                break;
            }
            if score.abs() >= WIN - depth as i32 {
                // A forced result within the horizon: deeper search cannot change it.
                break;
            }
            let stretch = unrest.after_iteration(best_changed, score_fall);
            if plan.is_some_and(|p| !p.go_on(started.elapsed(), stretch)) {
                break;
            }
        }
        result.nodes = self.nodes;
        result
    }

    fn principal_variation(&self, root: &S::Pos) -> Vec<Move> {
        let mut pos = root.clone();
        let mut line = Vec::new();
        for sm in &self.pv[0][..self.pv_len[0]] {
            let Some(m) = self.rules.to_move(&pos, sm) else {
                break;
            };
            line.push(m);
            pos = self.rules.play(&pos, sm);
        }
        line
    }

    fn should_stop(&mut self) -> bool {
        let periodic = self.nodes & 1023 == 0;
        if periodic || self.look_now {
            self.look_now = false;
            let out_of_time = self.deadline.is_some_and(|d| Instant::now() >= d);
            // The node limit only at the periodic looks: where the others fall depends on which blocks happen
            // to be cached, and a search to a number of nodes must give the same answer every time.
            let out_of_nodes = periodic && self.node_limit.is_some_and(|n| self.nodes >= n);
            if out_of_time || out_of_nodes || self.stop.load(Ordering::Relaxed) {
                self.stopped = true;
            }
        }
        self.stopped
    }

    /// Whether the position with `key` already occurred with the same side to move since the last capture or
    /// man move.
    fn repeated(&self, key: u64, quiet: u32) -> bool {
        let back = (quiet as usize).min(self.path.len());
        self.path[self.path.len() - back..]
            .iter()
            .rev()
            .skip(1)
            .step_by(2)
            .any(|&k| k == key)
    }

    fn node(
        &mut self,
        here: &Here<S::Pos>,
        depth: i32,
        ply: usize,
        mut alpha: i32,
        mut beta: i32,
    ) -> i32 {
        let (pos, key, quiet) = (&here.pos, here.key, here.quiet);
        // The table's key: the position's, and the runs that decide its moves (repetitions go by the position).
        let tt_key = key ^ self.rules.runs_key(here.runs, pos);
        self.pv_len[ply] = 0;
        self.nodes += 1;
        if self.should_stop() {
            return 0;
        }
        if ply > 0 {
            if self.repeated(key, quiet) || self.move_limit > 0 && quiet >= self.move_limit {
                return 0;
            }
            // No line from here can do better than winning now or worse than losing now.
            alpha = alpha.max(-WIN + ply as i32);
            beta = beta.min(WIN - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }
        if let Some(won) = self.rules.decided(pos) {
            return terminal_score(won, ply);
        }
        let mut moves = Moves::new();
        self.rules.moves(pos, here.runs, &mut moves);
        if moves.is_empty() {
            return terminal_score(self.rules.wins_without_moves(pos), ply);
        }
        let forced_capture = self.rules.must_capture(&moves);
        if ply > 0 && !forced_capture {
            if let Some(value) = self.probe(pos) {
                return match value {
                    Wld::Win => DB_WIN - ply as i32,
                    Wld::Draw => 0,
                    Wld::Loss => -DB_WIN + ply as i32,
                };
            }
            if let Some(score) = self.probe_outcome_only(pos, ply) {
                return score;
            }
        }
        if (depth <= 0 && !forced_capture) || ply >= MAX_PLY - 1 {
            return self.evaluate(pos, ply);
        }

        let pv_node = beta - alpha > 1;
        // In a singular search the hash move is left out: the table's entry for this node speaks of a search
        // with it, so it neither cuts this one off nor is overwritten by it.
        let excluded = self.excluded[ply];
        let mut tt_move = 0;
        let mut tt_entry = None;
        if let Some(entry) = self.tt.probe(tt_key) {
            tt_move = entry.best;
            tt_entry = Some(entry);
            if !pv_node && excluded == 0 && i32::from(entry.depth) >= depth {
                let score = from_table(entry.score, ply);
                let cut = match entry.bound {
                    Bound::Exact => true,
                    Bound::Lower => score >= beta,
                    Bound::Upper => score <= alpha,
                };
                if cut {
                    return score;
                }
            }
        }

        // Near the horizon, with nothing to capture, the static score decides what is worth a look: far above
        // beta the opponent will not allow this line; far below alpha, quiet moves will not rescue it. Deeper,
        // it may decide how much late quiet moves are reduced.
        let params = &self.params;
        let (futility_depth, futility_margin) = (params.futility_depth, params.futility_margin);
        let (quiet_depth, quiet_margin) = (params.quiet_prune_depth, params.quiet_prune_margin);
        let futile_here = !pv_node && !forced_capture && depth <= futility_depth && ply > 0;
        let eval_reductions =
            params.eval_reduction_margin > 0 && !forced_capture && depth >= params.reduction_depth;
        let standing = if futile_here || eval_reductions {
            let standing = self.evaluate(pos, ply);
            (standing.abs() < WIN - MAX_PLY as i32).then_some(standing)
        } else {
            None
        };
        let mut prune_quiet = false;
        if futile_here && let Some(standing) = standing {
            if standing - futility_margin * depth >= beta {
                return standing;
            }
            prune_quiet = depth <= quiet_depth && standing + quiet_margin * depth <= alpha;
        }
        let eval_reduction = if eval_reductions {
            singular::eval_reduction(standing, alpha, &self.params)
        } else {
            0
        };
        let late_moves = (!pv_node && depth <= self.params.late_move_depth).then(|| {
            self.params.late_move_base + self.params.late_move_per_ply * depth.max(0) as usize
        });
        let singular_move = match tt_entry {
            Some(entry) if excluded == 0 && moves.len() > 1 => {
                self.singular_move(here, &entry, depth, ply)
            }
            _ => 0,
        };
        if self.stopped {
            return 0;
        }

        let mut scores = self.score_moves(pos, &moves, tt_move, ply);
        // A forced move costs no depth: it is not a choice.
        let extension = i32::from(moves.len() == 1);
        let original_alpha = alpha;
        let mut best_score = -WIN;
        let mut best = self.rules.fingerprint(&S::Move::default());
        self.path.push(key);
        self.quiet.push(quiet);
        for i in 0..moves.len() {
            // Best first, picked as needed: a cutoff often comes before the list would be sorted.
            pick_next(&mut moves, &mut scores, i);
            let m = &moves[i];
            let fingerprint = self.rules.fingerprint(m);
            if excluded != 0 && fingerprint == excluded {
                continue;
            }
            let is_capture = self.rules.is_capture(m);
            let quiet_move = !is_capture && !self.rules.crowns(pos, m) && !forced_capture;
            if i > 0 && quiet_move && (prune_quiet || late_moves.is_some_and(|late| i >= late)) {
                continue;
            }
            let irreversible = self.rules.irreversible(pos, m);
            let after = self.rules.play(pos, m);
            let child = Here {
                key: self.rules.key_after(key, pos, m, &after),
                pos: after,
                quiet: if irreversible { 0 } else { quiet + 1 },
                runs: self.rules.runs_after(here.runs, pos, m),
            };
            self.tt
                .prefetch(child.key ^ self.rules.runs_key(child.runs, &child.pos));
            let singular = i32::from(singular_move != 0 && fingerprint == singular_move);
            // A forced capture is no choice either, where the line still has room to grow.
            let capture = i32::from(
                self.params.capture_extension
                    && forced_capture
                    && extension == 0
                    && (ply as i32) < 2 * self.root_depth,
            );
            let new_depth = depth - 1 + extension + singular + capture;
            let score = if i == 0 {
                -self.node(&child, new_depth, ply + 1, -beta, -alpha)
            } else {
                // Late quiet moves are searched less deeply first; anything promising is searched again.
                let killer = *m == self.killers[ply][0] || *m == self.killers[ply][1];
                let reduce =
                    if depth >= self.params.reduction_depth && i >= 1 && quiet_move && !killer {
                        (self.reductions.get(depth, i) + i32::from(!pv_node) - i32::from(pv_node)
                            + eval_reduction)
                            .min(new_depth - 1)
                            .max(0)
                    } else {
                        0
                    };
                let mut s = -self.node(&child, new_depth - reduce, ply + 1, -alpha - 1, -alpha);
                if s > alpha && reduce > 0 {
                    s = -self.node(&child, new_depth, ply + 1, -alpha - 1, -alpha);
                }
                if s > alpha && s < beta {
                    s = -self.node(&child, new_depth, ply + 1, -beta, -alpha);
                }
                s
            };
            if self.stopped {
                break;
            }
            if score > best_score {
                best_score = score;
                best = fingerprint;
                if score > alpha {
                    alpha = score;
                    self.pv[ply][0] = m.clone();
                    let child_len = self.pv_len[ply + 1];
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    head[ply][1..=child_len].clone_from_slice(&tail[0][..child_len]);
                    self.pv_len[ply] = child_len + 1;
                    if score >= beta {
                        if !is_capture {
                            self.remember_cutoff(m.clone(), ply, depth);
                        }
                        break;
                    }
                }
            }
        }
        self.path.pop();
        self.quiet.pop();
        if self.stopped {
            return best_score;
        }
        if excluded != 0 {
            // Every other move may have been pruned unsearched: that is a fail low, as far as the hash move's
            // rivals go. Nothing is stored, the table's entry being about the node with its hash move.
            return best_score.max(original_alpha);
        }
        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_score > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(
            tt_key,
            best,
            to_table(best_score, ply),
            depth.clamp(0, 255) as u8,
            bound,
        );
        best_score
    }

    /// The static score of `pos` at `ply` for the side to move: the network's where the rules have one in
    /// use, else their evaluation.
    #[inline]
    fn evaluate(&mut self, pos: &S::Pos, ply: usize) -> i32 {
        self.rules.evaluate(&mut self.net, pos, ply)
    }

    /// The score of a position without captures that the other rule sets' win/draw/loss tables hold. They know
    /// no distances, so a win scores [`KNOWN_WIN`] plus the evaluation (which prefers the ways that convert: more
    /// material, men further on), far above any evaluation and below every proven score; a loss the same, negated.
    /// `None` where the tables say nothing the variant's draw rules let stand, and for as many pieces as the root
    /// has or more.
    #[inline]
    fn probe_outcome_only(&mut self, pos: &S::Pos, ply: usize) -> Option<i32> {
        if self.rules.pieces(pos) >= self.outcomes_below {
            return None;
        }
        let outcome = self.rules.outcome(self.egdb.as_deref()?, pos)?;
        if outcome == Wld::Draw {
            return Some(0);
        }
        // A win may take longer than an ending rule of the variant allows (international draughts: a lone king
        // against up to three pieces is drawn after 16 moves), and the tables know no lengths: there only their
        // draws are taken, and the search looks for the win itself.
        if self.rules.ending_holds(pos) {
            return None;
        }
        let progress = self.evaluate(pos, ply).clamp(-KNOWN_WIN / 4, KNOWN_WIN / 4);
        Some(match outcome {
            Wld::Win => KNOWN_WIN + progress,
            _ => -KNOWN_WIN + progress,
        })
    }

    /// The databases' outcome of a position without captures, where the rule set has databases that hold it.
    #[inline]
    fn probe(&mut self, pos: &S::Pos) -> Option<Wld> {
        let db = self.egdb.as_deref()?;
        let loads = egdb::loads_on_this_thread();
        let value = self.rules.probe(Some(db), pos);
        // A block read from the file can take longer than the nodes between two looks at the clock (the
        // disk, a loaded machine): the next node looks at once, so no run of such reads outlasts the move.
        self.look_now |= egdb::loads_on_this_thread() != loads;
        value
    }
}

/// Win scores are stored relative to the node, so that they stay right wherever the position is met again.
fn to_table(score: i32, ply: usize) -> i16 {
    let adjusted = if score >= WIN - MAX_PLY as i32 {
        score + ply as i32
    } else if score <= -WIN + MAX_PLY as i32 {
        score - ply as i32
    } else {
        score
    };
    adjusted.clamp(i16::MIN as i32, i16::MAX as i32) as i16
}

fn from_table(score: i16, ply: usize) -> i32 {
    let score = i32::from(score);
    if score >= WIN - MAX_PLY as i32 {
        score - ply as i32
    } else if score <= -WIN + MAX_PLY as i32 {
        score + ply as i32
    } else {
        score
    }
}
