//! crowned: draughts (checkers) in the terminal.
//!
//! The library holds everything but the command line: [`rules`] is the pure rules core.

pub mod rules;
