//! The sessions and the server of crowned: [`session`], one player's session (the app, its files, its engine
//! client) that any front end drives, and [`serve`], the server: tables with their clocks and offers, events and
//! tournaments, problems, ratings, the records (SQLite or PostgreSQL), the nodes of one server, and the seam every
//! door uses (`serve::door`; the SSH and web doors are crates of their own above this one, `crowned-ssh` and
//! `crowned-web`, so that the compiler holds that nothing here knows SSH or HTTP). [`local_postgres`] starts a throwaway PostgreSQL server for the tests and benches of the records.
//!
//! It stands on the application ([`crowned_app`]) and the layers below it; the local terminal's door, the load
//! clients and the command line are above it, in the `crowned` package.

#![deny(missing_docs)]
#![deny(clippy::undocumented_unsafe_blocks)]
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]

pub mod local_postgres;
pub mod serve;
pub mod session;

// The layers below, by the names the whole program knows them by.
use crowned_app::{app, config, ui};
use crowned_engine as engine;
use crowned_game as game;
use crowned_problems as problems;
use crowned_rules as rules;
use crowned_store as store;
