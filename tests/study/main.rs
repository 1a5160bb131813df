//! Studying and playing games in the app, driven by actions: hints, the analysis panel, analysing a whole game
//! (marks, comments, the graph), tournament ballots, finding games in long lists, and clocks. One test binary
//! for them all, so that a release build links it once.

#[path = "../common/mod.rs"]
mod common;

mod analysis;
mod ballots;
mod clocks;
mod hints;
mod lists;
mod pondering;
mod review;
