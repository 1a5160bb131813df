//! crowned: draughts (checkers) in the terminal.
//!
//! The library holds everything but the command line. Dependencies point one way, from the pure core up:
//! [`rules`] is the rules core (squares, positions, move generation, notation, FEN, position checks); [`game`]
//! a game over time with its draw rules and PDN record; [`engine`] the computer player; [`app`] the application
//! as a pure state machine; [`ui`] draws it with ratatui; [`session`] is one player's session (the app, its
//! files, its engine client) that any front end drives; [`term`] is the front end for the local terminal, and
//! [`serve`] the SSH server that runs a session for each connection. Beside them, [`store`] says where files live
//! and writes them safely, and [`config`] reads the settings. [`lab`] holds the tools around the engine (matches,
//! tuning, database builds) and [`server_lab`] the server's load clients and fault runs: they depend on what they
//! measure, and nothing that plays depends on them.
//!
//! The rules, the game, the engine, the lab, the store, the problems, the application (with its rendering and
//! settings), the server (with the session), the SSH door and the web door are crates of their own (`crates/`), so
//! that the compiler holds their direction; this library re-exports each under its name here, and holds the local
//! terminal's door and the server's load clients.
//!
//! House rules, checked by the compiler: every public item is documented, every `unsafe` block says why it is
//! sound, and outside tests nothing calls `unwrap`, `expect` or `panic!` (the one intended `expect`, on the
//! built-in settings, is marked where it stands).

#![deny(missing_docs)]
#![deny(clippy::undocumented_unsafe_blocks)]
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]

pub use crowned_app::{app, config, ui};
pub use crowned_engine as engine;
pub use crowned_game as game;
pub use crowned_lab as lab;
pub use crowned_problems as problems;
pub use crowned_rules as rules;
pub use crowned_server::{serve, session};
pub use crowned_ssh as ssh;
pub use crowned_store as store;
pub use crowned_store::bounded;
pub use crowned_web as web;
pub mod server_lab;
pub mod term;
