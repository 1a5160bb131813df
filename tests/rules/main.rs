//! Move generation and notation: perft against the published tables, an independent reference generator, every variant, notation written and read back, random play.
//!
//! One test program for the layer: each file below is a module of it (one link instead of one a file).

#[path = "../common/mod.rs"]
mod common;
mod frisian;
mod goals;
mod notation_roundtrip;
mod perft;
mod random_play;
mod reference_movegen;
mod variants;
