//! The command line: every subcommand run as a user runs it; and the test suite's own check that every file under
//! `tests/` is compiled by one of its programs.
//!
//! One test program for the layer: each file below is a module of it (one link instead of one a file).

mod cli;
mod cli_book;
mod cli_egdb;
mod cli_match;
mod cli_packaging;
#[path = "../cli_support/mod.rs"]
mod cli_support;
mod cli_tune;
mod cli_variants;
mod suite;
