//! Games as files: PDN read, listed, written and read back, real archives replayed, settings printed and read back.
//!
//! One test program for the layer: each file below is a module of it (one link instead of one a file).

#[path = "../common/mod.rs"]
mod common;
#[path = "../pdn.rs"]
mod pdn;
#[path = "../pdn_defined.rs"]
mod pdn_defined;
#[path = "../pdn_listing.rs"]
mod pdn_listing;
#[path = "../pdn_round_trip.rs"]
mod pdn_round_trip;
#[path = "../replay.rs"]
mod replay;
#[path = "../serve_migrate.rs"]
mod serve_migrate;
#[path = "../settings_roundtrip.rs"]
mod settings_roundtrip;
