//! The app driven by events as a front end would drive it, its screens, its keys, and the session around it.
//!
//! One test program for the layer: each file below is a module of it (one link instead of one a file).

#[path = "../app_flows.rs"]
mod app_flows;
#[path = "../app_invariants.rs"]
mod app_invariants;
#[path = "../app_table.rs"]
mod app_table;
#[path = "../capture_effect.rs"]
mod capture_effect;
#[path = "../common/mod.rs"]
mod common;
#[path = "../defined_app.rs"]
mod defined_app;
#[path = "../keys.rs"]
mod keys;
#[path = "../problems_app.rs"]
mod problems_app;
#[path = "../render.rs"]
mod render;
#[path = "../render_variants.rs"]
mod render_variants;
#[path = "../session.rs"]
mod session;
#[path = "../variants_app.rs"]
mod variants_app;
