//! Tuning the evaluation's weights on game results (Texel's method): positions labelled with the result of the
//! game they came from, and the weights that make `sigmoid(c * score)` predict those results best.
//!
//! [`data`] makes the positions, from self-play at a fixed depth (reproducible from a seed) and from master
//! games in PDN; [`mod@fit`] finds the weights by gradient descent (Adam) on the mean squared error, and writes them
//! as the Rust source of `crates/engine/src/eval_weights.rs`, which is compiled in. [`mod@spsa`] tunes the search's
//! parameters by game results.

pub mod data;
pub mod fit;
pub mod net;
mod net_model;
pub mod spsa;

pub use data::{Sample, SampleError, from_pdn, read_samples, self_play, write_samples};
pub use fit::{Fit, FitConfig, fit, weights_source};
pub use net::{EpochReport, NetConfig, NetTraining, train as train_net};
pub use net_model::{FloatNet, SLOPE};
pub use spsa::{SpsaConfig, SpsaReport, Tuned, format_value, spsa};
