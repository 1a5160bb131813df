//! The application of crowned below its doors: [`app`], the pure state machine (its own input events in, effects
//! out), and [`ui`], which draws it with ratatui into any backend. It reads the settings ([`config`], the crate
//! below it, re-exported here by the name the program knows it by), whose key map names the commands; what each
//! command does is the app's own table of actions. The crate stands on the rules, the game, the engine, the store,
//! the problems (the trainer's) and the settings, and knows nothing of terminals, SSH or HTTP: the compiler holds
//! that, as ratatui comes without a backend here.

#![deny(missing_docs)]
#![deny(clippy::undocumented_unsafe_blocks)]
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]

pub mod app;
pub mod ui;

/// The settings and the key map: the crate below the app.
pub use crowned_config as config;

// The layers below, by the names the whole program knows them by.
use crowned_engine as engine;
use crowned_game as game;
use crowned_problems as problems;
use crowned_rules as rules;
use crowned_store as store;
