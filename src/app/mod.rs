//! The application state machine, independent of any terminal. Built so far: picking moves on the board.

mod picking;

pub use picking::{Pick, PickError, Picker};
