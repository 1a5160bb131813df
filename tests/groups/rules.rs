//! Move generation and notation: perft against the published tables, an independent reference generator, every variant, notation written and read back, random play.
//!
//! One test program for the layer: each file below is a module of it (one link instead of one a file).

#[path = "../common/mod.rs"]
mod common;
#[path = "../frisian.rs"]
mod frisian;
#[path = "../goals.rs"]
mod goals;
#[path = "../notation_roundtrip.rs"]
mod notation_roundtrip;
#[path = "../perft.rs"]
mod perft;
#[path = "../random_play.rs"]
mod random_play;
#[path = "../reference_movegen.rs"]
mod reference_movegen;
#[path = "../variants.rs"]
mod variants;
