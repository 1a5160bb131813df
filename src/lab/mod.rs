//! Tools around the engine, for whoever works on it rather than plays it: matches between engines and the
//! sequential test that decides them, the client that drives another engine through the Hub protocol, tuning and
//! training of the evaluation, the endgame database build, and load clients for the server.
//!
//! [`play_match`] plays a match between two [`Contender`]s (levels of this engine, or other programs through
//! [`HubEngine`]) from openings of the match's rules, stopping early when [`sprt`] has a verdict.
//! [`tune`] fits the hand-written evaluation's weights and trains the network from labelled positions.
//! [`egdb_build`] builds the endgame databases the engine probes ([`egdb`](crate::engine::egdb)), and
//! [`egdb_bench`] measures how fast they answer.
//!
//! [`load`], [`load_tables`] and [`load_arena`] are load clients for the SSH server: many players at once, each a
//! real SSH client, timing how the server answers (`crowned bench serve`, `crowned bench tables`, `crowned bench
//! arena`).
//!
//! [`local_postgres`] starts a throwaway PostgreSQL server on this machine, for the tests and benches of the
//! PostgreSQL records.
//!
//! Nothing here is needed to play: the lab depends on [`engine`](crate::engine) (and the load clients on
//! [`serve`](crate::serve)), never the other way round.

pub mod arena_check;
#[cfg(test)]
mod arena_check_tests;
pub mod book_build;
pub mod chaos;
pub mod chaos_waits;
pub mod egdb_bench;
pub mod egdb_build;
#[cfg(test)]
mod egdb_tests;
mod hub_client;
pub mod load;
pub mod load_arena;
pub mod load_tables;
pub mod local_postgres;
mod match_openings;
mod match_seats;
mod matches;
pub mod sprt;
pub mod tune;
pub mod wld_build;
#[cfg(test)]
mod wld_tests;

pub use hub_client::{HubEngine, HubError, PonderTally};
pub use match_openings::{
    DefinedOpening, MatchOpening, defined_openings, random_openings, random_plies,
};
pub use matches::{
    Contender, DEFAULT_RANDOM_OPENINGS, MatchConfig, MatchError, MatchGame, MatchOpenings,
    MatchResult, SPRT_MAX_GAMES, TimeUse, play_match,
};
