//! The real binary in a pseudo-terminal, end to end.
//!
//! One test program for the layer: each file below is a module of it (one link instead of one a file).

#[path = "../common/mod.rs"]
mod common;
#[path = "../e2e.rs"]
mod e2e;
#[path = "../e2e_reliability.rs"]
mod e2e_reliability;
#[path = "../e2e_variants.rs"]
mod e2e_variants;
#[path = "../pty/mod.rs"]
mod pty;
