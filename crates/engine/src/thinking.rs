//! The engine: its searchers and helper threads, kept from move to move, and the one entry that chooses a move.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use super::config::{EngineConfig, MAX_THREADS};
use super::egdb::Egdb;
use super::nnue::Evaluation;
use super::search::{Fast, Searcher};
use super::search_params::ParamOverrides;
use super::searchers::{self, AnySearcher, EngineVisitor, SearcherSlot};
use super::situation::{AnySituation, Situation};
use super::tt::TranspositionTable;
use super::{Level, Limits, Progress, Score, SearchResult, levels, rng};
use crowned_rules::defined::DefinedBoard;
use crowned_rules::{English, Playable, Position};

/// The engine: its search tables survive from move to move, as in a game.
///
/// It plays every rule set ([`Engine::think`]). One transposition table serves them all (the keys of each rule
/// set differ); the ordering heuristics are kept for English draughts and for the last other rule set played.
pub struct Engine {
    config: EngineConfig,
    table: Arc<TranspositionTable>,
    /// The searcher of English draughts, the rule set most played, kept whatever else the engine plays. Out of
    /// its place only while it searches.
    home: Option<AnySearcher>,
    /// The searcher of the last other rule set played.
    other: Option<AnySearcher>,
    /// The helper threads' searchers, sharing the table; made at the first search that uses them.
    helpers: Vec<AnySearcher>,
    stop: Arc<AtomicBool>,
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new()
    }
}

impl Engine {
    /// An engine set up as a game needs ([`EngineConfig::default`]), with a fresh stop flag.
    pub fn new() -> Engine {
        Engine::with_config(EngineConfig::default())
    }

    /// An engine set up by `config`, with a fresh stop flag.
    pub fn with_config(config: EngineConfig) -> Engine {
        let config = EngineConfig {
            threads: config.threads.clamp(1, MAX_THREADS),
            ..config
        };
        let table = Arc::new(TranspositionTable::new(config.table_megabytes));
        let stop = Arc::new(AtomicBool::new(false));
        let home =
            Searcher::<Fast<English>>::with_table(Arc::clone(&table), Arc::clone(&stop), &config);
        Engine {
            home: Some(English::wrap_searcher(Box::new(home))),
            other: None,
            helpers: Vec::new(),
            config,
            table,
            stop,
        }
    }

    /// The engine's setup as it is now.
    pub fn config(&self) -> &EngineConfig {
        &self.config
    }

    /// Gives every searcher the setup as it is now.
    fn configure_searchers(&mut self) {
        let searchers = self.home.iter_mut().chain(&mut self.other);
        for searcher in searchers.chain(&mut self.helpers) {
            searcher.configure(&self.config);
        }
    }

    /// Uses `db` (or no database) from now on.
    pub fn set_egdb(&mut self, db: Option<Arc<Egdb>>) {
        self.config.egdb = db;
        self.configure_searchers();
    }

    /// Evaluates with `evaluation` from now on, where the rule set has a choice.
    pub fn set_evaluation(&mut self, evaluation: Evaluation) {
        self.config.evaluation = evaluation;
        self.configure_searchers();
    }

    /// Searches with the margins and reductions of `params` changed from the rule set's own from now on.
    pub fn set_params(&mut self, params: ParamOverrides) {
        self.config.params = params;
        self.configure_searchers();
    }

    /// Searches at full strength on `threads` threads from now on, where the rule set searches on several: the
    /// main one and helpers sharing its table (Lazy SMP). The weaker levels search on one.
    pub fn set_threads(&mut self, threads: usize) {
        self.config.threads = threads.clamp(1, MAX_THREADS);
        self.helpers.truncate(self.config.threads - 1);
    }

    /// The threads a full-strength search uses where the rule set searches on several.
    pub fn threads(&self) -> usize {
        self.config.threads
    }

    /// The flag that stops a running search.
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.stop)
    }

    /// The flag the weaker levels read.
    pub(super) fn stop(&self) -> &AtomicBool {
        &self.stop
    }

    /// Makes `stop` the flag that stops this engine's searches from now on, so that each search can have a flag
    /// of its own: raising an old flag no longer stops anything here. The tables are kept.
    pub fn set_stop_flag(&mut self, stop: Arc<AtomicBool>) {
        self.stop = stop;
    }

    /// Forgets everything learned in earlier searches, so that the next one depends only on its input.
    pub fn clear(&mut self) {
        for searcher in self.home.iter_mut().chain(&mut self.helpers) {
            searcher.clear();
        }
        self.other = None;
    }

    /// Chooses a move for the side to move of `situation`, under its own rules, at `level`. `seed` fixes every
    /// random choice; `progress` hears about each completed depth of the searching levels.
    pub fn think(
        &mut self,
        situation: &AnySituation,
        level: Level,
        limits: &Limits,
        seed: u64,
        progress: &mut dyn FnMut(&Progress),
    ) -> SearchResult {
        searchers::visit(
            &situation.position,
            Think {
                engine: self,
                situation,
                level,
                limits,
                seed,
                progress,
            },
        )
    }

    /// [`Engine::think`] under the rules `R`.
    fn think_typed<R: SearcherSlot>(
        &mut self,
        situation: &Situation<R>,
        level: Level,
        limits: &Limits,
        seed: u64,
        progress: &mut dyn FnMut(&Progress),
    ) -> SearchResult {
        let pos = situation.position;
        let mut legal = pos.legal_moves();
        legal.retain(|m| !barred(situation.barred_king(), m));
        if legal.is_empty() {
            return SearchResult {
                best: None,
                score: Score::Loss(0),
                depth: 0,
                nodes: 0,
                pv: Vec::new(),
            };
        }
        let mut rng = rng::Rng::new(seed);
        let mut result = match level {
            Level::Random => levels::random(&legal, &mut rng),
            Level::Easy => levels::easy(&pos, &legal, &mut rng),
            Level::Medium => levels::medium(self, &pos, limits, &mut rng),
            // Only full strength takes more than one thread.
            Level::Hard => self.search(situation, &levels::hard_limits(limits), false, progress),
            Level::Max => self.search(situation, limits, true, progress),
        };
        // The searches leave a barred king's quiet moves out at the root; a level that looks at the position
        // alone may still choose one, and then plays the first move the rules allow instead.
        if result
            .best
            .is_some_and(|m| barred(situation.barred_king(), &m))
        {
            result.best = legal.first().copied();
            result.pv = result.best.into_iter().collect();
        }
        result
    }

    /// The full search under the rules `R`, on the helper threads too when `parallel` and the rule set searches
    /// on several: with the searcher kept for `R`, or a fresh one sharing the table if there is none.
    fn search<R: SearcherSlot>(
        &mut self,
        situation: &Situation<R>,
        limits: &Limits,
        parallel: bool,
        progress: &mut dyn FnMut(&Progress),
    ) -> SearchResult {
        // Full strength plays from its book where it has one (and databases come first: they know).
        let book = || {
            let book = parallel.then_some(self.config.book.as_deref()).flatten();
            R::book_move(book, &situation.position)
        };
        let known = R::database_move(self.config.egdb.as_deref(), &situation.position);
        if let Some(result) = known.or_else(book) {
            progress(&Progress {
                depth: 0,
                score: result.score,
                nodes: 0,
                elapsed: Duration::ZERO,
                pv: result.pv.clone(),
            });
            return result;
        }
        let slot = if self.home.as_ref().is_some_and(R::holds_searcher) {
            &mut self.home
        } else {
            &mut self.other
        };
        let mut main = match slot.take().and_then(R::unwrap_searcher) {
            Some(searcher) => searcher,
            // Another rule set than last time: its heuristics start afresh (the table is shared and kept).
            None => Box::new(Searcher::<Fast<R>>::with_table(
                Arc::clone(&self.table),
                Arc::clone(&self.stop),
                &self.config,
            )),
        };
        main.set_stop_flag(Arc::clone(&self.stop));
        let helpers = self.config.threads - 1;
        let result = if parallel && R::PARALLEL && helpers > 0 {
            let mut typed: Vec<_> = std::mem::take(&mut self.helpers)
                .into_iter()
                .filter_map(R::unwrap_searcher)
                .collect();
            while typed.len() < helpers {
                typed.push(helper::<R>(&self.table, &self.config, typed.len()));
            }
            let result = search_parallel(&mut main, &mut typed, situation, limits, progress);
            self.helpers = typed.into_iter().map(R::wrap_searcher).collect();
            result
        } else {
            main.search(situation, limits, progress)
        };
        *slot = Some(R::wrap_searcher(main));
        result
    }
}

/// Whether `mv` is a quiet move of the king that may not make another (Frisian).
fn barred(king: Option<crowned_rules::Square>, mv: &crowned_rules::Move) -> bool {
    king.is_some_and(|k| !mv.is_capture() && mv.from() == k)
}

/// A searcher for helper thread `index` of a parallel search, sharing `table`.
fn helper<R: SearcherSlot>(
    table: &Arc<TranspositionTable>,
    config: &EngineConfig,
    index: usize,
) -> Box<Searcher<Fast<R>>> {
    let mut helper =
        Searcher::with_table(Arc::clone(table), Arc::new(AtomicBool::new(false)), config);
    // Half the helpers one ply ahead of the main search, so that they reach different depths first.
    helper.make_helper(u32::from(index.is_multiple_of(2)));
    Box::new(helper)
}

/// The search on the helper threads too: they search the same position into the shared table until the main
/// search ends, which then stops them.
fn search_parallel<R: SearcherSlot>(
    main: &mut Searcher<Fast<R>>,
    helpers: &mut [Box<Searcher<Fast<R>>>],
    situation: &Situation<R>,
    limits: &Limits,
    progress: &mut dyn FnMut(&Progress),
) -> SearchResult {
    let helpers_stop = Arc::new(AtomicBool::new(false));
    std::thread::scope(|scope| {
        let running: Vec<_> = helpers
            .iter_mut()
            .map(|helper| {
                helper.set_stop_flag(Arc::clone(&helpers_stop));
                scope.spawn(move || helper.search(situation, limits, &mut |_| {}).nodes)
            })
            .collect();
        let mut result = main.search(situation, limits, progress);
        helpers_stop.store(true, Ordering::Relaxed);
        for helper in running {
            result.nodes += helper.join().unwrap_or(0);
        }
        result
    })
}

/// [`Engine::think_typed`] for the rule set of an [`AnySituation`].
struct Think<'a> {
    engine: &'a mut Engine,
    situation: &'a AnySituation,
    level: Level,
    limits: &'a Limits,
    seed: u64,
    progress: &'a mut dyn FnMut(&Progress),
}

impl EngineVisitor for Think<'_> {
    type Output = SearchResult;

    fn visit<R: SearcherSlot>(self, position: &Position<R>) -> SearchResult {
        // Earlier positions of another rule set cannot repeat this one: they are left out.
        let situation = Situation {
            position: *position,
            earlier: self
                .situation
                .earlier
                .iter()
                .filter_map(<R as Playable>::unwrap)
                .collect(),
            move_limit_plies: self.situation.move_limit_plies,
            king_runs: self.situation.king_runs,
        };
        self.engine.think_typed(
            &situation,
            self.level,
            self.limits,
            self.seed,
            self.progress,
        )
    }

    fn defined(self, board: &DefinedBoard) -> SearchResult {
        let earlier: Vec<DefinedBoard> = self
            .situation
            .earlier
            .iter()
            .filter_map(|p| p.defined().copied())
            .collect();
        let shared = super::defined::EngineParts {
            table: &self.engine.table,
            stop: &self.engine.stop,
            config: &self.engine.config,
        };
        super::defined::think(
            board,
            &earlier,
            self.level,
            self.limits,
            self.seed,
            shared,
            self.progress,
        )
    }
}
