//! The Hub protocol: the text protocol of the Scan draughts engine, spoken on standard input and output, which
//! draughts GUIs and tools (the Hub GUI, pydraughts) use to drive engines.
//!
//! [`serve`] is crowned's engine side (`crowned hub`); the client that drives another engine speaking it (for
//! matches between builds or against other programs) is a tool, `lab::HubEngine`. Both read and write lines with [`HubLine`], positions and moves
//! with [`notation`]. Every variant is played; the `variant` parameter takes crowned's variant names (`english`
//! is the default) and Scan's `normal` for international draughts.

pub mod notation;
mod server;
mod syntax;

pub use notation::HubNotationError;
pub use server::{HubOptions, serve, serve_with};
pub use syntax::HubLine;
