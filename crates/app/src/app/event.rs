//! What the player does at the keyboard and the mouse, in the app's own terms: every front end converts its input
//! into [`InputEvent`]s (the local terminal from crossterm's events, an SSH session from the bytes of its
//! channel). The app decides what each event means.

pub use crate::config::{Key, KeyCode, Modifiers};

/// One thing the player did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InputEvent {
    /// A key was pressed (or repeats while held). Releases are not events: front ends drop them.
    Key(Key),
    /// The mouse was clicked or its wheel turned.
    Mouse(Mouse),
    /// Text was pasted (bracketed paste), as one piece however long.
    Paste(String),
    /// The screen is now this many columns and rows.
    Resize {
        /// Columns.
        width: u16,
        /// Rows.
        height: u16,
    },
}

/// A mouse event at a screen cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mouse {
    /// What the mouse did.
    pub kind: MouseKind,
    /// The cell's column, from 0 at the left.
    pub column: u16,
    /// The cell's row, from 0 at the top.
    pub row: u16,
}

/// What the mouse did. Other buttons, releases and drags mean nothing here and are not converted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MouseKind {
    /// The left button went down.
    Click,
    /// The wheel turned away from the player.
    ScrollUp,
    /// The wheel turned toward the player.
    ScrollDown,
}
