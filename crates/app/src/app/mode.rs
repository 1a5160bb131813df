//! What the player is doing, and which pane has the keys.

use super::setup::Setup;
use crate::game::Outcome;

/// Which pane the arrow keys act on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Focus {
    /// The board: arrows move the cursor.
    Board,
    /// The move history: arrows step through the game.
    History,
    /// The input box: keys edit the text.
    Input,
}

/// What the player is doing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Playing: the side to move picks or types its move (a half-made capture is held by the picker).
    Play,
    /// The game has ended.
    Over(Outcome),
    /// Looking at the position after `ply` moves; the game itself is unchanged.
    Browsing {
        /// Moves shown.
        ply: usize,
    },
    /// Editing a position by hand; the game stays as it was until a new one is started from the position.
    Setup(Setup),
}
