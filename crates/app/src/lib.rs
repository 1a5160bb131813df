//! The application of crowned below its doors: [`app`], the pure state machine (its own input events in, effects
//! out); [`ui`], which draws it with ratatui into any backend; and [`config`], the settings from the built-in
//! defaults, the user's file and the command line.
//!
//! The app reads the settings, and the settings still hold the app's key map (its key names, contexts and
//! default keys, with the actions they stand for), so the two are one crate for now; what a settings screen's row
//! holds and what an edit says are the settings' own ([`config::SettingEdit`]). The crate stands on the rules, the
//! game, the engine, the store and the problems (the trainer's), and knows nothing of terminals, SSH or HTTP: the
//! compiler holds that, as ratatui comes without a backend here.

#![deny(missing_docs)]
#![deny(clippy::undocumented_unsafe_blocks)]
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]

pub mod app;
pub mod config;
pub mod ui;

// The layers below, by the names the whole program knows them by.
use crowned_engine as engine;
use crowned_game as game;
use crowned_problems as problems;
use crowned_rules as rules;
use crowned_store as store;
use crowned_store::bounded;
