//! The app driven by events as a front end would drive it, its screens, its keys, and the session around it.
//!
//! One test program for the layer: each file below is a module of it (one link instead of one a file).

mod app_flows;
mod app_invariants;
mod app_table;
mod capture_effect;
#[path = "../common/mod.rs"]
mod common;
mod defined_app;
mod keys;
mod problems_app;
mod render;
mod render_variants;
mod session;
mod variants_app;
