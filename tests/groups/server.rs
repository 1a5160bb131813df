//! `crowned serve` end to end: the real binary on a loopback port, real SSH clients.
//!
//! One test program for the layer: each file below is a module of it (one link instead of one a file).

#[path = "../common/mod.rs"]
mod common;
#[path = "../serve.rs"]
mod serve;
#[path = "../serve_conduct.rs"]
mod serve_conduct;
#[path = "../serve_defined.rs"]
mod serve_defined;
#[path = "../serve_nodes.rs"]
mod serve_nodes;
#[path = "../serve_nodes_events.rs"]
mod serve_nodes_events;
#[path = "../serve_nodes_play.rs"]
mod serve_nodes_play;
#[path = "../serve_problems.rs"]
mod serve_problems;
#[path = "../serve_shared_records.rs"]
mod serve_shared_records;
#[path = "../serve_tables.rs"]
mod serve_tables;
#[path = "../serve_tournament_play.rs"]
mod serve_tournament_play;
#[path = "../serve_tournaments.rs"]
mod serve_tournaments;
#[path = "../serve_web.rs"]
mod serve_web;
#[path = "../serve_web_browser.rs"]
mod serve_web_browser;
