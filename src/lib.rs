//! crowned: draughts (checkers) in the terminal.
//!
//! The library holds everything but the command line: [`rules`] is the pure rules core, [`game`] a game over
//! time with its PDN record, [`engine`] the computer player, [`config`] the settings.

pub mod app;
pub mod config;
pub mod engine;
pub mod game;
pub mod rules;
pub mod store;
pub mod term;
pub mod ui;
