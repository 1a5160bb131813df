//! Tools for whoever works on the server rather than plays on it: load clients (many players at once, each a real
//! SSH client, timing how the server answers: `crowned bench serve`, `crowned bench tables`, `crowned bench
//! arena`), the arena's check of its records, the chaos run that kills and restarts servers while players play
//! and checks every move each player saw against the records (`crowned bench chaos`), and a throwaway PostgreSQL
//! server on this machine for the tests and benches of the PostgreSQL records.
//!
//! Nothing here is needed to serve: these tools depend on [`serve`](crate::serve), never the other way round
//! (the server's tests use [`local_postgres`]). The tools around the engine are the [`lab`](crate::lab).

pub mod arena_check;
#[cfg(test)]
mod arena_check_tests;
pub mod chaos;
pub mod chaos_waits;
pub mod load;
pub mod load_arena;
pub mod load_tables;
pub mod scrape;
pub use crowned_server::local_postgres;
