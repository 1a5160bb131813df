//! What came of taking a table or an event over, and of a look through the records for the games and events no
//! node runs: the words the take-overs of tables (`serve::elsewhere`) and of events (`serve::events::across`)
//! share.

/// What came of claiming a table (or an event) to resume it here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Resumption {
    /// The table is here.
    Here,
    /// Another node holds it, or there is nothing in progress behind the code (its lease given up).
    NotHere,
    /// The records (or the leases) could not be read: the game (or event) may be in progress with nothing
    /// running it anywhere, and must be looked for again.
    Unreadable,
}

/// What a look through the records for games no node runs found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sweep {
    /// Games resumed here.
    pub resumed: usize,
    /// Whether every game in progress was read: when not, some may still have no table, and the look is made
    /// again.
    pub complete: bool,
}

impl Sweep {
    /// A look that read everything and resumed nothing: where a look starts, and what one that was not needed
    /// reports.
    pub const NOTHING_LEFT: Sweep = Sweep {
        resumed: 0,
        complete: true,
    };
    /// A look that could not read the records' list: everything may still be left, and it is made again.
    pub const UNREAD: Sweep = Sweep {
        resumed: 0,
        complete: false,
    };

    /// Counts what came of one claim.
    pub fn count(&mut self, resumption: Resumption) {
        match resumption {
            Resumption::Here => self.resumed += 1,
            Resumption::NotHere => {}
            Resumption::Unreadable => self.complete = false,
        }
    }
}
