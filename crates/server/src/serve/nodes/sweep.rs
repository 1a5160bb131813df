//! What came of taking a room or an event over, and of a look through the records for the games and events no
//! node runs: the words the take-overs of rooms (`serve::elsewhere`) and of events (`serve::events::across`)
//! share.

/// What came of claiming a room (or an event) to resume it here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Resumption {
    /// The room is here.
    Here,
    /// Another node holds it, or there is nothing in progress behind the code (its lease given up).
    NotHere,
    /// The records (or the leases) could not be read: the game (or event) may be in progress with nothing
    /// running it anywhere, and must be looked for again.
    Unreadable,
}

/// What a look through the records for games no node runs found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sweep {
    /// Games resumed here.
    pub resumed: usize,
    /// Whether every game in progress was read: when not, some may still have no room, and the look is made
    /// again.
    pub complete: bool,
}
