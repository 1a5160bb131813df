//! Games as files: PDN read, listed, written and read back, real archives replayed, settings printed and read back.
//!
//! One test program for the layer: each file below is a module of it (one link instead of one a file).

#[path = "../common/mod.rs"]
mod common;
mod pdn;
mod pdn_defined;
mod pdn_listing;
mod pdn_round_trip;
mod replay;
mod serve_migrate;
mod settings_roundtrip;
