//! Tools around the engine, for whoever works on it rather than plays it: matches between engines and the
//! sequential test that decides them, the client that drives another engine through the Hub protocol, tuning and
//! training of the evaluation and the search, and the endgame database build.
//!
//! [`play_match`] plays a match between two [`Contender`]s (levels of this engine, or other programs through
//! [`HubEngine`]) from openings of the match's rules, stopping early when [`sprt`] has a verdict.
//! [`tune`] fits the hand-written evaluation's weights and trains the network from labelled positions.
//! [`egdb_build`] builds the endgame databases the engine probes ([`egdb`](crowned_engine::egdb)), and
//! [`egdb_bench`] measures how fast they answer.
//!
//! Nothing here is needed to play: the lab depends on the engine ([`crowned_engine`]), the game and the rules
//! only, never the other way round. The server's load clients and fault runs are the program's `server_lab`.

#![deny(missing_docs)]
#![deny(clippy::undocumented_unsafe_blocks)]
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]

pub mod book_build;
mod contenders;
pub mod egdb_bench;
pub mod egdb_build;
#[cfg(test)]
mod egdb_tests;
mod hub_client;
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
    AnyOpening, MatchOpening, deck_openings, openings, random_openings, random_plies,
};
pub use matches::{
    Contender, DEFAULT_RANDOM_OPENINGS, MatchConfig, MatchError, MatchGame, MatchOpenings,
    MatchResult, SPRT_MAX_GAMES, TimeUse, play_match,
};
