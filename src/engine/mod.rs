//! The computer player: a strong alpha-beta search, its evaluation, and weaker levels for beginners.
//!
//! English draughts is evaluated by a network compiled in ([`nnue`]), or on request by the hand-written
//! evaluation with tuned weights ([`Evaluation`] chooses); the other rule sets share one hand-written evaluation
//! told what differs between them; [`egdb`] reads and probes the endgame databases of English draughts.
//!
//! [`Engine::think`] and its kin for the other rule sets are the entry points: they take the game situation, a
//! [`Level`], [`Limits`] and a seed, may report progress while they run, and stop promptly when the stop flag is
//! raised from another thread. [`service`] runs engines on a bounded pool of threads for the sessions that need
//! a computer player; [`hub`] speaks the Hub protocol for other programs.
//!
//! This module holds what plays. The tools around it (matches and their SPRT, tuning and training, the endgame
//! database build, the Hub client) are in `lab`, which depends on the engine and never the other way round.

pub mod egdb;
mod eleven_man;
pub(crate) mod eval;
mod eval_weights;
pub mod hub;
mod levels;
pub(crate) mod moves;
pub mod nnue;
mod openings;
mod players;
mod rng;
mod score;
mod search;
pub mod service;
mod situation;
mod time_plan;
mod tt;
mod variants;
#[cfg(test)]
mod variants_tests;
mod zobrist;

use std::any::Any;
use std::fmt;
use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

pub use eleven_man::{ElevenMan, HalfBallot, eleven_man_ballots};
pub use eval::{KING, MAN, SCALE, TERMS, evaluate, evaluate_for_black, evaluate_with};
pub use eval_weights::WEIGHTS as EVAL_WEIGHTS;
pub use nnue::Evaluation;
pub use openings::{Opening, OpeningsError, builtin_openings, openings_from_json};
pub use players::{Player, Players};
pub(crate) use rng::Rng;
pub use score::{SLOPE, Score};
pub use service::{EngineClient, EngineService, Report, Request, ServiceStopped};
pub use situation::{AnySituation, Situation};
pub use time_plan::Clock;
pub use variants::{evaluate_rules, evaluate_rules_for_black};

use crate::rules::{AnyPosition, English, Move, Playable, Position, PositionVisitor};

/// How strongly the engine plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Level {
    /// Any legal move, at random.
    Random,
    /// A rule-of-thumb player: takes kings, crowns, keeps its back row, avoids leaving pieces en prise, and
    /// otherwise plays at random. It does not look ahead, so combinations catch it.
    Easy,
    /// A plain five-ply minimax, choosing at random among equally good moves.
    Medium,
    /// The full search, limited to a modest depth.
    Hard,
    /// The full search with all the time it is given.
    Max,
}

impl Level {
    /// Every level, weakest first.
    pub const ALL: [Level; 5] = [
        Level::Random,
        Level::Easy,
        Level::Medium,
        Level::Hard,
        Level::Max,
    ];

    /// The level's name as typed on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Level::Random => "random",
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
            Level::Max => "max",
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A level name that is not one of the levels.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown level {0:?}: the levels are random, easy, medium, hard and max")]
pub struct UnknownLevel(pub String);

impl FromStr for Level {
    type Err = UnknownLevel;

    fn from_str(s: &str) -> Result<Level, UnknownLevel> {
        Level::ALL
            .into_iter()
            .find(|l| l.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| UnknownLevel(s.to_string()))
    }
}

/// When to stop thinking. With no limit at all the search runs until its stop flag is raised (or it has
/// proved the result).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Deepest iteration, in plies.
    pub depth: Option<u32>,
    /// Most positions to visit.
    pub nodes: Option<u64>,
    /// Longest time to think (all of it is used, unless the result is proven or the move forced).
    pub time: Option<Duration>,
    /// The game clock: time is then spent where the position is unclear and saved where it is not.
    pub clock: Option<Clock>,
}

impl Limits {
    /// Think for at most `time`.
    pub fn time(time: Duration) -> Limits {
        Limits {
            time: Some(time),
            ..Limits::default()
        }
    }

    /// Search to `depth` plies.
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }
}

/// A report sent while the engine thinks, after each completed depth.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Progress {
    /// The depth just completed, in plies.
    pub depth: u32,
    /// The score at that depth.
    pub score: Score,
    /// Positions visited so far.
    pub nodes: u64,
    /// Time since the search started.
    pub elapsed: Duration,
    /// The expected line of play.
    pub pv: Vec<Move>,
}

impl Progress {
    /// Positions per second so far.
    pub fn nodes_per_second(&self) -> u64 {
        let seconds = self.elapsed.as_secs_f64();
        if seconds > 0.0 {
            (self.nodes as f64 / seconds) as u64
        } else {
            0
        }
    }
}

/// What the engine decided.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The move to play; `None` when there is no legal move.
    pub best: Option<Move>,
    /// Its score from the mover's point of view.
    pub score: Score,
    /// The deepest completed iteration (0 for levels that do not search).
    pub depth: u32,
    /// Positions visited.
    pub nodes: u64,
    /// The expected line of play, starting with `best`.
    pub pv: Vec<Move>,
}

/// The engine: its search tables survive from move to move, as in a game.
///
/// It plays every rule set: [`Engine::think`] English draughts, [`Engine::think_as`] any rule set, and
/// [`Engine::think_any`] a position whose rules are chosen at run time. One transposition table serves them all
/// (the keys of each rule set differ); the ordering heuristics are kept for English and for the last other rule
/// set played.
pub struct Engine {
    searcher: search::Searcher,
    /// The helper threads' searchers (English), sharing the main searcher's table; empty for one thread.
    helpers: Vec<search::Searcher>,
    /// The searcher of the last rule set other than English, as a `search::Searcher<R>`; it borrows the table of
    /// `searcher` while it searches.
    other: Option<Box<dyn Any + Send>>,
    stop: Arc<AtomicBool>,
    /// The endgame databases (English), if there are any.
    egdb: Option<Arc<egdb::Egdb>>,
    /// The full search's evaluation of English positions.
    evaluation: Evaluation,
}

/// Memory for the transposition table of one engine playing one game. Small enough to stay mostly in the
/// processor caches, which makes the search faster than a bigger table would at the thinking times of a game.
pub const TABLE_MEGABYTES: usize = 16;

/// The most threads one search uses.
pub const MAX_THREADS: usize = 64;

impl Default for Engine {
    fn default() -> Self {
        Engine::new()
    }
}

impl Engine {
    /// An engine with a fresh stop flag.
    pub fn new() -> Engine {
        Engine::with_stop_flag(Arc::new(AtomicBool::new(false)))
    }

    /// An engine that stops whenever `stop` is raised (by any thread); lower it before the next search.
    pub fn with_stop_flag(stop: Arc<AtomicBool>) -> Engine {
        Engine::built(TABLE_MEGABYTES, stop)
    }

    /// An engine with a fresh stop flag and a transposition table of at most `megabytes` (rounded down to a
    /// power of two entries; at least one entry), for callers that share a memory budget among engines.
    pub fn with_table_megabytes(megabytes: usize) -> Engine {
        Engine::built(megabytes, Arc::new(AtomicBool::new(false)))
    }

    fn built(megabytes: usize, stop: Arc<AtomicBool>) -> Engine {
        let mut engine = Engine {
            searcher: search::Searcher::new(megabytes, Arc::clone(&stop)),
            helpers: Vec::new(),
            other: None,
            stop,
            egdb: None,
            evaluation: Evaluation::default(),
        };
        engine.set_egdb(egdb::shared());
        engine
    }

    /// Uses `db` (or no database) from now on: probed in the search, and a won or lost ending is played from
    /// it at the root (a win by the shortest way to each conversion, a loss by the longest).
    pub fn set_egdb(&mut self, db: Option<Arc<egdb::Egdb>>) {
        self.searcher.set_egdb(db.clone());
        for helper in &mut self.helpers {
            helper.set_egdb(db.clone());
        }
        self.egdb = db;
    }

    /// Evaluates English positions in the full search with `evaluation` from now on.
    pub fn set_evaluation(&mut self, evaluation: Evaluation) {
        self.searcher.set_evaluation(evaluation);
        for helper in &mut self.helpers {
            helper.set_evaluation(evaluation);
        }
        self.evaluation = evaluation;
    }

    /// The full search's evaluation of English positions.
    pub fn evaluation(&self) -> Evaluation {
        self.evaluation
    }

    /// Searches at full strength (English draughts) on `threads` threads from now on: the main one and helpers
    /// sharing its table (Lazy SMP). Other rule sets and the weaker levels search on one.
    pub fn set_threads(&mut self, threads: usize) {
        let helpers = threads.clamp(1, MAX_THREADS) - 1;
        self.helpers.truncate(helpers);
        while self.helpers.len() < helpers {
            let mut helper = search::Searcher::with_table(
                self.searcher.table(),
                Arc::new(AtomicBool::new(false)),
            );
            // Half the helpers one ply ahead of the main search, so that they reach different depths first.
            helper.make_helper(u32::from(self.helpers.len().is_multiple_of(2)));
            helper.set_egdb(self.egdb.clone());
            helper.set_evaluation(self.evaluation);
            self.helpers.push(helper);
        }
    }

    /// The threads a full-strength search uses.
    pub fn threads(&self) -> usize {
        self.helpers.len() + 1
    }

    /// The flag that stops a running search.
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.stop)
    }

    /// Makes `stop` the flag that stops this engine's searches from now on, so that each search can have a flag
    /// of its own: raising an old flag no longer stops anything here. The tables are kept.
    pub fn set_stop_flag(&mut self, stop: Arc<AtomicBool>) {
        self.searcher.set_stop_flag(Arc::clone(&stop));
        self.stop = stop;
    }

    /// Forgets everything learned in earlier searches, so that the next one depends only on its input.
    pub fn clear(&mut self) {
        self.searcher.clear();
        for helper in &mut self.helpers {
            helper.clear();
        }
        self.other = None;
    }

    /// Chooses a move for the side to move of `situation` (English draughts) at `level`. `seed` fixes every
    /// random choice; `progress` hears about each completed depth of the searching levels.
    pub fn think(
        &mut self,
        situation: &Situation,
        level: Level,
        limits: &Limits,
        seed: u64,
        progress: &mut dyn FnMut(&Progress),
    ) -> SearchResult {
        self.think_as(situation, level, limits, seed, progress)
    }

    /// Chooses a move for the side to move of `situation`, under any rule set, at `level`. `seed` fixes every
    /// random choice; `progress` hears about each completed depth of the searching levels.
    pub fn think_as<R: Playable>(
        &mut self,
        situation: &Situation<R>,
        level: Level,
        limits: &Limits,
        seed: u64,
        progress: &mut dyn FnMut(&Progress),
    ) -> SearchResult {
        let pos = situation.position;
        let legal = pos.legal_moves();
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
        match level {
            Level::Random => levels::random(&legal, &mut rng),
            Level::Easy => levels::easy(&pos, &legal, &mut rng),
            Level::Medium => levels::medium(self, &pos, limits, &mut rng),
            // Only full strength takes more than one thread.
            Level::Hard => {
                let helpers = std::mem::take(&mut self.helpers);
                let result = self.search(situation, &levels::hard_limits(limits), progress);
                self.helpers = helpers;
                result
            }
            Level::Max => self.search(situation, limits, progress),
        }
    }

    /// Chooses a move for the side to move of `position`, under its own rules, with no history before it and
    /// the default move limit.
    pub fn think_any(
        &mut self,
        position: &AnyPosition,
        level: Level,
        limits: &Limits,
        seed: u64,
        progress: &mut dyn FnMut(&Progress),
    ) -> SearchResult {
        position.visit(ThinkAny {
            engine: self,
            earlier: &[],
            move_limit_plies: 2 * crate::game::DEFAULT_MOVE_LIMIT,
            level,
            limits,
            seed,
            progress,
        })
    }

    /// Chooses a move for the side to move of a situation of any rule set, at `level`.
    pub fn think_situation(
        &mut self,
        situation: &AnySituation,
        level: Level,
        limits: &Limits,
        seed: u64,
        progress: &mut dyn FnMut(&Progress),
    ) -> SearchResult {
        situation.position.visit(ThinkAny {
            engine: self,
            earlier: &situation.earlier,
            move_limit_plies: situation.move_limit_plies,
            level,
            limits,
            seed,
            progress,
        })
    }

    /// The full search under the rules `R`: English with its own searcher, any other rule set with the searcher
    /// kept for it, lent the one table for the time of the search.
    fn search<R: Playable>(
        &mut self,
        situation: &Situation<R>,
        limits: &Limits,
        progress: &mut dyn FnMut(&Progress),
    ) -> SearchResult {
        // The rule set is known when this is compiled: for English the test folds away.
        if let Some(english) = (situation as &dyn Any).downcast_ref::<Situation<English>>() {
            return self.search_english(english, limits, progress);
        }
        let mut other = match self
            .other
            .take()
            .and_then(|s| s.downcast::<search::Searcher<R>>().ok())
        {
            Some(searcher) => searcher,
            // Another rule set than last time: its heuristics start afresh (the table is shared and kept).
            None => Box::new(search::Searcher::<R>::with_table(
                self.searcher.table(),
                Arc::clone(&self.stop),
            )),
        };
        other.set_stop_flag(Arc::clone(&self.stop));
        other.set_table(self.searcher.table());
        let result = other.search(situation, limits, progress);
        self.other = Some(other);
        result
    }

    /// The English search, on the helper threads too when there are any: they search the same position into
    /// the shared table until the main search ends, which then stops them.
    fn search_english(
        &mut self,
        situation: &Situation,
        limits: &Limits,
        progress: &mut dyn FnMut(&Progress),
    ) -> SearchResult {
        if let Some(db) = &self.egdb
            && let Some(result) = database_move(db, &situation.position)
        {
            progress(&Progress {
                depth: 0,
                score: result.score,
                nodes: 0,
                elapsed: Duration::ZERO,
                pv: result.pv.clone(),
            });
            return result;
        }
        if self.helpers.is_empty() {
            return self.searcher.search(situation, limits, progress);
        }
        let helpers_stop = Arc::new(AtomicBool::new(false));
        let main = &mut self.searcher;
        let helpers = &mut self.helpers;
        std::thread::scope(|scope| {
            let running: Vec<_> = helpers
                .iter_mut()
                .map(|helper| {
                    helper.set_stop_flag(Arc::clone(&helpers_stop));
                    scope.spawn(move || helper.search(situation, limits, &mut |_| {}).nodes)
                })
                .collect();
            let mut result = main.search(situation, limits, progress);
            helpers_stop.store(true, std::sync::atomic::Ordering::Relaxed);
            for helper in running {
                result.nodes += helper.join().unwrap_or(0);
            }
            result
        })
    }
}

/// The move the databases choose in a won or lost position (a drawn one is left to the search, which keeps the
/// draw and looks for the opponent's mistakes).
fn database_move(db: &egdb::Egdb, pos: &Position) -> Option<SearchResult> {
    let (best, value) = db.best_move(pos)?;
    let score = match value {
        egdb::DbValue::Win(_) => Score::DatabaseWin,
        egdb::DbValue::Loss(_) => Score::DatabaseLoss,
        egdb::DbValue::Draw => return None,
    };
    Some(SearchResult {
        best: Some(best),
        score,
        depth: 0,
        nodes: 0,
        pv: db.line(pos, 24),
    })
}

/// [`Engine::think_as`] for the rule set of an [`AnyPosition`].
struct ThinkAny<'a> {
    engine: &'a mut Engine,
    earlier: &'a [AnyPosition],
    move_limit_plies: u32,
    level: Level,
    limits: &'a Limits,
    seed: u64,
    progress: &'a mut dyn FnMut(&Progress),
}

impl PositionVisitor for ThinkAny<'_> {
    type Output = SearchResult;

    fn visit<R: Playable>(self, position: &Position<R>) -> SearchResult {
        // Earlier positions of another rule set cannot repeat this one: they are left out.
        let situation = Situation {
            position: *position,
            earlier: self.earlier.iter().filter_map(R::unwrap).collect(),
            move_limit_plies: self.move_limit_plies,
        };
        self.engine.think_as(
            &situation,
            self.level,
            self.limits,
            self.seed,
            self.progress,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn level_names() {
        for level in Level::ALL {
            assert_eq!(level.name().parse::<Level>(), Ok(level));
        }
        assert_eq!(" MAX ".parse::<Level>(), Ok(Level::Max));
        assert_eq!(
            "grandmaster".parse::<Level>().map_err(|e| e.to_string()),
            Err(
                "unknown level \"grandmaster\": the levels are random, easy, medium, hard and max"
                    .into()
            )
        );
    }
}
