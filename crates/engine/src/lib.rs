//! The computer player: a strong alpha-beta search, its evaluation, and weaker levels for beginners.
//!
//! English draughts is evaluated by a network compiled in ([`nnue`]), or on request by the hand-written
//! evaluation with tuned weights ([`Evaluation`] chooses); the other rule sets share one hand-written evaluation
//! told what differs between them; [`egdb`] reads and probes the endgame databases of English draughts. What a
//! rule set does differently is chosen through the hooks of [`EngineRules`], when the code is compiled for it.
//!
//! [`Engine::think`] is the entry point, for every rule set: it takes the game situation, a [`Level`],
//! [`Limits`] and a seed, may report progress while it runs, and stops promptly when the stop flag is raised
//! from another thread. An [`EngineConfig`] sets an engine up: its table, threads, databases, evaluation and
//! search parameters ([`SearchParams`]). [`service`] runs engines on a bounded pool of threads for the sessions that need
//! a computer player; [`hub`] speaks the Hub protocol for other programs.
//!
//! This crate holds what plays, on the rules ([`crowned_rules`]) and the game ([`crowned_game`]) only. The tools
//! around it (matches and their SPRT, tuning and training, the endgame database build, the Hub client) are in
//! `lab`, which depends on the engine and never the other way round.

#![deny(missing_docs)]
#![deny(clippy::undocumented_unsafe_blocks)]
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]

pub mod book;
mod config;
mod defined;
mod defined_eval;
pub mod egdb;
mod eleven_man;
mod engine_rules;
pub mod eval;
mod eval_weights;
pub mod hub;
mod king_runs;
mod levels;
pub mod moves;
pub mod nnue;
mod openings;
mod players;
mod races;
mod rng;
mod score;
mod search;
mod search_params;
mod searchers;
pub mod service;
mod situation;
mod thinking;
mod time_plan;
mod tt;
mod variants;
#[cfg(test)]
mod variants_tests;
mod zobrist;

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

pub use config::{EngineConfig, MAX_THREADS, TABLE_MEGABYTES};
pub use eleven_man::{ElevenMan, HalfBallot, eleven_man_ballots};
pub use engine_rules::{EngineRules, evaluate_rules, evaluate_rules_for_black};
pub use eval::{KING, MAN, SCALE, TERMS, evaluate, evaluate_for_black, evaluate_with};
pub use eval_weights::WEIGHTS as EVAL_WEIGHTS;
pub use nnue::Evaluation;
pub use openings::{Opening, OpeningsError, builtin_openings, openings_from_json};
pub use players::{Player, Players};
pub use rng::Rng;
pub use score::{SLOPE, Score};
pub use search_params::{ParamError, ParamOverrides, SearchParams};
pub use searchers::{network_family, rule_set_params};
pub use service::{EngineClient, EngineService, Report, Request, ServiceStopped};
pub use situation::{AnySituation, Situation};
pub use thinking::Engine;
pub use time_plan::TimeLeft;

use crowned_rules::Move;

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
    pub clock: Option<TimeLeft>,
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
