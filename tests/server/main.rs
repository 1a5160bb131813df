//! `crowned serve` end to end: the real binary on a loopback port, real SSH clients.
//!
//! One test program for the layer: each file below is a module of it (one link instead of one a file).

#[path = "../common/mod.rs"]
mod common;
mod doors;
mod serve;
mod serve_conduct;
mod serve_defined;
mod serve_event_play;
mod serve_events;
mod serve_nodes;
mod serve_nodes_drain;
mod serve_nodes_events;
mod serve_nodes_play;
mod serve_problems;
mod serve_shared_records;
mod serve_tables;
mod serve_web;
mod serve_web_browser;
