//! The application state machine, independent of any terminal: the game, who plays it, the cursor and the move
//! being picked, browsing, and the effects (engine turns, quitting) the outside world carries out.

mod picking;
mod state;

pub use picking::{Pick, PickError, Picker};
pub use state::{Action, App, Effect, Mode, Player, Players};
