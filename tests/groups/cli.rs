//! The command line: every subcommand run as a user runs it; and the test suite's own check that every file under
//! `tests/` is compiled by one of its programs.
//!
//! One test program for the layer: each file below is a module of it (one link instead of one a file).

#[path = "../cli.rs"]
mod cli;
#[path = "../cli_book.rs"]
mod cli_book;
#[path = "../cli_egdb.rs"]
mod cli_egdb;
#[path = "../cli_match.rs"]
mod cli_match;
#[path = "../cli_packaging.rs"]
mod cli_packaging;
#[path = "../cli_support/mod.rs"]
mod cli_support;
#[path = "../cli_tune.rs"]
mod cli_tune;
#[path = "../cli_variants.rs"]
mod cli_variants;
#[path = "../suite.rs"]
mod suite;
