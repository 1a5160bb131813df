//! The harness shared by the integration tests: random positions for property tests, and the app driven as a
//! front end would drive it (construction, squares, the engine's answers). Each test file uses the part it needs.

#![allow(dead_code, unused_imports)]

pub mod app;
mod positions;

pub use positions::{arbitrary_position, played_position};
