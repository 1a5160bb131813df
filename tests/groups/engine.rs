//! The engine: searches and levels, tactics it must find, and the Hub protocol.
//!
//! One test program for the layer: each file below is a module of it (one link instead of one a file).

#[path = "../cli_support/mod.rs"]
mod cli_support;
#[path = "../common/mod.rs"]
mod common;
#[path = "../engine_defined.rs"]
mod engine_defined;
#[path = "../hub.rs"]
mod hub;
#[path = "../problems.rs"]
mod problems;
#[path = "../engine.rs"]
mod search;
#[path = "../tactics.rs"]
mod tactics;
