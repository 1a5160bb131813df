//! How an engine is set up: what its owner decides once and passes in, rather than what the engine would look up
//! for itself.

use std::sync::Arc;

use super::book::Book;
use super::egdb::Egdb;
use super::nnue::Evaluation;
use super::search_params::ParamOverrides;

/// Memory for the transposition table of one engine playing one game. Small enough to stay mostly in the
/// processor caches, which makes the search faster than a bigger table would at the thinking times of a game.
pub const TABLE_MEGABYTES: usize = 16;

/// The most threads one search uses.
pub const MAX_THREADS: usize = 64;

/// An engine's setup. The default is what a game needs: a table of [`TABLE_MEGABYTES`], one thread, no endgame
/// databases, the network evaluation and the search parameters the engine plays with.
#[derive(Clone, Debug)]
pub struct EngineConfig {
    /// Memory for the transposition table (rounded down to a power of two entries; at least one entry).
    pub table_megabytes: usize,
    /// Threads of a full-strength search where the rule set searches on several ([`super::EngineRules::PARALLEL`]);
    /// clamped to 1..=[`MAX_THREADS`].
    pub threads: usize,
    /// The endgame databases, if there are any: probed in the search, and a won or lost ending is played from
    /// them at the root (a win by the shortest way to each conversion, a loss by the longest).
    pub egdb: Option<Arc<Egdb>>,
    /// The full search's evaluation where the rule set has a choice.
    pub evaluation: Evaluation,
    /// The search's margins and reductions changed from the rule set's own
    /// ([`super::EngineRules::search_params`]).
    pub params: ParamOverrides,
    /// An opening book `max` plays from at once where it holds the position (English draughts only).
    pub book: Option<Arc<Book>>,
}

impl Default for EngineConfig {
    fn default() -> EngineConfig {
        EngineConfig {
            table_megabytes: TABLE_MEGABYTES,
            threads: 1,
            egdb: None,
            evaluation: Evaluation::default(),
            params: ParamOverrides::default(),
            book: None,
        }
    }
}

impl EngineConfig {
    /// This setup with a table of `megabytes`.
    pub fn with_table_megabytes(self, megabytes: usize) -> EngineConfig {
        EngineConfig {
            table_megabytes: megabytes,
            ..self
        }
    }

    /// This setup searching on `threads` threads.
    pub fn with_threads(self, threads: usize) -> EngineConfig {
        EngineConfig { threads, ..self }
    }

    /// This setup with the databases `egdb` (or none).
    pub fn with_egdb(self, egdb: Option<Arc<Egdb>>) -> EngineConfig {
        EngineConfig { egdb, ..self }
    }

    /// This setup evaluating with `evaluation`.
    pub fn with_evaluation(self, evaluation: Evaluation) -> EngineConfig {
        EngineConfig { evaluation, ..self }
    }

    /// This setup with the opening book `book` (or none).
    pub fn with_book(self, book: Option<Arc<Book>>) -> EngineConfig {
        EngineConfig { book, ..self }
    }

    /// This setup searching with the parameters of `params` changed.
    pub fn with_params(self, params: ParamOverrides) -> EngineConfig {
        EngineConfig { params, ..self }
    }
}
