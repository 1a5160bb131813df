//! The real binary in a pseudo-terminal, end to end.
//!
//! One test program for the layer: each file below is a module of it (one link instead of one a file).

#[path = "../common/mod.rs"]
mod common;
mod e2e;
mod e2e_reliability;
mod e2e_variants;
mod pty;
