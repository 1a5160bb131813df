//! The engine: searches and levels, tactics it must find, and the Hub protocol.
//!
//! One test program for the layer: each file below is a module of it (one link instead of one a file).

#[path = "../cli_support/mod.rs"]
mod cli_support;
#[path = "../common/mod.rs"]
mod common;
mod engine_defined;
mod hub;
mod problems;
mod search;
mod tactics;
